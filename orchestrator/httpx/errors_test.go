package httpx

import (
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestDecodeError(t *testing.T) {
	tests := []struct {
		name   string
		status int
		header http.Header
		body   string
		want   APIError
		line   string // exact Error()
	}{
		{
			name:   "cerebras flat 429",
			status: 429,
			body:   `{"message":"Requests per second limit exceeded - too many requests sent.","type":"too_many_requests_error","param":"quota","code":"request_quota_exceeded"}`,
			want:   APIError{Provider: "cerebras", Status: 429, Code: "request_quota_exceeded", Type: "too_many_requests_error", Param: "quota", Message: "Requests per second limit exceeded - too many requests sent."},
			line:   "cerebras: HTTP 429 Too Many Requests (too_many_requests_error/request_quota_exceeded, param quota): Requests per second limit exceeded - too many requests sent.",
		},
		{
			name:   "vllm nested with integer code",
			status: 400,
			header: http.Header{"X-Request-Id": {"req-9"}},
			body:   `{"error":{"message":"max_tokens is too large","type":"BadRequestError","param":null,"code":400}}`,
			want:   APIError{Provider: "cerebras", Status: 400, Code: "400", Type: "BadRequestError", Message: "max_tokens is too large", RequestID: "req-9"},
			line:   "cerebras: HTTP 400 Bad Request (BadRequestError): max_tokens is too large [request req-9]",
		},
		{
			name:   "vllm old flat object error",
			status: 404,
			body:   `{"object":"error","message":"The model ` + "`gpt-oss-120b`" + ` does not exist.","type":"NotFoundError","param":null,"code":404}`,
			want:   APIError{Provider: "cerebras", Status: 404, Code: "404", Type: "NotFoundError", Message: "The model `gpt-oss-120b` does not exist."},
			line:   "cerebras: HTTP 404 Not Found (NotFoundError): The model `gpt-oss-120b` does not exist.",
		},
		{
			name:   "openai nested with string code",
			status: 401,
			body:   `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`,
			want:   APIError{Provider: "cerebras", Status: 401, Code: "invalid_api_key", Type: "invalid_request_error", Message: "Incorrect API key provided"},
			line:   "cerebras: HTTP 401 Unauthorized (invalid_request_error/invalid_api_key): Incorrect API key provided",
		},
		{
			name:   "tavily detail",
			status: 432,
			body:   `{"detail":{"error":"This request exceeds your plan's set usage limit."}}`,
			want:   APIError{Provider: "cerebras", Status: 432, Message: "This request exceeds your plan's set usage limit."},
			line:   "cerebras: HTTP 432: This request exceeds your plan's set usage limit.",
		},
		{
			name:   "fastapi detail list",
			status: 422,
			body:   `{"detail":[{"loc":["body","query"],"msg":"field required","type":"value_error.missing"}]}`,
			want:   APIError{Provider: "cerebras", Status: 422, Message: "body.query: field required"},
		},
		{
			name:   "fastapi detail string",
			status: 400,
			body:   `{"detail":"Query is too long. Max query length is 400 characters."}`,
			want:   APIError{Provider: "cerebras", Status: 400, Message: "Query is too long. Max query length is 400 characters."},
		},
		{
			name:   "exa with tag",
			status: 429,
			body:   `{"requestId":"a1b2c3","error":"You have exceeded the rate limit.","tag":"RATE_LIMIT_EXCEEDED"}`,
			want:   APIError{Provider: "cerebras", Status: 429, Code: "RATE_LIMIT_EXCEEDED", Message: "You have exceeded the rate limit.", RequestID: "a1b2c3"},
			line:   "cerebras: HTTP 429 Too Many Requests (RATE_LIMIT_EXCEEDED): You have exceeded the rate limit. [request a1b2c3]",
		},
		{
			name:   "exa old string error",
			status: 429,
			body:   `{"error":"rate limit exceeded"}`,
			want:   APIError{Provider: "cerebras", Status: 429, Message: "rate limit exceeded"},
		},
		{
			name:   "html from a proxy",
			status: 502,
			header: http.Header{"Content-Type": {"text/html; charset=utf-8"}},
			body:   "<html>\n<head><title>502 Bad Gateway</title></head>\n<body>nginx</body></html>",
			want:   APIError{Provider: "cerebras", Status: 502, Message: `non-JSON body (text/html): HTML page titled "502 Bad Gateway"`},
		},
		{
			name:   "plain text",
			status: 500,
			body:   "upstream\nconnect error",
			want:   APIError{Provider: "cerebras", Status: 500, Message: "non-JSON body: upstream connect error"},
		},
		{
			name:   "empty body",
			status: 503,
			want:   APIError{Provider: "cerebras", Status: 503, Message: "empty response body"},
			line:   "cerebras: HTTP 503 Service Unavailable: empty response body",
		},
		{
			name:   "unknown json shape",
			status: 500,
			body:   `{"weird":[1,2]}`,
			want:   APIError{Provider: "cerebras", Status: 500, Message: `unrecognised error body: {"weird":[1,2]}`},
		},
		{
			name:   "message that is not a string",
			status: 400,
			body:   `{"error":{"message":{"nested":true},"code":"x"}}`,
			want:   APIError{Provider: "cerebras", Status: 400, Code: "x", Message: `{"nested":true}`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := tt.header
			if h == nil {
				h = http.Header{}
			}
			got := DecodeError("cerebras", tt.status, []byte(tt.body), h)
			if *got != tt.want {
				t.Errorf("got  %#v\nwant %#v", *got, tt.want)
			}
			if tt.line != "" && got.Error() != tt.line {
				t.Errorf("Error() = %q\nwant      %q", got.Error(), tt.line)
			}
		})
	}
}

func TestDecodeErrorBoundsExcerpt(t *testing.T) {
	body := "<pre>" + strings.Repeat("é and more text\n", 200) + "</pre>"
	got := DecodeError("exa", 500, []byte(body), http.Header{})
	if n := utf8.RuneCountInString(got.Message); n > maxExcerpt+len("non-JSON body: ")+1 {
		t.Errorf("excerpt has %d runes: %q", n, got.Message)
	}
	if strings.ContainsAny(got.Error(), "\n\r") || !strings.HasSuffix(got.Message, "…") {
		t.Errorf("Error() must be one bounded line: %q", got.Error())
	}
}

func TestAPIErrorLine(t *testing.T) {
	e := &APIError{Provider: "exa", Status: 429, Code: "RATE_LIMIT_EXCEEDED", Message: "slow down", RetryAfter: 1500 * time.Millisecond}
	if got, want := e.Error(), "exa: HTTP 429 Too Many Requests (RATE_LIMIT_EXCEEDED): slow down [retry after 1.5s]"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if !e.Retryable() || (&APIError{Status: 404}).Retryable() {
		t.Error("Retryable: want 429 yes, 404 no")
	}
}

func TestMissingKeyError(t *testing.T) {
	e := &MissingKeyError{Provider: "llm", Vars: []string{"CEREBRAS_API_KEY", "OPENAI_API_KEY"}}
	if got, want := e.Error(), "llm: no API key: set CEREBRAS_API_KEY or OPENAI_API_KEY"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestBaseURL(t *testing.T) {
	tests := []struct{ value, want, err string }{
		{"", "https://api.example.com/v1", ""},
		{"http://127.0.0.1:8080/v1/", "http://127.0.0.1:8080/v1", ""},
		{"api.example.com", "", `X_URL="api.example.com": want an absolute http or https URL`},
		{"https://user:hunter22@proxy.example/", "https://user:hunter22@proxy.example", ""},
		{"ftp://user:hunter22@proxy.example/", "", `X_URL="ftp://user:xxxxx@proxy.example/": want an absolute http or https URL`},
		{"https://user:hunter22@gw.example/v1#frag", "", `X_URL="https://user:xxxxx@gw.example/v1#frag": a base URL cannot have a #fragment (nothing after # is sent, so every request path would be lost in it); use https://user:xxxxx@gw.example/v1`},
		{"https://gw.example/v1#", "", `X_URL="https://gw.example/v1#": a base URL cannot have a #fragment (nothing after # is sent, so every request path would be lost in it); use https://gw.example/v1`},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			got, err := BaseURL("X_URL", tt.value, "https://api.example.com/v1")
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("err = %v, want %s", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}
