package vcr

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v4"
	"gopkg.in/dnaeon/go-vcr.v4/pkg/cassette"
	"gopkg.in/dnaeon/go-vcr.v4/pkg/recorder"

	"github.com/searchbench/searchbench/lib/fsutil"
	"github.com/searchbench/searchbench/lib/secret"
	"github.com/searchbench/searchbench/orchestrator/httpx"
)

// RecordOptions configures a recording.
type RecordOptions struct {
	// Secrets are credential values (API keys, typically from the
	// environment) to replace with Redacted wherever they appear in a request
	// or response. Empty values are ignored; values shorter than MinSecretLen
	// are refused. Keys carried in credential headers or an api_key body
	// field are learned and scrubbed without being listed.
	Secrets []string

	// Deterministic normalises what varies between recordings of the same
	// traffic, so that recording twice gives byte-identical cassettes: Date
	// headers are dropped, each interaction's duration is the
	// provider-reported time (ProviderDuration) instead of the measured one,
	// and interactions are saved sorted by method, URL and request body
	// rather than in completion order, which concurrent requests make vary
	// (identical requests, such as a 429 and its retry, keep their order).
	// Use it when recording from the simulator; live recordings keep their
	// real durations and order.
	Deterministic bool

	// Real sends the requests; nil means http.DefaultTransport. Wrap it with
	// Redirect to record from the simulator.
	Real http.RoundTripper

	// Volatile lists top-level JSON request fields left out of the recorded
	// (canonical) body; nil means DefaultVolatile. Replay should use the same
	// list.
	Volatile []string

	// DropHeaders names request and response headers left out of the
	// cassette, such as an SDK's random idempotency key, which would make
	// deterministic recordings differ. Headers never take part in matching.
	DropHeaders []string

	// KeepRetried keeps in the cassette the failed attempts of a call that
	// the client retried until it succeeded (a 503, a 429, a body cut
	// short, then a 200). Without it only the call's final answer is kept,
	// as it is for a retried reset: a live provider's weather is not the
	// model's behaviour, and a replay would otherwise see retries the
	// recorded conversation never depended on. The simulator scripts its
	// failures (the behaviour under test), so its recordings keep them.
	// Attempts of a call that failed in the end are always kept: a replay
	// makes them again.
	KeepRetried bool
}

// Recording is an http.RoundTripper that sends requests on to the real
// transport and records them into memory. Nothing is written until Save, so
// an interrupted or failed recording leaves the previous cassette intact.
type Recording struct {
	path   string
	rec    *recorder.Recorder
	secret *scrubber

	mu       sync.Mutex
	finished bool
	failures []failure // requests that failed and were not since sent again successfully

	keepRetried bool
	seq         int                                     // requests sent, numbering them for the capture hook
	captured    map[int]*cassette.Interaction           // by request number, until RoundTrip files it
	calls       map[*httpx.Call][]*cassette.Interaction // each client call's recorded attempts, in order
}

// seqHeader carries a request's number from RoundTrip to the capture hook,
// which removes it; the transport below never sends it.
const seqHeader = "X-Searchbench-Recording-Seq"

// failure is a request that failed in transport: what it was (method, URL
// and a hash of its body) and why.
type failure struct{ key, msg string }

// requestKey names a request by method, URL and body, so that a retry of
// it is recognised. The body is read through GetBody (set for the
// clients' in-memory bodies); without it the key has no body part.
func requestKey(req *http.Request) string {
	h := sha256.New()
	if req.GetBody != nil {
		if b, err := req.GetBody(); err == nil {
			io.Copy(h, b)
			b.Close()
		}
	}
	return req.Method + " " + req.URL.String() + " " + hex.EncodeToString(h.Sum(nil))
}

