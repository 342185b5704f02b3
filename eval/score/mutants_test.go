package score

// Tests that kill the mutants gremlins found alive in this package
// (gremlins unleash --workers 2 ./eval/score; see README, Development).
//
// Before these tests (gremlins v0.6.0, 2026-11-25): 328 killed, 62 lived,
// 78 not covered, 5 timed out: 84.10% efficacy. After them: 394 killed,
// 1 lived (the equivalent one below), 70 not covered, 2 timed out: 99.75%.
// Redundant code was simplified rather than explained: the evidence and
// grounding aggregators keep an "added" flag, not a count only compared
// with 0 (++ and -- decided the same), and claimTokens flushes a run of
// capitalised words without first asking whether it is empty (flushing an
// empty run does nothing).
//
// Equivalent mutants, left alive on purpose:
//   - routing.go exaFirstCheck, CONDITIONALS_BOUNDARY on `exa < tav`: exa
//     and tav index the first calls of two different tools, so they are
//     never equal and `<=` decides the same.

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/orchestrator/answer"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// TestChainsAreDistinctPairs: a parser chain pairs two different
// strategies; a strategy never falls back to itself.
func TestChainsAreDistinctPairs(t *testing.T) {
	cs := Placeholders["{chain}"]
	if len(cs) == 0 {
		t.Fatal("no chains")
	}
	for _, c := range cs {
		a, b, ok := strings.Cut(c, ">")
		if !ok || a == b {
			t.Errorf("chain %q is not a pair of distinct strategies", c)
		}
	}
}

// TestConsentPerDatasetAccuracy: each dataset's accuracy counts its own
// replies, and a run with every reply right has no misclassified table.
func TestConsentPerDatasetAccuracy(t *testing.T) {
	agg := Consent{}.NewAggregator()
	for _, x := range []struct{ ds, label, got string }{
		{"consent", "YES", "YES"},
		{"consent", "NO", "NO"},
		{"heldout", "YES", "YES"},
	} {
		c := consentCase(x.label, "r")
		c.Dataset = x.ds
		in := &Input{Case: c, Session: session(trace.Turn{Input: "r", AwaitingConsent: true, Intent: x.got, IntentRule: "rule"})}
		r, _ := Consent{}.Score(in)
		agg.Add(InfoOf(c), r)
	}
	sum := agg.Summary()
	got := map[string]Metric{}
	for _, m := range sum.Metrics {
		got[m.Name] = m
	}
	for name, want := range map[string][2]int{"consent.dataset.consent": {2, 2}, "consent.dataset.heldout": {1, 1}} {
		if m := got[name]; m.Num != want[0] || m.Den != want[1] || m.Value != 1 {
			t.Errorf("%s = %d/%d (%v), want %d/%d", name, m.Num, m.Den, m.Value, want[0], want[1])
		}
	}
	if len(sum.Tables) != 0 {
		t.Errorf("all replies right, yet tables %+v", sum.Tables)
	}
}

// TestEvidenceWithoutBullets: answers without bullets, or no answers at
// all, give zero, never NaN (a NaN would break the JSON report).
func TestEvidenceWithoutBullets(t *testing.T) {
	agg := Evidence{}.NewAggregator()
	agg.Add(CaseInfo{}, Result{Measure: true, Pass: true, Values: map[string]float64{}})
	sum := agg.Summary()
	if len(sum.Metrics) != 2 {
		t.Fatalf("metrics = %+v", sum.Metrics)
	}
	for _, m := range sum.Metrics {
		if math.IsNaN(m.Value) || m.Value != 0 || m.Den != 0 {
			t.Errorf("%s = %v (den %d), want 0", m.Name, m.Value, m.Den)
		}
	}
	if sum := (Evidence{}).NewAggregator().Summary(); len(sum.Metrics) != 0 {
		t.Errorf("no case, yet metrics %+v", sum.Metrics)
	}
}

