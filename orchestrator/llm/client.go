package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/searchbench/searchbench/orchestrator/httpx"
)

// Defaults: Cerebras' endpoint and model name. vLLM serves the same model
// as VLLMModel unless started with --served-model-name.
const (
	DefaultBaseURL = "https://api.cerebras.ai/v1"
	DefaultModel   = "gpt-oss-120b"
	VLLMModel      = "openai/gpt-oss-120b"
)

// Environment variables read by ConfigFromEnv.
const (
	EnvBaseURL   = "SEARCHBENCH_LLM_BASE_URL"
	EnvModel     = "SEARCHBENCH_LLM_MODEL"
	EnvAPIKey    = "CEREBRAS_API_KEY"
	EnvAPIKeyAlt = "OPENAI_API_KEY"
)

// Config configures a chat client.
type Config struct {
	BaseURL string // empty: DefaultBaseURL; "/chat/completions" is appended
	APIKey  string // required; sent as a Bearer token, never logged
	Model   string // empty: DefaultModel; a request's own Model wins
	// Transport carries every request (nil: a private default transport).
	// The harness passes its recorder here.
	Transport http.RoundTripper
	// Retry is the retry policy; the zero value means httpx.DefaultPolicy().
	Retry httpx.Policy
}

// ConfigFromEnv reads SEARCHBENCH_LLM_BASE_URL, SEARCHBENCH_LLM_MODEL and
// CEREBRAS_API_KEY (else OPENAI_API_KEY) through getenv. It reports every
// problem at once and returns the config read so far even on error, so a
// replaying caller may supply a placeholder key.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	cfg := Config{Model: strings.TrimSpace(getenv(EnvModel)), Retry: httpx.DefaultPolicy()}
	if cfg.Model == "" {
		cfg.Model = DefaultModel
	}
	var errs []error
	base, err := httpx.BaseURL(EnvBaseURL, getenv(EnvBaseURL), DefaultBaseURL)
	if err != nil {
		errs = append(errs, err)
	}
	cfg.BaseURL = base
	cfg.APIKey = strings.TrimSpace(getenv(EnvAPIKey))
	if cfg.APIKey == "" {
		cfg.APIKey = strings.TrimSpace(getenv(EnvAPIKeyAlt))
	}
	if cfg.APIKey == "" {
		errs = append(errs, missingKey(cfg.BaseURL))
	}
	return cfg, errors.Join(errs...)
}

func missingKey(base string) error {
	return &httpx.MissingKeyError{Provider: providerOf(base), Vars: []string{EnvAPIKey, EnvAPIKeyAlt}}
}

// Client calls an OpenAI-compatible chat completions endpoint. It is safe
// for concurrent use.
type Client struct {
	http     *httpx.Client
	ep       httpx.Endpoint
	model    string
	key      string
	provider string
}

// New checks cfg and returns a client; a missing key is an error here,
// before any request.
func New(cfg Config) (*Client, error) {
	base, err := httpx.BaseURL("llm.Config.BaseURL", cfg.BaseURL, DefaultBaseURL)
	if err != nil {
		return nil, err
	}
	if cfg.APIKey == "" {
		return nil, missingKey(base)
	}
	model := cfg.Model
	if model == "" {
		model = DefaultModel
	}
	p := cfg.Retry
	if p.MaxAttempts == 0 {
		p = httpx.DefaultPolicy()
	}
	return &Client{
		http:     httpx.NewClient(cfg.Transport, p),
		ep:       httpx.Endpoint{Service: "chat", Base: base, Path: "/chat/completions"},
		model:    model,
		key:      cfg.APIKey,
		provider: providerOf(base),
	}, nil
}

// Model is the model requests use when they name none.
func (c *Client) Model() string { return c.model }

// providerOf names the server in errors: "cerebras" for Cerebras, else the
// host (a vLLM server, the loopback simulator).
func providerOf(base string) string {
	u, err := url.Parse(base)
	if err != nil || u.Host == "" {
		return "llm"
	}
	if h := u.Hostname(); h == "cerebras.ai" || strings.HasSuffix(h, ".cerebras.ai") {
		return "cerebras"
	}
	return u.Host
}

// Chat sends one non-streaming chat completion request. The request is
// checked first (every problem reported, nothing sent). A non-2xx answer
// is an *httpx.APIError; after any failure that reached the network,
// httpx.AttemptsOf(err) gives the attempts. A 200 whose body has no choices
// is an error too.
func (c *Client) Chat(ctx context.Context, req *ChatRequest) (*ChatResponse, error) {
	if req == nil {
		return nil, errors.New("llm chat: nil request")
	}
	r := *req
	if r.Model == "" {
		r.Model = c.model
	}
	if err := r.validate(); err != nil {
		return nil, fmt.Errorf("llm chat: invalid request: %w", err)
	}
	body, err := r.body()
	if err != nil {
		return nil, fmt.Errorf("llm chat: encode request: %w", err)
	}
	h := http.Header{"Authorization": {"Bearer " + c.key}}
	respBody, attempts, err := c.http.Post(ctx, c.ep, h, json.RawMessage(body), httpx.ErrorDecoder(c.provider))
	if err != nil {
		return nil, fmt.Errorf("llm chat (model %s): %w", r.Model, err)
	}
	resp, err := DecodeResponse(respBody)
	if err != nil {
		return nil, fmt.Errorf("llm chat (model %s): %w", r.Model,
			httpx.WithAttemptsAt(c.ep, attempts, fmt.Errorf("decode chat completion (%d bytes): %w", len(respBody), err)))
	}
	resp.Attempts = attempts
	return resp, nil
}
