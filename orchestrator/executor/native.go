package executor

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// Open models write tool calls in their own formats, which a serving stack
// (vLLM's --tool-call-parser) turns into tool_calls. When the server does
// not, the calls reach the executor as text. Every strategy recognises
// these formats first, after harmony, with a "native" finding, and reports
// the format in Result.Form. The formats are those vLLM ships a tool parser
// for; the dataset's cases are taken from vLLM's own parser tests
// (datasets/parser.yaml records each one's file and commit):
//
//	hermes       <tool_call>{"name": …, "arguments": {…}}</tool_call>   (Hermes, Qwen2.5, Granite 4)
//	qwen3_xml    <tool_call><function=NAME><parameter=K>V</parameter></function></tool_call>
//	mistral      [TOOL_CALLS][{"name": …, "arguments": {…}}], [TOOL_CALLS]NAME{…},
//	             [TOOL_CALLS]NAME[ARGS]{…} or [TOOL_CALLS]NAME[CALL_ID]id[ARGS]{…}
//	llama3_json  {"name": …, "parameters": {…}} (or "arguments"), after <|python_tag|> or alone; several joined by ;
//	pythonic     [NAME(k='v', n=1), …]  (Llama 3.2/4; <|python_start|>…<|python_end|> allowed)
//	granite      <|tool_call|>[{…}] (Granite 3.0) or <tool_call>[{…}] (3.1)
//	internlm     <|action_start|><|plugin|>{"name": …, "parameters": {…}}<|action_end|>
//	deepseek_v3  <｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME ```json {…}```<｜tool▁call▁end｜>
//	             (V3.1: <｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>)
//
// and the formats of native2.go (kimi_k2, glm45, seed_oss, minimax_m2 and
// two GPT-OSS shapes) and native3.go (phi4_mini_json, jamba, minimax,
// xlam, step3, longcat, olmo3, apertus).
//
// A marker whose body cannot be read is a malformed attempt (a finding, no
// call), as in harmony.
const (
	FormHermes     = "hermes"
	FormQwen3XML   = "qwen3_xml"
	FormMistral    = "mistral"
	FormLlama3JSON = "llama3_json"
	FormPythonic   = "pythonic"
	FormGranite    = "granite"
	FormInternLM   = "internlm"
	FormDeepSeekV3 = "deepseek_v3"
)

// FindingNative notes calls found in a model's own tool-call format: the
// server did not parse them into tool_calls.
const FindingNative = "native"

var (
	toolCallOpenRe = regexp.MustCompile(`<tool_call>|<\|tool_call\|>`)
	qwenFunctionRe = regexp.MustCompile(`(?s)<function=([^>\s]+)>(.*?)(?:</function>|$)`)
	qwenParamRe    = regexp.MustCompile(`(?s)<parameter=([^>\s]+)>(.*?)(?:</parameter>|$)`)
	mistralNameRe  = regexp.MustCompile(`^\s*([A-Za-z_][\w.\-]*)\s*(?:\[CALL_ID\][^\[{]*)?(?:\[ARGS\])?\s*\{`)
	dsCallRe       = regexp.MustCompile("(?s)<｜tool▁call▁begin｜>(.*?)<｜tool▁sep｜>(.*?)(?:<｜tool▁call▁end｜>|<｜tool▁calls▁end｜>|$)")
	pyIdentRe      = regexp.MustCompile(`^[A-Za-z_][\w.]*`)
)

// parseNative recognises the open-model formats above, in a fixed order;
// the first that matches wins.
func parseNative(text, strategy string) parsed {
	type reader struct {
		form string
		read func(string) (found bool, calls []Call, problems []string)
	}
	readers := []reader{
		{FormChatCompletion, readChatCompletion},
		{FormKimiK2, readKimiK2},
		{FormSeedOSS, readSeedOSS},
		{FormMiniMaxM2, readMiniMaxM2},
		{FormStep3, readStep3},
		{FormApertus, readApertus},
		{FormPhi4Mini, readPhi4Mini},
		{FormJamba, readJamba},
		{FormMiniMax, readMiniMax},
		{FormLongcat, readLongcat},
		{FormOlmo3, readOlmo3},
		{FormDeepSeekV3, readDeepSeek},
		{FormInternLM, readInternLM},
		{FormMistral, readMistral},
		{FormQwen3XML, readQwenXML},
		{FormGLM45, readGLM45},
		{FormGranite, readGranite},
		{FormHermes, readHermes},
		{FormPythonic, readPythonic},
		{FormVLLMRequired, readVLLMRequired},
		{FormXLAM, readXLAM},
		{FormLlama3JSON, readLlama3},
	}
	for _, r := range readers {
		found, calls, problems := r.read(text)
		if !found {
			continue
		}
		out := parsed{matched: true, form: r.form, calls: calls}
		for _, p := range problems {
			out.findings = append(out.findings, Finding{Kind: FindingMalformed, Strategy: strategy,
				Message: fmt.Sprintf("%s call: %s; no call extracted", r.form, p)})
		}
		out.findings = append(out.findings, Finding{Kind: FindingNative, Strategy: strategy,
			Message: fmt.Sprintf("calls in the %s format: the server did not parse them into tool_calls", r.form)})
		return out
	}
	return parsed{}
}

