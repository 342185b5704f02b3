package httpx

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Limits are one provider's rate limits as configured (config/providers.yaml)
// before any response says otherwise. Zero means not limited.
type Limits struct {
	RequestsPerSecond float64 `yaml:"requests_per_second" json:"requests_per_second,omitempty"`
	RequestsPerMinute float64 `yaml:"requests_per_minute" json:"requests_per_minute,omitempty"`
	TokensPerMinute   float64 `yaml:"tokens_per_minute" json:"tokens_per_minute,omitempty"`
	// Concurrency is the number of requests in flight to start with;
	// MaxConcurrency bounds how far additive increase takes it (0: 4 and 16).
	Concurrency    int `yaml:"concurrency" json:"concurrency,omitempty"`
	MaxConcurrency int `yaml:"max_concurrency" json:"max_concurrency,omitempty"`
}

// RequestRate is the steady request rate the limits allow, per second (0:
// none known).
func (l Limits) RequestRate() float64 {
	r := l.RequestsPerSecond
	if m := l.RequestsPerMinute / 60; m > 0 && (r == 0 || m < r) {
		r = m
	}
	return r
}

// Clock tells the time and sleeps; tests inject a fake one so no test waits
// for the wall clock.
type Clock interface {
	Now() time.Time
	Sleep(ctx context.Context, d time.Duration) error
}

type realClock struct{}

func (realClock) Now() time.Time                                   { return time.Now() }
func (realClock) Sleep(ctx context.Context, d time.Duration) error { return SleepContext(ctx, d) }

// RealClock is the wall clock.
var RealClock Clock = realClock{}

// PacerOptions configure a Pacer.
type PacerOptions struct {
	// Lanes maps a provider name (chat, tavily, exa) to its configured limits.
	Lanes map[string]Limits
	// Route names the lane of a request ("" : not paced).
	Route func(*http.Request) string
	// Clock: nil means RealClock.
	Clock Clock
	// MaxAbsorb bounds the 429s absorbed per request before the 429 is
	// handed up to the caller's retry policy (0: 32).
	MaxAbsorb int
	// MaxWait is the longest server-requested wait the pacer honours before
	// handing the 429 up (0: 2 minutes): a daily quota is not waited out.
	MaxWait time.Duration
	// Recheck bounds one sleep while waiting for a permit, so limits learnt
	// from another response meanwhile apply (0: 1s).
	Recheck time.Duration
}

// Pacer is an http.RoundTripper that paces requests per provider: a request
// rate and a token rate (generic cell rate algorithm, burst of one request),
// taken from the providers' x-ratelimit-limit-* response headers when they
// send them and from the configured Limits otherwise; a window of requests
// in flight that grows by one per window of successes and halves on a 429
// (AIMD); and waits that Retry-After, Retry-After-Ms and exhausted
// x-ratelimit-reset-* headers ask for, honoured exactly.
//
// A 429 is absorbed below the caller: the pacer waits as told and sends the
// same request again, so a recorder above it saves only the answer that
// finally came, never the refusals. After MaxAbsorb refusals, or when the
// server asks for a longer wait than MaxWait, the 429 goes up.
//
// Sit it under the recorder: recorder → Pacer → network.
type Pacer struct {
	next  http.RoundTripper
	opts  PacerOptions
	clock Clock

	mu    sync.Mutex
	lanes map[string]*lane
}

// NewPacer returns a pacer sending through next (nil: http.DefaultTransport).
func NewPacer(next http.RoundTripper, opts PacerOptions) *Pacer {
	if next == nil {
		next = http.DefaultTransport
	}
	if opts.Clock == nil {
		opts.Clock = RealClock
	}
	if opts.MaxAbsorb <= 0 {
		opts.MaxAbsorb = 32
	}
	if opts.MaxWait <= 0 {
		opts.MaxWait = 2 * time.Minute
	}
	if opts.Recheck <= 0 {
		opts.Recheck = time.Second
	}
	p := &Pacer{next: next, opts: opts, clock: opts.Clock, lanes: map[string]*lane{}}
	for name, l := range opts.Lanes {
		p.lanes[name] = newLane(name, l)
	}
	return p
}

