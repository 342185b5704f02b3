package httpx

import (
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/iotest"
	"time"

	"github.com/searchbench/searchbench/lib/secret"
)

// sleeper records requested waits without waiting.
type sleeper struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *sleeper) Sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleeper) got() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}

func testPolicy(s *sleeper) Policy {
	return Policy{
		MaxAttempts:    4,
		BaseDelay:      500 * time.Millisecond,
		MaxDelay:       8 * time.Second,
		AttemptTimeout: 5 * time.Second,
		MaxRetryAfter:  60 * time.Second,
		Sleep:          s.Sleep,
		Jitter:         func() float64 { return 0.5 },
		Now:            func() time.Time { return time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC) },
	}
}

// step is one scripted server answer.
type step struct {
	status int
	header map[string]string
	body   string
	reset  bool // close the TCP connection with RST instead of answering
	eof    bool // close the connection cleanly before answering
}

func scripted(t *testing.T, steps ...step) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		if i >= len(steps) {
			t.Errorf("unexpected request %d", i+1)
			w.WriteHeader(599)
			return
		}
		s := steps[i]
		if s.reset || s.eof {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err != nil {
				t.Error(err)
				return
			}
			if s.reset {
				conn.(*net.TCPConn).SetLinger(0)
			}
			conn.Close()
			return
		}
		for k, v := range s.header {
			w.Header().Set(k, v)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(s.status)
		io.WriteString(w, s.body)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func TestPostJSONRetries(t *testing.T) {
	const ok = `{"ok":true}`
	cerebras429 := `{"message":"Requests per second limit exceeded - too many requests sent.","type":"too_many_requests_error","param":"quota","code":"request_quota_exceeded"}`
	tests := []struct {
		name       string
		steps      []step
		wantStatus []int
		wantWaits  []time.Duration
		wantErr    string // substring; "" means success
	}{
		{
			name:       "429 with Retry-After seconds then 200",
			steps:      []step{{status: 429, header: map[string]string{"Retry-After": "2"}, body: cerebras429}, {status: 200, body: ok}},
			wantStatus: []int{429, 200},
			wantWaits:  []time.Duration{2 * time.Second},
		},
		{
			name: "429 with Retry-After HTTP date measured from Date",
			steps: []step{{status: 429, header: map[string]string{
				"Date": "Wed, 21 Oct 2015 07:28:00 GMT", "Retry-After": "Wed, 21 Oct 2015 07:28:03 GMT"}, body: cerebras429}, {status: 200, body: ok}},
			wantStatus: []int{429, 200},
			wantWaits:  []time.Duration{3 * time.Second},
		},
		{
			name: "429 with Cerebras reset header for the exhausted limit",
			steps: []step{{status: 429, header: map[string]string{
				"x-ratelimit-remaining-tokens-minute": "0", "x-ratelimit-reset-tokens-minute": "1.5",
				"x-ratelimit-remaining-requests-day": "14000", "x-ratelimit-reset-requests-day": "33000.2"}, body: cerebras429},
				{status: 200, body: ok}},
			wantStatus: []int{429, 200},
			wantWaits:  []time.Duration{1500 * time.Millisecond},
		},
		{
			name:       "503 then 200 backs off with jitter",
			steps:      []step{{status: 503, body: `{"requestId":"r1","error":"overloaded","tag":"SERVICE_OVERLOADED"}`}, {status: 200, body: ok}},
			wantStatus: []int{503, 200},
			wantWaits:  []time.Duration{375 * time.Millisecond},
		},
		{
			name:       "500 twice then 200 doubles the backoff",
			steps:      []step{{status: 500, body: `oops`}, {status: 502, body: `<html><title>502 Bad Gateway</title></html>`}, {status: 200, body: ok}},
			wantStatus: []int{500, 502, 200},
			wantWaits:  []time.Duration{375 * time.Millisecond, 750 * time.Millisecond},
		},
		{
			name:       "400 is not retried",
			steps:      []step{{status: 400, body: `{"error":{"message":"bad","type":"BadRequestError","param":null,"code":400}}`}},
			wantStatus: []int{400},
			wantErr:    "HTTP 400 Bad Request (BadRequestError): bad",
		},
		{
			name:       "401 is not retried",
			steps:      []step{{status: 401, body: `{"detail":{"error":"Unauthorized: missing or invalid API key."}}`}},
			wantStatus: []int{401},
			wantErr:    "Unauthorized: missing or invalid API key.",
		},
		{
			name:       "redirect is not followed",
			steps:      []step{{status: 307, header: map[string]string{"Location": "http://elsewhere.invalid/"}}},
			wantStatus: []int{307},
			wantErr:    "HTTP 307",
		},
		{
			name:       "connection reset then 200",
			steps:      []step{{reset: true}, {status: 200, body: ok}},
			wantStatus: []int{0, 200},
			wantWaits:  []time.Duration{375 * time.Millisecond},
		},
		{
			name:       "EOF then 200",
			steps:      []step{{eof: true}, {status: 200, body: ok}},
			wantStatus: []int{0, 200},
			wantWaits:  []time.Duration{375 * time.Millisecond},
		},
		{
			name: "attempts are bounded",
			steps: []step{{status: 429, body: cerebras429}, {status: 429, body: cerebras429},
				{status: 429, body: cerebras429}, {status: 429, body: cerebras429}},
			wantStatus: []int{429, 429, 429, 429},
			wantWaits:  []time.Duration{375 * time.Millisecond, 750 * time.Millisecond, 1500 * time.Millisecond},
			wantErr:    "(4 attempts: 429 wait=375ms, 429 wait=750ms, 429 wait=1.5s, 429)",
		},
		{
			name:       "a wait longer than MaxRetryAfter ends the retries",
			steps:      []step{{status: 429, header: map[string]string{"Retry-After": "3600"}, body: cerebras429}},
			wantStatus: []int{429},
			wantErr:    "the server asked to wait 1h0m0s, more than the 1m0s limit",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, n := scripted(t, tt.steps...)
			s := &sleeper{}
			c := NewClient(srv.Client().Transport, testPolicy(s))
			body, attempts, err := c.PostJSON(context.Background(), srv.URL+"/v1/x", nil, map[string]int{"b": 2, "a": 1}, ErrorDecoder("test"))
			if got := Statuses(attempts); !equal(got, tt.wantStatus) {
				t.Errorf("statuses = %v, want %v (%s)", got, tt.wantStatus, Describe(attempts))
			}
			if int(n.Load()) != len(tt.wantStatus) {
				t.Errorf("server saw %d requests, want %d", n.Load(), len(tt.wantStatus))
			}
			if got := s.got(); !equal(got, tt.wantWaits) {
				t.Errorf("sleeps = %v, want %v", got, tt.wantWaits)
			}
			for i, a := range attempts {
				want := time.Duration(0)
				if i < len(tt.wantWaits) {
					want = tt.wantWaits[i]
				}
				if a.Wait != want {
					t.Errorf("attempt %d wait = %v, want %v", i+1, a.Wait, want)
				}
				if (a.Err == "") != (a.Status == 200) {
					t.Errorf("attempt %d = %+v: error text only on failure", i+1, a)
				}
			}
			if tt.wantErr == "" {
				if err != nil || string(body) != ok {
					t.Fatalf("got %q, %v; want %s", body, err, ok)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
			}
			if got := AttemptsOf(err); len(got) != len(attempts) {
				t.Errorf("AttemptsOf(err) has %d attempts, want %d", len(got), len(attempts))
			}
		})
	}
}

func equal[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestPostJSONRequestAsSent(t *testing.T) {
	var gotBody string
	var gotHeader http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		gotBody, gotHeader = string(b), r.Header.Clone()
		io.WriteString(w, `{}`)
	}))
	defer srv.Close()
	c := NewClient(srv.Client().Transport, Policy{})
	type req struct {
		Query string         `json:"query"`
		N     int            `json:"n,omitempty"`
		Extra map[string]int `json:"extra"`
	}
	h := http.Header{"Authorization": {"Bearer sk-secret-123"}}
	for i := 0; i < 3; i++ { // same value, same bytes, every time
		if _, _, err := c.PostJSON(context.Background(), srv.URL, h, req{Query: "a<b & c", Extra: map[string]int{"z": 1, "a": 2}}, nil); err != nil {
			t.Fatal(err)
		}
		if want := `{"query":"a<b & c","extra":{"a":2,"z":1}}`; gotBody != want {
			t.Fatalf("body = %s, want %s", gotBody, want)
		}
	}
	for k, want := range map[string]string{"Authorization": "Bearer sk-secret-123", "Content-Type": "application/json", "Accept": "application/json", "User-Agent": "searchbench"} {
		if got := gotHeader.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	if h.Get("Content-Type") != "" {
		t.Error("PostJSON modified the caller's header map")
	}
}

