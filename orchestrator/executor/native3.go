package executor

import (
	"fmt"
	"regexp"
	"strings"
)

// The rest of the formats vLLM ships a tool parser for that have a syntax
// of their own, from vLLM's tool parsers and their tests
// (tests/tool_parsers/test_*_tool_parser.py; datasets/parser.yaml names the
// file and commit of each case):
//
//	phi4_mini_json  functools[{"name": …, "arguments": {…}}, …]   (Phi-4-mini)
//	jamba           <tool_calls>[{"name": …, "arguments": {…}}, …]</tool_calls>   (Jamba, Hunyuan-A13B)
//	minimax         <tool_calls>
//	                {"name": …, "arguments": {…}}
//	                {"name": …, "arguments": {…}}
//	                </tool_calls>   (MiniMax-M1, one object a line)
//	xlam            [{"name": …, "arguments": {…}}, …]: the whole text, after a
//	                <think>…</think>, or in a ```json fence   (xLAM; its
//	                [TOOL_CALLS] and <tool_call>[…] variants are mistral's
//	                and granite's)
//	step3           <｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="NAME">
//	                <steptml:parameter name="K">V</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>
//	longcat         <longcat_tool_call>{"name": …, "arguments": {…}}</longcat_tool_call>
//	olmo3           <function_calls>NAME(k='v')
//	                NAME2()</function_calls>   (Python calls, one a line)
//	apertus         <|tools_prefix|>[{"NAME": {…}}, …]<|tools_suffix|>
//
// Other vLLM parsers' syntaxes are read by the readers above: llama4_pythonic
// is pythonic, llama4_json is llama3_json, granite-20b-fc's
// <function_call> {…} is read as llama3_json, deepseek_v31 is deepseek_v3,
// qwen3_coder is qwen3_xml, openai is harmony.
//
// As elsewhere, a marker whose body cannot be read is a malformed attempt
// (a finding, no call); text without the marker is not the format.
const (
	FormPhi4Mini = "phi4_mini_json"
	FormJamba    = "jamba"
	FormMiniMax  = "minimax"
	FormXLAM     = "xlam"
	FormStep3    = "step3"
	FormLongcat  = "longcat"
	FormOlmo3    = "olmo3"
	FormApertus  = "apertus"
)

var (
	phi4Re          = regexp.MustCompile(`(?:^|[^\w.])functools\s*\[`)
	thinkRe         = regexp.MustCompile(`(?s)<think>.*?</think>`)
	fenceRe         = regexp.MustCompile("(?s)```[A-Za-z]*[ \t]*\n?(.*?)```")
	stepInvokeRe    = regexp.MustCompile(`(?s)<steptml:invoke\s+name="([^"]+)"\s*>(.*?)</steptml:invoke>`)
	stepParamRe     = regexp.MustCompile(`(?s)<steptml:parameter\s+name="([^"]+)"\s*>(.*?)</steptml:parameter>`)
	olmoCallStartRe = regexp.MustCompile(`^[A-Za-z_][\w.]*\s*\(`)
)

// readPhi4Mini reads functools followed by a JSON list of calls. The word
// alone (Python's functools module) is not the format; "functools[" with a
// list that cannot be read is a malformed attempt.
func readPhi4Mini(text string) (bool, []Call, []string) {
	loc := phi4Re.FindStringIndex(text)
	if loc == nil {
		return false, nil, nil
	}
	calls, problems := readJSONCallList(text[loc[1]-1:])
	return true, calls, problems
}

// readJSONCallList reads a JSON list of {name, arguments} objects at the
// start of s, after a marker: a list that cannot be read, an empty one or
// one of other objects is a problem.
func readJSONCallList(s string) ([]Call, []string) {
	v, _, err := decodeValue(s)
	if err != nil {
		return nil, []string{"the list after the marker is not JSON: " + err.Error()}
	}
	items, isArr := v.([]any)
	if !isArr {
		return nil, []string{"the marker is not followed by a list of calls"}
	}
	if len(items) == 0 {
		return nil, []string{"the list of calls is empty"}
	}
	calls, problems, ok := callList(v)
	if !ok {
		return nil, []string{"the list does not hold {name, arguments} objects"}
	}
	return calls, problems
}

