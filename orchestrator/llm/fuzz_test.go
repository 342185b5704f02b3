package llm

import (
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzDecodeResponse checks that no body panics the decoder and that every
// decoded message survives a round trip through its wire form.
func FuzzDecodeResponse(f *testing.F) {
	f.Add([]byte(`{"choices":[{"index":0,"message":{"role":"assistant","content":null,"reasoning":"r"},"finish_reason":"stop"}]}`))
	f.Add([]byte(`{"choices":[{"message":{"content":[{"type":"text","text":"a"}],"reasoning_content":"x","tool_calls":[{"id":"1","type":"function","function":{"name":"f","arguments":{"q":1}}}]}}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
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
