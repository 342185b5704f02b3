package score

import (
	"github.com/searchbench/searchbench/eval/dataset"

	"fmt"
	"slices"
	"strings"

	"github.com/searchbench/searchbench/orchestrator/trace"
)

// Per-turn limits from the seed: at most 3 queries per tool and 5 results
// per query.
const (
	MaxQueriesPerTool  = 3
	MaxResultsPerQuery = 5
)

// Limits judges the app's search limits on Phase 2 turns: calls actually
// sent per tool (status ok or error) and the results asked for and
// returned per call. It records how many calls the limit refused.
type Limits struct{}

// Metrics of the limits scorer.
const (
	MetricLimitsQueries = "limits.queries"
	MetricLimitsResults = "limits.results"
	MetricLimitsRefused = "limits.refused"
)

// Name implements Scorer.
func (Limits) Name() string { return "limits" }

// Declare implements Scorer.
func (Limits) Declare() Declaration {
	return Declaration{Kinds: []string{dataset.KindRouting, dataset.KindFlows}, Measure: false, Metrics: []string{
		MetricLimitsQueries,
		MetricLimitsResults,
		MetricLimitsRefused,
	}, Invariants: []string{MetricLimitsQueries, MetricLimitsResults}}
}

// Score implements Scorer. It applies to routing and flows cases with a
// Phase 2 turn.
func (Limits) Score(in *Input) (Result, bool) {
	ts := phase2Turns(in)
	if len(ts) == 0 {
		return Result{}, false
	}
	var checks []Check
	refused := 0
	for _, r := range ts {
		perTool := map[string]int{}
		var tools []string
		var over []string
		for i, c := range r.T.ToolCalls {
			if c.Status == trace.CallLimited {
				refused++
			}
			if !sent(c) {
				continue
			}
			if perTool[c.Tool] == 0 {
				tools = append(tools, c.Tool)
			}
			perTool[c.Tool]++
			if c.Sent > MaxResultsPerQuery || c.Results > MaxResultsPerQuery {
				over = append(over, fmt.Sprintf("call %d (%s %q): sent %d, got %d", i+1, c.Tool, c.Query, c.Sent, c.Results))
			}
		}
		slices.Sort(tools)
		counts := make([]string, len(tools))
		worst := 0
		for i, tool := range tools {
			counts[i] = fmt.Sprintf("%s %d", tool, perTool[tool])
			worst = max(worst, perTool[tool])
		}
		got := "no calls sent"
		if len(counts) > 0 {
			got = strings.Join(counts, ", ")
		}
		checks = append(checks, passFail(checkName(in, r.N, "queries per tool ≤ 3"), MetricLimitsQueries,
			worst <= MaxQueriesPerTool, fmt.Sprintf("≤ %d per tool", MaxQueriesPerTool), got,
			fmt.Sprintf("a tool was queried %d times; the app must refuse calls beyond %d", worst, MaxQueriesPerTool)))
		got = "all ≤ 5"
		if len(over) > 0 {
			got = strings.Join(over, "; ")
		}
		checks = append(checks, passFail(checkName(in, r.N, "results per query ≤ 5"), MetricLimitsResults,
			len(over) == 0, fmt.Sprintf("≤ %d sent and returned", MaxResultsPerQuery), got,
			fmt.Sprintf("the app must clamp max_results/num_results to %d and keep at most %d results", MaxResultsPerQuery, MaxResultsPerQuery)))
	}
	res := NewResult("limits", checks...)
	res.Values = map[string]float64{"refused": float64(refused)}
	return res, true
}

// NewAggregator implements Scorer.
func (Limits) NewAggregator() Aggregator { return &limitsAgg{} }

type limitsAgg struct {
	Rates
	refused float64
	n       int
}

func (a *limitsAgg) Add(c CaseInfo, r Result) {
	a.Rates.Add(c, r)
	a.refused += r.Values["refused"]
	a.n++
}

func (a *limitsAgg) Summary() Summary {
	if a.n == 0 {
		return Summary{Metrics: a.Metrics()}
	}
	m := MeanMetric(MetricLimitsRefused, UnitCount, a.refused, a.n)
	m.Note = "mean tool calls per case refused by the per-tool query limit"
	return Summary{Metrics: append(a.Metrics(), m)}
}