// flowCheck scores in with Flow and returns the check named name.
func flowCheck(t *testing.T, in *Input, name string) Check {
	t.Helper()
	r, ok := Flow{}.Score(in)
	if !ok {
		t.Fatal("flow scorer does not apply")
	}
	c := checkByName(r, name)
	if c == nil {
		t.Fatalf("no check %q; have %v", name, checkNames(r))
	}
	return *c
}

// TestFlowExplanations pins what failing flow checks say, and what passing
// ones report as got.
func TestFlowExplanations(t *testing.T) {
	conf := answer.VerificationConfirmed
	passed := p2(okMsg(conf), call(0, trace.ToolTavily, trace.CallOK))
	passed.Input, passed.AwaitingConsent, passed.Intent = "yes", true, "YES"

	// The output was passed through, but the case expects a repair.
	c := flowCheck(t, &Input{Case: flowCase(flowExpect{Phase: "phase1"}, flowExpect{Output: "repaired", Error: "SCHEMA_VIOLATION"}), Session: session(p1(), passed)}, "turn 2: output")
	if c.Pass || c.Got != "passed" || c.Reason != "the app passed the model's output through" {
		t.Errorf("output check = %+v", c)
	}
	c = flowCheck(t, &Input{Case: flowCase(flowExpect{Phase: "phase1"}, flowExpect{Error: "SCHEMA_VIOLATION"}), Session: session(p1(), passed)}, "turn 2: error")
	if c.Pass || c.Got != answer.CodeNone || c.Reason != `error.message: ""` {
		t.Errorf("error check = %+v", c)
	}

	// Passing Phase 1 checks say what they saw.
	in := &Input{Case: flowCase(flowExpect{Phase: "phase1"}), Session: session(p1())}
	if c := flowCheck(t, in, "turn 1: no tools"); !c.Pass || c.Got != "no tools" {
		t.Errorf("no tools check = %+v", c)
	}
	if c := flowCheck(t, in, "turn 1: phase 1 format"); !c.Pass || c.Got != "well-formed" || c.Diff != "" {
		t.Errorf("phase 1 format check = %+v", c)
	}

	// One violation, singular; a mismatched header carries its diff, a
	// named tool none.
	leaky := p1()
	leaky.Output = answer.Phase1Header + "\nI would ask Tavily.\n\n" + answer.ConsentQuestion
	c = flowCheck(t, &Input{Case: flowCase(flowExpect{Phase: "phase1"}), Session: session(leaky)}, "turn 1: phase 1 format")
	if c.Pass || c.Got != "1 violation: tools.mentioned" || c.Diff != "" {
		t.Errorf("one violation: %+v", c)
	}
	mangled := p1()
	mangled.Output = strings.Replace(answer.Phase1Header, "Phase", "phase", 1) + "\nI would ask Tavily.\n\n" + answer.ConsentQuestion
	var headerDiff string
	for _, f := range answer.CheckPhase1(mangled.Output) {
		if f.Code == "header.mismatch" {
			headerDiff = f.Diff
		}
	}
	c = flowCheck(t, &Input{Case: flowCase(flowExpect{Phase: "phase1"}), Session: session(mangled)}, "turn 1: phase 1 format")
	if c.Got != "2 violations: header.mismatch, tools.mentioned" || headerDiff == "" || c.Diff != headerDiff {
		t.Errorf("two violations: got %q, diff %q, want the header's diff %q", c.Got, c.Diff, headerDiff)
	}
}

// TestFlowRetriesDetail: only requests that were retried are listed, and
// statuses only when recorded.
func TestFlowRetriesDetail(t *testing.T) {
	once, thrice := call(0, trace.ToolTavily, trace.CallOK), call(1, trace.ToolTavily, trace.CallOK)
	thrice.Attempts = 3
	turn := p2(okMsg(answer.VerificationConfirmed), once, thrice)
	turn.ModelCalls = append(turn.ModelCalls, trace.ModelCall{Round: 1, Attempts: 2})
	in := &Input{Case: flowCase(flowExpect{Retries: ptr(0)}), Session: session(turn)}
	c := flowCheck(t, in, "turn 1: retries")
	if c.Pass || c.Got != "3" || c.Reason != "HTTP retries (attempts − 1 per request): model call 2: 1, tavily_search round 1: 2" {
		t.Errorf("retries check = %+v", c)
	}
}

