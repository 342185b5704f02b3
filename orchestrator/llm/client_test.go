package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/searchbench/searchbench/orchestrator/httpx"
)

var update = flag.Bool("update", false, "rewrite golden files")

const testKey = "csk-test-0123456789abcdef"

// capture is a loopback chat server answering with scripted responses and
// keeping every request as received.
type capture struct {
	mu       sync.Mutex
	paths    []string
	bodies   [][]byte
	headers  []http.Header
	answers  []answer
	srv      *httptest.Server
	received int
}

type answer struct {
	status int
	header map[string]string
	body   string
}

func newCapture(t *testing.T, answers ...answer) *capture {
	t.Helper()
	c := &capture{answers: answers}
	c.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		c.mu.Lock()
		c.paths = append(c.paths, r.URL.Path)
		c.bodies = append(c.bodies, b)
		c.headers = append(c.headers, r.Header.Clone())
		i := c.received
		c.received++
		c.mu.Unlock()
		if i >= len(c.answers) {
			t.Errorf("unexpected request %d", i+1)
			w.WriteHeader(599)
			return
		}
		a := c.answers[i]
		for k, v := range a.header {
			w.Header().Set(k, v)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(a.status)
		io.WriteString(w, a.body)
	}))
	t.Cleanup(c.srv.Close)
	return c
}

type waits struct {
	mu sync.Mutex
	d  []time.Duration
}

func (w *waits) sleep(ctx context.Context, d time.Duration) error {
	w.mu.Lock()
	w.d = append(w.d, d)
	w.mu.Unlock()
	return ctx.Err()
}

func (c *capture) client(t *testing.T, w *waits) *Client {
	t.Helper()
	p := httpx.DefaultPolicy()
	p.Jitter = nil
	p.Sleep = httpx.NoSleep
	if w != nil {
		p.Sleep = w.sleep
	}
	cl, err := New(Config{BaseURL: c.srv.URL + "/v1", APIKey: testKey, Transport: c.srv.Client().Transport, Retry: p})
	if err != nil {
		t.Fatal(err)
	}
	return cl
}

func fixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "responses", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\ngot  %s\nwant %s", path, got, want)
	}
}

func ptr[T any](v T) *T { return &v }

// fullRequest uses every request field the orchestrator may set.
func fullRequest() *ChatRequest {
	params := json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"},"max_results":{"type":"integer"}},"required":["query","max_results"],"additionalProperties":false}`)
	return &ChatRequest{
		Messages: []Message{
			{Role: RoleSystem, Content: "You are an expert assistant. Use <b>tools</b> & cite."},
			{Role: RoleUser, Content: "Who is the current CEO of Microsoft?"},
			{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "call_1", Type: "function", Function: FunctionCall{Name: "tavily_search", Arguments: `{"query":"Microsoft CEO","max_results":5}`}}}},
			{Role: RoleTool, ToolCallID: "call_1", Content: "Web search results for 'Microsoft CEO':\n\n1. Satya Nadella"},
		},
		Tools: []Tool{
			FunctionTool("tavily_search", "Web search for concrete facts.", params, true),
			FunctionTool("exa_search", "Semantic search.", params, false),
		},
		ToolChoice:          "tavily_search",
		ResponseFormat:      JSONSchemaFormat("envelope", json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"],"additionalProperties":false}`)),
		Temperature:         ptr(0.0),
		Seed:                ptr(0),
		MaxCompletionTokens: 4096,
		ReasoningEffort:     "medium",
		Extra: map[string]any{
			"structured_outputs": map[string]any{"json": json.RawMessage(`{"type":"object"}`)},
			"guided_json":        json.RawMessage(`{"type":"object"}`),
		},
	}
}

