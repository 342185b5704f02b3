package compare

import (
	"bytes"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/report/reporttest"
	"github.com/searchbench/searchbench/eval/stats"
)

// sampledRun builds a run with one exa_only routing case per entry: the
// samples it routed right.
func sampledRun(variant string, cases ...[]bool) report.Source {
	var recs []*report.CaseRecord
	for i, right := range cases {
		recs = append(recs, reporttest.RoutingSamples(i, string(rune('a'+i)), right...))
	}
	return report.Bytes(variant+".json", reporttest.JSON(reporttest.Meta(variant), recs))
}

func TestSampledRows(t *testing.T) {
	y, n := true, false
	a := sampledRun("a",
		[]bool{n, n, n, n, n}, []bool{n, y, n, n, n}, []bool{y, n, y, n, n}, []bool{y, y, y, y, y}, []bool{y, y, y, n, y}, []bool{n, n, n, n, y})
	b := sampledRun("b",
		[]bool{y, y, y, y, y}, []bool{y, y, y, n, y}, []bool{y, y, y, y, y}, []bool{y, y, y, y, y}, []bool{y, y, n, n, y}, []bool{y, n, y, y, y})
	res, err := Compare(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Sampled || res.MaxSamplesA != 5 || res.MaxSamplesB != 5 || len(res.Flips) != 0 {
		t.Fatalf("sampled %v, samples %d/%d, %d flips", res.Sampled, res.MaxSamplesA, res.MaxSamplesB, len(res.Flips))
	}
	r := row(t, res, "routing.accuracy")
	pairs := []stats.RatePair{{PassA: 0, NA: 5, PassB: 5, NB: 5}, {PassA: 1, NA: 5, PassB: 4, NB: 5}, {PassA: 2, NA: 5, PassB: 5, NB: 5}, {PassA: 5, NA: 5, PassB: 5, NB: 5}, {PassA: 4, NA: 5, PassB: 3, NB: 5}, {PassA: 1, NA: 5, PassB: 4, NB: 5}}
	wantP, _, _ := stats.SignFlipRates(pairs)
	// Differences in fifths: +5 +3 +3 0 −1 +3: 32 of 2^5 assignments have
	// |Σ| ≥ 13: p = 2·2/32 = 0.125.
	if !r.Sampled || !r.Exact || r.P != wantP || r.P != 0.125 {
		t.Errorf("p = %v (sampled %v, exact %v), want %v = 0.125", r.P, r.Sampled, r.Exact, wantP)
	}
	if r.Worse != 1 || r.Better != 4 || r.Pairs != 6 {
		t.Errorf("pairs %d (−%d +%d), want 6 (−1 +4)", r.Pairs, r.Worse, r.Better)
	}
	m := stats.MeanDifference(pairs)
	lo, hi := stats.SignFlipInterval(pairs, Alpha)
	// p = 0.125: not significant, so the interval that inverts the test
	// holds 0.
	if r.Effect != m || r.Lo != lo || r.Hi != hi || !(lo < m && m < hi) || lo > 0 {
		t.Errorf("effect %v [%v, %v], want %v [%v, %v] around 0", r.Effect, r.Lo, r.Hi, m, lo, hi)
	}
	if abs(r.MeanA-13.0/30) > 1e-12 || abs(r.MeanB-26.0/30) > 1e-12 {
		t.Errorf("case-averaged rates %v → %v, want 13/30 → 26/30", r.MeanA, r.MeanB)
	}
	if r.PassHatA == nil || r.PassHatA.K != 5 || r.PassHatA.Value != 1.0/6 || r.PassHatB == nil || r.PassHatB.Value != 0.5 ||
		!(r.PassHatA.Lo < 1.0/6 && 1.0/6 < r.PassHatA.Hi) {
		t.Errorf("pass^5 A %+v B %+v, want 1/6 and 1/2 with intervals", r.PassHatA, r.PassHatB)
	}
	if len(res.RateChanges) != 5 || res.RateChanges[0].Case != "routing/a" || res.RateChanges[0].B != (stats.Cluster{Pass: 5, N: 5}) {
		t.Errorf("rate changes %+v", res.RateChanges)
	}
	var buf bytes.Buffer
	if err := Write(&buf, res, Options{Verbose: true}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"exact sign-flip test", "Metrics (all",
		"p = 0.125", "Cases whose pass rate changed (1 fell, 4 rose)", "0/5→5/5", "pass^5 16.7% [",
		"Flaky cases (4 in A, 3 in B)", "routing/b │ fail pass fail fail fail │ pass pass pass fail pass"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, buf.String())
		}
	}
	if strings.Contains(buf.String(), "McNemar test on") || strings.Contains(buf.String(), "Flipped cases") {
		t.Error("a sampled comparison speaks of McNemar or flips")
	}
}

