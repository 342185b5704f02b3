package score

import (
	"strings"
	"testing"

	"github.com/searchbench/searchbench/orchestrator/answer"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// scorerCase is one scorer test: the input, whether the scorer applies, the
// checks expected by name (true = pass), checks that must be absent, and
// substrings the failing checks' reasons, gots or diffs must contain.
type scorerCase struct {
	name    string
	in      *Input
	applies bool
	checks  map[string]bool
	absent  []string
	explain []string
	values  map[string]float64
}

func runScorerCases(t *testing.T, s Scorer, cases []scorerCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, ok := s.Score(tc.in)
			if ok != tc.applies {
				t.Fatalf("applies = %v, want %v (result %+v)", ok, tc.applies, r)
			}
			if !ok {
				return
			}
			if r.Scorer != s.Name() {
				t.Errorf("Scorer = %q, want %q", r.Scorer, s.Name())
			}
			allPass := true
			for name, pass := range tc.checks {
				c := checkByName(r, name)
				if c == nil {
					t.Errorf("no check %q; have %v", name, checkNames(r))
					continue
				}
				if c.Pass != pass {
					t.Errorf("check %q pass = %v, want %v: expected %q got %q reason %q", name, c.Pass, pass, c.Expected, c.Got, c.Reason)
				}
				if !c.Pass && c.Reason == "" {
					t.Errorf("failing check %q has no reason", name)
				}
				if c.Metric == "" || !strings.HasPrefix(c.Metric, s.Name()+".") {
					t.Errorf("check %q metric %q does not start with %q", name, c.Metric, s.Name()+".")
				}
				allPass = allPass && pass
			}
			if len(r.Checks) != len(tc.checks) {
				t.Errorf("got %d checks %v, want %d", len(r.Checks), checkNames(r), len(tc.checks))
			}
			if !r.Measure && r.Pass != allPass {
				t.Errorf("Result.Pass = %v, want %v", r.Pass, allPass)
			}
			for _, name := range tc.absent {
				if checkByName(r, name) != nil {
					t.Errorf("check %q should not apply", name)
				}
			}
			var text strings.Builder
			for _, c := range r.Checks {
				if !c.Pass {
					text.WriteString(c.Reason + "\n" + c.Got + "\n" + c.Diff + "\n")
				}
			}
			for _, sub := range tc.explain {
				if !strings.Contains(text.String(), sub) {
					t.Errorf("failures do not mention %q:\n%s", sub, text.String())
				}
			}
			for k, v := range tc.values {
				if r.Values[k] != v {
					t.Errorf("Values[%q] = %v, want %v", k, r.Values[k], v)
				}
			}
		})
	}
}

func checkNames(r Result) []string {
	var out []string
	for _, c := range r.Checks {
		out = append(out, c.Name)
	}
	return out
}

func TestRouting(t *testing.T) {
	exa, tav := trace.ToolExa, trace.ToolTavily
	ok := trace.CallOK
	skip := okMsg(answer.VerificationSkipped)
	runScorerCases(t, Routing{}, []scorerCase{
		{name: "tavily only right", applies: true,
			in:     &Input{Case: routingCase("tavily_only"), Session: session(p2(skip, call(0, tav, ok)))},
			checks: map[string]bool{"route": true}, absent: []string{"exa before tavily"}},
		{name: "misroute", applies: true,
			in:      &Input{Case: routingCase("exa_only"), Session: session(p2(skip, call(0, tav, ok)))},
			checks:  map[string]bool{"route": false},
			explain: []string{"tavily_search (round 0)", "tavily_only"}},
		{name: "both, exa first", applies: true,
			in:     &Input{Case: routingCase("tavily_plus_exa"), Session: session(p2(skip, call(0, exa, ok), call(0, tav, ok)))},
			checks: map[string]bool{"route": true, "exa before tavily": true}},
		{name: "both, tavily first in an earlier round", applies: true,
			in:      &Input{Case: routingCase("tavily_plus_exa"), Session: session(p2(skip, call(0, tav, ok), call(1, exa, ok)))},
			checks:  map[string]bool{"route": true, "exa before tavily": false},
			explain: []string{"tavily_search first", "round 0"}},
		{name: "both, same round, tavily listed first", applies: true,
			in:     &Input{Case: routingCase("tavily_plus_exa"), Session: session(p2(skip, call(0, tav, ok), call(0, exa, ok)))},
			checks: map[string]bool{"route": true, "exa before tavily": false}},
		{name: "refused call still counts toward the route", applies: true,
			in:     &Input{Case: routingCase("tavily_plus_exa"), Session: session(p2(skip, call(0, exa, ok), call(0, tav, trace.CallLimited)))},
			checks: map[string]bool{"route": true, "exa before tavily": true}},
		{name: "no search", applies: true,
			in:      &Input{Case: routingCase("exa_only"), Session: session(p2(skip))},
			checks:  map[string]bool{"route": false},
			explain: []string{"no search calls"}},
		{name: "phase 1 instead of phase 2", applies: true,
			in:      &Input{Case: routingCase("exa_only"), Session: session(p1())},
			checks:  map[string]bool{"route": false},
			explain: []string{"ran phase1"}},
		{name: "no turn", applies: true,
			in:     &Input{Case: routingCase("exa_only"), Session: session()},
			checks: map[string]bool{"route": false}},
		{name: "consent case", applies: false,
			in: &Input{Case: consentCase("YES", "y"), Session: session(trace.Turn{Intent: "YES"})}},
	})
}

