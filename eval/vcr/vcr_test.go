package vcr

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.yaml.in/yaml/v4"
	"gopkg.in/dnaeon/go-vcr.v4/pkg/cassette"
	"gopkg.in/dnaeon/go-vcr.v4/pkg/recorder"

	"github.com/searchbench/searchbench/orchestrator/httpx"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

const goldenPath = "testdata/golden/cassettes/baseline/smoke/case-1.yaml"

func TestPath(t *testing.T) {
	tests := []struct {
		variant, dataset, id string
		want                 string
	}{
		{"baseline", "smoke", "case-1", "root/baseline/smoke/case-1.yaml"},
		{"v2.prompt", "fresh_qa", "Q_17", "root/v2.prompt/fresh_qa/Q_17.yaml"},
		{"a/b", "..", "../../etc/passwd", "root/a%2Fb/%2E./%2E.%2F..%2Fetc%2Fpasswd.yaml"},
		{"", "d", "id with space", "root/%/d/id%20with%20space.yaml"},
		{"v", "d", "_", "root/v/d/_.yaml"},
		{"v", "d", "é", "root/v/d/%C3%A9.yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			if got := filepath.ToSlash(Path("root", tt.variant, tt.dataset, tt.id)); got != tt.want {
				t.Errorf("Path(root, %q, %q, %q) = %q, want %q", tt.variant, tt.dataset, tt.id, got, tt.want)
			}
		})
	}
}

func TestProviderDuration(t *testing.T) {
	tests := []struct {
		name, body string
		want       time.Duration
	}{
		{"chat", `{"choices":[],"time_info":{"queue_time":0.1,"total_time":0.42}}`, 420 * time.Millisecond},
		{"tavily float", `{"results":[],"response_time":1.67}`, 1670 * time.Millisecond},
		{"tavily string", `{"results":[],"response_time":" 1.67"}`, 1670 * time.Millisecond},
		{"exa ms", `{"results":[],"searchTime":312.5}`, 312500 * time.Microsecond},
		{"none", `{"results":[]}`, 0},
		{"negative", `{"response_time":-3}`, 0},
		{"garbage", `{"response_time":"soon"}`, 0},
		{"huge", `{"searchTime":1e300}`, maxDuration},
		{"not json", `<html>busy</html>`, 0},
		{"sse", "data: {\"choices\":[]}\n\ndata: {\"choices\":[],\"time_info\":{\"total_time\":0.5}}\n\ndata: [DONE]\n", 500 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ProviderDuration([]byte(tt.body)); got != tt.want {
				t.Errorf("ProviderDuration(%q) = %v, want %v", tt.body, got, tt.want)
			}
		})
	}
}

