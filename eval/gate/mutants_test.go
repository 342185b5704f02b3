package gate

// Tests that kill the mutants gremlins found alive in this package
// (make mutants MUTANT_PKGS="eval/gate", gremlins v0.6.0; see docs/development.md).
//
// Equivalent mutants (gremlins v0.6.0), left alive on purpose, named by
// function and mutation (line numbers drift; find them with gremlins'
// output or grep):
//   - loader.mapping, CONDITIONALS_BOUNDARY on `i+1 < len(n.Content)`: a
//     YAML mapping node always holds key/value pairs, an even count, so
//     `<=` never reaches the out-of-range index.
//   - Config.rule, CONDITIONALS_BOUNDARY on `len(o.Pattern) >
//     len(c.Overrides[best].Pattern)`: two distinct patterns of equal
//     length cannot both match one metric (each would have to be a prefix
//     of the other), and duplicate keys are rejected.
//   - evaluation.thresholds, CONDITIONALS_BOUNDARY on `m.Value <
//     *t.Min-epsilon` and `m.Value > *t.Max+epsilon`, and regression,
//     CONDITIONALS_BOUNDARY on `worse <= tol+epsilon`: they differ only
//     when a value equals the bound plus or minus 1e-9 exactly, which
//     reported (6-decimal) values never do; TestBoundaries pins the values
//     that matter (on the bound, and a hair beyond).
//   - evaluation.sharedCase, CONDITIONALS_BOUNDARY on `ca.N > 0` and on
//     `cb.N > 0`: both clusters come from CaseRecord.MetricClusters, which
//     creates a metric's cluster with its first outcome, so N is at least
//     1 and `>= 0` admits no further cluster.
// Killed since they were listed as equivalent: Load's column tie-break
// (TestProblemsOnOneLineInColumnOrder) and Write's `e != nil && err ==
// nil` (TestWriteKeepsTheFirstError, which found tables dropping write
// errors).