// One side sampled, the other not: like is compared with like, each case
// on the samples both sides have (here sample 1), with a warning.
func TestSampledAgainstOneSample(t *testing.T) {
	y, n := true, false
	a := sampledRun("a", []bool{n}, []bool{y}, []bool{n})
	b := sampledRun("b", []bool{y, y, n}, []bool{y, y, y}, []bool{n, n, y})
	res, err := Compare(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if res.Truncated != 3 || !strings.Contains(strings.Join(res.Warnings, " "), "A has up to 1 sample(s) per case and B up to 3: like is compared with like") {
		t.Errorf("truncated %d, warnings %q", res.Truncated, res.Warnings)
	}
	// Sample 1: a n→y, b y→y, c n→n.
	if r := row(t, res, "routing.accuracy"); r.Sampled || r.Better != 1 || r.Worse != 0 || r.SamplesB != 3 || r.MeanB != 2.0/3 {
		t.Errorf("row %+v", r)
	}
	// The summaries are re-aggregated over the same samples: B's accuracy
	// is over its first samples, not all nine.
	if r := row(t, res, "routing.accuracy"); r.B.Den != 3 || r.B.Num != 2 {
		t.Errorf("B's summary rate %d/%d, want 2/3 (its sample 1 of each case)", r.B.Num, r.B.Den)
	}
}

// The same the other way round: A's later samples are not compared with
// nothing.
func TestSampledAgainstOneSampleReversed(t *testing.T) {
	y, n := true, false
	a := sampledRun("a", []bool{y, y, n}, []bool{n, n, y}, []bool{y, y, y})
	b := sampledRun("b", []bool{y}, []bool{n}, []bool{y})
	res, err := Compare(a, b)
	if err != nil {
		t.Fatal(err)
	}
	r := row(t, res, "routing.accuracy")
	// Sample 1 of each: y→y, n→n, y→y: nothing changed.
	if r.Better != 0 || r.Worse != 0 || r.Pairs != 3 || r.Changed() || len(res.RateChanges) != 0 {
		t.Errorf("row %+v, rate changes %+v", r, res.RateChanges)
	}
}

func TestSampledOutputCells(t *testing.T) {
	y, n := true, false
	// Case a: sample 1 alike in A and B, later samples differ: a rate
	// change without a changed check.
	a := sampledRun("a", []bool{y, n, n, n}, []bool{y, y, y, y})
	b := sampledRun("b", []bool{y, y, y, n}, []bool{y, y, y, y})
	res, err := Compare(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.RateChanges) != 1 || len(res.RateChanges[0].Checks) != 0 {
		t.Fatalf("rate changes %+v", res.RateChanges)
	}
	r := row(t, res, "routing.accuracy")
	var buf bytes.Buffer
	if err := Write(&buf, res, Options{Verbose: true, Width: -1}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	effect := effectCell(r)
	for _, want := range []string{"│ " + effect + " │", "│ 62.5% (2 cases, 8 samples)  │ 87.5% (2 cases, 8 samples)  │",
		"routing/a │ 1/4→3/4 │ rose", "Cases whose pass rate changed (0 fell, 1 rose)",
		"each sample's result in order", "routing/a │ pass fail fail fail │ pass pass pass fail"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if ph := (&PassHat{K: 3, Value: 0.25, Lo: 0.1, Hi: 0.5}); passHat(nil) != "–" || passHat(ph) != "pass^3 25.0% [10.0, 50.0]" {
		t.Errorf("passHat: %q %q", passHat(nil), passHat(ph))
	}

	// No flaky case and no rate change.
	same := sampledRun("a", []bool{y, y}, []bool{n, n})
	res, err = Compare(same, same)
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	if err := Write(&buf, res, Options{Verbose: true}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Flaky cases (0 in A, 0 in B)", "no case ended differently across its samples in either run", "No case's pass rate changed between A and B."} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, buf.String())
		}
	}
}

// The flaky cases of A and B are joined in case order.
func TestFlakyPairsOrder(t *testing.T) {
	y, n := true, false
	a := sampledRun("a", []bool{y, y}, []bool{y, n})
	b := sampledRun("b", []bool{n, y}, []bool{y, y})
	res, err := Compare(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Flaky) != 2 || res.Flaky[0].Case != "routing/a" || res.Flaky[0].A != nil || res.Flaky[1].Case != "routing/b" || res.Flaky[1].B != nil {
		t.Errorf("flaky %+v", res.Flaky)
	}
}

// In a sampled comparison a one-sample case keeps a one-sample row, and
// its flip is listed with the rate changes; the changes come in case order
// whatever the order of B's records.
func TestSampledWithOneSampleCases(t *testing.T) {
	y, n := true, false
	meta := reporttest.Meta("a")
	a := report.Bytes("a.json", reporttest.JSON(meta, []*report.CaseRecord{
		reporttest.RoutingSamples(0, "r", y, n, y),
		reporttest.Consent(1, "c", "YES", "yes please", "YES", "yes.phrase"),
		reporttest.RoutingSamples(2, "s", y, y, y),
	}))
	b := report.Bytes("b.json", reporttest.JSON(reporttest.Meta("b"), []*report.CaseRecord{
		reporttest.RoutingSamples(2, "s", n, y, y),
		reporttest.Consent(1, "c", "YES", "yes please", "NO", "no.phrase"),
		reporttest.RoutingSamples(0, "r", y, y, y),
	}))
	res, err := Compare(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if r := row(t, res, "consent.accuracy"); r.Sampled || !r.Paired {
		t.Errorf("consent.accuracy row %+v: one sample a side, not a sampled row", r)
	}
	if r := row(t, res, "routing.accuracy"); !r.Sampled {
		t.Errorf("routing.accuracy row %+v", r)
	}
	var keys []string
	for _, c := range res.RateChanges {
		keys = append(keys, c.Case)
	}
	if strings.Join(keys, " ") != "routing/r consent/c routing/s" || len(res.Flips) != 0 {
		t.Errorf("rate changes %v, flips %d", keys, len(res.Flips))
	}
	var buf bytes.Buffer
	if err := Write(&buf, res, Options{Verbose: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "(summary.samples.flaky)\n\nCases whose pass rate changed (2 fell, 1 rose)") {
		t.Errorf("output:\n%s", buf.String())
	}
	// An unsampled comparison has flips and no rate changes.
	one := report.Bytes("o.json", reporttest.JSON(meta, []*report.CaseRecord{reporttest.Consent(1, "c", "YES", "yes please", "YES", "yes.phrase")}))
	two := report.Bytes("t.json", reporttest.JSON(meta, []*report.CaseRecord{reporttest.Consent(1, "c", "YES", "yes please", "NO", "no.phrase")}))
	if res, err := Compare(one, two); err != nil || res.Sampled || len(res.RateChanges) != 0 || len(res.Flips) != 1 {
		t.Errorf("unsampled: %v %+v", err, res)
	}
}

// Two reports of one variant hash in different modes are not "the same
// prompts and settings".
func TestSameHashOtherMode(t *testing.T) {
	ma, mb := reporttest.Meta("seed"), reporttest.Meta("seed")
	ma.VariantHash, mb.VariantHash = "abc", "abc"
	mb.Mode = "structured"
	for _, w := range warnings(ma, mb) {
		if strings.Contains(w, "same variant hash") {
			t.Errorf("warning %q for different modes", w)
		}
	}
	if w := warnings(ma, ma); len(w) != 1 || !strings.Contains(w[0], "same variant hash (abc)") {
		t.Errorf("same hash and mode: %q", w)
	}
}
