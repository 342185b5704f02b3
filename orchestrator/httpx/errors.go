package httpx

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/searchbench/searchbench/lib/secret"
)

// APIError is a non-2xx answer from a provider, whatever shape its body had.
type APIError struct {
	Provider   string        // "cerebras", "tavily", "exa", or the host
	Status     int           // HTTP status
	Code       string        // provider code: "request_quota_exceeded", "RATE_LIMIT_EXCEEDED", "400"
	Type       string        // provider error type: "too_many_requests_error", "BadRequestError"
	Param      string        // offending parameter, when named
	Message    string        // one line; for a non-JSON body a bounded excerpt of it
	RequestID  string        // provider request id from the body or X-Request-Id
	RetryAfter time.Duration // wait the server asked for (0: none)
}

// Error is one readable line, e.g.
// "cerebras: HTTP 429 Too Many Requests (too_many_requests_error/request_quota_exceeded, param quota): Requests per second limit exceeded [retry after 2s]".
func (e *APIError) Error() string {
	var b strings.Builder
	if e.Provider != "" {
		b.WriteString(e.Provider)
		b.WriteString(": ")
	}
	fmt.Fprintf(&b, "HTTP %d", e.Status)
	if t := http.StatusText(e.Status); t != "" {
		b.WriteString(" " + t)
	}
	if e.Status >= 200 && e.Status < 300 {
		b.WriteString(" with an error body")
	}
	var kind []string
	if e.Type != "" {
		kind = append(kind, e.Type)
	}
	if e.Code != "" && e.Code != strconv.Itoa(e.Status) && e.Code != e.Type {
		kind = append(kind, e.Code)
	}
	if len(kind) > 0 || e.Param != "" {
		b.WriteString(" (")
		b.WriteString(strings.Join(kind, "/"))
		if e.Param != "" {
			if len(kind) > 0 {
				b.WriteString(", ")
			}
			b.WriteString("param " + e.Param)
		}
		b.WriteString(")")
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	if e.RequestID != "" {
		b.WriteString(" [request " + e.RequestID + "]")
	}
	if e.RetryAfter > 0 {
		b.WriteString(" [retry after " + e.RetryAfter.String() + "]")
	}
	return b.String()
}

// Retryable reports whether the status is one the policy retries: 429 and
// 5xx. Other 4xx mean the request itself is wrong and would fail again.
func (e *APIError) Retryable() bool { return retryableStatus(e.Status) }

func retryableStatus(s int) bool { return s == http.StatusTooManyRequests || s >= 500 }

// Limits keep error text on one readable line.
const (
	maxMessage = 500 // runes of a provider message
	maxExcerpt = 200 // runes of a non-JSON body
)

// ErrorDecoder returns a decodeErr function for PostJSON that reads every
// error shape this project meets into an *APIError for provider.
func ErrorDecoder(provider string) func(status int, body []byte, h http.Header) error {
	return func(status int, body []byte, h http.Header) error { return DecodeError(provider, status, body, h) }
}

// DecodeError reads a non-2xx body into an *APIError. Shapes understood:
// Cerebras' flat {"message","type","param","code"}; OpenAI/vLLM nested
// {"error":{"message","type","param","code"}} with code a string or an
// integer; vLLM's old flat {"object":"error",...}; Tavily's
// {"detail":{"error"}} (and FastAPI's {"detail":"..."} or a list of
// validation errors); Exa's {"requestId","error","tag"} and older
// {"error":"..."}. Anything else, an HTML page from a proxy included, is
// kept as a bounded one-line excerpt. It never fails.
func DecodeError(provider string, status int, body []byte, h http.Header) *APIError {
	e := &APIError{Provider: provider, Status: status, RequestID: oneLine(h.Get("X-Request-Id"), 100)}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		e.Message = "empty response body"
		return e
	}
	var obj map[string]json.RawMessage
	if trimmed[0] != '{' || json.Unmarshal(trimmed, &obj) != nil {
		e.Message = excerpt(trimmed, h.Get("Content-Type"))
		return e
	}
	if raw, ok := obj["error"]; ok {
		var nested map[string]json.RawMessage
		if json.Unmarshal(raw, &nested) == nil && nested != nil {
			fillFlat(e, nested)
		} else {
			e.Message = oneLine(scalar(raw), maxMessage) // Exa: "error": "<message>"
		}
	}
	if raw, ok := obj["detail"]; ok && e.Message == "" {
		e.Message = detailMessage(raw)
	}
	fillFlat(e, obj) // only fills what is still empty
	if e.Code == "" {
		e.Code = oneLine(scalar(obj["tag"]), 100) // Exa
	}
	for _, k := range []string{"requestId", "request_id"} {
		if id := oneLine(scalar(obj[k]), 100); id != "" {
			e.RequestID = id
			break
		}
	}
	if e.Message == "" {
		e.Message = "unrecognised error body: " + oneLine(string(trimmed), maxExcerpt)
	}
	return e
}

