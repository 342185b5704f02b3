package httpx

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/searchbench/searchbench/lib/secret"
)

// Attempt is one HTTP exchange of a call, kept so a trace can show
// "429 then 200".
type Attempt struct {
	Status int           `json:"status"`          // HTTP status; 0 when no response arrived
	Err    string        `json:"error,omitempty"` // why the attempt failed, one line, no secrets
	Wait   time.Duration `json:"wait,omitempty"`  // wait before the next attempt (0 for the last)
}

// Statuses lists the status of each attempt (0: no response).
func Statuses(attempts []Attempt) []int {
	out := make([]int, len(attempts))
	for i, a := range attempts {
		out[i] = a.Status
	}
	return out
}

// Describe renders attempts on one line, e.g. "429 wait=2s, 200" or
// "EOF wait=500ms, 200".
func Describe(attempts []Attempt) string {
	parts := make([]string, len(attempts))
	for i, a := range attempts {
		p := strconv.Itoa(a.Status)
		if a.Status == 0 {
			p = "no response"
			if a.Err != "" {
				p = a.Err
			}
		}
		if a.Wait > 0 {
			p += " wait=" + a.Wait.String()
		}
		parts[i] = p
	}
	return strings.Join(parts, ", ")
}

// MaxResponseBytes bounds a response body; a larger one is an error.
const MaxResponseBytes = 32 << 20

// userAgent is fixed so recorded requests do not change with the Go version.
const userAgent = "searchbench"

// Client owns retries, request encoding and timeouts for every provider
// call. It is safe for concurrent use.
type Client struct {
	hc     *http.Client
	policy Policy
}

var defaultTransport = sync.OnceValue(func() http.RoundTripper {
	return http.DefaultTransport.(*http.Transport).Clone()
})

