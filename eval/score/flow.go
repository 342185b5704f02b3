package score

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/orchestrator"
	"github.com/searchbench/searchbench/orchestrator/answer"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// Flow judges the conversation a flows case lays out, turn by turn, against
// the case's expectations: the phase each turn ran, how a consent reply was
// classified, the '?' override, that Phase 1 and decline turns offered and
// used no tools, the Phase 1 format, the verification sentence, the route,
// the final envelope's error code, whether the app passed, repaired or
// replaced the model's output, refused calls, retries and the condition a
// consent put on the search. On a routing case
// (one system-requested Phase 2 turn) it checks the phase and that the
// verification sentence is the "skipped" one.
type Flow struct{}

// Metrics of the flow scorer.
const (
	MetricFlowTurns        = "flow.turns"
	MetricFlowPhase        = "flow.phase"
	MetricFlowIntent       = "flow.intent"
	MetricFlowOverride     = "flow.override"
	MetricFlowNoTools      = "flow.no_tools"
	MetricFlowPhase1Format = "flow.phase1_format"
	MetricFlowVerification = "flow.verification"
	MetricFlowRoute        = "flow.route"
	MetricFlowError        = "flow.error"
	MetricFlowOutput       = "flow.output"
	MetricFlowLimits       = "flow.limits"
	MetricFlowRetries      = "flow.retries"
	// MetricFlowScope: a consent's condition reached Phase 2 as an
	// instruction (trace ScopeInstruction), as the case expects.
	MetricFlowScope = "flow.scope"
)

// verificationSentences maps the dataset's verification names to sentences.
var verificationSentences = map[string]string{
	"confirmed": answer.VerificationConfirmed,
	"corrected": answer.VerificationCorrected,
	"skipped":   answer.VerificationSkipped,
}

// Name implements Scorer.
func (Flow) Name() string { return "flow" }

// Declare implements Scorer.
func (Flow) Declare() Declaration {
	return Declaration{Kinds: []string{dataset.KindRouting, dataset.KindFlows}, Measure: false, Metrics: []string{
		MetricFlowTurns,
		MetricFlowPhase,
		MetricFlowIntent,
		MetricFlowOverride,
		MetricFlowNoTools,
		MetricFlowPhase1Format,
		MetricFlowVerification,
		MetricFlowRoute,
		MetricFlowError,
		MetricFlowOutput,
		MetricFlowLimits,
		MetricFlowRetries,
		MetricFlowScope,
	}, Invariants: []string{MetricFlowTurns, MetricFlowPhase, MetricFlowOverride, MetricFlowNoTools, MetricFlowOutput}}
}

// Score implements Scorer. It applies to flows and routing cases.
func (Flow) Score(in *Input) (Result, bool) {
	if in.Case == nil {
		return Result{}, false
	}
	switch in.Case.Kind {
	case dataset.KindFlows:
		return NewResult("flow", flowChecks(in)...), true
	case dataset.KindRouting:
		return NewResult("flow", routingFlowChecks(in)...), true
	}
	return Result{}, false
}

func routingFlowChecks(in *Input) []Check {
	ts := sessionTurns(in)
	if len(ts) == 0 {
		return []Check{{Name: "phase", Metric: MetricFlowPhase, Expected: trace.Phase2, Got: "no turn",
			Reason: "the session recorded no turn"}}
	}
	t := ts[0].T
	checks := []Check{passFail("phase", MetricFlowPhase, t.Phase == trace.Phase2, trace.Phase2, t.Phase,
		"a system-requested search must run Phase 2 directly"+errSuffix(t))}
	if t.Phase == trace.Phase2 {
		// A system-requested search never follows a Phase 1 answer.
		checks = append(checks, verificationCheck(in, "verification", t, true, "skipped"))
	}
	return checks
}

