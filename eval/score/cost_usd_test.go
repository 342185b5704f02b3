package score

import (
	"math"
	"testing"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// TestCostUSD prices a case at config/providers.yaml's rates, computed by
// hand: 1,000 prompt tokens × $0.35/M + 500 completion × $0.75/M + one
// Tavily basic search (1 credit × $0.008) + one Exa auto search ($0.007)
// = $0.015725; the refused call was never sent and costs nothing.
func TestCostUSD(t *testing.T) {
	mk := func(calls ...trace.ToolCall) *Input {
		return &Input{Case: &dataset.Case{Kind: dataset.KindRouting}, Session: &trace.Session{Turns: []trace.Turn{{
			ModelCalls: []trace.ModelCall{{Usage: trace.Usage{PromptTokens: 1000, CompletionTokens: 500, TotalTokens: 1500}}},
			ToolCalls:  calls,
		}}}}
	}
	a, _ := Cost{}.Score(mk(
		trace.ToolCall{Tool: trace.ToolTavily, Status: trace.CallOK},
		trace.ToolCall{Tool: trace.ToolExa, Status: trace.CallOK},
		trace.ToolCall{Tool: trace.ToolExa, Status: trace.CallLimited}))
	if got := a.Values["usd"]; math.Abs(got-0.015725) > 1e-12 {
		t.Fatalf("usd %v, want 0.015725", got)
	}
	b, _ := Cost{}.Score(mk())
	if got := b.Values["usd"]; math.Abs(got-0.000725) > 1e-12 {
		t.Fatalf("usd %v, want 0.000725", got)
	}
	agg := Cost{}.NewAggregator()
	agg.Add(CaseInfo{}, a)
	agg.Add(CaseInfo{}, b)
	var mean, total Metric
	for _, m := range agg.Summary().Metrics {
		switch m.Name {
		case MetricCostUSD:
			mean = m
		case MetricCostUSDTotal:
			total = m
		}
	}
	// mean 0.008225; sample sd |a−b|/√2 = 0.0106066; standard error
	// sd/√2 = 0.0075; half-width 1.96 × 0.0075 = 0.0147 (lower end
	// clamped at 0).
	if math.Abs(mean.Value-0.008225) > 1e-9 || mean.Lo != 0 || math.Abs(mean.Hi-0.022925) > 1e-8 || mean.Den != 2 {
		t.Errorf("cost.usd %+v", mean)
	}
	if math.Abs(total.Value-0.01645) > 1e-9 || total.Unit != UnitUSD {
		t.Errorf("cost.usd.total %+v", total)
	}
	// A model without a price is left out and said so, never guessed.
	c, _ := Cost{Model: "unpriced-model"}.Score(mk())
	if _, ok := c.Values["usd"]; ok || c.Values["unpriced"] != 1 {
		t.Errorf("unpriced model: %v", c.Values)
	}
}
