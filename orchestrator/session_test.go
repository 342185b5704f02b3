package orchestrator

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/searchbench/searchbench/orchestrator/answer"
	"github.com/searchbench/searchbench/orchestrator/httpx"
	"github.com/searchbench/searchbench/orchestrator/llm"
	"github.com/searchbench/searchbench/orchestrator/prompts"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

func TestPhase1ThenYesThenPhase2(t *testing.T) {
	f := newFake(t)
	a, _ := f.assistant(Options{})
	s := a.NewSession()
	ctx := context.Background()

	f.script(reply{content: phase1Text})
	t1, err := s.Turn(ctx, "Who is the current CEO of Microsoft")
	if err != nil {
		t.Fatal(err)
	}
	if t1.Phase != trace.Phase1 || t1.Output != phase1Text || len(t1.ToolsOffered) != 0 || !s.AwaitingConsent() {
		t.Fatalf("turn 1: %+v", t1)
	}
	if reqs := f.requests(); len(reqs[0].Tools) != 0 || strings.Contains(reqs[0].raw, `"tools"`) {
		t.Fatalf("Phase 1 request offered tools: %s", reqs[0].raw)
	}

	// One model turn asks for Tavily then Exa; the app runs Exa first.
	f.script(
		reply{calls: []llmCall{call("c1", "tavily_search", `{"query":"Microsoft CEO","max_results":10}`), call("c2", "exa_search", `{"query":"history of Microsoft leadership"}`)}},
		reply{content: goodAnswer(answer.VerificationConfirmed)},
	)
	t2, err := s.Turn(ctx, "yes")
	if err != nil {
		t.Fatal(err)
	}
	if t2.Phase != trace.Phase2 || t2.Intent != "YES" || t2.Query != "Who is the current CEO of Microsoft" || t2.Phase1Skipped {
		t.Fatalf("turn 2: %+v", t2)
	}
	if t2.Route != trace.RouteTavilyPlusExa || t2.Output != t2.RawOutput || t2.Replaced != "" {
		t.Fatalf("turn 2 route %q replaced %q reason %q", t2.Route, t2.Replaced, t2.Reason)
	}
	wantSearches := []string{"exa:history of Microsoft leadership:5", "tavily:Microsoft CEO:5"}
	if !reflect.DeepEqual(f.searches, wantSearches) {
		t.Fatalf("searches %v, want %v (Exa first, max_results clamped to 5)", f.searches, wantSearches)
	}
	if c := t2.ToolCalls[1]; c.Tool != trace.ToolTavily || c.Requested != 10 || c.Sent != 5 || c.Results != 5 || c.Status != trace.CallOK {
		t.Fatalf("tavily call %+v", c)
	}

	reqs := f.requests()
	p2 := reqs[1]
	roles := []string{}
	for _, m := range p2.Messages {
		roles = append(roles, m.Role)
	}
	if strings.Join(roles, ",") != "system,user,assistant,user" || p2.Messages[2].Content != phase1Text || p2.Messages[3].Content != "yes" {
		t.Fatalf("Phase 2 request messages: %v", p2.Messages)
	}
	if len(p2.Tools) != 2 {
		t.Fatalf("Phase 2 offered %d tools", len(p2.Tools))
	}
	// The second request carries the tool results in the seed-001 format,
	// in execution order.
	last := reqs[2].Messages
	if n := len(last); last[n-2].ToolCallID != "c2" || last[n-1].ToolCallID != "c1" ||
		!strings.HasPrefix(last[n-1].Content, "Web search results for 'Microsoft CEO':\n\n1. Fact page 1\n   URL: https://news1.example.com/a\n   ") {
		t.Fatalf("tool messages: %+v", last[n-2:])
	}
	if t2.Usage.TotalTokens != 240 || t2.Latency.ModelMS != 500 || t2.Latency.SearchMS != 620 {
		t.Fatalf("usage %+v latency %+v", t2.Usage, t2.Latency)
	}
	if s.AwaitingConsent() {
		t.Fatal("still awaiting consent after Phase 2")
	}
}

type llmCall = llm.ToolCall

