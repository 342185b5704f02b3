package llm

import (
	"bytes"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/searchbench/searchbench/lib/jsonx"
)

// appendRequest appends the body of r without Extra: the bytes
// encoding/json writes for it (struct field order, HTML left unescaped).
// Messages, which hold the long texts and are re-sent on every round of a
// conversation, are written directly; the small rest goes through
// encoding/json. FuzzRequestBody checks the two agree.
func appendRequest(b []byte, r *ChatRequest) ([]byte, error) {
	b = append(b, `{"model":`...)
	b = appendString(b, r.Model)
	b = append(b, `,"messages":[`...)
	for i := range r.Messages {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendMessage(b, &r.Messages[i])
	}
	b = append(b, ']')
	var err error
	field := func(name string, v any) {
		if err != nil {
			return
		}
		var enc []byte
		if enc, err = jsonx.Marshal(v); err == nil {
			b = append(b, `,"`...)
			b = append(b, name...)
			b = append(b, `":`...)
			b = append(b, enc...)
		}
	}
	if len(r.Tools) > 0 {
		var enc []byte
		if enc, err = encodeTools(r.Tools); err == nil {
			b = append(b, `,"tools":`...)
			b = append(b, enc...)
		}
	}
	if r.ToolChoice != "" {
		field("tool_choice", r.ToolChoice)
	}
	if r.ResponseFormat != nil {
		field("response_format", r.ResponseFormat)
	}
	if r.Temperature != nil {
		field("temperature", *r.Temperature)
	}
	if err != nil {
		return nil, err
	}
	if r.Seed != nil {
		b = append(b, `,"seed":`...)
		b = strconv.AppendInt(b, int64(*r.Seed), 10)
	}
	if r.MaxCompletionTokens != 0 {
		b = append(b, `,"max_completion_tokens":`...)
		b = strconv.AppendInt(b, int64(r.MaxCompletionTokens), 10)
	}
	if r.ReasoningEffort != "" {
		b = append(b, `,"reasoning_effort":`...)
		b = appendString(b, r.ReasoningEffort)
	}
	return append(b, '}'), nil
}

// toolsCache keeps the encodings of the last few tool lists: every Phase 2
// request offers the same tools, and encoding/json compacts each tool's
// JSON Schema again every time.
var toolsCache struct {
	sync.Mutex
	entries []toolsEntry // most recent first
}

type toolsEntry struct {
	tools []Tool // a deep copy: callers may reuse their slice
	enc   []byte
}

const toolsCacheSize = 8

// encodeTools returns the encoding of tools, from toolsCache when an equal
// list was encoded before.
func encodeTools(tools []Tool) ([]byte, error) {
	c := &toolsCache
	c.Lock()
	for _, e := range c.entries {
		if toolsEqual(e.tools, tools) {
			c.Unlock()
			return e.enc, nil
		}
	}
	c.Unlock()
	enc, err := jsonx.Marshal(tools)
	if err != nil {
		return nil, err
	}
	cp := make([]Tool, len(tools))
	for i, t := range tools {
		cp[i] = t
		cp[i].Function.Parameters = bytes.Clone(t.Function.Parameters)
	}
	c.Lock()
	c.entries = append([]toolsEntry{{cp, enc}}, c.entries[:min(len(c.entries), toolsCacheSize-1)]...)
	c.Unlock()
	return enc, nil
}

func toolsEqual(a, b []Tool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := &a[i], &b[i]
		if x.Type != y.Type || x.Function.Name != y.Function.Name || x.Function.Description != y.Function.Description ||
			x.Function.Strict != y.Function.Strict || !bytes.Equal(x.Function.Parameters, y.Function.Parameters) ||
			(x.Function.Parameters == nil) != (y.Function.Parameters == nil) {
			return false
		}
	}
	return true
}

// appendMessage appends m as Message.MarshalJSON writes it.
func appendMessage(b []byte, m *Message) []byte {
	b = append(b, `{"role":`...)
	b = appendString(b, m.Role)
	b = append(b, `,"content":`...)
	if m.Content != "" || len(m.ToolCalls) == 0 {
		b = appendString(b, m.Content)
	} else {
		b = append(b, "null"...)
	}
	if len(m.ToolCalls) > 0 {
		b = append(b, `,"tool_calls":[`...)
		for i, tc := range m.ToolCalls {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"id":`...)
			b = appendString(b, tc.ID)
			b = append(b, `,"type":`...)
			b = appendString(b, tc.Type)
			b = append(b, `,"function":{"name":`...)
			b = appendString(b, tc.Function.Name)
			b = append(b, `,"arguments":`...)
			b = appendString(b, tc.Function.Arguments)
			b = append(b, "}}"...)
		}
		b = append(b, ']')
	}
	if m.ToolCallID != "" {
		b = append(b, `,"tool_call_id":`...)
		b = appendString(b, m.ToolCallID)
	}
	if m.Name != "" {
		b = append(b, `,"name":`...)
		b = appendString(b, m.Name)
	}
	return append(b, '}')
}

// appendString appends s as a JSON string exactly as encoding/json writes
// it with HTML escaping off: '"', '\\' and control characters escaped (\b,
// \f, \n, \r and \t by name), invalid UTF-8 as \ufffd, U+2028 and U+2029 as
// \u2028 and \u2029, everything else as it is. Runs of plain ASCII, most
// of any prompt, are skipped eight bytes at a time.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		for i+8 <= len(s) && plainASCII(load64(s, i)) {
			i += 8
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// plainASCII reports whether the eight bytes of x are ASCII that a JSON
// string holds as they are: none is below 0x20, '"', '\\' or non-ASCII.
func plainASCII(x uint64) bool {
	const (
		lo = 0x0101010101010101
		hi = 0x8080808080808080
	)
	q := x ^ (lo * '"')
	s := x ^ (lo * '\\')
	// (v-lo)&^v&hi is non-zero when a byte of v is zero; (x-lo*0x20)&^x&hi
	// when a byte of x is below 0x20; x&hi when a byte is non-ASCII.
	return ((q-lo)&^q|(s-lo)&^s|(x-lo*0x20)&^x|x)&hi == 0
}

// load64 reads s[i:i+8] as a little-endian word (the compiler merges the
// byte loads into one).
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