// TestFlowMoreTurnsThanExpected: a turn the case does not describe fails
// the turn count and gets no checks of its own.
func TestFlowMoreTurnsThanExpected(t *testing.T) {
	r, _ := Flow{}.Score(&Input{Case: flowCase(flowExpect{Phase: "phase1"}), Session: session(p1(), p2(okMsg(answer.VerificationConfirmed)))})
	want := []string{"turns", "turn 1: phase", "turn 1: no tools", "turn 1: phase 1 format"}
	if got := checkNames(r); !slices.Equal(got, want) {
		t.Errorf("checks = %q, want %q", got, want)
	}
	if c := checkByName(r, "turns"); c == nil || c.Pass || c.Got != "2" {
		t.Errorf("turns check = %+v", c)
	}
}

// groundingWith scores a turn whose search returned results, with okEnv's
// sources changed by f.
func groundingWith(t *testing.T, results []trace.Retrieved, f func(ss []answer.Source)) Result {
	t.Helper()
	c := call(0, trace.ToolTavily, trace.CallOK)
	c.Retrieved = results
	turn := p2(answer.FormatPhase2(answer.VerificationSkipped, envWith(func(_ []answer.Bullet, ss []answer.Source) { f(ss) })), c)
	r, ok := Grounding{}.Score(&Input{Case: routingCase("tavily_only"), Session: session(turn)})
	if !ok {
		t.Fatal("grounding does not apply")
	}
	return r
}

// TestGroundingClosestURL: an unretrieved source names the retrieved URL
// closest to it: on its own site first, else the most similar one, the
// first retrieved among equals.
func TestGroundingClosestURL(t *testing.T) {
	extra := append(slices.Clone(groundedResults),
		trace.Retrieved{URL: "https://aa.net/page", Title: "A"},
		trace.Retrieved{URL: "https://bb.net/page", Title: "B"})
	for _, tt := range []struct{ url, closest string }{
		// go.dev/blog/go1.18 is more alike character by character, but
		// example.com is the same site.
		{"https://go.dev.example.com/blog/go1.18", "https://example.com/go-history"},
		// No result on golang.org: the most similar URL.
		{"https://golang.org/blog/go1.18", "https://go.dev/blog/go1.18"},
		// aa.net and bb.net are equally far from cc.net.
		{"https://cc.net/page", "https://aa.net/page"},
	} {
		r := groundingWith(t, extra, func(ss []answer.Source) { ss[2].URL = tt.url })
		c := checkByName(r, "sources retrieved")
		want := "source s3 " + tt.url + " was never retrieved (closest retrieved URL: " + tt.closest + ")"
		if c == nil || c.Pass || c.Reason != want {
			t.Errorf("sources check = %+v\nwant reason %q", c, want)
		}
	}
}

// TestGroundingTitleHalf: a source title that is exactly half of the
// retrieved one (normalised) and contained in it passes.
func TestGroundingTitleHalf(t *testing.T) {
	results := slices.Clone(groundedResults)
	results[0].Title = "Go release history · Go team changelog" // 36 runes normalised, 2 × "go release history"
	r := groundingWith(t, results, func([]answer.Source) {})
	if c := checkByName(r, "source titles"); c == nil || !c.Pass {
		t.Errorf("titles check = %+v", c)
	}
	results[0].Title = "Go release history · Go team changelogs" // one rune more
	r = groundingWith(t, results, func([]answer.Source) {})
	if c := checkByName(r, "source titles"); c == nil || c.Pass {
		t.Errorf("titles check = %+v, want a failure", c)
	}
}

