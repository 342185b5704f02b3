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
	reactActionRe = regexp.MustCompile(`(?i)^[ \t]*(?:[-*>][ \t]+)?(?:\*\*|__)?Action(?:[ \t]*\d+)?(?:\*\*|__)?[ \t]*:(?:\*\*|__)?[ \t]*[\x60'"]?(\w+)[\x60'"]?(?:[ \t]+\([^)]*\))?[ \t]*$`)
	// reactActionEmptyRe is an Action label with the tool on the next line,
	// or a JSON blob after it (LangChain's ReAct-JSON).
	reactActionEmptyRe = regexp.MustCompile(`(?i)^[ \t]*(?:[-*>][ \t]+)?(?:\*\*|__)?Action(?:[ \t]*\d+)?(?:\*\*|__)?[ \t]*:(?:\*\*|__)?[ \t]*$`)
	reactToolLineRe    = regexp.MustCompile(`^[ \t]*[\x60'"]?(\w+)[\x60'"]?[ \t]*$`)
	reactInputRe       = regexp.MustCompile(`(?i)^[ \t]*(?:[-*>][ \t]+)?(?:\*\*|__)?Action[ _]Input(?:[ \t]*\d+)?(?:\*\*|__)?[ \t]*:(?:\*\*|__)?[ \t]*(.*)$`)
	// reactBracketRe is the ReAct paper's form, which LangChain's
	// ReActDocstore agent reads: "Action 1: Search[Apple Remote]".
	reactBracketRe = regexp.MustCompile(`(?i)^[ \t]*(?:[-*>][ \t]+)?(?:\*\*|__)?Action(?:[ \t]*\d+)?(?:\*\*|__)?[ \t]*:(?:\*\*|__)?[ \t]*(\w+)\[(.*)\][ \t]*$`)
	reactFinalRe   = regexp.MustCompile(`(?i)^[ \t]*(?:[-*>][ \t]+)?(?:\*\*|__)?Final[ _]Answer(?:\*\*|__)?[ \t]*:`)
	// reactLabelRe ends an Action Input: its JSON may span lines up to the
	// next labelled line.
	reactLabelRe = regexp.MustCompile(`(?i)^[ \t]*(?:[-*>][ \t]+)?(?:\*\*|__)?(?:Thought|Action|Action[ _]Input|Observation|Final[ _]Answer)(?:\*\*|__)?[ \t]*:`)
)

// reactDone is the pseudo-tool that ends a ReAct run (Action: done).
const reactDone = "done"

// FindingPythonDict notes an Action Input written as a Python dict
// ({'query': 'x'}) rather than JSON; the call is extracted when the literal
// is unambiguous.
const FindingPythonDict = "python_dict"

type reactStep struct {
	name     string
	line     int
	input    string
	hasInput bool
	blob     bool // from a {"action": …, "action_input": …} blob, or bracket: args already read
	bracket  bool // Action: tool[input]
	args     map[string]any
}

