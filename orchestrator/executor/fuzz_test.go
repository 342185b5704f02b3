package executor

import (
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

var nameRe = regexp.MustCompile(`^\w+$`)

// checkParsed asserts what holds for every strategy's output: calls have
// non-nil arguments and (for the strategies that cut names out of the text
// with \w+) word names, finding indexes point at a call, and the same text
// parses the same way twice.
func checkParsed(t *testing.T, text string, parse func(string) parsed, wordNames bool) parsed {
	t.Helper()
	out := parse(text)
	for _, c := range out.calls {
		if wordNames && !nameRe.MatchString(c.Name) {
			t.Fatalf("call name %q is not a word", c.Name)
		}
		if c.Name == "" {
			t.Fatal("call without a name")
		}
		if c.Arguments == nil {
			t.Fatalf("call %s has nil arguments", c.Name)
		}
	}
	for _, f := range out.findings {
		if f.Call < 0 || f.Call > len(out.calls) {
			t.Fatalf("finding %+v points outside %d calls", f, len(out.calls))
		}
	}
	if len(out.calls) > 0 && !out.matched {
		t.Fatal("calls extracted but not matched")
	}
	if again := parse(text); !reflect.DeepEqual(out, again) {
		t.Fatal("parse is not deterministic")
	}
	return out
}

func FuzzReact(f *testing.F) {
	f.Add("Thought: t\nAction: web_search\nAction Input: {\"query\": \"q\"}\nAction: done\nAction Input: {}")
	f.Add("**Action:** `write`\n**Action Input:**\n```json\n{\"path\": \"a\",\n \"content\": \"b\"}\n```")
	f.Add("Action: web_search\nAction Input: plain words")
	f.Fuzz(func(t *testing.T, text string) {
		checkParsed(t, text, parseReact, true)
	})
}

func FuzzMarkers(f *testing.F) {
	f.Add("[TOOL:web_search|query=a=b|c]\n[DONE]")
	f.Add("[ tool : exec | command = ls | grep x=y ]")
	f.Add("[TOOL:write|path=a|content=]")
	f.Fuzz(func(t *testing.T, text string) {
		out := checkParsed(t, text, parseMarkers, true)
		for _, c := range out.calls {
			if !strings.Contains(strings.ToLower(text), strings.ToLower(c.Name)) {
				t.Fatalf("tool %q not in the text", c.Name)
			}
		}
	})
}

func FuzzFuzzy(f *testing.F) {
	f.Add("I would search for 'Rust async patterns'")
	f.Add("fetch the page at https://example.com. Then run the command `ls -la`")
	f.Add("I would read the file at /etc/hosts and save to out.md")
	f.Fuzz(func(t *testing.T, text string) {
		out := checkParsed(t, text, parseFuzzy, false)
		for _, c := range out.calls {
			for k, v := range c.Arguments {
				s, _ := v.(string)
				if s == "" || !strings.Contains(text, s) {
					t.Fatalf("%s %s=%q is not a piece of the text", c.Name, k, s)
				}
			}
		}
	})
}

func FuzzNative(f *testing.F) {
	f.Add(`<tool_call>{"name": "get_weather", "arguments": {"city": "Tokyo"}}</tool_call>`)
	f.Add("<tool_call>\n<function=f>\n<parameter=x>\nv\n</parameter>\n</function>\n</tool_call>")
	f.Add(`[TOOL_CALLS]add{"a": 3.5}`)
	f.Add(`{"name": "searchTool", "parameters": {"query": "q"}}; {"name": "x", "parameters": {}}`)
	f.Add(`[get_weather(city='Paris', n=1), noop()]`)
	f.Add(`<|tool_call|> [{"name": "a", "arguments": {}}]`)
	f.Add(`<|action_start|><|plugin|>{"name": "a", "parameters": {}}<|action_end|>`)
	f.Add("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n{}\n```<｜tool▁call▁end｜>")
	f.Add(`functools[{"name": "f", "arguments": {}}]`)
	f.Add("<tool_calls>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_calls>")
	f.Add("<｜tool_calls_begin｜><｜tool_call_begin｜><steptml:invoke name=\"f\"><steptml:parameter name=\"k\">v</steptml:parameter></steptml:invoke><｜tool_call_end｜>")
	f.Add("<function_calls>f(a='x')\ng()</function_calls>")
	f.Add(`<|tools_prefix|>[{"f": {"a": 1}}]<|tools_suffix|>`)
	f.Fuzz(func(t *testing.T, text string) {
		checkParsed(t, text, func(s string) parsed { return parseNative(s, ReAct) }, false)
	})
}

func FuzzGuided(f *testing.F) {
	f.Add(`{"reasoning": "r", "tool_calls": [{"name": "web_search", "arguments": {"query": "q"}}], "done": false}`)
	f.Add("```json\n{\"tool_calls\": [{\"name\": \"read\", \"arguments\": \"{\\\"path\\\": 1}\"}]}\n```")
	f.Add(`{"reasoning": "cut`)
	sch, err := seedCompiled()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		// Names are JSON strings: escapes and invalid UTF-8 (read as
		// U+FFFD) mean they need not be words or pieces of the text.
		checkParsed(t, text, func(s string) parsed { return parseGuided(s, sch) }, false)
	})
}

func FuzzExtract(f *testing.F) {
	f.Add("Thought: t\nAction: web_search\nAction Input: {\"Query\": 5}", "")
	f.Add("", "I would search for 'x'")
	p, err := New(DefaultConfig().Parser)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, reasoning, content string) {
		res := p.Extract(Message{Reasoning: reasoning, Content: content})
		if _, err := json.Marshal(res); err != nil {
			t.Fatalf("result does not marshal: %v", err)
		}
		for _, f := range res.Findings {
			if f.Call < 0 || f.Call > len(res.Calls) {
				t.Fatalf("finding %+v points outside %d calls", f, len(res.Calls))
			}
		}
		if res.Field != FieldReasoning && res.Field != FieldContent {
			t.Fatalf("field %q", res.Field)
		}
	})
}

func FuzzDecodeMessage(f *testing.F) {
	f.Add([]byte(`{"reasoning": "r", "content": null}`))
	f.Add([]byte("reasoning: r\ncontent: c\n"))
	f.Add([]byte(`{"choices":[{"message":{"content":"c"}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m := DecodeMessage(data)
		if m.Reasoning == "" && m.Content == "" && strings.TrimSpace(string(data)) != "" &&
			!strings.ContainsAny(string(data), "{:") {
			t.Fatalf("text without an object lost: %q", data)
		}
	})
}

func FuzzDecodeConfig(f *testing.F) {
	f.Add([]byte("parser:\n  strategy: react\n  fallback_strategy: fuzzy\n  source_field: reasoning\n  fallback_field: content\n"))
	f.Add([]byte("parser: {strategy: guided_json, source_field: content}\ntools: {enable_exec: true}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := DecodeConfig(data, "fuzz.yaml")
		if err == nil {
			if verr := cfg.Parser.Validate(); verr != nil {
				t.Fatalf("DecodeConfig accepted an invalid config: %v", verr)
			}
		}
	})
}
