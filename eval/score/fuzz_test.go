package score

import (
	"testing"

	"github.com/searchbench/searchbench/orchestrator/answer"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// FuzzScorers runs every scorer on Phase 2 turns whose raw and final
// outputs are arbitrary text, in both output modes: no scorer may panic,
// and every failing check must say why.
func FuzzScorers(f *testing.F) {
	f.Add(okMsg(answer.VerificationConfirmed), driftMsg(answer.VerificationSkipped), false)
	f.Add(structuredRaw(answer.VerificationSkipped, okEnv), okMsg(answer.VerificationSkipped), true)
	f.Add(`{"data":{"bullets":[{"text":"x","source_ids":["s9"]}],"sources":[],"render_markdown":""},"error":{"code":"NONE","message":""}}`, "", true)
	f.Add("```json\n{}\n```", "### Phase 2 – Search-Backed Answer\nVerification: x\n\n```json\n{\"data\":null}\n```", false)
	f.Fuzz(func(t *testing.T, raw, final string, structured bool) {
		turn := p2(final, call(0, trace.ToolExa, trace.CallOK), call(1, trace.ToolTavily, trace.CallOK))
		turn.RawOutput = raw
		if structured {
			turn.Mode = trace.ModeStructured
		}
		inputs := []*Input{
			{Case: routingCase("tavily_plus_exa"), Session: session(turn)},
			{Case: flowCase(flowExpect{Phase: "phase2", Error: "NONE", Verification: "confirmed"}), Session: session(turn)},
		}
		for _, in := range inputs {
			for _, s := range All() {
				r, ok := s.Score(in)
				if !ok {
					continue
				}
				for _, c := range r.Checks {
					if !c.Pass && c.Reason == "" {
						t.Fatalf("%s: check %q fails without a reason (got %q)", s.Name(), c.Name, c.Got)
					}
				}
			}
		}
	})
}
