package vcr

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"
	"gopkg.in/dnaeon/go-vcr.v4/pkg/cassette"
)

func TestRoute(t *testing.T) {
	ss := services([]Service{
		{ChatService, "https://api.cerebras.ai/v1"},
		{"tavily", "https://api.tavily.com"},
		{"exa", "https://api.exa.ai"},
		{ChatService, "http://User:pw@127.0.0.1:8000/v1/?token=x"},
		{"tavily", "http://127.0.0.1:8000/tavily"},
		{"exa", "http://127.0.0.1:8000/exa"},
	})
	tests := []struct{ url, want string }{
		// The default hosts and the recorded loopback ones meet.
		{"https://api.cerebras.ai/v1/chat/completions", "POST chat:/chat/completions"},
		{"http://127.0.0.1:8000/v1/chat/completions", "POST chat:/chat/completions"},
		{"https://api.tavily.com/search", "POST tavily:/search"},
		{"http://127.0.0.1:8000/tavily/search", "POST tavily:/search"},
		{"https://api.exa.ai/search", "POST exa:/search"},
		{"http://127.0.0.1:8000/exa/search", "POST exa:/search"},
		// Two services on one host stay apart: the longest base wins.
		{"http://127.0.0.1:8000/exa/contents", "POST exa:/contents"},
		// Credentials, the query, the host's case and a trailing slash
		// take no part.
		{"HTTP://user:REDACTED@API.Cerebras.AI/v1/chat/completions/?api_key=REDACTED", "POST chat:/chat/completions"},
		// A chat endpoint under no known base is still the chat service,
		// whatever its prefix.
		{"https://vllm.example.org/openai/v1/chat/completions", "POST chat:/chat/completions"},
		// Anything else matches on its whole URL, as recorded.
		{"http://127.0.0.1:9000/search", "POST http://127.0.0.1:9000/search"},
		{"https://api.tavily.com.evil.example/search", "POST https://api.tavily.com.evil.example/search"},
		{"https://api.exa.aix/search", "POST https://api.exa.aix/search"},
		{"/relative/chat", "POST /relative/chat"},
	}
	for _, tt := range tests {
		if got := route("POST", tt.url, ss); got != tt.want {
			t.Errorf("route(%q) = %q, want %q", tt.url, got, tt.want)
		}
	}
	// Without services only the chat endpoint is host-free.
	if got := route("POST", "https://api.tavily.com/search", nil); got != "POST https://api.tavily.com/search" {
		t.Errorf("no services: %q", got)
	}
}

// TestRebase: base URLs a body quotes are written as service and path, and
// a failed call's text as searchbench wrote it before errors named
// services reads as it does now, so neither the environment's base URLs nor
// a recording's gateway decide a match.
func TestRebase(t *testing.T) {
	ss := services([]Service{
		{ChatService, "https://api.cerebras.ai/v1"},
		{"tavily", "https://api.tavily.com"},
		{"exa", "https://api.exa.ai"},
		{"tavily", "http://127.0.0.1:8000/tavily"},
		{"exa", "http://127.0.0.1:8000/exa"},
	})
	tests := []struct{ in, want string }{
		{`Search failed: exa search \"q\": POST https://api.exa.ai/search: exa: HTTP 503 Service Unavailable (4 attempts: 503, 503, 503, 503)`,
			`Search failed: exa search \"q\": exa /search: HTTP 503 Service Unavailable (4 attempts: 503, 503, 503, 503)`},
		{`Search failed: tavily search \"q\": POST http://127.0.0.1:8000/tavily/search?token=REDACTED: tavily: HTTP 432: plan limit`,
			`Search failed: tavily search \"q\": tavily /search: HTTP 432: plan limit`},
		{`POST https://api.tavily.com/search: read response body: unexpected EOF`, `tavily /search: read response body: unexpected EOF`},
		{`see https://API.Tavily.com/search.`, `see tavily:/search.`},
		{`{"a":"https://api.exa.ai","b":"http://user:REDACTED@127.0.0.1:8000/exa/search"}`, `{"a":"exa:/","b":"exa:/search"}`},
		// Other URLs stay as they are.
		{`1. Global Climate Highlights (https://climate.copernicus.eu/global-climate-highlights-2024)`, ``},
		{`https://api.tavily.com.evil.example/search and http://127.0.0.1:9000/search`, ``},
		{`no URL at all`, ``},
	}
	for _, tt := range tests {
		want := tt.want
		if want == "" {
			want = tt.in
		}
		if got := rebase(tt.in, ss); got != want {
			t.Errorf("rebase(%q)\n got %q\nwant %q", tt.in, got, want)
		}
		if got := quotesBase([]byte(tt.in), ss); got != (tt.want != "") && !strings.Contains(tt.in, "evil") {
			t.Errorf("quotesBase(%q) = %v", tt.in, got)
		}
	}
}

// TestGatewayErrorTextReplays: a cassette recorded through a gateway
// before errors named services holds, in a chat request, the failed
// search's URL under the gateway. A replay knowing the gateway's base (from
// recorded.json) matches the request it sends now, which says
// "tavily /search", whatever base URL the replay's environment sets.
func TestGatewayErrorTextReplays(t *testing.T) {
	path := filepath.Join(t.TempDir(), "legacy.yaml")
	c := cassette.New(strings.TrimSuffix(path, Ext))
	c.MarshalFunc = yaml.Marshal
	recorded := `{"messages":[{"content":"Search failed: tavily search \"q\": POST http://127.0.0.1:4000/tavily/search: tavily: HTTP 432: plan limit","role":"tool"}],"model":"gpt-oss-120b"}`
	c.AddInteraction(&cassette.Interaction{
		Request:  cassette.Request{Method: "POST", URL: "http://127.0.0.1:4000/v1/chat/completions", Body: recorded},
		Response: cassette.Response{Code: 200, Status: "200 OK", Body: "ok"},
	})
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	live := call{"POST", "http://127.0.0.1:9/v1/chat/completions", http.Header{},
		rawJSON(`{"model":"gpt-oss-120b","messages":[{"role":"tool","content":"Search failed: tavily search \"q\": tavily /search: HTTP 432: plan limit"}]}`)}
	for _, tc := range []struct {
		name string
		svcs []Service
		ok   bool
	}{
		{"the gateway known", []Service{{"tavily", "https://api.tavily.com"}, {"tavily", "http://127.0.0.1:4000/tavily"}, {"tavily", "http://127.0.0.1:9/tavily"}}, true},
		{"the gateway unknown", []Service{{"tavily", "https://api.tavily.com"}}, false},
	} {
		r, err := OpenReplayWith(path, ReplayOptions{Services: tc.svcs})
		if err != nil {
			t.Fatal(err)
		}
		_, err = send(t, r, []call{live})
		if (err == nil) != tc.ok {
			t.Errorf("%s: err = %v", tc.name, err)
		}
	}
}
