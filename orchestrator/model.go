package orchestrator

import (
	"context"
	"fmt"

	"github.com/searchbench/searchbench/orchestrator/httpx"
	"github.com/searchbench/searchbench/orchestrator/llm"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

type message = llm.Message

func system(s string) message    { return llm.Message{Role: "system", Content: s} }
func user(s string) message      { return llm.Message{Role: "user", Content: s} }
func assistant(s string) message { return llm.Message{Role: "assistant", Content: s} }

// chat sends one chat completion request and records it on t as a
// ModelCall, whatever the outcome.
func (a *Assistant) chat(ctx context.Context, t *trace.Turn, req *llm.ChatRequest) (*llm.ResponseMessage, string, error) {
	o := a.opts
	req.Model = o.Model // empty: the client fills in its configured model
	req.Temperature = o.Temperature
	req.Seed = o.Seed
	req.ReasoningEffort = o.ReasoningEffort
	req.MaxCompletionTokens = o.MaxCompletionTokens

	mc := trace.ModelCall{Round: len(t.ModelCalls), ToolsOffered: toolNames(req.Tools)}
	resp, err := a.clients.LLM.Chat(ctx, req)
	if err != nil {
		attempts := httpx.AttemptsOf(err)
		mc.Attempts, mc.Statuses = len(attempts), httpx.Statuses(attempts)
		mc.Error = err.Error()
		t.ModelCalls = append(t.ModelCalls, mc)
		return nil, "", fmt.Errorf("model request %d: %w", mc.Round+1, err)
	}
	mc.Attempts, mc.Statuses = len(resp.Attempts), httpx.Statuses(resp.Attempts)
	mc.Usage = trace.Usage{PromptTokens: resp.Usage.PromptTokens, CompletionTokens: resp.Usage.CompletionTokens, TotalTokens: resp.Usage.TotalTokens}
	mc.LatencyMS = resp.LatencyMS()
	t.Usage = t.Usage.Add(mc.Usage)
	t.Latency.ModelMS += mc.LatencyMS
	if len(resp.Choices) == 0 {
		mc.Error = "response has no choices"
		t.ModelCalls = append(t.ModelCalls, mc)
		return nil, "", fmt.Errorf("model request %d: %s", mc.Round+1, mc.Error)
	}
	ch := resp.Choices[0]
	m := ch.Message
	mc.FinishReason = ch.FinishReason
	mc.Content = m.Content
	mc.Reasoning = m.Reasoning
	for _, tc := range m.ToolCalls {
		mc.ToolCalls = append(mc.ToolCalls, trace.RequestedCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
	}
	t.ModelCalls = append(t.ModelCalls, mc)
	return &m, ch.FinishReason, nil
}

func toolNames(tools []llm.Tool) []string {
	out := []string{}
	for _, t := range tools {
		out = append(out, t.Function.Name)
	}
	return out
}

// phase1 answers t.Query from internal knowledge. No tools are offered: the
// request carries none, so the model cannot call one.
func (a *Assistant) phase1(ctx context.Context, t *trace.Turn) error {
	t.ToolsOffered = []string{}
	req := &llm.ChatRequest{Messages: []message{system(a.prompts.Phase1), user(t.Query)}}
	m, finish, err := a.chat(ctx, t, req)
	if err != nil {
		return err
	}
	t.RawOutput, t.Output = m.Content, m.Content
	if m.Content == "" {
		t.Reason = fmt.Sprintf("model returned no content (finish_reason=%s)", finish)
	}
	return nil
}

// decline acknowledges a "no": internal knowledge only, no tools.
func (a *Assistant) decline(ctx context.Context, t *trace.Turn, history []message) error {
	t.ToolsOffered = []string{}
	req := &llm.ChatRequest{Messages: append([]message{system(a.prompts.Decline)}, history...)}
	m, finish, err := a.chat(ctx, t, req)
	if err != nil {
		return err
	}
	t.RawOutput, t.Output = m.Content, m.Content
	if m.Content == "" {
		t.Reason = fmt.Sprintf("model returned no content (finish_reason=%s)", finish)
	}
	return nil
}
