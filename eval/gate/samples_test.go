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

func TestPassRateDrop(t *testing.T) {
	y, n := true, false
	base := sampled("seed", []bool{y, y, y, y, y}, []bool{y, y, y, y, n}, []bool{n, n, n, n, y}, []bool{y, y, y, y, y})
	tests := []struct {
		name  string
		gates string
		cur   report.Source
		want  []string // kind metric case
	}{
		{"one unlucky draw is no regression", "regressions: {flips: true}\n",
			sampled("seed", []bool{y, n, y, y, y}, []bool{y, y, n, y, n}, []bool{n, n, n, n, y}, []bool{y, y, y, y, y}), nil},
		{"a fall of 0.4 is", "regressions: {flips: true}\n",
			sampled("seed", []bool{y, n, y, n, y}, []bool{y, y, y, y, n}, []bool{n, n, n, n, y}, []bool{y, y, y, y, y}),
			[]string{"rate_drop routing routing/a"}},
		{"pass_rate_drop sets the fall", "regressions: {flips: true, pass_rate_drop: 0.2}\n",
			sampled("seed", []bool{y, n, y, y, y}, []bool{y, y, y, y, n}, []bool{n, n, n, n, y}, []bool{y, y, y, y, y}),
			[]string{"rate_drop routing routing/a"}},
		{"flips off: no rate rule", "regressions: {flips: false}\n",
			sampled("seed", []bool{n, n, n, n, n}, []bool{y, y, y, y, n}, []bool{n, n, n, n, y}, []bool{y, y, y, y, y}), nil},
		{"improvements: a rise as large", "regressions: {flips: true, improvements: true}\n",
			sampled("seed", []bool{y, y, y, y, y}, []bool{y, y, y, y, n}, []bool{y, y, y, n, y}, []bool{y, y, y, y, y}),
			[]string{"improved routing routing/c"}},
		{"a sample that did not run counts as failed", "regressions: {flips: true}\n",
			report.Bytes("cur.json", reporttest.JSON(reporttest.Meta("seed"), []*report.CaseRecord{
				reporttest.Sampled(reporttest.Routing(0, "a", "exa_only", reporttest.OKMessage(), "exa_search"),
					reporttest.Errored(0, "a", "exa_only", "cassette miss"), reporttest.Errored(0, "a", "exa_only", "cassette miss"),
					reporttest.Routing(0, "a", "exa_only", reporttest.OKMessage(), "exa_search"),
					reporttest.Routing(0, "a", "exa_only", reporttest.OKMessage(), "exa_search")),
				reporttest.RoutingSamples(1, "b", y, y, y, y, n), reporttest.RoutingSamples(2, "c", n, n, n, n, y), reporttest.RoutingSamples(3, "d", y, y, y, y, y),
			})),
			// Every scorer of the case lost the two samples.
			[]string{"rate_drop flow routing/a", "rate_drop limits routing/a", "rate_drop markdown routing/a", "rate_drop routing routing/a", "rate_drop schema routing/a"}},
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
				if x.Kind == KindRateDrop && (!strings.Contains(x.Explanation, "passed 5 of 5 samples in the baseline") || !strings.Contains(x.Explanation, "sample 2")) {
					t.Errorf("explanation %q", x.Explanation)
				}
			}
		})
	}
}

// A one-sample baseline against a sampled run: the baseline's one outcome
// is its rate.
func TestPassRateDropFromOneSampleBaseline(t *testing.T) {
	y, n := true, false
	base := sampled("seed", []bool{y}, []bool{n})
	cur := sampled("seed", []bool{y, n, n, y, n}, []bool{n, y, n, n, n})
	v, err := Evaluate(mustLoad(t, "regressions: {flips: true}\n"), cur, base, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Violations) == 0 || v.Violations[len(v.Violations)-1].Kind != KindRateDrop || v.Violations[len(v.Violations)-1].Case != "routing/a" {
		t.Errorf("violations %+v", v.Violations)
	}
	if !strings.Contains(strings.Join(v.Notes, "\n"), "the baseline has up to 1 sample(s) per case and this run up to 5") {
		t.Errorf("no note of the different samples: %q", v.Notes)
	}
}

func TestPassRateDropConfig(t *testing.T) {
	for _, bad := range []string{"regressions: {pass_rate_drop: 0}\n", "regressions: {pass_rate_drop: 1.5}\n", "regressions: {pass_rate_drop: -0.1}\n"} {
		_, err := Load("gates.yaml", []byte(bad), score.All())
		if err == nil || !strings.Contains(err.Error(), "gates.yaml:1:") || !strings.Contains(err.Error(), "pass_rate_drop must be a fraction in (0, 1]") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if cfg := mustLoad(t, "regressions: {pass_rate_drop: 1}\n"); cfg.PassRateDrop != 1 {
		t.Errorf("pass_rate_drop 1 (every sample lost): %v", cfg.PassRateDrop)
	}
	if cfg := mustLoad(t, ""); cfg.PassRateDrop != DefaultPassRateDrop {
		t.Errorf("default pass_rate_drop %v", cfg.PassRateDrop)
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
// now lost every sample; a scorer new in the run has nothing to compare.
func TestPassRateDropScorers(t *testing.T) {
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
	if strings.Join(got, "; ") != "rate_drop routing pass rate above 60% (5/5 in the baseline) → 0/5" {
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

// The explanations give the fall and the rise in points.
func TestRateExplanations(t *testing.T) {
	y, n := true, false
	base := sampled("seed", []bool{y, y, y, y, y}, []bool{n, n, n, n, n})
	cur := sampled("seed", []bool{y, y, y, n, n}, []bool{y, y, y, y, n})
	v, err := Evaluate(mustLoad(t, "regressions: {flips: true, improvements: true}\n"), cur, base, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var expl []string
	for _, x := range v.Violations {
		if x.Metric == "routing" {
			expl = append(expl, x.Explanation)
		}
	}
	all := strings.Join(expl, "\n")
	if !strings.Contains(all, "its pass rate fell by 40 points, at least pass_rate_drop (40)") || !strings.Contains(all, "its pass rate rose by 80 points since the baseline") {
		t.Errorf("explanations:\n%s", all)
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
