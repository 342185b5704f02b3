package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/eval/stats"
)

// Samples: a case recorded with record --samples N is replayed N times,
// once per cassette. Its CaseRecord's own fields are sample 1 (the sample a
// one-sample recording holds, so every consumer that reads one sample reads
// what it always did); samples 2..N follow in Samples. A run without
// sampled cases writes exactly what it did before samples existed.

// SampleRecord is one further sample (k ≥ 2) of a sampled case.
type SampleRecord struct {
	Sample int            `json:"sample"`
	Pass   bool           `json:"pass"`
	Error  string         `json:"error,omitempty"`
	Scores []score.Result `json:"scores"`
	Turns  []TurnSummary  `json:"turns,omitempty"`
	// Trace is the sample's evidence, joined to the case's trace by
	// SetSamples (traces.jsonl.gz, not report.json).
	Trace *CaseTrace `json:"-"`
}

// NewSampleRecord is NewCaseRecord for sample k of a case.
func NewSampleRecord(k int, in *score.Input, results []score.Result, runErr error) SampleRecord {
	r := NewCaseRecord(0, in, results, runErr)
	return SampleRecord{Sample: k, Pass: r.Pass, Error: r.Error, Scores: r.Scores, Turns: r.Turns, Trace: r.Trace}
}

// SetSamples attaches samples 2..N to r and fills in its per-case pass
// rates over all N samples.
func (r *CaseRecord) SetSamples(samples []SampleRecord) {
	if len(samples) == 0 {
		return
	}
	r.Samples = samples
	if r.Trace != nil {
		r.Trace.Samples = nil
		for _, s := range samples {
			st := SampleTrace{Sample: s.Sample}
			if s.Trace != nil {
				st.Session = s.Trace.Session
			}
			r.Trace.Samples = append(r.Trace.Samples, st)
		}
	}
	// A sample that could not run makes the case an error, as its first
	// sample's would: otherwise the run would exit 0 over a draw it never
	// made, counting it only as a failed sample.
	if r.Error == "" {
		for _, s := range samples {
			if s.Error != "" {
				r.Error = fmt.Sprintf("sample %d: %s", s.Sample, s.Error)
				r.Pass = false
				break
			}
		}
	}
	pass := 0
	r.EachSample(func(s SampleRecord) {
		if s.Pass {
			pass++
		}
	})
	rate := stats.Ratio(pass, r.SampleCount())
	r.PassRate = &rate
	r.MetricRates = map[string]float64{}
	for m, c := range r.MetricClusters() {
		r.MetricRates[m] = stats.Round(stats.Ratio(c.Pass, c.N), metricPlaces)
	}
}

// SampleCount is how many samples r holds: 1 for a case that was not
// sampled.
func (r *CaseRecord) SampleCount() int { return 1 + len(r.Samples) }

// EachSample calls f for every sample of r in order, sample 1 (r's own
// fields) first.
func (r *CaseRecord) EachSample(f func(SampleRecord)) {
	f(SampleRecord{Sample: 1, Pass: r.Pass, Error: r.Error, Scores: r.Scores, Turns: r.Turns})
	for _, s := range r.Samples {
		f(s)
	}
}

// MetricClusters returns, per metric, how many of r's samples passed it of
// those that have an outcome for it: exactly the outcomes the aggregators
// count (a sample that did not run has no scores, so no outcome, as a
// one-sample case that did not run counts toward no metric).
func (r *CaseRecord) MetricClusters() map[string]stats.Cluster {
	out := map[string]stats.Cluster{}
	r.EachSample(func(s SampleRecord) {
		for _, res := range s.Scores {
			for m, ok := range res.Outcomes() {
				c := out[m]
				c.N++
				if ok {
					c.Pass++
				}
				out[m] = c
			}
		}
	})
	return out
}

// ScorerRates returns, per non-measure scorer that judged any sample of r,
// how many samples it passed out of all of r's samples: a sample that did
// not run, or that the scorer did not judge, counts as not passed.
func (r *CaseRecord) ScorerRates() map[string]stats.Cluster {
	out := map[string]stats.Cluster{}
	r.EachSample(func(s SampleRecord) {
		for _, res := range s.Scores {
			if res.Measure {
				continue
			}
			c := out[res.Scorer]
			if res.Pass && s.Error == "" {
				c.Pass++
			}
			out[res.Scorer] = c
		}
	})
	for k, c := range out {
		c.N = r.SampleCount()
		out[k] = c
	}
	return out
}

