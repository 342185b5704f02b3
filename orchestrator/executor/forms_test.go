package executor

import (
	"encoding/json"
	"slices"
	"testing"
)

// Tool-call forms written by others: GPT-OSS's harmony format (OpenAI's
// harmony documentation), LangChain's ReAct and ReAct-JSON parsers' unit
// tests (libs/langchain tests/unit_tests/agents/output_parsers/
// test_react_single_input.py, test_react_json_single_input.py, test_json.py
// and agents/test_chat.py) and LlamaIndex's ReAct output parser tests
// (llama-index-core tests/agent/react/test_react_output_parser.py). Their
// inputs are kept in shape; tool names are this executor's (their "search",
// "add" and "tool" become web_search) and their expected actions are turned
// into calls.

func TestHarmonyInEveryStrategy(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []Call
	}{
		{
			name: "channel then recipient, constrained (the harmony docs' shape)",
			text: `<|start|>assistant<|channel|>commentary to=functions.web_search <|constrain|>json<|message|>{"query":"EU AI Act timeline"}<|call|>`,
			want: []Call{call("web_search", args{"query": "EU AI Act timeline"})},
		},
		{
			name: "recipient in the role part, json without constrain",
			text: `<|start|>assistant to=functions.web_fetch<|channel|>commentary json<|message|>{"url": "https://go.dev/doc"}<|call|>`,
			want: []Call{call("web_fetch", args{"url": "https://go.dev/doc"})},
		},
		{
			name: "no start token, after an analysis message",
			text: `<|channel|>analysis<|message|>I need the current figure.<|end|><|start|>assistant<|channel|>commentary to=functions.web_search <|constrain|>json<|message|>{"query":"Bitcoin price USD"}<|call|>`,
			want: []Call{call("web_search", args{"query": "Bitcoin price USD"})},
		},
		{
			name: "unterminated last message",
			text: `<|channel|>commentary to=functions.web_search<|message|>{"query": "go-vcr v4"}`,
			want: []Call{call("web_search", args{"query": "go-vcr v4"})},
		},
		{
			name: "two calls",
			text: `<|channel|>commentary to=functions.web_search<|message|>{"query":"a"}<|call|><|start|>assistant<|channel|>commentary to=functions.web_search<|message|>{"query":"b"}<|call|>`,
			want: []Call{call("web_search", args{"query": "a"}), call("web_search", args{"query": "b"})},
		},
	}
	p, err := New(DefaultConfig().Parser)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		for _, s := range Strategies {
			t.Run(tt.name+"/"+s, func(t *testing.T) {
				res, err := p.ParseText(s, tt.text)
				if err != nil {
					t.Fatal(err)
				}
				sameCalls(t, res.Calls, tt.want)
				if res.Form != FormHarmony || !hasFinding(res, FindingHarmony) {
					t.Errorf("form %q, findings %v; want form harmony and a harmony finding", res.Form, res.Findings)
				}
			})
		}
	}
	t.Run("a final message is no call", func(t *testing.T) {
		for _, s := range []string{GuidedJSON, ReAct} {
			res, _ := p.ParseText(s, `<|channel|>final<|message|>The Eiffel Tower is 330 m tall.<|return|>`)
			if len(res.Calls) != 0 || res.Form == FormHarmony {
				t.Errorf("%s: calls %v form %q; want none", s, res.Calls, res.Form)
			}
		}
	})
	t.Run("a recipient with a broken body is a malformed attempt", func(t *testing.T) {
		res, _ := p.ParseText(ReAct, `<|channel|>commentary to=functions.web_search<|message|>{"query": <|call|>`)
		if len(res.Calls) != 0 || !hasFinding(res, FindingMalformed) {
			t.Errorf("calls %v findings %v; want none and malformed", res.Calls, res.Findings)
		}
	})
}

