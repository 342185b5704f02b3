package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/searchbench/searchbench/orchestrator/httpx"
)

// Tavily defaults and environment variables.
const (
	DefaultTavilyBaseURL = "https://api.tavily.com"
	EnvTavilyAPIKey      = "TAVILY_API_KEY"
	EnvTavilyBaseURL     = "TAVILY_BASE_URL"
)

// Tavily request limits, checked before sending.
const (
	TavilyMaxQuery          = 400 // characters; longer gives a 400
	TavilyMaxResults        = 20
	TavilyMaxIncludeDomains = 300
	TavilyMaxExcludeDomains = 150
	TavilyMaxExtractURLs    = 20
)

// TavilyConfig configures a Tavily client.
type TavilyConfig struct {
	BaseURL   string            // empty: DefaultTavilyBaseURL
	APIKey    string            // required; sent as a Bearer token, never in the body
	Transport http.RoundTripper // nil: a private default transport
	Retry     httpx.Policy      // zero value: httpx.DefaultPolicy()
}

// TavilyConfigFromEnv reads TAVILY_BASE_URL and TAVILY_API_KEY through
// getenv, reporting every problem and returning what it read regardless.
func TavilyConfigFromEnv(getenv func(string) string) (TavilyConfig, error) {
	base, key, err := fromEnv(getenv, "tavily", EnvTavilyBaseURL, DefaultTavilyBaseURL, EnvTavilyAPIKey)
	return TavilyConfig{BaseURL: base, APIKey: key, Retry: httpx.DefaultPolicy()}, err
}

// Tavily is a client for Tavily's /search and /extract. It is safe for
// concurrent use.
type Tavily struct {
	http *httpx.Client
	base string
	key  string
}

// NewTavily checks cfg and returns a client; a missing key is an error
// here, before any request.
func NewTavily(cfg TavilyConfig) (*Tavily, error) {
	base, err := checkConfig("tavily", cfg.BaseURL, DefaultTavilyBaseURL, cfg.APIKey, EnvTavilyAPIKey)
	if err != nil {
		return nil, err
	}
	return &Tavily{http: httpx.NewClient(cfg.Transport, policy(cfg.Retry)), base: base, key: cfg.APIKey}, nil
}

// TavilyRequest is the body of POST /search. Unset fields are omitted.
type TavilyRequest struct {
	Query             string   `json:"query"`
	SearchDepth       string   `json:"search_depth,omitempty"` // basic|advanced|fast|ultra-fast
	MaxResults        int      `json:"max_results,omitempty"`  // 1–20; 0: Tavily's default (5)
	Topic             string   `json:"topic,omitempty"`        // general|news|finance
	TimeRange         string   `json:"time_range,omitempty"`   // day|week|month|year
	StartDate         string   `json:"start_date,omitempty"`   // YYYY-MM-DD
	EndDate           string   `json:"end_date,omitempty"`
	IncludeAnswer     bool     `json:"include_answer,omitempty"`
	IncludeRawContent bool     `json:"include_raw_content,omitempty"`
	IncludeImages     bool     `json:"include_images,omitempty"`
	IncludeFavicon    bool     `json:"include_favicon,omitempty"`
	IncludeUsage      bool     `json:"include_usage,omitempty"`
	IncludeDomains    []string `json:"include_domains,omitempty"`
	ExcludeDomains    []string `json:"exclude_domains,omitempty"`
	Country           string   `json:"country,omitempty"`
	ChunksPerSource   int      `json:"chunks_per_source,omitempty"` // 1–3, advanced depth only
}

