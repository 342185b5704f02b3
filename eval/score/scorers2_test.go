package score

import (
	"fmt"
	"testing"

	"github.com/searchbench/searchbench/orchestrator/answer"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

func TestFlow(t *testing.T) {
	conf, skip := answer.VerificationConfirmed, answer.VerificationSkipped
	ok := trace.CallOK

	// A two-turn consent flow: Phase 1, then "yes" → Phase 2.
	yes := p2(okMsg(conf), call(0, trace.ToolTavily, ok))
	yes.Input, yes.AwaitingConsent, yes.Intent, yes.IntentRule = "yes", true, "YES", "yes.word"
	twoTurn := flowCase(
		flowExpect{Phase: "phase1", Override: ptr(false)},
		flowExpect{Phase: "phase2", Intent: "YES", Route: "tavily_only", Verification: "confirmed", Error: "NONE", Output: "passed", RefusedCalls: ptr(0), Retries: ptr(0)},
	)

	// An override turn that wrongly prints the confirmed sentence.
	override := p2(okMsg(conf), call(0, trace.ToolExa, ok))
	override.Input, override.Override, override.Phase1Skipped = "? what is x", true, true
	overrideCase := flowCase(flowExpect{Phase: "phase2", Override: ptr(true)})

	// Phase 1 that offered tools and names Tavily.
	leaky := p1()
	leaky.Output = answer.Phase1Header + "\nI would ask Tavily.\n\n" + answer.ConsentQuestion
	leaky.ModelCalls[0].ToolsOffered = []string{trace.ToolTavily}

	// Decline turn with a tool call.
	decline := trace.Turn{Phase: trace.Decline, Input: "no thanks", AwaitingConsent: true, Intent: "NO", IntentRule: "no.phrase",
		ToolCalls: []trace.ToolCall{call(0, trace.ToolExa, ok)}}

	// A refused fourth call and a 429 retry.
	busy := p2(okMsg(conf), call(0, trace.ToolTavily, ok), call(0, trace.ToolTavily, ok), call(1, trace.ToolTavily, ok), call(2, trace.ToolTavily, trace.CallLimited))
	busy.Input, busy.AwaitingConsent, busy.Intent = "sure", true, "YES"
	busy.ModelCalls[0].Attempts, busy.ModelCalls[0].Statuses = 2, []int{429, 200}
	busyCase := flowCase(flowExpect{Phase: "phase1"}, flowExpect{Phase: "phase2", RefusedCalls: ptr(1), Retries: ptr(1)})
	busyWrong := flowCase(flowExpect{Phase: "phase1"}, flowExpect{Phase: "phase2", RefusedCalls: ptr(0), Retries: ptr(0)})

	// The app replaced a broken answer with the schema-violation form.
	replaced := p2(answer.FormatPhase2(conf, answer.SchemaViolation("data.bullets missing")))
	replaced.Input, replaced.AwaitingConsent, replaced.Intent = "y", true, "YES"
	replaced.RawOutput, replaced.Replaced, replaced.Reason = "garbage", "schema_violation", "no json block"
	replacedCase := flowCase(flowExpect{Phase: "phase1"}, flowExpect{Phase: "phase2", Error: "SCHEMA_VIOLATION", Output: "schema_violation"})

	routingSkipped := p2(okMsg(skip), call(0, trace.ToolExa, ok))
	routingSkipped.Phase1Skipped = true
	routingWrong := p2(okMsg(conf), call(0, trace.ToolExa, ok))
	routingWrong.Phase1Skipped = true

	runScorerCases(t, Flow{}, []scorerCase{
		{name: "consent flow passes", applies: true,
			in: &Input{Case: twoTurn, Session: session(p1(), yes)},
			checks: map[string]bool{"turns": true,
				"turn 1: phase": true, "turn 1: override": true, "turn 1: no tools": true, "turn 1: phase 1 format": true,
				"turn 2: phase": true, "turn 2: intent": true, "turn 2: verification": true, "turn 2: route": true,
				"turn 2: error": true, "turn 2: output": true, "turn 2: refused calls": true, "turn 2: retries": true}},
		{name: "missing turn", applies: true,
			in:      &Input{Case: twoTurn, Session: session(p1())},
			checks:  map[string]bool{"turns": false, "turn 1: phase": true, "turn 1: override": true, "turn 1: no tools": true, "turn 1: phase 1 format": true},
			explain: []string{"2 user turns but 1 were recorded"}},
		{name: "override with confirmed sentence", applies: true,
			in:      &Input{Case: overrideCase, Session: session(override)},
			checks:  map[string]bool{"turns": true, "turn 1: phase": true, "turn 1: override": true, "turn 1: verification": false},
			explain: []string{"only the skipped sentence is right"}},
		{name: "expected sentence differs", applies: true,
			in: &Input{Case: flowCase(flowExpect{Phase: "phase1"}, flowExpect{Verification: "corrected"}), Session: session(p1(), yes)},
			checks: map[string]bool{"turns": true, "turn 1: phase": true, "turn 1: no tools": true, "turn 1: phase 1 format": true,
				"turn 2: verification": false},
			explain: []string{"expects the corrected sentence"}},
		{name: "phase 1 with tools and a tool name", applies: true,
			in:      &Input{Case: flowCase(flowExpect{Phase: "phase1"}), Session: session(leaky)},
			checks:  map[string]bool{"turns": true, "turn 1: phase": true, "turn 1: no tools": false, "turn 1: phase 1 format": false},
			explain: []string{"model call 1 offered tavily_search", "tools.mentioned"}},
		{name: "decline with a tool call", applies: true,
			in: &Input{Case: flowCase(flowExpect{Phase: "phase1"}, flowExpect{Phase: "decline", Intent: "NO"}), Session: session(p1(), decline)},
			checks: map[string]bool{"turns": true, "turn 1: phase": true, "turn 1: no tools": true, "turn 1: phase 1 format": true,
				"turn 2: phase": true, "turn 2: intent": true, "turn 2: no tools": false}},
		{name: "wrong phase explained by the rule", applies: true,
			in: &Input{Case: flowCase(flowExpect{Phase: "phase1"}, flowExpect{Phase: "phase2", Intent: "YES"}), Session: session(p1(), decline)},
			checks: map[string]bool{"turns": true, "turn 1: phase": true, "turn 1: no tools": true, "turn 1: phase 1 format": true,
				"turn 2: phase": false, "turn 2: intent": false, "turn 2: no tools": false},
			explain: []string{`rule "no.phrase"`}},
		{name: "limits and retries as expected", applies: true,
			in: &Input{Case: busyCase, Session: session(p1(), busy)},
			checks: map[string]bool{"turns": true, "turn 1: phase": true, "turn 1: no tools": true, "turn 1: phase 1 format": true,
				"turn 2: phase": true, "turn 2: verification": true, "turn 2: refused calls": true, "turn 2: retries": true}},
		{name: "limits and retries unexpected", applies: true,
			in: &Input{Case: busyWrong, Session: session(p1(), busy)},
			checks: map[string]bool{"turns": true, "turn 1: phase": true, "turn 1: no tools": true, "turn 1: phase 1 format": true,
				"turn 2: phase": true, "turn 2: verification": true, "turn 2: refused calls": false, "turn 2: retries": false},
			explain: []string{"model call 1: 1 (statuses [429 200])", "round 2, limit"}},
		{name: "replaced output", applies: true,
			in: &Input{Case: replacedCase, Session: session(p1(), replaced)},
			checks: map[string]bool{"turns": true, "turn 1: phase": true, "turn 1: no tools": true, "turn 1: phase 1 format": true,
				"turn 2: phase": true, "turn 2: verification": true, "turn 2: error": true, "turn 2: output": true}},
		{name: "replaced output not expected", applies: true,
			in: &Input{Case: flowCase(flowExpect{Phase: "phase1"}, flowExpect{Error: "NONE", Output: "passed"}), Session: session(p1(), replaced)},
			checks: map[string]bool{"turns": true, "turn 1: phase": true, "turn 1: no tools": true, "turn 1: phase 1 format": true,
				"turn 2: verification": true, "turn 2: error": false, "turn 2: output": false},
			explain: []string{"no json block", "data.bullets missing"}},
		{name: "routing case: phase and skipped sentence", applies: true,
			in:     &Input{Case: routingCase("exa_only"), Session: session(routingSkipped)},
			checks: map[string]bool{"phase": true, "verification": true}},
		{name: "routing case: skipped sentence even when the trace misses Phase1Skipped", applies: true,
			in:     &Input{Case: routingCase("exa_only"), Session: session(p2(okMsg(skip), call(0, trace.ToolExa, ok)))},
			checks: map[string]bool{"phase": true, "verification": true}},
		{name: "routing case: wrong sentence", applies: true,
			in:     &Input{Case: routingCase("exa_only"), Session: session(routingWrong)},
			checks: map[string]bool{"phase": true, "verification": false}},
		{name: "routing case: phase 1", applies: true,
			in:     &Input{Case: routingCase("exa_only"), Session: session(p1())},
			checks: map[string]bool{"phase": false}},
		{name: "consent case", applies: false,
			in: &Input{Case: consentCase("YES", "y"), Session: session(trace.Turn{Intent: "YES"})}},
	})
}

func TestConsent(t *testing.T) {
	turn := func(input, intent, rule string) *trace.Session {
		return session(trace.Turn{Input: input, AwaitingConsent: true, Intent: intent, IntentRule: rule})
	}
	runScorerCases(t, Consent{}, []scorerCase{
		{name: "right", applies: true,
			in:     &Input{Case: consentCase("YES", "sure"), Session: turn("sure", "YES", "yes.word")},
			checks: map[string]bool{"intent": true}},
		{name: "wrong, with rule", applies: true,
			in:      &Input{Case: consentCase("SEARCH_NOW", "can you confirm that?"), Session: turn("can you confirm that?", "NEW_QUERY", "new.question")},
			checks:  map[string]bool{"intent": false},
			explain: []string{`rule "new.question"`, "NEW_QUERY"}},
		{name: "routing case", applies: false,
			in: &Input{Case: routingCase("exa_only"), Session: session(p1())}},
	})

	agg := Consent{}.NewAggregator()
	for _, x := range []struct{ label, reply, got, rule string }{
		{"YES", "y", "YES", "yes.word"},
		{"YES", "yes but no sources", "NO", "no.but"},
		{"NO", "nope", "NO", "no.word"},
		{"SEARCH_NOW", "now check with sources", "SEARCH_NOW", "search.now"},
	} {
		in := &Input{Case: consentCase(x.label, x.reply), Session: turn(x.reply, x.got, x.rule)}
		r, _ := Consent{}.Score(in)
		agg.Add(InfoOf(in.Case), r)
	}
	sum := agg.Summary()
	got := map[string]Metric{}
	for _, m := range sum.Metrics {
		got[m.Name] = m
	}
	if m := got["consent.accuracy"]; m.Num != 3 || m.Den != 4 || !m.Paired {
		t.Errorf("accuracy = %+v", m)
	}
	if m := got["consent.accuracy.YES"]; m.Num != 1 || m.Den != 2 || m.Paired {
		t.Errorf("recall YES = %+v", m)
	}
	if _, ok := got["consent.accuracy.NEW_QUERY"]; ok {
		t.Errorf("recall reported for a label with no case")
	}
	if len(sum.Tables) != 1 || len(sum.Tables[0].Rows) != 1 {
		t.Fatalf("tables = %+v", sum.Tables)
	}
	want := []string{"consent/c1", "yes but no sources", "YES", "NO", "no.but"}
	for i, w := range want {
		if sum.Tables[0].Rows[0][i] != w {
			t.Errorf("misclassified row = %q, want %q", sum.Tables[0].Rows[0], want)
			break
		}
	}
}

func TestLimits(t *testing.T) {
	conf := answer.VerificationConfirmed
	ok, tav, exa := trace.CallOK, trace.ToolTavily, trace.ToolExa
	many := p2(okMsg(conf), call(0, tav, ok), call(0, tav, ok), call(1, tav, trace.CallError), call(2, tav, ok), call(2, exa, ok))
	refused := p2(okMsg(conf), call(0, tav, ok), call(0, tav, ok), call(1, tav, ok), call(2, tav, trace.CallLimited), call(2, tav, trace.CallInvalid))
	big := call(0, exa, ok)
	big.Sent, big.Results = 5, 7
	tooMany := p2(okMsg(conf), big)
	runScorerCases(t, Limits{}, []scorerCase{
		{name: "within limits", applies: true,
			in:     &Input{Case: routingCase("tavily_only"), Session: session(refused)},
			checks: map[string]bool{"queries per tool ≤ 3": true, "results per query ≤ 5": true},
			values: map[string]float64{"refused": 1}},
		{name: "fourth query sent (an error still counts)", applies: true,
			in:      &Input{Case: routingCase("tavily_plus_exa"), Session: session(many)},
			checks:  map[string]bool{"queries per tool ≤ 3": false, "results per query ≤ 5": true},
			explain: []string{"exa_search 1, tavily_search 4"},
			values:  map[string]float64{"refused": 0}},
		{name: "too many results", applies: true,
			in:      &Input{Case: routingCase("exa_only"), Session: session(tooMany)},
			checks:  map[string]bool{"queries per tool ≤ 3": true, "results per query ≤ 5": false},
			explain: []string{"sent 5, got 7"}},
		{name: "flow: per turn", applies: true,
			in:     &Input{Case: flowCase(flowExpect{}, flowExpect{}), Session: session(p1(), refused)},
			checks: map[string]bool{"turn 2: queries per tool ≤ 3": true, "turn 2: results per query ≤ 5": true}},
		{name: "consent case", applies: false,
			in: &Input{Case: consentCase("YES", "y"), Session: session(trace.Turn{Intent: "YES"})}},
	})
}

func TestEvidence(t *testing.T) {
	conf := answer.VerificationConfirmed
	insufficient := p2(answer.FormatPhase2(conf, answer.InsufficientEvidence()))
	runScorerCases(t, Evidence{}, []scorerCase{
		// Bullet 3 cites s1 and s3, both go.dev: one domain.
		{name: "two of three backed", applies: true,
			in:     &Input{Case: routingCase("exa_only"), Session: session(p2(okMsg(conf)))},
			values: map[string]float64{"answers": 1, "bullets": 3, "backed": 2}},
		{name: "two answers in a flow", applies: true,
			in:     &Input{Case: flowCase(flowExpect{}, flowExpect{}), Session: session(p2(okMsg(conf)), p2(okMsg(conf)))},
			values: map[string]float64{"answers": 2, "bullets": 6, "backed": 4}},
		{name: "insufficient evidence: not applicable", applies: false,
			in: &Input{Case: routingCase("exa_only"), Session: session(insufficient)}},
	})
	r, _ := Evidence{}.Score(&Input{Case: routingCase("exa_only"), Session: session(p2(okMsg(conf)))})
	if !r.Measure || !r.Pass || len(r.Checks) != 0 {
		t.Errorf("evidence result is not a measure: %+v", r)
	}
	agg := Evidence{}.NewAggregator()
	agg.Add(CaseInfo{}, r)
	agg.Add(CaseInfo{}, Result{Measure: true, Pass: true, Values: map[string]float64{"answers": 1, "bullets": 5, "backed": 5}})
	sum := agg.Summary()
	if m := sum.Metrics[0]; m.Name != MetricEvidenceBackedShare || m.Value != 7.0/8 || m.Num != 7 || m.Den != 8 || m.Note == "" {
		t.Errorf("backed share = %+v", m)
	}
	if m := sum.Metrics[1]; m.Value != 4 {
		t.Errorf("bullets per answer = %+v", m)
	}
}

func TestCost(t *testing.T) {
	conf := answer.VerificationConfirmed
	turn := p2(okMsg(conf), call(0, trace.ToolTavily, trace.CallOK), call(0, trace.ToolTavily, trace.CallLimited))
	turn.ModelCalls = append(turn.ModelCalls, trace.ModelCall{Round: 1, Attempts: 1, Usage: trace.Usage{PromptTokens: 300, CompletionTokens: 80, TotalTokens: 380}})
	turn.Latency = trace.Latency{ModelMS: 1200.1, SearchMS: 0.2}
	runScorerCases(t, Cost{}, []scorerCase{
		{name: "sums calls", applies: true,
			in: &Input{Case: routingCase("tavily_only"), Session: session(turn)},
			values: map[string]float64{"prompt_tokens": 400, "completion_tokens": 100, "total_tokens": 500,
				"model_calls": 2, "search_calls": 1, "latency_ms": 1200.3}},
		{name: "consent case", applies: false,
			in: &Input{Case: consentCase("YES", "y"), Session: session(trace.Turn{Intent: "YES"})}},
	})
	agg := Cost{}.NewAggregator()
	for _, l := range []float64{100, 300, 200, 1000} {
		agg.Add(CaseInfo{}, Result{Measure: true, Pass: true, Values: map[string]float64{"latency_ms": l, "total_tokens": l * 2}})
	}
	got := map[string]float64{}
	for _, m := range agg.Summary().Metrics {
		got[m.Name] = m.Value
	}
	want := map[string]float64{MetricCostLatencyMean: 400, MetricCostLatencyP50: 200, MetricCostLatencyP95: 1000, MetricCostTokens: 800}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
}

func TestFindingCategories(t *testing.T) {
	listed := map[string]bool{}
	for _, c := range answer.Codes {
		listed[c.Code] = true
		if _, ok := findingCategory[c.Code]; !ok {
			t.Errorf("answer finding code %q has no category in findingCategory (eval/score/findings.go)", c.Code)
		}
	}
	for code := range findingCategory {
		if !listed[code] {
			t.Errorf("findingCategory lists %q, which answer.Codes does not define", code)
		}
	}
}

func TestAllNames(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range All() {
		if seen[s.Name()] {
			t.Errorf("duplicate scorer %q", s.Name())
		}
		seen[s.Name()] = true
		if s.NewAggregator() == nil {
			t.Errorf("%s: nil aggregator", s.Name())
		}
	}
}

// TestConsentDecidedBy: once the model decided a reply (a reply the rules
// could not place), the summary counts the replies each path decided and
// how many of them were right; a trace without IntentBy counts as the rules'.
func TestConsentDecidedBy(t *testing.T) {
	agg := Consent{}.NewAggregator()
	for _, x := range []struct{ label, reply, got, by string }{
		{"YES", "y", "YES", ""},
		{"NO", "nope", "NO", "rule"},
		{"NO", "Maleey", "NO", "model"},
		{"NO", "mapp", "NEW_QUERY", "model"},
	} {
		tr := trace.Turn{Input: x.reply, AwaitingConsent: true, Intent: x.got, IntentRule: "r", IntentBy: x.by}
		in := &Input{Case: consentCase(x.label, x.reply), Session: session(tr)}
		r, _ := Consent{}.Score(in)
		agg.Add(InfoOf(in.Case), r)
	}
	sum := agg.Summary()
	if len(sum.Tables) == 0 || sum.Tables[0].Title != "Consent replies by what decided them" {
		t.Fatalf("tables = %+v", sum.Tables)
	}
	want := [][]string{{"rule", "2", "2"}, {"model", "2", "1"}}
	if got := sum.Tables[0].Rows; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("rows = %v, want %v", got, want)
	}
}

