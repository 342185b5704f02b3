package orchestrator

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/orchestrator/answer"
	"github.com/searchbench/searchbench/orchestrator/consent"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// A reply the consent rules cannot place ("Maleey": Afar for no, which no
// source of the lexicon lists) goes to the model as a classification
// request; its verdict routes the turn and the trace says the model decided.
func TestConsentModelFallback(t *testing.T) {
	const unplaced = "Maleey"
	if d := consent.Decide(unplaced, true); !d.Unplaced {
		t.Fatalf("%q is placed by the rules (%s %s); the test needs a reply they cannot place", unplaced, d.Intent, d.Rule)
	}
	tests := []struct {
		name     string
		verdict  string // the model's content
		opts     Options
		phase    string
		intent   string
		by       string
		requests int // chat requests of the consent turn
		reason   string
		fails    bool // the verdict cannot be read: the turn ends with an error
		scope    string
	}{
		{name: "model says NO", verdict: `{"intent":"NO","scope":"","reason":"Afar for no."}`, phase: trace.Decline, intent: "NO", by: "model", requests: 2, reason: "Afar for no."},
		{name: "model says YES", verdict: `{"intent":"YES","scope":"","reason":"assent"}`, phase: trace.Phase2, intent: "YES", by: "model", requests: 3, reason: "assent"},
		{name: "model says YES with a scope", verdict: `{"intent":"YES","scope":"official sources only","reason":"assent"}`, phase: trace.Phase2, intent: "YES", by: "model", requests: 3, reason: "assent", scope: "official sources only"},
		{name: "model says SEARCH_NOW", verdict: `{"intent":"SEARCH_NOW","scope":"the date","reason":"check"}`, phase: trace.Phase2, intent: "SEARCH_NOW", by: "model", requests: 3, reason: "check", scope: "the date"},
		{name: "model says NEW_QUERY", verdict: `{"intent":"NEW_QUERY","scope":"","reason":"a name"}`, phase: trace.Phase1, intent: "NEW_QUERY", by: "model", requests: 2, reason: "a name"},
		{name: "verdict off the schema", verdict: `{"intent":"MAYBE","scope":"","reason":"?"}`, by: "model", requests: 1, reason: `consent model: the model's verdict "MAYBE" is not YES, SEARCH_NOW, NO or NEW_QUERY`, fails: true},
		{name: "verdict without its scope", verdict: `{"intent":"NO","reason":"no"}`, by: "model", requests: 1, reason: "consent model: the model's verdict lacks scope", fails: true},
		{name: "verdict not JSON", verdict: `yes`, by: "model", requests: 1, reason: "consent model: the model's verdict is not the schema's JSON", fails: true},
		{name: "rules only", opts: Options{RulesOnlyConsent: true}, phase: trace.Phase1, intent: "NEW_QUERY", by: "rule", requests: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t)
			a, _ := f.assistant(tt.opts)
			s := a.NewSession()
			ctx := context.Background()
			f.script(reply{content: phase1Text})
			if _, err := s.Turn(ctx, "Who is the current CEO of Microsoft"); err != nil {
				t.Fatal(err)
			}
			if !tt.opts.RulesOnlyConsent {
				f.script(reply{content: tt.verdict})
			}
			switch {
			case tt.fails:
			case tt.phase == trace.Phase2:
				f.script(reply{calls: []llmCall{call("c1", "tavily_search", `{"query":"Microsoft CEO"}`)}}, reply{content: goodAnswer(answer.VerificationConfirmed)})
			default:
				f.script(reply{content: phase1Text})
			}
			tr, err := s.Turn(ctx, unplaced)
			if tt.fails {
				// Never a silent default: the turn ends, the trace names
				// why, and the consent question stays open.
				if err == nil || tr.Error != err.Error() || !strings.Contains(tr.Error, tt.reason) || tr.Phase != "" || !s.AwaitingConsent() {
					t.Fatalf("turn error %v, trace error %q, phase %q, awaiting %v; want the turn to fail naming %q", err, tr.Error, tr.Phase, s.AwaitingConsent(), tt.reason)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if tr.Phase != tt.phase || tr.Intent != tt.intent && !tt.fails || tr.IntentBy != tt.by || tr.Input != unplaced || tr.ConsentScope != tt.scope {
				t.Fatalf("turn: phase %s intent %s by %s input %q scope %q; want %s %s by %s scope %q", tr.Phase, tr.Intent, tr.IntentBy, tr.Input, tr.ConsentScope, tt.phase, tt.intent, tt.by, tt.scope)
			}
			if tt.scope != "" {
				// The condition reaches every Phase 2 request, right after
				// the system prompt, and the trace shows it.
				for i, r := range f.requests()[2:] {
					if len(r.Messages) < 2 || r.Messages[1].Role != "system" || r.Messages[1].Content != ScopeInstruction(tt.scope) {
						t.Errorf("Phase 2 request %d: %s; want the scope instruction second", i+1, r.raw)
					}
				}
				if tr.ScopeInstruction != ScopeInstruction(tt.scope) {
					t.Errorf("trace scope instruction %q, want %q", tr.ScopeInstruction, ScopeInstruction(tt.scope))
				}
			}
			if !strings.HasPrefix(tr.IntentReason, tt.reason) {
				t.Errorf("intent reason %q, want it to start %q", tr.IntentReason, tt.reason)
			}
			reqs := f.requests()[1:]
			if len(reqs) != tt.requests {
				t.Fatalf("%d chat requests in the consent turn, want %d", len(reqs), tt.requests)
			}
			if tt.opts.RulesOnlyConsent {
				if tr.ConsentCall != nil {
					t.Errorf("rules only, but a consent call was recorded")
				}
				return
			}
			// The classification request: the prompt, the reply, the schema.
			var body struct {
				ResponseFormat struct {
					Type       string `json:"type"`
					JSONSchema struct {
						Name   string          `json:"name"`
						Strict bool            `json:"strict"`
						Schema json.RawMessage `json:"schema"`
					} `json:"json_schema"`
				} `json:"response_format"`
				Tools []json.RawMessage `json:"tools"`
			}
			if err := json.Unmarshal([]byte(reqs[0].raw), &body); err != nil {
				t.Fatal(err)
			}
			if body.ResponseFormat.JSONSchema.Name != consent.ModelSchemaName || !body.ResponseFormat.JSONSchema.Strict || len(body.Tools) != 0 {
				t.Errorf("classification request: %s", reqs[0].raw)
			}
			if m := reqs[0].Messages; len(m) != 2 || m[0].Content != a.prompts.Consent || m[1].Content != consent.ModelMessage("Who is the current CEO of Microsoft", unplaced) {
				t.Errorf("classification messages: %s", reqs[0].raw)
			}
			if tr.ConsentCall == nil || tr.ConsentCall.Content != tt.verdict {
				t.Errorf("consent call not recorded with the verdict: %+v", tr.ConsentCall)
			}
			// The phase's own requests are ModelCalls; the consent call is not one.
			if !tt.fails && len(tr.ModelCalls) != tt.requests-1 {
				t.Errorf("%d model calls in the turn, want %d", len(tr.ModelCalls), tt.requests-1)
			}
		})
	}
}

