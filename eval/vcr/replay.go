package vcr

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"gopkg.in/dnaeon/go-vcr.v4/pkg/cassette"

	"github.com/searchbench/searchbench/lib/secret"
	"github.com/searchbench/searchbench/orchestrator/httpx"
)

// ReplayOptions configures a Replayer.
type ReplayOptions struct {
	// Volatile lists top-level JSON request fields ignored when matching;
	// nil means DefaultVolatile. It should be the list the cassette was
	// recorded with.
	Volatile []string

	// Case and Rerecord are copied into every *MissError and into the
	// missing-cassette error: the case id and the command that records this
	// cassette again.
	Case, Rerecord string

	// Clock, when set, is advanced by each replayed interaction's recorded
	// duration, so a client timing its requests with Clock.Now measures
	// the recorded time, the same on every replay.
	Clock *Clock

	// Services are the base URLs a request may have been recorded or be
	// replayed under: a request under one matches on the service and the
	// path below its base, whatever the host (see Service). Give the
	// replay's own base URLs and those the cassette was recorded with.
	Services []Service

	// Cache, when set, serves the cassette's decoded interactions from the
	// decoded-cassette cache, and stores them there on a first replay.
	// The YAML is still read and hashed: an entry of other bytes is never
	// used. Replays with and without it are identical.
	Cache *Cache

	// Sum, when set, is the sum (Sum) the cassette's bytes must have: what
	// recorded.json says was recorded. Other bytes are a *ChangedError.
	Sum string

	// Secrets are scrubbed from a miss's live request before its diff is
	// cut to length: a live body may carry a key a prompt or dataset holds.
	Secrets *secret.Set

	// Bases are the replay's own base URLs by service name, for a miss
	// that only a base URL explains (Mismatch.Live).
	Bases map[string]string

	// Explain, when set, turns a miss that only the environment explains
	// (a model name, a base URL: see Mismatch) into the sentence that says
	// which variable to set; a MissError with one leads with it and
	// suggests no re-recording.
	Explain func(Mismatch) string
}

// Replayer is an http.RoundTripper that answers requests from one cassette
// and never from the network: it holds no transport at all.
//
// It serves the go-vcr-loaded cassette itself rather than running go-vcr's
// recorder in ModeReplayOnly: matching then canonicalises each live body
// once and compares strings against an index, the misses can be explained
// from the same decoded cassette, and go-vcr v4.0.7's debug dumps of every
// request, built even when logging is off, stay out of the hot path. The
// semantics are go-vcr's ModeReplayOnly with WithSkipRequestLatency(true):
// each interaction replays once, the first unused match in recorded order
// wins, and no latency is simulated.
type Replayer struct {
	path string
	opts ReplayOptions
	drop []string
	svcs []service // opts.Services, normalised

	mu     sync.Mutex
	ints   []interaction    // the cassette's interactions, in recorded order
	groups map[string][]int // route -> interaction indexes, in recorded order
	lines  []string         // each interaction's route: method, then service and path or URL
	// exact indexes the interactions by request body as stored, in
	// recorded order: a body recorded canonical matches a live one with one
	// lookup, whatever the recorded order of its group.
	// The lists hold every request line: bodies of different lines rarely
	// coincide, and a lookup by the body alone needs no key built per
	// request.
	exact map[string][]int
	used  []bool
	// canon caches the canonical form of a recorded body that was not
	// stored canonical (hand-edited, or recorded with other options).
	canon map[int]string
	// first is the first miss: a search that missed reads as a failed
	// search to the model, and the conversation goes on to miss later.
	first *MissError
	// rebased holds the recorded bodies that quote a base URL (see
	// rebase), as matched: with the URLs written as service and path.
	rebased map[int]string
	closed  bool
	last    int // the interaction replayed most recently; -1 before the first
}

// OpenReplay loads the cassette at path for replay with default options.
func OpenReplay(path string) (*Replayer, error) {
	return OpenReplayWith(path, ReplayOptions{})
}

