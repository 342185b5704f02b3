package score

import (
	"slices"

	"github.com/searchbench/searchbench/eval/stats"
)

// metricNotes explain check-based metrics whose scope is not obvious from
// their name; RateMetric attaches them.
var metricNotes = map[string]string{
	"schema.raw":   "the model's own envelope; Phase 2 turns of flows that script a broken model output are left out (they test how the app handles it)",
	"markdown.raw": "the model's own message (model mode): printed markdown = render_markdown = canonical rendering; same exclusions as schema.raw",
	"parser.exact": "the configured chain (config/executor.yaml) on the outputs written under its primary strategy's prompt",
}

// RateMetric returns a pass-rate metric: num of den cases passed, with its
// Wilson 95% interval. Paired marks per-case outcomes of the same name.
func RateMetric(name string, num, den int, paired bool) Metric {
	lo, hi := stats.Wilson(num, den)
	return Metric{
		Name: name, Value: stats.Ratio(num, den), Unit: UnitRate, Better: HigherIsBetter,
		Num: num, Den: den, Lo: lo, Hi: hi, Paired: paired, Note: metricNotes[name],
	}
}

// Rates counts per-case metric outcomes (Result.Outcomes) and reports each
// metric as a paired pass rate. Scorer aggregators embed it for their
// check-based metrics.
type Rates struct {
	num, den map[string]int
}

// Add counts r's outcomes.
func (a *Rates) Add(_ CaseInfo, r Result) {
	if a.den == nil {
		a.num, a.den = map[string]int{}, map[string]int{}
	}
	for m, pass := range r.Outcomes() {
		a.den[m]++
		if pass {
			a.num[m]++
		}
	}
}

// Count returns how many cases passed metric m and how many it applied to.
func (a *Rates) Count(m string) (num, den int) { return a.num[m], a.den[m] }

// Metrics returns one pass-rate metric per metric name seen, by name.
func (a *Rates) Metrics() []Metric {
	names := make([]string, 0, len(a.den))
	for m := range a.den {
		names = append(names, m)
	}
	slices.Sort(names)
	out := make([]Metric, len(names))
	for i, m := range names {
		out[i] = RateMetric(m, a.num[m], a.den[m], true)
	}
	return out
}

// Summary implements Aggregator: the pass rates and no tables. It is the
// aggregator of scorers with nothing else to report.
func (a *Rates) Summary() Summary { return Summary{Metrics: a.Metrics()} }

// MeanMetric returns the mean of a per-case value over n cases.
func MeanMetric(name, unit string, sum float64, n int) Metric {
	var v float64
	if n > 0 {
		v = sum / float64(n)
	}
	return Metric{Name: name, Value: v, Unit: unit, Better: LowerIsBetter, Den: n}
}