import (
	"bytes"
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

func TestOverrideWithZeroToleranceIsAccepted(t *testing.T) {
	cfg := mustLoad(t, "regressions:\n  tolerance: 0.5\n  metrics:\n    routing.accuracy: {tolerance: 0}\n")
	if tol, _, _ := cfg.rule("routing.accuracy"); tol != 0 || len(cfg.Overrides) != 1 {
		t.Errorf("tolerance 0 override: %v, %+v", tol, cfg.Overrides)
	}
}

func TestRuleLongestPatternWhateverTheOrder(t *testing.T) {
	cfg := mustLoad(t, "regressions:\n  metrics:\n    cost.tokens.*: {tolerance: 50}\n    cost.*: {ignore: true}\n")
	if tol, ignore, src := cfg.rule("cost.tokens.prompt"); tol != 50 || ignore || src != "gates.yaml:3" {
		t.Errorf("rule = %v, %v, %s; want the longer cost.tokens.* (listed first)", tol, ignore, src)
	}
}

func TestEmptyBaselineNeedsNoHashes(t *testing.T) {
	meta, recs := fixture()
	v := evaluate(t, "", reporttest.JSON(meta, nil), reporttest.JSON(meta, recs))
	for _, x := range v.Violations {
		if x.Kind == KindEdited {
			t.Errorf("an empty baseline asks for case hashes: %+v", x)
		}
	}
}

func TestAllowedModeMismatchIsNoted(t *testing.T) {
	meta, recs := fixture()
	cur := meta
	cur.Mode = trace.ModeStructured
	v, err := Evaluate(mustLoad(t, ""), report.Bytes("c.json", reporttest.JSON(cur, recs)), report.Bytes("b.json", reporttest.JSON(meta, recs)), Options{AllowMismatch: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(v.Notes, "\n"), "baseline variant seed/mode model differs from this run's seed/structured (allowed)") {
		t.Errorf("notes = %q", v.Notes)
	}
}

func TestNoRemovedNoteWhenNothingIsRemoved(t *testing.T) {
	meta, recs := fixture()
	data := reporttest.JSON(meta, recs)
	v := evaluate(t, "regressions:\n  removed_cases: false\n", data, data)
	// The note that the rule is off, none about removed cases.
	if len(v.Notes) == 0 || !strings.HasPrefix(v.Notes[0], "rules off in gates.yaml (they raise no violation): improvements, removed_cases") ||
		strings.Contains(strings.Join(v.Notes, "\n"), "missing") {
		t.Errorf("notes = %q", v.Notes)
	}
}

func TestUnfilteredSubsetNoteNamesNoSelection(t *testing.T) {
	meta, recs := fixture()
	base := reporttest.JSON(meta, recs)
	cur := reporttest.JSON(meta, append(recs, reporttest.Routing(9, "new", "tavily_only", reporttest.OKMessage(), trace.ToolTavily)))
	v := evaluate(t, "", base, cur)
	want := "this run covers 5 of the baseline's 5 cases; metrics are compared with both re-aggregated over the 5 shared cases"
	if !strings.Contains(strings.Join(v.Notes, "\n"), want) {
		t.Errorf("notes = %q, want %q", v.Notes, want)
	}
}

// A filtered run whose selected cases lost a check fails the threshold:
// the baseline over the same cases had data for it.
func TestFilteredRunWithAVanishedCheckFails(t *testing.T) {
	meta, recs := fixture()
	base := reporttest.JSON(meta, recs)
	m, cur := fixture()
	m.Filter = []string{"dataset:consent"}
	cur = cur[3:]
	for _, r := range cur {
		for i := range r.Scores {
			r.Scores[i].Checks = dropMetric(r.Scores[i].Checks, score.MetricConsentAccuracy)
		}
	}
	v := evaluate(t, "thresholds:\n  consent.accuracy: {min: 0.5}\n  routing.accuracy: {min: 0.5}\nregressions:\n  vanished: false\n", base, reporttest.JSON(m, cur))
	if got := strings.Join(kindsOf(v), ","); got != KindNoData || v.Violations[0].Metric != "consent.accuracy" {
		t.Errorf("violations = %+v; want consent.accuracy without data (routing.accuracy is outside the filter)", v.Violations)
	}
	if !strings.Contains(strings.Join(v.Notes, "\n"), "threshold routing.accuracy (gates.yaml:3) not evaluated: this run's selection holds no case for it") {
		t.Errorf("notes = %q", v.Notes)
	}
}

func TestRegressionWantsTheBaselineMinusTolerance(t *testing.T) {
	rate := score.Metric{Name: "routing.accuracy", Unit: score.UnitRate, Better: score.HigherIsBetter}
	b, m := rate, rate
	b.Value, m.Value = 0.75, 0.6
	x, bad := regression(b, m, 0.05, "gates.yaml:9")
	if !bad || x.Want != "≥ 70.0%" || !strings.Contains(x.Explanation, "fell from 75.0% (0/0) to 60.0% (0/0), by 15.0 points; tolerance 5.0 points (gates.yaml:9)") {
		t.Errorf("violation = %+v", x)
	}
}

func TestNewErroredCaseNamesTheRun(t *testing.T) {
	meta, recs := fixture()
	base := reporttest.JSON(meta, recs)
	cur := reporttest.JSON(meta, append(recs, reporttest.Errored(9, "boom", "exa_only", "cassette miss")))
	v := evaluate(t, "", base, cur)
	if len(v.Violations) != 1 || v.Violations[0].Kind != KindNewFailure || v.Violations[0].Metric != "run" || v.Violations[0].Got != "error" {
		t.Errorf("violations = %+v", v.Violations)
	}
}

func TestEditedCaseWithoutHashShowsNone(t *testing.T) {
	meta, recs := fixture()
	base := reporttest.JSON(meta, recs)
	m, cur := fixture()
	cur[0].Hash = ""
	v := evaluate(t, "", base, reporttest.JSON(m, cur))
	if len(v.Violations) != 1 || v.Violations[0].Kind != KindEdited || v.Violations[0].Got != "(none)" {
		t.Errorf("violations = %+v", v.Violations)
	}
}

func TestHeadlineDefaultIsCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString("thresholds:\n")
	names := score.NewCatalogue(score.All()).Expand()
	for _, n := range names[:MaxHeadline+1] {
		b.WriteString("  " + n + ": {min: 0.5}\n")
	}
	if got := len(headline(mustLoad(t, b.String()))); got != MaxHeadline {
		t.Errorf("headline has %d metrics, want %d", got, MaxHeadline)
	}
}

func TestWritePassingVerdictHasNoTable(t *testing.T) {
	v := &Verdict{Line: "gate: PASS — x", NewCases: []string{"routing/new"}}
	var b bytes.Buffer
	if err := Write(&b, v, false); err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), "  new cases: routing/new\n\ngate: PASS — x\n"; got != want {
		t.Errorf("Write = %q, want %q", got, want)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteReportsWriterErrors(t *testing.T) {
	v := &Verdict{Line: "gate: FAIL", Violations: []Violation{{Kind: KindFlip, Want: "pass", Got: "fail", Explanation: "x"}}}
	if err := Write(failingWriter{}, v, true); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("err = %v", err)
	}
}

// TestProblemsOnOneLineInColumnOrder: a flow-style mapping puts several
// problems on one line; an unknown key is found before the values are
// read, so without the column tie-break it would print first.
func TestProblemsOnOneLineInColumnOrder(t *testing.T) {
	_, err := Load("g.yaml", []byte("regressions: {tolerance: x, metrics: {nope.*: {tolerance: -1}}, bogus: 1}\n"), score.All())
	if err == nil {
		t.Fatal("want problems")
	}
	var cols []string
	for _, l := range strings.Split(err.Error(), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), "g.yaml:1:"); ok {
			col, _, _ := strings.Cut(rest, ":")
			cols = append(cols, col)
		}
	}
	if got := strings.Join(cols, ","); got != "26,39,59,65" {
		t.Errorf("columns %s, want 26,39,59,65:\n%v", got, err)
	}
}