func (r *TavilyRequest) validate() error {
	var errs []error
	if strings.TrimSpace(r.Query) == "" {
		errs = append(errs, errors.New("empty query"))
	}
	if n := utf8.RuneCountInString(r.Query); n > TavilyMaxQuery {
		errs = append(errs, fmt.Errorf("query has %d characters, Tavily allows %d", n, TavilyMaxQuery))
	}
	if r.MaxResults < 0 || r.MaxResults > TavilyMaxResults {
		errs = append(errs, fmt.Errorf("max_results %d, want 0 to %d", r.MaxResults, TavilyMaxResults))
	}
	if r.ChunksPerSource < 0 || r.ChunksPerSource > 3 {
		errs = append(errs, fmt.Errorf("chunks_per_source %d, want 0 to 3", r.ChunksPerSource))
	}
	if n := len(r.IncludeDomains); n > TavilyMaxIncludeDomains {
		errs = append(errs, fmt.Errorf("%d include_domains, Tavily allows %d", n, TavilyMaxIncludeDomains))
	}
	if n := len(r.ExcludeDomains); n > TavilyMaxExcludeDomains {
		errs = append(errs, fmt.Errorf("%d exclude_domains, Tavily allows %d", n, TavilyMaxExcludeDomains))
	}
	return errors.Join(errs...)
}

// TavilyResponse is the body of a /search answer.
type TavilyResponse struct {
	Query             string         `json:"query"`
	Answer            string         `json:"answer"` // null unless include_answer
	FollowUpQuestions []string       `json:"follow_up_questions"`
	Images            []TavilyImage  `json:"images"`
	Hits              []TavilyResult `json:"results"` // as sent; Results() normalises them
	// ResponseTime is Tavily's own timing in seconds (sent as a number, or
	// as a string in some examples; a value that is neither reads as 0).
	ResponseTime float64      `json:"response_time"`
	Usage        *TavilyUsage `json:"usage,omitempty"`
	RequestID    string       `json:"request_id"`
	// Attempts are the HTTP attempts the call took, retries included.
	Attempts []httpx.Attempt `json:"-"`
}

// UnmarshalJSON accepts response_time as a number or a string.
func (r *TavilyResponse) UnmarshalJSON(b []byte) error {
	type plain TavilyResponse
	w := struct {
		*plain
		ResponseTime flexFloat `json:"response_time"`
	}{plain: (*plain)(r)}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	r.ResponseTime = float64(w.ResponseTime)
	return nil
}

// LatencyMS is Tavily's reported response time in milliseconds.
func (r *TavilyResponse) LatencyMS() float64 { return secondsToMS(r.ResponseTime) }

// TavilyResult is one Tavily hit.
type TavilyResult struct {
	Title         string  `json:"title"`
	URL           string  `json:"url"`
	Content       string  `json:"content"`
	Score         float64 `json:"score"`
	RawContent    string  `json:"raw_content,omitempty"`
	Favicon       string  `json:"favicon,omitempty"`
	PublishedDate string  `json:"published_date,omitempty"` // news topic only
}

// UnmarshalJSON accepts score as a number or a string.
func (r *TavilyResult) UnmarshalJSON(b []byte) error {
	type plain TavilyResult
	w := struct {
		*plain
		Score flexFloat `json:"score"`
	}{plain: (*plain)(r)}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	r.Score = float64(w.Score)
	return nil
}

// TavilyImage is an image hit: Tavily sends a bare URL string, or an object
// with a description when include_image_descriptions is set.
type TavilyImage struct {
	URL         string `json:"url"`
	Description string `json:"description,omitempty"`
}

// UnmarshalJSON accepts a string or {url, description}.
func (im *TavilyImage) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		*im = TavilyImage{}
		return json.Unmarshal(b, &im.URL)
	}
	type plain TavilyImage
	return json.Unmarshal(b, (*plain)(im))
}

// TavilyUsage is the credit use, sent with include_usage.
type TavilyUsage struct {
	Credits float64 `json:"credits"`
}

// Results normalises the hits.
func (r *TavilyResponse) Results() []Result {
	out := make([]Result, 0, len(r.Hits))
	for _, h := range r.Hits {
		out = append(out, Result{Title: h.Title, URL: h.URL, Snippet: h.Content, Published: h.PublishedDate, Score: h.Score})
	}
	return out
}

