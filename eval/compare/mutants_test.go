package compare

// Tests that kill the mutants gremlins found alive in this package
// (gremlins unleash --workers 2 ./eval/compare; see README, Development).
//
// Equivalent mutants (gremlins v0.6.0, 2026-11-25), left alive on purpose:
//   - compare.go:293 CONDITIONALS_BOUNDARY on `pc.n > 0`: a pair count is
//     created only together with its first pair, so n is never 0.
//   - compare.go:433, :437 and :467 CONDITIONALS_NEGATION on `e != nil &&
//     err == nil`: a table that fails to render has failed on the writer,
//     and the next write reports the same error.
//   - compare.go:271 CONDITIONALS_BOUNDARY on `n > 1`: a samples section
//     lists only metrics of sampled cases, whose pass^k has at least two
//     entries, so `len(m.PassHatK) == n` already excludes n = 1.
//   - samples.go:63 CONDITIONALS_BOUNDARY on `<`: a rate change never has
//     equal rates.

import (
	"testing"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/report/reporttest"
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
		{Row{Paired: true, Pairs: 10, Exact: true, P: 0.001, PAdj: 0.001}, "p=0.001"},
		{Row{Paired: true, Pairs: 10, Exact: true, P: 0.000999, PAdj: 0.000999}, "p<0.001"},
		{Row{Paired: true, Pairs: 10, Exact: true, P: 0.004, PAdj: 0.04}, "p=0.040 [p=0.004]"},
		{Row{Paired: true, Pairs: 3, Exact: true, P: 0.25, PAdj: 0.25}, "untested"},
		{Row{Paired: true, Pairs: 100, Exact: false, Draws: 10000, P: 0.5, PAdj: 0.5}, "p=0.500 (Monte Carlo ±0.005)"},
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