func TestReactForms(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		want    []Call
		done    bool
		form    string
		finding string
	}{
		{
			name: "LangChain ReActSingleInput test_action: plain-text input",
			text: "Thought: agent thought here\nAction: web_search\nAction Input: what is the temperature in SF?",
			want: []Call{call("web_search", args{"query": "what is the temperature in SF?"})},
			form: FormReact, finding: FindingNonJSONInput,
		},
		{
			name: "LangChain ReActSingleInput test_finish: a final answer is no call",
			text: "Thought: agent thought here\nFinal Answer: The temperature is 100",
			done: true, form: FormReact,
		},
		{
			name: "Final Answer before any Action: no call, the Action ignored",
			text: "Thought: I know this.\nFinal Answer: 330 m.\nAction: web_search\nAction Input: {\"query\": \"Eiffel Tower height\"}",
			done: true, form: FormReact, finding: FindingMalformed,
		},
		{
			name: "LangChain ReActJsonSingleInput test_action: fenced blob, no Action label",
			text: "Thought: agent thought here\n```\n{\n    \"action\": \"web_search\",\n    \"action_input\": \"what is the temperature in SF?\"\n}\n```\n",
			want: []Call{call("web_search", args{"query": "what is the temperature in SF?"})},
			form: FormReactJSON,
		},
		{
			name: "LangChain ChatOutputParser test_parse_with_language: Action: then a json fence",
			text: "I can use the `web_search` tool to achieve the goal.\n\n    Action:\n    ```json\n    {\n      \"action\": \"web_search\",\n      \"action_input\": {\"query\": \"bar\"}\n    }\n    ```\n    ",
			want: []Call{call("web_search", args{"query": "bar"})},
			form: FormReactJSON,
		},
		{
			name: "LangChain JSONAgentOutputParser test_finish: Final Answer blob",
			text: "```\n{\n  \"action\": \"Final Answer\",\n  \"action_input\": \"4\"\n}\n```",
			done: true,
		},
		{
			name: "the tool name on the line after Action:",
			text: "Thought: search first.\nAction:\nweb_search\nAction Input: {\"query\": \"Go 1.26 release notes\"}",
			want: []Call{call("web_search", args{"query": "Go 1.26 release notes"})},
			form: FormReact,
		},
		{
			name: "LlamaIndex test_extract_tool_use_extra_action_output: a description after the name",
			text: "Thought: I need to use a tool to help me answer the question.\nAction: web_search (search the web)\nAction Input: {\"query\": \"a\"}\n",
			want: []Call{call("web_search", args{"query": "a"})},
			form: FormReact,
		},
		{
			name: "LlamaIndex test_extract_tool_use_: the object wrapped in a call",
			text: "Thought: I need to use a tool to help me answer the question.\nAction: web_search\nAction Input: QueryEngineTool({\"query\": \"b\"})\n",
			want: []Call{call("web_search", args{"query": "b"})},
			form: FormReact,
		},
		{
			name: "LlamaIndex test_extract_tool_use_multiline: blank lines between the labels",
			text: "Thought: I need to use a tool to help me answer the question.\n\nAction: web_search\n\n\n\nAction Input: {\"query\": \"c\"}\n",
			want: []Call{call("web_search", args{"query": "c"})},
			form: FormReact,
		},
		{
			name: "LlamaIndex test_parse_action_reasoning_step: a Python dict with a comment and trailing words",
			text: "Thought: Gotta use a tool.\nAction: web_search\nAction Input: {'query': 'coffee' /* comment */, 'max_results': 3}, along those lines.\n",
			want: []Call{call("web_search", args{"query": "coffee", "max_results": json.Number("3")})},
			form: FormPythonDict, finding: FindingPythonDict,
		},
		{
			name: "a single-quoted Python dict",
			text: "Action: web_fetch\nAction Input: {'url': 'https://go.dev/doc', 'note': None}",
			want: []Call{call("web_fetch", args{"url": "https://go.dev/doc", "note": nil})},
			form: FormPythonDict, finding: FindingPythonDict,
		},
		{
			name: "a Python expression is no dict: malformed, no call",
			text: "Action: web_search\nAction Input: {'query': q.strip()}",
			form: FormReact, finding: FindingMalformed,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseReact(tt.text)
			sameCalls(t, got.calls, tt.want)
			if got.done != tt.done || !got.matched {
				t.Errorf("done, matched = %v, %v; want %v, true", got.done, got.matched, tt.done)
			}
			if tt.form != "" && got.form != tt.form {
				t.Errorf("form %q, want %q", got.form, tt.form)
			}
			if tt.finding != "" && !slices.ContainsFunc(got.findings, func(f Finding) bool { return f.Kind == tt.finding }) {
				t.Errorf("findings %v, want a %s finding", got.findings, tt.finding)
			}
		})
	}
}

func TestParsePyDict(t *testing.T) {
	good := map[string]map[string]any{
		`{}`:                            {},
		`{'a': 'x'}`:                    {"a": "x"},
		`{"a": 'it\'s', 'b': [1, 2.5]}`: {"a": "it's", "b": []any{json.Number("1"), json.Number("2.5")}},
		`{'t': (True, False, None)}`:    {"t": []any{true, false, nil}},
		"{'a': {'b': -3}} # done":       {"a": map[string]any{"b": json.Number("-3")}},
	}
	for in, want := range good {
		got, _, err := parsePyDict(in)
		if err != nil {
			t.Errorf("parsePyDict(%q): %v", in, err)
			continue
		}
		gb, _ := json.Marshal(got)
		wb, _ := json.Marshal(want)
		if string(gb) != string(wb) {
			t.Errorf("parsePyDict(%q) = %s, want %s", in, gb, wb)
		}
	}
	for _, in := range []string{`{a: 1}`, `{'a': x}`, `{'a': 1`, `{'a' 1}`, `{1: 'a'}`, `['a']`, `{'a': f'x'}`, "{'a': 'line\nbreak'}"} {
		if _, _, err := parsePyDict(in); err == nil {
			t.Errorf("parsePyDict(%q) succeeded; want an error", in)
		}
	}
}