// parseReact extracts every Action / Action Input step of text, in order.
// Several steps in one message are all returned (models often write the
// next step, or a whole imagined run, before seeing any tool result).
//
// Also read, as models and agent frameworks write them:
//   - the tool name on the line after a bare "Action:";
//   - "Action: web_search (search the web)": the description is dropped;
//   - LangChain's ReAct-JSON blob, fenced or not, with or without an
//     "Action:" label: {"action": "web_search", "action_input": {…}};
//     "action": "Final Answer" is the answer, no call;
//   - an Action Input written as a Python dict (a python_dict finding).
//
// A "Final Answer:" before any Action means the model answered: no call,
// and any Action after it is ignored with a finding.
func parseReact(text string) parsed {
	var steps []reactStep
	var out parsed
	lines := splitLines(text)
	for i := 0; i < len(lines); {
		line := lines[i]
		if len(steps) == 0 && reactFinalRe.MatchString(line) {
			out.matched, out.done, out.form = true, true, FormReact
			for _, rest := range lines[i+1:] {
				if reactActionRe.MatchString(rest) || reactActionEmptyRe.MatchString(rest) {
					out.findings = append(out.findings, Finding{Kind: FindingMalformed, Strategy: ReAct,
						Message: fmt.Sprintf("line %d: Final Answer before any Action; the Actions after it are ignored", i+1)})
					break
				}
			}
			return out
		}
		if m := reactBracketRe.FindStringSubmatch(line); m != nil {
			st := reactStep{name: m[1], line: i + 1, blob: true, args: map[string]any{}}
			if strings.EqualFold(m[1], "finish") {
				st.name = reactDone // Finish[answer] ends the run
			} else if spec, known := toolArgs[strings.ToLower(m[1])]; known && len(spec) > 0 {
				st.args[spec[0].name] = strings.TrimSpace(m[2])
			} else {
				st.args["input"] = strings.TrimSpace(m[2])
			}
			st.bracket = true
			steps = append(steps, st)
			i++
			continue
		}
		if m := reactActionRe.FindStringSubmatch(line); m != nil {
			steps = append(steps, reactStep{name: m[1], line: i + 1})
			i++
			continue
		}
		if reactActionEmptyRe.MatchString(line) {
			j := i + 1
			for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
				j++
			}
			if j < len(lines) && !reactLabelRe.MatchString(lines[j]) {
				if m := reactToolLineRe.FindStringSubmatch(lines[j]); m != nil {
					steps = append(steps, reactStep{name: m[1], line: j + 1})
					i = j + 1
					continue
				}
			}
			i++
			continue // a blob follows, read below
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
	if len(steps) == 0 {
		steps = reactBlobs(text, &out)
	}
	out.form = FormReact
	firstLine := 0
	for _, s := range steps {
		out.matched = true
		if s.blob && !s.bracket {
			out.form = FormReactJSON
		}
		if strings.EqualFold(s.name, reactDone) {
			if len(out.calls) > 0 {
				out.findings = append(out.findings, Finding{Kind: FindingDropped, Strategy: ReAct,
					Message: fmt.Sprintf("line %d: Action done dropped: the Action on line %d runs first", s.line, firstLine)})
				continue
			}
			out.done = true
			continue
		}
		args, f, ok := s.args, "", s.args != nil
		if !s.blob {
			if !s.hasInput {
				out.findings = append(out.findings, Finding{Kind: FindingMalformed, Strategy: ReAct,
					Message: fmt.Sprintf("line %d: Action %s has no Action Input; no call extracted", s.line, s.name)})
				continue
			}
			args, f, ok = reactArguments(s.name, s.input)
		}
		if !ok {
			out.findings = append(out.findings, Finding{Kind: FindingMalformed, Strategy: ReAct,
				Message: fmt.Sprintf("line %d: Action %s: %s; no call extracted", s.line, s.name, f)})
			continue
		}
		if len(out.calls) > 0 {
			// One action per step (the prompt's rule): the first is the
			// call; a later one was written before any observation.
			out.findings = append(out.findings, Finding{Kind: FindingDropped, Strategy: ReAct,
				Message: fmt.Sprintf("line %d: Action %s dropped: only the first Action (line %d) is the call", s.line, s.name, firstLine)})
			continue
		}
		firstLine = s.line
		out.calls = append(out.calls, Call{Name: s.name, Arguments: args})
		switch {
		case strings.HasPrefix(f, repairedPrefix):
			out.findings = append(out.findings, Finding{Kind: FindingRepaired, Call: len(out.calls), Strategy: ReAct,
				Message: fmt.Sprintf("line %d: Action %s: %s", s.line, s.name, f)})
		case f == pyDictNote:
			out.form = FormPythonDict
			out.findings = append(out.findings, Finding{Kind: FindingPythonDict, Call: len(out.calls), Strategy: ReAct,
				Message: fmt.Sprintf("line %d: Action %s: %s", s.line, s.name, f)})
		case f != "":
			out.findings = append(out.findings, Finding{Kind: FindingNonJSONInput, Call: len(out.calls), Strategy: ReAct,
				Message: fmt.Sprintf("line %d: Action %s: %s", s.line, s.name, f)})
		}
	}
	return out
}

// reactBlobs finds LangChain ReAct-JSON blobs: JSON objects, fenced or
// not, with a string "action" and optionally "action_input". A string
// action_input is the argument of a one-argument tool, as in LangChain's
// single-input parser. "action": "Final Answer" ends the run.
func reactBlobs(text string, out *parsed) []reactStep {
	var steps []reactStep
	line := 1
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			line++
			continue
		}
		if text[i] != '{' {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(text[i:]))
		dec.UseNumber()
		var blob map[string]any
		if dec.Decode(&blob) != nil {
			continue
		}
		name, ok := blob["action"].(string)
		if !ok || strings.TrimSpace(name) == "" {
			continue
		}
		end := i + int(dec.InputOffset())
		line += strings.Count(text[i:end], "\n")
		i = end - 1
		if strings.EqualFold(name, "final answer") || strings.EqualFold(name, "final_answer") {
			out.matched, out.done = true, true
			return steps
		}
		st := reactStep{name: name, line: line, blob: true}
		switch in := blob["action_input"].(type) {
		case map[string]any:
			st.args = in
		case string:
			folded := strings.ReplaceAll(strings.ToLower(name), "-", "_")
			if spec, known := toolArgs[folded]; known && len(spec) == 1 {
				st.args = map[string]any{spec[0].name: in}
			}
		case nil:
			st.args = map[string]any{}
		}
		if st.args == nil {
			out.matched = true
			out.findings = append(out.findings, Finding{Kind: FindingMalformed, Strategy: ReAct,
				Message: fmt.Sprintf("line %d: action %s: action_input is neither an object nor the one argument of a known tool; no call extracted", line, name)})
			continue
		}
		steps = append(steps, st)
	}
	return steps
}

