package report_test

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/report/reporttest"
	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/eval/stats"
)

func metricOf(t *testing.T, s report.Summary, name string) score.Metric {
	t.Helper()
	for _, m := range s.Metrics {
		if m.Name == name {
			return m
		}
	}
	t.Fatalf("no metric %s", name)
	return score.Metric{}
}

func TestSampledSummary(t *testing.T) {
	y, n := true, false
	always := reporttest.RoutingSamples(0, "always", y, y, y, y, y)
	flaky := reporttest.RoutingSamples(1, "flaky", y, n, y, n, n)
	never := reporttest.RoutingSamples(2, "never", n, n, n, n, n)
	single := reporttest.Consent(3, "yes-please", "YES", "yes please", "YES", "yes.phrase")
	sum := reporttest.Summary([]*report.CaseRecord{always, flaky, never, single})

	// The per-case rates are in the records.
	if flaky.PassRate == nil || *flaky.PassRate != 0.4 || flaky.MetricRates["routing.accuracy"] != 0.4 {
		t.Errorf("flaky case: pass_rate %v, metric_rates %v", flaky.PassRate, flaky.MetricRates)
	}
	if single.PassRate != nil || single.MetricRates != nil || single.Samples != nil {
		t.Error("a one-sample case carries sample fields")
	}

	// The mean is over every sample, the interval over cases.
	acc := metricOf(t, sum, "routing.accuracy")
	if acc.Num != 7 || acc.Den != 15 {
		t.Errorf("routing.accuracy %d/%d, want 7/15", acc.Num, acc.Den)
	}
	lo, hi := stats.ClusterInterval([]stats.Cluster{{Pass: 5, N: 5}, {Pass: 2, N: 5}, {Pass: 0, N: 5}})
	if acc.Lo != stats.Round(lo, 6) || acc.Hi != stats.Round(hi, 6) {
		t.Errorf("routing.accuracy CI (%v, %v), want the case-level interval (%v, %v)", acc.Lo, acc.Hi, lo, hi)
	}
	if wlo, whi := stats.Wilson(7, 15); acc.Lo == stats.Round(wlo, 6) && acc.Hi == stats.Round(whi, 6) {
		t.Error("routing.accuracy kept the Wilson interval over samples")
	}
	// A one-sample metric keeps its Wilson interval.
	con := metricOf(t, sum, "consent.accuracy")
	if wlo, whi := stats.Wilson(1, 1); con.Lo != stats.Round(wlo, 6) || con.Hi != stats.Round(whi, 6) {
		t.Errorf("consent.accuracy CI (%v, %v) is not Wilson's", con.Lo, con.Hi)
	}

	ss := sum.Samples
	if ss == nil || ss.MaxSamples != 5 || ss.SampledCases != 3 {
		t.Fatalf("samples section %+v", ss)
	}
	var sm *report.SampleMetric
	for i := range ss.Metrics {
		if ss.Metrics[i].Name == "routing.accuracy" {
			sm = &ss.Metrics[i]
		}
	}
	if sm == nil || ss.Metrics[0].Name != "case" {
		t.Fatalf("samples metrics %+v", ss.Metrics)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-6 }
	// pass^k: always 1; flaky C(2,k)/C(5,k); never 0. pass@k: always 1;
	// flaky 1−C(3,k)/C(5,k); never 0.
	wantHat := []float64{7.0 / 15, (1 + 0.1) / 3, 1.0 / 3, 1.0 / 3, 1.0 / 3}
	wantAt := []float64{7.0 / 15, (1 + 0.7) / 3, (1 + 0.9) / 3, 2.0 / 3, 2.0 / 3}
	for k := range 5 {
		if !near(sm.PassHatK[k], wantHat[k]) || !near(sm.PassAtK[k], wantAt[k]) || sm.CasesAtK[k] != 3 {
			t.Errorf("k=%d: pass^k %v pass@k %v over %d cases, want %v %v over 3", k+1, sm.PassHatK[k], sm.PassAtK[k], sm.CasesAtK[k], wantHat[k], wantAt[k])
		}
	}

	// Only the case whose samples differ is flaky, with what differed.
	if len(ss.Flaky) != 1 || ss.Flaky[0].Case != "routing/flaky" {
		t.Fatalf("flaky %+v", ss.Flaky)
	}
	f := ss.Flaky[0]
	if strings.Join(f.Results, " ") != "pass fail pass fail fail" {
		t.Errorf("results %v", f.Results)
	}
	if len(f.Differed) == 0 || f.Differed[0] != "route: exa_only | tavily_only | exa_only | tavily_only | tavily_only" {
		t.Errorf("differed %q", f.Differed)
	}

	// The terminal's summary sums the samples up in one line; -v shows
	// both tables.
	meta, _ := reporttest.Run()
	terminal := func(opt report.TextOptions) string {
		var b bytes.Buffer
		if err := report.Write(report.NewTerminal(&b, opt), &report.Report{Meta: meta, Cases: []*report.CaseRecord{always, flaky, never, single}, Summary: sum}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	if got := terminal(report.TextOptions{}); !strings.Contains(got, "Samples: 3 cases with more than one sample (up to 5); pass^5 ") || !strings.Contains(got, "; 1 flaky") {
		t.Errorf("terminal summary lacks the samples line:\n%s", got)
	}
	verbose := terminal(report.TextOptions{Verbose: true})
	for _, want := range []string{"Samples: 3 cases with more than one sample (up to 5)", "Flaky cases (1): outcomes that differ across samples", "│ pass fail pass"} {
		if !strings.Contains(verbose, want) {
			t.Errorf("terminal report (-v) lacks %q:\n%s", want, verbose)
		}
	}
}

// A sampled run's JSON reads back into the same summary (merge and the gate
// re-aggregate from it).
func TestSampledJSONRoundTrip(t *testing.T) {
	y, n := true, false
	recs := []*report.CaseRecord{
		reporttest.RoutingSamples(0, "a", y, n, y),
		reporttest.RoutingSamples(1, "b", n, n, y),
		reporttest.Consent(2, "yes-please", "YES", "yes please", "YES", "yes.phrase"),
	}
	meta, _ := reporttest.Run()
	js := reporttest.JSON(meta, recs)
	rep, err := report.ReadAll("x.json", bytes.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	again := reporttest.JSON(meta, rep.Cases)
	if !bytes.Equal(js, again) {
		t.Error("a sampled report re-aggregated from its JSON differs")
	}
	if !bytes.Contains(js, []byte(`"samples":[{"sample":2,`)) || !bytes.Contains(js, []byte(`"pass_hat_k":[`)) {
		t.Error("the JSON lacks the samples of a case or the samples summary")
	}
}

// One sample per case: no samples section and no sample fields, so the
// report is what it was before samples existed.
func TestUnsampledRunHasNoSampleFields(t *testing.T) {
	meta, recs := reporttest.Run()
	js := reporttest.JSON(meta, recs)
	for _, field := range []string{`"samples"`, `"pass_rate"`, `"metric_rates"`, `Flaky`} {
		if bytes.Contains(js, []byte(field)) {
			t.Errorf("a one-sample report holds %s", field)
		}
	}
}

func TestSampleErrorMakesTheCaseAnError(t *testing.T) {
	r := &report.CaseRecord{Pass: true}
	r.SetSamples([]report.SampleRecord{{Sample: 2, Pass: true}, {Sample: 3, Error: "cassette miss: POST /v1/chat/completions"}, {Sample: 4, Error: "later"}})
	if r.Pass || r.Error != "sample 3: cassette miss: POST /v1/chat/completions" {
		t.Fatalf("case = pass %v, error %q; want the first failing sample's error", r.Pass, r.Error)
	}
	a := report.NewAggregate(nil)
	a.Add(r)
	if s := a.Summary(); s.Errors != 1 || s.Passed != 0 {
		t.Errorf("summary = %+v; want the case counted as an error", s)
	}
}

// The sampled run's method note says what is computed: the per-case pass
// rates and routing's per-label precision, recall and F1 have intervals
// over cases and n as cases (passes/samples); the other rates keep n as
// passes/samples and the Wilson interval over them.
func TestSampleMethodSaysWhatIsComputed(t *testing.T) {
	y, n := true, false
	recs := []*report.CaseRecord{
		reporttest.RoutingSamples(0, "always", y, y, y, y, y),
		reporttest.RoutingSamples(1, "flaky", y, n, y, n, n),
		reporttest.RoutingSamples(2, "never", n, n, n, n, n),
		reporttest.Consent(3, "yes-please", "YES", "yes please", "YES", "yes.phrase"),
	}
	sum := reporttest.Summary(recs)
	for _, m := range sum.Metrics {
		if m.Lo == 0 && m.Hi == 0 {
			continue // no interval (evidence.backed_share)
		}
		// The consent case has one sample: its rates are over cases already.
		sampled := !strings.HasPrefix(m.Name, "consent.")
		perLabel := strings.HasPrefix(m.Name, "routing.precision.") || strings.HasPrefix(m.Name, "routing.recall.") || strings.HasPrefix(m.Name, "routing.f1.")
		overCases := sampled && (m.Paired && m.Unit == score.UnitRate || perLabel)
		if overCases != (m.Cases > 0) {
			t.Errorf("%s: interval over %d cases, want over cases %v", m.Name, m.Cases, overCases)
		}
		if overCases && m.Unit == score.UnitRate {
			// Precision counts the cases that took the label.
			if got, want := report.FormatN(m), fmt.Sprintf("%d (%d/%d)", m.Cases, m.Num, m.Den); got != want || m.Cases > 3 || !perLabel && m.Cases != 3 {
				t.Errorf("%s: n %q, want %q", m.Name, got, want)
			}
		}
		if !overCases && m.Unit == score.UnitRate {
			if wlo, whi := stats.Wilson(m.Num, m.Den); m.Lo != stats.Round(wlo, 6) || m.Hi != stats.Round(whi, 6) {
				t.Errorf("%s: CI (%v, %v) is not the Wilson interval over its %d samples", m.Name, m.Lo, m.Hi, m.Den)
			}
		}
	}
	method := sum.Samples.Method
	for _, want := range []string{"every rate in Metrics pools all samples", "Each per-case pass rate, and routing's per-label precision, recall and F1, has its 95% CI over cases",
		"its n is the cases, then passes/samples in brackets", "The other rates, whose n is passes/samples alone, keep the Wilson interval over samples"} {
		if !strings.Contains(method, want) {
			t.Errorf("the method lacks %q:\n%s", want, method)
		}
	}
	for _, stale := range []string{"n counts samples", "per-label recall"} {
		if strings.Contains(method, stale) {
			t.Errorf("the method still says %q:\n%s", stale, method)
		}
	}
}