func hasFinding(r Result, kind string) bool {
	return slices.ContainsFunc(r.Findings, func(f Finding) bool { return f.Kind == kind })
}

// TestIssue37Forms: the GPT-OSS forms and no-call outputs of issue 37,
// under every strategy (datasets/parser.yaml names each one's source).
func TestIssue37Forms(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []Call
		done bool
	}{
		{name: "tool reply", text: `<|start|>browser.search to=assistant<|channel|>commentary<|message|>{"results": []}<|end|>`},
		{name: "tool reply from functions", text: `<|start|>functions.web_search to=assistant<|channel|>commentary<|message|>{"query": "x"}<|end|>`},
		{name: "stripped", text: `commentary to=functions.web_search json{"query": "a b"}`, want: []Call{call("web_search", args{"query": "a b"})}},
		{name: "flattened", text: `assistantcommentary to=functions.web_search {"query": "a b"}<|call|>`, want: []Call{call("web_search", args{"query": "a b"})}},
		{name: "name with a space", text: `<|channel|>commentary to=functions.Web Search <|constrain|>json<|message|>{"query": "a b"}<|call|>`, want: []Call{call("web_search", args{"query": "a b"})}},
		{name: "vllm required", text: `[{"name": "web_search", "parameters": {"query": "a b"}}]`, want: []Call{call("web_search", args{"query": "a b"})}},
		{name: "chat completion", text: `{"choices": [{"message": {"content": null, "tool_calls": [{"id": "1", "type": "function", "function": {"name": "web_search", "arguments": "{\"query\": \"a b\"}"}}]}}]}`, want: []Call{call("web_search", args{"query": "a b"})}},
		{name: "smolagents final_answer", text: "Action:\n{\n  \"name\": \"final_answer\",\n  \"arguments\": {\"answer\": \"42\"}\n}", done: true},
		{name: "kimi k2", text: `<|tool_calls_section_begin|><|tool_call_begin|>functions.web_search:0<|tool_call_argument_begin|>{"query": "a b"}<|tool_call_end|><|tool_calls_section_end|>`, want: []Call{call("web_search", args{"query": "a b"})}},
		{name: "glm 4.5", text: "<tool_call>web_search\n<arg_key>query</arg_key>\n<arg_value>a b</arg_value>\n</tool_call>", want: []Call{call("web_search", args{"query": "a b"})}},
		{name: "seed-oss", text: "<seed:tool_call>\n<function=web_search>\n<parameter=query>a b</parameter>\n</function>\n</seed:tool_call>", want: []Call{call("web_search", args{"query": "a b"})}},
		{name: "minimax m2", text: `<minimax:tool_call><invoke name="web_search"><parameter name="query">a b</parameter></invoke></minimax:tool_call>`, want: []Call{call("web_search", args{"query": "a b"})}},
		{name: "phi4-mini", text: `functools[{"name": "web_search", "arguments": {"query": "a b"}}]`, want: []Call{call("web_search", args{"query": "a b"})}},
		{name: "jamba", text: "<tool_calls>[\n{\"name\": \"web_search\", \"arguments\": {\"query\": \"a b\"}}\n]</tool_calls>", want: []Call{call("web_search", args{"query": "a b"})}},
		{name: "minimax m1", text: "<tool_calls>\n{\"name\": \"web_search\", \"arguments\": {\"query\": \"a b\"}}\n{\"name\": \"web_fetch\", \"arguments\": {\"url\": \"https://go.dev/\"}}\n</tool_calls>", want: []Call{call("web_search", args{"query": "a b"}), call("web_fetch", args{"url": "https://go.dev/"})}},
		{name: "xlam", text: `[{"name": "web_search", "arguments": {"query": "a b"}}]`, want: []Call{call("web_search", args{"query": "a b"})}},
		{name: "xlam fenced", text: "Searching.\n```json\n[{\"name\": \"web_search\", \"arguments\": {\"query\": \"a b\"}}]\n```", want: []Call{call("web_search", args{"query": "a b"})}},
		{name: "step3", text: `<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="web_search"><steptml:parameter name="query">a b</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>`, want: []Call{call("web_search", args{"query": "a b"})}},
		{name: "longcat", text: `<longcat_tool_call>{"name": "web_search", "arguments": {"query": "a b"}}</longcat_tool_call>`, want: []Call{call("web_search", args{"query": "a b"})}},
		{name: "olmo3", text: "<function_calls>web_search(query='a b')\nweb_fetch(url='https://go.dev/')</function_calls>", want: []Call{call("web_search", args{"query": "a b"}), call("web_fetch", args{"url": "https://go.dev/"})}},
		{name: "apertus", text: `<|tools_prefix|>[{"web_search": {"query": "a b"}}]<|tools_suffix|>`, want: []Call{call("web_search", args{"query": "a b"})}},
	}
	p, err := New(DefaultConfig().Parser)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		for _, s := range Strategies {
			t.Run(tt.name+"/"+s, func(t *testing.T) {
				res, err := p.ParseText(s, tt.text)
				if err != nil {
					t.Fatal(err)
				}
				got, _ := json.Marshal(res.Calls)
				want, _ := json.Marshal(tt.want)
				if len(tt.want) == 0 {
					want = []byte("[]")
				}
				if string(got) != string(want) || res.Done != tt.done {
					t.Errorf("calls %s done %v; want %s done %v (findings %v)", got, res.Done, want, tt.done, res.Findings)
				}
			})
		}
	}
}