// decodeObject decodes one JSON value at the start of s, numbers as
// json.Number. n is the number of bytes read.
func decodeValue(s string) (v any, n int, err error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, 0, err
	}
	return v, int(dec.InputOffset()), nil
}

// callObject reads {"name": …, "arguments"|"parameters": {…}}. ok is false
// when v is not shaped like a call at all; problem is set when it is, but
// cannot be used.
func callObject(v any) (c Call, problem string, ok bool) {
	obj, isObj := v.(map[string]any)
	if !isObj {
		return Call{}, "", false
	}
	name, hasName := obj["name"].(string)
	if !hasName || strings.TrimSpace(name) == "" {
		return Call{}, "", false
	}
	for k := range obj {
		if k != "name" && k != "arguments" && k != "parameters" {
			return Call{}, "", false
		}
	}
	raw, has := obj["arguments"]
	if !has {
		raw, has = obj["parameters"]
	}
	switch a := raw.(type) {
	case map[string]any:
		return Call{Name: name, Arguments: a}, "", true
	case nil:
		if !has {
			return Call{Name: name, Arguments: map[string]any{}}, "", true
		}
	case string:
		// Some models send the arguments as a JSON string.
		if args, _, err := decodeValue(a); err == nil {
			if m, isMap := args.(map[string]any); isMap {
				return Call{Name: name, Arguments: m}, "", true
			}
		}
	}
	return Call{}, fmt.Sprintf("%s: the arguments are not an object", name), true
}

// callList reads a call object or an array of them.
func callList(v any) (calls []Call, problems []string, ok bool) {
	items, isArr := v.([]any)
	if !isArr {
		items = []any{v}
	}
	for _, it := range items {
		c, problem, isCall := callObject(it)
		if !isCall {
			return nil, nil, false
		}
		if problem != "" {
			problems = append(problems, problem)
			continue
		}
		calls = append(calls, c)
	}
	return calls, problems, len(items) > 0
}

// readHermes reads <tool_call>{…}</tool_call> blocks (the closing tag may be
// missing at the end of the text).
func readHermes(text string) (bool, []Call, []string) {
	return readTaggedJSON(text, "<tool_call>", "</tool_call>")
}

// readTaggedJSON reads open{…}close blocks, each a call object or a list
// of them.
func readTaggedJSON(text, open, close string) (bool, []Call, []string) {
	if !strings.Contains(text, open) {
		return false, nil, nil
	}
	var calls []Call
	var problems []string
	for _, body := range blocks(text, open, close) {
		v, _, err := decodeValue(strings.TrimSpace(body))
		if err != nil {
			problems = append(problems, "the block is not JSON: "+err.Error())
			continue
		}
		cs, ps, ok := callList(v)
		if !ok {
			problems = append(problems, "the block is not a {name, arguments} object")
			continue
		}
		calls, problems = append(calls, cs...), append(problems, ps...)
	}
	return true, calls, problems
}

// blocks returns the text after each open marker, up to its close marker,
// the next open marker or the end.
func blocks(text, open, close string) []string {
	var out []string
	parts := strings.Split(text, open)
	for _, p := range parts[1:] {
		if k := strings.Index(p, close); k >= 0 {
			p = p[:k]
		}
		out = append(out, p)
	}
	return out
}

// readQwenXML reads Qwen3-Coder's XML calls. Parameter values are strings
// (vLLM types them by the request's tool schema; every argument of this
// executor's tools is a string), less one newline on each side.
func readQwenXML(text string) (bool, []Call, []string) {
	if !strings.Contains(text, "<tool_call>") || !strings.Contains(text, "<function=") {
		return false, nil, nil
	}
	var calls []Call
	for _, body := range blocks(text, "<tool_call>", "</tool_call>") {
		for _, f := range qwenFunctionRe.FindAllStringSubmatch(body, -1) {
			args := map[string]any{}
			for _, p := range qwenParamRe.FindAllStringSubmatch(f[2], -1) {
				v := strings.TrimPrefix(p[2], "\n")
				v = strings.TrimSuffix(v, "\n")
				args[p[1]] = v
			}
			calls = append(calls, Call{Name: f[1], Arguments: args})
		}
	}
	return true, calls, nil
}

