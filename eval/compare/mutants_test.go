package compare

// Tests that kill the mutants gremlins found alive in this package
// (make mutants MUTANT_PKGS="eval/compare", gremlins v0.6.0; see docs/development.md).
//
// Equivalent mutants (gremlins v0.6.0), left alive on purpose, named by
// function and mutation (line numbers drift; find them with gremlins'
// output or grep):
//   - CompareWith, CONDITIONALS_BOUNDARY on `pc.n > 0`: a pair count is
//     created only together with its first pair, so n is never 0.
//   - CompareWith, CONDITIONALS_BOUNDARY on `len(m.PassHatK) == n && n >
//     1`: a samples section lists only metrics of sampled cases, whose
//     pass^k has at least two entries, so the length test already excludes
//     n = 1.
//   - writeSamples and Result.Headline, CONDITIONALS_BOUNDARY on the `<`
//     between the two rates of a rate change: CompareWith records a rate
//     change only when the two rates differ, so they are never equal.

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/report/reporttest"
	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/eval/stats"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

func TestSignificantAtAlpha(t *testing.T) {
	if (Row{Paired: true, Pairs: 10, P: 0.001, PAdj: Alpha}).Significant() {
		t.Error("adjusted p = α is significant; want p < α")
	}
	if !(Row{Paired: true, Pairs: 10, P: 0.001, PAdj: Alpha - 1e-6}).Significant() {
		t.Error("adjusted p just under α is not significant")
	}
	if (Row{Paired: true, Pairs: 10, P: 0.001, PAdj: 0.2}).Significant() {
		t.Error("a raw p under α is significant although its adjusted p is not")
	}
	if (Row{Paired: true, Pairs: stats.MinCases - 1, P: 0.001, PAdj: 0.001}).Significant() {
		t.Error("a row with too few cases is significant")
	}
	if (Row{P: 0}).Significant() {
		t.Error("an unpaired row is significant")
	}
}

func TestPValueCell(t *testing.T) {
	for _, tt := range []struct {
		r    Row
		want string
	}{
		{Row{Paired: true, Pairs: 10, Exact: true, P: 0.001, PAdj: 0.001}, "p = 0.001"},
		{Row{Paired: true, Pairs: 10, Exact: true, P: 0.000999, PAdj: 0.000999}, "p < 0.001"},
		{Row{Paired: true, Pairs: 10, Exact: true, P: 0.004, PAdj: 0.04}, "p = 0.040 (raw p = 0.004)"},
		{Row{Paired: true, Pairs: 3, Exact: true, P: 0.25, PAdj: 0.25}, "untested"},
		{Row{Paired: true, Pairs: 100, Exact: false, Draws: 10000, P: 0.5, PAdj: 0.5}, "p = 0.500 (Monte Carlo ±0.005)"},
		{Row{P: 0.5}, "–"},
	} {
		if got := pValue(tt.r); got != tt.want {
			t.Errorf("pValue(%+v) = %q, want %q", tt.r, got, tt.want)
		}
	}
}

// A case that errors in B flips with its error among the changes; a
// check only B has is listed when it fails, not when it passes.
func TestFlipChangesErrorAndNewChecks(t *testing.T) {
	ok := reporttest.OKMessage()
	a := []*report.CaseRecord{
		reporttest.Routing(0, "x", "exa_only", ok, trace.ToolExa),
		reporttest.Routing(1, "y", "tavily_plus_exa", ok, trace.ToolTavily),
	}
	b := []*report.CaseRecord{
		reporttest.Errored(0, "x", "exa_only", "cassette miss"),
		// y now routes to both tools, Tavily first: the exa-first check
		// appears (failing) and the route check now passes.
		reporttest.Routing(1, "y", "tavily_plus_exa", ok, trace.ToolTavily, trace.ToolExa),
	}
	r, err := Compare(report.Bytes("a.json", reporttest.JSON(reporttest.Meta("seed"), a)), report.Bytes("b.json", reporttest.JSON(reporttest.Meta("seed"), b)))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Flips) != 1 || r.Flips[0].Case != "routing/x" {
		t.Fatalf("flips = %+v", r.Flips)
	}
	found := false
	for _, c := range r.Flips[0].Checks {
		found = found || c == CheckChange{Check: "(error)", A: "absent", B: "error: turn 1: cassette miss"}
	}
	if !found {
		t.Errorf("changes = %+v; want the case's error among them", r.Flips[0].Checks)
	}
	sa, sb := stateOf(a[1]), stateOf(b[1])
	var added []CheckChange
	for _, c := range changes(sa, sb) {
		if c.A == "absent" {
			added = append(added, c)
		}
	}
	if len(added) != 1 || added[0].Check != "routing: exa before tavily" {
		t.Errorf("checks only B has = %+v; want the failing exa-first check alone", added)
	}
	if got := changes(sb, sb); len(got) != 0 {
		t.Errorf("a case against itself changes: %+v", got)
	}
}

