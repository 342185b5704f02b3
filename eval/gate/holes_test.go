package gate

import (
	"errors"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/report/reporttest"
	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// fixture is a small baseline: routing cases that pass and one that
// already fails, and consent cases.
func fixture() (report.Meta, []*report.CaseRecord) {
	ok := reporttest.OKMessage()
	tav, exa := trace.ToolTavily, trace.ToolExa
	return reporttest.Meta("seed"), []*report.CaseRecord{
		reporttest.Routing(0, "a", "tavily_only", ok, tav),
		reporttest.Routing(1, "b", "exa_only", ok, exa),
		reporttest.Routing(2, "c", "exa_only", ok, tav), // fails in the baseline
		reporttest.Consent(3, "y", "YES", "yes", "YES", "yes.word"),
		reporttest.Consent(4, "n", "NO", "no", "NO", "no.word"),
	}
}

// shippedLike is a gates file shaped like the shipped one: thresholds at
// 1.0 on invariants, every hole rule at its default.
const shippedLike = `thresholds:
  schema.final: {min: 1.0}
  flow.verification: {min: 1.0}
  consent.accuracy: {min: 0.5}
regressions:
  tolerance: 0
  metrics:
    cost.tokens.*: {tolerance: 500}
    cost.tokens: {tolerance: 500}
    cost.latency.*: {ignore: true}
`

func evaluate(t *testing.T, gates string, base, cur []byte) *Verdict {
	t.Helper()
	v, err := Evaluate(mustLoad(t, gates), report.Bytes("current.json", cur), report.Bytes("baseline.json", base), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v.Pass() != (v.Verdict == report.VerdictPass) || !strings.HasPrefix(v.Line, "gate: "+v.Verdict) {
		t.Fatalf("verdict %q and line %q disagree with %d violations", v.Verdict, v.Line, len(v.Violations))
	}
	return v
}

func kindsOf(v *Verdict) []string {
	var out []string
	for _, x := range v.Violations {
		out = append(out, x.Kind)
	}
	return out
}

// Each planted regression must fail the gate; each used to pass it.
func TestPlantedRegressionsFail(t *testing.T) {
	meta, base := fixture()
	baseline := reporttest.JSON(meta, base)
	ok, drift := reporttest.OKMessage(), reporttest.DriftMessage()
	tav := trace.ToolTavily

	if v := evaluate(t, shippedLike, baseline, baseline); !v.Pass() {
		t.Fatalf("the baseline against itself fails: %v", v.Violations)
	}

	tests := []struct {
		name  string
		plant func(m *report.Meta, recs []*report.CaseRecord) []*report.CaseRecord
		kinds []string
		want  string
	}{
		{"a new case that fails", func(_ *report.Meta, recs []*report.CaseRecord) []*report.CaseRecord {
			return append(recs, reporttest.Routing(5, "new", "tavily_only", drift, tav))
		}, []string{KindNewFailure}, "routing/new"},
		{"a case removed from a dataset", func(_ *report.Meta, recs []*report.CaseRecord) []*report.CaseRecord {
			return append(recs[:1], recs[2:]...)
		}, []string{KindRemoved}, "routing/b"},
		{"every failing case removed", func(_ *report.Meta, recs []*report.CaseRecord) []*report.CaseRecord {
			return append(recs[:2], recs[3:]...)
		}, []string{KindRemoved}, "routing/c"},
		{"a dataset whose sha256 differs", func(m *report.Meta, recs []*report.CaseRecord) []*report.CaseRecord {
			m.Datasets[1].SHA256 = strings.Repeat("c", 64)
			return recs
		}, []string{KindDataset}, "dataset consent changed since the baseline"},
		{"a case edited under the same id", func(_ *report.Meta, recs []*report.CaseRecord) []*report.CaseRecord {
			recs[1].Hash = "0123456789abcdef"
			return recs
		}, []string{KindEdited}, "routing/b"},
		{"a deleted measure scorer", func(_ *report.Meta, recs []*report.CaseRecord) []*report.CaseRecord {
			for _, r := range recs {
				r.Scores = dropScorer(r.Scores, "cost")
			}
			return recs
		}, []string{KindVanished}, "the cost scorer judged routing/a, routing/b, routing/c in the baseline and no longer does"},
		{"a deleted check behind a {min: 1.0} threshold", func(_ *report.Meta, recs []*report.CaseRecord) []*report.CaseRecord {
			for _, r := range recs {
				for i := range r.Scores {
					r.Scores[i].Checks = dropMetric(r.Scores[i].Checks, score.MetricFlowVerification)
				}
			}
			return recs
		}, []string{KindNoData, KindVanished}, "the threshold at gates.yaml:3 cannot be checked"},
		{"an invariant broken in one case", func(_ *report.Meta, recs []*report.CaseRecord) []*report.CaseRecord {
			recs[0] = reporttest.Routing(0, "a", "tavily_only", drift, tav)
			return recs
		}, []string{KindFlip}, "markdown.final is an invariant the app enforces whatever the model does"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, recs := fixture()
			_ = ok
			recs = tt.plant(&m, recs)
			v := evaluate(t, shippedLike, baseline, reporttest.JSON(m, recs))
			if v.Pass() {
				t.Fatalf("the gate passes a planted regression: %s", v.Line)
			}
			if got := strings.Join(kindsOf(v), ","); got != strings.Join(tt.kinds, ",") {
				t.Errorf("kinds = %s, want %s\n%+v", got, strings.Join(tt.kinds, ","), v.Violations)
			}
			var text strings.Builder
			for _, x := range v.Violations {
				text.WriteString(x.Case + " " + x.Explanation + "\n")
				if x.Want == "" || x.Got == "" || x.Explanation == "" {
					t.Errorf("violation without want/got/explanation: %+v", x)
				}
			}
			if !strings.Contains(text.String(), tt.want) {
				t.Errorf("violations do not mention %q:\n%s", tt.want, text.String())
			}
		})
	}
}

// A hole rule switched off in the gates file turns its violation into a
// note, never into silence.
func TestHoleRulesCanBeAllowedLoudly(t *testing.T) {
	meta, base := fixture()
	baseline := reporttest.JSON(meta, base)
	m, recs := fixture()
	m.Datasets[1].SHA256 = strings.Repeat("c", 64)
	recs = append(recs[:1], recs[2:]...)
	gates := shippedLike + "  removed_cases: false\n  changed_datasets: false\n"
	v := evaluate(t, gates, baseline, reporttest.JSON(m, recs))
	if !v.Pass() {
		t.Fatalf("allowed holes still fail: %+v", v.Violations)
	}
	notes := strings.Join(v.Notes, "\n")
	for _, want := range []string{"1 baseline case(s) inside this run's selection are missing (allowed: removed_cases is false)",
		"dataset consent changed since the baseline (4 cases then, 4 now): review the change, then update the baseline on purpose (make baseline) (allowed: changed_datasets is false)"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes do not say %q:\n%s", want, notes)
		}
	}
	if v.Counts.Removed != 1 {
		t.Errorf("removed = %d, want 1", v.Counts.Removed)
	}
}