// TestGroundingUntitledResult: a result without a title does not vouch for
// the title the answer gives its source.
func TestGroundingUntitledResult(t *testing.T) {
	results := slices.Clone(groundedResults)
	results[0].Title = ""
	r := groundingWith(t, results, func([]answer.Source) {})
	want := `source s1 title "Go release history" is not the retrieved title ""`
	if c := checkByName(r, "source titles"); c == nil || c.Pass || c.Reason != want {
		t.Errorf("titles check = %+v, want reason %q", c, want)
	}
}

// TestGroundingPublishedCounts: the published check counts the dates it
// compared and the ones that agree.
func TestGroundingPublishedCounts(t *testing.T) {
	for published, want := range map[string]string{"2022-03-16T03:30:00Z": "1 of 1 dates agree", "2021-03-15T00:00:00Z": "0 of 1 dates agree"} {
		r := groundingWith(t, groundedResults, func(ss []answer.Source) { ss[2].Published = published })
		if c := checkByName(r, "published dates"); c == nil || c.Got != want {
			t.Errorf("published %s: check = %+v, want got %q", published, c, want)
		}
	}
}

// TestGroundingUnsupportedAttr: the unsupported tokens are listed per
// bullet that has any, and the attribute is absent when there are none.
func TestGroundingUnsupportedAttr(t *testing.T) {
	r := groundingWith(t, groundedResults, func([]answer.Source) {})
	if r.Attrs != nil {
		t.Errorf("clean answer: Attrs = %q", r.Attrs)
	}
	c := call(0, trace.ToolTavily, trace.CallOK)
	c.Retrieved = groundedResults
	env := envWith(func(bs []answer.Bullet, _ []answer.Source) { bs[1].Text = "Generics arrived in Go 1.18 in March 2023." })
	r, _ = Grounding{}.Score(&Input{Case: routingCase("tavily_only"), Session: session(p2(answer.FormatPhase2(answer.VerificationSkipped, env), c))})
	if got, want := r.Attrs["unsupported"], `bullet 2: "2023" (year)`; got != want {
		t.Errorf("unsupported = %q, want %q", got, want)
	}
	if c := checkByName(r, "claims"); c == nil || c.Pass || !strings.HasPrefix(c.Diff, "bullet 2: Generics arrived in Go 1.18 in March 2023.\n  unsupported: \"2023\" (year)") {
		t.Errorf("claims check = %+v", c)
	}
}

// TestRoutingUsesThePhase2Turn: in a session with a Phase 1 turn first,
// the route is read from the Phase 2 turn.
func TestRoutingUsesThePhase2Turn(t *testing.T) {
	in := &Input{Case: routingCase(trace.RouteExaOnly), Session: session(p1(), p2(okMsg(answer.VerificationConfirmed), call(0, trace.ToolExa, trace.CallOK)))}
	r, _ := Routing{}.Score(in)
	if c := checkByName(r, "route"); c == nil || !c.Pass || c.Got != trace.RouteExaOnly {
		t.Errorf("route check = %+v", c)
	}
}

// TestRoutingTavilyFirstReason: the reason numbers the calls from 1.
func TestRoutingTavilyFirstReason(t *testing.T) {
	in := &Input{Case: routingCase(trace.RouteTavilyPlusExa), Session: session(p2(okMsg(answer.VerificationConfirmed),
		call(0, trace.ToolTavily, trace.CallOK), call(1, trace.ToolExa, trace.CallOK)))}
	r, _ := Routing{}.Score(in)
	want := "the first tavily_search call (round 0, call 1) precedes the first exa_search call (round 1, call 2); the seed asks for Exa first on mixed queries"
	if c := checkByName(r, "exa before tavily"); c == nil || c.Pass || c.Reason != want {
		t.Errorf("exa-first check = %+v\nwant reason %q", c, want)
	}
}

