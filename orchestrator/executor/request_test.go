package executor

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/orchestrator/llm"
)

// sent returns the body req is sent with, as a loopback server receives it.
func sent(t *testing.T, req *llm.ChatRequest) []byte {
	t.Helper()
	var got []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, _ = io.ReadAll(r.Body)
		io.WriteString(w, `{"id":"x","choices":[{"index":0,"message":{"role":"assistant","content":"{}"},"finish_reason":"stop"}]}`)
	}))
	defer srv.Close()
	c, err := llm.New(llm.Config{BaseURL: srv.URL, APIKey: "test-key-executor", Transport: http.DefaultTransport})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Chat(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	return got
}

func TestRequest(t *testing.T) {
	body := func(t *testing.T, strategy, mode string) map[string]json.RawMessage {
		t.Helper()
		cfg, err := DefaultConfigFor(strategy)
		if err != nil {
			t.Fatal(err)
		}
		p, err := New(cfg.Parser)
		if err != nil {
			t.Fatal(err)
		}
		req, err := p.Request("Find news about Rust async and save a summary.", mode)
		if err != nil {
			t.Fatal(err)
		}
		b := sent(t, req)
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}

	react := body(t, ReAct, "")
	if _, ok := react["response_format"]; ok {
		t.Error("react constrains decoding")
	}
	var msgs []llm.Message
	json.Unmarshal(react["messages"], &msgs)
	want, _ := Prompt(ReAct)
	if len(msgs) != 2 || msgs[0].Content != want || msgs[1].Role != "user" {
		t.Fatalf("messages %+v", msgs)
	}

	rf := body(t, GuidedJSON, "")
	if !strings.Contains(string(rf["response_format"]), `"type":"json_schema"`) || !strings.Contains(string(rf["response_format"]), `"tool_calls"`) {
		t.Errorf("response_format = %s", rf["response_format"])
	}
	gj := body(t, GuidedJSON, ModeGuidedJSON)
	if _, ok := gj["response_format"]; ok || !strings.Contains(string(gj["guided_json"]), `"done"`) {
		t.Errorf("guided_json body: %v", gj)
	}
	so := body(t, GuidedJSON, ModeStructuredOutputs)
	if !strings.HasPrefix(string(so["structured_outputs"]), `{"json":{`) {
		t.Errorf("structured_outputs = %s", so["structured_outputs"])
	}

	cfg, _ := DefaultConfigFor(GuidedJSON)
	p, _ := New(cfg.Parser)
	if _, err := p.Request("x", "telepathy"); err == nil {
		t.Error("unknown mode accepted")
	}
}
