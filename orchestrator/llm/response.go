package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"

	"github.com/searchbench/searchbench/lib/jsonx"
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
	return jsonx.Marshal(w)
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
	r, ok := decodeFast(body)
	if !ok {
		// The general path, which also words every error.
		r = new(ChatResponse)
		if err := json.Unmarshal(body, r); err != nil {
			return nil, err
		}
	}
	if len(r.Choices) == 0 {
		return nil, errors.New("no choices in the response")
	}
	return r, nil
}

// decodeFast reads the usual response in one pass: an object whose choices
// each have a message with string or null content. Anything else (a
// malformed body, a key that matches a field only case-insensitively, a
// repeated field, content as a list of parts, a choice without a message)
// reports false, and the general path decodes the body instead, with the
// result and errors it always had; FuzzDecodeResponse checks that the two
// agree. The general path's nested UnmarshalJSON methods validate and
// decode every message and its content several times over.
func decodeFast(body []byte) (*ChatResponse, bool) {
	r := jsonx.NewReader(body)
	resp := &ChatResponse{}
	var seen jsonx.Fields
	ok := r.Object(func(key []byte) bool {
		switch string(key) {
		case "id":
			return seen.Once(0) && r.StringInto(&resp.ID)
		case "model":
			return seen.Once(1) && r.StringInto(&resp.Model)
		case "system_fingerprint":
			return seen.Once(2) && r.StringInto(&resp.SystemFingerprint)
		case "choices":
			if !seen.Once(3) {
				return false
			}
			if r.Null() {
				return true
			}
			resp.Choices = []Choice{} // "[]" decodes to an empty, non-nil slice
			return r.Array(func() bool {
				c, ok := readChoice(r)
				resp.Choices = append(resp.Choices, c)
				return ok
			})
		case "usage":
			return seen.Once(4) && (r.Null() || readUsage(r, &resp.Usage))
		case "time_info":
			if !seen.Once(5) {
				return false
			}
			if r.Null() {
				return true
			}
			resp.TimeInfo = &TimeInfo{}
			return readTimeInfo(r, resp.TimeInfo)
		}
		return r.SkipUnknown(key, "id", "model", "system_fingerprint", "choices", "usage", "time_info")
	})
	if !ok || !r.End() {
		return nil, false
	}
	return resp, true
}

func readChoice(r *jsonx.Reader) (Choice, bool) {
	var c Choice
	var seen jsonx.Fields
	hasMessage := false
	ok := r.Object(func(key []byte) bool {
		switch string(key) {
		case "index":
			if !seen.Once(0) {
				return false
			}
			if r.Null() {
				return true
			}
			n, ok := r.Int()
			c.Index = n
			return ok
		case "message":
			if !seen.Once(1) || r.Null() {
				return false // a null message decodes differently from an absent one
			}
			hasMessage = true
			return readMessage(r, &c.Message)
		case "finish_reason":
			return seen.Once(2) && r.StringInto(&c.FinishReason)
		}
		return r.SkipUnknown(key, "index", "message", "finish_reason")
	})
	return c, ok && hasMessage
}

func readMessage(r *jsonx.Reader, m *ResponseMessage) bool {
	var seen jsonx.Fields
	var reasoning, reasoningContent *string
	content := false
	ok := r.Object(func(key []byte) bool {
		switch string(key) {
		case "role":
			return seen.Once(0) && r.StringInto(&m.Role)
		case "content":
			if !seen.Once(1) {
				return false
			}
			if r.Null() {
				return true
			}
			v, ok := r.String() // a list of parts is left to the general path
			m.Content, content = v, true
			return ok
		case "reasoning":
			if !seen.Once(2) {
				return false
			}
			if r.Null() {
				return true
			}
			v, ok := r.String()
			reasoning = &v
			return ok
		case "reasoning_content":
			if !seen.Once(3) {
				return false
			}
			if r.Null() {
				return true
			}
			v, ok := r.String()
			reasoningContent = &v
			return ok
		case "tool_calls":
			if !seen.Once(4) {
				return false
			}
			if r.Null() {
				return true
			}
			var calls []ToolCall
			ok := r.Array(func() bool {
				tc, ok := readToolCall(r)
				calls = append(calls, tc)
				return ok
			})
			if len(calls) > 0 {
				m.ToolCalls = calls
			}
			return ok
		}
		return r.SkipUnknown(key, "role", "content", "reasoning", "reasoning_content", "tool_calls")
	})
	m.ContentNull = !content
	if reasoning != nil && *reasoning != "" {
		m.Reasoning = *reasoning
	} else if reasoningContent != nil {
		m.Reasoning = *reasoningContent
	}
	return ok
}

func readToolCall(r *jsonx.Reader) (ToolCall, bool) {
	var tc ToolCall
	var seen jsonx.Fields
	ok := r.Object(func(key []byte) bool {
		switch string(key) {
		case "id":
			return seen.Once(0) && r.StringInto(&tc.ID)
		case "type":
			return seen.Once(1) && r.StringInto(&tc.Type)
		case "function":
			if !seen.Once(2) || r.Null() {
				return false
			}
			var fs jsonx.Fields
			var args []byte
			ok := r.Object(func(key []byte) bool {
				switch string(key) {
				case "name":
					return fs.Once(0) && r.StringInto(&tc.Function.Name)
				case "arguments":
					if !fs.Once(1) {
						return false
					}
					raw, ok := r.Raw()
					args = raw
					return ok
				}
				return r.SkipUnknown(key, "name", "arguments")
			})
			return ok && tc.Function.setArguments(args) == nil
		}
		return r.SkipUnknown(key, "id", "type", "function")
	})
	return tc, ok
}

func readUsage(r *jsonx.Reader, u *Usage) bool {
	var seen jsonx.Fields
	return r.Object(func(key []byte) bool {
		var dst *int
		switch string(key) {
		case "prompt_tokens":
			dst = &u.PromptTokens
		case "completion_tokens":
			dst = &u.CompletionTokens
		case "total_tokens":
			dst = &u.TotalTokens
		default:
			return r.SkipUnknown(key, "prompt_tokens", "completion_tokens", "total_tokens")
		}
		if !seen.Once(fieldIndex(key)) {
			return false
		}
		if r.Null() {
			return true
		}
		n, ok := r.Int()
		*dst = n
		return ok
	})
}

func readTimeInfo(r *jsonx.Reader, t *TimeInfo) bool {
	var seen jsonx.Fields
	return r.Object(func(key []byte) bool {
		var dst *float64
		switch string(key) {
		case "queue_time":
			dst = &t.QueueTime
		case "prompt_time":
			dst = &t.PromptTime
		case "completion_time":
			dst = &t.CompletionTime
		case "total_time":
			dst = &t.TotalTime
		default:
			return r.SkipUnknown(key, "queue_time", "prompt_time", "completion_time", "total_time")
		}
		if !seen.Once(fieldIndex(key)) {
			return false
		}
		if r.Null() {
			return true
		}
		f, ok := r.Float()
		*dst = f
		return ok
	})
}

// fieldIndex numbers the numeric fields of Usage and TimeInfo for fields.
func fieldIndex(key []byte) int {
	switch string(key) {
	case "prompt_tokens", "queue_time":
		return 0
	case "completion_tokens", "prompt_time":
		return 1
	case "total_tokens", "completion_time":
		return 2
	}
	return 3
}
