package httpx

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/searchbench/searchbench/lib/secret"
)

// Policy says how a call is retried. The zero value makes one attempt with
// no timeout; DefaultPolicy is what the live clients use.
type Policy struct {
	// MaxAttempts bounds the attempts, the first included; below 1 means 1.
	MaxAttempts int
	// BaseDelay is the backoff before the second attempt; it doubles per
	// attempt up to MaxDelay (when MaxDelay > 0).
	BaseDelay, MaxDelay time.Duration
	// AttemptTimeout bounds one attempt, reading the body included (0: none).
	AttemptTimeout time.Duration
	// MaxRetryAfter is the longest server-requested wait (Retry-After,
	// x-ratelimit-reset-*) the policy will honour; a longer one ends the
	// retries at once, since waiting out a daily quota in CI is worse than
	// failing. 0 means no limit beyond the context.
	MaxRetryAfter time.Duration
	// Sleep waits d or until ctx is done (nil: SleepContext). Replays use
	// NoSleep so they are instant.
	Sleep func(ctx context.Context, d time.Duration) error
	// Jitter returns a number in [0,1) that scales the upper half of each
	// backoff (nil: no jitter, the full backoff).
	Jitter func() float64
	// Now is the clock used to turn a Retry-After HTTP date into a wait when
	// the response has no Date header (nil: time.Now).
	Now func() time.Time
	// CallTimeout bounds a whole call: every attempt and every wait between
	// them (0: only the caller's context). Without it a server that never
	// finishes a response costs MaxAttempts × AttemptTimeout.
	CallTimeout time.Duration
	// WithTimeout derives the context of an attempt or a call bounded by d
	// (nil: context.WithTimeout). Tests replace it to end an attempt
	// without waiting for the clock.
	WithTimeout func(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc)
	// Secrets are scrubbed from a call's error text before it is cut to a
	// line, besides the call's own credentials (its key headers and its
	// URL's): a provider or gateway may echo any key the process holds,
	// in any encoding, and a cut would leave part of it unrecognisable.
	Secrets *secret.Set
}

func (p Policy) withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if p.WithTimeout != nil {
		return p.WithTimeout(ctx, d)
	}
	return context.WithTimeout(ctx, d)
}

// DefaultPolicy is the policy for live calls: 4 attempts, 500ms doubling to
// 8s with jitter, 60s per attempt, server waits honoured up to 60s, and 3
// minutes for the whole call.
func DefaultPolicy() Policy {
	return Policy{
		MaxAttempts:    4,
		BaseDelay:      500 * time.Millisecond,
		MaxDelay:       8 * time.Second,
		AttemptTimeout: 60 * time.Second,
		MaxRetryAfter:  60 * time.Second,
		CallTimeout:    3 * time.Minute,
		Sleep:          SleepContext,
		Jitter:         rand.Float64,
		Now:            time.Now,
	}
}

// SleepContext waits d, returning ctx.Err() as soon as ctx is done.
func SleepContext(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// NoSleep does not wait; it only reports a done context. Replays use it so
// a recorded "429 then 200" replays instantly with the same attempts.
func NoSleep(ctx context.Context, _ time.Duration) error { return ctx.Err() }

func (p Policy) attempts() int {
	if p.MaxAttempts < 1 {
		return 1
	}
	return p.MaxAttempts
}

func (p Policy) sleep(ctx context.Context, d time.Duration) error {
	if p.Sleep == nil {
		return SleepContext(ctx, d)
	}
	return p.Sleep(ctx, d)
}

func (p Policy) now() time.Time {
	if p.Now == nil {
		return time.Now()
	}
	return p.Now()
}

// Backoff is the wait before attempt n+1 after attempt n failed (n from 1)
// when the server gave no hint: BaseDelay·2^(n-1), capped at MaxDelay, with
// "equal jitter" (half fixed, half scaled by Jitter) so that concurrent
// callers spread out but never retry immediately.
func (p Policy) Backoff(n int) time.Duration {
	if n < 1 || p.BaseDelay <= 0 {
		return 0
	}
	d := p.BaseDelay
	for i := 1; i < n; i++ {
		if p.MaxDelay > 0 && d >= p.MaxDelay {
			break
		}
		if d > time.Duration(1<<62)/2 {
			break // doubling would overflow
		}
		d *= 2
	}
	if p.MaxDelay > 0 && d > p.MaxDelay {
		d = p.MaxDelay
	}
	if p.Jitter == nil {
		return d
	}
	j := p.Jitter()
	if !(j >= 0) { // also catches NaN
		j = 0
	}
	if j > 1 {
		j = 1
	}
	half := d / 2
	return half + time.Duration(j*float64(d-half))
}

// RetryHint returns the wait a response asks for: Retry-After-Ms, then
// Retry-After (seconds or an HTTP date, measured from the response's Date
// header when present, else from now), then the x-ratelimit-reset-* headers
// (Cerebras: seconds as a float; OpenAI style "6m0s" also accepted). Of the
// reset headers, those whose matching x-ratelimit-remaining-* is 0 count and
// the longest wins; when no remaining header is sent, the shortest reset
// wins; when every limit still has room (a per-second limit tripped), there
// is no hint and the backoff applies.
func RetryHint(h http.Header, now time.Time) (time.Duration, bool) {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && ms < 1e12 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	if v := strings.TrimSpace(h.Get("Retry-After")); v != "" {
		if d, ok := parseSeconds(v); ok {
			return d, true
		}
		if t, err := http.ParseTime(v); err == nil {
			if date, err := http.ParseTime(h.Get("Date")); err == nil {
				now = date
			}
			d := t.Sub(now)
			if d < 0 {
				d = 0
			}
			return d, true
		}
	}
	const resetPrefix, remainingPrefix = "X-Ratelimit-Reset-", "X-Ratelimit-Remaining-"
	var exhausted, anyReset time.Duration
	var haveExhausted, haveReset, haveRemaining bool
	for k, vs := range h { // max and min are order-independent
		if strings.HasPrefix(k, remainingPrefix) {
			haveRemaining = true
		}
		if !strings.HasPrefix(k, resetPrefix) || len(vs) == 0 {
			continue
		}
		d, ok := parseSeconds(strings.TrimSpace(vs[0]))
		if !ok {
			if gd, err := time.ParseDuration(strings.TrimSpace(vs[0])); err == nil && gd >= 0 {
				d, ok = gd, true
			}
		}
		if !ok {
			continue
		}
		if !haveReset || d < anyReset {
			anyReset = d
		}
		haveReset = true
		rem := strings.TrimSpace(h.Get(remainingPrefix + strings.TrimPrefix(k, resetPrefix)))
		if n, err := strconv.ParseFloat(rem, 64); err == nil && n <= 0 {
			if d > exhausted {
				exhausted = d
			}
			haveExhausted = true
		}
	}
	switch {
	case haveExhausted:
		return exhausted, true
	case haveReset && !haveRemaining:
		return anyReset, true
	}
	return 0, false
}

// parseSeconds reads a non-negative number of seconds, fractions allowed.
func parseSeconds(v string) (time.Duration, bool) {
	s, err := strconv.ParseFloat(v, 64)
	if err != nil || !(s >= 0) || s > 1e9 {
		return 0, false
	}
	return time.Duration(s * float64(time.Second)), true
}