// NewClient returns a client that sends every request through rt (nil: a
// private clone of http.DefaultTransport) under policy p. Redirects are not
// followed: a provider API never redirects a POST, and following one could
// carry credentials to another host.
func NewClient(rt http.RoundTripper, p Policy) *Client {
	if rt == nil {
		rt = defaultTransport()
	}
	return &Client{
		hc: &http.Client{
			Transport:     rt,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		policy: p,
	}
}

// Policy returns the client's retry policy.
func (c *Client) Policy() Policy { return c.policy }

// PostJSON posts body as JSON to rawURL with headers, retrying under the
// client's policy, and returns the 2xx response body and every attempt.
//
// body is sent as is when it is []byte or json.RawMessage, otherwise
// encoded with encoding/json (struct field order, sorted map keys, HTML
// left unescaped), so the same value always gives the same bytes. A non-2xx
// response goes to decodeErr (nil: ErrorDecoder with the URL's host); an
// *APIError it returns gets the server's retry hint. 429 and 5xx are
// retried, as are connection resets, EOF and attempt timeouts; other
// failures are returned at once. On failure the error is a *CallError that
// also carries the attempts. Header values of Authorization, X-Api-Key and
// Api-Key never appear in errors.
func (c *Client) PostJSON(ctx context.Context, rawURL string, headers http.Header, body any, decodeErr func(status int, body []byte, h http.Header) error) ([]byte, []Attempt, error) {
	return c.post(ctx, Endpoint{}, rawURL, headers, body, decodeErr)
}

// Endpoint names a call's target as its errors show it: the service and
// the path below its base URL ("tavily", "/search"). A base URL differs
// between a recording and its replay (a gateway, a vLLM host, the
// simulator) and error text reaches the model's next request, so errors
// of a call with an Endpoint never show the URL.
type Endpoint struct {
	Service string // "tavily", "exa", "chat"
	Base    string // the base URL the path is appended to
	Path    string // "/search", "/chat/completions"
}

// URL is the endpoint's full URL (JoinURL of the base and the path).
func (ep Endpoint) URL() string { return JoinURL(ep.Base, ep.Path) }

// Post is PostJSON to ep.URL(), whose errors name ep's service and path
// instead of the URL: "tavily /search: HTTP 402 Payment Required: …".
func (c *Client) Post(ctx context.Context, ep Endpoint, headers http.Header, body any, decodeErr func(status int, body []byte, h http.Header) error) ([]byte, []Attempt, error) {
	return c.post(ctx, ep, ep.URL(), headers, body, decodeErr)
}

func (c *Client) post(ctx context.Context, ep Endpoint, rawURL string, headers http.Header, body any, decodeErr func(status int, body []byte, h http.Header) error) (_ []byte, _ []Attempt, err error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, nil, fmt.Errorf("POST %q: not an absolute http(s) URL", rawURL)
	}
	shownURL := redactedURL(u)
	payload, err := encodeBody(body)
	if err != nil {
		return nil, nil, fmt.Errorf("POST %s: encode request body: %w", shownURL, err)
	}
	if decodeErr == nil {
		decodeErr = ErrorDecoder(u.Host)
	}
	// Every credential this call carries: its key headers and its URL's
	// userinfo and query values. Error text is scrubbed of them before it is
	// cut to a line, so a cut never leaves part of a key behind.
	p := c.policy
	secrets := p.Secrets.With(append(secretsOf(headers), secret.OfURL(rawURL)...)...)
	fail := func(attempts []Attempt, err error) ([]byte, []Attempt, error) {
		return nil, attempts, &CallError{Method: http.MethodPost, URL: shownURL, Service: ep.Service, Path: ep.Path, Attempts: attempts, Err: err, secrets: secrets}
	}
	// A transport below (the recorder) learns which call each attempt
	// belongs to and, once the call returns, whether it succeeded.
	call := &Call{}
	defer func() { call.end(err == nil) }()
	ctx = context.WithValue(ctx, callKey{}, call)

	parent := ctx
	if p.CallTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = p.withTimeout(ctx, p.CallTimeout)
		defer cancel()
	}
	// ended says why ctx is done: the caller's own context, or the call's
	// time running out.
	ended := func() error {
		if parent.Err() == nil && timedOut(ctx) {
			return fmt.Errorf("%w after %s (the whole call's limit): %w", errCallTimeout, p.CallTimeout, context.DeadlineExceeded)
		}
		return ctx.Err()
	}
	var attempts []Attempt
	for n := 1; ; n++ {
		if ctx.Err() != nil {
			return fail(attempts, ended())
		}
		status, respHeader, respBody, err := c.once(context.WithValue(ctx, attemptKey{}, n), rawURL, headers, payload, p)
		answered := err == nil && status >= 200 && status < 300 // a 2xx, but perhaps no answer
		if answered {
			switch {
			case truncatedJSON(respBody):
				err = fmt.Errorf("%w (%d bytes)", ErrTruncatedBody, len(respBody))
			case errorBody(respBody):
				respBody = secrets.Scrub(respBody)
				if err = decodeErr(status, respBody, scrubHeader(respHeader, secrets)); err == nil {
					err = DecodeError(u.Host, status, respBody, respHeader)
				}
			default:
				return respBody, append(attempts, Attempt{Status: status}), nil
			}
		}
		var retry bool
		var hint time.Duration
		var hinted bool
		switch {
		case answered:
			// A 2xx that is not an answer: a JSON body cut short (retried,
			// as a reset connection is) or an error in a 200's body.
			var ae *APIError
			if errors.As(err, &ae) {
				redactAPIError(ae, secrets)
			}
			retry = errors.Is(err, ErrTruncatedBody)
		case err != nil:
			if ctx.Err() != nil { // the caller gave up; say so, not the transport's view of it
				attempts = append(attempts, Attempt{Status: status, Err: oneLine(secrets.String(err.Error()), maxMessage)})
				return fail(attempts, fmt.Errorf("%w (during attempt %d)", ended(), n))
			}
			retry = retryableTransport(err)
		default:
			respBody = secrets.Scrub(respBody)
			respHeader = scrubHeader(respHeader, secrets)
			err = decodeErr(status, respBody, respHeader)
			if err == nil {
				err = DecodeError(u.Host, status, respBody, respHeader)
			}
			hint, hinted = RetryHint(respHeader, p.now())
			var ae *APIError
			if errors.As(err, &ae) {
				if ae.RetryAfter == 0 && hinted {
					ae.RetryAfter = hint
				}
				redactAPIError(ae, secrets)
			}
			retry = retryableStatus(status)
		}
		a := Attempt{Status: status, Err: oneLine(secrets.String(err.Error()), maxMessage)}
		if !retry || n >= p.attempts() {
			return fail(append(attempts, a), err)
		}
		wait := p.Backoff(n)
		if hinted {
			if p.MaxRetryAfter > 0 && hint > p.MaxRetryAfter {
				return fail(append(attempts, a), fmt.Errorf("%w; not retried: the server asked to wait %s, more than the %s limit", err, hint, p.MaxRetryAfter))
			}
			wait = hint
		}
		a.Wait = wait
		attempts = append(attempts, a)
		if serr := p.sleep(ctx, wait); serr != nil {
			return fail(attempts, fmt.Errorf("%w while waiting %s to retry after: %w", ended(), wait, err))
		}
	}
}