// readGranite reads Granite 3's <|tool_call|> or <tool_call> followed by a
// JSON array of calls (no closing tag).
func readGranite(text string) (bool, []Call, []string) {
	loc := toolCallOpenRe.FindStringIndex(text)
	if loc == nil {
		return false, nil, nil
	}
	rest := strings.TrimSpace(text[loc[1]:])
	if text[loc[0]:loc[1]] == "<tool_call>" && !strings.HasPrefix(rest, "[") {
		return false, nil, nil // hermes
	}
	v, _, err := decodeValue(rest)
	if err != nil {
		return true, nil, []string{"the list after the marker is not JSON: " + err.Error()}
	}
	if _, isArr := v.([]any); !isArr {
		return true, nil, []string{"the marker is not followed by a list of calls"}
	}
	calls, problems, ok := callList(v)
	if !ok {
		return true, nil, []string{"the list does not hold {name, arguments} objects"}
	}
	return true, calls, problems
}

// readMistral reads [TOOL_CALLS] followed by a JSON list, or (tokenizer
// v11 and later) by NAME{args}, NAME[ARGS]{args} or
// NAME[CALL_ID]id[ARGS]{args}, once or several times.
func readMistral(text string) (bool, []Call, []string) {
	if !strings.Contains(text, "[TOOL_CALLS]") {
		return false, nil, nil
	}
	var calls []Call
	var problems []string
	for _, seg := range strings.Split(text, "[TOOL_CALLS]")[1:] {
		s := strings.TrimSpace(seg)
		if strings.HasPrefix(s, "[") || strings.HasPrefix(s, "{") {
			v, _, err := decodeValue(s)
			if err != nil {
				problems = append(problems, "the list is not JSON: "+err.Error())
				continue
			}
			cs, ps, ok := callList(v)
			if !ok {
				problems = append(problems, "the list does not hold {name, arguments} objects")
				continue
			}
			calls, problems = append(calls, cs...), append(problems, ps...)
			continue
		}
		m := mistralNameRe.FindStringSubmatchIndex(s)
		if m == nil {
			problems = append(problems, "no call after [TOOL_CALLS]")
			continue
		}
		v, _, err := decodeValue(s[m[1]-1:])
		args, isObj := v.(map[string]any)
		if err != nil || !isObj {
			problems = append(problems, fmt.Sprintf("%s: the arguments are not a JSON object", s[m[2]:m[3]]))
			continue
		}
		calls = append(calls, Call{Name: s[m[2]:m[3]], Arguments: args})
	}
	return true, calls, problems
}

// readInternLM reads <|action_start|><|plugin|>{…}<|action_end|>.
func readInternLM(text string) (bool, []Call, []string) {
	const open = "<|action_start|><|plugin|>"
	if !strings.Contains(text, open) {
		return false, nil, nil
	}
	var calls []Call
	var problems []string
	for _, body := range blocks(text, open, "<|action_end|>") {
		v, _, err := decodeValue(strings.TrimSpace(body))
		if err != nil {
			problems = append(problems, "the plugin call is not JSON: "+err.Error())
			continue
		}
		c, problem, ok := callObject(v)
		switch {
		case !ok:
			problems = append(problems, "the plugin call is not a {name, parameters} object")
		case problem != "":
			problems = append(problems, problem)
		default:
			calls = append(calls, c)
		}
	}
	return true, calls, problems
}

// readDeepSeek reads DeepSeek V3 and V3.1 calls.
func readDeepSeek(text string) (bool, []Call, []string) {
	if !strings.Contains(text, "<｜tool▁call▁begin｜>") && !strings.Contains(text, "<｜tool▁calls▁begin｜>") {
		return false, nil, nil
	}
	var calls []Call
	var problems []string
	ms := dsCallRe.FindAllStringSubmatch(text, -1)
	if len(ms) == 0 {
		return true, nil, []string{"no <｜tool▁call▁begin｜>…<｜tool▁sep｜> call inside <｜tool▁calls▁begin｜>"}
	}
	for _, m := range ms {
		head, body := strings.TrimSpace(m[1]), m[2]
		name := head
		if head == "function" || head == "" {
			// V3: the name is the first line of the body, the arguments a
			// fenced JSON object.
			first, rest, _ := strings.Cut(body, "\n")
			name, body = strings.TrimSpace(first), rest
		}
		s := stripFence(strings.TrimSpace(body))
		v, _, err := decodeValue(s)
		args, isObj := v.(map[string]any)
		if err != nil || !isObj || strings.TrimSpace(name) == "" {
			problems = append(problems, fmt.Sprintf("%s: the arguments are not a JSON object", name))
			continue
		}
		calls = append(calls, Call{Name: name, Arguments: args})
	}
	return true, calls, problems
}