func TestRoutingAggregate(t *testing.T) {
	s := Routing{}
	agg := s.NewAggregator()
	skip := okMsg(answer.VerificationSkipped)
	add := func(label string, calls ...trace.ToolCall) {
		in := &Input{Case: routingCase(label), Session: session(p2(skip, calls...))}
		r, _ := s.Score(in)
		agg.Add(InfoOf(in.Case), r)
	}
	ok := trace.CallOK
	add("tavily_only", call(0, trace.ToolTavily, ok))
	add("tavily_only", call(0, trace.ToolExa, ok))
	add("exa_only", call(0, trace.ToolExa, ok))
	add("tavily_plus_exa", call(0, trace.ToolExa, ok), call(0, trace.ToolTavily, ok))
	add("tavily_plus_exa", call(0, trace.ToolTavily, ok), call(1, trace.ToolExa, ok))
	add("exa_only")
	sum := agg.Summary()
	m := map[string]Metric{}
	for _, x := range sum.Metrics {
		m[x.Name] = x
	}
	if got := m["routing.accuracy"]; got.Num != 4 || got.Den != 6 || !got.Paired || got.Lo <= 0 || got.Hi >= 1 {
		t.Errorf("accuracy = %+v", got)
	}
	if got := m["routing.exa_first"]; got.Num != 1 || got.Den != 2 {
		t.Errorf("exa_first = %+v", got)
	}
	// exa_only: tp 1, fp 1 (a tavily_only case), fn 1 (routed to none).
	if got := m["routing.precision.exa_only"]; got.Num != 1 || got.Den != 2 {
		t.Errorf("precision.exa_only = %+v", got)
	}
	if got := m["routing.recall.exa_only"]; got.Num != 1 || got.Den != 2 {
		t.Errorf("recall.exa_only = %+v", got)
	}
	if got := m["routing.f1.tavily_plus_exa"].Value; got != 1 {
		t.Errorf("f1.tavily_plus_exa = %v", got)
	}
	// F1: tavily_only 2/3 (p 1, r .5), exa_only .5, tavily_plus_exa 1.
	if got, want := m["routing.macro_f1"].Value, (2.0/3+0.5+1)/3; got < want-1e-12 || got > want+1e-12 {
		t.Errorf("macro_f1 = %v, want %v", got, want)
	}
	for i := 1; i < len(sum.Metrics); i++ {
		if sum.Metrics[i-1].Name >= sum.Metrics[i].Name {
			t.Errorf("metrics not sorted: %s before %s", sum.Metrics[i-1].Name, sum.Metrics[i].Name)
		}
	}
	if len(sum.Tables) != 2 {
		t.Fatalf("tables = %d", len(sum.Tables))
	}
	cm := sum.Tables[0]
	wantHeader := "expected \\ got|none|tavily_only|exa_only|tavily_plus_exa"
	if got := strings.Join(cm.Header, "|"); got != wantHeader {
		t.Errorf("confusion header = %q, want %q", got, wantHeader)
	}
	wantRows := []string{"tavily_only|0|1|1|0", "exa_only|1|0|1|0", "tavily_plus_exa|0|0|0|2"}
	for i, w := range wantRows {
		if got := strings.Join(cm.Rows[i], "|"); got != w {
			t.Errorf("confusion row %d = %q, want %q", i, got, w)
		}
	}
}