// SamplesSummary is the part of a summary only sampled runs have.
type SamplesSummary struct {
	// MaxSamples is the most samples any case has; SampledCases how many
	// cases have more than one.
	MaxSamples   int    `json:"max_samples"`
	SampledCases int    `json:"sampled_cases"`
	Method       string `json:"method"`
	// Metrics has one entry per per-case pass-rate metric with sampled
	// cases, and "case" for a case passing as a whole, each over the
	// sampled cases only (one sample says nothing of a case's spread).
	Metrics []SampleMetric `json:"metrics"`
	Flaky   []FlakyCase    `json:"flaky"`
}

// SampleMetric is one metric over samples.
type SampleMetric struct {
	Name string `json:"name"`
	// Cases judged, and Draws: their samples with an outcome.
	Cases int `json:"cases"`
	Draws int `json:"draws"`
	// Mean is the pooled mean over every sample, with its case-level
	// interval (stats.ClusterInterval).
	Mean float64 `json:"mean"`
	Lo   float64 `json:"ci_low"`
	Hi   float64 `json:"ci_high"`
	// PassAtK[k-1] and PassHatK[k-1] are pass@k and pass^k, each the mean
	// of the unbiased per-case estimator over the CasesAtK[k-1] cases with
	// at least k samples.
	PassAtK  []float64 `json:"pass_at_k"`
	PassHatK []float64 `json:"pass_hat_k"`
	CasesAtK []int     `json:"cases_at_k"`
}

// FlakyCase is a case whose samples did not all end the same way.
type FlakyCase struct {
	Case string `json:"case"`
	Seq  int    `json:"seq"`
	// Results holds each sample's outcome in order: pass, fail or error.
	Results []string `json:"results"`
	// Differed says what differed between the samples: the route taken,
	// the envelope's error code, the checks whose outcome changed.
	Differed []string `json:"differed"`
}

// caseMetric is the pseudo-metric of a case passing as a whole.
const caseMetric = "case"

// sampleMethod explains the figures of a sampled run (apply, and the
// routing scorer's per-label moments).
const sampleMethod = "every rate in Metrics pools all samples (passes over samples). Each per-case pass rate, and " +
	"routing's per-label precision, recall and F1, has its 95% CI over cases: its n is the cases, then passes/samples in " +
	"brackets, as in 68 (265/340). That interval is the Wilson interval at the effective number of cases, with a t quantile " +
	"(Korn-Graubard), so samples of one case count as independent evidence only as far as the cases' spread allows; when every sample " +
	"passed (or every one failed) it is the Wilson interval over cases. The other rates, whose n is passes/samples alone, keep " +
	"the Wilson interval over samples, which treats samples as independent (too narrow where a case has several). pass@k: at least one " +
	"of k samples passes; pass^k: all k pass (τ-bench); both unbiased estimates from c passes of n samples, " +
	"averaged over the cases with at least k samples. This table counts only the cases with more than one sample"

// sampleAgg accumulates what a sampled run reports. A run with no sampled
// case keeps only counts, so one-sample runs of any size stay in a flat
// memory budget.
type sampleAgg struct {
	maxN, sampled int
	metrics       map[string]*metricClusters
	flaky         []FlakyCase
}

// metricClusters are one metric's cases: the sampled ones in order, and
// the one-sample ones as counts.
type metricClusters struct {
	sampled          []stats.Cluster
	onePass, oneFail int
}

func (m *metricClusters) all() []stats.Cluster {
	out := slices.Clone(m.sampled)
	for range m.onePass {
		out = append(out, stats.Cluster{Pass: 1, N: 1})
	}
	for range m.oneFail {
		out = append(out, stats.Cluster{N: 1})
	}
	return out
}

