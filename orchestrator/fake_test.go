package orchestrator

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/searchbench/searchbench/orchestrator/answer"
	"github.com/searchbench/searchbench/orchestrator/httpx"
	"github.com/searchbench/searchbench/orchestrator/llm"
)

// fake is a loopback server speaking the chat completions, Tavily and Exa
// wire formats, with scripted chat replies and injectable failures.
type fake struct {
	t   *testing.T
	srv *httptest.Server

	mu       sync.Mutex
	replies  []reply           // chat replies, consumed in order
	chatReqs []json.RawMessage // every chat request body, in order
	searches []string          // "tavily:<query>:<max>" / "exa:<query>:<n>" per search request
	fail     map[string][]int  // per provider ("chat", "tavily", "exa"): statuses to answer first
}

// reply is one scripted chat completion.
type reply struct {
	content string
	calls   []llm.ToolCall
	finish  string
	null    bool // content: null
}

func newFake(t *testing.T) *fake {
	f := &fake{t: t, fail: map[string][]int{}}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fake) script(rs ...reply) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.replies = append(f.replies, rs...)
}

// failFirst makes provider answer status to its next requests, in order.
func (f *fake) failFirst(provider string, statuses ...int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fail[provider] = append(f.fail[provider], statuses...)
}

func (f *fake) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	provider := map[string]string{"/v1/chat/completions": "chat", "/tavily/search": "tavily", "/tavily/extract": "tavily", "/exa/search": "exa"}[r.URL.Path]
	f.mu.Lock()
	defer f.mu.Unlock()
	if provider == "" {
		http.NotFound(w, r)
		return
	}
	if q := f.fail[provider]; len(q) > 0 {
		f.fail[provider] = q[1:]
		w.Header().Set("Content-Type", "application/json")
		if q[0] == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", "2")
		}
		w.WriteHeader(q[0])
		switch provider {
		case "chat":
			io.WriteString(w, `{"message":"Requests per second limit exceeded - too many requests sent.","type":"too_many_requests_error","param":"quota","code":"request_quota_exceeded"}`)
		case "tavily":
			io.WriteString(w, `{"detail":{"error":"Rate limit exceeded"}}`)
		case "exa":
			io.WriteString(w, `{"requestId":"r1","error":"Service temporarily overloaded","tag":"SERVICE_OVERLOADED"}`)
		}
		return
	}
	switch provider {
	case "chat":
		f.chatReqs = append(f.chatReqs, json.RawMessage(body))
		if len(f.replies) == 0 {
			f.t.Errorf("unexpected chat request %d: %s", len(f.chatReqs), body)
			http.Error(w, `{"error":{"message":"no scripted reply","type":"test","code":500}}`, 500)
			return
		}
		rp := f.replies[0]
		f.replies = f.replies[1:]
		msg := map[string]any{"role": "assistant", "content": rp.content, "reasoning": "thinking"}
		if rp.null {
			msg["content"] = nil
		}
		finish := rp.finish
		if len(rp.calls) > 0 {
			msg["tool_calls"] = rp.calls
			if finish == "" {
				finish = "tool_calls"
			}
		}
		if finish == "" {
			finish = "stop"
		}
		json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-1", "object": "chat.completion", "created": 1767225600, "model": "gpt-oss-120b",
			"choices":   []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
			"usage":     map[string]int{"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
			"time_info": map[string]float64{"queue_time": 0.001, "prompt_time": 0.01, "completion_time": 0.2, "total_time": 0.25},
		})
	case "tavily":
		if r.URL.Path == "/tavily/extract" {
			var req struct {
				URLs []string `json:"urls"`
			}
			json.Unmarshal(body, &req)
			f.searches = append(f.searches, "extract:"+strings.Join(req.URLs, ","))
			if strings.Contains(req.URLs[0], "missing") {
				io.WriteString(w, `{"results":[],"failed_results":[{"url":"`+req.URLs[0]+`","error":"404 Not Found"}],"response_time":0.2,"request_id":"x1"}`)
				return
			}
			io.WriteString(w, `{"results":[{"url":"`+req.URLs[0]+`","raw_content":"# Page\n\nThe page text."}],"failed_results":[],"response_time":0.2,"request_id":"x1"}`)
			return
		}
		var req struct {
			Query      string `json:"query"`
			MaxResults int    `json:"max_results"`
		}
		json.Unmarshal(body, &req)
		f.searches = append(f.searches, fmt.Sprintf("tavily:%s:%d", req.Query, req.MaxResults))
		var results []map[string]any
		for i := 0; i < req.MaxResults && i < 7; i++ {
			results = append(results, map[string]any{"title": fmt.Sprintf("Fact page %d", i+1), "url": fmt.Sprintf("https://news%d.example.com/a", i+1), "content": "A concrete fact about " + req.Query + ".", "score": 0.9})
		}
		json.NewEncoder(w).Encode(map[string]any{"query": req.Query, "results": results, "response_time": 0.5, "request_id": "t1"})
	case "exa":
		var req struct {
			Query      string `json:"query"`
			NumResults int    `json:"numResults"`
		}
		json.Unmarshal(body, &req)
		f.searches = append(f.searches, fmt.Sprintf("exa:%s:%d", req.Query, req.NumResults))
		var results []map[string]any
		for i := 0; i < req.NumResults && i < 7; i++ {
			results = append(results, map[string]any{"id": fmt.Sprint(i), "title": fmt.Sprintf("Survey %d", i+1), "url": fmt.Sprintf("https://papers%d.example.org/p", i+1), "highlights": []string{"An approach to " + req.Query + "."}, "score": 0.5})
		}
		json.NewEncoder(w).Encode(map[string]any{"requestId": "e1", "results": results, "searchTime": 120.0})
	}
}