func TestDecline(t *testing.T) {
	f := newFake(t)
	a, _ := f.assistant(Options{})
	s := a.NewSession()
	ctx := context.Background()
	f.script(reply{content: phase1Text}, reply{content: "Understood — I won't search. As far as I know, Satya Nadella leads Microsoft (unverified)."})
	s.Turn(ctx, "Who is the current CEO of Microsoft")
	tr, err := s.Turn(ctx, "no thanks")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Phase != trace.Decline || tr.Intent != "NO" || len(tr.ToolCalls) != 0 || len(tr.ToolsOffered) != 0 {
		t.Fatalf("decline turn: %+v", tr)
	}
	req := f.requests()[1]
	if len(req.Tools) != 0 || len(req.Messages) != 4 || req.Messages[3].Content != "no thanks" {
		t.Fatalf("decline request: %s", req.raw)
	}
	if len(f.searches) != 0 {
		t.Fatalf("searched after a decline: %v", f.searches)
	}
}

func TestOverride(t *testing.T) {
	for _, in := range []string{"? what are current EU AI regulations", "what are current EU AI regulations ?", "What are current EU AI regulations?"} {
		t.Run(in, func(t *testing.T) {
			f := newFake(t)
			a, _ := f.assistant(Options{})
			f.script(
				reply{calls: []llmCall{call("c1", "tavily_search", `{"query":"EU AI Act"}`)}},
				reply{content: goodAnswer(answer.VerificationSkipped)},
			)
			tr, err := a.NewSession().Turn(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			if tr.Phase != trace.Phase2 || !tr.Override || !tr.Phase1Skipped || tr.Route != trace.RouteTavilyOnly {
				t.Fatalf("%+v", tr)
			}
			if q := f.requests()[0].Messages[1].Content; strings.HasPrefix(q, "?") || strings.HasSuffix(q, " ?") {
				t.Fatalf("override marker reached the model: %q", q)
			}
		})
	}
}

func TestNewQueryInsteadOfConsent(t *testing.T) {
	f := newFake(t)
	a, _ := f.assistant(Options{})
	s := a.NewSession()
	ctx := context.Background()
	f.script(reply{content: phase1Text}, reply{content: phase1Text})
	s.Turn(ctx, "Who is the current CEO of Microsoft")
	tr, err := s.Turn(ctx, "what is the capital of Australia")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Phase != trace.Phase1 || tr.Intent != "NEW_QUERY" || tr.Query != "what is the capital of Australia" || !s.AwaitingConsent() {
		t.Fatalf("%+v", tr)
	}
	// A new query restarts the flow: no earlier conversation is sent.
	if req := f.requests()[1]; len(req.Messages) != 2 || req.Messages[1].Content != "what is the capital of Australia" {
		t.Fatalf("request: %s", req.raw)
	}
}

func TestSearchNowAfterPhase1(t *testing.T) {
	f := newFake(t)
	a, _ := f.assistant(Options{})
	s := a.NewSession()
	ctx := context.Background()
	f.script(reply{content: phase1Text},
		reply{calls: []llmCall{call("c1", "tavily_search", `{"query":"Microsoft CEO"}`)}},
		reply{content: goodAnswer(answer.VerificationConfirmed)})
	s.Turn(ctx, "Who is the current CEO of Microsoft")
	tr, err := s.Turn(ctx, "can you confirm that?")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Phase != trace.Phase2 || tr.Override || tr.Query != "Who is the current CEO of Microsoft" {
		t.Fatalf("%+v", tr)
	}
}

func TestQueryLimit(t *testing.T) {
	f := newFake(t)
	a, _ := f.assistant(Options{})
	f.script(
		reply{calls: []llmCall{call("c1", "tavily_search", `{"query":"q1"}`), call("c2", "tavily_search", `{"query":"q2"}`)}},
		reply{calls: []llmCall{call("c3", "tavily_search", `{"query":"q3"}`), call("c4", "tavily_search", `{"query":"q4"}`)}},
		reply{content: goodAnswer(answer.VerificationSkipped)},
	)
	tr, err := a.NewSession().Search(context.Background(), "Who is the current CEO of Microsoft?")
	if err != nil {
		t.Fatal(err)
	}
	if len(f.searches) != 3 {
		t.Fatalf("sent %d searches, want 3: %v", len(f.searches), f.searches)
	}
	c4 := tr.ToolCalls[3]
	if c4.Status != trace.CallLimited || c4.Query != "q4" || c4.Attempts != 0 {
		t.Fatalf("4th call: %+v", c4)
	}
	msgs := f.requests()[2].Messages
	if last := msgs[len(msgs)-1]; last.ToolCallID != "c4" || !strings.HasPrefix(last.Content, "Limit reached: tavily_search allows at most 3 queries") {
		t.Fatalf("limit message: %+v", last)
	}
	if tr.Route != trace.RouteTavilyOnly {
		t.Fatalf("route %q", tr.Route)
	}
}

func TestRateLimitThenSuccess(t *testing.T) {
	f := newFake(t)
	a, sl := f.assistant(Options{})
	f.failFirst("chat", http.StatusTooManyRequests)
	f.script(
		reply{calls: []llmCall{call("c1", "tavily_search", `{"query":"Microsoft CEO"}`)}},
		reply{content: goodAnswer(answer.VerificationSkipped)},
	)
	tr, err := a.NewSession().Search(context.Background(), "Who is the current CEO of Microsoft?")
	if err != nil {
		t.Fatal(err)
	}
	mc := tr.ModelCalls[0]
	if mc.Attempts != 2 || !reflect.DeepEqual(mc.Statuses, []int{429, 200}) {
		t.Fatalf("model call %+v", mc)
	}
	if len(sl.d) != 1 || sl.d[0] != 2*time.Second {
		t.Fatalf("waits %v, want the Retry-After of 2s", sl.d)
	}
	if tr.Output == "" || tr.Replaced != "" {
		t.Fatalf("output %q replaced %q", tr.Output, tr.Replaced)
	}
}

func TestRateLimitExhausted(t *testing.T) {
	f := newFake(t)
	a, _ := f.assistant(Options{})
	f.failFirst("chat", 429, 429, 429)
	tr, err := a.NewSession().Search(context.Background(), "Who is the current CEO of Microsoft?")
	var apiErr *httpx.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 429 || apiErr.Code != "request_quota_exceeded" {
		t.Fatalf("err = %v", err)
	}
	if tr.Error == "" || tr.ModelCalls[0].Attempts != 3 || strings.Contains(tr.Error, "test-key") {
		t.Fatalf("turn %+v", tr)
	}
}

func TestExaError(t *testing.T) {
	f := newFake(t)
	a, _ := f.assistant(Options{})
	f.failFirst("exa", 503, 503, 503)
	f.script(
		reply{calls: []llmCall{call("c1", "exa_search", `{"query":"alignment approaches"}`)}},
		reply{calls: []llmCall{call("c2", "tavily_search", `{"query":"alignment approaches"}`)}},
		reply{content: goodAnswer(answer.VerificationSkipped)},
	)
	tr, err := a.NewSession().Search(context.Background(), "What are the main approaches to AI alignment?")
	if err != nil {
		t.Fatal(err)
	}
	c := tr.ToolCalls[0]
	if c.Status != trace.CallError || c.Attempts != 3 || !strings.Contains(c.Error, "SERVICE_OVERLOADED") {
		t.Fatalf("exa call %+v", c)
	}
	msgs := f.requests()[1].Messages
	if last := msgs[len(msgs)-1]; !strings.HasPrefix(last.Content, "Search failed: ") || strings.Contains(last.Content, "test-key") {
		t.Fatalf("tool message %q", last.Content)
	}
	// The tool message is part of the next request: the retry waits (jitter,
	// clock) must not be in it, or a live recording of this fault would not
	// replay. The trace keeps them.
	if last := msgs[len(msgs)-1]; strings.Contains(last.Content, "wait=") || !strings.Contains(last.Content, "(3 attempts: 503, 503, 503)") {
		t.Fatalf("tool message %q: want the attempts without their waits", last.Content)
	}
	if !strings.Contains(c.Error, "wait=") {
		t.Errorf("trace call error %q lost the waits", c.Error)
	}
	if tr.Route != trace.RouteTavilyPlusExa {
		t.Fatalf("route %q", tr.Route)
	}
}

func TestSchemaViolation(t *testing.T) {
	drift := strings.Replace(goodAnswer(answer.VerificationSkipped), "February 2014.\n", "February 2014. \n", 1)
	tests := []struct {
		name         string
		content      string
		null         bool
		finish       string
		repair       bool
		wantReplaced string
		wantReason   string
	}{
		{"markdown drift", drift, false, "", false, ReplacedSchemaViolation, "markdown.mismatch"},
		{"markdown drift repaired", drift, false, "", true, ReplacedRepaired, "markdown.mismatch"},
		{"broken json", "### Phase 2 – Search-Backed Answer\nVerification: " + answer.VerificationSkipped + "\n\n```json\n{\"data\":\n```", false, "", true, ReplacedSchemaViolation, "json"},
		{"empty content, length", "", false, "length", false, ReplacedSchemaViolation, "finish_reason=length"},
		{"null content", "", true, "stop", false, ReplacedSchemaViolation, "finish_reason=stop"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t)
			a, _ := f.assistant(Options{Repair: tt.repair})
			f.script(reply{content: tt.content, null: tt.null, finish: tt.finish})
			tr, err := a.NewSession().Search(context.Background(), "Who is the current CEO of Microsoft?")
			if err != nil {
				t.Fatal(err)
			}
			if tr.Replaced != tt.wantReplaced || !strings.Contains(tr.Reason, tt.wantReason) {
				t.Fatalf("replaced %q reason %q", tr.Replaced, tr.Reason)
			}
			rep := answer.CheckPhase2(tr.Output)
			if answer.HasViolation(rep.Findings) {
				t.Fatalf("the app's own output violates the contract: %+v\n%s", rep.Findings, tr.Output)
			}
			if rep.Verification != answer.VerificationSkipped {
				t.Fatalf("verification %q", rep.Verification)
			}
			wantCode := answer.CodeSchemaViolation
			if tt.wantReplaced == ReplacedRepaired {
				wantCode = answer.CodeNone
				if tr.Output != goodAnswer(answer.VerificationSkipped) {
					t.Fatalf("repaired output differs from the canonical message:\n%s", tr.Output)
				}
			}
			if rep.Envelope.Error.Code != wantCode {
				t.Fatalf("code %q", rep.Envelope.Error.Code)
			}
		})
	}
}