// Flips are listed in the unsharded run's order (seq), whatever order a
// report lists its cases in.
func TestFlipsInSeqOrder(t *testing.T) {
	ok := reporttest.OKMessage()
	var a, b []*report.CaseRecord
	for i, id := range []string{"p", "q", "r"} {
		a = append(a, reporttest.Routing(i, id, "exa_only", ok, trace.ToolExa))
		b = append(b, reporttest.Routing(i, id, "exa_only", ok, trace.ToolTavily))
	}
	b[0], b[2] = b[2], b[0]
	r, err := Compare(report.Bytes("a.json", reporttest.JSON(reporttest.Meta("seed"), a)), report.Bytes("b.json", reporttest.JSON(reporttest.Meta("seed"), b)))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range r.Flips {
		got = append(got, f.Case)
	}
	if len(got) != 3 || got[0] != "routing/p" || got[1] != "routing/q" || got[2] != "routing/r" {
		t.Errorf("flips = %v, want seq order p, q, r", got)
	}
}

// TestHeadlineCountsPairedMetrics: with nothing significant, the headline
// says how many paired metrics were compared, counting each once (a
// decrement would print a negative count) and leaving unpaired ones out.
func TestHeadlineCountsPairedMetrics(t *testing.T) {
	r := &Result{Rows: []Row{{Metric: "a", Paired: true, P: 0.9}, {Metric: "b"}, {Metric: "c", Paired: true, P: 0.5}, {Metric: "d", Paired: true, P: 1}}}
	got := r.Headline()[0]
	if want := "Significant changes: none (no paired metric of 3 changed with adjusted p < 0.05;"; !strings.HasPrefix(got, want) {
		t.Errorf("headline = %q, want the prefix %q", got, want)
	}
}

// failsOnce fails its n-th write only, as a pipe that drops one write
// would: an error met inside a table must still reach the caller, even
// though every later write succeeds.
type failsOnce struct{ n, calls int }

func (f *failsOnce) Write(p []byte) (int, error) {
	f.calls++
	if f.calls == f.n {
		return 0, errors.New("one write lost")
	}
	return len(p), nil
}

// TestWriteKeepsTheFirstError fails each write of the report in turn.
func TestWriteKeepsTheFirstError(t *testing.T) {
	a, b := pattern([2]int{5, 0}, [2]int{10, 1}, [2]int{1, 2}, [2]int{1, 3})
	r, err := Compare(routingRun("seed", a), routingRun("routing-examples", b))
	if err != nil {
		t.Fatal(err)
	}
	for _, md := range []bool{false, true} {
		count := &failsOnce{}
		if err := Write(count, r, Options{Verbose: true, Markdown: md}); err != nil {
			t.Fatal(err)
		}
		if count.calls < 3 {
			t.Fatalf("only %d writes; the test shows nothing", count.calls)
		}
		for n := 1; n <= count.calls; n++ {
			if err := Write(&failsOnce{n: n}, r, Options{Verbose: true, Markdown: md}); err == nil {
				t.Errorf("markdown %v: write %d of %d failed, Write returned nil", md, n, count.calls)
			}
		}
	}
}

// TestWriteKeepsTheFirstErrorSampled: the same for a sampled comparison,
// whose pass-rate section comes after the metrics.
func TestWriteKeepsTheFirstErrorSampled(t *testing.T) {
	y, n := true, false
	res, err := Compare(sampledRun("a", []bool{n, n, y}, []bool{y, y, y}), sampledRun("b", []bool{y, y, y}, []bool{n, y, y}))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Sampled || len(res.RateChanges) == 0 {
		t.Fatalf("not a sampled comparison with rate changes: %+v", res)
	}
	count := &failsOnce{}
	if err := Write(count, res, Options{Verbose: true}); err != nil {
		t.Fatal(err)
	}
	for k := 1; k <= count.calls; k++ {
		if err := Write(&failsOnce{n: k}, res, Options{Verbose: true}); err == nil {
			t.Errorf("write %d of %d failed, Write returned nil", k, count.calls)
		}
	}
}

