package vcr

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"gopkg.in/dnaeon/go-vcr.v4/pkg/cassette"

	"github.com/searchbench/searchbench/lib/secret"
)

// MinSecretLen is the shortest secret value the recorder accepts. Replacing
// shorter strings wherever they occur would redact unrelated text.
const MinSecretLen = 8

// scrubber holds the secret values of one recording: those given in
// RecordOptions and those learned from credential headers and api_key body
// fields as requests pass. The scrubbing itself is secret.Set's, so a
// secret is found raw, JSON-escaped, percent-encoded or provider-masked.
type scrubber struct {
	mu  sync.Mutex
	set *secret.Set
}

// add remembers a secret value; values shorter than MinSecretLen are ignored
// (the credential headers that carried them are redacted by name anyway).
func (s *scrubber) add(v string) {
	if len(v) < MinSecretLen {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if slices.Contains(s.set.Values(), v) {
		return
	}
	s.set = s.set.With(v)
}

// secrets returns the set of every secret known so far.
func (s *scrubber) secrets() *secret.Set {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.set
}

// leaked reports whether data still holds a known secret, in any encoding.
func (s *scrubber) leaked(data []byte) bool { return s.secrets().Leaks(data) }

// learnHeaders remembers the credentials a request carries in its headers.
func (s *scrubber) learnHeaders(h http.Header) {
	for k, vs := range h {
		if !isSecretHeader(k) {
			continue
		}
		for _, v := range vs {
			if scheme, cred, ok := strings.Cut(v, " "); ok && !strings.Contains(scheme, "=") {
				v = strings.TrimSpace(cred) // "Bearer <key>": the key is what a server may echo
			}
			s.add(v)
		}
	}
}

func isSecretHeader(name string) bool {
	for _, h := range secretHeaders {
		if strings.EqualFold(h, name) {
			return true
		}
	}
	return false
}

// scrubHeaders returns a copy of h with credential headers redacted and
// secret values replaced elsewhere. It copies because go-vcr hands hooks the
// live request's and response's header maps.
func scrubHeaders(h http.Header, repl *secret.Set) http.Header {
	if h == nil {
		return nil
	}
	out := make(http.Header, len(h))
	for k, vs := range h {
		nv := make([]string, len(vs))
		for j, v := range vs {
			if isSecretHeader(k) {
				nv[j] = Redacted
			} else {
				nv[j] = repl.String(v)
			}
		}
		out[k] = nv
	}
	return out
}

// scrubInteraction removes secrets from every recorded part of i. It is
// idempotent: the recorder runs it once when an interaction is captured and
// again before saving, when it knows every secret the recording met.
func scrubInteraction(i *cassette.Interaction, repl *secret.Set) {
	rq := &i.Request
	rq.URL = maskUserinfo(repl.String(rq.URL))
	rq.Headers = scrubHeaders(rq.Headers, repl)
	rq.Trailer = scrubHeaders(rq.Trailer, repl)
	for k, vs := range rq.Form {
		for j, v := range vs {
			vs[j] = repl.String(v)
		}
		rq.Form[k] = vs
	}
	if b := repl.String(rq.Body); b != rq.Body {
		rq.Body = b
		rq.ContentLength = int64(len(b))
	}

	rs := &i.Response
	rs.Headers = scrubHeaders(rs.Headers, repl)
	rs.Trailer = scrubHeaders(rs.Trailer, repl)
	if b := repl.String(rs.Body); b != rs.Body {
		rs.Body = b
		fixContentLength(rs)
	}
}

// maskUserinfo returns the URL a cassette records and a replay matches:
// the password of its userinfo (http://gw:PASSWORD@host) and the values of
// credential query fields (api_key=…) are Redacted, whether or not they were
// configured as secrets. Recording and replay apply the same function, so a
// gateway URL with a key in it still matches.
func maskUserinfo(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return redactURL(u)
}

// fixContentLength makes a response's recorded length agree with its
// (edited) body.
func fixContentLength(rs *cassette.Response) {
	if rs.ContentLength >= 0 {
		rs.ContentLength = int64(len(rs.Body))
	}
	if rs.Headers.Get("Content-Length") != "" {
		rs.Headers.Set("Content-Length", strconv.Itoa(len(rs.Body)))
	}
}

// maxDuration bounds a provider-reported time, so a garbage value cannot
// overflow time.Duration.
const maxDuration = 24 * time.Hour

// ProviderDuration returns the server time a provider reports in a response
// body: chat completions' time_info.total_time (seconds), Tavily's
// response_time (seconds, a number or a numeric string) or Exa's searchTime
// (milliseconds). For a server-sent-events body the last event that reports
// a time wins. It returns 0 when the body reports none or an unusable value.
// Deterministic recordings use it as an interaction's duration, so the
// cassette does not depend on the wall clock.
func ProviderDuration(body []byte) time.Duration {
	if d, ok := timingOf(body); ok {
		return d
	}
	var last time.Duration
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(nil, len(body)+1)
	for sc.Scan() {
		data, ok := bytes.CutPrefix(sc.Bytes(), []byte("data:"))
		if !ok {
			continue
		}
		if d, ok := timingOf(bytes.TrimSpace(data)); ok && d > 0 {
			last = d
		}
	}
	return last
}

func timingOf(body []byte) (time.Duration, bool) {
	var t struct {
		TimeInfo *struct {
			TotalTime json.RawMessage `json:"total_time"`
		} `json:"time_info"`
		ResponseTime json.RawMessage `json:"response_time"`
		SearchTime   json.RawMessage `json:"searchTime"`
	}
	if !maybeJSON(body) || json.Unmarshal(body, &t) != nil {
		return 0, false
	}
	switch {
	case t.TimeInfo != nil && t.TimeInfo.TotalTime != nil:
		return seconds(t.TimeInfo.TotalTime, time.Second), true
	case t.ResponseTime != nil:
		return seconds(t.ResponseTime, time.Second), true
	case t.SearchTime != nil:
		return seconds(t.SearchTime, time.Millisecond), true
	}
	return 0, true
}

// seconds converts a JSON number or numeric string counted in unit.
func seconds(raw json.RawMessage, unit time.Duration) time.Duration {
	s := string(raw)
	if u, err := strconv.Unquote(s); err == nil {
		s = strings.TrimSpace(u)
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || f <= 0 {
		return 0
	}
	d := f * float64(unit)
	if d >= float64(maxDuration) {
		return maxDuration
	}
	return time.Duration(math.Round(d))
}
