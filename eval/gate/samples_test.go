package gate

import (
	"strings"
	"testing"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/report/reporttest"
	"github.com/searchbench/searchbench/eval/score"
)

func sampled(variant string, right ...[]bool) report.Source {
	var recs []*report.CaseRecord
	for i, r := range right {
		recs = append(recs, reporttest.RoutingSamples(i, string(rune('a'+i)), r...))
	}
	return report.Bytes(variant+".json", reporttest.JSON(reporttest.Meta(variant), recs))
}

// A sampled case is judged by Fisher's exact test on its samples, the
// family corrected with Tarone–Holm: draws an unchanged model makes are not
// regressions, a clean break is.
func TestSampledCasesAreJudgedByFishersTest(t *testing.T) {
	y, n := true, false
	base := sampled("seed", []bool{y, y, y, y, y}, []bool{y, y, y, y, n}, []bool{n, n, n, n, n}, []bool{y, y, y, y, y})
	tests := []struct {
		name  string
		gates string
		cur   report.Source
		want  []string // kind metric case
	}{
		{"one unlucky draw is no regression", "regressions: {flips: true}\n",
			sampled("seed", []bool{y, n, y, y, y}, []bool{y, y, n, y, n}, []bool{n, n, n, n, n}, []bool{y, y, y, y, y}), nil},
		{"two lost draws of five are not evidence either (p = 0.22)", "regressions: {flips: true}\n",
			sampled("seed", []bool{y, n, y, n, y}, []bool{y, y, y, y, n}, []bool{n, n, n, n, n}, []bool{y, y, y, y, y}), nil},
		{"a clean break is (p = 1/252)", "regressions: {flips: true}\n",
			sampled("seed", []bool{n, n, n, n, n}, []bool{y, y, y, y, n}, []bool{n, n, n, n, n}, []bool{y, y, y, y, y}),
			[]string{"rate_drop routing routing/a"}},
		{"pass_rate_drop above the change makes it a note", "regressions: {flips: true, pass_rate_drop: 0.9}\n",
			sampled("seed", []bool{n, n, n, n, y}, []bool{y, y, y, y, n}, []bool{n, n, n, n, n}, []bool{y, y, y, y, y}), nil},
		{"flips off: no per-case test", "regressions: {flips: false}\n",
			sampled("seed", []bool{n, n, n, n, n}, []bool{y, y, y, y, n}, []bool{n, n, n, n, n}, []bool{y, y, y, y, y}), nil},
		{"improvements: the same test upward", "regressions: {flips: true, improvements: true}\n",
			sampled("seed", []bool{y, y, y, y, y}, []bool{y, y, y, y, n}, []bool{y, y, y, y, y}, []bool{y, y, y, y, y}),
			[]string{"improved routing routing/c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := Evaluate(mustLoad(t, tt.gates), tt.cur, base, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, x := range v.Violations {
				if x.Case != "" {
					got = append(got, x.Kind+" "+x.Metric+" "+x.Case)
				}
			}
			if strings.Join(got, "; ") != strings.Join(tt.want, "; ") {
				t.Errorf("per-case violations %q, want %q", got, tt.want)
			}
			for _, x := range v.Violations {
				if x.Kind == KindRateDrop && (!strings.Contains(x.Explanation, "fell from 5/5 to 0/5 samples") || !strings.Contains(x.Explanation, "samples 1–5: route:") ||
					!strings.Contains(x.Explanation, "Fisher's exact test, one-sided: p = 0.004 ≤ 0.025")) {
					t.Errorf("explanation %q", x.Explanation)
				}
			}
			if len(tt.want) > 0 && !strings.Contains(strings.Join(v.Notes, "\n"), "Fisher's exact test (one-sided), Tarone–Holm at α 0.025") {
				t.Errorf("no note names the test and the correction: %q", v.Notes)
			}
		})
	}
}