func TestBaselineWithoutCaseHashes(t *testing.T) {
	meta, base := fixture()
	for _, r := range base {
		r.Hash = ""
	}
	m, cur := fixture()
	v := evaluate(t, shippedLike, reporttest.JSON(meta, base), reporttest.JSON(m, cur))
	if got := strings.Join(kindsOf(v), ","); got != KindEdited || !strings.Contains(v.Violations[0].Explanation, "make baseline") {
		t.Errorf("violations = %+v, want one edited violation asking to regenerate the baseline", v.Violations)
	}
}

func dropScorer(rs []score.Result, name string) []score.Result {
	var out []score.Result
	for _, r := range rs {
		if r.Scorer != name {
			out = append(out, r)
		}
	}
	return out
}

func dropMetric(cs []score.Check, metric string) []score.Check {
	var out []score.Check
	for _, c := range cs {
		if c.Metric != metric {
			out = append(out, c)
		}
	}
	return out
}

// metricRun is a report whose summary holds exactly ms: the regression
// rules read only summaries when both runs cover the same cases.
func metricRun(ms ...score.Metric) []byte {
	meta, recs := fixture()
	sum := reporttest.Summary(recs)
	sum.Metrics = ms
	var b strings.Builder
	w := report.NewJSON(&b)
	if err := report.Write(w, &report.Report{Meta: meta, Cases: recs, Summary: sum}); err != nil {
		panic(err)
	}
	return []byte(b.String())
}