func TestChatRequestAsSent(t *testing.T) {
	srv := newCapture(t, answer{200, nil, fixture(t, "cerebras-tool-calls.json")}, answer{200, nil, fixture(t, "cerebras-tool-calls.json")})
	c := srv.client(t, nil)
	for i := 0; i < 2; i++ {
		if _, err := c.Chat(context.Background(), fullRequest()); err != nil {
			t.Fatal(err)
		}
	}
	if srv.paths[0] != "/v1/chat/completions" {
		t.Errorf("path = %s", srv.paths[0])
	}
	if got := srv.headers[0].Get("Authorization"); got != "Bearer "+testKey {
		t.Errorf("Authorization = %q", got)
	}
	if !bytes.Equal(srv.bodies[0], srv.bodies[1]) {
		t.Errorf("the same request gave different bodies:\n%s\n%s", srv.bodies[0], srv.bodies[1])
	}
	if bytes.Contains(srv.bodies[0], []byte(testKey)) {
		t.Error("the key is in the body")
	}
	golden(t, "request-full.json", append(srv.bodies[0], '\n'))
}

func TestChatRequestOmitsUnset(t *testing.T) {
	tests := []struct {
		name string
		req  ChatRequest
		want string
	}{
		{"minimal", ChatRequest{Messages: []Message{{Role: RoleUser, Content: "hi"}}},
			`{"model":"gpt-oss-120b","messages":[{"role":"user","content":"hi"}]}`},
		{"own model and empty user content", ChatRequest{Model: VLLMModel, Messages: []Message{{Role: RoleUser}}},
			`{"model":"openai/gpt-oss-120b","messages":[{"role":"user","content":""}]}`},
		{"mode tool choice", ChatRequest{Messages: []Message{{Role: RoleUser, Content: "x"}}, Tools: []Tool{FunctionTool("f", "", nil, false)}, ToolChoice: ToolChoiceAuto},
			`{"model":"gpt-oss-120b","messages":[{"role":"user","content":"x"}],"tools":[{"type":"function","function":{"name":"f"}}],"tool_choice":"auto"}`},
		{"assistant content kept with tool calls", ChatRequest{Messages: []Message{{Role: RoleAssistant, Content: "checking", ToolCalls: []ToolCall{{ID: "c", Type: "function", Function: FunctionCall{Name: "f", Arguments: "{}"}}}}}},
			`{"model":"gpt-oss-120b","messages":[{"role":"assistant","content":"checking","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newCapture(t, answer{200, nil, fixture(t, "cerebras-stop.json")})
			if _, err := srv.client(t, nil).Chat(context.Background(), &tt.req); err != nil {
				t.Fatal(err)
			}
			if got := string(srv.bodies[0]); got != tt.want {
				t.Errorf("body = %s\nwant   %s", got, tt.want)
			}
		})
	}
}

func TestChatDecodes(t *testing.T) {
	tests := []struct {
		fixture string
		want    Choice
		usage   Usage
		latency float64
	}{
		{"cerebras-tool-calls.json", Choice{FinishReason: FinishToolCalls, Message: ResponseMessage{Role: RoleAssistant, ContentNull: true,
			Reasoning: "The user asks for the current CEO. I should search with Tavily.",
			ToolCalls: []ToolCall{{ID: "call_7f3a9b2c", Type: "function", Function: FunctionCall{Name: "tavily_search", Arguments: `{"query":"current CEO of Microsoft","max_results":5}`}}}}},
			Usage{564, 48, 612}, 35.432},
		{"cerebras-stop.json", Choice{FinishReason: FinishStop, Message: ResponseMessage{Role: RoleAssistant, Content: "Satya Nadella is the CEO of Microsoft.", Reasoning: "Known fact."}},
			Usage{100, 20, 120}, 1670},
		{"vllm-reasoning-content.json", Choice{FinishReason: FinishStop, Message: ResponseMessage{Role: RoleAssistant, Content: "Paris.", Reasoning: "Capital of France."}},
			Usage{80, 15, 95}, 0},
		{"content-null-stop.json", Choice{FinishReason: FinishStop, Message: ResponseMessage{Role: RoleAssistant, ContentNull: true, Reasoning: "I will answer now."}},
			Usage{50, 30, 80}, 0},
		{"length-empty.json", Choice{FinishReason: FinishLength, Message: ResponseMessage{Role: RoleAssistant, Reasoning: "Let me think about every possible interpretation of this question in depth"}},
			Usage{50, 1024, 1074}, 403.2},
		{"both-null.json", Choice{FinishReason: FinishStop, Message: ResponseMessage{Role: RoleAssistant, ContentNull: true}},
			Usage{50, 200, 250}, 0},
		{"cot-in-content.json", Choice{FinishReason: FinishStop, Message: ResponseMessage{Role: RoleAssistant, Content: "analysisThe user wants the CEO. assistantfinalSatya Nadella."}},
			Usage{50, 20, 70}, 0},
		{"arguments-object.json", Choice{FinishReason: FinishToolCalls, Message: ResponseMessage{Role: RoleAssistant, Reasoning: "search",
			ToolCalls: []ToolCall{{ID: "chatcmpl-tool-1", Type: "function", Function: FunctionCall{Name: "exa_search", Arguments: `{"query":"survey of retrieval augmented generation"}`}}}}},
			Usage{60, 25, 85}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			srv := newCapture(t, answer{200, nil, fixture(t, tt.fixture)})
			resp, err := srv.client(t, nil).Chat(context.Background(), &ChatRequest{Messages: []Message{{Role: RoleUser, Content: "q"}}})
			if err != nil {
				t.Fatal(err)
			}
			if got := resp.First(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("choice\ngot  %#v\nwant %#v", got, tt.want)
			}
			if resp.Usage != tt.usage || resp.LatencyMS() != tt.latency {
				t.Errorf("usage %+v latency %v; want %+v %v", resp.Usage, resp.LatencyMS(), tt.usage, tt.latency)
			}
			if got := httpx.Statuses(resp.Attempts); len(got) != 1 || got[0] != 200 {
				t.Errorf("attempts = %+v", resp.Attempts)
			}
			// A stored message decodes back to the same value.
			b, err := json.Marshal(resp.First().Message)
			if err != nil {
				t.Fatal(err)
			}
			var back ResponseMessage
			if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, resp.First().Message) {
				t.Errorf("round trip: %s -> %#v, %v", b, back, err)
			}
		})
	}
}

func TestChatErrors(t *testing.T) {
	cerebras429 := `{"message":"Requests per second limit exceeded - too many requests sent.","type":"too_many_requests_error","param":"quota","code":"request_quota_exceeded"}`
	vllm400 := `{"error":{"message":"This model's maximum context length is 131072 tokens.","type":"BadRequestError","param":null,"code":400}}`
	tests := []struct {
		name       string
		answers    []answer
		wantStatus []int
		wantWaits  []time.Duration
		wantAPI    *httpx.APIError // nil: not an API error
		wantErr    string
	}{
		{
			name:       "429 with Retry-After then 200",
			answers:    []answer{{429, map[string]string{"Retry-After": "2"}, cerebras429}, {200, nil, `{"choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}`}},
			wantStatus: []int{429, 200},
			wantWaits:  []time.Duration{2 * time.Second},
		},
		{
			name:       "vllm 400 is not retried",
			answers:    []answer{{400, nil, vllm400}},
			wantStatus: []int{400},
			wantAPI:    &httpx.APIError{Status: 400, Code: "400", Type: "BadRequestError", Message: "This model's maximum context length is 131072 tokens."},
			wantErr:    "llm chat (model gpt-oss-120b): chat /chat/completions: 127.0.0.1:",
		},
		{
			name:       "429 until attempts run out",
			answers:    []answer{{429, nil, cerebras429}, {429, nil, cerebras429}, {429, nil, cerebras429}, {429, nil, cerebras429}},
			wantStatus: []int{429, 429, 429, 429},
			wantWaits:  []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second},
			wantAPI:    &httpx.APIError{Status: 429, Code: "request_quota_exceeded", Type: "too_many_requests_error", Param: "quota", Message: "Requests per second limit exceeded - too many requests sent."},
			wantErr:    "(4 attempts: 429 wait=500ms, 429 wait=1s, 429 wait=2s, 429)",
		},
		{
			name:       "200 without choices",
			answers:    []answer{{200, nil, `{"id":"x","choices":[]}`}},
			wantStatus: []int{200},
			wantErr:    "decode chat completion (23 bytes): no choices in the response",
		},
		{
			name:       "200 that is not JSON",
			answers:    []answer{{200, nil, `<html>oops</html>`}},
			wantStatus: []int{200},
			wantErr:    "decode chat completion (17 bytes): invalid character",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newCapture(t, tt.answers...)
			w := &waits{}
			resp, err := srv.client(t, w).Chat(context.Background(), &ChatRequest{Messages: []Message{{Role: RoleUser, Content: "q"}}})
			var attempts []httpx.Attempt
			if err == nil {
				attempts = resp.Attempts
			} else {
				attempts = httpx.AttemptsOf(err)
			}
			if got := httpx.Statuses(attempts); !reflect.DeepEqual(got, tt.wantStatus) {
				t.Errorf("statuses = %v, want %v", got, tt.wantStatus)
			}
			if srv.received != len(tt.wantStatus) {
				t.Errorf("server saw %d requests, want %d", srv.received, len(tt.wantStatus))
			}
			if !reflect.DeepEqual(w.d, tt.wantWaits) {
				t.Errorf("waits = %v, want %v", w.d, tt.wantWaits)
			}
			if tt.wantErr == "" && tt.wantAPI == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
			}
			if strings.Contains(err.Error(), testKey) {
				t.Error("key in error text")
			}
			var ae *httpx.APIError
			if got := errors.As(err, &ae); got != (tt.wantAPI != nil) {
				t.Fatalf("errors.As(*APIError) = %v, err = %v", got, err)
			}
			if tt.wantAPI != nil {
				want := *tt.wantAPI
				want.Provider = strings.TrimPrefix(srv.srv.URL, "http://")
				if *ae != want {
					t.Errorf("APIError\ngot  %#v\nwant %#v", *ae, want)
				}
			}
		})
	}
}

