package executor

import (
	"encoding/json"
	"fmt"

	"github.com/searchbench/searchbench/orchestrator/llm"
)

// Request builds the chat completion request the executor sends for a
// user's task: the primary strategy's system prompt, the task, and — for
// guided_json — the decoding constraint in mode (ModeResponseFormat,
// ModeGuidedJSON or ModeStructuredOutputs; "" means ModeResponseFormat, the
// portable one). Other strategies constrain nothing: their prompt is the
// whole contract.
func (p *Parser) Request(task, mode string) (*llm.ChatRequest, error) {
	prompt, err := Prompt(p.cfg.Strategy)
	if err != nil {
		return nil, err
	}
	req := &llm.ChatRequest{Messages: []llm.Message{
		{Role: "system", Content: prompt},
		{Role: "user", Content: task},
	}}
	if p.cfg.Strategy != GuidedJSON {
		return req, nil
	}
	if mode == "" {
		mode = ModeResponseFormat
	}
	c, err := p.Constraint(mode)
	if err != nil {
		return nil, err
	}
	if c.ResponseFormat != nil {
		var rf llm.ResponseFormat
		if err := json.Unmarshal(c.ResponseFormat, &rf); err != nil {
			return nil, fmt.Errorf("guided constraint: %w", err)
		}
		req.ResponseFormat = &rf
	}
	if len(c.Extra) > 0 {
		req.Extra = map[string]any{}
		for k, v := range c.Extra {
			req.Extra[k] = v
		}
	}
	return req, nil
}
