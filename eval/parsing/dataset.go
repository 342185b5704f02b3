// Package parsing measures how reliably each executor strategy, and each
// primary→fallback chain, extracts tool calls from raw GPT-OSS outputs.
//
// The cases are datasets/parser.yaml (kind: parser, loaded by eval/dataset):
// a message as produced under one strategy's prompt and the calls a correct
// parser extracts. Each row of the measurement is a Spec — a strategy or a
// chain, and the cases it is measured on. A case's contribution to a row is a
// Tally, so the harness's parser scorer can record tallies per case and
// rebuild the rows from its report alone; Measure does the same in one go.
package parsing

import (
	"fmt"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/orchestrator/executor"
)

// Case is one raw model output and the calls expected from it.
type Case struct {
	ID        string          `json:"id"`
	Prompt    string          `json:"prompt"` // the strategy whose system prompt produced the output
	Reasoning string          `json:"reasoning,omitempty"`
	Content   string          `json:"content,omitempty"`
	Expect    []executor.Call `json:"expect"`
	Tags      []string        `json:"tags,omitempty"`
}

// Message is the case's output as the executor reads it.
func (c Case) Message() executor.Message {
	return executor.Message{Reasoning: c.Reasoning, Content: c.Content}
}

// FromDataset converts a loaded parser case.
func FromDataset(c *dataset.Case) Case {
	out := Case{ID: c.ID, Prompt: c.Prompt, Reasoning: c.Reasoning, Content: c.Content, Expect: []executor.Call{}, Tags: c.Tags}
	for _, e := range c.Expect {
		out.Expect = append(out.Expect, executor.Call{Name: e.Name, Arguments: e.Arguments})
	}
	return out
}

// Load reads a parser dataset file with the harness's loader, which reports
// every problem with its file:line.
func Load(name string) ([]Case, error) {
	sets, err := dataset.LoadFiles(name)
	if err != nil {
		return nil, err
	}
	if k := sets[0].Kind; k != dataset.KindParser {
		return nil, fmt.Errorf("%s: kind is %q, want %s", name, k, dataset.KindParser)
	}
	out := make([]Case, len(sets[0].Cases))
	for i, c := range sets[0].Cases {
		out[i] = FromDataset(c)
	}
	return out, nil
}
