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
	}{
		{name: "model says NO", verdict: `{"intent":"NO","reason":"Afar for no."}`, phase: trace.Decline, intent: "NO", by: "model", requests: 2, reason: "Afar for no."},
		{name: "model says YES", verdict: `{"intent":"YES","reason":"assent"}`, phase: trace.Phase2, intent: "YES", by: "model", requests: 3, reason: "assent"},
		{name: "model says NEW_QUERY", verdict: `{"intent":"NEW_QUERY","reason":"a name"}`, phase: trace.Phase1, intent: "NEW_QUERY", by: "model", requests: 2, reason: "a name"},
		{name: "verdict off the schema", verdict: `{"intent":"MAYBE","reason":"?"}`, phase: trace.Phase1, intent: "NEW_QUERY", by: "rule", requests: 2, reason: `model verdict "MAYBE" is not YES, NO or NEW_QUERY`},
		{name: "verdict not JSON", verdict: `yes`, phase: trace.Phase1, intent: "NEW_QUERY", by: "rule", requests: 2, reason: "model verdict is not the schema's JSON"},
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
			switch tt.phase {
			case trace.Phase2:
				f.script(reply{calls: []llmCall{call("c1", "tavily_search", `{"query":"Microsoft CEO"}`)}}, reply{content: goodAnswer(answer.VerificationConfirmed)})
			default:
				f.script(reply{content: phase1Text})
			}
			tr, _ := s.Turn(ctx, unplaced)
			if tr.Phase != tt.phase || tr.Intent != tt.intent || tr.IntentBy != tt.by || tr.Input != unplaced {
				t.Fatalf("turn: phase %s intent %s by %s input %q; want %s %s by %s", tr.Phase, tr.Intent, tr.IntentBy, tr.Input, tt.phase, tt.intent, tt.by)
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
			if m := reqs[0].Messages; len(m) != 2 || m[0].Content != consent.ModelPrompt || m[1].Content != unplaced {
				t.Errorf("classification messages: %s", reqs[0].raw)
			}
			if tr.ConsentCall == nil || tr.ConsentCall.Content != tt.verdict {
				t.Errorf("consent call not recorded with the verdict: %+v", tr.ConsentCall)
			}
			// The phase's own requests are ModelCalls; the consent call is not one.
			if len(tr.ModelCalls) != tt.requests-1 {
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