// pyDictNote is reactArguments' note for a Python dict Action Input.
const pyDictNote = "Action Input is a Python dict, not JSON; read as one"

// reactArguments decodes an Action Input body: a JSON object, possibly in a
// code fence, spanning lines, or wrapped in a call (Tool({…})). A Python
// dict literal is read too (note pyDictNote). Plain text is accepted as the
// argument of a tool that takes exactly one (web_search: Rust async), with
// a note. ok is false when no arguments could be read; note then says why.
func reactArguments(tool, body string) (args map[string]any, note string, ok bool) {
	s := stripFence(strings.TrimSpace(body))
	if strings.HasPrefix(s, "*") {
		// CrewAI's test: "Action Input: ** {…}" (a markdown bold left open).
		if t := strings.TrimSpace(strings.TrimLeft(s, "*")); strings.HasPrefix(t, "{") {
			s = t
		}
	}
	if s == "" {
		return nil, "empty Action Input", false
	}
	if k := strings.IndexByte(s, '{'); k > 0 && strings.HasSuffix(strings.TrimRight(s, " .;"), ")") && wrapperRe.MatchString(s[:k]) {
		s = s[k:] // QueryEngineTool({"a": 1})
	}
	if s[0] == '{' {
		dec := json.NewDecoder(strings.NewReader(s))
		dec.UseNumber()
		var v map[string]any
		err := dec.Decode(&v)
		if err == nil {
			if v == nil {
				v = map[string]any{}
			}
			return v, "", true
		}
		if py, _, perr := parsePyDict(s); perr == nil {
			return py, pyDictNote, true
		}
		if v, note, ok := repairJSON(s); ok {
			return v, note, true
		}
		return nil, fmt.Sprintf("Action Input is not valid JSON: %v", err), false
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

// repairJSON reads two slips other ReAct parsers repair (CrewAI's tests):
// curly quotes in place of straight ones, and an object whose closing
// braces are missing at the end of the output. Nothing else is guessed.
func repairJSON(s string) (map[string]any, string, bool) {
	decode := func(t string) map[string]any {
		dec := json.NewDecoder(strings.NewReader(t))
		dec.UseNumber()
		var v map[string]any
		if dec.Decode(&v) != nil || v == nil {
			return nil
		}
		return v
	}
	notes := []string{}
	t := s
	if strings.ContainsAny(t, "\u201c\u201d") {
		t = strings.NewReplacer("\u201c", `"`, "\u201d", `"`).Replace(t)
		notes = append(notes, "curly quotes read as straight ones")
		if v := decode(t); v != nil {
			return v, repairedPrefix + strings.Join(notes, "; "), true
		}
	}
	if open := unclosed(t); open > 0 {
		if v := decode(t + strings.Repeat("}", open)); v != nil {
			notes = append(notes, fmt.Sprintf("%d missing closing brace(s) added", open))
			return v, repairedPrefix + strings.Join(notes, "; "), true
		}
	}
	return nil, "", false
}

// repairedPrefix starts reactArguments' note for a repaired object.
const repairedPrefix = "Action Input repaired: "

// FindingRepaired notes an Action Input read after repairing a slip
// (curly quotes, missing closing braces); FindingDropped an Action after
// the first, which is not run.
const (
	FindingRepaired = "repaired"
	FindingDropped  = "dropped"
)

// unclosed counts the braces left open at the end of s, outside strings;
// -1 when a string is left open or a brace closes too early.
func unclosed(s string) int {
	depth, inStr, esc := 0, false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case c == '"':
			inStr = !inStr
		case !inStr && c == '{':
			depth++
		case !inStr && c == '}':
			depth--
			if depth < 0 {
				return -1
			}
		}
	}
	if inStr {
		return -1
	}
	return depth
}

// wrapperRe is a call wrapped around an Action Input object: Name(.
var wrapperRe = regexp.MustCompile(`^\w+\($`)

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