// TestMarkdownReasonAndDiff: a drift is located in the reason, and the diff
// starts with the same location.
func TestMarkdownReasonAndDiff(t *testing.T) {
	msg := driftMsg(answer.VerificationConfirmed)
	m := answer.CheckPhase2(msg).MarkdownDiff
	if m == nil {
		t.Fatal("no markdown mismatch in the drift message")
	}
	r, _ := Markdown{}.Score(&Input{Case: routingCase("exa_only"), Session: session(p2(msg))})
	c := checkByName(r, "final markdown")
	if c == nil || c.Pass {
		t.Fatalf("final markdown check = %+v", c)
	}
	if want := "the printed markdown is not data.render_markdown byte for byte: " + m.String(); c.Reason != want {
		t.Errorf("reason = %q, want %q", c.Reason, want)
	}
	if want := m.String() + "\n" + m.Diff; c.Diff != want {
		t.Errorf("diff = %q, want %q", c.Diff, want)
	}
}

// TestParserCallsCheck: the check names the chain, compares arguments by
// their JSON values (a YAML 3 is a JSON 3, not "3"; no arguments equal {}),
// and lists both sides when they differ.
func TestParserCallsCheck(t *testing.T) {
	pc := &dataset.Case{ID: "p", Dataset: "parser", Kind: dataset.KindParser, Prompt: "react",
		Content: "Thought: search\nAction: web_search\nAction Input: {\"query\": \"go\", \"n\": 3}",
		Expect:  []dataset.Call{{Name: "web_search", Arguments: map[string]any{"query": "go", "n": 3}}}}
	for _, tt := range []struct {
		name, fallback string
		got            []dataset.Call
		pass           bool
		check, list    string
	}{
		{"same values", "fuzzy", []dataset.Call{{Name: "web_search", Arguments: map[string]any{"query": "go", "n": 3.0}}}, true, "calls (react→fuzzy)", ""},
		{"no fallback", "", []dataset.Call{{Name: "web_search", Arguments: map[string]any{"query": "go", "n": 3.0}}}, true, "calls (react)", ""},
		{"another query", "fuzzy", []dataset.Call{{Name: "web_search", Arguments: map[string]any{"query": "rust", "n": 3.0}}}, false, "calls (react→fuzzy)", `web_search{"n":3,"query":"rust"}`},
		{"a string for a number", "fuzzy", []dataset.Call{{Name: "web_search", Arguments: map[string]any{"query": "go", "n": "3"}}}, false, "calls (react→fuzzy)", `web_search{"n":"3","query":"go"}`},
		{"no call", "fuzzy", nil, false, "calls (react→fuzzy)", "none"},
	} {
		po := &ParseOutcome{Primary: "react", Fallback: tt.fallback, Strategy: "react", Field: "content", Calls: tt.got}
		r, ok := Parser{}.Score(&Input{Case: pc, Parse: po})
		if !ok || len(r.Checks) != 1 {
			t.Fatalf("%s: applies %v, checks %+v", tt.name, ok, r.Checks)
		}
		c := r.Checks[0]
		if c.Name != tt.check || c.Pass != tt.pass || c.Expected != `web_search{"n":3,"query":"go"}` {
			t.Errorf("%s: check = %+v, want %q pass %v", tt.name, c, tt.check, tt.pass)
		}
		if !tt.pass && c.Got != tt.list {
			t.Errorf("%s: got = %q, want %q", tt.name, c.Got, tt.list)
		}
	}
	// A failing check says which strategy extracted the calls from which
	// field, or that none did, then the validation findings.
	for _, tt := range []struct {
		po     ParseOutcome
		reason string
	}{
		{ParseOutcome{Primary: "react", Fallback: "fuzzy", Strategy: "fuzzy", Field: "reasoning", Calls: []dataset.Call{{Name: "web_search"}},
			Findings: []string{"missing argument query", "unknown tool x"}},
			"extracted by fuzzy from reasoning; findings: missing argument query; unknown tool x"},
		{ParseOutcome{Primary: "react", Fallback: "fuzzy", Strategy: "react", Field: "content", Calls: []dataset.Call{{Name: "web_search"}}},
			"extracted by react from content"},
		{ParseOutcome{Primary: "react", Fallback: "fuzzy"}, "no strategy found a call"},
	} {
		r, _ := Parser{}.Score(&Input{Case: pc, Parse: &tt.po})
		if len(r.Checks) != 1 || r.Checks[0].Pass || r.Checks[0].Reason != tt.reason {
			t.Errorf("checks = %+v, want one failing with reason %q", r.Checks, tt.reason)
		}
	}
	noArgs := &dataset.Case{ID: "p", Dataset: "parser", Kind: dataset.KindParser, Prompt: "react",
		Content: "Action: list_tools", Expect: []dataset.Call{{Name: "list_tools"}}}
	po := &ParseOutcome{Primary: "react", Strategy: "react", Field: "content", Calls: []dataset.Call{{Name: "list_tools", Arguments: map[string]any{}}}}
	if r, _ := (Parser{}).Score(&Input{Case: noArgs, Parse: po}); len(r.Checks) != 1 || !r.Checks[0].Pass {
		t.Errorf("no arguments vs {}: %+v", r.Checks)
	}
}