// once makes one attempt. A response whose body cannot be read completely
// is an error, with the status kept.
func (c *Client) once(ctx context.Context, rawURL string, headers http.Header, payload []byte, p Policy) (int, http.Header, []byte, error) {
	actx, timeout := ctx, p.AttemptTimeout
	if timeout > 0 {
		var cancel context.CancelFunc
		actx, cancel = p.withTimeout(ctx, timeout)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(actx, http.MethodPost, rawURL, bytes.NewReader(payload))
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header = headers.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	req.Header.Set("Content-Type", "application/json")
	if req.Header.Get("Accept") == "" {
		req.Header.Set("Accept", "application/json")
	}
	if req.Header.Get("User-Agent") == "" {
		req.Header.Set("User-Agent", userAgent)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return 0, nil, nil, attemptErr(actx, ctx, timeout, err)
	}
	defer resp.Body.Close()
	body, err := ReadAll(io.LimitReader(resp.Body, MaxResponseBytes+1), resp.ContentLength, MaxResponseBytes)
	if err != nil {
		return resp.StatusCode, resp.Header, nil, attemptErr(actx, ctx, timeout, fmt.Errorf("read response body: %w", err))
	}
	if len(body) > MaxResponseBytes {
		return resp.StatusCode, resp.Header, nil, fmt.Errorf("response body larger than %d bytes", MaxResponseBytes)
	}
	return resp.StatusCode, resp.Header, body, nil
}

// ReadAll is io.ReadAll starting with room for n bytes (a ContentLength;
// -1 when unknown, and not trusted beyond max), so a long body is not copied
// as it grows.
func ReadAll(r io.Reader, n, max int64) ([]byte, error) {
	return AppendAll(nil, r, n, max)
}

// AppendAll is ReadAll appending to dst, whose spare room is used first: a
// caller done with the bytes before its next read can reuse one buffer.
func AppendAll(dst []byte, r io.Reader, n, max int64) ([]byte, error) {
	if n <= 0 || n > max {
		n = 511 // io.ReadAll's first size
	}
	b := dst
	if int64(cap(b)-len(b)) < n+1 { // +1: room for the read that sees EOF
		b = make([]byte, len(dst), int64(len(dst))+n+1)
		copy(b, dst)
	}
	for {
		m, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+m]
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

// errCallTimeout marks a call that ran out of its CallTimeout.
var errCallTimeout = errors.New("call timed out")

// errAttemptTimeout marks an attempt that ran out of its own time while the
// caller's context was still live: worth retrying.
var errAttemptTimeout = errors.New("attempt timed out")

func attemptErr(actx, ctx context.Context, timeout time.Duration, err error) error {
	if ctx.Err() == nil && timedOut(actx) {
		if errors.Is(err, context.Canceled) {
			// A DeferredTimeout ends with a cancel whose cause is the
			// deadline: say "deadline", not "canceled".
			err = context.DeadlineExceeded
		}
		return fmt.Errorf("%w after %s: %w", errAttemptTimeout, timeout, err)
	}
	return err
}

// retryableTransport says whether a failure without a response is worth
// another attempt: the connection was reset or closed early, or the attempt
// timed out. A refused connection, a DNS or TLS failure, or a replay miss
// from the recorder will fail the same way again.
func retryableTransport(err error) bool {
	if errors.Is(err, errAttemptTimeout) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNABORTED) || errors.Is(err, syscall.EPIPE) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// encodeBody gives the exact bytes to send for body.
func encodeBody(body any) ([]byte, error) {
	switch b := body.(type) {
	case []byte:
		return b, nil
	case json.RawMessage:
		return b, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // readable cassettes; "<" is valid JSON either way
	if err := enc.Encode(body); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// secretsOf collects credential values from request headers so that no
// error text can echo them.
func secretsOf(h http.Header) []string {
	var out []string
	for _, k := range []string{"Authorization", "X-Api-Key", "Api-Key"} {
		for _, v := range h.Values(k) {
			v = strings.TrimSpace(v)
			if len(v) > 7 && strings.EqualFold(v[:7], "bearer ") {
				v = strings.TrimSpace(v[7:]) // the whole value's runs would take the space before a key
			}
			out = append(out, v)
		}
	}
	return out
}

// redactedURL shows u with its password and every query value replaced:
// a gateway's ?token= is as secret as a password.
func redactedURL(u *url.URL) string {
	v := *u
	if segs := strings.Split(u.Path, "/"); slices.ContainsFunc(segs, secret.KeyLike) {
		for i, s := range segs {
			if secret.KeyLike(s) {
				segs[i] = "REDACTED"
			}
		}
		v.Path, v.RawPath = strings.Join(segs, "/"), ""
	}
	if u.RawQuery != "" {
		q := u.Query()
		for k := range q {
			q[k] = []string{"REDACTED"}
		}
		v.RawQuery = q.Encode()
	}
	return v.Redacted()
}

// scrubHeader returns h with secrets redacted from every value (a server
// may echo a key in a header an error decoder reads); h itself is not
// changed.
func scrubHeader(h http.Header, secrets *secret.Set) http.Header {
	if secrets.Empty() {
		return h
	}
	out := make(http.Header, len(h))
	for k, vs := range h {
		nv := make([]string, len(vs))
		for i, v := range vs {
			nv[i] = secrets.String(v)
		}
		out[k] = nv
	}
	return out
}

func redactAPIError(e *APIError, secrets *secret.Set) {
	for _, f := range []*string{&e.Code, &e.Type, &e.Param, &e.Message, &e.RequestID} {
		*f = secrets.String(*f)
	}
}
