package grade

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/searchbench/searchbench/lib/golden"
	"github.com/searchbench/searchbench/orchestrator/httpx"
	"github.com/searchbench/searchbench/orchestrator/llm"
	builtin "github.com/searchbench/searchbench/prompts"
)

// fakeModel is a loopback chat server that answers every request with
// content and keeps the request bodies.
type fakeModel struct {
	mu      sync.Mutex
	bodies  [][]byte
	content string
}

func (f *fakeModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.bodies = append(f.bodies, b)
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	resp := `{"id":"x","model":"gpt-oss-120b","choices":[{"index":0,"message":{"role":"assistant","content":` + quoteJSON(f.content) + `},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`
	_, _ = io.WriteString(w, resp)
}

func quoteJSON(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

func newJudge(t *testing.T, f *fakeModel) *Judge {
	t.Helper()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	p := httpx.DefaultPolicy()
	p.Sleep = httpx.NoSleep
	c, err := llm.New(llm.Config{BaseURL: srv.URL + "/v1", APIKey: "test-key-0123456789", Retry: p})
	if err != nil {
		t.Fatal(err)
	}
	prompt, err := builtin.Seed.ReadFile("seed/judge-correctness.md")
	if err != nil {
		t.Fatal(err)
	}
	return &Judge{Client: c, Prompt: strings.TrimRight(string(prompt), "\n")}
}

// TestJudgeRequestStable checks that the judge's request is the same bytes
// every time (no clock, no randomness) and matches the golden request:
// temperature 0, the fixed seed, the strict schema.
func TestJudgeRequestStable(t *testing.T) {
	f := &fakeModel{content: `{"label":"correct","reason":"It names Art Carney."}`}
	j := newJudge(t, f)
	gold := Gold{Answers: []string{"Art Carney"}, Reject: []string{"Jack Nicholson"}, AsOf: "1975-04-08"}
	for i := 0; i < 2; i++ {
		v, err := j.Decide(context.Background(), "Who won the Oscar for best actor in 1975?", gold, Answer{Text: "Carney, for Harry & Tonto <1974>"})
		if err != nil {
			t.Fatal(err)
		}
		if v.Label != Correct || v.DecidedBy != ByJudge || v.Reason != "It names Art Carney." {
			t.Errorf("verdict %v", v)
		}
	}
	if len(f.bodies) != 2 || string(f.bodies[0]) != string(f.bodies[1]) {
		t.Fatalf("the two requests differ:\n%s\n%s", f.bodies[0], f.bodies[1])
	}
	for _, want := range []string{`"temperature":0`, `"seed":38`, `"strict":true`, `"name":"correctness_verdict"`} {
		if !strings.Contains(string(f.bodies[0]), want) {
			t.Errorf("request lacks %s: %s", want, f.bodies[0])
		}
	}
	golden.Check(t, "testdata/judge-request.json", append(f.bodies[0], '\n'))
}

// TestJudgeUnparsable checks that a judge answer that is not the schema's
// JSON is an error, never a label.
func TestJudgeUnparsable(t *testing.T) {
	for _, content := range []string{
		"correct",
		`{"label":"right","reason":"x"}`,
		`{"label":"correct"}`,
		`{"label":"correct","reason":"x","confidence":0.9}`,
		`{"label":"correct","reason":"x"} and more`,
		``,
	} {
		j := newJudge(t, &fakeModel{content: content})
		v, err := Grade(context.Background(), j, "Who?", Gold{Answers: []string{"Art Carney"}}, Answer{Text: "Jack Nicholson"})
		if err == nil {
			t.Errorf("judge answer %q: no error, verdict %v", content, v)
			continue
		}
		if v.Decided() {
			t.Errorf("judge answer %q: a label came with the error: %v", content, v)
		}
		var je *JudgeError
		if errors.As(err, &je) {
			t.Errorf("Grade wraps the error itself; the caller names the item: %v", err)
		}
	}
}

// TestGradeAsksJudgeOnlyWhenDeferred checks that a rule verdict sends
// nothing.
func TestGradeAsksJudgeOnlyWhenDeferred(t *testing.T) {
	f := &fakeModel{content: `{"label":"incorrect","reason":"Another actor."}`}
	j := newJudge(t, f)
	gold := Gold{Answers: []string{"Art Carney"}}
	v, err := Grade(context.Background(), j, "Who?", gold, Answer{Text: "Art Carney"})
	if err != nil || v.DecidedBy != ByRule || len(f.bodies) != 0 {
		t.Errorf("rule verdict: %v, %v, %d requests", v, err, len(f.bodies))
	}
	v, err = Grade(context.Background(), j, "Who?", gold, Answer{Text: "Jack Nicholson"})
	if err != nil || v.DecidedBy != ByJudge || v.Label != Incorrect || len(f.bodies) != 1 || !strings.Contains(v.Reason, "the rules deferred") {
		t.Errorf("judge verdict: %v, %v, %d requests", v, err, len(f.bodies))
	}
}
