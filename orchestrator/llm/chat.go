package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/searchbench/searchbench/lib/jsonx"
)

// Message roles.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// Finish reasons a server reports.
const (
	FinishStop          = "stop"
	FinishLength        = "length"
	FinishToolCalls     = "tool_calls"
	FinishContentFilter = "content_filter"
)

// ChatRequest is a chat completion request. Unset fields are omitted from
// the body, so a server applies its own defaults.
type ChatRequest struct {
	Model    string    `json:"model"` // empty: the client's configured model
	Messages []Message `json:"messages"`
	Tools    []Tool    `json:"tools,omitempty"`
	// ToolChoice is a mode ("auto", ...) or a function name to force.
	ToolChoice     ToolChoice      `json:"tool_choice,omitempty"`
	ResponseFormat *ResponseFormat `json:"response_format,omitempty"`
	Temperature    *float64        `json:"temperature,omitempty"` // pointer: 0 is a real setting
	Seed           *int            `json:"seed,omitempty"`
	// MaxCompletionTokens bounds reasoning and answer together for GPT-OSS.
	MaxCompletionTokens int    `json:"max_completion_tokens,omitempty"`
	ReasoningEffort     string `json:"reasoning_effort,omitempty"` // low|medium|high
	// Extra holds server-specific fields merged at the top level of the
	// body, in sorted key order: vLLM's "guided_json" (up to v0.11) or
	// "structured_outputs" ({"json": schema}, v0.10.2 on). A key that is
	// also a field above is an error rather than a silent override.
	Extra map[string]any `json:"-"`
}

// Message is one message of the conversation sent to the model.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
	// ToolCalls are the calls an assistant message made; the message's
	// content is then sent as null when empty.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ToolCallID ties a tool message to the call it answers.
	ToolCallID string `json:"tool_call_id,omitempty"`
	Name       string `json:"name,omitempty"`
}

// MarshalJSON writes content as null for an assistant message that only
// carries tool calls, as OpenAI-compatible servers expect.
func (m Message) MarshalJSON() ([]byte, error) {
	type wire struct {
		Role       string     `json:"role"`
		Content    *string    `json:"content"`
		ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
		ToolCallID string     `json:"tool_call_id,omitempty"`
		Name       string     `json:"name,omitempty"`
	}
	w := wire{Role: m.Role, ToolCalls: m.ToolCalls, ToolCallID: m.ToolCallID, Name: m.Name}
	if m.Content != "" || len(m.ToolCalls) == 0 {
		w.Content = &m.Content
	}
	return jsonx.Marshal(w)
}

// Tool is a function the model may call.
type Tool struct {
	Type     string      `json:"type"` // "function"
	Function FunctionDef `json:"function"`
}

// FunctionDef describes a callable function.
type FunctionDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"` // a JSON Schema, sent as written
	Strict      bool            `json:"strict,omitempty"`
}

// FunctionTool builds a function tool.
func FunctionTool(name, description string, parameters json.RawMessage, strict bool) Tool {
	return Tool{Type: "function", Function: FunctionDef{Name: name, Description: description, Parameters: parameters, Strict: strict}}
}

// ToolCall is a call the model made (in a response) or made earlier (in an
// assistant message sent back).
type ToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"` // "function"
	Function FunctionCall `json:"function"`
}

// FunctionCall names the function and carries its arguments as the JSON
// text the model wrote.
type FunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// UnmarshalJSON accepts arguments as a JSON string (the standard) or as a
// bare JSON value, which some servers send; the latter is kept as its text.
func (f *FunctionCall) UnmarshalJSON(b []byte) error {
	var w struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	f.Name = w.Name
	return f.setArguments(w.Arguments)
}

// setArguments sets Arguments from the JSON value of "arguments".
func (f *FunctionCall) setArguments(raw json.RawMessage) error {
	f.Arguments = ""
	args := bytes.TrimSpace(raw)
	switch {
	case len(args) == 0 || string(args) == "null":
	case args[0] == '"':
		if err := json.Unmarshal(args, &f.Arguments); err != nil {
			return fmt.Errorf("tool call %q arguments: %w", f.Name, err)
		}
	default:
		// Kept as text; invalid UTF-8 reads as U+FFFD, as it does inside a
		// JSON string, so the call survives a round trip through JSON.
		f.Arguments = validUTF8(args)
	}
	return nil
}

// validUTF8 returns b as a string with each byte that is not part of valid
// UTF-8 replaced by U+FFFD, as encoding/json decodes strings.
func validUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var sb strings.Builder
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n == 1 {
			sb.WriteRune(utf8.RuneError)
		} else {
			sb.Write(b[:n])
		}
		b = b[n:]
	}
	return sb.String()
}

// ToolChoice is tool_choice: one of the modes "none", "auto" and
// "required", or else the name of the one function the model must call,
// sent as {"type":"function","function":{"name":...}}.
type ToolChoice string

// Tool choice modes.
const (
	ToolChoiceNone     ToolChoice = "none"
	ToolChoiceAuto     ToolChoice = "auto"
	ToolChoiceRequired ToolChoice = "required"
)

// IsMode reports whether c is a mode rather than a function name.
func (c ToolChoice) IsMode() bool {
	return c == ToolChoiceNone || c == ToolChoiceAuto || c == ToolChoiceRequired
}