func TestChatInvalidRequestSendsNothing(t *testing.T) {
	srv := newCapture(t)
	req := &ChatRequest{
		Messages: []Message{
			{Role: "robot", Content: "x"},
			{Role: RoleTool, Content: "result"},
			{Role: RoleUser, ToolCalls: []ToolCall{{ID: "c"}}},
		},
		Tools:          []Tool{FunctionTool("f", "", json.RawMessage(`{bad`), false), FunctionTool("f", "", nil, false), {Type: "retrieval"}},
		ToolChoice:     "g",
		ResponseFormat: &ResponseFormat{Type: "json_schema"},
		Extra:          map[string]any{"model": "other", "seed": 3},
	}
	_, err := srv.client(t, nil).Chat(context.Background(), req)
	if err == nil {
		t.Fatal("want an error")
	}
	for _, want := range []string{
		`messages[0]: unknown role "robot"`,
		`messages[1]: tool message without tool_call_id`,
		`messages[2]: tool_calls on a user message`,
		`tools[0] (f): parameters are not valid JSON`,
		`tools[1]: duplicate function "f"`,
		`tools[2]: type "retrieval", want "function"`,
		`tools[2]: no function name`,
		`tool_choice "g" is neither none, auto, required nor one of the tools`,
		`response_format json_schema needs a name and a valid JSON schema`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if srv.received != 0 || httpx.AttemptsOf(err) != nil {
		t.Errorf("an invalid request reached the server")
	}

	req = &ChatRequest{Messages: []Message{{Role: RoleUser, Content: "x"}}, Extra: map[string]any{"seed": 3, "model": "m", "guided_json": 1}}
	_, err = srv.client(t, nil).Chat(context.Background(), req)
	for _, want := range []string{`extra body key "model" is a standard request field`, `extra body key "seed" is a standard request field`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v, want %q", err, want)
		}
	}
}