func flowChecks(in *Input) []Check {
	c := in.Case
	ts := sessionTurns(in)
	checks := []Check{passFail("turns", MetricFlowTurns, len(ts) == len(c.Turns),
		strconv.Itoa(len(c.Turns)), strconv.Itoa(len(ts)),
		fmt.Sprintf("the flow has %d user turns but %d were recorded", len(c.Turns), len(ts)))}
	for i := 0; i < len(ts) && i < len(c.Turns); i++ {
		n, t, e := i+1, ts[i].T, c.Turns[i].Expect
		name := func(what string) string { return fmt.Sprintf("turn %d: %s", n, what) }

		if e.Phase != "" {
			checks = append(checks, passFail(name("phase"), MetricFlowPhase, t.Phase == e.Phase, e.Phase, t.Phase,
				phaseReason(t)))
		}
		if e.Intent != "" {
			got := t.Intent
			if !t.AwaitingConsent {
				got = "not awaiting consent"
			}
			checks = append(checks, passFail(name("intent"), MetricFlowIntent, got == e.Intent, e.Intent, got,
				fmt.Sprintf("reply %q classified %s by rule %q", t.Input, orNone(t.Intent), t.IntentRule)))
		}
		if e.Override != nil {
			checks = append(checks, passFail(name("override"), MetricFlowOverride, t.Override == *e.Override,
				strconv.FormatBool(*e.Override), strconv.FormatBool(t.Override),
				fmt.Sprintf("input %q: a leading or trailing '?' (after trimming) forces Phase 2; a consent reply is never an override", t.Input)))
		}
		if t.Phase == trace.Phase1 || t.Phase == trace.Decline {
			checks = append(checks, noToolsCheck(name("no tools"), t))
		}
		if t.Phase == trace.Phase1 {
			checks = append(checks, phase1Check(name("phase 1 format"), t))
		}
		if t.Phase == trace.Phase2 {
			checks = append(checks, verificationCheck(in, name("verification"), t, t.Phase1Skipped, e.Verification))
		}
		if e.Route != "" {
			got := orNone(t.Route)
			checks = append(checks, passFail(name("route"), MetricFlowRoute, got == e.Route, e.Route, got,
				describeCalls(t.ToolCalls)))
		}
		if e.Error != "" {
			got, reason := finalErrorCode(in, t)
			checks = append(checks, passFail(name("error"), MetricFlowError, got == e.Error, e.Error, got, reason))
		}
		if e.Output != "" {
			got := t.Replaced
			if got == "" {
				got = "passed"
			}
			reason := "the app passed the model's output through"
			if t.Reason != "" {
				reason = "the app replaced the model's output: " + t.Reason
			}
			checks = append(checks, passFail(name("output"), MetricFlowOutput, got == e.Output, e.Output, got, reason+errSuffix(t)))
		}
		if e.RefusedCalls != nil {
			refused := 0
			for _, tc := range t.ToolCalls {
				if tc.Status == trace.CallLimited {
					refused++
				}
			}
			checks = append(checks, passFail(name("refused calls"), MetricFlowLimits, refused == *e.RefusedCalls,
				strconv.Itoa(*e.RefusedCalls), strconv.Itoa(refused),
				"calls refused by the per-tool query limit; "+describeCalls(t.ToolCalls)))
		}
		if e.Scope != "" {
			want := orchestrator.ScopeInstruction(e.Scope)
			checks = append(checks, passFail(name("scope"), MetricFlowScope, t.ConsentScope == e.Scope && t.ScopeInstruction == want,
				e.Scope, t.ConsentScope, fmt.Sprintf("the consent's condition must reach every Phase 2 request; the turn sent %q", t.ScopeInstruction)))
		}
		if e.Retries != nil {
			got, detail := retries(t)
			checks = append(checks, passFail(name("retries"), MetricFlowRetries, got == *e.Retries,
				strconv.Itoa(*e.Retries), strconv.Itoa(got), "HTTP retries (attempts − 1 per request): "+detail))
		}
	}
	return checks
}

func errSuffix(t *trace.Turn) string {
	if t.Error != "" {
		return "; " + turnFailed(t)
	}
	return ""
}

// phaseReason explains why a turn ran the phase it ran.
func phaseReason(t *trace.Turn) string {
	switch {
	case t.Error != "":
		return turnFailed(t)
	case t.AwaitingConsent:
		return fmt.Sprintf("reply %q was classified %s by rule %q", t.Input, orNone(t.Intent), t.IntentRule)
	case t.Override:
		return fmt.Sprintf("input %q carries the '?' override", t.Input)
	}
	return fmt.Sprintf("input %q is a new query without override", t.Input)
}

// noToolsCheck checks that a Phase 1 or decline turn offered no tools in
// any model call and made no tool calls.
func noToolsCheck(name string, t *trace.Turn) Check {
	var problems []string
	if len(t.ToolsOffered) > 0 {
		problems = append(problems, "tools offered: "+strings.Join(t.ToolsOffered, ", "))
	}
	for i, m := range t.ModelCalls {
		if len(m.ToolsOffered) > 0 {
			problems = append(problems, fmt.Sprintf("model call %d offered %s", i+1, strings.Join(m.ToolsOffered, ", ")))
		}
		if len(m.ToolCalls) > 0 {
			problems = append(problems, fmt.Sprintf("model call %d asked for %d tool call(s)", i+1, len(m.ToolCalls)))
		}
	}
	if len(t.ToolCalls) > 0 {
		problems = append(problems, describeCalls(t.ToolCalls))
	}
	got := "no tools"
	if len(problems) > 0 {
		got = strings.Join(problems, "; ")
	}
	return passFail(name, MetricFlowNoTools, len(problems) == 0, "no tools", got,
		t.Phase+" turns must not offer or call search tools")
}

