package score

import (
	"fmt"
	"strings"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// turnRef is a recorded turn with its 1-based position in the session.
type turnRef struct {
	N int
	T *trace.Turn
}

// sessionTurns returns the turns of in's session, or nil.
func sessionTurns(in *Input) []turnRef {
	if in.Session == nil {
		return nil
	}
	out := make([]turnRef, len(in.Session.Turns))
	for i := range in.Session.Turns {
		out[i] = turnRef{i + 1, &in.Session.Turns[i]}
	}
	return out
}

// phase2Turns returns the Phase 2 turns of routing and flows cases.
func phase2Turns(in *Input) []turnRef {
	if in.Case == nil || (in.Case.Kind != dataset.KindRouting && in.Case.Kind != dataset.KindFlows) {
		return nil
	}
	var out []turnRef
	for _, r := range sessionTurns(in) {
		if r.T.Phase == trace.Phase2 {
			out = append(out, r)
		}
	}
	return out
}

// checkName names a check on turn n. Flows have several turns, so their
// checks say which one; a routing or consent case has one.
func checkName(in *Input, n int, what string) string {
	if in.Case != nil && in.Case.Kind == dataset.KindFlows {
		return fmt.Sprintf("turn %d: %s", n, what)
	}
	return what
}

// expectOf returns the flow expectation for turn n (1-based), or nil.
func expectOf(in *Input, n int) *dataset.Expect {
	if in.Case == nil || in.Case.Kind != dataset.KindFlows || n < 1 || n > len(in.Case.Turns) {
		return nil
	}
	return &in.Case.Turns[n-1].Expect
}

// rawBroken reports whether the flow expects the model's output of turn n
// to be broken (schema_violation or repaired). Such a case tests how the
// app handles the break, so checks on the raw output do not apply to it.
func rawBroken(in *Input, n int) bool {
	e := expectOf(in, n)
	return e != nil && (e.Output == "schema_violation" || e.Output == "repaired")
}

// modeOf returns the Phase 2 output mode of t.
func modeOf(in *Input, t *trace.Turn) string {
	switch {
	case t.Mode != "":
		return t.Mode
	case in.Session != nil && in.Session.Mode != "":
		return in.Session.Mode
	}
	return trace.ModeModel
}

// passFail builds a check from a condition.
func passFail(name, metric string, pass bool, expected, got, reason string) Check {
	c := Check{Name: name, Metric: metric, Pass: pass, Expected: expected, Got: got}
	if !pass {
		c.Reason = reason
	}
	return c
}

// orNone shows an empty value as "none".
func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// turnFailed explains a turn that ended with an infrastructure error.
func turnFailed(t *trace.Turn) string {
	return "the turn did not finish: " + t.Error
}

// describeCalls lists tool calls in order for a reason: "exa_search (round 1),
// tavily_search (round 2, refused: limit)".
func describeCalls(calls []trace.ToolCall) string {
	if len(calls) == 0 {
		return "no search calls"
	}
	parts := make([]string, len(calls))
	for i, c := range calls {
		s := fmt.Sprintf("%s (round %d", c.Tool, c.Round)
		if c.Status != trace.CallOK {
			s += ", " + c.Status
		}
		parts[i] = s + ")"
	}
	return "calls: " + strings.Join(parts, ", ")
}

// sent reports whether a tool call reached the provider.
func sent(c trace.ToolCall) bool { return c.Status == trace.CallOK || c.Status == trace.CallError }
