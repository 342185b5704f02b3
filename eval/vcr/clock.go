package vcr

import (
	"sync"
	"time"
)

// Clock is a replay's time: it starts at a fixed instant and moves only
// when a Replayer serves an interaction, by the duration recorded for it.
// It is safe for concurrent use.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// ClockStart is where every replay clock starts (2026-01-01T00:00:00Z).
var ClockStart = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// NewClock returns a clock at ClockStart.
func NewClock() *Clock { return &Clock{now: ClockStart} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d (a negative d is ignored).
func (c *Clock) Advance(d time.Duration) {
	if d <= 0 {
		return
	}
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}