// phase1Check checks the Phase 1 header, body and consent question.
func phase1Check(name string, t *trace.Turn) Check {
	if t.Error != "" {
		return Check{Name: name, Metric: MetricFlowPhase1Format, Expected: "a well-formed Phase 1 answer",
			Got: "no output", Reason: turnFailed(t)}
	}
	var fs []answer.Finding
	for _, f := range answer.CheckPhase1(t.Output) {
		if f.Severity == answer.Violation {
			fs = append(fs, f)
		}
	}
	c := Check{Name: name, Metric: MetricFlowPhase1Format, Pass: len(fs) == 0,
		Expected: "a well-formed Phase 1 answer", Got: "well-formed"}
	if len(fs) > 0 {
		c.Got, c.Reason, c.Diff = findingCodes(fs), findingReasons(fs), findingDiffs(fs)
	}
	return c
}

// verificationCheck checks the final output's Verification sentence: the
// skipped one iff no Phase 1 answer preceded the turn (skipped), otherwise
// confirmed or corrected; and exactly the expected one when the case names
// it.
func verificationCheck(in *Input, name string, t *trace.Turn, skipped bool, want string) Check {
	c := Check{Name: name, Metric: MetricFlowVerification}
	allowed := []string{answer.VerificationConfirmed, answer.VerificationCorrected}
	why := "a Phase 1 answer preceded this turn, so the sentence must confirm or correct it"
	if skipped {
		allowed = []string{answer.VerificationSkipped}
		why = "no Phase 1 answer preceded this turn, so only the skipped sentence is right"
	}
	c.Expected = strings.Join(allowed, " | ")
	if want != "" {
		c.Expected = verificationSentences[want]
	}
	if t.Error != "" {
		c.Got, c.Reason = "no output", turnFailed(t)
		return c
	}
	got := in.CheckPhase2(t.Output).Verification
	c.Got = got
	if got == "" {
		c.Got, c.Reason = "no Verification line", "the final output has no Verification line"
		return c
	}
	consistent := false
	for _, a := range allowed {
		consistent = consistent || got == a
	}
	switch {
	case !consistent:
		c.Reason = why
	case want != "" && got != c.Expected:
		c.Reason = fmt.Sprintf("the case expects the %s sentence", want)
	default:
		c.Pass = true
	}
	return c
}

// finalErrorCode returns the error code of t's final envelope.
func finalErrorCode(in *Input, t *trace.Turn) (code, reason string) {
	switch {
	case t.Error != "":
		return "no output", turnFailed(t)
	case t.Phase != trace.Phase2:
		return "no envelope", fmt.Sprintf("the turn ran %s, which has no envelope", t.Phase)
	}
	rep := in.CheckPhase2(t.Output)
	if rep.Envelope == nil {
		return "no envelope", "the final output has no decodable JSON envelope"
	}
	reason = "error.message: " + strconv.Quote(rep.Envelope.Error.Message)
	if t.Reason != "" {
		reason += "; " + t.Reason
	}
	return rep.Envelope.Error.Code, reason
}

// retries returns Σ(attempts − 1) over the turn's model and tool calls and
// says where they happened.
func retries(t *trace.Turn) (int, string) {
	total := 0
	var where []string
	for i, m := range t.ModelCalls {
		if m.Attempts > 1 {
			total += m.Attempts - 1
			s := fmt.Sprintf("model call %d: %d", i+1, m.Attempts-1)
			if len(m.Statuses) > 0 {
				s += fmt.Sprintf(" (statuses %v)", m.Statuses)
			}
			where = append(where, s)
		}
	}
	for _, c := range t.ToolCalls {
		if c.Attempts > 1 {
			total += c.Attempts - 1
			where = append(where, fmt.Sprintf("%s round %d: %d", c.Tool, c.Round, c.Attempts-1))
		}
	}
	if len(where) == 0 {
		return total, "none"
	}
	return total, strings.Join(where, ", ")
}

// NewAggregator implements Scorer.
func (Flow) NewAggregator() Aggregator { return &Rates{} }