func TestSchema(t *testing.T) {
	conf := answer.VerificationConfirmed
	bad := answer.Success(testBullets, testSources)
	bad.Data.Sources[0].Domain = "example.com"
	bad.Data.RenderMarkdown = answer.Render(bad.Data.Bullets, bad.Data.Sources)
	badMsg := answer.FormatPhase2(conf, bad)
	noJSON := strings.Split(okMsg(conf), "```json")[0]
	structured := func(raw string) trace.Turn {
		t := p2(okMsg(conf))
		t.Mode, t.RawOutput = trace.ModeStructured, raw
		return t
	}
	withNull := strings.Replace(structuredRaw(conf, okEnv), `"source_ids":["s1","s2"]`, `"kind":null,"source_ids":["s1","s2"]`, 1)
	repairedTurn := p2(okMsg(conf))
	repairedTurn.RawOutput, repairedTurn.Replaced = driftMsg(conf), "repaired"
	brokenTurn := p2(answer.FormatPhase2(conf, answer.SchemaViolation("bad json")))
	brokenTurn.RawOutput, brokenTurn.Replaced = "not json at all", "schema_violation"
	failed := p2("")
	failed.Error, failed.RawOutput = "cassette miss: POST /v1/chat/completions", ""

	runScorerCases(t, Schema{}, []scorerCase{
		{name: "valid", applies: true,
			in:     &Input{Case: routingCase("exa_only"), Session: session(p2(okMsg(conf)))},
			checks: map[string]bool{"raw envelope": true, "final envelope": true}},
		{name: "markdown drift is not a schema failure", applies: true,
			in:     &Input{Case: routingCase("exa_only"), Session: session(p2(driftMsg(conf)))},
			checks: map[string]bool{"raw envelope": true, "final envelope": true}},
		{name: "domain mismatch", applies: true,
			in:      &Input{Case: routingCase("exa_only"), Session: session(p2(badMsg))},
			checks:  map[string]bool{"raw envelope": false, "final envelope": false},
			explain: []string{"source.domain_mismatch", "/data/sources/0/domain"}},
		{name: "missing json block", applies: true,
			in:      &Input{Case: routingCase("exa_only"), Session: session(p2(noJSON))},
			checks:  map[string]bool{"raw envelope": false, "final envelope": false},
			explain: []string{"json.missing", "no envelope"}},
		{name: "structured valid with nulls", applies: true,
			in:     &Input{Case: routingCase("exa_only"), Session: session(structured(withNull))},
			checks: map[string]bool{"raw envelope": true, "final envelope": true}},
		{name: "structured failure form, pretty printed", applies: true,
			in: &Input{Case: routingCase("exa_only"), Session: session(structured(
				"{\n  \"verification\": \"x\",\n  \"data\": {\"bullets\": [], \"sources\": [], \"render_markdown\": \"Sources:\\n\"},\n  \"error\": {\"code\": \"INSUFFICIENT_EVIDENCE\", \"message\": \"Insufficient evidence to answer confidently.\"}\n}"))},
			checks: map[string]bool{"raw envelope": true, "final envelope": true}},
		{name: "structured not json", applies: true,
			in:      &Input{Case: routingCase("exa_only"), Session: session(structured("{\"data\":"))},
			checks:  map[string]bool{"raw envelope": false, "final envelope": true},
			explain: []string{"json.syntax"}},
		{name: "structured missing error", applies: true,
			in:      &Input{Case: routingCase("exa_only"), Session: session(structured(`{"verification":"x","data":{"bullets":[],"sources":[],"render_markdown":""}}`))},
			checks:  map[string]bool{"raw envelope": false, "final envelope": true},
			explain: []string{"schema.required"}},
		{name: "flow turn expected repaired skips raw", applies: true,
			in:     &Input{Case: flowCase(answer2Expect("repaired")), Session: session(repairedTurn)},
			checks: map[string]bool{"turn 1: final envelope": true},
			absent: []string{"turn 1: raw envelope"}},
		{name: "flow turn expected schema_violation skips raw", applies: true,
			in:     &Input{Case: flowCase(answer2Expect("schema_violation")), Session: session(brokenTurn)},
			checks: map[string]bool{"turn 1: final envelope": true}},
		{name: "flow turn with a broken raw output that was not expected", applies: true,
			in:      &Input{Case: flowCase(answer2Expect("")), Session: session(brokenTurn)},
			checks:  map[string]bool{"turn 1: raw envelope": false, "turn 1: final envelope": true},
			explain: []string{"json.missing"}},
		{name: "infrastructure failure", applies: true,
			in:      &Input{Case: routingCase("exa_only"), Session: session(failed)},
			checks:  map[string]bool{"raw envelope": false, "final envelope": false},
			explain: []string{"cassette miss"}},
		{name: "phase 1 only flow", applies: false,
			in: &Input{Case: flowCase(answer2Expect("")), Session: session(p1())}},
		{name: "consent case", applies: false,
			in: &Input{Case: consentCase("YES", "y"), Session: session(trace.Turn{Intent: "YES"})}},
	})
}