// TestFlipRowsNameTheCaseOnce: a flipped case's first check row names the
// case and the change; the rows of its further checks leave them blank.
func TestFlipRowsNameTheCaseOnce(t *testing.T) {
	r := &Result{Flips: []Flip{{Case: "routing/x", ToFail: true, Checks: []CheckChange{{Check: "route", A: "pass", B: "fail"}, {Check: "schema", A: "pass", B: "fail"}}}}}
	var b strings.Builder
	if err := Write(&b, r, Options{}); err != nil {
		t.Fatal(err)
	}
	var first, second string
	for _, l := range strings.Split(b.String(), "\n") {
		switch {
		case strings.Contains(l, " route "):
			first = l
		case strings.Contains(l, " schema "):
			second = l
		}
	}
	if !strings.Contains(first, "routing/x") || !strings.Contains(first, "pass→fail") || strings.Contains(second, "routing/x") || strings.Contains(second, "pass→fail") {
		t.Errorf("flip rows:\n%s\n%s", first, second)
	}
}

func TestSubsetErrorNamesOnlyTheFilteredSides(t *testing.T) {
	e := &SubsetError{NameA: "a.json", NameB: "b.json", CasesA: 3, CasesB: 2, Shared: 2, OnlyA: []string{"routing/c"}, NOnlyA: 1}
	head := "A (a.json, 3 cases) and B (b.json, 2 cases) hold different cases: 1 case(s) only in A (routing/c), 0 only in B, 2 in both"
	tail := ". Their metrics would set one set of cases against another: run both on the same cases, or compare the 2 shared case(s) with --allow-subset"
	for _, tt := range []struct {
		filterA, filterB []string
		want             string
	}{
		{nil, nil, head + tail},
		{[]string{}, []string{}, head + tail},
		{[]string{"dataset:routing", "id:c*"}, nil, head + "; A was filtered with --filter dataset:routing --filter id:c*" + tail},
		{nil, []string{"dataset:routing"}, head + "; B was filtered with --filter dataset:routing" + tail},
		{[]string{"id:a"}, []string{"id:b"}, head + "; A was filtered with --filter id:a; B was filtered with --filter id:b" + tail},
	} {
		e.FilterA, e.FilterB = tt.filterA, tt.filterB
		if got := e.Error(); got != tt.want {
			t.Errorf("filters %q, %q:\n got %q\nwant %q", tt.filterA, tt.filterB, got, tt.want)
		}
	}
}

func TestSamePolicyWarningNeedsSamePolicyAndOtherPrompts(t *testing.T) {
	sim := func(policy, hash string) report.Meta {
		m := reporttest.Meta("seed")
		m.Backend, m.SimPolicies, m.VariantHash = "sim", []string{policy}, hash
		return m
	}
	const same = "Both were played by the same policy"
	for _, tt := range []struct {
		name string
		a, b report.Meta
		want bool
	}{
		{"same policy, other prompts", sim("seed", "h1"), sim("seed", "h2"), true},
		{"same policy, same prompts", sim("seed", "h1"), sim("seed", "h1"), false},
		{"other policies, other prompts", sim("seed", "h1"), sim("strict", "h2"), false},
	} {
		ws := strings.Join(warnings(tt.a, tt.b), "\n")
		if strings.Contains(ws, same+" (seed), so no prompt change between them can show here.") != tt.want {
			t.Errorf("%s: warnings %q; want the same-policy sentence: %v", tt.name, ws, tt.want)
		}
		if !tt.want && strings.Contains(ws, same) {
			t.Errorf("%s: warnings %q", tt.name, ws)
		}
	}
}

// A run that does not record models or base URLs (an older report) is no
// change of model or host.
func TestNoSourceWarningWhenOneSideIsUnknown(t *testing.T) {
	live := func(models, bases []string) report.Meta {
		m := reporttest.Meta("seed")
		m.Backend, m.SimPolicies, m.Models, m.BaseURLs, m.VariantHash = "live", nil, models, bases, "h"
		return m
	}
	known := live([]string{"gpt-oss-120b"}, []string{"chat=https://api.cerebras.ai/v1"})
	unknown := live(nil, nil)
	unknown.VariantHash = "other"
	for _, pair := range [][2]report.Meta{{known, unknown}, {unknown, known}} {
		if ws := warnings(pair[0], pair[1]); len(ws) != 0 {
			t.Errorf("models %q vs %q: warnings %q", pair[0].Models, pair[1].Models, ws)
		}
	}
}