// LaneStats count one provider's traffic through the pacer.
type LaneStats struct {
	Name     string
	Sent     int           // requests that reached the network, refusals included
	Absorbed int           // 429s absorbed (waited out and sent again)
	Passed   int           // 429s handed up to the caller
	Waited   time.Duration // total time requests waited for a permit
	Rate     float64       // current request pacing, per second (0: none)
	Window   float64       // current window of requests in flight
	Learned  bool          // a rate came from the provider's headers
	// RateFrom and TokensFrom say where the request and token rates came
	// from: PaceConfigured, PaceHeaders, Pace429 (a rate found by the
	// 429s of a lane that had none), or "" (none: only the window).
	RateFrom   string
	TokensFrom string
	TokenRate  float64 // current token pacing, per minute, whole (0: none)
	Cuts       int     // times a 429 cut the window (and a rate not from headers)
}

// Where a lane's rates came from (LaneStats).
const (
	PaceConfigured = "configured"
	PaceHeaders    = "headers"
	Pace429        = "429s"
)

// Stats returns every lane's counts, by name.
func (p *Pacer) Stats() []LaneStats {
	p.mu.Lock()
	names := make([]string, 0, len(p.lanes))
	for n := range p.lanes {
		names = append(names, n)
	}
	p.mu.Unlock()
	slices.Sort(names)
	out := make([]LaneStats, 0, len(names))
	for _, n := range names {
		l := p.lane(n)
		l.mu.Lock()
		out = append(out, LaneStats{Name: n, Sent: l.sent, Absorbed: l.absorbed, Passed: l.passed, Waited: l.waited,
			Rate: l.reqRate, Window: l.cwnd, Learned: l.reqFrom == PaceHeaders || l.tokFrom == PaceHeaders,
			RateFrom: l.reqFrom, TokensFrom: l.tokFrom, TokenRate: math.Round(60 * l.tokRate), Cuts: l.cuts})
		l.mu.Unlock()
	}
	return out
}

func (p *Pacer) lane(name string) *lane {
	p.mu.Lock()
	defer p.mu.Unlock()
	l := p.lanes[name]
	if l == nil {
		l = newLane(name, Limits{})
		p.lanes[name] = l
	}
	return l
}

// RoundTrip implements http.RoundTripper.
func (p *Pacer) RoundTrip(req *http.Request) (*http.Response, error) {
	name := ""
	if p.opts.Route != nil {
		name = p.opts.Route(req)
	}
	if name == "" {
		StartDeadlines(req.Context())
		return p.next.RoundTrip(req)
	}
	l := p.lane(name)
	var body []byte
	if req.Body != nil && req.Body != http.NoBody {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("pacer: reading the request body: %w", err)
		}
		body = b
	}
	est := 0
	if l.hasTokenLimit() {
		est = EstimateTokens(body)
	}
	ctx := req.Context()
	for n := 1; ; n++ {
		PauseDeadlines(ctx)
		if err := l.admit(ctx, p.clock, p.opts.Recheck, p.opts.MaxWait, est); err != nil {
			return nil, err
		}
		// The attempt's and the call's time limits run from here, not
		// from before the wait (DeferredTimeout).
		StartDeadlines(ctx)
		sentAt := p.clock.Now()
		r := req.Clone(ctx)
		if body != nil {
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
			r.ContentLength = int64(len(body))
		}
		resp, err := p.next.RoundTrip(r)
		now := p.clock.Now()
		if err != nil {
			l.done(now, sentAt, 0, nil, est, nil)
			return nil, err
		}
		if resp.StatusCode != http.StatusTooManyRequests {
			var rb []byte
			if est > 0 && resp.StatusCode < 300 {
				// The tokens actually spent correct the estimate; the body
				// is put back whole.
				rb, err = io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil {
					l.done(now, sentAt, resp.StatusCode, resp.Header, est, nil)
					return nil, fmt.Errorf("pacer: reading the response body: %w", err)
				}
				resp.Body = io.NopCloser(bytes.NewReader(rb))
			}
			l.done(now, sentAt, resp.StatusCode, resp.Header, est, rb)
			return resp, nil
		}
		hint, _ := RetryHint(resp.Header, now)
		if n > p.opts.MaxAbsorb || hint > p.opts.MaxWait {
			l.done(now, sentAt, resp.StatusCode, resp.Header, est, nil)
			l.mu.Lock()
			l.passed++
			l.mu.Unlock()
			return resp, nil
		}
		io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		l.done(now, sentAt, resp.StatusCode, resp.Header, est, nil)
		l.mu.Lock()
		l.absorbed++
		l.mu.Unlock()
	}
}

