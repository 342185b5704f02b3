package report

import (
	"slices"

	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/eval/stats"
)

// Summary is the aggregate of a run: case counts, then every metric and
// table, in scorer order (metrics by name within a scorer), then any extra
// sections.
type Summary struct {
	Cases   int            `json:"cases"`
	Passed  int            `json:"passed"`
	Failed  int            `json:"failed"`
	Errors  int            `json:"errors"`
	Metrics []score.Metric `json:"metrics"`
	Tables  []score.Table  `json:"tables,omitempty"`
	// Samples is set only when some case has several samples.
	Samples *SamplesSummary `json:"samples,omitempty"`
}

// Aggregate accumulates case records into a Summary, feeding each result to
// its scorer's Aggregator. Results of a scorer it was not given (a report
// written by a newer or older build) are aggregated as plain pass rates, so
// nothing is silently dropped.
type Aggregate struct {
	order   []string
	aggs    map[string]score.Aggregator
	extra   []score.Summary
	counts  Summary
	samples sampleAgg
}

// NewAggregate returns an empty aggregate for scorers, in their order.
func NewAggregate(scorers []score.Scorer) *Aggregate {
	a := &Aggregate{aggs: map[string]score.Aggregator{}}
	for _, s := range scorers {
		a.order = append(a.order, s.Name())
		a.aggs[s.Name()] = s.NewAggregator()
	}
	return a
}

// Add counts rec and feeds its results to their aggregators.
func (a *Aggregate) Add(rec *CaseRecord) {
	a.counts.Cases++
	switch {
	case rec.Error != "":
		a.counts.Errors++
	case rec.Pass:
		a.counts.Passed++
	default:
		a.counts.Failed++
	}
	// Every sample's results count: a sampled case's tables and rates
	// are over all its samples.
	rec.EachSample(func(s SampleRecord) {
		for _, r := range s.Scores {
			agg, ok := a.aggs[r.Scorer]
			if !ok {
				agg = &score.Rates{}
				a.aggs[r.Scorer] = agg
			}
			agg.Add(rec.CaseInfo, r)
		}
	})
	a.samples.add(rec)
}

// AddSection appends a section computed outside the scorers (the lead's
// parser measurement). It is reported after every scorer's. A section that
// is not computed from the records cannot be re-computed by merge or the
// gate; prefer a scorer Aggregator when possible.
func (a *Aggregate) AddSection(s score.Summary) { a.extra = append(a.extra, s) }

// Summary returns the run's summary. Call it once, after the last Add.
func (a *Aggregate) Summary() Summary {
	s := a.counts
	s.Metrics = []score.Metric{}
	names := slices.Clone(a.order)
	var unknown []string
	for n := range a.aggs {
		if !slices.Contains(a.order, n) {
			unknown = append(unknown, n)
		}
	}
	slices.Sort(unknown)
	sections := make([]score.Summary, 0, len(names)+len(unknown)+len(a.extra))
	for _, n := range append(names, unknown...) {
		sections = append(sections, a.aggs[n].Summary())
	}
	for _, sec := range append(sections, a.extra...) {
		ms := slices.Clone(sec.Metrics)
		slices.SortStableFunc(ms, func(x, y score.Metric) int {
			switch {
			case x.Name < y.Name:
				return -1
			case x.Name > y.Name:
				return 1
			}
			return 0
		})
		for _, m := range ms {
			s.Metrics = append(s.Metrics, roundMetric(m))
		}
		s.Tables = append(s.Tables, sec.Tables...)
	}
	a.samples.apply(&s)
	return s
}

// metricPlaces is how many decimals reports keep: the digits that matter,
// and none of the floating-point noise that could differ between an
// in-memory run and one re-aggregated from its JSON.
const metricPlaces = 6

func roundMetric(m score.Metric) score.Metric {
	m.Value = stats.Round(m.Value, metricPlaces)
	m.Lo = stats.Round(m.Lo, metricPlaces)
	m.Hi = stats.Round(m.Hi, metricPlaces)
	return m
}
