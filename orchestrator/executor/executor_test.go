package executor

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		name string
		call Call
		want []string
	}{
		{"valid search", call("web_search", args{"query": "q"}), nil},
		{"valid write", call("write", args{"path": "a", "content": ""}), nil},
		{"unknown tool", call("google", args{"query": "q"}), []string{FindingUnknownTool}},
		{"missing argument", call("web_fetch", args{}), []string{FindingMissingArgument}},
		{"empty required argument", call("read", args{"path": "  "}), []string{FindingMissingArgument}},
		{"wrong type", call("web_search", args{"query": json.Number("5")}), []string{FindingWrongType}},
		{"write needs content", call("write", args{"path": "a"}), []string{FindingMissingArgument}},
		{"unknown arguments, sorted", call("web_search", args{"query": "q", "z": "1", "limit": "5"}), []string{FindingUnknownArgument, FindingUnknownArgument}},
		{"browser bad action", call("browser", args{"action": "click"}), []string{FindingInvalidValue}},
		{"browser navigate needs url", call("browser", args{"action": "navigate"}), []string{FindingMissingArgument}},
		{"browser screenshot", call("browser", args{"action": "screenshot"}), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := kinds(Check(tt.call)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Check = %v; want %v", got, tt.want)
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	got, fs := normalize(call("WEB-Search", args{"Query": "q"}))
	sameCalls(t, []Call{got}, []Call{call("web_search", args{"query": "q"})})
	if len(fs) != 2 || fs[0].Kind != FindingNormalized || fs[1].Kind != FindingNormalized {
		t.Errorf("findings %+v", fs)
	}
	// An exact key wins over a case-folded one.
	got, _ = normalize(call("web_search", args{"query": "a", "Query": "b"}))
	sameCalls(t, []Call{got}, []Call{call("web_search", args{"query": "a", "Query": "b"})})
	// Unknown tools are left alone.
	got, fs = normalize(call("google", args{"Q": "b"}))
	if got.Name != "google" || len(fs) != 0 {
		t.Errorf("normalize(google) = %+v, %+v", got, fs)
	}
}

func TestCallString(t *testing.T) {
	c := call("write", args{"path": "a.md", "content": "x\n\"y\""})
	if got, want := c.String(), `write(content="x\n\"y\"", path="a.md")`; got != want {
		t.Errorf("String = %s; want %s", got, want)
	}
}

func TestPrompts(t *testing.T) {
	for _, s := range Strategies {
		p, err := Prompt(s)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(p, "\n") || p == "" {
			t.Errorf("%s prompt has a trailing newline or is empty", s)
		}
		for _, tool := range Tools {
			if !strings.Contains(p, tool) {
				t.Errorf("%s prompt does not name %s", s, tool)
			}
		}
	}
	react, _ := Prompt(ReAct)
	for _, want := range []string{"IMPORTANT: Always use this exact format. One action per step.\n\nExample:\n\nUser: Find information", "Action: done\nAction Input: {}"} {
		if !strings.Contains(react, want) {
			t.Errorf("react prompt lacks %q", want)
		}
	}
	if _, err := Prompt("json"); err == nil {
		t.Error("Prompt(json) succeeded")
	}
}

// TestPromptExamplesParse: the example each prompt shows the model must be
// understood by that prompt's own strategy.
func TestPromptExamplesParse(t *testing.T) {
	p, err := New(DefaultConfig().Parser)
	if err != nil {
		t.Fatal(err)
	}
	react, _ := Prompt(ReAct)
	_, example, _ := strings.Cut(react, "Example:")
	res, _ := p.ParseText(ReAct, example)
	// The example is a whole run; as one output, its first Action is the
	// call and the other three (web_fetch, write, done) are dropped.
	if len(res.Calls) != 1 || res.Done || len(res.Findings) != 3 || res.Findings[0].Kind != FindingDropped {
		t.Errorf("react example: %+v", res)
	}
	markers, _ := Prompt(Markers)
	_, example, _ = strings.Cut(markers, "Response:")
	res, _ = p.ParseText(Markers, example)
	if len(res.Calls) != 3 || !res.Done || len(res.Findings) != 0 {
		t.Errorf("markers example: %+v", res)
	}
}

func TestShippedSchemaIsTheSeeds(t *testing.T) {
	shipped, err := os.ReadFile("../../testdata/demo/config/guided-schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(shipped, SeedSchema()) {
		t.Error("config/guided-schema.json differs from the embedded seed schema")
	}
}

func TestGuidedConstraint(t *testing.T) {
	compact := func(b []byte) string {
		var buf bytes.Buffer
		if err := json.Compact(&buf, b); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	schema := compact(SeedSchema())
	tests := []struct {
		mode      string
		wantRF    string
		wantExtra map[string]string
	}{
		{ModeResponseFormat, `{"type":"json_schema","json_schema":{"name":"tool_step","schema":` + schema + `,"strict":false}}`, nil},
		{ModeGuidedJSON, "", map[string]string{"guided_json": schema}},
		{ModeStructuredOutputs, "", map[string]string{"structured_outputs": `{"json":` + schema + `}`}},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			c, err := GuidedConstraint(tt.mode)
			if err != nil {
				t.Fatal(err)
			}
			if string(c.ResponseFormat) != tt.wantRF {
				t.Errorf("ResponseFormat = %s\nwant %s", c.ResponseFormat, tt.wantRF)
			}
			got := map[string]string{}
			for k, v := range c.Extra {
				got[k] = string(v)
			}
			if len(got) == 0 {
				got = nil
			}
			if !reflect.DeepEqual(got, tt.wantExtra) {
				t.Errorf("Extra = %v; want %v", got, tt.wantExtra)
			}
		})
	}
	if _, err := GuidedConstraint("grammar"); err == nil {
		t.Error("unknown mode accepted")
	}
}

func TestExtract(t *testing.T) {
	literalRule := DefaultConfig().Parser
	literalRule.FieldRule = FieldRuleEmpty
	reactBlock := "Thought: t\nAction: web_search\nAction Input: {\"query\": \"q\"}"
	tests := []struct {
		name     string
		cfg      ParserConfig
		msg      Message
		strategy string
		field    string
		tried    []string
		want     []Call
	}{
		{
			name: "reads reasoning first", cfg: DefaultConfig().Parser,
			msg:      Message{Reasoning: reactBlock, Content: "Answer."},
			strategy: ReAct, field: FieldReasoning, tried: []string{ReAct},
			want: []Call{call("web_search", args{"query": "q"})},
		},
		{
			name: "content when reasoning is blank", cfg: DefaultConfig().Parser,
			msg:      Message{Reasoning: " \n", Content: reactBlock},
			strategy: ReAct, field: FieldContent, tried: []string{ReAct},
			want: []Call{call("web_search", args{"query": "q"})},
		},
		{
			// The seed's literal rule chooses the field by emptiness: calls
			// in content are not seen when reasoning has text.
			name: "literal field rule: non-empty reasoning hides content", cfg: literalRule,
			msg:   Message{Reasoning: "I know the answer.", Content: reactBlock},
			field: FieldReasoning, tried: []string{ReAct, Fuzzy},
		},
		{
			// The default rule reads content when react finds nothing in
			// reasoning, before the fallback strategy runs: GPT-OSS's usual
			// layout.
			name: "default field rule: content read when reasoning has no call", cfg: DefaultConfig().Parser,
			msg:      Message{Reasoning: "I should search for the latest release.", Content: reactBlock},
			strategy: ReAct, field: FieldContent, tried: []string{ReAct},
			want: []Call{call("web_search", args{"query": "q"})},
		},
		{
			name: "fallback strategy when the primary recognises nothing", cfg: DefaultConfig().Parser,
			msg:      Message{Reasoning: "I would search for 'x'."},
			strategy: Fuzzy, field: FieldReasoning, tried: []string{ReAct, Fuzzy},
			want: []Call{call("web_search", args{"query": "x"})},
		},
		{
			name: "no fallback after a malformed attempt", cfg: DefaultConfig().Parser,
			msg:      Message{Reasoning: "I would search for 'x'.\nAction: web_search\nAction Input: {oops"},
			strategy: ReAct, field: FieldReasoning, tried: []string{ReAct},
		},
		{
			name: "guided reads content", cfg: ParserConfig{Strategy: GuidedJSON, SourceField: FieldContent},
			msg:      Message{Reasoning: "thinking", Content: `{"reasoning":"r","tool_calls":[{"name":"read","arguments":{"path":"a"}}],"done":false}`},
			strategy: GuidedJSON, field: FieldContent, tried: []string{GuidedJSON},
			want: []Call{call("read", args{"path": "a"})},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := New(tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			res := p.Extract(tt.msg)
			sameCalls(t, res.Calls, tt.want)
			if res.Strategy != tt.strategy || res.Field != tt.field || !reflect.DeepEqual(res.Tried, tt.tried) {
				t.Errorf("strategy, field, tried = %q, %q, %v; want %q, %q, %v", res.Strategy, res.Field, res.Tried, tt.strategy, tt.field, tt.tried)
			}
		})
	}
}

func TestExtractChecksAndNormalises(t *testing.T) {
	p, err := New(ParserConfig{Strategy: Markers, SourceField: FieldContent})
	if err != nil {
		t.Fatal(err)
	}
	res := p.Extract(Message{Content: "[TOOL:Web_Search|Query=q|limit=3][TOOL:rm|path=/]"})
	sameCalls(t, res.Calls, []Call{call("web_search", args{"query": "q", "limit": "3"}), call("rm", args{"path": "/"})})
	got := []string{}
	for _, f := range res.Findings {
		got = append(got, f.Kind+"@"+string(rune('0'+f.Call)))
	}
	want := []string{"normalized@1", "normalized@1", "unknown_argument@1", "unknown_tool@2"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("findings %v; want %v", got, want)
	}
	js, _ := json.Marshal(p.Extract(Message{}))
	if want := `{"strategy":"","tried":["markers"],"field":"content","calls":[],"done":false,"findings":[]}`; string(js) != want {
		t.Errorf("empty result JSON %s; want %s", js, want)
	}
}

func TestDecodeMessage(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Message
	}{
		{"raw text", "Action: web_search\nAction Input: {}", Message{Content: "Action: web_search\nAction Input: {}"}},
		{"JSON message", `{"reasoning": "r", "content": "c"}`, Message{Reasoning: "r", Content: "c"}},
		{"JSON null content", `{"role": "assistant", "reasoning": "r", "content": null}`, Message{Reasoning: "r"}},
		{"vLLM reasoning_content", `{"reasoning_content": "r", "content": "c"}`, Message{Reasoning: "r", Content: "c"}},
		{"YAML message", "reasoning: |\n  Thought: t\ncontent: \"\"\n", Message{Reasoning: "Thought: t\n"}},
		{"guided output is raw", `{"reasoning": "r", "tool_calls": [], "done": true}`, Message{Content: `{"reasoning": "r", "tool_calls": [], "done": true}`}},
		{"ReAct block read as YAML is raw", "Thought: t\nAction: done\n", Message{Content: "Thought: t\nAction: done\n"}},
		{"chat completion", `{"choices": [{"message": {"role": "assistant", "content": "c", "reasoning": "r", "tool_calls": null}}]}`, Message{Reasoning: "r", Content: "c"}},
		{"not a string", `{"content": 5}`, Message{Content: `{"content": 5}`}},
		{"role only", `{"role": "assistant"}`, Message{Content: `{"role": "assistant"}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := DecodeMessage([]byte(tt.in)); got != tt.want {
				t.Errorf("DecodeMessage = %+v; want %+v", got, tt.want)
			}
		})
	}
}
