package executor

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// maxGuidedAttempts bounds how many '{' positions parseGuided tries to
// decode from. Each failed attempt can read to the end of the text, so an
// unbounded scan would be quadratic on long outputs full of braces.
const maxGuidedAttempts = 16

// guidedStartRe recognises the start of a {reasoning, tool_calls, done}
// object, to tell a truncated attempt from unrelated braces.
var guidedStartRe = regexp.MustCompile(`^\{\s*"(?:reasoning|tool_calls|done)"`)

// parsed is what one strategy made of one text.
type parsed struct {
	matched  bool // the strategy recognised its format (calls, done, or a malformed attempt)
	calls    []Call
	done     bool
	findings []Finding // Call is the 1-based index into calls, or 0
	form     string    // which written form was recognised (Form*)
}

// parseGuided finds the guided-decoding object in text, validates it against
// the schema and extracts its tool calls.
//
// Under constrained decoding the text is the bare object. Without it (a
// provider that ignores the schema, a server without a reasoning parser) the
// object can be wrapped in a code fence or follow prose, so the first object
// carrying a reasoning, tool_calls or done key is taken, wherever it starts.
func parseGuided(text string, sch *jsonschema.Schema) parsed {
	var obj map[string]any
	var decodeErr error
	attempts := 0
	for i := 0; i < len(text) && attempts < maxGuidedAttempts; i++ {
		j := strings.IndexByte(text[i:], '{')
		if j < 0 {
			break
		}
		i += j
		rest := text[i:]
		if k := strings.TrimLeft(rest[1:], " \t\r\n"); k == "" || (k[0] != '"' && k[0] != '}') {
			continue // not the start of an object with keys
		}
		attempts++
		dec := json.NewDecoder(strings.NewReader(rest))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			if decodeErr == nil && guidedStartRe.MatchString(rest) {
				decodeErr = err
			}
			continue
		}
		m, ok := v.(map[string]any)
		if !ok {
			continue
		}
		if _, ok := m["tool_calls"]; ok {
			obj = m
		} else if _, ok := m["done"]; ok {
			obj = m
		} else if _, ok := m["reasoning"]; ok {
			obj = m
		}
		if obj != nil {
			break
		}
	}
	if obj == nil {
		if decodeErr != nil {
			return parsed{matched: true, form: FormGuided, findings: []Finding{{Kind: FindingMalformed, Strategy: GuidedJSON,
				Message: fmt.Sprintf("guided JSON object does not decode: %v", decodeErr)}}}
		}
		return parsed{}
	}

	out := parsed{matched: true, form: FormGuided}
	if sch != nil {
		if err := sch.Validate(any(obj)); err != nil {
			out.findings = append(out.findings, schemaFindings(err)...)
		}
	}
	out.done, _ = obj["done"].(bool)
	items, _ := obj["tool_calls"].([]any)
	for i, it := range items {
		m, ok := it.(map[string]any)
		name, _ := m["name"].(string)
		if !ok || strings.TrimSpace(name) == "" {
			out.findings = append(out.findings, Finding{Kind: FindingMalformed, Strategy: GuidedJSON,
				Message: fmt.Sprintf("tool_calls[%d] has no name; skipped", i)})
			continue
		}
		c := Call{Name: name, Arguments: map[string]any{}}
		switch a := m["arguments"].(type) {
		case map[string]any:
			c.Arguments = a
		case string:
			// OpenAI-style tool calls carry arguments as a JSON string; the
			// schema finding already says so, but the intent is clear.
			dec := json.NewDecoder(strings.NewReader(a))
			dec.UseNumber()
			var args map[string]any
			if err := dec.Decode(&args); err != nil || args == nil {
				out.findings = append(out.findings, Finding{Kind: FindingMalformed, Strategy: GuidedJSON,
					Message: fmt.Sprintf("tool_calls[%d] (%s): arguments string is not a JSON object; skipped", i, name)})
				continue
			}
			c.Arguments = args
		}
		out.calls = append(out.calls, c)
	}
	return out
}