func TestStructuredMode(t *testing.T) {
	f := newFake(t)
	a, _ := f.assistant(Options{Mode: trace.ModeStructured})
	env := goodEnvelope()
	body := `{"verification":"` + answer.VerificationSkipped + `","data":{"bullets":[` +
		`{"text":"` + env.Data.Bullets[0].Text + `","kind":null,"source_ids":["s1","s2"]},` +
		`{"text":"` + env.Data.Bullets[1].Text + `","kind":"fact","source_ids":["s1","s3"]},` +
		`{"text":"` + env.Data.Bullets[2].Text + `","kind":null,"source_ids":["s2","s3"]}],"sources":[`
	for i, s := range env.Data.Sources {
		if i > 0 {
			body += ","
		}
		body += `{"id":"` + s.ID + `","domain":"` + s.Domain + `","title":"` + s.Title + `","url":"` + s.URL + `","published":null}`
	}
	body += `],"render_markdown":"whatever the model thought"},"error":{"code":"NONE","message":""}}`
	f.script(reply{calls: []llmCall{call("c1", "tavily_search", `{"query":"Microsoft CEO"}`)}}, reply{content: body})
	tr, err := a.NewSession().Search(context.Background(), "Who is the current CEO of Microsoft?")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Replaced != "" {
		t.Fatalf("replaced %q: %s", tr.Replaced, tr.Reason)
	}
	rep := answer.CheckPhase2(tr.Output)
	if answer.HasViolation(rep.Findings) || !rep.MarkdownMatches || !rep.CanonicalMatches {
		t.Fatalf("findings %+v\n%s", rep.Findings, tr.Output)
	}
	if len(rep.Envelope.Data.Bullets) != 3 || rep.Envelope.Data.Bullets[1].Kind != "fact" {
		t.Fatalf("envelope %+v", rep.Envelope.Data)
	}
	for _, req := range f.requests() {
		if !strings.Contains(string(req.ResponseFormat), `"strict":true`) {
			t.Fatalf("request without the strict response format: %s", req.raw)
		}
	}
}