// TestMeanMetricOfNothing: the mean over no case is 0, not NaN.
func TestMeanMetricOfNothing(t *testing.T) {
	if m := MeanMetric("cost.x", UnitCount, 0, 0); m.Value != 0 || math.IsNaN(m.Value) || m.Den != 0 {
		t.Errorf("MeanMetric over 0 cases = %+v", m)
	}
}

// TestLimitsGots: what the limits checks report, passing or not; calls are
// numbered from 1.
func TestLimitsGots(t *testing.T) {
	big := call(0, trace.ToolExa, trace.CallOK)
	big.Sent, big.Results = 5, 7
	for _, tt := range []struct {
		name            string
		calls           []trace.ToolCall
		queries, result string
	}{
		{"no call", nil, "no calls sent", "all ≤ 5"},
		{"too many results", []trace.ToolCall{big}, "exa_search 1", `call 1 (exa_search "q"): sent 5, got 7`},
	} {
		r, _ := Limits{}.Score(&Input{Case: routingCase("exa_only"), Session: session(p2(okMsg(answer.VerificationConfirmed), tt.calls...))})
		q, res := checkByName(r, "queries per tool ≤ 3"), checkByName(r, "results per query ≤ 5")
		if q == nil || res == nil || q.Got != tt.queries || res.Got != tt.result {
			t.Errorf("%s: checks %+v, %+v; want gots %q, %q", tt.name, q, res, tt.queries, tt.result)
		}
	}
}

// TestClaimNamesAndNumbers: an initial continues a name, a word ending a
// sentence ends it; a year next to another digit (a 9 too, and at the
// very start of the text) is not the year.
func TestClaimNamesAndNumbers(t *testing.T) {
	for text, want := range map[string][]claimToken{
		"Go was designed by R. Griesemer and Rob Pike.": {{"R Griesemer", tokName}, {"Rob Pike", tokName}},
		"It came from Google. Rob Pike wrote it.":       {{"Rob Pike", tokName}},
	} {
		if got := claimTokens(text); !slices.Equal(got, want) {
			t.Errorf("claimTokens(%q) = %v, want %v", text, got, want)
		}
	}
	for _, hay := range []string{"released in 20129", "released in 92012", "92012 releases"} {
		if contains(hay, claimToken{"2012", tokYear}) {
			t.Errorf("year 2012 found in %q", hay)
		}
	}
}