// failsOnce fails its n-th write only: an error met inside a table must
// reach the caller though every later write succeeds.
type failsOnce struct{ n, calls int }

func (f *failsOnce) Write(p []byte) (int, error) {
	f.calls++
	if f.calls == f.n {
		return 0, errors.New("one write lost")
	}
	return len(p), nil
}

func TestWriteKeepsTheFirstError(t *testing.T) {
	v := &Verdict{Line: "gate: FAIL", Violations: []Violation{{Kind: KindFlip, Metric: "routing.accuracy", Case: "routing/a", Want: "pass", Got: "fail", Explanation: "x"}, {Kind: KindThreshold, Metric: "schema.valid", Want: "≥ 0.9", Got: "0.5"}}, NewCases: []string{"routing/new"}}
	for _, md := range []bool{false, true} {
		count := &failsOnce{}
		if err := Write(count, v, md); err != nil {
			t.Fatal(err)
		}
		if count.calls < 3 {
			t.Fatalf("only %d writes", count.calls)
		}
		for n := 1; n <= count.calls; n++ {
			if err := Write(&failsOnce{n: n}, v, md); err == nil {
				t.Errorf("markdown %v: write %d of %d failed, Write returned nil", md, n, count.calls)
			}
		}
	}
}

// pairedRate is a paired pass rate, higher is better.
func pairedRate(name string) score.Metric {
	return score.Metric{Name: name, Unit: score.UnitRate, Better: score.HigherIsBetter, Paired: true}
}

// moved builds the per-case outcomes of a metric: each pair is
// PassA/NA → PassB/NB.
func moved(pairs ...[4]int) []movedCase {
	var out []movedCase
	for i, p := range pairs {
		out = append(out, movedCase{key: fmt.Sprintf("routing/%c", 'a'+i), rate: stats.RatePair{PassA: p[0], NA: p[1], PassB: p[2], NB: p[3]}})
	}
	return out
}

func repeat(n int, p [4]int) [][4]int {
	out := make([][4]int, n)
	for i := range out {
		out[i] = p
	}
	return out
}

