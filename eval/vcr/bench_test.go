package vcr

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"gopkg.in/dnaeon/go-vcr.v4/pkg/cassette"
	"gopkg.in/dnaeon/go-vcr.v4/pkg/recorder"
)

// benchRequests are the golden case's requests, bodies marshalled once.
type benchRequest struct {
	method, url string
	header      http.Header
	body        []byte
}

func benchRequests(b *testing.B) []benchRequest {
	var out []benchRequest
	for _, c := range caseCalls("who won the 2024 Tour de France?", true) {
		body, err := json.Marshal(c.body)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, benchRequest{c.method, c.url, c.header, body})
	}
	return out
}

func (r benchRequest) new() *http.Request {
	req, _ := http.NewRequest(r.method, r.url, bytes.NewReader(r.body))
	req.Header = r.header
	return req
}

// replayAll sends every request through rt and drains the responses.
func replayAll(b *testing.B, rt http.RoundTripper, reqs []benchRequest) {
	for _, r := range reqs {
		resp, err := rt.RoundTrip(r.new())
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, resp.Body); err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
	}
}

// BenchmarkDecodeFloor is the floor replay is measured against: reading and
// decoding the cassette with go-vcr's loader, nothing else.
func BenchmarkDecodeFloor(b *testing.B) {
	name := strings.TrimSuffix(goldenPath, Ext)
	for b.Loop() {
		if _, err := cassette.Load(name); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReplay opens the golden cassette and replays all its
// interactions, as the harness does per case.
func BenchmarkReplay(b *testing.B) {
	reqs := benchRequests(b)
	for b.Loop() {
		r, err := OpenReplay(goldenPath)
		if err != nil {
			b.Fatal(err)
		}
		replayAll(b, r, reqs)
		if u := r.Unused(); len(u) != 0 {
			b.Fatalf("unused %v", u)
		}
		r.Close()
	}
}

// BenchmarkReplayGoVCRRecorder replays the same cassette through go-vcr's
// recorder in ModeReplayOnly, with the same matching (live body
// canonicalised once per request, passed to the matcher in the context): the
// alternative Replayer was measured against.
func BenchmarkReplayGoVCRRecorder(b *testing.B) {
	reqs := benchRequests(b)
	name := strings.TrimSuffix(goldenPath, Ext)
	type canonKey struct{}
	matcher := func(r *http.Request, i cassette.Request) bool {
		c, _ := r.Context().Value(canonKey{}).(string)
		return r.Method == i.Method && r.URL.String() == i.URL && c == i.Body
	}
	for b.Loop() {
		rec, err := recorder.New(name,
			recorder.WithMode(recorder.ModeReplayOnly),
			recorder.WithSkipRequestLatency(true),
			recorder.WithMatcher(matcher),
			recorder.WithRealTransport(roundTripFunc(func(*http.Request) (*http.Response, error) {
				b.Fatal("network")
				return nil, nil
			})),
		)
		if err != nil {
			b.Fatal(err)
		}
		rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
			body, _ := io.ReadAll(r.Body)
			c := string(CanonicalBody(body, DefaultVolatile...))
			r = r.WithContext(context.WithValue(r.Context(), canonKey{}, c))
			r.Body = io.NopCloser(bytes.NewReader(body))
			return rec.RoundTrip(r)
		})
		replayAll(b, rt, reqs)
		if err := rec.Stop(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCanonicalBody measures the per-request matching cost on the
// golden case's largest request (a chat completion with a long prompt).
func BenchmarkCanonicalBody(b *testing.B) {
	body := benchRequests(b)[0].body
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		CanonicalBody(body, DefaultVolatile...)
	}
}