// TestRecordReplay records one case from the loopback fake and replays it
// with other headers, credentials and JSON formatting.
func TestRecordReplay(t *testing.T) {
	_, srv := newFakeAPI(t)
	path := filepath.Join(t.TempDir(), "case.yaml")
	calls := caseCalls("who won the 2024 Tour de France?", false)
	recorded := recordCase(t, path, srv, calls)

	srv.Close() // replay must not need it
	r, err := OpenReplay(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	replayed, err := send(t, r, restyle(calls))
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	if len(replayed) != len(recorded) {
		t.Fatalf("replayed %d responses, recorded %d", len(replayed), len(recorded))
	}
	for i := range recorded {
		if replayed[i] != recorded[i] {
			t.Errorf("response %d: replayed %+v, recorded %+v", i, replayed[i], recorded[i])
		}
	}
	if u := r.Unused(); len(u) != 0 {
		t.Errorf("Unused() = %v, want none", u)
	}
}

func TestDeterministicRecordingIsByteIdentical(t *testing.T) {
	dir := t.TempDir()
	var files [2][]byte
	for i := range files {
		api, srv := newFakeAPI(t) // fresh server: new port, and a new Date header
		api.date = fmt.Sprintf("Mon, 0%d Jan 2024 10:00:00 GMT", i+1)
		path := filepath.Join(dir, strconv.Itoa(i)+".yaml")
		recordCase(t, path, srv, caseCalls("who won the 2024 Tour de France?", true))
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		files[i] = b
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Fatalf("two deterministic recordings differ:\n%s", diffText(string(files[0]), string(files[1]), 40))
	}
	if *update {
		if err := os.MkdirAll(filepath.Dir(goldenPath), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(goldenPath, files[0], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(files[0], want) {
		t.Errorf("recording differs from %s (go test -update rewrites it):\n%s", goldenPath, diffText(string(want), string(files[0]), 40))
	}

	c, err := cassette.Load(strings.TrimSuffix(goldenPath, Ext))
	if err != nil {
		t.Fatal(err)
	}
	want2 := map[string][]time.Duration{ // in file order
		"https://api.cerebras.ai/v1/chat/completions": {420 * time.Millisecond, 420 * time.Millisecond},
		"https://api.exa.ai/search":                   {312500 * time.Microsecond},
		"https://api.tavily.com/search":               {0, 1670 * time.Millisecond}, // the 429 reports no time
	}
	got := map[string][]time.Duration{}
	for i, in := range c.Interactions {
		got[in.Request.URL] = append(got[in.Request.URL], in.Response.Duration)
		if d := in.Response.Headers.Get("Date"); d != "" {
			t.Errorf("interaction %d kept Date %q", in.ID, d)
		}
		if in.ID != i {
			t.Errorf("interaction %d has id %d", i, in.ID)
		}
	}
	for u, w := range want2 {
		if !slices.Equal(got[u], w) {
			t.Errorf("%s durations = %v, want %v", u, got[u], w)
		}
	}
}

// TestDeterministicRecordingIgnoresCompletionOrder: concurrent requests that
// complete in a different order still give the same cassette.
func TestDeterministicRecordingIgnoresCompletionOrder(t *testing.T) {
	dir := t.TempDir()
	calls := caseCalls("q", false)
	var files [2][]byte
	for i, slow := range []string{"api.exa.ai", "api.tavily.com"} {
		api, srv := newFakeAPI(t)
		api.slow = slow
		path := filepath.Join(dir, strconv.Itoa(i)+".yaml")
		rec, err := StartRecording(path, RecordOptions{Deterministic: true, Real: Redirect(mustURL(t, srv.URL), nil)})
		if err != nil {
			t.Fatal(err)
		}
		// The slow host answers only after every other call has: the
		// completion order differs between the two recordings by
		// construction, not by timing.
		var fast, held sync.WaitGroup
		for _, c := range calls {
			wg := &fast
			if strings.Contains(c.url, slow) {
				wg = &held
			}
			wg.Go(func() {
				if _, err := send(t, rec, []call{c}); err != nil {
					t.Error(err)
				}
			})
		}
		fast.Wait()
		close(api.release)
		held.Wait()
		if err := rec.Save(); err != nil {
			t.Fatal(err)
		}
		if files[i], err = os.ReadFile(path); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Fatalf("recordings differ:\n%s", diffText(string(files[0]), string(files[1]), 40))
	}
}

// TestLiveRecordingKeepsDurations: without Deterministic, the measured
// duration and the Date header stay; DropHeaders still applies.
func TestLiveRecordingKeepsDurations(t *testing.T) {
	_, srv := newFakeAPI(t)
	path := filepath.Join(t.TempDir(), "live.yaml")
	rec, err := StartRecording(path, RecordOptions{Real: Redirect(mustURL(t, srv.URL), nil), DropHeaders: []string{"x-stainless-os"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := send(t, rec, caseCalls("q", false)[:1]); err != nil {
		t.Fatal(err)
	}
	if err := rec.Save(); err != nil {
		t.Fatal(err)
	}
	c, err := cassette.Load(strings.TrimSuffix(path, Ext))
	if err != nil {
		t.Fatal(err)
	}
	rs := c.Interactions[0].Response
	if rs.Duration == 420*time.Millisecond || rs.Duration <= 0 {
		t.Errorf("live duration = %v, want the measured one", rs.Duration)
	}
	if rs.Headers.Get("Date") == "" {
		t.Error("live recording dropped the Date header")
	}
	if h := c.Interactions[0].Request.Headers; h.Get("X-Stainless-Os") != "" || h.Get("User-Agent") == "" {
		t.Errorf("DropHeaders: recorded request headers %v", h)
	}
}

func TestSecretsScrubbed(t *testing.T) {
	_, srv := newFakeAPI(t)
	path := filepath.Join(t.TempDir(), "case.yaml")
	got := recordCase(t, path, srv, caseCalls("q", false))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{cerebrasKey, tavilyKey, exaKey, "api_key"} {
		if bytes.Contains(data, []byte(k)) {
			t.Errorf("cassette contains %q", k)
		}
	}
	// The client saw the scrubbed echo while recording, as replay will show it.
	if !strings.Contains(got[1].Body, `"echo":"key REDACTED accepted"`) {
		t.Errorf("tavily response seen while recording: %s", got[1].Body)
	}

	c, err := cassette.Load(strings.TrimSuffix(path, Ext))
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range c.Interactions {
		for _, h := range []string{"Authorization", "X-Api-Key"} {
			if v := in.Request.Headers.Get(h); v != "" && v != Redacted {
				t.Errorf("interaction %d: %s = %q", in.ID, h, v)
			}
		}
		if n := in.Request.ContentLength; n != int64(len(in.Request.Body)) {
			t.Errorf("interaction %d: request content_length %d, body %d bytes", in.ID, n, len(in.Request.Body))
		}
		rs := in.Response
		if cl := rs.Headers.Get("Content-Length"); cl != strconv.Itoa(len(rs.Body)) || rs.ContentLength != int64(len(rs.Body)) {
			t.Errorf("interaction %d: Content-Length %q / %d, body %d bytes", in.ID, cl, rs.ContentLength, len(rs.Body))
		}
	}
	tav := interactionsTo(c, "https://api.tavily.com/search")[0].Response
	if e := tav.Headers.Get("X-Echo-Key"); e != Redacted {
		t.Errorf("echoed key header = %q, want %s", e, Redacted)
	}
}

func TestShortSecretRefused(t *testing.T) {
	_, err := StartRecording(filepath.Join(t.TempDir(), "c.yaml"), RecordOptions{Secrets: []string{"abc"}})
	if err == nil || strings.Contains(err.Error(), "abc") {
		t.Fatalf("err = %v, want a refusal that does not print the value", err)
	}
}

func TestLeakGuard(t *testing.T) {
	sc := &scrubber{}
	sc.add(cerebrasKey)
	path := filepath.Join(t.TempDir(), "c.yaml")
	err := (&atomicFS{secret: sc}).WriteFile(path, []byte("body: "+cerebrasKey))
	if !errors.Is(err, errSecretLeak) || strings.Contains(err.Error(), cerebrasKey) {
		t.Fatalf("err = %v, want errSecretLeak without the value", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("leaking cassette was written: %v", err)
	}
}

// TestMatching replays one recorded case against variations of its first
// request.
func TestMatching(t *testing.T) {
	_, srv := newFakeAPI(t)
	path := filepath.Join(t.TempDir(), "case.yaml")
	calls := caseCalls("who won the 2024 Tour de France?", false)
	recordCase(t, path, srv, calls)

	chat := calls[0]
	body := chat.body.(map[string]any)
	with := func(k string, v any) map[string]any {
		m := map[string]any{}
		for k, v := range body {
			m[k] = v
		}
		m[k] = v
		return m
	}
	tests := []struct {
		name     string
		call     call
		wantMiss string // substring of the diff; "" means it must match
	}{
		{"as recorded", chat, ""},
		{"other headers and key order", restyle([]call{chat})[0], ""},
		{"volatile user changed", call{chat.method, chat.url, chat.header, with("user", "someone-else")}, ""},
		{"body api_key added", call{chat.method, chat.url, chat.header, with("api_key", "sk-whatever-123")}, ""},
		{"seed changed", call{chat.method, chat.url, chat.header, with("seed", 8)}, `+   "seed": 8`},
		{"other URL", call{chat.method, "https://api.cerebras.ai/v1/completions", chat.header, body}, "+ POST https://api.cerebras.ai/v1/completions"},
		{"other method", call{"PUT", chat.url, chat.header, body}, "+ PUT https://api.cerebras.ai/v1/chat/completions"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := OpenReplayWith(path, ReplayOptions{Case: "case-1", Rerecord: "searchbench record case-1"})
			if err != nil {
				t.Fatal(err)
			}
			_, err = send(t, r, []call{tt.call})
			if tt.wantMiss == "" {
				if err != nil {
					t.Fatalf("no match: %v", err)
				}
				return
			}
			var miss *MissError
			if !errors.As(err, &miss) {
				t.Fatalf("err = %v (%T), want a *MissError through *url.Error", err, err)
			}
			if !errors.Is(err, cassette.ErrInteractionNotFound) {
				t.Error("errors.Is(err, cassette.ErrInteractionNotFound) = false")
			}
			if miss.Method != tt.call.method || miss.URL != tt.call.url {
				t.Errorf("miss names %s %s, want %s %s", miss.Method, miss.URL, tt.call.method, tt.call.url)
			}
			if !strings.Contains(miss.Closest, "POST https://api.cerebras.ai/v1/chat/completions (interaction ") {
				t.Errorf("Closest = %q, want the first chat interaction", miss.Closest)
			}
			if !strings.Contains(miss.Diff, tt.wantMiss) {
				t.Errorf("Diff lacks %q:\n%s", tt.wantMiss, miss.Diff)
			}
			msg := err.Error()
			for _, want := range []string{"case-1", "re-record with: searchbench record case-1", path} {
				if !strings.Contains(msg, want) {
					t.Errorf("error lacks %q:\n%s", want, msg)
				}
			}
		})
	}
}

// TestMissDiffShowsPromptChange: a changed word deep in a long prompt is
// shown around the change, within bounded lines.
func TestMissDiffShowsPromptChange(t *testing.T) {
	_, srv := newFakeAPI(t)
	path := filepath.Join(t.TempDir(), "case.yaml")
	calls := caseCalls("q", false)
	recordCase(t, path, srv, calls)

	body := calls[0].body.(map[string]any)
	msgs := body["messages"].([]any)
	edited := strings.Replace(systemPrompt, "bullet", "BULLETS", 1)
	body["messages"] = []any{map[string]any{"role": "system", "content": edited}, msgs[1]}
	r, err := OpenReplay(path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = send(t, r, calls[:1])
	var miss *MissError
	if !errors.As(err, &miss) {
		t.Fatalf("err = %v, want *MissError", err)
	}
	if !strings.Contains(miss.Diff, "BULLETS") {
		t.Errorf("diff does not show the change:\n%s", miss.Diff)
	}
	for _, l := range strings.Split(miss.Diff, "\n") {
		if len(l) > maxLineLen+16 {
			t.Errorf("diff line of %d bytes: %.80s…", len(l), l)
		}
	}
	if n := strings.Count(miss.Diff, "\n") + 1; n > maxDiffLines+1 {
		t.Errorf("diff has %d lines", n)
	}
}

func TestRetryPairReplaysInOrder(t *testing.T) {
	_, srv := newFakeAPI(t)
	path := filepath.Join(t.TempDir(), "case.yaml")
	calls := caseCalls("q", true)
	tavily := calls[1]
	recorded := recordCase(t, path, srv, calls)
	if recorded[1].Status != 429 || recorded[2].Status != 200 {
		t.Fatalf("fake did not rate limit: %d then %d", recorded[1].Status, recorded[2].Status)
	}

	r, err := OpenReplay(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := send(t, r, []call{tavily, tavily})
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Status != 429 || got[1].Status != 200 {
		t.Errorf("replayed %d then %d, want 429 then 200", got[0].Status, got[1].Status)
	}
	_, err = send(t, r, []call{tavily})
	var miss *MissError
	if !errors.As(err, &miss) || miss.Diff != "" || !strings.Contains(miss.Closest, "already replayed") {
		t.Fatalf("third attempt: err = %v, want a miss naming an already replayed interaction", err)
	}
	c, err := cassette.Load(strings.TrimSuffix(path, Ext))
	if err != nil {
		t.Fatal(err)
	}
	var want []int
	for _, in := range c.Interactions {
		if in.Request.URL != tavily.url {
			want = append(want, in.ID)
		}
	}
	if !slices.Equal(r.Unused(), want) {
		t.Errorf("Unused() = %v, want %v (all but the Tavily pair)", r.Unused(), want)
	}
}

// TestReplayNeverDials: a request to a live loopback server that the
// cassette does not hold fails without reaching it.
func TestReplayNeverDials(t *testing.T) {
	api, srv := newFakeAPI(t)
	path := filepath.Join(t.TempDir(), "case.yaml")
	recordCase(t, path, srv, caseCalls("q", false))
	before := api.hits.Load()

	r, err := OpenReplay(path)
	if err != nil {
		t.Fatal(err)
	}
	live := call{"POST", srv.URL + "/search", http.Header{}, map[string]any{"query": "q"}}
	_, err = send(t, r, []call{live})
	var miss *MissError
	if !errors.As(err, &miss) {
		t.Fatalf("err = %v, want *MissError", err)
	}
	if n := api.hits.Load() - before; n != 0 {
		t.Fatalf("replay reached the server %d time(s)", n)
	}
}

func TestMissingCassette(t *testing.T) {
	path := Path(t.TempDir(), "baseline", "smoke", "case-9")
	_, err := OpenReplayWith(path, ReplayOptions{Case: "case-9", Rerecord: "searchbench record --case case-9"})
	var missing *MissingCassetteError
	if !errors.As(err, &missing) {
		t.Fatalf("err = %v, want *MissingCassetteError", err)
	}
	if !errors.Is(err, fs.ErrNotExist) || !errors.Is(err, cassette.ErrCassetteNotFound) {
		t.Errorf("err does not unwrap to fs.ErrNotExist and cassette.ErrCassetteNotFound")
	}
	for _, want := range []string{path, "searchbench record --case case-9"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

// TestInterruptedRecordingKeepsOldCassette: after Discard or a request that
// failed mid-way, Save refuses and the old cassette stays byte for byte.
func TestInterruptedRecordingKeepsOldCassette(t *testing.T) {
	_, srv := newFakeAPI(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "case.yaml")
	recordCase(t, path, srv, caseCalls("old", false))
	old, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name string
		run  func(t *testing.T, rec *Recording) error
	}{
		{"discard", func(t *testing.T, rec *Recording) error {
			if _, err := send(t, rec, caseCalls("new", false)[:2]); err != nil {
				t.Fatal(err)
			}
			rec.Discard()
			return rec.Save()
		}},
		{"request failed mid-way", func(t *testing.T, rec *Recording) error {
			if _, err := send(t, rec, caseCalls("new", false)); err == nil {
				t.Fatal("want the third request to fail")
			}
			return rec.Save()
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, err := StartRecording(path, RecordOptions{Deterministic: true, Real: failAfter(2, Redirect(mustURL(t, srv.URL), nil))})
			if err != nil {
				t.Fatal(err)
			}
			if err := tt.run(t, rec); err == nil {
				t.Fatal("Save succeeded, want a refusal")
			}
			now, err := os.ReadFile(path)
			if err != nil || !bytes.Equal(now, old) {
				t.Fatalf("old cassette changed (err %v)", err)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				t.Errorf("stray files: %v", entries)
			}
		})
	}
}

// failAfter passes n requests to rt and fails the rest, like a network
// dropping part-way through a case.
func failAfter(n int, rt http.RoundTripper) http.RoundTripper {
	var mu sync.Mutex
	return roundTripFunc(func(r *http.Request) (*http.Response, error) {
		mu.Lock()
		n--
		ok := n >= 0
		mu.Unlock()
		if !ok {
			return nil, errors.New("connection reset by peer")
		}
		return rt.RoundTrip(r)
	})
}

func TestCassetteLoadsInGoVCRReplay(t *testing.T) {
	// go-vcr's own recorder replays our golden cassette with a matcher that
	// ignores headers: the file is a plain go-vcr v2 cassette.
	rec, err := recorder.New(strings.TrimSuffix(goldenPath, Ext),
		recorder.WithMode(recorder.ModeReplayOnly),
		recorder.WithSkipRequestLatency(true),
		recorder.WithMatcher(func(r *http.Request, i cassette.Request) bool {
			return r.Method == i.Method && r.URL.String() == i.URL
		}),
	)
	if err != nil {
		t.Fatal(err)
	}
	got, err := send(t, rec, caseCalls("who won the 2024 Tour de France?", true))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 5 || got[1].Status != 429 || got[2].Status != 200 {
		t.Errorf("go-vcr replay gave %d responses", len(got))
	}
}

func TestRedirect(t *testing.T) {
	var gotHost, gotPath string
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		gotHost, gotPath = r.Host, r.URL.String()
		return &http.Response{StatusCode: 204, Body: http.NoBody, Request: r}, nil
	})
	req, _ := http.NewRequest("POST", "https://api.tavily.com/search?x=1", nil)
	if _, err := Redirect(mustURL(t, "http://127.0.0.1:9/sim/"), rt).RoundTrip(req); err != nil {
		t.Fatal(err)
	}
	if gotHost != "api.tavily.com" || gotPath != "http://127.0.0.1:9/sim/search?x=1" {
		t.Errorf("sent Host %q to %q", gotHost, gotPath)
	}
	if req.URL.String() != "https://api.tavily.com/search?x=1" {
		t.Errorf("caller's request was modified: %s", req.URL)
	}
}

// interactionsTo returns c's interactions with url, in file order.
func interactionsTo(c *cassette.Cassette, url string) []*cassette.Interaction {
	var out []*cassette.Interaction
	for _, in := range c.Interactions {
		if in.Request.URL == url {
			out = append(out, in)
		}
	}
	return out
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestHandEditedCassette: a recorded body that is not canonical (edited by
// hand) still matches, and in recorded order.
func TestHandEditedCassette(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "edited.yaml")
	c := cassette.New(strings.TrimSuffix(path, Ext))
	c.MarshalFunc = yaml.Marshal
	for i, body := range []string{"{ \"b\": 1,\n  \"a\": 2 }", `{"a":2,"b":1}`} {
		c.AddInteraction(&cassette.Interaction{
			Request:  cassette.Request{Method: "POST", URL: "https://api.exa.ai/search", Body: body},
			Response: cassette.Response{Code: 200, Status: "200 OK", Body: strconv.Itoa(i)},
		})
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	r, err := OpenReplay(path)
	if err != nil {
		t.Fatal(err)
	}
	req := call{"POST", "https://api.exa.ai/search", http.Header{}, rawJSON(`{"a":2,"b":1}`)}
	got, err := send(t, r, []call{req, req})
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Body != "0" || got[1].Body != "1" {
		t.Errorf("replayed %q then %q, want recorded order 0 then 1", got[0].Body, got[1].Body)
	}
}

// TestConcurrentReplay: parallel identical requests each get one of the
// recorded interactions, none twice.
func TestConcurrentReplay(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "par.yaml")
	c := cassette.New(strings.TrimSuffix(path, Ext))
	c.MarshalFunc = yaml.Marshal
	const n = 16
	for i := range n {
		c.AddInteraction(&cassette.Interaction{
			Request:  cassette.Request{Method: "POST", URL: "https://api.tavily.com/search", Body: `{"query":"q"}`},
			Response: cassette.Response{Code: 200, Body: strconv.Itoa(i)},
		})
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	r, err := OpenReplay(path)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	seen := map[string]bool{}
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			got, err := send(t, r, []call{{"POST", "https://api.tavily.com/search", http.Header{}, rawJSON(`{"query": "q"}`)}})
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			seen[got[0].Body] = true
			mu.Unlock()
		})
	}
	wg.Wait()
	if len(seen) != n || len(r.Unused()) != 0 {
		t.Errorf("%d distinct responses, %d unused; want %d and 0", len(seen), len(r.Unused()), n)
	}
}

// TestCanonStatesMatchLikeYAML: a replay through the cache, whose entries
// record which request bodies are stored canonical (so a replay skips
// canonicalising them), matches exactly as a replay decoding the YAML:
// a body stored non-canonical still matches a live body equal to it only
// canonically, in recorded order, and every miss is the same error.
func TestCanonStatesMatchLikeYAML(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "edited.yaml")
	c := cassette.New(strings.TrimSuffix(path, Ext))
	c.MarshalFunc = yaml.Marshal
	bodies := []string{"{ \"b\": 1,\n  \"a\": 2 }", `{"a":2,"b":1}`, `{"a":3}`, `{"user":"u","a":5}`}
	for i, body := range bodies {
		c.AddInteraction(&cassette.Interaction{
			Request:  cassette.Request{Method: "POST", URL: "https://api.exa.ai/search", Body: body},
			Response: cassette.Response{Code: 200, Status: "200 OK", Body: strconv.Itoa(i)},
		})
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	exa := func(body string) call { return call{"POST", "https://api.exa.ai/search", http.Header{}, rawJSON(body)} }
	tavily := call{"POST", "https://api.tavily.com/search", http.Header{}, rawJSON(`{"a":3}`)}
	steps := []call{
		exa(`{"a":3}`),        // the canonical body recorded third: earlier unused ones differ
		exa(`{"b":1,"a":2}`),  // byte-different, canonically equal to the first two: the first
		exa(`{"a":2, "b":1}`), // then the second
		exa(`{"a":2,"b":1}`),  // sent once more than recorded: a miss
		exa(`{"a":4}`),        // recorded nowhere: a miss with a diff
		tavily,                // another URL: a miss
		exa(`{"a":5}`),        // canonically equal to the fourth (its "user" is volatile)
	}
	replay := func(opts ReplayOptions) []string {
		r, err := OpenReplayWith(path, opts)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		var out []string
		for _, s := range steps {
			got, err := send(t, r, []call{s})
			if err != nil {
				out = append(out, "error: "+err.Error())
				continue
			}
			out = append(out, got[0].Body)
		}
		return out
	}
	want := replay(ReplayOptions{})
	if w := []string{"2", "0", "1"}; !reflect.DeepEqual(want[:3], w) || want[6] != "3" {
		t.Fatalf("replayed %q, want %q first and 3 last", want, w)
	}
	for i := 3; i < 6; i++ {
		if !strings.HasPrefix(want[i], "error: ") || !strings.Contains(want[i], "no recorded interaction matches") {
			t.Fatalf("step %d: %q, want a miss", i, want[i])
		}
	}
	cache := NewCache(filepath.Join(dir, "cache"), func(err error) { t.Errorf("warn: %v", err) })
	for _, pass := range []string{"cold cache", "warm cache"} {
		if got := replay(ReplayOptions{Cache: cache}); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: replayed\n%q\nwant (from the YAML)\n%q", pass, got, want)
		}
	}
	if st := cache.Stats(); st != (CacheStats{Hits: 1, Built: 1}) {
		t.Fatalf("stats %+v, want one entry built then read", st)
	}
	r, err := OpenReplayWith(path, ReplayOptions{Cache: cache})
	if err != nil {
		t.Fatal(err)
	}
	var states []canonState
	for _, in := range r.ints {
		states = append(states, in.Canon)
	}
	if w := []canonState{canonOther, canonSame, canonSame, canonOther}; !reflect.DeepEqual(states, w) {
		t.Errorf("entry's canonical states %v, want %v", states, w)
	}
	// Other volatile fields: the states, worked out under DefaultVolatile,
	// are not used (`{"a":3}`, canonical under DefaultVolatile, is `{}`
	// once "a" is volatile), and matching follows the options.
	opts := ReplayOptions{Cache: cache, Volatile: []string{"a"}}
	got := replay(opts)
	if want := replay(ReplayOptions{Volatile: []string{"a"}}); !reflect.DeepEqual(got, want) || got[0] != "2" {
		t.Fatalf("with volatile \"a\": replayed\n%q\nwant (from the YAML, 2 first)\n%q", got, want)
	}
}

// TestCanonStatesOfOtherRulesIgnored: an entry whose canonical states were
// worked out under other volatile or secret fields (a build that changed
// them without changing its version string) is still read, but its states
// are not trusted, so matching follows the rules in force.
func TestCanonStatesOfOtherRulesIgnored(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rules.yaml")
	c := cassette.New(strings.TrimSuffix(path, Ext))
	c.MarshalFunc = yaml.Marshal
	c.AddInteraction(&cassette.Interaction{
		Request:  cassette.Request{Method: "POST", URL: "https://api.exa.ai/search", Body: `{"a":3,"seed":1}`},
		Response: cassette.Response{Code: 200, Status: "200 OK", Body: "0"},
	})
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	cache := NewCache(filepath.Join(dir, "cache"), func(err error) { t.Errorf("warn: %v", err) })
	r, err := OpenReplayWith(path, ReplayOptions{Cache: cache}) // builds the entry under today's rules
	if err != nil {
		t.Fatal(err)
	}
	if r.ints[0].Canon != canonSame {
		t.Fatalf("state %v, want canonSame", r.ints[0].Canon)
	}
	saved := DefaultVolatile
	t.Cleanup(func() { DefaultVolatile = saved })
	DefaultVolatile = []string{"user", "seed"}
	r, err = OpenReplayWith(path, ReplayOptions{Cache: cache})
	if err != nil {
		t.Fatal(err)
	}
	if st := cache.Stats(); st != (CacheStats{Hits: 1, Built: 1}) {
		t.Fatalf("stats %+v, want the entry read", st)
	}
	if r.ints[0].Canon != canonUnknown {
		t.Fatalf("state %v under other rules, want canonUnknown", r.ints[0].Canon)
	}
	got, err := send(t, r, []call{{"POST", "https://api.exa.ai/search", http.Header{}, rawJSON(`{"a":3}`)}})
	if err != nil || got[0].Body != "0" {
		t.Fatalf("replayed %v, %v; want the interaction whose body is {\"a\":3} once seed is volatile", got, err)
	}
}

// TestRetriedResetKeepsTheCase: a connection reset that the client retried
// successfully leaves a cassette of the successes alone, which replays;
// a reset never retried still refuses the save.
func TestRetriedResetKeepsTheCase(t *testing.T) {
	_, srv := newFakeAPI(t)
	calls := caseCalls("reset once", false)
	path := filepath.Join(t.TempDir(), "case.yaml")
	var mu sync.Mutex
	n := 0
	resetSecond := func(rt http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(r *http.Request) (*http.Response, error) {
			mu.Lock()
			n++
			reset := n == 2
			mu.Unlock()
			if reset {
				return nil, errors.New("read: connection reset by peer")
			}
			return rt.RoundTrip(r)
		})
	}
	rec, err := StartRecording(path, RecordOptions{Deterministic: true, Real: resetSecond(Redirect(mustURL(t, srv.URL), nil))})
	if err != nil {
		t.Fatal(err)
	}
	var want []result
	for i, c := range calls {
		got, err := send(t, rec, []call{c})
		if err != nil {
			if i != 1 {
				t.Fatalf("call %d: %v", i, err)
			}
			got, err = send(t, rec, []call{c}) // the client's retry
			if err != nil {
				t.Fatal(err)
			}
		}
		want = append(want, got...)
	}
	if err := rec.Save(); err != nil {
		t.Fatalf("a case whose every request finally succeeded was not saved: %v", err)
	}
	rp, err := OpenReplay(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := send(t, rp, calls)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("replay: %v\n got %v\nwant %v", err, got, want)
	}
	if u := rp.Unused(); len(u) > 0 {
		t.Errorf("the cassette holds more than the successes: %v unused", u)
	}

	// Not retried: refused.
	n = 0
	rec, _ = StartRecording(path, RecordOptions{Deterministic: true, Real: resetSecond(Redirect(mustURL(t, srv.URL), nil))})
	send(t, rec, calls[:1])
	if _, err := send(t, rec, calls[1:2]); err == nil {
		t.Fatal("want the reset")
	}
	send(t, rec, calls[2:])
	if err := rec.Save(); err == nil || !strings.Contains(err.Error(), "not retried successfully") {
		t.Fatalf("Save after an unretried reset: %v", err)
	}
}

// TestRetriedFailureLeftOut: a call the client retried after a 503 and a
// JSON body cut short, then answered, is recorded as its answer alone; a
// replay sees one attempt. With KeepRetried (the simulator's scripted
// failures) every attempt stays. A call whose retries ran out keeps every
// attempt: its replay makes them again.
func TestRetriedFailureLeftOut(t *testing.T) {
	answers := func(steps ...string) (*httptest.Server, *int) {
		var mu sync.Mutex
		n := 0
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			s := steps[min(n, len(steps)-1)]
			n++
			mu.Unlock()
			if r.Header.Get(seqHeader) != "" {
				t.Error("the recorder's own header reached the server")
			}
			code, body, _ := strings.Cut(s, " ")
			c, _ := strconv.Atoi(code)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(c)
			io.WriteString(w, body)
		}))
		t.Cleanup(srv.Close)
		return srv, &n
	}
	p := httpx.Policy{MaxAttempts: 4, Sleep: httpx.NoSleep}
	for _, tc := range []struct {
		name  string
		keep  bool
		steps []string
		want  []int // statuses in the cassette
	}{
		{"retried, then answered", false, []string{`503 {"error":"busy"}`, `200 {"results":[`, `200 {"results":[]}`}, []int{200}},
		{"retried, kept", true, []string{`503 {"error":"busy"}`, `200 {"results":[]}`}, []int{503, 200}},
		{"retries ran out", false, []string{`503 {"error":"busy"}`}, []int{503, 503, 503, 503}},
	} {
		srv, _ := answers(tc.steps...)
		path := filepath.Join(t.TempDir(), "case.yaml")
		rec, err := StartRecording(path, RecordOptions{Real: srv.Client().Transport, KeepRetried: tc.keep})
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = httpx.NewClient(rec, p).PostJSON(context.Background(), srv.URL+"/search", nil, []byte(`{"query":"q"}`), nil)
		if (err == nil) != (tc.want[len(tc.want)-1] == 200) {
			t.Fatalf("%s: call err %v", tc.name, err)
		}
		if err := rec.Save(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		c, err := cassette.Load(strings.TrimSuffix(path, Ext))
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		for _, in := range c.Interactions {
			got = append(got, in.Response.Code)
			if in.Request.Headers.Get(seqHeader) != "" {
				t.Errorf("%s: the recorder's own header is in the cassette", tc.name)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: cassette holds %v, want %v", tc.name, got, tc.want)
		}
		// The replay makes the attempts the cassette holds, and no other.
		rp, err := OpenReplay(path)
		if err != nil {
			t.Fatal(err)
		}
		_, attempts, _ := httpx.NewClient(rp, p).PostJSON(context.Background(), srv.URL+"/search", nil, []byte(`{"query":"q"}`), nil)
		if len(attempts) != len(tc.want) || len(rp.Unused()) > 0 {
			t.Errorf("%s: replay made %d attempts, %d interactions unused", tc.name, len(attempts), len(rp.Unused()))
		}
	}
}
