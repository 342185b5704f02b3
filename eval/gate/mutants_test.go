package gate

// Tests that kill the mutants gremlins found alive in this package
// (gremlins unleash --workers 2 ./eval/gate; see README, Development).
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
// Killed since they were listed as equivalent: Load's column tie-break
// (TestProblemsOnOneLineInColumnOrder) and Write's `e != nil && err ==
// nil` (TestWriteKeepsTheFirstError, which found tables dropping write
// errors).

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/report/reporttest"
	"github.com/searchbench/searchbench/eval/score"
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
