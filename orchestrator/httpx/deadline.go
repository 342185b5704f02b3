package httpx

import (
	"context"
	"sync"
	"time"
)

type deferredKey struct{}

// deferred is a timeout whose clock has not started yet.
type deferred struct {
	d      time.Duration
	cancel context.CancelCauseFunc
	parent *deferred

	mu      sync.Mutex
	timer   *time.Timer // running while the request is not queued
	since   time.Time   // when timer started
	stopped bool
}

func (df *deferred) start() {
	df.mu.Lock()
	defer df.mu.Unlock()
	if df.timer != nil || df.stopped {
		return
	}
	df.since = time.Now()
	df.timer = time.AfterFunc(max(df.d, 0), func() { df.cancel(context.DeadlineExceeded) })
}

// pause stops the clock, keeping the time left.
func (df *deferred) pause() {
	df.mu.Lock()
	defer df.mu.Unlock()
	if df.timer == nil || df.stopped {
		return
	}
	if df.timer.Stop() {
		df.d -= time.Since(df.since)
	}
	df.timer = nil
}

func (df *deferred) stop() {
	df.mu.Lock()
	defer df.mu.Unlock()
	df.stopped = true
	if df.timer != nil {
		df.timer.Stop()
	}
}

// DeferredTimeout is a Policy.WithTimeout whose clock runs only while a
// Pacer has let the request go (StartDeadlines) and stops while it queues
// (PauseDeadlines): time spent waiting for a provider's rate limit, a
// Retry-After included, must not use up a limit meant for a slow server. When the time runs out the context is
// cancelled with cause context.DeadlineExceeded, which the client reports
// as a timeout.
func DeferredTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	parent, _ := ctx.Value(deferredKey{}).(*deferred)
	c, cancel := context.WithCancelCause(ctx)
	df := &deferred{d: d, cancel: cancel, parent: parent}
	return context.WithValue(c, deferredKey{}, df), func() {
		df.stop()
		cancel(context.Canceled)
	}
}

// StartDeadlines starts (or resumes) every deferred timeout of ctx.
func StartDeadlines(ctx context.Context) {
	df, _ := ctx.Value(deferredKey{}).(*deferred)
	for ; df != nil; df = df.parent {
		df.start()
	}
}

// PauseDeadlines stops every deferred timeout of ctx while the request
// queues.
func PauseDeadlines(ctx context.Context) {
	df, _ := ctx.Value(deferredKey{}).(*deferred)
	for ; df != nil; df = df.parent {
		df.pause()
	}
}

// timedOut says whether ctx ended because its time ran out, a deferred
// timeout's included.
func timedOut(ctx context.Context) bool {
	return ctx.Err() != nil && context.Cause(ctx) == context.DeadlineExceeded
}
