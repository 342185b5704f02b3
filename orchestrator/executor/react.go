package executor

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// The seed's ReAct expressions are
//
//	actionRe = `(?m)^Action:\s*(\w+)\s*$`
//	inputRe  = `(?m)^Action Input:\s*(.+)$`
//
// and stay the core here, applied line by line and widened for what models
// really write: any letter case in the labels, markdown bold (**Action:**),
// a list marker, and backticks or quotes around the tool name.
var (
	reactActionRe = regexp.MustCompile(`(?i)^[ \t]*(?:[-*>][ \t]+)?(?:\*\*|__)?Action(?:\*\*|__)?[ \t]*:(?:\*\*|__)?[ \t]*[\x60'"]?(\w+)[\x60'"]?[ \t]*$`)
	reactInputRe  = regexp.MustCompile(`(?i)^[ \t]*(?:[-*>][ \t]+)?(?:\*\*|__)?Action[ _]Input(?:\*\*|__)?[ \t]*:(?:\*\*|__)?[ \t]*(.*)$`)
	// reactLabelRe ends an Action Input: its JSON may span lines up to the
	// next labelled line.
	reactLabelRe = regexp.MustCompile(`(?i)^[ \t]*(?:[-*>][ \t]+)?(?:\*\*|__)?(?:Thought|Action|Action[ _]Input|Observation|Final[ _]Answer)(?:\*\*|__)?[ \t]*:`)
)

// reactDone is the pseudo-tool that ends a ReAct run (Action: done).
const reactDone = "done"

type reactStep struct {
	name     string
	line     int
	input    string
	hasInput bool
}

// parseReact extracts every Action / Action Input step of text, in order.
// Several steps in one message are all returned (models often write the
// next step, or a whole imagined run, before seeing any tool result).
func parseReact(text string) parsed {
	var steps []reactStep
	var out parsed
	lines := splitLines(text)
	for i := 0; i < len(lines); {
		line := lines[i]
		if m := reactActionRe.FindStringSubmatch(line); m != nil {
			steps = append(steps, reactStep{name: m[1], line: i + 1})
			i++
			continue
		}
		m := reactInputRe.FindStringSubmatch(line)
		if m == nil {
			i++
			continue
		}
		j := i + 1
		for j < len(lines) && !reactLabelRe.MatchString(lines[j]) {
			j++
		}
		body := m[1]
		if j > i+1 {
			body += "\n" + strings.Join(lines[i+1:j], "\n")
		}
		if n := len(steps); n > 0 && !steps[n-1].hasInput {
			steps[n-1].input, steps[n-1].hasInput = body, true
		} else {
			out.matched = true
			out.findings = append(out.findings, Finding{Kind: FindingMalformed, Strategy: ReAct,
				Message: fmt.Sprintf("line %d: Action Input without an Action; ignored", i+1)})
		}
		i = j
	}
	for _, s := range steps {
		out.matched = true
		if strings.EqualFold(s.name, reactDone) {
			out.done = true
			continue
		}
		if !s.hasInput {
			out.findings = append(out.findings, Finding{Kind: FindingMalformed, Strategy: ReAct,
				Message: fmt.Sprintf("line %d: Action %s has no Action Input; no call extracted", s.line, s.name)})
			continue
		}
		args, f, ok := reactArguments(s.name, s.input)
		if !ok {
			out.findings = append(out.findings, Finding{Kind: FindingMalformed, Strategy: ReAct,
				Message: fmt.Sprintf("line %d: Action %s: %s; no call extracted", s.line, s.name, f)})
			continue
		}
		out.calls = append(out.calls, Call{Name: s.name, Arguments: args})
		if f != "" {
			out.findings = append(out.findings, Finding{Kind: FindingNonJSONInput, Call: len(out.calls), Strategy: ReAct,
				Message: fmt.Sprintf("line %d: Action %s: %s", s.line, s.name, f)})
		}
	}
	return out
}

// reactArguments decodes an Action Input body: a JSON object, possibly in a
// code fence and spanning lines. Plain text is accepted as the argument of a
// tool that takes exactly one (web_search: Rust async), with a note. ok is
// false when no arguments could be read; note then says why.
func reactArguments(tool, body string) (args map[string]any, note string, ok bool) {
	s := stripFence(strings.TrimSpace(body))
	if s == "" {
		return nil, "empty Action Input", false
	}
	if s[0] == '{' {
		dec := json.NewDecoder(strings.NewReader(s))
		dec.UseNumber()
		var v map[string]any
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Sprintf("Action Input is not valid JSON: %v", err), false
		}
		if v == nil {
			v = map[string]any{}
		}
		return v, "", true
	}
	// Plain text: the first line, unquoted, for a single-argument tool.
	first, _, _ := strings.Cut(s, "\n")
	first = strings.TrimSpace(first)
	if len(first) >= 2 && first[0] == '"' {
		var str string
		if json.Unmarshal([]byte(first), &str) == nil {
			first = str
		}
	}
	first = unquote(first)
	folded := strings.ReplaceAll(strings.ToLower(tool), "-", "_")
	spec, known := toolArgs[folded]
	if !known || len(spec) != 1 || first == "" {
		return nil, "Action Input is not a JSON object", false
	}
	return map[string]any{spec[0].name: first}, fmt.Sprintf("Action Input is not JSON; read as %s", spec[0].name), true
}

// stripFence removes a markdown code fence around s (```json … ```, on one
// line or several), if any.
func stripFence(s string) string {
	if !strings.HasPrefix(s, "```") {
		return s
	}
	rest := strings.TrimLeft(s, "`")
	if nl := strings.IndexByte(rest, '\n'); nl >= 0 && !strings.ContainsAny(rest[:nl], "{[\"") {
		rest = rest[nl+1:] // drop the info string line (json)
	} else {
		rest = strings.TrimLeft(rest, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") // ```json {…}```
	}
	if k := strings.Index(rest, "```"); k >= 0 {
		rest = rest[:k]
	}
	return strings.TrimSpace(rest)
}

// unquote removes one pair of matching quotes or backticks around s.
func unquote(s string) string {
	if len(s) >= 2 {
		switch q := s[0]; q {
		case '"', '\'', '`':
			if s[len(s)-1] == q {
				return strings.TrimSpace(s[1 : len(s)-1])
			}
		}
	}
	return s
}

// splitLines splits text into lines without their line endings.
func splitLines(text string) []string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}