// toolCallsShape is the first character of the first <tool_calls> block:
// '[' for Jamba's and Hunyuan-A13B's list, '{' for MiniMax-M1's objects,
// 0 without the tag or with prose after it.
func toolCallsShape(text string) byte {
	k := strings.Index(text, "<tool_calls>")
	if k < 0 {
		return 0
	}
	s := strings.TrimSpace(text[k+len("<tool_calls>"):])
	if s == "" || (s[0] != '[' && s[0] != '{') {
		return 0
	}
	return s[0]
}

// readJamba reads <tool_calls>[…]</tool_calls> (the closing tag may be
// missing at the end of the text). Blocks inside <think>…</think> are the
// model's thinking, not calls.
func readJamba(text string) (bool, []Call, []string) {
	if toolCallsShape(text) != '[' {
		return false, nil, nil
	}
	var calls []Call
	var problems []string
	for _, body := range blocks(thinkRe.ReplaceAllString(text, ""), "<tool_calls>", "</tool_calls>") {
		cs, ps := readJSONCallList(strings.TrimSpace(body))
		calls, problems = append(calls, cs...), append(problems, ps...)
	}
	return true, calls, problems
}

// readMiniMax reads MiniMax-M1's <tool_calls> block of JSON objects, one a
// line (an object may span lines). A line that is not a call is a
// problem; the calls beside it are kept, as vLLM keeps them
// (test_extract_tool_calls_invalid_json). Blocks inside <think>…</think>
// are not calls (test_extract_tool_calls_with_thinking_tags).
func readMiniMax(text string) (bool, []Call, []string) {
	if toolCallsShape(text) != '{' {
		return false, nil, nil
	}
	var calls []Call
	var problems []string
	for _, body := range blocks(thinkRe.ReplaceAllString(text, ""), "<tool_calls>", "</tool_calls>") {
		for s := strings.TrimSpace(body); s != ""; {
			v, n, err := decodeValue(s)
			if err != nil {
				problems = append(problems, "a line is not JSON: "+err.Error())
				nl := strings.IndexByte(s, '\n')
				if nl < 0 {
					break
				}
				s = strings.TrimSpace(s[nl+1:])
				continue
			}
			s = strings.TrimSpace(s[n:])
			c, problem, ok := callObject(v)
			switch {
			case !ok:
				problems = append(problems, "a line is not a {name, arguments} object")
			case problem != "":
				problems = append(problems, problem)
			default:
				calls = append(calls, c)
			}
		}
	}
	return true, calls, problems
}

// readXLAM reads xLAM's bare JSON list of {"name", "arguments"} objects:
// the whole text, the text after </think>, or a fenced block, every item a
// call. Without a marker, anything else (a list of other objects, JSON
// that cannot be read) is not the format.
func readXLAM(text string) (bool, []Call, []string) {
	s := strings.TrimSpace(text)
	if k := strings.LastIndex(s, "</think>"); k >= 0 {
		s = strings.TrimSpace(s[k+len("</think>"):])
	}
	candidates := []string{s}
	for _, m := range fenceRe.FindAllStringSubmatch(s, -1) {
		candidates = append(candidates, strings.TrimSpace(m[1]))
	}
	for _, c := range candidates {
		if !strings.HasPrefix(c, "[") || !strings.HasSuffix(c, "]") {
			continue
		}
		v, n, err := decodeValue(c)
		items, isArr := v.([]any)
		if err != nil || n != len(c) || !isArr || len(items) == 0 {
			continue
		}
		shaped := true
		for _, it := range items {
			obj, _ := it.(map[string]any)
			if _, has := obj["arguments"]; !has {
				shaped = false
			}
		}
		if !shaped {
			continue
		}
		if calls, problems, ok := callList(v); ok {
			return true, calls, problems
		}
	}
	return false, nil, nil
}

