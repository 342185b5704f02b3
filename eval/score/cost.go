package score

import (
	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/eval/stats"
)

// Cost measures what a case cost: model tokens and calls, search calls sent
// and the provider-reported latency (model time_info plus search times),
// which a replay reproduces exactly. It never fails a case.
type Cost struct{}

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
)

// Name implements Scorer.
func (Cost) Name() string { return "cost" }

// Declare implements Scorer.
func (Cost) Declare() Declaration {
	return Declaration{Kinds: []string{dataset.KindRouting, dataset.KindFlows}, Measure: true, Metrics: []string{
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
func (Cost) Score(in *Input) (Result, bool) {
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
	return Result{Scorer: "cost", Pass: true, Measure: true, Values: map[string]float64{
		"prompt_tokens":     float64(prompt),
		"completion_tokens": float64(completion),
		"total_tokens":      float64(total),
		"model_calls":       float64(modelCalls),
		"search_calls":      float64(searchCalls),
		// Rounded to the microsecond so a report read back re-aggregates
		// to the same digits (float sums of provider times carry noise).
		"latency_ms": stats.Round(latency, 3),
	}}, true
}

// NewAggregator implements Scorer.
func (Cost) NewAggregator() Aggregator { return &costAgg{} }

type costAgg struct {
	prompt, completion, total, model, search float64
	latencies                                []float64
}

func (a *costAgg) Add(_ CaseInfo, r Result) {
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
	return Summary{Metrics: []Metric{
		MeanMetric(MetricCostLatencyMean, UnitMS, lat, n),
		p50, p95,
		MeanMetric(MetricCostModelCalls, UnitCount, a.model, n),
		MeanMetric(MetricCostSearchCalls, UnitCount, a.search, n),
		MeanMetric(MetricCostTokens, UnitTokens, a.total, n),
		MeanMetric(MetricCostCompletionTokens, UnitTokens, a.completion, n),
		MeanMetric(MetricCostPromptTokens, UnitTokens, a.prompt, n),
	}}
}