// The boundaries: a value exactly on a threshold or exactly at the
// tolerance passes, a hair beyond fails, in both directions.
func TestBoundaries(t *testing.T) {
	rate := func(name string, v float64) score.Metric {
		return score.Metric{Name: name, Value: v, Unit: score.UnitRate, Better: score.HigherIsBetter, Paired: true}
	}
	tokens := func(v float64) score.Metric {
		return score.Metric{Name: score.MetricCostTokens, Value: v, Unit: score.UnitTokens, Better: score.LowerIsBetter}
	}
	// consent.accuracy: a rate of deterministic cases, judged by its
	// tolerance (a rate of the model's cases is judged by its test).
	const regs = "regressions:\n  flips: false\n  vanished: false\n  metrics:\n    cost.tokens: {tolerance: 500}\n    consent.accuracy: {tolerance: 0.05}\n"
	tests := []struct {
		name      string
		gates     string
		base, cur []score.Metric
		kinds     string
	}{
		{"on the minimum", "thresholds:\n  routing.accuracy: {min: 0.7}\n" + regs, nil, []score.Metric{rate("routing.accuracy", 0.7)}, ""},
		{"below the minimum", "thresholds:\n  routing.accuracy: {min: 0.7}\n" + regs, nil, []score.Metric{rate("routing.accuracy", 0.699999)}, KindThreshold},
		{"on the maximum", "thresholds:\n  cost.tokens: {max: 5000}\n" + regs, nil, []score.Metric{tokens(5000)}, ""},
		{"above the maximum", "thresholds:\n  cost.tokens: {max: 5000}\n" + regs, nil, []score.Metric{tokens(5000.5)}, KindThreshold},
		{"higher-is-better drop at the tolerance", regs, []score.Metric{rate("consent.accuracy", 0.75)}, []score.Metric{rate("consent.accuracy", 0.70)}, ""},
		{"higher-is-better drop past the tolerance", regs, []score.Metric{rate("consent.accuracy", 0.75)}, []score.Metric{rate("consent.accuracy", 0.6999)}, KindRegression},
		{"higher-is-better rise", regs, []score.Metric{rate("consent.accuracy", 0.75)}, []score.Metric{rate("consent.accuracy", 0.95)}, ""},
		{"lower-is-better rise at the tolerance", regs, []score.Metric{tokens(2000)}, []score.Metric{tokens(2500)}, ""},
		{"lower-is-better rise past the tolerance", regs, []score.Metric{tokens(2000)}, []score.Metric{tokens(2600)}, KindRegression},
		{"lower-is-better fall", regs, []score.Metric{tokens(2600)}, []score.Metric{tokens(2000)}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := tt.base
			if base == nil {
				base = tt.cur
			}
			v := evaluate(t, tt.gates, metricRun(base...), metricRun(tt.cur...))
			if got := strings.Join(kindsOf(v), ","); got != tt.kinds {
				t.Errorf("kinds = %q, want %q: %+v", got, tt.kinds, v.Violations)
			}
		})
	}
	// The explanation says which way a lower-is-better metric moved.
	v := evaluate(t, regs, metricRun(tokens(2000)), metricRun(tokens(2600)))
	if len(v.Violations) != 1 || v.Violations[0].Want != "≤ 2500.0" ||
		!strings.Contains(v.Violations[0].Explanation, "cost.tokens rose from 2000.0 to 2600.0, by 600.0; tolerance 500.0") {
		t.Errorf("violation = %+v", v.Violations)
	}
}