// fillFlat copies message/type/param/code from obj into the fields of e that
// are still empty.
func fillFlat(e *APIError, obj map[string]json.RawMessage) {
	set := func(dst *string, key string, limit int) {
		if *dst == "" {
			*dst = oneLine(scalar(obj[key]), limit)
		}
	}
	set(&e.Message, "message", maxMessage)
	set(&e.Type, "type", 100)
	set(&e.Param, "param", 100)
	set(&e.Code, "code", 100)
}

// detailMessage reads FastAPI-style "detail": an object with "error" or
// "message", a string, or a list of {"msg", "loc"} validation errors.
func detailMessage(raw json.RawMessage) string {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) == nil && obj != nil {
		for _, k := range []string{"error", "message", "msg"} {
			if s := scalar(obj[k]); s != "" {
				return oneLine(s, maxMessage)
			}
		}
		return oneLine(string(raw), maxMessage)
	}
	var list []struct {
		Msg string `json:"msg"`
		Loc []any  `json:"loc"`
	}
	if json.Unmarshal(raw, &list) == nil && len(list) > 0 {
		parts := make([]string, 0, len(list))
		for _, it := range list {
			p := it.Msg
			if len(it.Loc) > 0 {
				loc := make([]string, len(it.Loc))
				for i, l := range it.Loc {
					loc[i] = fmt.Sprint(l)
				}
				p = strings.Join(loc, ".") + ": " + p
			}
			parts = append(parts, p)
		}
		return oneLine(strings.Join(parts, "; "), maxMessage)
	}
	return oneLine(scalar(raw), maxMessage)
}

// scalar renders a JSON value as text: a string unquoted, null as "",
// anything else as its compact JSON.
func scalar(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) == nil {
		return buf.String()
	}
	return string(raw)
}

var htmlTitle = regexp.MustCompile(`(?is)<title[^>]*>(.*?)</title>`)

// excerpt is a short one-line view of a body that is not a JSON error: the
// title of an HTML page when it has one, else its first characters.
func excerpt(body []byte, contentType string) string {
	prefix := "non-JSON body"
	if ct := strings.TrimSpace(strings.Split(contentType, ";")[0]); ct != "" {
		prefix += " (" + oneLine(ct, 60) + ")"
	}
	if m := htmlTitle.FindSubmatch(body); m != nil && len(bytes.TrimSpace(m[1])) > 0 {
		return prefix + ": HTML page titled " + strconv.Quote(oneLine(string(m[1]), 100))
	}
	return prefix + ": " + oneLine(string(body), maxExcerpt)
}

