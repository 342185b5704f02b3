package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/searchbench/searchbench/orchestrator/httpx"
)

// Exa defaults and environment variables.
const (
	DefaultExaBaseURL = "https://api.exa.ai"
	EnvExaAPIKey      = "EXA_API_KEY"
	EnvExaBaseURL     = "EXA_BASE_URL"
)

// ExaConfig configures an Exa client.
type ExaConfig struct {
	BaseURL   string            // empty: DefaultExaBaseURL
	APIKey    string            // required; sent as x-api-key
	Transport http.RoundTripper // nil: a private default transport
	Retry     httpx.Policy      // zero value: httpx.DefaultPolicy()
}

// ExaConfigFromEnv reads EXA_BASE_URL and EXA_API_KEY through getenv,
// reporting every problem and returning what it read regardless.
func ExaConfigFromEnv(getenv func(string) string) (ExaConfig, error) {
	base, key, err := fromEnv(getenv, "exa", EnvExaBaseURL, DefaultExaBaseURL, EnvExaAPIKey)
	return ExaConfig{BaseURL: base, APIKey: key, Retry: httpx.DefaultPolicy()}, err
}

// Exa is a client for Exa's /search. It is safe for concurrent use.
type Exa struct {
	http *httpx.Client
	base string
	key  string
	now  func() time.Time // the retry policy's clock: times a search without searchTime
}

// NewExa checks cfg and returns a client; a missing key is an error here,
// before any request.
func NewExa(cfg ExaConfig) (*Exa, error) {
	base, err := checkConfig("exa", cfg.BaseURL, DefaultExaBaseURL, cfg.APIKey, EnvExaAPIKey)
	if err != nil {
		return nil, err
	}
	p := policy(cfg.Retry)
	now := p.Now
	if now == nil {
		now = time.Now
	}
	return &Exa{http: httpx.NewClient(cfg.Transport, p), base: base, key: cfg.APIKey, now: now}, nil
}

// ExaRequest is the body of POST /search, in Exa's camelCase. Unset fields
// are omitted, except Contents: without it Exa returns no text at all, so
// Search adds DefaultExaContents' text and highlights when a request asks
// for neither.
type ExaRequest struct {
	Query              string       `json:"query"`
	Type               string       `json:"type,omitempty"`       // auto|fast|instant|deep|neural|keyword
	NumResults         int          `json:"numResults,omitempty"` // 0: Exa's default (10)
	IncludeDomains     []string     `json:"includeDomains,omitempty"`
	ExcludeDomains     []string     `json:"excludeDomains,omitempty"`
	StartPublishedDate string       `json:"startPublishedDate,omitempty"` // ISO 8601
	EndPublishedDate   string       `json:"endPublishedDate,omitempty"`
	Category           string       `json:"category,omitempty"` // company, research paper, news, pdf, ...
	Contents           *ExaContents `json:"contents,omitempty"`
}

// ExaContents says which text Exa returns per result.
type ExaContents struct {
	Text       *ExaText       `json:"text,omitempty"`
	Highlights *ExaHighlights `json:"highlights,omitempty"`
	Summary    *ExaSummary    `json:"summary,omitempty"`
}

// withText makes sure Exa is asked for text to show: contents that ask
// for neither highlights nor text (nil, empty, summary only) get those of
// DefaultExaContents added. The caller's value is not modified.
func withText(c *ExaContents) *ExaContents {
	if c != nil && (c.Text != nil || c.Highlights != nil) {
		return c
	}
	out := DefaultExaContents()
	if c != nil {
		out.Summary = c.Summary
	}
	return out
}

// DefaultExaContents asks for highlights (the snippet) and up to 1000
// characters of text (the fallback snippet when a page has no highlight).
func DefaultExaContents() *ExaContents {
	return &ExaContents{Text: &ExaText{MaxCharacters: 1000}, Highlights: &ExaHighlights{}}
}

// ExaText requests page text; zero options are sent as true.
type ExaText struct {
	MaxCharacters int
}

// MarshalJSON writes true or {"maxCharacters":n}.
func (t ExaText) MarshalJSON() ([]byte, error) {
	if t.MaxCharacters == 0 {
		return []byte("true"), nil
	}
	return json.Marshal(struct {
		MaxCharacters int `json:"maxCharacters"`
	}{t.MaxCharacters})
}

// ExaHighlights requests highlights; zero options are sent as true.
type ExaHighlights struct {
	Query            string
	MaxCharacters    int
	NumSentences     int
	HighlightsPerURL int
}

// MarshalJSON writes true or the options set.
func (h ExaHighlights) MarshalJSON() ([]byte, error) {
	if h == (ExaHighlights{}) {
		return []byte("true"), nil
	}
	return json.Marshal(struct {
		Query            string `json:"query,omitempty"`
		MaxCharacters    int    `json:"maxCharacters,omitempty"`
		NumSentences     int    `json:"numSentences,omitempty"`
		HighlightsPerURL int    `json:"highlightsPerUrl,omitempty"`
	}(h))
}

// ExaSummary requests a summary; no query is sent as true.
type ExaSummary struct {
	Query string
}

// MarshalJSON writes true or {"query":...}.
func (s ExaSummary) MarshalJSON() ([]byte, error) {
	if s.Query == "" {
		return []byte("true"), nil
	}
	return json.Marshal(struct {
		Query string `json:"query"`
	}{s.Query})
}