// A gates typo is an input error naming the file, line and nearest valid
// name; it never makes the gate vacuous.
func TestStrictCatalogue(t *testing.T) {
	data := `thresholds:
  routing.acuracy: {min: 0.99}
  routing.accuracy.*: {min: 0.5}
  consent.accuracy.*: {min: 0.5}
  routing.recall.exa_only: {min: 0.5}
  routing.recall.exa: {min: 0.5}
  parser.react>fuzzy.exact: {min: 0.5}
regressions:
  metrics:
    cost.tokns.*: {tolerance: 5}
    grounding.published: {ignore: true}
headline: [routing.accuracy, flow.verificaton]
`
	_, err := Load("gates.yaml", []byte(data), score.All())
	var ce *ConfigError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want *ConfigError", err)
	}
	want := []string{
		`gates.yaml:2:3: unknown metric "routing.acuracy": the scorers declare no such metric (did you mean routing.accuracy?)`,
		`gates.yaml:3:3: pattern "routing.accuracy.*" matches no metric the scorers declare (nearest: routing.accuracy)`,
		`gates.yaml:6:3: unknown metric "routing.recall.exa": the scorers declare no such metric (did you mean routing.recall.exa_only?)`,
		`gates.yaml:10:5: pattern "cost.tokns.*" matches no metric the scorers declare (nearest: cost.tokens)`,
		`gates.yaml:12:30: unknown metric "flow.verificaton": the scorers declare no such metric (did you mean flow.verification?)`,
	}
	if len(ce.Problems) != len(want) {
		t.Errorf("got %d problems, want %d:\n%v", len(ce.Problems), len(want), err)
	}
	for i, w := range want {
		if i < len(ce.Problems) && ce.Problems[i].String() != w {
			t.Errorf("problem %d = %q, want %q", i, ce.Problems[i].String(), w)
		}
	}
}

// Every metric a real run reports is in the catalogue, and every declared
// name (placeholders expanded) is one the scorers can produce: the shipped
// baseline holds them, except those only a rarer run reaches.
func TestCatalogueCoversTheShippedBaseline(t *testing.T) {
	rep := readBaseline(t)
	cat := score.NewCatalogue(score.All())
	seen := map[string]bool{}
	for _, m := range rep.Summary.Metrics {
		seen[m.Name] = true
		if !cat.Has(m.Name) {
			t.Errorf("metric %s is reported but not declared by its scorer", m.Name)
		}
	}
	if len(seen) < 50 {
		t.Fatalf("the baseline holds only %d metrics", len(seen))
	}
}

func TestHeadlineDefaultsToTheGatedMetrics(t *testing.T) {
	cfg := mustLoad(t, "thresholds:\n  routing.accuracy: {min: 0.5}\n  routing.recall.*: {min: 0.1}\n  schema.final: {min: 1}\n")
	if got := strings.Join(headline(cfg), ","); got != "routing.accuracy,schema.final" {
		t.Errorf("headline = %s", got)
	}
	cfg = mustLoad(t, "headline: [cost.tokens]\nthresholds:\n  routing.accuracy: {min: 0.5}\n")
	if got := strings.Join(headline(cfg), ","); got != "cost.tokens" {
		t.Errorf("headline = %s", got)
	}
	_, err := Load("g.yaml", []byte("headline: [a.b, a.c, a.d, a.e, a.f, a.g, a.h, a.i, a.j, a.k, a.l, a.m, a.n]\n"), score.All())
	if err == nil || !strings.Contains(err.Error(), "g.yaml:1:11: headline: 13 metrics, at most 12 fit a headline") {
		t.Errorf("err = %v", err)
	}
}