// Search calls POST /search. The request is checked first (every problem
// reported, nothing sent). A non-2xx answer is an *httpx.APIError; after a
// failure that reached the network httpx.AttemptsOf(err) gives the attempts.
func (t *Tavily) Search(ctx context.Context, req TavilyRequest) (*TavilyResponse, error) {
	if err := req.validate(); err != nil {
		return nil, fmt.Errorf("tavily search %s: invalid request: %w", quote(t.http, req.Query), err)
	}
	var resp TavilyResponse
	attempts, err := t.post(ctx, "/search", req, &resp)
	if err != nil {
		return nil, fmt.Errorf("tavily search %s: %w", quote(t.http, req.Query), err)
	}
	resp.Attempts = attempts
	return &resp, nil
}

// ExtractRequest is the body of POST /extract.
type ExtractRequest struct {
	URLs           []string `json:"urls"`
	Query          string   `json:"query,omitempty"`         // reranks extracted chunks
	ExtractDepth   string   `json:"extract_depth,omitempty"` // basic|advanced
	Format         string   `json:"format,omitempty"`        // markdown|text
	Timeout        float64  `json:"timeout,omitempty"`       // seconds
	IncludeImages  bool     `json:"include_images,omitempty"`
	IncludeFavicon bool     `json:"include_favicon,omitempty"`
}

// ExtractResponse is the body of an /extract answer.
type ExtractResponse struct {
	Results       []ExtractResult `json:"results"`
	FailedResults []FailedExtract `json:"failed_results"`
	ResponseTime  float64         `json:"response_time"` // seconds
	RequestID     string          `json:"request_id"`
	// Attempts are the HTTP attempts the call took, retries included.
	Attempts []httpx.Attempt `json:"-"`
}

// UnmarshalJSON accepts response_time as a number or a string.
func (r *ExtractResponse) UnmarshalJSON(b []byte) error {
	type plain ExtractResponse
	w := struct {
		*plain
		ResponseTime flexFloat `json:"response_time"`
	}{plain: (*plain)(r)}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	r.ResponseTime = float64(w.ResponseTime)
	return nil
}

// LatencyMS is Tavily's reported response time in milliseconds.
func (r *ExtractResponse) LatencyMS() float64 { return secondsToMS(r.ResponseTime) }

// ExtractResult is the content of one URL.
type ExtractResult struct {
	URL        string        `json:"url"`
	RawContent string        `json:"raw_content"`
	Images     []TavilyImage `json:"images,omitempty"`
	Favicon    string        `json:"favicon,omitempty"`
}

// FailedExtract is a URL Tavily could not extract.
type FailedExtract struct {
	URL   string `json:"url"`
	Error string `json:"error"`
}

// Extract calls POST /extract.
func (t *Tavily) Extract(ctx context.Context, req ExtractRequest) (*ExtractResponse, error) {
	var errs []error
	if n := len(req.URLs); n == 0 || n > TavilyMaxExtractURLs {
		errs = append(errs, fmt.Errorf("%d urls, want 1 to %d", n, TavilyMaxExtractURLs))
	}
	for i, u := range req.URLs {
		if strings.TrimSpace(u) == "" {
			errs = append(errs, fmt.Errorf("urls[%d] is empty", i))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("tavily extract: invalid request: %w", err)
	}
	var resp ExtractResponse
	attempts, err := t.post(ctx, "/extract", req, &resp)
	if err != nil {
		return nil, fmt.Errorf("tavily extract (%d urls, first %s): %w", len(req.URLs), req.URLs[0], err)
	}
	resp.Attempts = attempts
	return &resp, nil
}

func (t *Tavily) post(ctx context.Context, path string, req, resp any) ([]httpx.Attempt, error) {
	h := http.Header{"Authorization": {"Bearer " + t.key}}
	return postJSON(ctx, t.http, httpx.Endpoint{Service: "tavily", Base: t.base, Path: path}, h, req, resp)
}
