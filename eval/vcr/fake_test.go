package vcr

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// Fake credentials. tavilyKey is deliberately not passed in
// RecordOptions.Secrets: the recorder must learn it from the request.
const (
	cerebrasKey = "csk-test-0123456789abcdef"
	tavilyKey   = "tvly-test-0123456789abcdef"
	exaKey      = "exa-test-0123456789abcdef"
)

// fakeAPI stands in for Cerebras, Tavily and Exa behind one loopback server,
// told apart by the Host header that Redirect preserves. Tavily echoes the
// caller's keys (in a header and in the body) and answers the query
// "rate limited" first with a 429, then with a 200.
type fakeAPI struct {
	slow    string        // host whose answers wait for release, to change completion order
	release chan struct{} // closed by the test once the other hosts have answered
	date    string        // the Date header to send (empty: net/http's own)
	hits    atomic.Int64
	mu      sync.Mutex
	seen    map[string]int
}

func newFakeAPI(t *testing.T) (*fakeAPI, *httptest.Server) {
	t.Helper()
	f := &fakeAPI{seen: map[string]int{}, release: make(chan struct{})}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.hits.Add(1)
	if r.Host == f.slow {
		<-f.release
	}
	if f.date != "" {
		w.Header().Set("Date", f.date)
	}
	body, _ := io.ReadAll(r.Body)
	var req map[string]any
	_ = json.Unmarshal(body, &req)
	w.Header().Set("Content-Type", "application/json")
	switch r.Host + r.URL.Path {
	case "api.cerebras.ai/v1/chat/completions":
		w.Header().Set("X-Ratelimit-Remaining-Requests-Day", "14399")
		writeJSON(w, 200, chatResponse(req))
	case "api.tavily.com/search":
		q, _ := req["query"].(string)
		f.mu.Lock()
		f.seen[q]++
		n := f.seen[q]
		f.mu.Unlock()
		if q == "rate limited" && n == 1 {
			writeJSON(w, 429, map[string]any{"detail": map[string]any{"error": "rate limited"}})
			return
		}
		w.Header().Set("X-Echo-Key", strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
		writeJSON(w, 200, tavilyResponse(q, req["api_key"]))
	case "api.exa.ai/search":
		q, _ := req["query"].(string)
		writeJSON(w, 200, exaResponse(q))
	default:
		http.NotFound(w, r)
	}
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Length", fmt.Sprint(len(b)))
	w.WriteHeader(code)
	w.Write(b)
}

// lorem makes deterministic filler text of about n bytes.
func lorem(seed string, n int) string {
	words := []string{"search", "answer", "source", "model", "phase", "query", "result", "cite", "bullet", "fresh"}
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString(words[(i*7+len(seed))%len(words)])
		b.WriteByte(' ')
	}
	return seed + ": " + b.String()
}

func chatResponse(req map[string]any) map[string]any {
	msgs, _ := req["messages"].([]any)
	return map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion", "created": 1700000000, "model": "gpt-oss-120b",
		"choices": []any{map[string]any{
			"index":         0,
			"finish_reason": "stop",
			"message": map[string]any{
				"role":      "assistant",
				"content":   lorem(fmt.Sprintf("answer to %d messages", len(msgs)), 1200),
				"reasoning": lorem("reasoning", 1500),
			},
		}},
		"usage":     map[string]any{"prompt_tokens": 900, "completion_tokens": 600, "total_tokens": 1500},
		"time_info": map[string]any{"queue_time": 0.0001, "prompt_time": 0.01, "completion_time": 0.4, "total_time": 0.42},
	}
}

func tavilyResponse(q string, echo any) map[string]any {
	var results []any
	for i := range 5 {
		results = append(results, map[string]any{
			"title": fmt.Sprintf("Result %d for %s", i, q), "url": fmt.Sprintf("https://example.com/%d", i),
			"content": lorem(q, 600), "score": 0.9 - float64(i)/10, "raw_content": nil,
		})
	}
	resp := map[string]any{
		"query": q, "answer": nil, "images": []any{}, "results": results,
		"response_time": "1.67", "request_id": "123e4567-e89b-12d3-a456-426614174000",
	}
	if echo != nil {
		resp["echo"] = fmt.Sprintf("key %v accepted", echo)
	}
	return resp
}

func exaResponse(q string) map[string]any {
	var results []any
	for i := range 5 {
		results = append(results, map[string]any{
			"id": fmt.Sprintf("https://exa.example/%d", i), "url": fmt.Sprintf("https://exa.example/%d", i),
			"title": "Exa " + q, "publishedDate": "2023-11-16T01:36:32.547Z", "author": "",
			"highlights": []any{lorem(q, 400), lorem("more", 300)}, "highlightScores": []any{0.5, 0.4},
		})
	}
	return map[string]any{
		"requestId": "b5947044c4b78efa9552a7c89b306d95", "resolvedSearchType": "neural",
		"results": results, "searchTime": 312.5, "costDollars": map[string]any{"total": 0.007},
	}
}

// call is one request the stand-in orchestrator sends.
type call struct {
	method, url string
	header      http.Header
	body        any // marshalled as JSON
}

// result is what the client saw.
type result struct {
	Status int
	Body   string
}