// OpenReplayWith loads the cassette at path (decoded once, by go-vcr's own
// loader, or read from opts.Cache) for replay. A missing cassette is a
// *MissingCassetteError.
func OpenReplayWith(path string, opts ReplayOptions) (*Replayer, error) {
	name, ok := cassetteName(path)
	if !ok {
		return nil, fmt.Errorf("replaying cassette %q: path must end in %s", path, Ext)
	}
	buf := readBuffers.Get().(*[]byte)
	defer readBuffers.Put(buf)
	data, err := readFile(path, buf)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &MissingCassetteError{Path: path, Case: opts.Case, Rerecord: opts.Rerecord, Err: err}
	}
	if err != nil {
		return nil, fmt.Errorf("replaying cassette %s: %w", path, err)
	}
	// One hash serves both the check against the manifest (Sum is its
	// first half) and the cache's key; a replay that needs neither skips it.
	var sum [sha256.Size]byte
	if opts.Sum != "" || opts.Cache.on() {
		sum = sha256.Sum256(data)
	}
	if opts.Sum != "" {
		if got := sumOf(sum); got != opts.Sum {
			return nil, &ChangedError{Path: path, Case: opts.Case, Rerecord: opts.Rerecord, Want: opts.Sum, Got: got}
		}
	}
	ints, err := opts.Cache.load(name, data, sum) // keeps nothing of data
	if err != nil {
		return nil, fmt.Errorf("replaying cassette %s: %w", path, err)
	}
	drop := opts.Volatile
	if drop == nil {
		drop = DefaultVolatile
	}
	r := &Replayer{
		last:   -1,
		path:   path,
		opts:   opts,
		drop:   drop,
		svcs:   services(opts.Services),
		ints:   ints,
		groups: make(map[string][]int, len(ints)),
		exact:  make(map[string][]int, len(ints)),
		used:   make([]bool, len(ints)),
		lines:  make([]string, len(ints)),
	}
	for i := range ints {
		in := &ints[i]
		k := route(in.Method, in.URL, r.svcs)
		r.groups[k] = append(r.groups[k], i)
		r.lines[i] = k
		body := rebase(in.Body, r.svcs)
		if body != in.Body {
			if r.rebased == nil {
				r.rebased = map[int]string{}
			}
			r.rebased[i] = body
		}
		r.exact[body] = append(r.exact[body], i)
	}
	return r, nil
}

// interaction is what a replay needs of a recorded interaction: the
// request's line and body, and the whole response.
type interaction struct {
	ID     int
	Method string
	URL    string
	Body   string // the request body as stored
	// Canon says whether Body is its own canonical form under
	// DefaultVolatile, when known: the decoded-cassette cache works it out
	// once, when it builds an entry, so that a replay never canonicalises
	// a recorded body only to find it unchanged.
	Canon canonState
	Resp  recordedResponse
}

// canonState is what is known of a recorded body's canonical form.
type canonState uint8

const (
	canonUnknown canonState = iota // not worked out (decoded from YAML)
	canonSame                      // the body is canonical under DefaultVolatile
	canonOther                     // the body is not canonical under DefaultVolatile
)

// markCanon works out ints' Canon states.
func markCanon(ints []interaction) {
	for i := range ints {
		in := &ints[i]
		if canonicalString(in.Body, DefaultVolatile) == in.Body {
			in.Canon = canonSame
		} else {
			in.Canon = canonOther
		}
	}
}

// recordedResponse is a recorded response as go-vcr stores it, less the
// content length (a replayed response's is its body's).
type recordedResponse struct {
	Status           string
	Code             int
	Proto            string
	ProtoMajor       int
	ProtoMinor       int
	Header           http.Header
	Trailer          http.Header
	TransferEncoding []string
	Uncompressed     bool
	Body             string
	Duration         time.Duration
}

// decodeYAML decodes a cassette's YAML (data, read from name+Ext) with
// go-vcr's own loader.
func decodeYAML(name string, data []byte) ([]interaction, error) {
	// A copy: data is a reused buffer, and nothing decoded may point into it.
	c, err := cassette.LoadWithFS(name, memFS(bytes.Clone(data)))
	if err != nil {
		return nil, err
	}
	return fromCassette(c), nil
}