// requests decodes the chat requests seen so far.
func (f *fake) requests() []chatRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []chatRequest
	for _, b := range f.chatReqs {
		var r chatRequest
		if err := json.Unmarshal(b, &r); err != nil {
			f.t.Fatal(err)
		}
		r.raw = string(b)
		out = append(out, r)
	}
	return out
}

type chatRequest struct {
	Messages []struct {
		Role       string `json:"role"`
		Content    string `json:"content"`
		ToolCallID string `json:"tool_call_id"`
	} `json:"messages"`
	Tools          []json.RawMessage `json:"tools"`
	ToolChoice     any               `json:"tool_choice"`
	ResponseFormat json.RawMessage   `json:"response_format"`
	raw            string
}

// sleeps records the waits the retry policy asked for.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	return nil
}

// assistantFor returns an assistant whose clients talk to f, with a retry
// policy that records its waits instead of sleeping.
func (f *fake) assistant(opts Options) (*Assistant, *sleeps) {
	f.t.Helper()
	sl := &sleeps{}
	p := httpx.DefaultPolicy()
	p.MaxAttempts = 3
	p.Sleep = sl.sleep
	p.Jitter = func() float64 { return 0.5 }
	env := map[string]string{
		"CEREBRAS_API_KEY":         "test-key-cerebras",
		"TAVILY_API_KEY":           "test-key-tavily",
		"EXA_API_KEY":              "test-key-exa",
		"SEARCHBENCH_LLM_BASE_URL": f.srv.URL + "/v1",
		"TAVILY_BASE_URL":          f.srv.URL + "/tavily",
		"EXA_BASE_URL":             f.srv.URL + "/exa",
	}
	clients, err := ClientsFromEnv(func(k string) string { return env[k] }, http.DefaultTransport, p)
	if err != nil {
		f.t.Fatal(err)
	}
	a, err := New(clients, opts)
	if err != nil {
		f.t.Fatal(err)
	}
	return a, sl
}

func call(id, name, args string) llm.ToolCall {
	tc := llm.ToolCall{ID: id, Type: "function"}
	tc.Function.Name = name
	tc.Function.Arguments = args
	return tc
}

// goodAnswer is a contract-valid Phase 2 message.
func goodAnswer(verification string) string {
	return answer.FormatPhase2(verification, goodEnvelope())
}

func goodEnvelope() answer.Envelope {
	return answer.Success(
		[]answer.Bullet{
			{Text: "Satya Nadella has been Microsoft's CEO since February 2014.", SourceIDs: []string{"s1", "s2"}},
			{Text: "He succeeded Steve Ballmer, who led the company from 2000.", SourceIDs: []string{"s1", "s3"}},
			{Text: "Nadella also became chairman of the board in June 2021.", SourceIDs: []string{"s2", "s3"}},
		},
		[]answer.Source{
			{ID: "s1", Domain: "microsoft.com", Title: "Satya Nadella – Microsoft", URL: "https://news.microsoft.com/exec/satya-nadella/"},
			{ID: "s2", Domain: "reuters.com", Title: "Microsoft names Nadella chairman", URL: "https://www.reuters.com/technology/microsoft-nadella-chairman-2021-06-16/"},
			{ID: "s3", Domain: "wikipedia.org", Title: "Satya Nadella", URL: "https://en.wikipedia.org/wiki/Satya_Nadella"},
		},
	)
}

const phase1Text = "### Phase 1 – Immediate Answer (Unverified)\nSatya Nadella is the CEO of Microsoft.\n\n" + answer.ConsentQuestion