// MarshalJSON writes a mode as a string and a function name as the object
// form.
func (c ToolChoice) MarshalJSON() ([]byte, error) {
	if c.IsMode() {
		return jsonx.Marshal(string(c))
	}
	type fn struct {
		Name string `json:"name"`
	}
	return jsonx.Marshal(struct {
		Type     string `json:"type"`
		Function fn     `json:"function"`
	}{"function", fn{string(c)}})
}

// ResponseFormat asks for structured output. json_schema with strict set is
// the portable choice: it works on Cerebras and on every vLLM version.
type ResponseFormat struct {
	Type       string      `json:"type"` // "json_schema" or "json_object"
	JSONSchema *JSONSchema `json:"json_schema,omitempty"`
}

// JSONSchema is the json_schema member of a response format.
type JSONSchema struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Schema      json.RawMessage `json:"schema"`
	Strict      bool            `json:"strict"`
}

// JSONSchemaFormat returns a strict json_schema response format.
func JSONSchemaFormat(name string, schema json.RawMessage) *ResponseFormat {
	return &ResponseFormat{Type: "json_schema", JSONSchema: &JSONSchema{Name: name, Schema: schema, Strict: true}}
}

// body encodes the request as sent: struct fields in declaration order,
// then Extra keys in sorted order, so equal requests give equal bytes.
func (r *ChatRequest) body() ([]byte, error) {
	buf := bodyBuffers.Get().(*[]byte)
	defer bodyBuffers.Put(buf)
	base, err := appendRequest((*buf)[:0], r)
	if err != nil {
		return nil, err
	}
	*buf = base
	if len(r.Extra) == 0 {
		return bytes.Clone(base), nil
	}
	keys := make([]string, 0, len(r.Extra))
	for k := range r.Extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := bytes.NewBuffer(nil)
	out.Write(base[:len(base)-1]) // drop the closing brace
	var errs []error
	for _, k := range keys {
		if isField(k) {
			errs = append(errs, fmt.Errorf("extra body key %q is a standard request field: set the field instead", k))
			continue
		}
		v, err := jsonx.Marshal(r.Extra[k])
		if err != nil {
			errs = append(errs, fmt.Errorf("extra body key %q: %w", k, err))
			continue
		}
		name, _ := jsonx.Marshal(k)
		out.WriteByte(',')
		out.Write(name)
		out.WriteByte(':')
		out.Write(v)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	out.WriteByte('}')
	return out.Bytes(), nil
}

// bodyBuffers keeps encoding buffers between requests: every request of a
// conversation re-sends it whole, so the buffer would otherwise grow from
// nothing to the size of the conversation each time.
var bodyBuffers = sync.Pool{New: func() any { return new([]byte) }}

// isField reports whether k is a top-level field of ChatRequest, set or not.
func isField(k string) bool {
	switch k {
	case "model", "messages", "tools", "tool_choice", "response_format", "temperature",
		"seed", "max_completion_tokens", "reasoning_effort":
		return true
	}
	return false
}

// validate reports every problem of a request the server would reject or
// misread, before anything is sent.
func (r *ChatRequest) validate() error {
	var errs []error
	if r.Model == "" {
		errs = append(errs, errors.New("no model"))
	}
	if len(r.Messages) == 0 {
		errs = append(errs, errors.New("no messages"))
	}
	for i, m := range r.Messages {
		switch m.Role {
		case RoleSystem, RoleUser, RoleAssistant:
			if m.ToolCallID != "" {
				errs = append(errs, fmt.Errorf("messages[%d]: tool_call_id on a %s message", i, m.Role))
			}
		case RoleTool:
			if m.ToolCallID == "" {
				errs = append(errs, fmt.Errorf("messages[%d]: tool message without tool_call_id", i))
			}
		default:
			errs = append(errs, fmt.Errorf("messages[%d]: unknown role %q", i, m.Role))
		}
		if len(m.ToolCalls) > 0 && m.Role != RoleAssistant {
			errs = append(errs, fmt.Errorf("messages[%d]: tool_calls on a %s message", i, m.Role))
		}
	}
	seen := map[string]bool{}
	for i, t := range r.Tools {
		if t.Type != "function" {
			errs = append(errs, fmt.Errorf("tools[%d]: type %q, want \"function\"", i, t.Type))
		}
		if t.Function.Name == "" {
			errs = append(errs, fmt.Errorf("tools[%d]: no function name", i))
		} else if seen[t.Function.Name] {
			errs = append(errs, fmt.Errorf("tools[%d]: duplicate function %q", i, t.Function.Name))
		}
		seen[t.Function.Name] = true
		if p := t.Function.Parameters; len(p) > 0 && !json.Valid(p) {
			errs = append(errs, fmt.Errorf("tools[%d] (%s): parameters are not valid JSON", i, t.Function.Name))
		}
	}
	if c := r.ToolChoice; c != "" && !c.IsMode() && !seen[string(c)] {
		errs = append(errs, fmt.Errorf("tool_choice %q is neither none, auto, required nor one of the tools", string(c)))
	}
	if f := r.ResponseFormat; f != nil {
		if f.Type == "json_schema" && (f.JSONSchema == nil || f.JSONSchema.Name == "" || !json.Valid(f.JSONSchema.Schema)) {
			errs = append(errs, errors.New("response_format json_schema needs a name and a valid JSON schema"))
		}
	}
	return errors.Join(errs...)
}