func TestPostJSONNeverShowsKeys(t *testing.T) {
	const key = "tvly-dev-abcdef123456"
	srv, _ := scripted(t, step{status: 401, body: `{"detail":{"error":"Invalid API key: ` + key + `"}}`})
	c := NewClient(srv.Client().Transport, Policy{})
	_, attempts, err := c.PostJSON(context.Background(), srv.URL, http.Header{"Authorization": {"Bearer " + key}}, []byte(`{}`), ErrorDecoder("tavily"))
	if err == nil {
		t.Fatal("want an error")
	}
	var ae *APIError
	if !errors.As(err, &ae) || ae.Status != 401 {
		t.Fatalf("err = %v, want *APIError 401", err)
	}
	for _, s := range []string{err.Error(), ae.Error(), attempts[0].Err} {
		if strings.Contains(s, key) {
			t.Errorf("key leaked: %s", s)
		}
		if !strings.Contains(s, "Invalid API key: REDACTED") {
			t.Errorf("want the redacted message in %q", s)
		}
	}
}

// expiring is a context whose deadline passes when its test says so: the
// timeouts are tested without waiting for the clock.
type expiring struct {
	context.Context
	done chan struct{}
	once sync.Once
}

func (e *expiring) Done() <-chan struct{} { return e.done }