// StartRecording begins recording the cassette at path, which must end in
// Ext. An existing cassette at path is replaced only by a successful Save.
func StartRecording(path string, opts RecordOptions) (*Recording, error) {
	name, ok := cassetteName(path)
	if !ok {
		return nil, fmt.Errorf("recording cassette %q: path must end in %s", path, Ext)
	}
	sc := &scrubber{}
	var short int
	for _, s := range opts.Secrets {
		if s != "" && len(s) < MinSecretLen {
			short++ // never print the value itself
		}
		sc.add(s)
	}
	if short > 0 {
		return nil, fmt.Errorf("recording cassette %s: %d secret value(s) shorter than %d bytes; "+
			"scrubbing them would redact unrelated text", path, short, MinSecretLen)
	}
	real := opts.Real
	if real == nil {
		real = http.DefaultTransport
	}
	volatile := opts.Volatile
	if volatile == nil {
		volatile = DefaultVolatile
	}
	r := &Recording{path: path, secret: sc, keepRetried: opts.KeepRetried,
		captured: map[int]*cassette.Interaction{}, calls: map[*httpx.Call][]*cassette.Interaction{}}
	real = stripSeq{real}

	capture := func(i *cassette.Interaction) error {
		if v := i.Request.Headers.Get(seqHeader); v != "" {
			i.Request.Headers = i.Request.Headers.Clone()
			i.Request.Headers.Del(seqHeader)
			if n, err := strconv.Atoi(v); err == nil {
				r.mu.Lock()
				r.captured[n] = i
				r.mu.Unlock()
			}
		}
		sc.learnHeaders(i.Request.Headers)
		if body := []byte(i.Request.Body); len(body) > 0 {
			c := canonical(body, volatile, sc.add)
			i.Request.Body = string(c)
			i.Request.ContentLength = int64(len(c))
		}
		scrubInteraction(i, sc.secrets())
		for _, h := range opts.DropHeaders { // copies by now: scrubInteraction cloned them
			i.Request.Headers.Del(h)
			i.Response.Headers.Del(h)
		}
		if opts.Deterministic {
			i.Response.Headers.Del("Date")
			i.Response.Duration = ProviderDuration([]byte(i.Response.Body))
		}
		return nil
	}
	beforeSave := func(i *cassette.Interaction) error {
		scrubInteraction(i, sc.secrets())
		return nil
	}
	marshal := yaml.Marshal
	if opts.Deterministic {
		marshal = func(v any) ([]byte, error) {
			// go-vcr passes the cassette, under its lock, to the marshal
			// function only: the one place to order the interactions.
			if c, ok := v.(*cassette.Cassette); ok {
				sortInteractions(c.Interactions)
			}
			return yaml.Marshal(v)
		}
	}
	rec, err := recorder.New(name,
		recorder.WithMode(recorder.ModeRecordOnly),
		recorder.WithMarshalFunc(marshal),
		recorder.WithRealTransport(real),
		// go-vcr sleeps for the recorded latency after recording too.
		recorder.WithSkipRequestLatency(true),
		recorder.WithFS(&atomicFS{secret: sc}),
		recorder.WithHook(capture, recorder.AfterCaptureHook),
		recorder.WithHook(beforeSave, recorder.BeforeSaveHook),
	)
	if err != nil {
		return nil, fmt.Errorf("recording cassette %s: %w", path, err)
	}
	r.rec = rec
	return r, nil
}

// sortInteractions orders interactions by method, URL and request body,
// keeping the recorded order of identical requests, and renumbers them.
func sortInteractions(is []*cassette.Interaction) {
	slices.SortStableFunc(is, func(a, b *cassette.Interaction) int {
		return cmp.Or(
			strings.Compare(a.Request.Method, b.Request.Method),
			strings.Compare(a.Request.URL, b.Request.URL),
			strings.Compare(a.Request.Body, b.Request.Body),
		)
	})
	for i, in := range is {
		in.ID = i
	}
}

// RoundTrip sends req through the real transport and records the exchange.
// A failed request (transport error, cancellation) is not recorded and
// marks the recording as failed: Save then refuses to write it, since replay
// could not reproduce it; unless the same request (method, URL, body) is
// later sent again and succeeds, as a client's retry of a reset connection
// does. The cassette then holds the success only, which is what a replay
// asks for once.
func (r *Recording) RoundTrip(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	finished := r.finished
	r.mu.Unlock()
	if finished {
		return nil, fmt.Errorf("recording %s: %s %s after Save or Discard", r.path, req.Method, redactURL(req.URL))
	}
	key := requestKey(req)
	call, _ := httpx.CallOf(req.Context())
	var seq int
	if call != nil {
		// Which call this attempt belongs to reaches the capture hook with
		// the request's number, in a header nothing sends.
		r.mu.Lock()
		r.seq++
		seq = r.seq
		r.mu.Unlock()
		req = req.Clone(req.Context())
		req.Header.Set(seqHeader, strconv.Itoa(seq))
	}
	resp, err := r.rec.RoundTrip(req)
	if call != nil {
		r.mu.Lock()
		if in, ok := r.captured[seq]; ok {
			r.calls[call] = append(r.calls[call], in)
			delete(r.captured, seq)
		}
		r.mu.Unlock()
	}
	if err != nil {
		// The error text may quote the URL; scrub known secrets from it.
		msg := r.secret.secrets().String(err.Error())
		r.mu.Lock()
		r.failures = append(r.failures, failure{key, fmt.Sprintf("%s %s: %s", req.Method, redactURL(req.URL), msg)})
		r.mu.Unlock()
		return nil, fmt.Errorf("recording %s: %w", r.path, err)
	}
	r.mu.Lock()
	if i := slices.IndexFunc(r.failures, func(f failure) bool { return f.key == key }); i >= 0 {
		r.failures = slices.Delete(r.failures, i, i+1) // retried, and it worked
	}
	r.mu.Unlock()
	return resp, nil
}

