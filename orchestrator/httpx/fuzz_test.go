package httpx

import (
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzDecodeError checks that any error body decodes into a one-line,
// bounded *APIError without panicking.
func FuzzDecodeError(f *testing.F) {
	f.Add(429, []byte(`{"message":"m","type":"t","param":"p","code":"c"}`), "application/json")
	f.Add(400, []byte(`{"error":{"message":"m","code":400}}`), "")
	f.Add(401, []byte(`{"detail":{"error":"bad key"}}`), "")
	f.Add(502, []byte("<html><title>x</title></html>"), "text/html")
	f.Fuzz(func(t *testing.T, status int, body []byte, contentType string) {
		e := DecodeError("p", status, body, http.Header{"Content-Type": {contentType}})
		if e == nil || e.Status != status {
			t.Fatalf("DecodeError = %+v", e)
		}
		line := e.Error()
		if strings.ContainsAny(line, "\n\r") {
			t.Fatalf("Error() is not one line: %q", line)
		}
		if !utf8.ValidString(line) {
			t.Fatalf("Error() is not valid UTF-8: %q", line)
		}
		if n := utf8.RuneCountInString(e.Message); n > maxMessage+60 {
			t.Fatalf("message has %d runes", n)
		}
	})
}

// FuzzRetryHint checks that no header value yields a negative wait or a
// panic.
func FuzzRetryHint(f *testing.F) {
	f.Add("2", "0", "1.5", "")
	f.Add("Wed, 21 Oct 2015 07:28:00 GMT", "", "", "Wed, 21 Oct 2015 07:27:00 GMT")
	f.Add("", "0", "6m0s", "")
	f.Fuzz(func(t *testing.T, retryAfter, remaining, reset, date string) {
		h := http.Header{}
		h.Set("Retry-After", retryAfter)
		h.Set("X-Ratelimit-Remaining-Tokens-Minute", remaining)
		h.Set("X-Ratelimit-Reset-Tokens-Minute", reset)
		h.Set("Date", date)
		d, ok := RetryHint(h, time.Date(2015, 10, 21, 7, 0, 0, 0, time.UTC))
		if d < 0 || (!ok && d != 0) {
			t.Fatalf("RetryHint = %v, %v", d, ok)
		}
	})
}
