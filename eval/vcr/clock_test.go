package vcr

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gopkg.in/dnaeon/go-vcr.v4/pkg/cassette"
)

// TestReplayClock: a replay's clock moves by each served interaction's
// recorded duration, and only then, so a time measured on it is the same
// on every replay.
func TestReplayClock(t *testing.T) {
	_, srv := newFakeAPI(t)
	path := filepath.Join(t.TempDir(), "case.yaml")
	calls := caseCalls("who won the 2024 Tour de France?", false)
	recordCase(t, path, srv, calls)
	c, err := cassette.Load(strings.TrimSuffix(path, Ext))
	if err != nil {
		t.Fatal(err)
	}
	var total time.Duration
	for _, in := range c.Interactions {
		total += in.Response.Duration
	}
	if total <= 0 {
		t.Fatalf("recorded durations sum to %v, want provider times", total)
	}
	for run := 0; run < 2; run++ {
		clock := NewClock()
		r, err := OpenReplayWith(path, ReplayOptions{Clock: clock})
		if err != nil {
			t.Fatal(err)
		}
		if !clock.Now().Equal(ClockStart) {
			t.Fatalf("clock moved before any request: %v", clock.Now())
		}
		if _, err := send(t, r, calls); err != nil {
			t.Fatal(err)
		}
		r.Close()
		if got := clock.Now().Sub(ClockStart); got != total {
			t.Errorf("run %d: clock advanced %v, want the recorded %v", run, got, total)
		}
	}
	clock := NewClock()
	clock.Advance(-time.Second)
	if !clock.Now().Equal(ClockStart) {
		t.Error("a negative duration moved the clock")
	}
}