func fromCassette(c *cassette.Cassette) []interaction {
	ints := make([]interaction, len(c.Interactions))
	for i, in := range c.Interactions {
		rs := &in.Response
		ints[i] = interaction{
			ID:     in.ID,
			Method: in.Request.Method,
			URL:    in.Request.URL,
			Body:   in.Request.Body,
			Resp: recordedResponse{
				Status:           rs.Status,
				Code:             rs.Code,
				Proto:            rs.Proto,
				ProtoMajor:       rs.ProtoMajor,
				ProtoMinor:       rs.ProtoMinor,
				Header:           rs.Headers,
				Trailer:          rs.Trailer,
				TransferEncoding: rs.TransferEncoding,
				Uncompressed:     rs.Uncompressed,
				Body:             rs.Body,
				Duration:         rs.Duration,
			},
		}
	}
	return ints
}

// readBuffers hold the bytes of files read during a replay (a cassette, a
// cache entry) only while they are decoded: the decoded strings are
// copies, so the buffers are reused rather than left to the collector.
var readBuffers = sync.Pool{New: func() any { return new([]byte) }}

// readFile reads the file name into *buf, growing it as needed, and
// returns the bytes read; they are valid until *buf is reused.
func readFile(name string, buf *[]byte) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := (*buf)[:0]
	if st, err := f.Stat(); err == nil && int64(cap(b)) < st.Size()+1 {
		b = make([]byte, 0, st.Size()+512)
	}
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			*buf = b
			return b, nil
		}
		if err != nil {
			*buf = b
			return nil, err
		}
	}
}

// RoundTrip answers req with the first unused recorded interaction whose
// method, route (the service and path, or the URL; see Service) and
// canonical body match, or fails with a *MissError.
func (r *Replayer) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		// The body is read into a reused buffer: nothing kept after this
		// call points into it (a miss copies the canonical body it shows,
		// the memo copies what it keeps).
		buf := readBuffers.Get().(*[]byte)
		defer readBuffers.Put(buf)
		b, err := httpx.AppendAll((*buf)[:0], req.Body, req.ContentLength, 64<<20)
		*buf = b
		req.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("replaying %s: reading body of %s %s: %w", r.path, req.Method, redactURL(req.URL), err)
		}
		body = b
	}
	if err := req.Context().Err(); err != nil {
		return nil, err
	}
	target := redactURL(req.URL) // as recorded: no password, no query key

	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, fmt.Errorf("replaying %s: %s %s after Close", r.path, req.Method, redactURL(req.URL))
	}
	line := route(req.Method, target, r.svcs)
	c := canonicalizers.Get().(*canonicalizer)
	defer canonicalizers.Put(c)
	live := c.live(body, r.drop) // valid until c is put back
	if quotesBase(live, r.svcs) {
		live = []byte(rebase(string(live), r.svcs))
	}
	// Bodies are recorded canonical, so the first unused interaction stored
	// with exactly the live canonical body is the match, found with one
	// lookup. Only unused interactions recorded before it with another
	// body are canonicalised, in case a hand edit left one non-canonical;
	// those the cache found canonical are skipped, since their canonical
	// form is their stored body, which is not the live one.
	first := -1
	for _, i := range r.exact[string(live)] {
		if !r.used[i] && r.lines[i] == line {
			first = i
			break
		}
	}
	known := r.canonKnown()
	for _, i := range r.groups[line] {
		if first >= 0 && i >= first {
			break
		}
		if r.used[i] || known && r.ints[i].Canon == canonSame {
			continue
		}
		if r.canonicalBody(i) == string(live) {
			first = i
			break
		}
	}
	if first >= 0 {
		return r.serve(first, req), nil
	}
	m := r.miss(req.Method, req.URL, string(live))
	if r.first == nil {
		r.first = m
	}
	return nil, m
}

// FirstMiss is the first request that matched nothing, nil when none did.
func (r *Replayer) FirstMiss() *MissError {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.first
}

// canonKnown says whether the interactions' Canon states apply: they were
// worked out under DefaultVolatile.
func (r *Replayer) canonKnown() bool {
	return slices.Equal(r.drop, DefaultVolatile)
}

// serve replays interaction i; the caller holds r.mu.
func (r *Replayer) serve(i int, req *http.Request) *http.Response {
	r.used[i] = true
	r.last = i
	if r.opts.Clock != nil {
		r.opts.Clock.Advance(r.ints[i].Resp.Duration)
	}
	return response(&r.ints[i].Resp, req)
}

// Last describes the interaction replayed most recently, for an error that
// arises after replay (a body the client cannot decode): "interaction 3
// (POST https://…)". ok is false before the first match.
func (r *Replayer) Last() (desc string, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.last < 0 {
		return "", false
	}
	in := &r.ints[r.last]
	return fmt.Sprintf("interaction %d (%s %s)", in.ID, in.Method, in.URL), true
}