func (e *expiring) Err() error {
	select {
	case <-e.done:
		return context.DeadlineExceeded
	default:
		return e.Context.Err()
	}
}

func (e *expiring) expire() { e.once.Do(func() { close(e.done) }) }

// timeouts hands out expiring contexts in order, and records the durations
// asked for.
type timeouts struct {
	mu   sync.Mutex
	ctxs []*expiring
	ds   []time.Duration
}

func (tt *timeouts) withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	e := &expiring{Context: ctx, done: make(chan struct{})}
	go func() { // the parent's end ends this one too
		select {
		case <-ctx.Done():
			e.expire()
		case <-e.done:
		}
	}()
	tt.mu.Lock()
	tt.ctxs = append(tt.ctxs, e)
	tt.ds = append(tt.ds, d)
	tt.mu.Unlock()
	return e, func() {}
}

func (tt *timeouts) get(i int) *expiring {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	return tt.ctxs[i]
}

func TestPostJSONAttemptTimeout(t *testing.T) {
	var n atomic.Int32
	tt := &timeouts{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body) // lets the server notice the client hanging up
		if n.Add(1) == 1 {
			tt.get(0).expire() // the first attempt's time runs out while the server hangs
			<-r.Context().Done()
			return
		}
		io.WriteString(w, `{}`)
	}))
	defer srv.Close()
	s := &sleeper{}
	p := testPolicy(s)
	p.AttemptTimeout = 100 * time.Millisecond
	p.WithTimeout = tt.withTimeout
	c := NewClient(srv.Client().Transport, p)
	_, attempts, err := c.PostJSON(context.Background(), srv.URL, nil, []byte(`{}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := Statuses(attempts); !equal(got, []int{0, 200}) || !strings.Contains(attempts[0].Err, "attempt timed out after 100ms") {
		t.Fatalf("attempts = %+v", attempts)
	}
	if len(tt.ds) != 2 || tt.ds[0] != 100*time.Millisecond {
		t.Errorf("attempt timeouts asked = %v, want 100ms per attempt", tt.ds)
	}
}

// TestPostJSONCallTimeout: a server that never finishes a response costs
// the call's limit, not MaxAttempts × AttemptTimeout.
func TestPostJSONCallTimeout(t *testing.T) {
	tt := &timeouts{}
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		if n.Add(1) == 2 {
			tt.get(0).expire() // the call's limit passes during the second attempt
		} else {
			tt.get(int(n.Load())).expire() // the first attempt times out on its own
		}
		<-r.Context().Done()
	}))
	defer srv.Close()
	p := testPolicy(&sleeper{})
	p.MaxAttempts = 4
	p.AttemptTimeout = 2 * time.Minute
	p.CallTimeout = 3 * time.Minute
	p.WithTimeout = tt.withTimeout
	c := NewClient(srv.Client().Transport, p)
	_, attempts, err := c.PostJSON(context.Background(), srv.URL, nil, []byte(`{}`), nil)
	if !errors.Is(err, errCallTimeout) || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "call timed out after 3m0s") {
		t.Fatalf("err = %v, want the call's own timeout", err)
	}
	if len(attempts) != 2 || n.Load() != 2 {
		t.Fatalf("attempts = %+v (server saw %d), want 2: no attempt after the call's limit", attempts, n.Load())
	}
	if tt.ds[0] != 3*time.Minute || tt.ds[1] != 2*time.Minute {
		t.Errorf("timeouts asked = %v, want the call's then each attempt's", tt.ds)
	}
}

func TestPostJSONCancelDuringWait(t *testing.T) {
	srv, _ := scripted(t, step{status: 429, header: map[string]string{"Retry-After": "30"}, body: `{}`})
	p := testPolicy(nil)
	ctx, cancel := context.WithCancel(context.Background())
	var waited []time.Duration
	var sleepErr error
	p.Sleep = func(ctx context.Context, d time.Duration) error {
		waited = append(waited, d)
		cancel() // the signal arrives while the client waits to retry
		sleepErr = SleepContext(ctx, d)
		return sleepErr
	}
	c := NewClient(srv.Client().Transport, p)
	_, attempts, err := c.PostJSON(ctx, srv.URL, nil, []byte(`{}`), nil)
	if !errors.Is(sleepErr, context.Canceled) || len(waited) != 1 {
		t.Fatalf("the wait ended with %v after %v; a cancelled wait must stop at once", sleepErr, waited)
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	var ae *APIError
	if !errors.As(err, &ae) || ae.Status != 429 || ae.RetryAfter != 30*time.Second {
		t.Fatalf("err = %v, want the last *APIError 429 with its retry hint", err)
	}
	if len(attempts) != 1 || attempts[0].Wait != 30*time.Second {
		t.Fatalf("attempts = %+v", attempts)
	}
}

func TestPostJSONCancelDuringRequest(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		cancel() // the caller gives up while the server is working
		<-r.Context().Done()
	}))
	defer srv.Close()
	defer cancel()
	c := NewClient(srv.Client().Transport, testPolicy(&sleeper{}))
	_, attempts, err := c.PostJSON(ctx, srv.URL, nil, []byte(`{}`), nil)
	if !errors.Is(err, context.Canceled) || len(attempts) != 1 {
		t.Fatalf("err = %v, attempts = %+v; want one attempt ended by the caller", err, attempts)
	}
}

func TestPostJSONRefusedIsNotRetried(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	s := &sleeper{}
	c := NewClient(nil, testPolicy(s))
	_, attempts, err := c.PostJSON(context.Background(), "http://"+addr+"/x", nil, []byte(`{}`), nil)
	if err == nil || len(attempts) != 1 || attempts[0].Status != 0 {
		t.Fatalf("err = %v, attempts = %+v; want one failed attempt", err, attempts)
	}
}

func TestPostJSONBadInput(t *testing.T) {
	c := NewClient(nil, Policy{})
	for _, u := range []string{"", "api.cerebras.ai/v1", "ftp://x/y", "http://"} {
		if _, _, err := c.PostJSON(context.Background(), u, nil, []byte(`{}`), nil); err == nil {
			t.Errorf("PostJSON(%q) succeeded, want a URL error", u)
		}
	}
	if _, _, err := c.PostJSON(context.Background(), "http://127.0.0.1:1/", nil, func() {}, nil); err == nil || !strings.Contains(err.Error(), "encode request body") {
		t.Errorf("err = %v, want an encoding error", err)
	}
}

func TestDescribe(t *testing.T) {
	got := Describe([]Attempt{{Status: 429, Wait: 2 * time.Second}, {Err: "EOF", Wait: time.Second}, {Status: 200}})
	if want := "429 wait=2s, EOF wait=1s, 200"; got != want {
		t.Errorf("Describe = %q, want %q", got, want)
	}
}

// TestAppendAll: AppendAll reads what io.ReadAll reads, after dst's bytes,
// whatever the size hint (none, exact, short, long, beyond max); it reuses
// dst's spare room when the hint fits, and reports a reader's error.
func TestAppendAll(t *testing.T) {
	long := strings.Repeat("0123456789", 300)
	for _, body := range []string{"", "x", long} {
		for _, n := range []int64{-1, 0, 1, int64(len(body)), int64(len(body)) + 7, 1 << 40} {
			for _, dst := range [][]byte{nil, []byte("pre:"), make([]byte, 2, 8192)} {
				prefix := string(dst)
				got, err := AppendAll(dst, iotest.OneByteReader(strings.NewReader(body)), n, 1<<20)
				if err != nil || string(got) != prefix+body {
					t.Fatalf("AppendAll(%q, %d bytes, n=%d) = %d bytes %v; want %d bytes", prefix, len(body), n, len(got), err, len(prefix)+len(body))
				}
				if cap(dst) >= 8192 && n >= 0 && n < 8000 && len(body) < 8000 && &got[0] != &dst[:1][0] {
					t.Fatalf("n=%d: a buffer with room for the body was not reused", n)
				}
			}
		}
	}
	boom := errors.New("boom")
	got, err := AppendAll([]byte("a"), io.MultiReader(strings.NewReader("bc"), iotest.ErrReader(boom)), -1, 1<<20)
	if !errors.Is(err, boom) || string(got) != "abc" {
		t.Fatalf("AppendAll over a failing reader = %q, %v; want \"abc\", boom", got, err)
	}
	if got, err := ReadAll(strings.NewReader(long), int64(len(long)), 1<<20); err != nil || string(got) != long {
		t.Fatalf("ReadAll = %d bytes, %v", len(got), err)
	}
}

// TestPostJSONScrubsBeforeCutting: a provider echoes the key (sent in a
// header) and the base URL's query token so that each straddles the cut of
// a message (500 runes) and of a non-JSON excerpt (200 runes) at every
// offset. No run of secret.FragLen characters of either reaches the error.
func TestPostJSONScrubsBeforeCutting(t *testing.T) {
	const key, token = "csk-STRADDLEkey0123456789", "tok-STRADDLEquery98765"
	for _, tc := range []struct {
		name  string
		limit int
		body  func(pad string) string
	}{
		{"message", maxMessage, func(pad string) string {
			return `{"error":{"message":"` + pad + key + " " + token + `","type":"x"}}`
		}},
		{"excerpt", maxExcerpt, func(pad string) string { return pad + key + " " + token }},
	} {
		for cut := 1; cut < len(key)+len(token)+1; cut++ {
			pad := strings.Repeat("p", tc.limit-cut)
			srv, _ := scripted(t, step{status: 400, body: tc.body(pad)})
			c := NewClient(srv.Client().Transport, Policy{})
			_, attempts, err := c.PostJSON(context.Background(), srv.URL+"/v1?token="+token, http.Header{"Authorization": {"Bearer " + key}}, []byte(`{}`), nil)
			if err == nil {
				t.Fatal("want an error")
			}
			for _, s := range []string{err.Error(), attempts[0].Err} {
				for _, sec := range []string{key, token} {
					for i := 0; i+secret.FragLen <= len(sec); i++ {
						if strings.Contains(s, sec[i:i+secret.FragLen]) {
							t.Fatalf("%s cut %d: %q keeps %q", tc.name, cut, s, sec[i:i+secret.FragLen])
						}
					}
				}
			}
		}
	}
}

// TestPostTruncatedJSONIsRetried: a 200 whose JSON body was cut short with
// a Content-Length that matched what arrived is retried, as a reset
// connection is; the call succeeds on the next attempt.
func TestPostTruncatedJSONIsRetried(t *testing.T) {
	srv, n := scripted(t, step{status: 200, body: `{"results":[{"url":"https://a.example"`}, step{status: 200, body: `{"results":[]}`})
	var s sleeper
	c := NewClient(srv.Client().Transport, testPolicy(&s))
	body, attempts, err := c.PostJSON(context.Background(), srv.URL, nil, []byte(`{}`), nil)
	if err != nil || string(body) != `{"results":[]}` || n.Load() != 2 {
		t.Fatalf("body %q, %d requests, err %v", body, n.Load(), err)
	}
	if len(attempts) != 2 || attempts[0].Status != 200 || !strings.Contains(attempts[0].Err, "cut short") {
		t.Errorf("attempts = %+v", attempts)
	}
	// Invalid JSON that is not cut short is not a transient failure: it is
	// the client's decoder's to report.
	srv, n = scripted(t, step{status: 200, body: `{"results":]`})
	if _, _, err := NewClient(srv.Client().Transport, testPolicy(&s)).PostJSON(context.Background(), srv.URL, nil, []byte(`{}`), nil); err != nil || n.Load() != 1 {
		t.Errorf("a malformed body: %d requests, err %v", n.Load(), err)
	}
}

// TestPostErrorBodyIn200: Tavily's {"detail":{"error":…}} and Exa's
// {"error":…} answered with a 200 are errors, not answers with no results;
// they are not retried. Their text names the service and path, never the
// base URL.
func TestPostErrorBodyIn200(t *testing.T) {
	for _, tc := range []struct{ service, body, want string }{
		{"tavily", `{"detail":{"error":"Your request has been blocked."}}`, "tavily /search: HTTP 200 OK with an error body: Your request has been blocked."},
		{"exa", `{"requestId":"r1","error":"Invalid API key","tag":"INVALID_API_KEY"}`, "exa /search: HTTP 200 OK with an error body (INVALID_API_KEY): Invalid API key [request r1]"},
		{"chat", `{"error":{"message":"upstream failed","type":"server_error"}}`, "chat /search: chat-provider: HTTP 200 OK with an error body (server_error): upstream failed"},
	} {
		srv, n := scripted(t, step{status: 200, body: tc.body})
		var s sleeper
		c := NewClient(srv.Client().Transport, testPolicy(&s))
		provider := tc.service
		if provider == "chat" {
			provider = "chat-provider"
		}
		ep := Endpoint{Service: tc.service, Base: srv.URL + "/gw", Path: "/search"}
		_, _, err := c.Post(context.Background(), ep, nil, []byte(`{}`), ErrorDecoder(provider))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || n.Load() != 1 {
			t.Errorf("%s: %d requests, err %v, want it to start %q", tc.service, n.Load(), err, tc.want)
			continue
		}
		if strings.Contains(err.Error(), srv.URL) || strings.Contains(err.Error(), "127.0.0.1") {
			t.Errorf("%s: the error names the base URL: %v", tc.service, err)
		}
	}
	// An answer that mentions errors is still an answer.
	srv, _ := scripted(t, step{status: 200, body: `{"results":[{"content":"\"error\" handling"}],"detail":null}`})
	if _, _, err := NewClient(srv.Client().Transport, Policy{}).PostJSON(context.Background(), srv.URL, nil, []byte(`{}`), nil); err != nil {
		t.Errorf("an answer read as an error: %v", err)
	}
}

// TestCallOfAttempts: a transport below the client sees each attempt's
// call and number, and whether the call succeeded once it returned.
func TestCallOfAttempts(t *testing.T) {
	srv, _ := scripted(t, step{status: 503, body: `{}`}, step{status: 200, body: `{}`})
	var seen []int
	var calls []*Call
	rt := roundTripFunc(func(req *http.Request) (*http.Response, error) {
		c, n := CallOf(req.Context())
		seen = append(seen, n)
		calls = append(calls, c)
		if c.Succeeded() {
			t.Error("the call succeeded before it returned")
		}
		return srv.Client().Transport.RoundTrip(req)
	})
	var s sleeper
	if _, _, err := NewClient(rt, testPolicy(&s)).PostJSON(context.Background(), srv.URL, nil, []byte(`{}`), nil); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 2 || seen[0] != 1 || seen[1] != 2 || calls[0] != calls[1] || !calls[0].Succeeded() {
		t.Errorf("attempts %v, same call %v, succeeded %v", seen, calls[0] == calls[1], calls[0].Succeeded())
	}
	if c, n := CallOf(context.Background()); c != nil || n != 0 {
		t.Error("a plain context belongs to a call")
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestPostScrubsEveryKnownSecretBeforeCutting: a gateway echoes another
// key the process holds (not this call's), HTML-entity-encoded or hex,
// straddling the cut of a message and of a non-JSON excerpt at every
// offset. Policy.Secrets are scrubbed before the cut, so no eight
// characters of it reach the error, in any form.
func TestPostScrubsEveryKnownSecretBeforeCutting(t *testing.T) {
	const other = "tvly-OTHERkey0123456789abcdefXYZ"
	var ent strings.Builder
	for _, r := range other {
		fmt.Fprintf(&ent, "&#%d;", r)
	}
	forms := map[string]string{"raw": other, "entities": ent.String(), "hex": fmt.Sprintf("%x", other)}
	for name, form := range forms {
		for _, limit := range []int{maxMessage, maxExcerpt} {
			for cut := 1; cut < len(form); cut += 3 {
				pad := strings.Repeat("p", max(limit-cut, 0))
				body := pad + form
				if limit == maxMessage {
					body = `{"error":{"message":"` + body + `"}}`
				}
				srv, _ := scripted(t, step{status: 400, body: body})
				c := NewClient(srv.Client().Transport, Policy{Secrets: secret.New(other)})
				_, attempts, err := c.PostJSON(context.Background(), srv.URL, nil, []byte(`{}`), nil)
				if err == nil {
					t.Fatal("want an error")
				}
				for _, s := range []string{err.Error(), attempts[0].Err} {
					dec := html.UnescapeString(s)
					for i := 0; i+secret.FragLen <= len(other); i++ {
						frag := other[i : i+secret.FragLen]
						if strings.Contains(dec, frag) || strings.Contains(s, fmt.Sprintf("%x", frag)) {
							t.Fatalf("%s cut %d (limit %d): %q keeps %q", name, cut, limit, s, frag)
						}
					}
				}
			}
		}
	}
}
