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
	timer   *time.Timer
	stopped bool
}

func (df *deferred) start() {
	df.mu.Lock()
	defer df.mu.Unlock()
	if df.timer != nil || df.stopped {
		return
	}
	df.timer = time.AfterFunc(df.d, func() { df.cancel(context.DeadlineExceeded) })
}

func (df *deferred) stop() {
	df.mu.Lock()
	defer df.mu.Unlock()
	df.stopped = true
	if df.timer != nil {
		df.timer.Stop()
	}
}

// DeferredTimeout is a Policy.WithTimeout whose d starts when a Pacer
// admits the request (StartDeadlines), not when the attempt or call
// begins: time spent queueing for a provider's rate limit must not use up
// a limit meant for a slow server. When the time runs out the context is
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

// StartDeadlines starts every deferred timeout of ctx not yet started.
func StartDeadlines(ctx context.Context) {
	df, _ := ctx.Value(deferredKey{}).(*deferred)
	for ; df != nil; df = df.parent {
		df.start()
	}
}

// timedOut says whether ctx ended because its time ran out, a deferred
// timeout's included.
func timedOut(ctx context.Context) bool {
	return ctx.Err() != nil && context.Cause(ctx) == context.DeadlineExceeded
}