// readStep3 reads Step 3's calls: each <｜tool_call_begin｜> block holds a
// <steptml:invoke>, after "function<｜tool_sep｜>" (which vLLM's own test
// outputs leave out). Values are strings, kept as written. A block without
// a complete invoke is a malformed attempt.
func readStep3(text string) (bool, []Call, []string) {
	const begin = "<｜tool_call_begin｜>"
	if !strings.Contains(text, begin) && !strings.Contains(text, "<｜tool_calls_begin｜>") {
		return false, nil, nil
	}
	bodies := blocks(text, begin, "<｜tool_call_end｜>")
	if len(bodies) == 0 {
		return true, nil, []string{"no <｜tool_call_begin｜> call after <｜tool_calls_begin｜>"}
	}
	var calls []Call
	var problems []string
	for _, body := range bodies {
		ms := stepInvokeRe.FindAllStringSubmatch(body, -1)
		if len(ms) == 0 {
			problems = append(problems, "no complete <steptml:invoke name=…>…</steptml:invoke> in the call")
			continue
		}
		for _, m := range ms {
			args := map[string]any{}
			for _, p := range stepParamRe.FindAllStringSubmatch(m[2], -1) {
				args[p[1]] = p[2]
			}
			calls = append(calls, Call{Name: m[1], Arguments: args})
		}
	}
	return true, calls, problems
}

// readLongcat reads LongCat-Flash's hermes calls under their own tag.
func readLongcat(text string) (bool, []Call, []string) {
	return readTaggedJSON(text, "<longcat_tool_call>", "</longcat_tool_call>")
}

// readOlmo3 reads OLMo 3's <function_calls> block of Python calls, one a
// line. A body that does not start with NAME( is not this format (other
// models put XML in a tag of that name); a line that is not a call is a
// problem, and the calls beside it are kept (vLLM's
// test_bad_sibling_call_does_not_drop_good_calls). JSON's true, false and
// null are read as Python's True, False and None, as vLLM reads them.
func readOlmo3(text string) (bool, []Call, []string) {
	const open = "<function_calls>"
	if !strings.Contains(text, open) {
		return false, nil, nil
	}
	bodies := blocks(text, open, "</function_calls>")
	if !olmoCallStartRe.MatchString(strings.TrimSpace(bodies[0])) {
		return false, nil, nil
	}
	var calls []Call
	var problems []string
	for _, body := range bodies {
		p := pyParser{s: strings.TrimSpace(body), jsonLiterals: true}
		for {
			p.space()
			if p.i >= len(p.s) {
				break
			}
			start := p.i
			c, err := p.call()
			if err != nil {
				problems = append(problems, fmt.Sprintf("%q is not a Python call", firstLine(p.s[start:])))
				nl := strings.IndexByte(p.s[start:], '\n')
				if nl < 0 {
					break
				}
				p.i = start + nl + 1
				continue
			}
			calls = append(calls, c)
			p.space()
			if p.peek(',') {
				p.i++
			}
		}
	}
	return true, calls, problems
}

// firstLine is s up to its first line break.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// readApertus reads Apertus's <|tools_prefix|> list, each item one
// {NAME: arguments} object (the closing <|tools_suffix|> may be missing).
func readApertus(text string) (bool, []Call, []string) {
	const open = "<|tools_prefix|>"
	if !strings.Contains(text, open) {
		return false, nil, nil
	}
	var calls []Call
	var problems []string
	for _, body := range blocks(text, open, "<|tools_suffix|>") {
		v, _, err := decodeValue(strings.TrimSpace(body))
		if err != nil {
			problems = append(problems, "the list after <|tools_prefix|> is not JSON: "+err.Error())
			continue
		}
		items, isArr := v.([]any)
		if !isArr || len(items) == 0 {
			problems = append(problems, "<|tools_prefix|> is not followed by a list of calls")
			continue
		}
		for _, it := range items {
			obj, _ := it.(map[string]any)
			if len(obj) != 1 {
				problems = append(problems, "an item is not a {NAME: arguments} object")
				continue
			}
			for name, a := range obj {
				args, isObj := a.(map[string]any)
				if !isObj || strings.TrimSpace(name) == "" {
					problems = append(problems, fmt.Sprintf("%s: the arguments are not an object", name))
					continue
				}
				calls = append(calls, Call{Name: name, Arguments: args})
			}
		}
	}
	return true, calls, problems
}