func TestToolLoopIsBounded(t *testing.T) {
	f := newFake(t)
	a, _ := f.assistant(Options{MaxRounds: 2})
	f.script(
		reply{calls: []llmCall{call("c1", "tavily_search", `{"query":"q1"}`)}},
		reply{calls: []llmCall{call("c2", "tavily_search", `{"query":"q2"}`)}},
	)
	tr, err := a.NewSession().Search(context.Background(), "Who?")
	if err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	if reqs[1].ToolChoice != "none" {
		t.Fatalf("last round tool_choice %v", reqs[1].ToolChoice)
	}
	if tr.Replaced != ReplacedSchemaViolation || !strings.Contains(tr.Reason, "after 2 rounds") || len(f.searches) != 1 {
		t.Fatalf("%+v", tr)
	}
}

func TestBadToolCalls(t *testing.T) {
	f := newFake(t)
	a, _ := f.assistant(Options{})
	f.script(
		reply{calls: []llmCall{
			call("c1", "bing_search", `{"query":"x"}`),
			call("c2", "tavily_search", `not json`),
			call("c3", "exa_search", `{"query":"  "}`),
			call("c4", "tavily_search", `{"query":"`+strings.Repeat("x", 401)+`"}`),
		}},
		reply{content: goodAnswer(answer.VerificationSkipped)},
	)
	tr, err := a.NewSession().Search(context.Background(), "Who?")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range tr.ToolCalls {
		got = append(got, c.Status)
	}
	// Exa sorts first, then Tavily, then unknown tools; ties keep the model's order.
	want := []string{trace.CallInvalid, trace.CallInvalid, trace.CallInvalid, trace.CallUnknown}
	if !reflect.DeepEqual(got, want) || len(f.searches) != 0 {
		t.Fatalf("statuses %v (want %v), searches %v", got, want, f.searches)
	}
}