func TestConfigFromEnv(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		want    Config
		wantErr []string
	}{
		{"cerebras defaults", map[string]string{"CEREBRAS_API_KEY": "k1"},
			Config{BaseURL: DefaultBaseURL, APIKey: "k1", Model: DefaultModel}, nil},
		{"openai key fallback", map[string]string{"OPENAI_API_KEY": "k2"},
			Config{BaseURL: DefaultBaseURL, APIKey: "k2", Model: DefaultModel}, nil},
		{"cerebras key wins", map[string]string{"CEREBRAS_API_KEY": "k1", "OPENAI_API_KEY": "k2"},
			Config{BaseURL: DefaultBaseURL, APIKey: "k1", Model: DefaultModel}, nil},
		{"vllm", map[string]string{"SEARCHBENCH_LLM_BASE_URL": "http://127.0.0.1:8000/v1/", "SEARCHBENCH_LLM_MODEL": VLLMModel, "OPENAI_API_KEY": "EMPTY"},
			Config{BaseURL: "http://127.0.0.1:8000/v1", APIKey: "EMPTY", Model: VLLMModel}, nil},
		{"missing key", map[string]string{},
			Config{BaseURL: DefaultBaseURL, Model: DefaultModel}, []string{"cerebras: no API key: set CEREBRAS_API_KEY or OPENAI_API_KEY"}},
		{"every problem", map[string]string{"SEARCHBENCH_LLM_BASE_URL": "localhost:8000"},
			Config{Model: DefaultModel}, []string{`SEARCHBENCH_LLM_BASE_URL="localhost:8000": want an absolute http or https URL`, "no API key: set CEREBRAS_API_KEY or OPENAI_API_KEY"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := ConfigFromEnv(func(k string) string { return tt.env[k] })
			if cfg.Retry.MaxAttempts != httpx.DefaultPolicy().MaxAttempts {
				t.Errorf("Retry = %+v, want the default policy", cfg.Retry)
			}
			cfg.Retry = httpx.Policy{}
			if !reflect.DeepEqual(cfg, tt.want) {
				t.Errorf("cfg = %+v, want %+v", cfg, tt.want)
			}
			if len(tt.wantErr) == 0 {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			for _, w := range tt.wantErr {
				if err == nil || !strings.Contains(err.Error(), w) {
					t.Errorf("err = %v, want %q", err, w)
				}
			}
			var mk *httpx.MissingKeyError
			if !errors.As(err, &mk) {
				t.Errorf("err = %v, want a *httpx.MissingKeyError inside", err)
			}
		})
	}
}

func TestNewMissingKeyBeforeAnyRequest(t *testing.T) {
	_, err := New(Config{BaseURL: "http://127.0.0.1:9/v1"})
	var mk *httpx.MissingKeyError
	if !errors.As(err, &mk) || err.Error() != "127.0.0.1:9: no API key: set CEREBRAS_API_KEY or OPENAI_API_KEY" {
		t.Fatalf("err = %v", err)
	}
	if _, err := New(Config{BaseURL: "api.cerebras.ai", APIKey: "k"}); err == nil {
		t.Fatal("want a base URL error")
	}
	c, err := New(Config{APIKey: "k"})
	if err != nil || c.Model() != DefaultModel || c.ep.URL() != "https://api.cerebras.ai/v1/chat/completions" || c.provider != "cerebras" {
		t.Fatalf("New defaults: %+v, %v", c, err)
	}
}