// readLlama3 reads Llama 3's JSON calls: after <|python_tag|>, or JSON
// objects in the text that have exactly a name and parameters (or
// arguments), several joined by ";". An object nested in another JSON
// value (a key's value, a list item) is not a call: a guided_json object's
// tool_calls are that strategy's to read.
func readLlama3(text string) (bool, []Call, []string) {
	tagged := false
	if k := strings.Index(text, "<|python_tag|>"); k >= 0 {
		text, tagged = text[k+len("<|python_tag|>"):], true
	}
	var calls []Call
	var problems []string
	found := false
	for i := 0; i < len(text); i++ {
		if text[i] != '{' || nested(text[:i]) {
			continue
		}
		v, n, err := decodeValue(text[i:])
		if err != nil {
			if tagged && !found {
				return true, nil, []string{"the text after <|python_tag|> is not JSON: " + err.Error()}
			}
			continue
		}
		c, problem, ok := callObject(v)
		i += n - 1
		if !ok {
			continue
		}
		if obj := v.(map[string]any); obj["arguments"] == nil && obj["parameters"] == nil {
			continue // {"name": "Ada"} is data, not a call
		}
		found = true
		if problem != "" {
			problems = append(problems, problem)
			continue
		}
		calls = append(calls, c)
	}
	return found, calls, problems
}

// nested reports whether a '{' after prefix stands where a JSON value would
// (after a key's colon, a comma or an opening bracket), so it belongs to
// an enclosing JSON value.
func nested(prefix string) bool {
	p := strings.TrimRight(prefix, " \t\r\n")
	if p == "" {
		return false
	}
	switch p[len(p)-1] {
	case '[', '{', ',':
		return true
	case ':':
		q := strings.TrimRight(p[:len(p)-1], " \t")
		return strings.HasSuffix(q, `"`)
	}
	return false
}

// readPythonic reads a list of Python calls that is the whole text (less
// <|python_start|>/<|python_end|> and white space), as vLLM's pythonic
// parser does: [get_weather(city='Paris'), noop()].
func readPythonic(text string) (bool, []Call, []string) {
	s := strings.TrimSpace(text)
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(s, "<|python_start|>"), "<|python_end|>"))
	if !strings.HasPrefix(s, "[") || !strings.HasSuffix(s, "]") {
		return false, nil, nil
	}
	p := pyParser{s: s, i: 1}
	var calls []Call
	for {
		p.space()
		if p.peek(']') && p.i == len(p.s)-1 && len(calls) > 0 {
			return true, calls, nil
		}
		c, err := p.call()
		if err != nil {
			return false, nil, nil
		}
		calls = append(calls, c)
		p.space()
		if p.peek(',') {
			p.i++
		}
	}
}

// call reads NAME(kw=value, …) at p.i; a single positional literal is
// allowed only as the one argument of a known one-argument tool.
func (p *pyParser) call() (Call, error) {
	name := pyIdentRe.FindString(p.s[p.i:])
	if name == "" {
		return Call{}, errPy
	}
	p.i += len(name)
	p.space()
	if !p.peek('(') {
		return Call{}, errPy
	}
	p.i++
	args := map[string]any{}
	for {
		p.space()
		if p.peek(')') {
			p.i++
			return Call{Name: name, Arguments: args}, nil
		}
		key := pyIdentRe.FindString(p.s[p.i:])
		save := p.i
		p.i += len(key)
		p.space()
		if key == "" || !p.peek('=') {
			// positional
			p.i = save
			v, err := p.value(0)
			if err != nil {
				return Call{}, err
			}
			spec, known := toolArgs[strings.ToLower(name)]
			if !known || len(spec) == 0 || len(args) > 0 {
				return Call{}, errPy
			}
			key = spec[0].name
			args[key] = v
		} else {
			p.i++
			v, err := p.value(0)
			if err != nil {
				return Call{}, err
			}
			args[key] = v
		}
		p.space()
		switch {
		case p.peek(','):
			p.i++
		case p.peek(')'):
		default:
			return Call{}, errPy
		}
	}
}