// Save scrubs the recorded interactions and writes the cassette atomically.
// It refuses, leaving any previous cassette in place, when a request failed
// during the recording or a secret would still reach the file. Call it once,
// after every request has returned.
func (r *Recording) Save() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.finished {
		return fmt.Errorf("saving cassette %s: recording already saved or discarded", r.path)
	}
	r.finished = true
	if len(r.failures) > 0 {
		return fmt.Errorf("saving cassette %s: %d request(s) failed during recording and were not retried successfully, not saved; first: %s",
			r.path, len(r.failures), r.failures[0].msg)
	}
	if !r.keepRetried {
		// A call that succeeded keeps its answer only: the attempts it
		// retried were the provider's, not the conversation's.
		for call, ins := range r.calls {
			if call.Succeeded() && len(ins) > 1 {
				for _, in := range ins[:len(ins)-1] {
					in.DiscardOnSave = true
				}
			}
		}
	}
	if err := r.rec.Stop(); err != nil {
		return fmt.Errorf("saving cassette %s: %w", r.path, err)
	}
	return nil
}

// stripSeq removes seqHeader before a request leaves the recorder.
type stripSeq struct{ rt http.RoundTripper }

func (s stripSeq) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Header.Get(seqHeader) != "" {
		req = req.Clone(req.Context())
		req.Header.Del(seqHeader)
	}
	return s.rt.RoundTrip(req)
}

// Discard ends the recording without writing anything.
func (r *Recording) Discard() {
	r.mu.Lock()
	r.finished = true
	r.mu.Unlock()
}

// errSecretLeak is returned instead of writing a cassette that still holds a
// secret value; the value itself never appears in the error.
var errSecretLeak = errors.New("a secret value is still present after scrubbing; cassette not written")

// atomicFS is the cassette.FS of recordings: writes go through a temporary
// file and a rename, and are refused if a secret survived scrubbing.
type atomicFS struct{ secret *scrubber }

func (f *atomicFS) ReadFile(name string) ([]byte, error) { return os.ReadFile(name) }

func (f *atomicFS) WriteFile(name string, data []byte) error {
	if f.secret.leaked(data) {
		return fmt.Errorf("writing %s: %w", name, errSecretLeak)
	}
	return fsutil.WriteFileAtomic(name, data, 0o644)
}

func (f *atomicFS) IsFileExists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}

// Redirect returns a RoundTripper that sends every request to the scheme,
// host and port of to (its path, if any, is prefixed to the request's),
// keeping the original host in the Host header. Recording through it records
// the original URL, so a cassette recorded from the loopback simulator looks
// like one recorded from https://api.tavily.com and friends, and replays
// against the same URLs. A nil base means http.DefaultTransport.
func Redirect(to *url.URL, base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return &redirect{to: to, base: base}
}

type redirect struct {
	to   *url.URL
	base http.RoundTripper
}

func (rd *redirect) RoundTrip(req *http.Request) (*http.Response, error) {
	out := req.Clone(req.Context())
	if out.Host == "" {
		out.Host = req.URL.Host
	}
	out.URL.Scheme = rd.to.Scheme
	out.URL.Host = rd.to.Host
	if p := strings.TrimSuffix(rd.to.Path, "/"); p != "" {
		out.URL.Path = p + req.URL.Path
		out.URL.RawPath = ""
	}
	return rd.base.RoundTrip(out)
}

// redactURL renders u with the password of its userinfo, every query
// value and every key-like path segment (secret.KeyLike) replaced, for cassettes, matching and error messages alike: a
// gateway's ?token=, ?sig= or ?code= is as secret as an api_key, and the
// clients' request URLs take their query strings from the base URLs alone.
func redactURL(u *url.URL) string {
	if u == nil {
		return ""
	}
	v := *u
	changed := false
	if p := redactPath(u.Path); p != u.Path {
		v.Path, v.RawPath = p, ""
		changed = true
	}
	if _, ok := u.User.Password(); ok {
		v.User = url.UserPassword(u.User.Username(), Redacted)
		changed = true
	}
	if u.RawQuery != "" {
		q := u.Query()
		for k := range q {
			q[k] = []string{Redacted}
		}
		v.RawQuery = q.Encode()
		changed = true
	}
	if !changed {
		return u.String()
	}
	return v.String()
}

// redactPath replaces the key-like segments of a URL path (a gateway's
// /v1/<key>/openai) with Redacted.
func redactPath(p string) string {
	if !strings.Contains(p, "/") {
		return p
	}
	segs := strings.Split(p, "/")
	changed := false
	for i, s := range segs {
		if secret.KeyLike(s) {
			segs[i], changed = Redacted, true
		}
	}
	if !changed {
		return p
	}
	return strings.Join(segs, "/")
}