// EstimateTokens guesses the tokens a chat request may use before it is
// sent, as Cerebras' limiter does: the prompt (about four bytes a token)
// plus max_completion_tokens (or max_tokens) when the request sets one.
// A request with no "messages" is not a chat request: 0.
func EstimateTokens(body []byte) int {
	var r struct {
		Messages            json.RawMessage `json:"messages"`
		MaxCompletionTokens int             `json:"max_completion_tokens"`
		MaxTokens           int             `json:"max_tokens"`
	}
	if json.Unmarshal(body, &r) != nil || len(r.Messages) == 0 {
		return 0
	}
	out := r.MaxCompletionTokens
	if out == 0 {
		out = r.MaxTokens
	}
	return len(r.Messages)/4 + out
}

// usedTokens reads usage.total_tokens from a chat response (-1: none).
func usedTokens(body []byte) int {
	var r struct {
		Usage *struct {
			TotalTokens int `json:"total_tokens"`
		} `json:"usage"`
	}
	if json.Unmarshal(body, &r) != nil || r.Usage == nil {
		return -1
	}
	return r.Usage.TotalTokens
}

// lane is one provider's pacing state.
type lane struct {
	name string
	cfg  Limits

	mu sync.Mutex
	// reqRate is the current request pacing (per second) and reqMax the
	// rate it recovers to after a 429 without headers; tokRate the token
	// rate and tokBurst its burst.
	reqRate, reqMax   float64
	tokRate, tokBurst float64
	reqTAT, tokTAT    time.Time     // GCRA theoretical arrival times
	blocked           time.Time     // nothing is sent before this
	gate              chan struct{} // held by the request being admitted
	cwnd              float64
	maxCwnd           float64
	inflight          int
	waiters           []chan struct{}
	lastCut           time.Time
	reqFrom, tokFrom  string // PaceConfigured, PaceHeaders, Pace429 or ""
	cuts              int
	sent, absorbed    int
	passed            int
	waited            time.Duration
	// recent are the latest admissions (at most recentSends), from which a
	// lane with no rate finds one when its first 429 comes.
	recent []time.Time
}

// recentSends bounds lane.recent; recentSpan is how far back it counts.
const (
	recentSends = 64
	recentSpan  = 10 * time.Second
)

// sendRate is the rate, per second, at which the lane admitted requests
// over the last recentSpan (at least one a second's worth of time is
// assumed, so a burst does not read as an infinite rate); 1 when fewer
// than two were sent.
func (l *lane) sendRate(now time.Time) float64 {
	n, first := 0, now
	for _, t := range l.recent {
		if now.Sub(t) <= recentSpan {
			n++
			if t.Before(first) {
				first = t
			}
		}
	}
	if n < 2 {
		return 1
	}
	return float64(n) / math.Max(now.Sub(first).Seconds(), 1)
}

func newLane(name string, l Limits) *lane {
	c, m := l.Concurrency, l.MaxConcurrency
	if c <= 0 {
		c = 4
	}
	if m <= 0 {
		m = 16
	}
	m = max(m, c)
	ln := &lane{name: name, cfg: l, gate: make(chan struct{}, 1), reqRate: l.RequestRate(), reqMax: l.RequestRate(), cwnd: float64(c), maxCwnd: float64(m)}
	if ln.reqRate > 0 {
		ln.reqFrom = PaceConfigured
	}
	if l.TokensPerMinute > 0 {
		ln.tokRate = l.TokensPerMinute / 60
		ln.tokBurst = l.TokensPerMinute / 6
		ln.tokFrom = PaceConfigured
	}
	return ln
}

func (l *lane) hasTokenLimit() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.tokRate > 0
}

// gcraAt is when n units may go given rate (per second), the theoretical
// arrival time and a burst of burst units.
func gcraAt(now, tat time.Time, rate, n, burst float64) time.Time {
	if rate <= 0 {
		return now
	}
	tau := time.Duration(math.Max(burst-n, 0) / rate * float64(time.Second))
	at := tat.Add(-tau)
	if at.Before(now) {
		return now
	}
	return at
}

// rescale moves a theoretical arrival time for a new rate: the units
// already taken but not yet due are spread at the new rate instead.
func rescale(now, tat time.Time, from, to float64) time.Time {
	if from <= 0 || to <= 0 || !tat.After(now) {
		return tat
	}
	return now.Add(time.Duration(float64(tat.Sub(now)) * from / to))
}

func gcraTake(now, tat time.Time, rate, n float64) time.Time {
	if rate <= 0 {
		return tat
	}
	if tat.Before(now) {
		tat = now
	}
	return tat.Add(time.Duration(n / rate * float64(time.Second)))
}

