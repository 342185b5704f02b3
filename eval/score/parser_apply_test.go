package score

import (
	"testing"

	"github.com/searchbench/searchbench/eval/dataset"
)

// TestParserScorerApplies pins when the parser scorer runs: on a parser
// case with a parse outcome, and on nothing else. (Mutation testing found
// that inverting this guard, so that the scorer never ran, left every unit
// test green; only the gated replay noticed.)
func TestParserScorerApplies(t *testing.T) {
	pc := &dataset.Case{ID: "p", Dataset: "parser", Kind: dataset.KindParser, Prompt: "react",
		Content: "Thought: search\nAction: web_search\nAction Input: {\"query\": \"go\"}",
		Expect:  []dataset.Call{{Name: "web_search", Arguments: map[string]any{"query": "go"}}}}
	outcome := &ParseOutcome{Primary: "react", Fallback: "fuzzy", Strategy: "react", Field: "content",
		Calls: []dataset.Call{{Name: "web_search", Arguments: map[string]any{"query": "go"}}}}
	tests := []struct {
		name string
		in   *Input
		want bool
	}{
		{"parser case with an outcome", &Input{Case: pc, Parse: outcome}, true},
		{"parser case without an outcome", &Input{Case: pc}, false},
		{"routing case", &Input{Case: routingCase("tavily_only"), Parse: outcome}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, ok := Parser{}.Score(tt.in)
			if ok != tt.want {
				t.Fatalf("Score applies = %v, want %v", ok, tt.want)
			}
			if !ok {
				return
			}
			if len(r.Checks) != 1 || r.Checks[0].Metric != "parser.exact" || !r.Checks[0].Pass {
				t.Errorf("checks = %+v, want one passing parser.exact check", r.Checks)
			}
			if len(r.Values) == 0 {
				t.Error("no per-strategy values: the strategy table could not be rebuilt")
			}
		})
	}
}