func (a *sampleAgg) add(rec *CaseRecord) {
	if a.metrics == nil {
		a.metrics = map[string]*metricClusters{}
	}
	n := rec.SampleCount()
	a.maxN = max(a.maxN, n)
	if n > 1 {
		a.sampled++
	}
	clusters := rec.MetricClusters()
	whole := stats.Cluster{N: n}
	rec.EachSample(func(s SampleRecord) {
		if s.Pass {
			whole.Pass++
		}
	})
	clusters[caseMetric] = whole
	// Each metric's list grows in case order; the order metrics are
	// visited in does not matter.
	for m, c := range clusters {
		mc := a.metrics[m]
		if mc == nil {
			mc = &metricClusters{}
			a.metrics[m] = mc
		}
		switch {
		case c.N > 1:
			mc.sampled = append(mc.sampled, c)
		case c.Pass == 1:
			mc.onePass++
		case c.N == 1:
			mc.oneFail++
		}
	}
	if n > 1 {
		if f, ok := flakyOf(rec); ok {
			a.flaky = append(a.flaky, f)
		}
	}
}

// apply rewrites the intervals of s's per-case pass rates for samples and
// adds the samples section and its tables. It does nothing when no case
// was sampled: a one-sample run's summary is what it always was.
func (a *sampleAgg) apply(s *Summary) {
	if a.sampled == 0 {
		return
	}
	for i, m := range s.Metrics {
		mc := a.metrics[m.Name]
		if !m.Paired || m.Unit != score.UnitRate || mc == nil || len(mc.sampled) == 0 {
			continue
		}
		all := mc.all()
		lo, hi := stats.ClusterInterval(all)
		s.Metrics[i].Lo, s.Metrics[i].Hi = stats.Round(lo, metricPlaces), stats.Round(hi, metricPlaces)
		s.Metrics[i].Cases = len(all)
	}
	ss := &SamplesSummary{MaxSamples: a.maxN, SampledCases: a.sampled, Method: sampleMethod, Metrics: []SampleMetric{}, Flaky: a.flaky}
	if ss.Flaky == nil {
		ss.Flaky = []FlakyCase{}
	}
	paired := map[string]bool{caseMetric: true}
	var order []string
	for _, m := range s.Metrics {
		if m.Paired && m.Unit == score.UnitRate {
			paired[m.Name] = true
			order = append(order, m.Name)
		}
	}
	order = append([]string{caseMetric}, order...)
	for _, name := range order {
		mc := a.metrics[name]
		if mc == nil || len(mc.sampled) == 0 {
			continue
		}
		ss.Metrics = append(ss.Metrics, sampleMetric(name, mc.sampled, a.maxN))
	}
	s.Samples = ss
	s.Tables = append(s.Tables, samplesTable(ss), flakyTable(ss))
}

func sampleMetric(name string, cs []stats.Cluster, maxN int) SampleMetric {
	sm := SampleMetric{Name: name, Cases: len(cs)}
	pass := 0
	for _, c := range cs {
		pass += c.Pass
		sm.Draws += c.N
	}
	sm.Mean = stats.Round(stats.Ratio(pass, sm.Draws), metricPlaces)
	lo, hi := stats.ClusterInterval(cs)
	sm.Lo, sm.Hi = stats.Round(lo, metricPlaces), stats.Round(hi, metricPlaces)
	for k := 1; k <= maxN; k++ {
		var at, hat float64
		n := 0
		for _, c := range cs {
			if c.N < k {
				continue
			}
			n++
			at += stats.PassAtK(c.N, c.Pass, k)
			hat += stats.PassHatK(c.N, c.Pass, k)
		}
		if n == 0 {
			break
		}
		sm.PassAtK = append(sm.PassAtK, stats.Round(at/float64(n), metricPlaces))
		sm.PassHatK = append(sm.PassHatK, stats.Round(hat/float64(n), metricPlaces))
		sm.CasesAtK = append(sm.CasesAtK, n)
	}
	return sm
}

func pct(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }

func samplesTable(ss *SamplesSummary) score.Table {
	n := ss.MaxSamples
	t := score.Table{
		Title:  fmt.Sprintf("Samples: %d cases with more than one sample (up to %d)", ss.SampledCases, n),
		Header: []string{"metric", "cases", "samples", "mean", "95% CI (cases)", fmt.Sprintf("pass@%d", n), "pass^k, k = 1…" + fmt.Sprint(n)},
		Notes:  []string{"case: the case passes as a whole", sampleMethod},
	}
	for _, m := range ss.Metrics {
		at := ""
		if len(m.PassAtK) == n {
			at = pct(m.PassAtK[n-1])
		}
		var hats []string
		for _, h := range m.PassHatK {
			hats = append(hats, pct(h))
		}
		t.Rows = append(t.Rows, []string{m.Name, fmt.Sprint(m.Cases), fmt.Sprint(m.Draws), pct(m.Mean),
			fmt.Sprintf("%.1f–%.1f%%", 100*m.Lo, 100*m.Hi), at, strings.Join(hats, " · ")})
	}
	return t
}