func TestPairedRegressionUntestableIsANote(t *testing.T) {
	e := &evaluation{cfg: mustLoad(t, ""), v: &Verdict{}, pairs: map[string][]movedCase{}}
	m := pairedRate("routing.accuracy")
	e.pairedRegression(m, m, 0.05, "gates.yaml:2", pairedTest{n: 3, effect: -0.25, p: 0.125, moved: 3,
		decision: stats.TaroneDecision{Level: 0.025, K: 1}})
	want := "routing.accuracy: mean per-case pass rate fell by 25.0 points, but only 3 of 3 cases changed, too few for the test to find a change: not a regression"
	if len(e.v.Notes) != 1 || e.v.Notes[0] != want || len(e.v.Violations) != 0 {
		t.Errorf("notes %q, violations %+v; want %q", e.v.Notes, e.v.Violations, want)
	}
}

func TestPairedRegressionViolationFigures(t *testing.T) {
	for _, tt := range []struct {
		better         string
		effect         float64
		want, got, dir string
	}{
		{score.HigherIsBetter, -0.25, "mean per-case change ≥ -5.0 points, or not significant", "-25.0 points (p = 0.002)", "fell"},
		{score.LowerIsBetter, 0.25, "mean per-case change ≤ +5.0 points, or not significant", "+25.0 points (p = 0.002)", "rose"},
	} {
		e := &evaluation{cfg: mustLoad(t, ""), v: &Verdict{}, pairs: map[string][]movedCase{}, metricFamily: familySummary{hypotheses: 2, testable: 2, level: 0.025}}
		m := pairedRate("routing.accuracy")
		m.Better = tt.better
		e.pairedRegression(m, m, 0.05, "gates.yaml:2", pairedTest{n: 10, effect: tt.effect, p: 0.002, family: 2, moved: 8,
			decision: stats.TaroneDecision{Reject: true, Testable: true, Level: 0.0125, K: 2}})
		if len(e.v.Violations) != 1 {
			t.Fatalf("%s: violations %+v, notes %q", tt.better, e.v.Violations, e.v.Notes)
		}
		x := e.v.Violations[0]
		if x.Kind != KindRegression || x.Want != tt.want || x.Got != tt.got {
			t.Errorf("%s: want %q got %q; expected want %q got %q", tt.better, x.Want, x.Got, tt.want, tt.got)
		}
		for _, s := range []string{
			"routing.accuracy " + tt.dir + ": the mean per-case pass rate changed by " + strings.TrimSuffix(tt.got, " (p = 0.002)"),
			"paired sign-flip test over 10 cases, one-sided: p = 0.002 against its level 0.0125 (Tarone–Holm: α 0.025 over the 2 of 2 rates that could reach it)",
		} {
			if !strings.Contains(x.Explanation, s) {
				t.Errorf("%s: explanation %q lacks %q", tt.better, x.Explanation, s)
			}
		}
	}
}

// pairedTestsOf runs pairedTests over the given metrics' per-case pairs,
// every metric of model cases.
func pairedTestsOf(t *testing.T, pairs map[string][]movedCase, order ...string) (map[string]pairedTest, []string) {
	t.Helper()
	e := &evaluation{cfg: mustLoad(t, ""), v: &Verdict{}, pairs: pairs, modelMetric: map[string]bool{}}
	base := &report.Summary{}
	cur := map[string]score.Metric{}
	for _, name := range order {
		base.Metrics = append(base.Metrics, pairedRate(name))
		cur[name] = pairedRate(name)
		e.modelMetric[name] = true
	}
	return e.pairedTests(base, cur), e.v.Notes
}

func TestPairedTestsCountsMovedCasesAndTaroneFamily(t *testing.T) {
	// Six cases all worse: one-sided p = 1/64, testable at α/2 = 0.025
	// alone; 2/4 → 1/2 is the same rate, not a moved case, so m.same (one
	// moved case, smallest p 1/2) cannot reach significance and does not
	// count in the family.
	out, _ := pairedTestsOf(t, map[string][]movedCase{
		"m.six":  moved(repeat(6, [4]int{1, 1, 0, 1})...),
		"m.same": moved(append(repeat(7, [4]int{2, 4, 1, 2}), [4]int{1, 1, 0, 1})...),
	}, "m.six", "m.same")
	six, same := out["m.six"], out["m.same"]
	if six.n != 6 || six.moved != 6 || six.p != 1.0/64 || six.family != 2 || !six.decision.Reject || six.decision.K != 1 {
		t.Errorf("six cases all moved: %+v; want n = moved = 6, p = 1/64, rejected with K = 1", six)
	}
	if same.n != 8 || same.moved != 1 || same.decision.Testable || same.decision.Reject {
		t.Errorf("equal rates over different counts: %+v; want n 8, moved 1, untestable", same)
	}
}