func TestAlwaysOn(t *testing.T) {
	f := newFake(t)
	a, _ := f.assistant(Options{AlwaysOn: true})
	f.script(reply{content: goodAnswer(answer.VerificationSkipped)})
	tr, err := a.NewSession().Search(context.Background(), "latest AI developments")
	if err != nil {
		t.Fatal(err)
	}
	msgs := f.requests()[0].Messages
	if msgs[1].Role != "system" || !strings.HasPrefix(msgs[1].Content, "Web search was performed to get current and relevant information. Here are the search results:\n\nWeb search results for 'latest AI developments':") || msgs[2].Role != "user" {
		t.Fatalf("messages %+v", msgs)
	}
	if tr.ToolCalls[0].Round != -1 || tr.Route != trace.RouteTavilyOnly {
		t.Fatalf("%+v", tr.ToolCalls)
	}
}

func TestMissingKeysBeforeAnyRequest(t *testing.T) {
	f := newFake(t)
	_, err := ClientsFromEnv(func(k string) string {
		if k == "SEARCHBENCH_LLM_BASE_URL" {
			return f.srv.URL
		}
		return ""
	}, http.DefaultTransport, httpx.DefaultPolicy())
	if err == nil {
		t.Fatal("no error without keys")
	}
	for _, v := range []string{"CEREBRAS_API_KEY", "TAVILY_API_KEY", "EXA_API_KEY"} {
		if !strings.Contains(err.Error(), v) {
			t.Errorf("error does not name %s: %v", v, err)
		}
	}
	if len(f.requests()) != 0 {
		t.Fatal("a request was made")
	}
}

// TestVariantSettingsReachRequests: a variant's variant.yaml settings go
// into every chat request (model, temperature, reasoning effort, token
// budget), its mode and always-on search apply, and explicit options win.
func TestVariantSettingsReachRequests(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "tuned"), 0o755)
	os.WriteFile(filepath.Join(dir, "tuned", "variant.yaml"), []byte(
		"model: gpt-oss-20b\ntemperature: 0.3\nreasoning_effort: high\nmax_completion_tokens: 2048\nalways_on_search: true\n"), 0o644)
	v, err := prompts.Load(dir, "tuned")
	if err != nil {
		t.Fatal(err)
	}
	f := newFake(t)
	a, _ := f.assistant(Options{Prompts: v})
	if a.Options().Mode != trace.ModeModel || !a.Options().AlwaysOn {
		t.Fatalf("options %+v", a.Options())
	}
	f.script(reply{content: goodAnswer(answer.VerificationSkipped)})
	if _, err := a.NewSession().Turn(context.Background(), "? what are current EU AI regulations"); err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	if len(reqs) == 0 {
		t.Fatal("no chat request")
	}
	raw := reqs[0].raw
	for _, want := range []string{`"model":"gpt-oss-20b"`, `"temperature":0.3`, `"reasoning_effort":"high"`, `"max_completion_tokens":2048`} {
		if !strings.Contains(raw, want) {
			t.Errorf("request lacks %s: %s", want, raw)
		}
	}
	f.mu.Lock()
	searches := append([]string(nil), f.searches...)
	f.mu.Unlock()
	if len(searches) == 0 || !strings.HasPrefix(searches[0], "tavily:") {
		t.Errorf("always_on_search: searches %v", searches)
	}

	// Explicit options win over the variant's settings.
	f2 := newFake(t)
	effort := "low"
	a2, _ := f2.assistant(Options{Prompts: v, ReasoningEffort: effort, Model: "gpt-oss-120b", Mode: trace.ModeStructured})
	if o := a2.Options(); o.ReasoningEffort != "low" || o.Model != "gpt-oss-120b" || o.Mode != trace.ModeStructured {
		t.Errorf("explicit options lost: %+v", o)
	}
}