// A one-sample baseline against a sampled run: the baseline's one outcome
// is its count.
func TestFishersTestFromOneSampleBaseline(t *testing.T) {
	y, n := true, false
	base := sampled("seed", []bool{y}, []bool{n})
	cur := sampled("seed", []bool{n, n, n, n, n}, []bool{n, y, n, n, n})
	v, err := Evaluate(mustLoad(t, "regressions: {flips: true}\n"), cur, base, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// 1/1 → 0/5 has p = 1/6: one baseline draw is no evidence of a fall.
	for _, x := range v.Violations {
		if x.Kind == KindRateDrop {
			t.Errorf("one baseline sample judged a fall: %+v", x)
		}
	}
	if !strings.Contains(strings.Join(v.Notes, "\n"), "the baseline has up to 1 sample(s) per case and this run up to 5") {
		t.Errorf("no note of the different samples: %q", v.Notes)
	}
}

func TestPassRateDropConfig(t *testing.T) {
	for _, bad := range []string{"regressions: {pass_rate_drop: 1}\n", "regressions: {pass_rate_drop: 1.5}\n", "regressions: {pass_rate_drop: -0.1}\n"} {
		_, err := Load("gates.yaml", []byte(bad), score.All())
		if err == nil || !strings.Contains(err.Error(), "gates.yaml:1:") || !strings.Contains(err.Error(), "must be a fraction in [0, 1)") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if cfg := mustLoad(t, "regressions: {pass_rate_drop: 0.2}\n"); cfg.MinEffect != 0.2 {
		t.Errorf("pass_rate_drop 0.2: %v", cfg.MinEffect)
	}
	if cfg := mustLoad(t, ""); cfg.MinEffect != 0 || cfg.Alpha != DefaultAlpha {
		t.Errorf("defaults: min effect %v, alpha %v", cfg.MinEffect, cfg.Alpha)
	}
	for _, bad := range []string{"regressions: {alpha: 0}\n", "regressions: {alpha: 0.5}\n"} {
		if _, err := Load("gates.yaml", []byte(bad), score.All()); err == nil || !strings.Contains(err.Error(), "alpha (the family-wise error level") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if cfg := mustLoad(t, "regressions: {alpha: 0.01}\n"); cfg.Alpha != 0.01 {
		t.Errorf("alpha 0.01: %v", cfg.Alpha)
	}
}

func strip(rec *report.CaseRecord, scorer string) *report.CaseRecord {
	keep := func(rs []score.Result) []score.Result {
		var out []score.Result
		for _, r := range rs {
			if r.Scorer != scorer {
				out = append(out, r)
			}
		}
		return out
	}
	rec.Scores = keep(rec.Scores)
	for i := range rec.Samples {
		rec.Samples[i].Scores = keep(rec.Samples[i].Scores)
	}
	return rec
}

// A scorer that judged the case's samples in the baseline and judges none
// now is vanished, not a fall; a scorer new in the run has nothing to
// compare.
func TestSampledScorersComeAndGo(t *testing.T) {
	y := true
	src := func(recs ...*report.CaseRecord) report.Source {
		return report.Bytes("x.json", reporttest.JSON(reporttest.Meta("seed"), recs))
	}
	full := func() *report.CaseRecord { return reporttest.RoutingSamples(0, "a", y, y, y, y, y) }
	v, err := Evaluate(mustLoad(t, "regressions: {flips: true, vanished: false}\n"), src(strip(full(), "routing")), src(full()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, x := range v.Violations {
		got = append(got, x.Kind+" "+x.Metric+" "+x.Want+" → "+x.Got)
	}
	// The scorer no longer judges the case: that is the vanished rule's to
	// say (off here), not a fall of the case's pass rate.
	if len(got) != 0 {
		t.Errorf("violations %q", got)
	}
	v, err = Evaluate(mustLoad(t, "regressions: {flips: true, improvements: true}\n"), src(full()), src(strip(full(), "routing")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range v.Violations {
		if x.Case != "" {
			t.Errorf("a scorer new in the run: %+v", x)
		}
	}
}

// A new case is a new failure when any of its samples fails.
func TestNewSampledCaseFailing(t *testing.T) {
	y, n := true, false
	base := sampled("seed", []bool{y, y, y})
	cur := report.Bytes("cur.json", reporttest.JSON(reporttest.Meta("seed"), []*report.CaseRecord{
		reporttest.RoutingSamples(0, "a", y, y, y), reporttest.RoutingSamples(1, "new", y, y, n),
	}))
	v, err := Evaluate(mustLoad(t, "regressions: {flips: true}\n"), cur, base, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Violations) != 1 || v.Violations[0].Kind != KindNewFailure || v.Violations[0].Case != "routing/new" {
		t.Errorf("violations %+v", v.Violations)
	}
}

// The explanations give the counts, the test and the failing samples.
func TestRateExplanations(t *testing.T) {
	y, n := true, false
	base := sampled("seed", []bool{y, y, y, y, y}, []bool{n, n, n, n, n})
	cur := sampled("seed", []bool{n, n, n, n, n}, []bool{y, y, y, y, y})
	v, err := Evaluate(mustLoad(t, "regressions: {flips: true, improvements: true}\n"), cur, base, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var expl []string
	for _, x := range v.Violations {
		if x.Metric == "routing" {
			expl = append(expl, Header(x)+"\n"+x.Explanation+"\n"+x.Next)
		}
	}
	all := strings.Join(expl, "\n")
	for _, want := range []string{
		"RATE_DROP · routing/a · routing: 5/5 → 0/5",
		"the routing pass rate fell from 5/5 to 0/5 samples, beyond the draws of an unchanged model",
		"IMPROVED · routing/b · routing: 0/5 → 5/5",
		"the routing pass rate rose from 0/5 to 5/5 samples",
		"searchbench run --filter id:a -v shows each sample) or accept the trade-off: searchbench accept routing/a",
		"update the baseline on purpose (make baseline)",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("explanations lack %q:\n%s", want, all)
		}
	}
}

// An empty baseline or an empty run says nothing of samples.
func TestNoSamplesNoteForEmptyReport(t *testing.T) {
	y := true
	empty := report.Bytes("empty.json", reporttest.JSON(reporttest.Meta("seed"), nil))
	for _, tt := range []struct{ cur, base report.Source }{{sampled("seed", []bool{y, y}), empty}, {empty, sampled("seed", []bool{y, y})}} {
		v, err := Evaluate(mustLoad(t, "regressions: {removed_cases: false}\n"), tt.cur, tt.base, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(strings.Join(v.Notes, "\n"), "sample(s) per case") {
			t.Errorf("notes %q", v.Notes)
		}
	}
}

// Variant hashes: a mismatch only when both reports have one and they
// differ; --allow-mismatch turns it into a note.
func TestVariantHashMismatch(t *testing.T) {
	y := true
	withHash := func(h string) report.Source {
		m := reporttest.Meta("seed")
		m.VariantHash = h
		return report.Bytes("r.json", reporttest.JSON(m, []*report.CaseRecord{reporttest.RoutingSamples(0, "a", y)}))
	}
	for _, tt := range []struct {
		cur, base string
		mismatch  bool
	}{{"aaa", "bbb", true}, {"", "bbb", false}, {"aaa", "", false}, {"aaa", "aaa", false}} {
		_, err := Evaluate(mustLoad(t, ""), withHash(tt.cur), withHash(tt.base), Options{})
		if IsMismatch(err) != tt.mismatch {
			t.Errorf("hash %q against %q: %v", tt.cur, tt.base, err)
		}
	}
	v, err := Evaluate(mustLoad(t, ""), withHash("aaa"), withHash("bbb"), Options{AllowMismatch: true})
	if err != nil || !strings.Contains(strings.Join(v.Notes, "\n"), "differs from this run's seed (hash aaa)/model (allowed)") {
		t.Errorf("allowed mismatch: %v %q", err, v.Notes)
	}
	v, err = Evaluate(mustLoad(t, ""), withHash("aaa"), withHash("aaa"), Options{AllowMismatch: true})
	if err != nil || strings.Contains(strings.Join(v.Notes, "\n"), "(allowed)") {
		t.Errorf("same variant with --allow-mismatch: %v %q", err, v.Notes)
	}
}