// Path is the cassette's file.
func (r *Replayer) Path() string { return r.path }

// recordedBody is interaction i's request body as stored.
func (r *Replayer) recordedBody(i int) string { return r.ints[i].Body }

// canonicalBody is interaction i's request body in canonical form. It is
// computed at most once per interaction, and only when the stored text
// differs from a live body: a body recorded canonical matches on the string
// comparison alone.
func (r *Replayer) canonicalBody(i int) string {
	if c, ok := r.canon[i]; ok {
		return c
	}
	if r.canon == nil {
		r.canon = make(map[int]string)
	}
	c := rebase(canonicalString(r.recordedBody(i), r.drop), r.svcs)
	r.canon[i] = c
	return c
}

// response is a recorded response, served: each interaction is served at
// most once, so its header maps are handed over without a copy.
func response(rs *recordedResponse, req *http.Request) *http.Response {
	return &http.Response{
		Status:           rs.Status,
		StatusCode:       rs.Code,
		Proto:            rs.Proto,
		ProtoMajor:       rs.ProtoMajor,
		ProtoMinor:       rs.ProtoMinor,
		Header:           rs.Header,
		Trailer:          rs.Trailer,
		TransferEncoding: rs.TransferEncoding,
		Uncompressed:     rs.Uncompressed,
		ContentLength:    int64(len(rs.Body)),
		Body:             io.NopCloser(strings.NewReader(rs.Body)),
		Request:          req,
	}
}

// Unused returns the ids of the interactions never replayed, in cassette
// order: traffic the recording saw that this run did not send.
func (r *Replayer) Unused() []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	var ids []int
	for i, u := range r.used {
		if !u {
			ids = append(ids, r.ints[i].ID)
		}
	}
	return ids
}

// Close ends the replay; later requests fail. Unused stays valid.
func (r *Replayer) Close() error {
	r.mu.Lock()
	r.closed = true
	r.mu.Unlock()
	return nil
}

// Len returns the number of interactions in the cassette.
func (r *Replayer) Len() int { return len(r.used) }

// MissingCassetteError reports a cassette that does not exist yet.
type MissingCassetteError struct {
	Path     string
	Case     string // case id, when known
	Rerecord string // command that records the cassette, when known
	Err      error  // the file system error
}

func (e *MissingCassetteError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "cassette %s not found", e.Path)
	if e.Case != "" {
		fmt.Fprintf(&b, " (case %s)", e.Case)
	}
	if e.Rerecord != "" {
		fmt.Fprintf(&b, "; record it with: %s", e.Rerecord)
	} else {
		b.WriteString("; record it before replaying")
	}
	return b.String()
}

// Unwrap lets errors.Is match both fs.ErrNotExist and go-vcr's
// cassette.ErrCassetteNotFound.
func (e *MissingCassetteError) Unwrap() []error {
	return []error{cassette.ErrCassetteNotFound, e.Err}
}

// Sum is the hex of the first 16 bytes of data's sha256: how recorded.json
// names a cassette's content.
func Sum(data []byte) string { return sumOf(sha256.Sum256(data)) }

// sumOf is Sum of the bytes whose sha256 is full.
func sumOf(full [sha256.Size]byte) string { return hex.EncodeToString(full[:16]) }

// ChangedError reports a cassette whose bytes are not those recorded.json
// describes: a recording was interrupted (killed, out of disk) after writing
// it and before recording what it wrote, or something else changed it.
type ChangedError struct {
	Path, Case, Rerecord string
	Want, Got            string // sums
}

func (e *ChangedError) Error() string {
	s := fmt.Sprintf("cassette %s (case %s) is not the one recorded.json describes (sum %s, recorded %s): a recording was interrupted or the file was changed, so nothing says how it was recorded",
		filepath.ToSlash(e.Path), e.Case, e.Got, e.Want)
	if e.Rerecord != "" {
		s += "; re-record it with: " + e.Rerecord
	}
	return s
}

