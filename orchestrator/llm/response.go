package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"

	"github.com/searchbench/searchbench/orchestrator/httpx"
)

// ChatResponse is a decoded chat completion. Volatile fields (id,
// system_fingerprint, time_info) are kept for traces but must not be
// compared between runs.
type ChatResponse struct {
	ID                string    `json:"id"`
	Model             string    `json:"model"`
	SystemFingerprint string    `json:"system_fingerprint,omitempty"`
	Choices           []Choice  `json:"choices"`
	Usage             Usage     `json:"usage"`
	TimeInfo          *TimeInfo `json:"time_info,omitempty"` // nil when the server sends none (vLLM)
	// Attempts are the HTTP attempts the call took, retries included.
	Attempts []httpx.Attempt `json:"-"`
}

// Choice is one completion.
type Choice struct {
	Index        int             `json:"index"`
	Message      ResponseMessage `json:"message"`
	FinishReason string          `json:"finish_reason"` // stop|length|tool_calls|content_filter
}

// ResponseMessage is the model's message. GPT-OSS may return content null
// (ContentNull) or "" — for instance with finish_reason "length" after
// spending its whole budget on reasoning.
type ResponseMessage struct {
	Role        string
	Content     string
	ContentNull bool // content was null or absent
	// Reasoning is the chain of thought: "reasoning" (Cerebras, newer vLLM),
	// else "reasoning_content" (older vLLM).
	Reasoning string
	ToolCalls []ToolCall
}

// UnmarshalJSON reads content as a string, null, or a list of text parts,
// and reasoning from "reasoning" with "reasoning_content" as fallback.
func (m *ResponseMessage) UnmarshalJSON(b []byte) error {
	var w struct {
		Role             string          `json:"role"`
		Content          json.RawMessage `json:"content"`
		Reasoning        *string         `json:"reasoning"`
		ReasoningContent *string         `json:"reasoning_content"`
		ToolCalls        []ToolCall      `json:"tool_calls"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*m = ResponseMessage{Role: w.Role}
	if len(w.ToolCalls) > 0 { // vLLM sends [] for none; nil reads the same everywhere
		m.ToolCalls = w.ToolCalls
	}
	content := bytes.TrimSpace(w.Content)
	switch {
	case len(content) == 0 || string(content) == "null":
		m.ContentNull = true
	case content[0] == '"':
		if err := json.Unmarshal(content, &m.Content); err != nil {
			return err
		}
	case content[0] == '[':
		var parts []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if err := json.Unmarshal(content, &parts); err != nil {
			return err
		}
		var sb strings.Builder
		for _, p := range parts {
			if p.Type == "" || p.Type == "text" {
				sb.WriteString(p.Text)
			}
		}
		m.Content = sb.String()
	default:
		return errors.New("content is neither a string, null nor a list of parts")
	}
	if w.Reasoning != nil && *w.Reasoning != "" {
		m.Reasoning = *w.Reasoning
	} else if w.ReasoningContent != nil {
		m.Reasoning = *w.ReasoningContent
	}
	return nil
}

// MarshalJSON writes the wire form back (content null when ContentNull), so
// a stored response decodes to the same value.
func (m ResponseMessage) MarshalJSON() ([]byte, error) {
	type wire struct {
		Role      string     `json:"role"`
		Content   *string    `json:"content"`
		Reasoning string     `json:"reasoning,omitempty"`
		ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	}
	w := wire{Role: m.Role, Reasoning: m.Reasoning, ToolCalls: m.ToolCalls}
	if !m.ContentNull {
		w.Content = &m.Content
	}
	return marshal(w)
}

// Usage counts tokens; reasoning tokens are part of CompletionTokens.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// TimeInfo is Cerebras' server-side timing, in seconds.
type TimeInfo struct {
	QueueTime      float64 `json:"queue_time"`
	PromptTime     float64 `json:"prompt_time"`
	CompletionTime float64 `json:"completion_time"`
	TotalTime      float64 `json:"total_time"`
}

// LatencyMS is the provider-reported total time in milliseconds (0 when the
// server does not report it), the same on every replay.
func (r *ChatResponse) LatencyMS() float64 {
	if r.TimeInfo == nil {
		return 0
	}
	return math.Round(r.TimeInfo.TotalTime*1e6) / 1e3
}

// First returns the first choice; Chat guarantees there is one.
func (r *ChatResponse) First() Choice {
	if len(r.Choices) == 0 {
		return Choice{}
	}
	return r.Choices[0]
}

// DecodeResponse decodes a chat completion body. A body without choices is
// an error: there is nothing to act on.
func DecodeResponse(body []byte) (*ChatResponse, error) {
	var r ChatResponse
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, err
	}
	if len(r.Choices) == 0 {
		return nil, errors.New("no choices in the response")
	}
	return &r, nil
}
