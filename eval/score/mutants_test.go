package score

// Tests that kill the mutants gremlins found alive in this package
// (gremlins unleash --workers 2 ./eval/score; see README, Development).
//
// EQUIVALENTS-PLACEHOLDER

import (
	"math"
	"slices"
	"strings"
	"testing"

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
}