func TestDeterministicMetricsAreNotTested(t *testing.T) {
	e := &evaluation{cfg: mustLoad(t, ""), v: &Verdict{}, pairs: map[string][]movedCase{
		"consent.accuracy": moved(repeat(10, [4]int{1, 1, 0, 1})...)}, modelMetric: map[string]bool{}}
	m := pairedRate("consent.accuracy")
	if out := e.pairedTests(&report.Summary{Metrics: []score.Metric{m}}, map[string]score.Metric{m.Name: m}); len(out) != 0 {
		t.Errorf("a metric of cases that call no model was tested: %+v (its tolerance judges it: no draws)", out)
	}
}

func TestNoRulesOffNoteWhenEveryRuleIsOn(t *testing.T) {
	meta, recs := fixture()
	data := reporttest.JSON(meta, recs)
	v := evaluate(t, "regressions: {flips: true, improvements: true, new_failures: true, removed_cases: true, edited_cases: true, changed_datasets: true, vanished: true}\n", data, data)
	for _, n := range v.Notes {
		if strings.HasPrefix(n, "rules off") {
			t.Errorf("every rule on, yet note %q", n)
		}
	}
}

func TestBaselineWithoutDatasetsIsAccepted(t *testing.T) {
	meta, recs := fixture()
	meta.Datasets = nil
	data := reporttest.JSON(meta, recs)
	v := evaluate(t, "", data, data)
	if !v.Pass() {
		t.Errorf("a baseline listing no datasets: %+v", v.Violations)
	}
}

func TestToleranceOfOneIsVacuous(t *testing.T) {
	off := "flips: false, improvements: false, new_failures: false, removed_cases: false, edited_cases: false, changed_datasets: false, vanished: false"
	if _, err := Load("gates.yaml", []byte("regressions: {"+off+", tolerance: 1}\n"), score.All()); err == nil || !strings.Contains(err.Error(), "this gates file cannot fail") {
		t.Errorf("tolerance 1 with every rule off: err = %v", err)
	}
	mustLoad(t, "regressions: {"+off+", tolerance: 0.99}\n")
}

func TestLineNamesNoCasesWhenNoViolationHasOne(t *testing.T) {
	v := &Verdict{Violations: []Violation{{Kind: KindThreshold, Metric: "schema.valid", Want: "≥ 90.0%", Got: "50.0%"}}}
	if got := Line(v); !strings.HasPrefix(got, "gate: FAIL (1 violation: 1 "+KindThreshold+")") || strings.Contains(got, "cases:") {
		t.Errorf("Line = %q", got)
	}
}

func TestWriteImprovedListAndBlankLine(t *testing.T) {
	var improved []Violation
	var keys []string
	for i := range maxNewCases {
		k := fmt.Sprintf("routing/c%d", i)
		keys = append(keys, k)
		improved = append(improved, Violation{Kind: KindImproved, Metric: "routing", Case: k})
	}
	for _, tt := range []struct {
		v    *Verdict
		want string
	}{
		{&Verdict{Line: "gate: PASS — x"}, "gate: PASS — x\n"},
		{&Verdict{Line: "gate: PASS — x", Improved: improved}, "improved (not violations): " + strings.Join(keys, ", ") + "\n\ngate: PASS — x\n"},
		{&Verdict{Line: "gate: PASS — x", Improved: append(improved, Violation{Kind: KindImproved, Case: "routing/more"})}, " and 1 more\n\ngate: PASS — x\n"},
	} {
		var b bytes.Buffer
		if err := WriteWidth(&b, tt.v, false, 0); err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(b.String(), tt.want) || (len(tt.v.Improved) == 0 && b.String() != tt.want) {
			t.Errorf("Write = %q, want it to end %q", b.String(), tt.want)
		}
	}
}