func TestMarkdown(t *testing.T) {
	conf := answer.VerificationConfirmed
	notCanon := answer.Success(testBullets, testSources)
	notCanon.Data.RenderMarkdown = strings.Replace(notCanon.Data.RenderMarkdown, "2012.", "2012’", 1)
	// Printed and render_markdown agree with each other but not with the
	// canonical rendering.
	notCanonMsg := answer.FormatPhase2(conf, notCanon)
	structured := p2(okMsg(conf))
	structured.Mode, structured.RawOutput = trace.ModeStructured, structuredRaw(conf, okEnv)
	repaired := p2(okMsg(conf))
	repaired.RawOutput, repaired.Replaced = driftMsg(conf), "repaired"
	noJSON := strings.Split(okMsg(conf), "```json")[0]

	runScorerCases(t, Markdown{}, []scorerCase{
		{name: "identical", applies: true,
			in:     &Input{Case: routingCase("exa_only"), Session: session(p2(okMsg(conf)))},
			checks: map[string]bool{"raw markdown": true, "final markdown": true}},
		{name: "trailing space", applies: true,
			in:      &Input{Case: routingCase("exa_only"), Session: session(p2(driftMsg(conf)))},
			checks:  map[string]bool{"raw markdown": false, "final markdown": false},
			explain: []string{"printed ≠ render_markdown", "first difference at byte", "␠"}},
		{name: "render_markdown not canonical", applies: true,
			in:      &Input{Case: routingCase("exa_only"), Session: session(p2(notCanonMsg))},
			checks:  map[string]bool{"raw markdown": false, "final markdown": false},
			explain: []string{"render_markdown ≠ canonical", "U+2019"}},
		{name: "structured mode has no raw markdown", applies: true,
			in:     &Input{Case: routingCase("exa_only"), Session: session(structured)},
			checks: map[string]bool{"final markdown": true}, absent: []string{"raw markdown"}},
		{name: "repaired flow turn: raw skipped, final repaired", applies: true,
			in:     &Input{Case: flowCase(answer2Expect("repaired")), Session: session(repaired)},
			checks: map[string]bool{"turn 1: final markdown": true}},
		{name: "no envelope: not applicable", applies: false,
			in: &Input{Case: routingCase("exa_only"), Session: session(p2(noJSON))}},
	})
}

// answer2Expect is a Phase 2 flow expectation with the given output.
func answer2Expect(output string) flowExpect {
	return flowExpect{Phase: trace.Phase2, Output: output}
}

func TestRoutingInconsistentTrace(t *testing.T) {
	turn := p2(okMsg(answer.VerificationSkipped), call(0, trace.ToolExa, trace.CallOK))
	turn.Route = trace.RouteTavilyPlusExa // says both, records one
	r, ok := Routing{}.Score(&Input{Case: routingCase("tavily_plus_exa"), Session: session(turn)})
	if !ok {
		t.Fatal("not applicable")
	}
	c := checkByName(r, "exa before tavily")
	if c == nil || c.Pass || !strings.Contains(c.Reason, "lack one of the tools") {
		t.Errorf("check = %+v", c)
	}
}

// One stray prediction of a label no case carries must not halve the
// macro-F1 of a one-label subset (it used to read 1.000 → 0.496 for one
// case in 60): the macro averages the labels the cases carry.
func TestRoutingMacroF1IsStableUnderOneStrayPrediction(t *testing.T) {
	s := Routing{}
	agg := s.NewAggregator()
	skip := okMsg(answer.VerificationSkipped)
	for i := 0; i < 60; i++ {
		tool := trace.ToolTavily
		if i == 0 {
			tool = trace.ToolExa
		}
		in := &Input{Case: routingCase("tavily_only"), Session: session(p2(skip, call(0, tool, trace.CallOK)))}
		r, _ := s.Score(in)
		agg.Add(InfoOf(in.Case), r)
	}
	m := map[string]Metric{}
	for _, x := range agg.Summary().Metrics {
		m[x.Name] = x
	}
	// tavily_only: tp 59, fn 1, fp 0 → F1 = 118/119.
	if got, want := m["routing.macro_f1"].Value, 118.0/119; got < want-1e-12 || got > want+1e-12 {
		t.Errorf("macro_f1 = %v, want %v (the tavily_only F1 alone)", got, want)
	}
	if got := m["routing.precision.exa_only"]; got.Num != 0 || got.Den != 1 {
		t.Errorf("the stray prediction must still show in exa_only's precision: %+v", got)
	}
	if got, ok := m["routing.f1.exa_only"]; !ok || got.Value != 0 {
		t.Errorf("f1.exa_only = %+v, %v", got, ok)
	}
}
