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
	// Only the note that the rule is off, not one about removed cases.
	if len(v.Notes) != 1 || !strings.HasPrefix(v.Notes[0], "rules off in gates.yaml (they raise no violation): improvements, removed_cases") {
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

func TestPairedRegressionTooFewCasesNote(t *testing.T) {
	e := &evaluation{cfg: mustLoad(t, ""), v: &Verdict{}, pairs: map[string][]movedCase{}}
	m := pairedRate("routing.accuracy")
	e.pairedRegression(m, m, 0.05, "gates.yaml:2", pairedTest{n: 3, effect: -0.25, p: 1, adj: 1, moved: 3, mde: 0.5})
	want := "routing.accuracy: mean per-case pass rate fell by 25.0 points, but 3 case(s) are too few cases to test (fewer than 6); not a regression (pass_rate_drop judges each case)"
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
		{score.HigherIsBetter, -0.25, "mean per-case change ≥ -5.0 points, or not significant", "-25.0 points (p=0.004 adjusted)", "fell"},
		{score.LowerIsBetter, 0.25, "mean per-case change ≤ +5.0 points, or not significant", "+25.0 points (p=0.004 adjusted)", "rose"},
	} {
		e := &evaluation{cfg: mustLoad(t, ""), v: &Verdict{}, pairs: map[string][]movedCase{}}
		m := pairedRate("routing.accuracy")
		m.Better = tt.better
		e.pairedRegression(m, m, 0.05, "gates.yaml:2", pairedTest{n: 10, effect: tt.effect, p: 0.002, adj: 0.004, family: 2, moved: 8, mde: 0.2})
		if len(e.v.Violations) != 1 {
			t.Fatalf("%s: violations %+v, notes %q", tt.better, e.v.Violations, e.v.Notes)
		}
		x := e.v.Violations[0]
		if x.Kind != KindRegression || x.Want != tt.want || x.Got != tt.got {
			t.Errorf("%s: want %q got %q; expected want %q got %q", tt.better, x.Want, x.Got, tt.want, tt.got)
		}
		for _, s := range []string{
			"routing.accuracy " + tt.dir + ": the mean per-case pass rate changed by " + strings.TrimSuffix(tt.got, " (p=0.004 adjusted)"),
			"paired sign-flip test over 10 cases p=0.002, Holm-adjusted over 2 testable paired rate(s) p=0.004",
			"10 cases detect a mean change of 20.0 points at 80% power",
		} {
			if !strings.Contains(x.Explanation, s) {
				t.Errorf("%s: explanation %q lacks %q", tt.better, x.Explanation, s)
			}
		}
	}
}

func TestPfmtAtOneInAThousand(t *testing.T) {
	if got := pfmt(0.001); got != "0.001" {
		t.Errorf("pfmt(0.001) = %q, want 0.001", got)
	}
	if got := pfmt(0.000999); got != "<0.001" {
		t.Errorf("pfmt(0.000999) = %q, want <0.001", got)
	}
}

// pairedTestsOf runs pairedTests over the given metrics' per-case pairs.
func pairedTestsOf(t *testing.T, pairs map[string][]movedCase, order ...string) (map[string]pairedTest, []string) {
	t.Helper()
	e := &evaluation{cfg: mustLoad(t, ""), v: &Verdict{}, pairs: pairs}
	base := &report.Summary{}
	cur := map[string]score.Metric{}
	for _, name := range order {
		base.Metrics = append(base.Metrics, pairedRate(name))
		cur[name] = pairedRate(name)
	}
	return e.pairedTests(base, cur), e.v.Notes
}

func TestPairedTestsCountsMovedCasesAndTestsAtMinCases(t *testing.T) {
	// Six cases all worse: exactly stats.MinCases, so tested; 2/4 → 1/2
	// is the same rate, not a moved case.
	out, _ := pairedTestsOf(t, map[string][]movedCase{
		"m.six":  moved(repeat(stats.MinCases, [4]int{1, 1, 0, 1})...),
		"m.same": moved(append(repeat(7, [4]int{2, 4, 1, 2}), [4]int{1, 1, 0, 1})...),
	}, "m.six", "m.same")
	six, same := out["m.six"], out["m.same"]
	if six.n != stats.MinCases || six.moved != stats.MinCases || six.p >= 1 || six.family != 1 {
		t.Errorf("six cases all moved: %+v; want n = moved = %d, tested (p < 1), family 1", six, stats.MinCases)
	}
	if same.n != 8 || same.moved != 1 {
		t.Errorf("equal rates over different counts: %+v; want n 8, moved 1", same)
	}
}

func TestPairedTestsNoteListsAtMostMaxMDE(t *testing.T) {
	pairs := map[string][]movedCase{}
	var names []string
	for i := range maxMDE + 1 {
		name := fmt.Sprintf("m.%d", i)
		names = append(names, name)
		pairs[name] = moved(append(repeat(36, [4]int{1, 1, 1, 1}), repeat(4, [4]int{1, 1, 0, 1})...)...)
	}
	// 4 of 40 cases fell: 40 cases detect a mean change of 19.1 points.
	item := func(name string) string { return name + " ±19.1 points (40 cases)" }
	_, notes := pairedTestsOf(t, pairs, names[:maxMDE]...)
	var items []string
	for _, n := range names[:maxMDE] {
		items = append(items, item(n))
	}
	want := "sampled runs: each pass rate is judged by the paired sign-flip test over cases, Holm-adjusted over the 0 testable rate(s); the smallest mean change detectable at 80% power, given the share of cases that changed (at least the change itself): " + strings.Join(items, ", ")
	if len(notes) != 1 || notes[0] != want {
		t.Errorf("%d rates: notes\n%q\nwant\n%q", maxMDE, notes, want)
	}
	_, notes = pairedTestsOf(t, pairs, names...)
	if len(notes) != 1 || notes[0] != want+" and 1 more" {
		t.Errorf("%d rates: notes\n%q\nwant\n%q", maxMDE+1, notes, want+" and 1 more")
	}
	if _, notes = pairedTestsOf(t, pairs); len(notes) != 0 {
		t.Errorf("no paired rate: notes %q", notes)
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