// admit waits until the lane may send one more request of est tokens.
// Requests are admitted in arrival order: only the one holding the lane's
// gate waits on the clock, the others queue for the gate (a channel serves
// its waiters first come, first served), so none starves.
// A lane held longer than maxWait (a spent daily quota) fails at once.
func (l *lane) admit(ctx context.Context, clock Clock, recheck, maxWait time.Duration, est int) error {
	start := clock.Now()
	select {
	case l.gate <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-l.gate }()
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		l.mu.Lock()
		now := clock.Now()
		var wait time.Duration
		switch {
		case l.blocked.After(now):
			wait = l.blocked.Sub(now)
			if wait > maxWait {
				l.mu.Unlock()
				return fmt.Errorf("%s: rate limit spent until %s (in %s), longer than the %s the pacer waits",
					l.name, l.blocked.UTC().Format(time.RFC3339), wait.Round(time.Second), maxWait)
			}
		case l.inflight >= max(int(l.cwnd), 1):
			ch := make(chan struct{})
			l.waiters = append(l.waiters, ch)
			l.mu.Unlock()
			select {
			case <-ch:
			case <-ctx.Done():
				l.mu.Lock()
				if i := slices.Index(l.waiters, ch); i >= 0 {
					l.waiters = slices.Delete(l.waiters, i, i+1)
				} else {
					l.wakeLocked() // woken and leaving: pass the turn on
				}
				l.mu.Unlock()
				return ctx.Err()
			}
			continue
		default:
			at := gcraAt(now, l.reqTAT, l.reqRate, 1, 1)
			if e := float64(est); e > 0 && l.tokRate > 0 {
				if t := gcraAt(now, l.tokTAT, l.tokRate, math.Min(e, l.tokBurst), l.tokBurst); t.After(at) {
					at = t
				}
			}
			if !at.After(now) {
				l.reqTAT = gcraTake(now, l.reqTAT, l.reqRate, 1)
				if est > 0 && l.tokRate > 0 {
					l.tokTAT = gcraTake(now, l.tokTAT, l.tokRate, math.Min(float64(est), l.tokBurst))
				}
				l.inflight++
				l.sent++
				l.waited += now.Sub(start)
				if len(l.recent) == recentSends {
					l.recent = append(l.recent[:0], l.recent[1:]...)
				}
				l.recent = append(l.recent, now)
				l.mu.Unlock()
				return nil
			}
			wait = at.Sub(now)
		}
		l.mu.Unlock()
		if wait > recheck {
			wait = recheck
		}
		if err := clock.Sleep(ctx, wait); err != nil {
			return err
		}
	}
}

func (l *lane) wakeLocked() {
	// One at a time: the woken request takes its slot in admit.
	if len(l.waiters) > 0 && l.inflight < max(int(l.cwnd), 1) {
		close(l.waiters[0])
		l.waiters = l.waiters[1:]
	}
}

// done ends one request: it frees its slot, learns limits from the
// response headers and adapts the window.
func (l *lane) done(now, sentAt time.Time, status int, h http.Header, est int, body []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.inflight--
	lim := ParseRateHeaders(h)
	if lim.Known() {
		if r := lim.RequestRate(); r > 0 {
			l.reqTAT = rescale(now, l.reqTAT, l.reqRate, r)
			l.reqRate, l.reqMax = r, r
			l.reqFrom = PaceHeaders
		}
		if t := lim.TokensPerMinute; t > 0 {
			l.tokTAT = rescale(now, l.tokTAT, l.tokRate, t/60)
			l.tokRate, l.tokBurst = t/60, t/6
			l.tokFrom = PaceHeaders
		}
	}
	if status == http.StatusTooManyRequests {
		hint, hinted := RetryHint(h, now)
		if !hinted {
			// No word on when: wait one interval at the current rate, at
			// least a second.
			hint = time.Second
			if l.reqRate > 0 {
				hint = max(hint, time.Duration(float64(time.Second)/l.reqRate))
			}
		}
		if b := now.Add(hint); b.After(l.blocked) {
			l.blocked = b
		}
		// One cut per congestion event: requests sent before the last cut
		// were sent under the old window.
		if !sentAt.Before(l.lastCut) {
			l.cwnd = math.Max(1, l.cwnd/2)
			l.lastCut = now
			l.cuts++
			switch {
			case l.reqFrom == PaceHeaders:
				// The headers' rate stands; the wait above is the answer.
			case l.reqRate > 0:
				if l.reqFrom == Pace429 {
					// A rate found by 429s recovers only to the rate that
					// last drew one.
					l.reqMax = l.reqRate
				}
				r := math.Max(l.reqRate/2, l.reqMax/64)
				l.reqTAT = rescale(now, l.reqTAT, l.reqRate, r)
				l.reqRate = r
			default:
				// No rate known (a host with no published limits): the
				// 429 says the rate just sent at was too high. Pace at
				// half of it, recovering toward it.
				obs := l.sendRate(now)
				l.reqRate, l.reqMax, l.reqTAT = obs/2, obs, now
				l.reqFrom = Pace429
			}
		}
	} else if status >= 200 && status < 300 {
		// Grow only a window in use (inflight was counted before this
		// one ended), so a lane held back by something else does not
		// build up a window it never tested.
		if l.inflight+1 >= int(l.cwnd) {
			l.cwnd = math.Min(l.maxCwnd, l.cwnd+1/l.cwnd)
		}
		if l.reqRate < l.reqMax {
			r := math.Min(l.reqMax, l.reqRate+l.reqMax/100)
			l.reqTAT = rescale(now, l.reqTAT, l.reqRate, r)
			l.reqRate = r
		}
		if est > 0 && l.tokRate > 0 {
			if used := usedTokens(body); used >= 0 {
				// Correct the charge: debt pushes the next start later, an
				// overestimate gives the difference back.
				l.tokTAT = l.tokTAT.Add(time.Duration(float64(used-min(est, int(l.tokBurst))) / l.tokRate * float64(time.Second)))
			}
		}
	}
	// Exhausted windows (a 200 carrying remaining 0 included) hold the
	// lane until they reset.
	for _, w := range lim.Exhausted {
		if b := now.Add(w); b.After(l.blocked) {
			l.blocked = b
		}
	}
	l.wakeLocked()
}

