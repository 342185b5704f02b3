package httpx

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync/atomic"
)

// Call is one PostJSON call as a transport below the client sees it: the
// request of each attempt carries it in its context (CallOf), with the
// attempt's number. The recorder uses it to keep a retried failure (a 503,
// a body cut short) out of a cassette when the call then succeeded: the
// provider's weather is not the model's behaviour.
type Call struct{ done, ok atomic.Bool }

func (c *Call) end(ok bool) {
	c.ok.Store(ok)
	c.done.Store(true)
}

// Succeeded reports whether the call has returned with an answer.
func (c *Call) Succeeded() bool { return c.done.Load() && c.ok.Load() }

type callKey struct{}
type attemptKey struct{}

// CallOf returns the call a request's context belongs to and the number
// of its attempt (from 1); nil and 0 for a request not sent by a Client.
func CallOf(ctx context.Context) (*Call, int) {
	c, _ := ctx.Value(callKey{}).(*Call)
	n, _ := ctx.Value(attemptKey{}).(int)
	return c, n
}

// ErrTruncatedBody marks a 2xx answer whose JSON body ends before its
// value does: a connection cut mid-body with a Content-Length that matched
// what arrived (a proxy's buffering). It is retried as a reset is.
var ErrTruncatedBody = errors.New("response body cut short: its JSON ends before its value does")

// truncatedJSON reports whether body starts a JSON object or array and
// ends inside it.
func truncatedJSON(body []byte) bool {
	b := bytes.TrimSpace(body)
	if len(b) == 0 || b[0] != '{' && b[0] != '[' || closed(b) {
		return false
	}
	var v json.RawMessage
	err := json.NewDecoder(bytes.NewReader(b)).Decode(&v)
	return errors.Is(err, io.ErrUnexpectedEOF)
}

// closed reports whether b, counted as JSON's brackets outside strings,
// ends with every bracket and string closed. A body cut inside its first
// value always ends inside a string or a bracket, so a closed body is never
// truncated: the decoder is asked only of bodies that end open. This byte
// loop replaces json.Valid on every answer, which took over a quarter of a call's
// CPU in a replay (the caller decodes the body anyway).
func closed(b []byte) bool {
	depth := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			// Most of a body is inside strings: jump to the quote that
			// closes this one (IndexByte is vectorised), the first one
			// after an even number of backslashes.
			j := i + 1
			for {
				k := bytes.IndexByte(b[j:], '"')
				if k < 0 {
					return false // ends inside a string
				}
				j += k
				n := 0
				for p := j - 1; p > i && b[p] == '\\'; p-- {
					n++
				}
				if n%2 == 0 {
					break
				}
				j++
			}
			i = j
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		}
	}
	return depth == 0
}

// errorBody reports whether a 2xx JSON body is an error rather than an
// answer: an object with an "error" (Exa, OpenAI-style gateways) or a
// "detail" (Tavily's {"detail":{"error":…}}) and neither "results" nor
// "choices". Such a 200 is read as an error, never as "no results".
func errorBody(body []byte) bool {
	if !bytes.Contains(body, []byte(`"error"`)) && !bytes.Contains(body, []byte(`"detail"`)) {
		return false
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(body, &obj) != nil {
		return false
	}
	if _, ok := obj["results"]; ok {
		return false
	}
	if _, ok := obj["choices"]; ok {
		return false
	}
	for _, k := range []string{"error", "detail"} {
		switch v := string(bytes.TrimSpace(obj[k])); v {
		case "", "null", "false", `""`, "{}", "[]":
		default:
			return true
		}
	}
	return false
}