// MissError reports a request that no unused recorded interaction matches.
// The runner fills Case and Rerecord when the Replayer's options did not.
type MissError struct {
	Cassette string // cassette path
	Method   string
	URL      string // secret query values redacted
	// Closest names the recorded request most like this one, e.g.
	// `POST https://api.tavily.com/search (interaction 2)`; empty when the
	// cassette has no interactions.
	Closest string
	// Diff shows how the canonical bodies differ, recorded (-) against live
	// (+), bounded in length; empty when they are equal (Closest was then
	// already replayed).
	Diff     string
	Case     string
	Rerecord string
	// Because, when set, is what the environment changed and the variable
	// that puts it back (ReplayOptions.Explain): the message leads with it
	// and suggests no re-recording.
	Because  string
	Mismatch *Mismatch
}

func (e *MissError) Error() string {
	var b strings.Builder
	if e.Because != "" {
		b.WriteString(e.Because + "; ")
	}
	fmt.Fprintf(&b, "no recorded interaction matches %s %s in cassette %s", e.Method, e.URL, e.Cassette)
	if e.Case != "" {
		fmt.Fprintf(&b, " (case %s)", e.Case)
	}
	switch {
	case e.Closest == "":
		b.WriteString("; the cassette has no interactions")
	case e.Diff == "":
		fmt.Fprintf(&b, "; closest: %s, identical and already replayed (the request was sent more times than recorded)", e.Closest)
	default:
		fmt.Fprintf(&b, "; closest: %s; recorded (-) vs live (+):\n%s", e.Closest, e.Diff)
	}
	if e.Rerecord != "" && e.Because == "" {
		if !strings.HasSuffix(b.String(), "\n") {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "re-record with: %s", e.Rerecord)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// Unwrap makes errors.Is(err, cassette.ErrInteractionNotFound) hold, as it
// does for go-vcr's own replay.
func (e *MissError) Unwrap() error { return cassette.ErrInteractionNotFound }

// miss builds the *MissError for a request; the caller holds r.mu.
func (r *Replayer) miss(method string, u *url.URL, live string) *MissError {
	e := &MissError{
		Cassette: r.path,
		Method:   method,
		URL:      redactURL(u),
		Case:     r.opts.Case,
		Rerecord: r.opts.Rerecord,
	}
	target := u.String()
	best, text := r.closest(method, target, live)
	if best < 0 {
		return e
	}
	in := &r.ints[best]
	if r.opts.Explain != nil && !r.used[best] {
		if m, ok := r.environmental(best, method, redactURL(u), live); ok {
			e.Mismatch = &m
			e.Because = r.opts.Explain(m)
		}
	}
	e.Closest = fmt.Sprintf("%s %s (interaction %d)", in.Method, in.URL, in.ID)
	if r.used[best] {
		e.Closest = fmt.Sprintf("%s %s (interaction %d, already replayed)", in.Method, in.URL, in.ID)
	}
	// Scrub, then cut: diffText clips lines, which would leave a key's
	// first characters where the scrubber could not recognise them.
	sec := r.opts.Secrets
	e.Diff = diffText(sec.String(text), sec.String(missText(method, e.URL, live)), maxDiffLines)
	return e
}

// closest picks the recorded request most like the live one: among the same
// method and URL if any (unused before used), else among all interactions.
// It returns the index and the text the diff compares.
func (r *Replayer) closest(method, target, live string) (int, string) {
	pool := r.groups[route(method, target, r.svcs)]
	if len(pool) == 0 {
		pool = make([]int, len(r.used))
		for i := range pool {
			pool[i] = i
		}
	}
	liveText := missText(method, target, live)
	best, bestText, bestScore := -1, "", -1.0
	for _, unusedPass := range []bool{true, false} {
		for _, i := range pool {
			if r.used[i] == unusedPass {
				continue
			}
			rq := &r.ints[i]
			t := missText(rq.Method, rq.URL, r.canonicalBody(i))
			if s := similarity(t, liveText); s > bestScore {
				best, bestText, bestScore = i, t, s
			}
		}
		if best >= 0 {
			break // an unused interaction is what the request failed to match
		}
	}
	return best, bestText
}

// missText is a request as the diff shows it: the request line, then the
// canonical body indented one field per line.
func missText(method, target, body string) string {
	var ind bytes.Buffer
	if json.Indent(&ind, []byte(body), "", "  ") == nil {
		body = ind.String()
	}
	return method + " " + target + "\n" + body + "\n"
}