// TestDecodeMessageKeepsToolCalls: a chat completion whose call is in
// tool_calls is read whole, so the call is found.
func TestDecodeMessageKeepsToolCalls(t *testing.T) {
	raw := `{"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": [{"id": "1", "type": "function", "function": {"name": "web_fetch", "arguments": "{\"url\": \"https://go.dev/doc\"}"}}]}}]}`
	p, err := New(DefaultConfig().Parser)
	if err != nil {
		t.Fatal(err)
	}
	res := p.Extract(DecodeMessage([]byte(raw)))
	if len(res.Calls) != 1 || res.Calls[0].Name != "web_fetch" || res.Form != FormChatCompletion {
		t.Errorf("Extract(DecodeMessage(completion)) = %+v", res)
	}
	if !slices.Contains(Strategies, res.Strategy) {
		t.Errorf("strategy %q", res.Strategy)
	}
}

// TestNativeFormsMalformedAndProse: in the formats of native3.go a marker
// whose body cannot be read is a malformed attempt (no call, a malformed
// finding, the form named), and prose or other shapes are not the format.
func TestNativeFormsMalformedAndProse(t *testing.T) {
	p, err := New(DefaultConfig().Parser)
	if err != nil {
		t.Fatal(err)
	}
	malformed := []struct{ text, form string }{
		{`functools[{"name": "web_search", "arguments": {`, FormPhi4Mini},
		{`functools[] This is just text`, FormPhi4Mini},
		{`functools[{"name": "web_search", "arguments": "not a dict"}]`, FormPhi4Mini},
		{`<tool_calls>[{"name": "web_search", "arguments": {"query": `, FormJamba},
		{"<tool_calls>\n{invalid json here}\n</tool_calls>", FormMiniMax},
		{`<｜tool_calls_begin｜><｜tool_call_begin｜><steptml:invoke name="web_search">`, FormStep3},
		{`Some text with <longcat_tool_call>invalid json`, FormLongcat},
		{`<function_calls>web_search(query=b'x')</function_calls>`, FormOlmo3},
		{`<|tools_prefix|>[{"web_search": {"query": "a b"}}`, FormApertus},
		{`<|tools_prefix|>[{"web_search": "a b"}]<|tools_suffix|>`, FormApertus},
	}
	for _, tt := range malformed {
		for _, s := range Strategies {
			res, _ := p.ParseText(s, tt.text)
			if len(res.Calls) != 0 || res.Form != tt.form || !hasFinding(res, FindingMalformed) {
				t.Errorf("%s: %q: calls %v form %q findings %v; want no call, form %s, malformed", s, tt.text, res.Calls, res.Form, res.Findings, tt.form)
			}
		}
	}
	prose := []string{
		"I used Python's functools module: functools.partial binds arguments.",
		"Jamba wraps its calls in a <tool_calls> tag, like this one.",
		"<function_calls>\n<invoke name=\"web_search\">\n<parameter name=\"query\">x</parameter>\n</invoke>\n</function_calls>",
		`[{"name": "Ada", "role": "engineer"}]`,
		"```json\n[1, 2, 3]\n```",
		"<think>I could call <tool_calls>[{\"name\": \"web_search\", \"arguments\": {\"query\": \"x\"}}]</tool_calls></think>The answer is 4.",
	}
	for _, text := range prose {
		for _, s := range []string{GuidedJSON, ReAct, Markers} {
			res, _ := p.ParseText(s, text)
			if len(res.Calls) != 0 {
				t.Errorf("%s: %q: calls %v (form %q); want none", s, text, res.Calls, res.Form)
			}
		}
	}
}
