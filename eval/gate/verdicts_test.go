package gate

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/report/reporttest"
	"github.com/searchbench/searchbench/eval/score"
)

// fives returns n cases of five samples each, every sample right, except
// those listed in wrong (case index → how many samples wrong).
func fives(n int, wrong map[int]int) report.Source {
	var rows [][]bool
	for i := range n {
		row := []bool{true, true, true, true, true}
		for j := range wrong[i] {
			row[j] = false
		}
		rows = append(rows, row)
	}
	var recs []*report.CaseRecord
	for i, r := range rows {
		recs = append(recs, reporttest.RoutingSamples(i, string(rune('a'+i)), r...))
	}
	meta := reporttest.Meta("seed")
	meta.Datasets[0].Cases = n
	return report.Bytes("seed.json", reporttest.JSON(meta, recs))
}

// Sampled runs are gated on cases, not draws: one case going 4/5 → 3/5
// moves the mean over samples, but no paired test can call that a change,
// so it is a note, never a regression (on main it failed routing.accuracy
// at tolerance 0).
func TestOneUnluckyDrawNeverFails(t *testing.T) {
	base := fives(12, map[int]int{0: 1})
	cur := fives(12, map[int]int{0: 2})
	// Costs are not rates: the unlucky draw's other route costs a little
	// more, which cost's own tolerance (gates.yaml) is for.
	v, err := Evaluate(mustLoad(t, "regressions: {tolerance: 0, metrics: {cost.*: {ignore: true}}}\n"), cur, base, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !v.Pass() {
		t.Fatalf("one unlucky draw failed the gate: %+v", v.Violations)
	}
	notes := strings.Join(v.Notes, "\n")
	if !strings.Contains(notes, "routing.accuracy: mean per-case pass rate fell by 1.7 points, but only 1 of 12 cases changed, too few for the test to find a change: not a regression") {
		t.Errorf("notes do not explain the change:\n%s", notes)
	}
}

// A real fall across cases is a regression that names every case that
// moved, with its samples, and the adjusted p-value.
func TestSampledRegressionListsTheCases(t *testing.T) {
	base := fives(12, nil)
	cur := fives(12, map[int]int{0: 3, 1: 3, 2: 3, 3: 3, 4: 3, 5: 3, 6: 3, 7: 3})
	v, err := Evaluate(mustLoad(t, "regressions: {tolerance: 0, flips: false}\n"), cur, base, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var acc *Violation
	for i, x := range v.Violations {
		if x.Kind == KindRegression && x.Metric == "routing.accuracy" {
			acc = &v.Violations[i]
		}
	}
	if acc == nil {
		t.Fatalf("no routing.accuracy regression: %+v", v.Violations)
	}
	// Eight of 12 cases all fell: one-sided p = 1/256.
	for _, want := range []string{"changed by -40.0 points", "paired sign-flip test over 12 cases, one-sided: p = 0.004",
		"8 case(s) moved the wrong way: routing/a (5/5 → 2/5), routing/b (5/5 → 2/5)", "Tarone–Holm: α 0.025"} {
		if !strings.Contains(acc.Explanation, want) {
			t.Errorf("explanation lacks %q:\n%s", want, acc.Explanation)
		}
	}
}

// Too few changed cases for the test (the smallest one-sided p of k
// changed cases is 1/2^k) say so instead of testing.
func TestTooFewCasesToTest(t *testing.T) {
	base := fives(3, nil)
	cur := fives(3, map[int]int{0: 5, 1: 5, 2: 5})
	v, err := Evaluate(mustLoad(t, "regressions: {tolerance: 0, flips: false}\n"), cur, base, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(v.Notes, "\n"), "but only 3 of 3 cases changed, too few for the test to find a change") {
		t.Errorf("notes %q", v.Notes)
	}
}

// A rate regression of the model's cases is judged on cases: seven of
// eight cases that fell the same way are a regression (p = 1/128), and its
// explanation names them.
func TestOneSampleRegressionNamesTheCases(t *testing.T) {
	base := fives(8, map[int]int{7: 5})
	cur := fives(8, map[int]int{0: 5, 1: 5, 2: 5, 3: 5, 4: 5, 5: 5, 6: 5, 7: 5})
	v, err := Evaluate(mustLoad(t, "regressions: {tolerance: 0, metrics: {cost.*: {ignore: true}}}\n"), cur, base, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range v.Violations {
		if x.Kind == KindRegression && x.Metric == "routing.accuracy" {
			if !strings.Contains(x.Explanation, "7 case(s) moved the wrong way: routing/a (5/5 → 0/5), routing/b (5/5 → 0/5)") {
				t.Errorf("explanation %q", x.Explanation)
			}
			return
		}
	}
	t.Errorf("no routing.accuracy regression: %+v", v.Violations)
}

// No gate that cannot fail: a file with every rule off and nothing that
// can regress is an input error, and so is a threshold every value meets
// or no value can.
func TestGatesThatCannotFail(t *testing.T) {
	off := "flips: false, improvements: false, new_failures: false, removed_cases: false, edited_cases: false, changed_datasets: false, vanished: false"
	tests := []struct{ name, yaml, want string }{
		{"every rule off", "regressions: {" + off + ", tolerance: 1000000}\n", "this gates file cannot fail"},
		{"every rate ignored", "regressions:\n  " + strings.ReplaceAll(off, ", ", "\n  ") + "\n  metrics:\n" +
			"    routing.*: {ignore: true}\n    schema.*: {ignore: true}\n    markdown.*: {ignore: true}\n    flow.*: {ignore: true}\n" +
			"    correctness.*: {ignore: true}\n    verification.*: {ignore: true}\n    consent.*: {ignore: true}\n    limits.*: {ignore: true}\n    evidence.*: {ignore: true}\n    grounding.*: {ignore: true}\n    parser.*: {ignore: true}\n",
			"this gates file cannot fail"},
		{"min 0 on a rate", "thresholds:\n  routing.accuracy: {min: 0}\n", "min 0 is met by every value in [0, 1]"},
		{"max 1 on a rate", "thresholds:\n  routing.accuracy: {max: 1}\n", "max 1 is met by every value in [0, 1]"},
		{"a percentage for a fraction", "thresholds:\n  routing.accuracy: {min: 100}\n", "min 100 is outside the metric's range [0, 1]"},
		{"a negative maximum", "thresholds:\n  cost.tokens: {max: -1}\n", "max -1 is below 0"},
		{"a non-positive minimum on latency", "thresholds:\n  cost.latency.p95: {min: 0}\n", "min 0 is met by every value"},
		{"a pattern of rates", "thresholds:\n  routing.recall.*: {min: -0.5}\n", "outside the metric's range"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load("gates.yaml", []byte(tt.yaml), score.All())
			var ce *ConfigError
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "gates.yaml:") {
				t.Errorf("err = %v, want a *ConfigError containing %q", err, tt.want)
			}
		})
	}
	// One rule on, or one rate that can regress, is a gate.
	for _, ok := range []string{"regressions: {" + off + ", tolerance: 0.5}\n", "regressions: {" + strings.Replace(off, "vanished: false", "vanished: true", 1) + ", tolerance: 5}\n",
		"thresholds:\n  cost.latency.p95: {max: 5000}\nregressions: {" + off + ", tolerance: 5}\n"} {
		if _, err := Load("gates.yaml", []byte(ok), score.All()); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
}

// A rule switched off is a note in every output.
func TestRulesOffAreNoted(t *testing.T) {
	meta, recs := fixture()
	_ = meta
	data := run("seed", recs...)
	v := evaluate(t, "regressions:\n  flips: false\n  metrics:\n    cost.*: {ignore: true}\n", data, data)
	notes := strings.Join(v.Notes, "\n")
	for _, want := range []string{"rules off in gates.yaml (they raise no violation): flips, improvements", "metric regressions not checked for cost.* (ignore: true at gates.yaml:4)"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
}

// Thresholds compare exact values: a rate's own counts, the bound as
// written. 265/340 = 0.77941176…, reported as 0.779412: a minimum 4e-7
// above the true value fails although it is below the rounded one.
func TestThresholdsAreExact(t *testing.T) {
	m := score.Metric{Name: "routing.accuracy", Value: 0.779412, Num: 265, Den: 340, Unit: score.UnitRate, Better: score.HigherIsBetter}
	for _, tt := range []struct {
		min  string
		fail bool
	}{{"0.7794118", true}, {"0.7794117", false}, {"0.779412", true}, {"0.7", false}} {
		v := evaluate(t, "thresholds:\n  routing.accuracy: {min: "+tt.min+"}\nregressions: {flips: false, vanished: false}\n", metricRun(m), metricRun(m))
		if got := !v.Pass(); got != tt.fail {
			t.Errorf("min %s against 265/340: fail = %v, want %v (%+v)", tt.min, got, tt.fail, v.Violations)
		}
	}
	// The bound as written: 0.3 is 3/10, so 3/10 meets max 0.3.
	r := score.Metric{Name: "routing.accuracy", Value: 0.3, Num: 3, Den: 10, Unit: score.UnitRate, Better: score.HigherIsBetter}
	if v := evaluate(t, "thresholds:\n  routing.accuracy: {max: 0.3}\n", metricRun(r), metricRun(r)); !v.Pass() {
		t.Errorf("3/10 fails max 0.3: %+v", v.Violations)
	}
}

// A baseline is checked against itself: a truncated one (half its cases
// gone, its summary kept) or one whose summary was edited is refused, and
// so is one holding more cases of a dataset than the file it hashed.
func TestBaselineCheckedAgainstItself(t *testing.T) {
	meta, recs := fixture()
	whole := report.Report{Meta: meta, Cases: recs, Summary: reporttest.Summary(recs)}
	write := func(r report.Report) report.Source {
		var b strings.Builder
		if err := report.Write(report.NewJSON(&b), &r); err != nil {
			t.Fatal(err)
		}
		return report.Bytes("baseline.json", []byte(b.String()))
	}
	cfg := mustLoad(t, "regressions: {tolerance: 0}\n")
	cur := write(whole)
	if _, err := Evaluate(cfg, cur, write(whole), Options{}); err != nil {
		t.Fatalf("a whole baseline: %v", err)
	}
	truncated := whole
	truncated.Cases = recs[:len(recs)/2]
	edited := whole
	edited.Summary.Passed++
	edited.Summary.Failed--
	rate := whole
	rate.Summary.Metrics = append([]score.Metric(nil), whole.Summary.Metrics...)
	for i, m := range rate.Summary.Metrics {
		if m.Name == "routing.accuracy" {
			rate.Summary.Metrics[i].Num++
		}
	}
	extra := whole
	extra.Meta.Datasets = append([]report.DatasetInfo(nil), whole.Meta.Datasets...)
	extra.Meta.Datasets[0].Cases = 1
	for _, tt := range []struct {
		name string
		r    report.Report
		want string
	}{
		{"truncated", truncated, "its summary counts"},
		{"summary edited", edited, "passed"},
		{"a rate edited", rate, "its summary has routing.accuracy"},
		{"more cases than the dataset", extra, "has 1 cases but the baseline holds"},
	} {
		_, err := Evaluate(cfg, cur, write(tt.r), Options{})
		var be *BaselineError
		if !errors.As(err, &be) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want a *BaselineError with %q", tt.name, err, tt.want)
		}
	}
}

// Latency is gateable like any directed metric: the shipped gates file
// gives it a tolerance in milliseconds instead of ignoring it.
func TestLatencyIsGated(t *testing.T) {
	lat := func(v float64) score.Metric {
		return score.Metric{Name: score.MetricCostLatencyP95, Value: v, Unit: score.UnitMS, Better: score.LowerIsBetter, Den: 4}
	}
	gates := "regressions:\n  flips: false\n  vanished: false\n  metrics:\n    cost.latency.*: {tolerance: 1000}\n"
	if v := evaluate(t, gates, metricRun(lat(2000)), metricRun(lat(3000))); !v.Pass() {
		t.Errorf("a rise of 1000 ms at tolerance 1000 fails: %+v", v.Violations)
	}
	v := evaluate(t, gates, metricRun(lat(2000)), metricRun(lat(3001)))
	if got := strings.Join(kindsOf(v), ","); got != KindRegression || !strings.Contains(v.Violations[0].Explanation, "cost.latency.p95 rose from 2000 ms (4) to 3001 ms (4), by 1001 ms") {
		t.Errorf("kinds %q: %+v", got, v.Violations)
	}
	data, err := os.ReadFile("../../testdata/demo/gates.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := Load("gates.yaml", data, score.All())
	if err != nil {
		t.Fatal(err)
	}
	if tol, ignore, _ := cfg.rule(score.MetricCostLatencyP95); ignore || tol <= 0 {
		t.Errorf("the shipped gates file does not gate latency: tolerance %v, ignore %v", tol, ignore)
	}
}