// RateHeaders are the limits a response's x-ratelimit-* headers state.
type RateHeaders struct {
	Limits
	// Exhausted lists the resets of windows whose remaining count is 0.
	Exhausted []time.Duration
	known     bool
}

// Known says whether any x-ratelimit-limit-* header was read.
func (r RateHeaders) Known() bool { return r.known }

// windowOf gives the length of a header's window suffix: Cerebras writes
// x-ratelimit-limit-requests-day, -tokens-minute; OpenAI and Groq write
// x-ratelimit-limit-requests with a per-minute meaning.
func windowOf(s string) (time.Duration, bool) {
	switch strings.ToLower(s) {
	case "", "minute", "min", "m":
		return time.Minute, true
	case "second", "sec", "s":
		return time.Second, true
	case "hour", "h":
		return time.Hour, true
	case "day", "d":
		return 24 * time.Hour, true
	}
	return 0, false
}

// ParseRateHeaders reads x-ratelimit-limit-{requests,tokens}[-{second,
// minute,hour,day}] and the matching -remaining- and -reset- headers. Rates
// over windows of a minute or less pace requests; longer windows (a daily
// quota) only stop the lane when their remaining count reaches 0.
func ParseRateHeaders(h http.Header) RateHeaders {
	var out RateHeaders
	const limitPrefix = "X-Ratelimit-Limit-"
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !strings.HasPrefix(k, limitPrefix) {
			continue
		}
		suffix := strings.TrimPrefix(k, limitPrefix)
		dim, win, _ := strings.Cut(suffix, "-")
		w, ok := windowOf(win)
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(h.Get(k)), 64)
		if err != nil || !(v > 0) {
			continue
		}
		out.known = true
		perSec := v / w.Seconds()
		switch strings.ToLower(dim) {
		case "requests":
			if w <= time.Second && (out.RequestsPerSecond == 0 || perSec < out.RequestsPerSecond) {
				out.RequestsPerSecond = perSec
			} else if w > time.Second && w <= time.Minute && (out.RequestsPerMinute == 0 || perSec*60 < out.RequestsPerMinute) {
				out.RequestsPerMinute = perSec * 60
			}
		case "tokens":
			if w <= time.Minute && (out.TokensPerMinute == 0 || perSec*60 < out.TokensPerMinute) {
				out.TokensPerMinute = perSec * 60
			}
		}
		rem := strings.TrimSpace(h.Get("X-Ratelimit-Remaining-" + suffix))
		if n, err := strconv.ParseFloat(rem, 64); err == nil && n <= 0 {
			reset := strings.TrimSpace(h.Get("X-Ratelimit-Reset-" + suffix))
			d, ok := parseSeconds(reset)
			if !ok {
				if gd, err := time.ParseDuration(reset); err == nil && gd >= 0 {
					d, ok = gd, true
				}
			}
			if ok {
				out.Exhausted = append(out.Exhausted, d)
			}
		}
	}
	return out
}