// systemPrompt is long on purpose: prompts dominate request bodies.
var systemPrompt = lorem("You are a two-phase web-search assistant", 3000)

// caseCalls is one case's traffic: a phase-1 chat, a Tavily search (old
// client: key in the body too), an Exa search and a phase-2 chat. With
// retry, the Tavily query is rate limited once and retried.
func caseCalls(question string, retry bool) []call {
	q := question
	if retry {
		q = "rate limited"
	}
	chat := func(extra ...any) map[string]any {
		msgs := []any{
			map[string]any{"role": "system", "content": systemPrompt},
			map[string]any{"role": "user", "content": question},
		}
		msgs = append(msgs, extra...)
		return map[string]any{
			"model": "gpt-oss-120b", "messages": msgs, "reasoning_effort": "medium",
			"max_completion_tokens": 4096, "seed": 7, "user": "engineer-42",
			"response_format": map[string]any{"type": "json_schema", "json_schema": map[string]any{
				"name": "envelope", "strict": true,
				"schema": map[string]any{"type": "object", "properties": map[string]any{"answer": map[string]any{"type": "string"}}},
			}},
		}
	}
	h := func(kv ...string) http.Header {
		hd := http.Header{"Content-Type": {"application/json"}}
		for i := 0; i < len(kv); i += 2 {
			hd.Set(kv[i], kv[i+1])
		}
		return hd
	}
	calls := []call{
		{"POST", "https://api.cerebras.ai/v1/chat/completions", h("Authorization", "Bearer "+cerebrasKey, "User-Agent", "OpenAI/Go 1.0", "X-Stainless-Os", "Linux"), chat()},
		{"POST", "https://api.tavily.com/search", h("Authorization", "Bearer "+tavilyKey), map[string]any{"query": q, "max_results": 5, "api_key": tavilyKey}},
	}
	if retry {
		calls = append(calls, calls[1])
	}
	calls = append(calls,
		call{"POST", "https://api.exa.ai/search", h("X-Api-Key", exaKey), map[string]any{"query": question, "numResults": 5, "contents": map[string]any{"highlights": true}}},
		call{"POST", "https://api.cerebras.ai/v1/chat/completions", h("Authorization", "Bearer "+cerebrasKey, "User-Agent", "OpenAI/Go 1.0"), chat(map[string]any{"role": "tool", "content": "search results"})},
	)
	return calls
}

// restyle returns calls as a different client would send them: other SDK
// headers and credentials, JSON keys in reverse order with whitespace.
func restyle(calls []call) []call {
	out := make([]call, len(calls))
	for i, c := range calls {
		h := http.Header{"Content-Type": {"application/json"}}
		h.Set("User-Agent", "searchbench/2")
		h.Set("X-Stainless-Retry-Count", "0")
		h.Set("Authorization", "Bearer other-key-for-replay")
		c.header = h
		c.body = reversedJSON(c.body)
		out[i] = c
	}
	return out
}

// rawJSON is a body sent verbatim.
type rawJSON string

// reversedJSON encodes v with object keys in reverse order and spaces.
func reversedJSON(v any) rawJSON {
	var b bytes.Buffer
	var enc func(v any)
	enc = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			slices.Reverse(keys)
			b.WriteString("{ ")
			for i, k := range keys {
				if i > 0 {
					b.WriteString(" ,\n ")
				}
				kb, _ := json.Marshal(k)
				b.Write(kb)
				b.WriteString(" : ")
				enc(v[k])
			}
			b.WriteString(" }")
		case []any:
			b.WriteString("[ ")
			for i, e := range v {
				if i > 0 {
					b.WriteString(", ")
				}
				enc(e)
			}
			b.WriteString(" ]")
		default:
			e, _ := json.Marshal(v)
			b.Write(e)
		}
	}
	enc(v)
	return rawJSON(b.String())
}

func (c call) request(t testing.TB) *http.Request {
	t.Helper()
	var body []byte
	switch v := c.body.(type) {
	case rawJSON:
		body = []byte(v)
	case nil:
	default:
		var err error
		if body, err = json.Marshal(v); err != nil {
			t.Fatal(err)
		}
	}
	req, err := http.NewRequest(c.method, c.url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = c.header.Clone()
	return req
}

// send makes the calls in order through rt, as an http.Client would.
func send(t testing.TB, rt http.RoundTripper, calls []call) ([]result, error) {
	t.Helper()
	client := &http.Client{Transport: rt}
	var out []result
	for _, c := range calls {
		resp, err := client.Do(c.request(t))
		if err != nil {
			return out, err
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return out, err
		}
		out = append(out, result{resp.StatusCode, string(b)})
	}
	return out, nil
}

// recordCase records calls from srv into path, deterministically.
func recordCase(t testing.TB, path string, srv *httptest.Server, calls []call) []result {
	t.Helper()
	rec, err := StartRecording(path, RecordOptions{
		Secrets:       []string{cerebrasKey, exaKey, ""},
		Deterministic: true,
		Real:          Redirect(mustURL(t, srv.URL), srv.Client().Transport),
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := send(t, rec, calls)
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.Save(); err != nil {
		t.Fatal(err)
	}
	return got
}

func mustURL(t testing.TB, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
