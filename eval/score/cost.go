package score

import (
	"fmt"
	"math"
	"sync"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/eval/price"
	"github.com/searchbench/searchbench/eval/stats"
)

// Cost measures what a case cost: model tokens and calls, search calls sent,
// dollars at the price table's rates, and the provider-reported latency
// (model time_info plus search times), which a replay reproduces exactly.
// It never fails a case.
type Cost struct {
	// Prices prices the case (nil: config/providers.yaml as built in, its
	// default model). A case's dollars are kept in its result, so a report
	// re-aggregated later needs no price table.
	Prices *price.Table
	// Model is the chat model priced ("": the table's default model).
	Model string
}

var defaultPrices = sync.OnceValue(func() price.Table { return price.Default().Prices })

// Metrics of the cost scorer.
const (
	MetricCostTokens           = "cost.tokens"
	MetricCostPromptTokens     = "cost.tokens.prompt"
	MetricCostCompletionTokens = "cost.tokens.completion"
	MetricCostModelCalls       = "cost.model_calls"
	MetricCostSearchCalls      = "cost.search_calls"
	MetricCostLatencyMean      = "cost.latency.mean"
	MetricCostLatencyP50       = "cost.latency.p50"
	MetricCostLatencyP95       = "cost.latency.p95"
	MetricCostUSD              = "cost.usd"
	MetricCostUSDTotal         = "cost.usd.total"
)

// UnitUSD is dollars.
const UnitUSD = "usd"

// Name implements Scorer.
func (Cost) Name() string { return "cost" }

// Declare implements Scorer.
func (Cost) Declare() Declaration {
	return Declaration{Kinds: []string{dataset.KindRouting, dataset.KindFlows}, Measure: true, Metrics: []string{
		MetricCostUSD,
		MetricCostUSDTotal,
		MetricCostTokens,
		MetricCostPromptTokens,
		MetricCostCompletionTokens,
		MetricCostModelCalls,
		MetricCostSearchCalls,
		MetricCostLatencyMean,
		MetricCostLatencyP50,
		MetricCostLatencyP95,
	}}
}

// Score implements Scorer. It applies to routing and flows cases (consent
// cases are classified by the app, without a model call).
func (c Cost) Score(in *Input) (Result, bool) {
	if in.Case == nil || (in.Case.Kind != dataset.KindRouting && in.Case.Kind != dataset.KindFlows) {
		return Result{}, false
	}
	var prompt, completion, total, modelCalls, searchCalls int
	var latency float64
	for _, r := range sessionTurns(in) {
		for _, m := range r.T.ModelCalls {
			prompt += m.Usage.PromptTokens
			completion += m.Usage.CompletionTokens
			total += m.Usage.TotalTokens
			modelCalls++
		}
		for _, c := range r.T.ToolCalls {
			if sent(c) {
				searchCalls++
			}
		}
		latency += r.T.Latency.ModelMS + r.T.Latency.SearchMS
	}
	table := c.Prices
	if table == nil {
		t := defaultPrices()
		table = &t
	}
	u := price.UsageOf(in.Session)
	u.Model = c.Model
	usd, err := table.USD(u)
	values := map[string]float64{
		"prompt_tokens":     float64(prompt),
		"completion_tokens": float64(completion),
		"total_tokens":      float64(total),
		"model_calls":       float64(modelCalls),
		"search_calls":      float64(searchCalls),
		// Rounded to the microsecond so a report read back re-aggregates
		// to the same digits (float sums of provider times carry noise).
		"latency_ms": stats.Round(latency, 3),
	}
	if err != nil {
		values["unpriced"] = 1 // a model with no price: said, never guessed
	} else {
		// Rounded to a millionth of a cent, so a report read back
		// re-aggregates to the same digits.
		values["usd"] = stats.Round(usd, 8)
	}
	return Result{Scorer: "cost", Pass: true, Measure: true, Values: values}, true
}

// NewAggregator implements Scorer.
func (Cost) NewAggregator() Aggregator { return &costAgg{} }

type costAgg struct {
	prompt, completion, total, model, search float64
	latencies                                []float64
	usd                                      []float64
	unpriced                                 int
}

func (a *costAgg) Add(_ CaseInfo, r Result) {
	if v, ok := r.Values["usd"]; ok {
		a.usd = append(a.usd, v)
	} else if r.Values["unpriced"] > 0 {
		a.unpriced++
	}
	a.prompt += r.Values["prompt_tokens"]
	a.completion += r.Values["completion_tokens"]
	a.total += r.Values["total_tokens"]
	a.model += r.Values["model_calls"]
	a.search += r.Values["search_calls"]
	a.latencies = append(a.latencies, r.Values["latency_ms"])
}

func (a *costAgg) Summary() Summary {
	n := len(a.latencies)
	if n == 0 {
		return Summary{}
	}
	var lat float64
	for _, l := range a.latencies {
		lat += l
	}
	p50 := Metric{Name: MetricCostLatencyP50, Value: stats.Percentile(a.latencies, 50), Unit: UnitMS, Better: LowerIsBetter, Den: n,
		Note: "nearest-rank percentile of per-case provider-reported latency (model + search)"}
	p95 := p50
	p95.Name, p95.Value = MetricCostLatencyP95, stats.Percentile(a.latencies, 95)
	var ms []Metric
	if k := len(a.usd); k > 0 {
		var sum float64
		for _, v := range a.usd {
			sum += v
		}
		mean := sum / float64(k)
		var ss float64
		for _, v := range a.usd {
			ss += (v - mean) * (v - mean)
		}
		half := 0.0
		if k > 1 {
			half = 1.96 * math.Sqrt(ss/float64(k-1)/float64(k))
		}
		note := "mean dollars per case at the price table's rates (config/providers.yaml); interval: mean ± 1.96 standard errors"
		if a.unpriced > 0 {
			note += fmt.Sprintf("; %d case(s) of an unpriced model left out", a.unpriced)
		}
		ms = append(ms,
			Metric{Name: MetricCostUSD, Value: stats.Round(mean, 8), Unit: UnitUSD, Better: LowerIsBetter, Den: k,
				Lo: stats.Round(math.Max(0, mean-half), 8), Hi: stats.Round(mean+half, 8), Note: note},
			Metric{Name: MetricCostUSDTotal, Value: stats.Round(sum, 8), Unit: UnitUSD, Better: LowerIsBetter, Den: k,
				Lo: stats.Round(math.Max(0, sum-float64(k)*half), 8), Hi: stats.Round(sum+float64(k)*half, 8),
				Note: "dollars of the run's cases in all; interval: the mean's, times the cases"})
	}
	return Summary{Metrics: append(ms,
		MeanMetric(MetricCostLatencyMean, UnitMS, lat, n),
		p50, p95,
		MeanMetric(MetricCostModelCalls, UnitCount, a.model, n),
		MeanMetric(MetricCostSearchCalls, UnitCount, a.search, n),
		MeanMetric(MetricCostTokens, UnitTokens, a.total, n),
		MeanMetric(MetricCostCompletionTokens, UnitTokens, a.completion, n),
		MeanMetric(MetricCostPromptTokens, UnitTokens, a.prompt, n),
	)}
}