// TestConsentThreeFigures: a reply the rules left to the model (and no
// model read) is deferred, not wrong, and passes; a rule's wrong reading
// fails; a decline read as a search is counted apart; the model's reading
// is judged like a rule's. Each figure is reported overall and per file.
func TestConsentThreeFigures(t *testing.T) {
	agg := Consent{}.NewAggregator()
	for _, x := range []struct {
		label, reply, got, by, deferred string
		pass                            bool
	}{
		{"YES", "y", "YES", "rule", "", true},
		{"NO", "tak for svaret", "NEW_QUERY", "rule", "its language is not settled", true},
		{"NO", "yes. no.", "NEW_QUERY", "rule", "no correction", true},
		{"NO", "ok fine", "YES", "rule", "", false},
		{"YES", "mapp", "NO", "model", "its language is not settled", false},
	} {
		tr := trace.Turn{Input: x.reply, AwaitingConsent: true, Intent: x.got, IntentRule: "r", IntentBy: x.by, ConsentDeferred: x.deferred}
		in := &Input{Case: consentCase(x.label, x.reply), Session: session(tr)}
		r, _ := Consent{}.Score(in)
		if r.Pass != x.pass {
			t.Errorf("%q: pass %v, want %v (%+v)", x.reply, r.Pass, x.pass, r.Checks)
		}
		agg.Add(InfoOf(in.Case), r)
	}
	got := map[string]Metric{}
	for _, m := range agg.Summary().Metrics {
		got[m.Name] = m
	}
	for name, want := range map[string][2]int{
		MetricConsentAccuracy: {3, 5},
		MetricConsentRight:    {1, 5}, MetricConsentRight + ".consent": {1, 5},
		MetricConsentDeferred: {2, 5},
		MetricConsentWrong:    {2, 5}, MetricConsentWrong + ".consent": {2, 5},
		MetricConsentDeclines: {1, 3}, MetricConsentDeclines + ".consent": {1, 3},
	} {
		if m, ok := got[name]; !ok || m.Num != want[0] || m.Den != want[1] {
			t.Errorf("%s = %d/%d, want %d/%d", name, m.Num, m.Den, want[0], want[1])
		}
	}
	if got[MetricConsentWrong].Better != LowerIsBetter || got[MetricConsentDeclines].Better != LowerIsBetter || got[MetricConsentDeferred].Better != "" {
		t.Errorf("directions: wrong %q, declines %q, deferred %q", got[MetricConsentWrong].Better, got[MetricConsentDeclines].Better, got[MetricConsentDeferred].Better)
	}
}