// ExaResponse is the body of a /search answer. Two shapes are read: the
// one the API and exa-py use (resolvedSearchType, searchTime) and the one
// of the public OpenAPI spec (searchType, no searchTime).
type ExaResponse struct {
	RequestID          string      `json:"requestId"`
	ResolvedSearchType string      `json:"resolvedSearchType,omitempty"`
	SearchType         string      `json:"searchType,omitempty"` // the OpenAPI spec's name for it
	Hits               []ExaResult `json:"results"`              // as sent; Results() normalises them
	// SearchTime is Exa's own timing in milliseconds.
	SearchTime  float64  `json:"searchTime"`
	CostDollars *ExaCost `json:"costDollars,omitempty"`
	// Attempts are the HTTP attempts the call took, retries included.
	Attempts []httpx.Attempt `json:"-"`
	// RoundTripMS is the call's HTTP time as the client measured it (first
	// request to last response, on the retry policy's clock: in a replay,
	// the recorded durations). LatencyMS falls back to it.
	RoundTripMS float64 `json:"-"`

	hasSearchTime bool // searchTime was in the body
}

// UnmarshalJSON accepts searchTime as a number or a string.
func (r *ExaResponse) UnmarshalJSON(b []byte) error {
	type plain ExaResponse
	w := struct {
		*plain
		SearchTime flexFloat `json:"searchTime"`
	}{plain: (*plain)(r)}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	r.SearchTime = float64(w.SearchTime)
	var probe struct {
		SearchTime json.RawMessage `json:"searchTime"`
	}
	_ = json.Unmarshal(b, &probe)
	r.hasSearchTime = len(probe.SearchTime) > 0 && string(probe.SearchTime) != "null"
	return nil
}

// Sources of a search's latency.
const (
	LatencyProvider  = "provider"   // the provider's own timing (Tavily response_time, Exa searchTime)
	LatencyRoundTrip = "round_trip" // the client's HTTP round trip: the provider gave no timing
)

// LatencyMS is Exa's reported search time in milliseconds, or, when the
// body has no searchTime (the OpenAPI spec's shape), the measured round
// trip; LatencySource says which.
func (r *ExaResponse) LatencyMS() float64 {
	if r.LatencySource() == LatencyRoundTrip {
		return r.RoundTripMS
	}
	return r.SearchTime
}

// LatencySource is LatencyProvider when the body had searchTime, else
// LatencyRoundTrip.
func (r *ExaResponse) LatencySource() string {
	if r.hasSearchTime {
		return LatencyProvider
	}
	return LatencyRoundTrip
}

// ExaCost is what the call cost.
type ExaCost struct {
	Total float64 `json:"total"`
}

// ExaResult is one Exa hit. Title may be null (read as "").
type ExaResult struct {
	ID              string    `json:"id"`
	URL             string    `json:"url"`
	Title           string    `json:"title"`
	PublishedDate   string    `json:"publishedDate,omitempty"`
	Author          string    `json:"author,omitempty"`
	Score           float64   `json:"score,omitempty"`
	Text            string    `json:"text,omitempty"`
	Highlights      []string  `json:"highlights,omitempty"`
	HighlightScores []float64 `json:"highlightScores,omitempty"`
	Summary         string    `json:"summary,omitempty"`
	Favicon         string    `json:"favicon,omitempty"`
	Image           string    `json:"image,omitempty"`
}

// UnmarshalJSON accepts score as a number, a string or null.
func (r *ExaResult) UnmarshalJSON(b []byte) error {
	type plain ExaResult
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

// highlightSep joins several highlights of one page into a snippet; the
// ellipsis marks that they are not contiguous.
const highlightSep = " ... "

// Results normalises the hits: the snippet is the joined highlights, else
// the text, else the summary; a null title becomes the URL's host.
func (r *ExaResponse) Results() []Result {
	out := make([]Result, 0, len(r.Hits))
	for _, h := range r.Hits {
		var hl []string
		for _, s := range h.Highlights {
			if s = strings.TrimSpace(s); s != "" {
				hl = append(hl, s)
			}
		}
		snippet := strings.Join(hl, highlightSep)
		if snippet == "" {
			snippet = strings.TrimSpace(h.Text)
		}
		if snippet == "" {
			snippet = strings.TrimSpace(h.Summary)
		}
		title := strings.TrimSpace(h.Title)
		if title == "" {
			title = host(h.URL)
		}
		out = append(out, Result{Title: title, URL: h.URL, Snippet: snippet, Published: h.PublishedDate, Score: h.Score})
	}
	return out
}

// Search calls POST /search, asking for DefaultExaContents' text and
// highlights when req asks for neither. The request is checked first (every problem reported,
// nothing sent). A non-2xx answer is an *httpx.APIError; after a failure
// that reached the network httpx.AttemptsOf(err) gives the attempts.
func (e *Exa) Search(ctx context.Context, req ExaRequest) (*ExaResponse, error) {
	var errs []error
	if strings.TrimSpace(req.Query) == "" {
		errs = append(errs, errors.New("empty query"))
	}
	if req.NumResults < 0 || req.NumResults > 100 {
		errs = append(errs, fmt.Errorf("numResults %d, want 0 to 100", req.NumResults))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("exa search %s: invalid request: %w", quote(e.http, req.Query), err)
	}
	req.Contents = withText(req.Contents)
	var resp ExaResponse
	h := http.Header{"X-Api-Key": {e.key}}
	start := e.now()
	attempts, err := postJSON(ctx, e.http, httpx.Endpoint{Service: "exa", Base: e.base, Path: "/search"}, h, req, &resp)
	if err != nil {
		return nil, fmt.Errorf("exa search %s: %w", quote(e.http, req.Query), err)
	}
	resp.Attempts = attempts
	resp.RoundTripMS = float64(e.now().Sub(start).Microseconds()) / 1e3
	return &resp, nil
}