func TestMDECellAtOne(t *testing.T) {
	if got := mdeCell(Row{Paired: true, MDE: 1}); got != "none" {
		t.Errorf("mdeCell(MDE 1) = %q, want none", got)
	}
	if got := mdeCell(Row{Paired: true, MDE: 0.999}); got != "±99.9 pp" {
		t.Errorf("mdeCell(MDE 0.999) = %q", got)
	}
}

func TestUSDDeltaOfNoChangeIsPlus(t *testing.T) {
	a := &score.Metric{Name: "cost.usd", Unit: score.UnitUSD, Value: 0.0012}
	abs, rel := usdDelta(Row{A: a, B: a})
	if abs != "+$0.0000" || rel != "+0.0%" {
		t.Errorf("usdDelta(no change) = %q, %q; want +$0.0000, +0.0%%", abs, rel)
	}
}

func TestAdjustmentDefaultsToHolm(t *testing.T) {
	if got, want := (&Result{Family: 2}).adjustment(), "p adjusted by Holm's step-down adjustment (family-wise error ≤ 5%) across the 2 testable paired metric(s)"; got != want {
		t.Errorf("adjustment() = %q, want %q", got, want)
	}
	if got, want := (&Result{Adjustment: stats.BH, Family: 3}).adjustment(), "p adjusted by Benjamini–Hochberg adjustment (false discovery rate ≤ 5%) across the 3 testable paired metric(s)"; got != want {
		t.Errorf("adjustment() = %q, want %q", got, want)
	}
}

// sharedSummary with no scorers given aggregates with every scorer, as
// the run did; with some it uses those.
func TestSharedSummaryScorers(t *testing.T) {
	meta := reporttest.Meta("seed")
	src := report.Bytes("r.json", reporttest.JSON(meta, []*report.CaseRecord{
		reporttest.Consent(0, "y", "YES", "yes please", "YES", "yes.phrase"),
		reporttest.Consent(1, "n", "NO", "no thanks", "YES", "yes.phrase"),
	}))
	in := map[string]int{"consent/y": 1, "consent/n": 1}
	names := func(scorers []score.Scorer) string {
		t.Helper()
		s, err := sharedSummary(src, in, scorers)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, m := range s.Metrics {
			out = append(out, fmt.Sprintf("%s=%s", m.Name, report.FormatValue(m)))
		}
		return strings.Join(out, " ")
	}
	all := names(score.All())
	if got := names(nil); got != all {
		t.Errorf("no scorers given:\n%s\nwant every scorer's:\n%s", got, all)
	}
	if got := names(score.All()[:1]); got == all {
		t.Errorf("one scorer given, yet every scorer's metrics:\n%s", got)
	}
}

// Exactly maxHeadlineChanges significant changes are all named, with no
// "and 0 more".
func TestHeadlineNamesExactlyTheMaximum(t *testing.T) {
	r := &Result{}
	for i := range maxHeadlineChanges {
		m := score.Metric{Name: fmt.Sprintf("m%d", i), Unit: score.UnitRate, Value: 0.5, Num: 5, Den: 10, Paired: true}
		r.Rows = append(r.Rows, Row{Metric: m.Name, A: &m, B: &m, Paired: true, Pairs: 10, P: 0.01, PAdj: 0.01, Exact: true})
	}
	line := r.Headline()[0]
	if !strings.Contains(line, fmt.Sprintf("m%d ", maxHeadlineChanges-1)) || strings.Contains(line, "more") {
		t.Errorf("headline %q", line)
	}
}

// A table exactly as wide as the width fits; one column more does not.
func TestTableOfExactlyTheWidthFits(t *testing.T) {
	header := []string{"metric", "A"}
	rows := [][]string{{"routing.accuracy", "77.9%"}}
	w := report.TableWidth(header, rows)
	if !(Options{Width: w}).fits(header, rows) {
		t.Errorf("a table %d columns wide does not fit width %d", w, w)
	}
	if (Options{Width: w - 1}).fits(header, rows) {
		t.Errorf("a table %d columns wide fits width %d", w, w-1)
	}
}