// maxFlakyRows bounds the flaky table; the JSON's samples section has
// every flaky case.
const maxFlakyRows = 25

func flakyTable(ss *SamplesSummary) score.Table {
	t := score.Table{
		Title:  fmt.Sprintf("Flaky cases (%d): outcomes that differ across samples", len(ss.Flaky)),
		Header: []string{"case", "samples", "what differed (sample 1 | 2 | …)"},
	}
	for i, f := range ss.Flaky {
		if i == maxFlakyRows {
			t.Notes = append(t.Notes, fmt.Sprintf("%d more flaky case(s) in the JSON report (summary.samples.flaky)", len(ss.Flaky)-maxFlakyRows))
			break
		}
		t.Rows = append(t.Rows, []string{f.Case, strings.Join(f.Results, " "), strings.Join(f.Differed, "; ")})
	}
	if len(ss.Flaky) == 0 {
		t.Notes = append(t.Notes, "every sampled case ended the same way in all its samples")
	}
	return t
}

// flakyOf describes rec when its samples did not all end the same way.
func flakyOf(rec *CaseRecord) (FlakyCase, bool) {
	f := FlakyCase{Case: rec.Key, Seq: rec.Seq}
	var routes, codes, errs []string
	type checkState struct {
		states []string
		passes map[bool]bool
	}
	checks := map[string]*checkState{}
	var checkOrder []string
	i := 0
	rec.EachSample(func(s SampleRecord) {
		switch {
		case s.Error != "":
			f.Results = append(f.Results, "error")
		case s.Pass:
			f.Results = append(f.Results, "pass")
		default:
			f.Results = append(f.Results, "fail")
		}
		var rs, cs []string
		for _, t := range s.Turns {
			if t.Route != "" {
				rs = append(rs, t.Route)
			}
			if t.ErrorCode != "" {
				cs = append(cs, t.ErrorCode)
			}
		}
		routes = append(routes, orDash(strings.Join(rs, ",")))
		codes = append(codes, orDash(strings.Join(cs, ",")))
		first, _, _ := strings.Cut(s.Error, "\n")
		errs = append(errs, orDash(shorten(first, 80)))
		for _, res := range s.Scores {
			if res.Measure {
				continue
			}
			for _, c := range res.Checks {
				k := res.Scorer + ": " + c.Name
				st := checks[k]
				if st == nil {
					st = &checkState{states: make([]string, i), passes: map[bool]bool{}}
					for j := range st.states {
						st.states[j] = "–"
					}
					checks[k] = st
					checkOrder = append(checkOrder, k)
				}
				state := "fail (" + shorten(c.Got, 60) + ")"
				if c.Pass {
					state = "pass"
				}
				st.states = append(st.states, state)
				st.passes[c.Pass] = true
			}
		}
		i++
		for _, st := range checks {
			for len(st.states) < i {
				st.states = append(st.states, "–")
			}
		}
	})
	same := func(xs []string) bool {
		for _, x := range xs {
			if x != xs[0] {
				return false
			}
		}
		return true
	}
	if same(f.Results) {
		return f, false
	}
	if !same(routes) {
		f.Differed = append(f.Differed, "route: "+strings.Join(routes, " | "))
	}
	if !same(codes) {
		f.Differed = append(f.Differed, "envelope error: "+strings.Join(codes, " | "))
	}
	if !same(errs) {
		f.Differed = append(f.Differed, "run error: "+strings.Join(errs, " | "))
	}
	for _, k := range checkOrder {
		if st := checks[k]; len(st.passes) > 1 || slices.Contains(st.states, "–") && !same(st.states) {
			f.Differed = append(f.Differed, k+": "+strings.Join(st.states, " | "))
		}
	}
	return f, true
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}
