package llm

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/searchbench/searchbench/lib/jsonx"
)

// FuzzDecodeResponse checks that no body panics the decoder, that its fast
// path decodes what the general path does, and that every decoded message
// survives a round trip through its wire form.
func FuzzDecodeResponse(f *testing.F) {
	f.Add([]byte(`{"choices":[{"index":0,"message":{"role":"assistant","content":null,"reasoning":"r"},"finish_reason":"stop"}]}`))
	f.Add([]byte(`{"choices":[{"message":{"content":[{"type":"text","text":"a"}],"reasoning_content":"x","tool_calls":[{"id":"1","type":"function","function":{"name":"f","arguments":{"q":1}}}]}}]}`))
	f.Add([]byte(`{"id":"x","choices":[{"index":0,"message":{"role":"assistant","content":"a\nb","tool_calls":[{"id":"1","type":"function","function":{"name":"f","arguments":"{\"q\":1}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":1},"time_info":{"total_time":0.5}}`))
	f.Add([]byte(`{"choices":[null,{"message":null},{"Message":{"Content":"x","reasoning":""}}]}`))
	// The recorded responses of the client tests, so the fast path is
	// exercised on real shapes.
	paths, _ := filepath.Glob(filepath.Join("testdata", "responses", "*.json"))
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		// The fast path must agree with the general one wherever it answers.
		if fast, ok := decodeFast(body); ok {
			var slow ChatResponse
			if err := json.Unmarshal(body, &slow); err != nil {
				t.Fatalf("fast path decoded %q, general path failed: %v", body, err)
			}
			if !reflect.DeepEqual(*fast, slow) {
				t.Fatalf("fast and general paths differ on %q:\n%#v\n%#v", body, *fast, slow)
			}
		}
		r, err := DecodeResponse(body)
		if err != nil {
			return
		}
		if len(r.Choices) == 0 {
			t.Fatal("decoded a response without choices")
		}
		for _, c := range r.Choices {
			b, err := json.Marshal(c.Message)
			if err != nil {
				t.Fatalf("marshal %#v: %v", c.Message, err)
			}
			var back ResponseMessage
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatalf("unmarshal %s: %v", b, err)
			}
			if !reflect.DeepEqual(back, c.Message) {
				t.Fatalf("round trip changed the message:\n%#v\n%#v", c.Message, back)
			}
		}
	})
}

// FuzzAppendString checks the string encoder against encoding/json (HTML
// escaping off) on any text, valid UTF-8 or not.
func FuzzAppendString(f *testing.F) {
	f.Add("plain ASCII text that runs past eight bytes")
	f.Add("Phase 2 \u2013 “quotes” \u2028 \u2029 \x00\x1f\x7f \b\f\n\r\t \"\\ <>&")
	f.Add("bad \xff\xfe utf-8 \xe2\x80 cut")
	f.Fuzz(func(t *testing.T, s string) {
		want, err := jsonx.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendString(nil, s); string(got) != string(want) {
			t.Fatalf("appendString(%q)\n got %s\nwant %s", s, got, want)
		}
	})
}

// FuzzRequestBody checks the request encoder against encoding/json's
// encoding of the ChatRequest struct, which is what it replaced.
func FuzzRequestBody(f *testing.F) {
	f.Add("gpt-oss-120b", "You are a search orchestrator.\n\nROUTING – “rules”", "who won?", "", "call-1", `{"query":"x"}`, "auto", 0, "low", true)
	f.Add("", "", "", "some content", "", "", "exa_search", 7, "", false)
	f.Fuzz(func(t *testing.T, model, system, user, assistant, callID, args, choice string, seed int, effort string, tools bool) {
		temp := float64(seed) / 7
		r := &ChatRequest{
			Model: model,
			Messages: []Message{
				{Role: RoleSystem, Content: system},
				{Role: RoleUser, Content: user, Name: effort},
				{Role: RoleAssistant, Content: assistant, ToolCalls: []ToolCall{{ID: callID, Type: "function", Function: FunctionCall{Name: choice, Arguments: args}}}},
				{Role: RoleTool, Content: args, ToolCallID: callID},
			},
			ToolChoice:          ToolChoice(choice),
			MaxCompletionTokens: seed,
			ReasoningEffort:     effort,
		}
		if tools {
			r.Tools = []Tool{FunctionTool("exa_search", system, json.RawMessage(`{"type": "object"}`), true)}
			r.ResponseFormat = JSONSchemaFormat(user, json.RawMessage(`{ "type":"object" }`))
			r.Temperature, r.Seed = &temp, &seed
		}
		want, werr := jsonx.Marshal(r)
		got, gerr := r.body()
		if (werr != nil) != (gerr != nil) {
			t.Fatalf("errors differ: encoding/json %v, body %v", werr, gerr)
		}
		if werr == nil && string(got) != string(want) {
			t.Fatalf("body differs from encoding/json:\n got %s\nwant %s", got, want)
		}
	})
}