// oneLine collapses all whitespace runs to single spaces, drops invalid
// UTF-8 and control characters, and cuts s to limit runes with "…".
func oneLine(s string, limit int) string {
	if s == "" {
		return ""
	}
	s = strings.ToValidUTF8(s, "")
	s = strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f' || r < 0x20 || r == 0x7f
	}), " ")
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	n := 0
	for i := range s {
		if n == limit {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// CallError is the error of a failed PostJSON call: what was requested, the
// last failure, and every attempt made. errors.As finds the *APIError or
// transport error underneath; errors.Is finds context.Canceled.
type CallError struct {
	Method, URL string // URL without credentials
	// Service and Path, when set (Client.Post), replace the method and
	// URL in the text: "tavily /search: …", the same whatever base URL
	// the call went to.
	Service, Path string
	Attempts      []Attempt
	Err           error
	secrets       *secret.Set
}

// Error reads "POST <url>: <cause> (N attempts: 429 wait=1s, 429 wait=2s, 503)".
func (e *CallError) Error() string { return e.text(true) }

// Stable is Error without the waits between attempts, which carry the retry
// jitter and the wall clock: the form that may enter a request body (the
// tool message the model reads), so that a recording replays.
func (e *CallError) Stable() string { return e.text(false) }

func (e *CallError) text(waits bool) string {
	cause := e.Err
	// http.Client wraps transport errors in a *url.Error that repeats the
	// method and URL this message already starts with.
	var ue *url.Error
	if errors.As(cause, &ue) && (ue.URL == e.URL || e.Service != "") {
		cause = ue.Err
	}
	msg := fmt.Sprintf("%s %s: %v", e.Method, e.URL, cause)
	if e.Service != "" {
		text := cause.Error()
		// The provider's name already leads the line.
		var ae *APIError
		if errors.As(cause, &ae) && ae.Provider == e.Service {
			text = strings.TrimPrefix(text, ae.Provider+": ")
		}
		msg = e.Service + " " + e.Path + ": " + text
	}
	if n := len(e.Attempts); n > 1 {
		attempts := e.Attempts
		if !waits {
			attempts = make([]Attempt, n)
			for i, a := range e.Attempts {
				a.Wait = 0
				attempts[i] = a
			}
		}
		msg += fmt.Sprintf(" (%d attempts: %s)", n, Describe(attempts))
	}
	return e.secrets.String(msg)
}

// StableText renders err for a request body: a call error without its
// waits (CallError.Stable), anything else as is.
func StableText(err error) string {
	var ce *CallError
	if errors.As(err, &ce) {
		return strings.Replace(err.Error(), ce.Error(), ce.Stable(), 1)
	}
	return err.Error()
}

// Unwrap returns the cause.
func (e *CallError) Unwrap() error { return e.Err }

// AttemptsOf returns the attempts recorded in err, or nil when err did not
// come from a call (a bad request refused before sending, a missing key).
func AttemptsOf(err error) []Attempt {
	var ce *CallError
	if errors.As(err, &ce) {
		return ce.Attempts
	}
	return nil
}

// WithAttempts wraps a failure found after the HTTP exchange (an
// undecodable 200 body) so the attempts still reach the caller.
func WithAttempts(method, url string, attempts []Attempt, err error) error {
	if err == nil {
		return nil
	}
	return &CallError{Method: method, URL: url, Attempts: attempts, Err: err}
}

// WithAttemptsAt is WithAttempts for a call to ep (Client.Post): its text
// names ep's service and path, not the URL.
func WithAttemptsAt(ep Endpoint, attempts []Attempt, err error) error {
	if err == nil {
		return nil
	}
	shown := ep.URL()
	if u, perr := url.Parse(shown); perr == nil {
		shown = redactedURL(u)
	}
	return &CallError{Method: http.MethodPost, URL: shown, Service: ep.Service, Path: ep.Path, Attempts: attempts, Err: err}
}

// MissingKeyError reports a provider key that is not configured. It names
// the environment variables that supply it and is returned before any
// request is made.
type MissingKeyError struct {
	Provider string
	Vars     []string // e.g. CEREBRAS_API_KEY, OPENAI_API_KEY
}

// Error reads "<provider>: no API key: set VAR1 or VAR2".
func (e *MissingKeyError) Error() string {
	return fmt.Sprintf("%s: no API key: set %s", e.Provider, strings.Join(e.Vars, " or "))
}