// A reply the rules place never reaches the model.
func TestConsentPlacedByRules(t *testing.T) {
	f := newFake(t)
	a, _ := f.assistant(Options{})
	s := a.NewSession()
	ctx := context.Background()
	f.script(reply{content: phase1Text}, reply{content: "Understood."})
	s.Turn(ctx, "Who is the current CEO of Microsoft")
	tr, err := s.Turn(ctx, "nein danke")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Intent != "NO" || tr.IntentBy != "rule" || tr.ConsentCall != nil || len(f.requests()) != 2 {
		t.Fatalf("turn %+v, %d requests", tr, len(f.requests()))
	}
}

// A consent with a condition the rules read ("yes, but stick to government
// sources") searches, and every Phase 2 request carries the condition as an
// instruction right after the system prompt; the trace shows it. A consent
// without one adds nothing.
func TestScopeReachesPhase2(t *testing.T) {
	for _, tt := range []struct{ reply, scope string }{
		{"yes, but stick to government sources", "stick to government sources"},
		{"yes please", ""},
	} {
		t.Run(tt.reply, func(t *testing.T) {
			f := newFake(t)
			a, _ := f.assistant(Options{})
			s := a.NewSession()
			ctx := context.Background()
			f.script(reply{content: phase1Text},
				reply{calls: []llmCall{call("c1", "tavily_search", `{"query":"Microsoft CEO"}`)}}, reply{content: goodAnswer(answer.VerificationConfirmed)})
			if _, err := s.Turn(ctx, "Who is the current CEO of Microsoft"); err != nil {
				t.Fatal(err)
			}
			tr, err := s.Turn(ctx, tt.reply)
			if err != nil {
				t.Fatal(err)
			}
			if tr.Phase != trace.Phase2 || tr.IntentBy != "rule" || tr.ConsentScope != tt.scope || tr.ConsentCall != nil {
				t.Fatalf("turn: phase %s by %s scope %q consent call %v", tr.Phase, tr.IntentBy, tr.ConsentScope, tr.ConsentCall)
			}
			reqs := f.requests()[1:]
			if len(reqs) != 2 {
				t.Fatalf("%d Phase 2 requests, want 2", len(reqs))
			}
			for i, r := range reqs {
				has := len(r.Messages) > 1 && r.Messages[1].Role == "system" && strings.Contains(r.Messages[1].Content, "government")
				if has != (tt.scope != "") {
					t.Errorf("Phase 2 request %d: %s; scope instruction present %v, want %v", i+1, r.raw, has, tt.scope != "")
				}
			}
			want := ""
			if tt.scope != "" {
				want = ScopeInstruction(tt.scope)
			}
			if tr.ScopeInstruction != want {
				t.Errorf("trace scope instruction %q, want %q", tr.ScopeInstruction, want)
			}
		})
	}
}