// TestGroundingAggregateWithoutDenominators: metrics over nothing are left
// out: no clean-sources rate when every case is a known failure, no token
// or independence share without tokens or bullets.
func TestGroundingAggregateWithoutDenominators(t *testing.T) {
	agg := Grounding{}.NewAggregator()
	r := NewResult("grounding", Check{Name: "sources retrieved", Metric: MetricGroundingSources, Pass: true})
	agg.Add(CaseInfo{Key: "flows/c", Tags: []string{KnownFailureTag}}, r)
	var names []string
	for _, m := range agg.Summary().Metrics {
		names = append(names, m.Name)
	}
	if want := []string{MetricGroundingSources}; !slices.Equal(names, want) {
		t.Errorf("metrics = %q, want %q", names, want)
	}
	if s := (Grounding{}).NewAggregator().Summary(); len(s.Metrics) != 0 {
		t.Errorf("no case, yet metrics %+v", s.Metrics)
	}
}

// routeResult is a routing result with one route check.
func routeResult(expected, got string) Result {
	return NewResult("routing", Check{Name: "route", Metric: MetricRoutingAccuracy, Expected: expected, Got: got, Pass: expected == got})
}

// TestRoutingAggregateEdges: labels confused both ways keep their rows
// and supports; a rate with nothing to divide by is left out; other
// routes taken are columns after the labels, sorted; no macro-F1 without
// a labelled case.
func TestRoutingAggregateEdges(t *testing.T) {
	agg := Routing{}.NewAggregator()
	for _, x := range [][2]string{{"exa_only", "tavily_only"}, {"tavily_only", "exa_only"}, {"tavily_plus_exa", "other"}, {"tavily_plus_exa", "bogus"}} {
		agg.Add(CaseInfo{}, routeResult(x[0], x[1]))
	}
	s := agg.Summary()
	if len(s.Tables) != 2 {
		t.Fatalf("tables = %+v", s.Tables)
	}
	if want := []string{"expected \\ got", "none", "tavily_only", "exa_only", "tavily_plus_exa", "bogus", "other"}; !slices.Equal(s.Tables[0].Header, want) {
		t.Errorf("matrix header = %q, want %q", s.Tables[0].Header, want)
	}
	want := [][]string{
		{"tavily_only", "1", "0.000", "0.000", "0.000"},
		{"exa_only", "1", "0.000", "0.000", "0.000"},
		{"tavily_plus_exa", "2", "–", "0.000", "0.000"},
	}
	if got := s.Tables[1].Rows; len(got) != len(want) {
		t.Errorf("per-label rows = %q, want %q", got, want)
	} else {
		for i := range want {
			if !slices.Equal(got[i], want[i]) {
				t.Errorf("per-label row %d = %q, want %q", i, got[i], want[i])
			}
		}
	}
	names := map[string]bool{}
	for _, m := range s.Metrics {
		names[m.Name] = true
	}
	if names["routing.precision.tavily_plus_exa"] || !names["routing.recall.tavily_plus_exa"] || !names["routing.macro_f1"] {
		t.Errorf("metrics = %v", names)
	}

	agg = Routing{}.NewAggregator()
	agg.Add(CaseInfo{}, routeResult("bogus", "exa_only"))
	names = map[string]bool{}
	for _, m := range agg.Summary().Metrics {
		names[m.Name] = true
	}
	if !names["routing.precision.exa_only"] || names["routing.recall.exa_only"] || names["routing.macro_f1"] {
		t.Errorf("only predicted: metrics = %v", names)
	}
}

// TestSchemaWithoutEnvelope: without a decodable envelope the check says
// why: the envelope's own findings and the fence's, nothing else.
func TestSchemaWithoutEnvelope(t *testing.T) {
	msg := strings.TrimSuffix(okMsg(answer.VerificationConfirmed), "\n```") // no closing fence
	msg = strings.Replace(msg, `"error":{"code":"NONE","message":""}}`, `"error":`, 1)
	r, _ := Schema{}.Score(&Input{Case: routingCase("exa_only"), Session: session(p2(msg))})
	c := checkByName(r, "final envelope")
	if c == nil || c.Pass || c.Got != "no envelope: 2 violations: json.syntax, json.fence" {
		t.Errorf("final envelope check = %+v", c)
	}
}
