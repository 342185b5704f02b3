package vcr

import "testing"

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
