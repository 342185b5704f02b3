//go:build !race

// The race detector changes what allocates (sync.Pool drops objects on
// purpose under it), so these guards exist only in builds without it:
// make guard runs them (make test calls it), the race-enabled suite does
// not see them.

package synth_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/synth"
	"github.com/searchbench/searchbench/eval/vcr"
	"github.com/searchbench/searchbench/lib/fsutil"
	"github.com/searchbench/searchbench/lib/memo"
	"github.com/searchbench/searchbench/lib/testenv"
)

var updateGuard = flag.Bool("update-guard", false, "write the measured allocations per case to testdata/guard.json")

// guardFile is the committed figure the allocation guard compares with.
const guardFile = "testdata/guard.json"

// guard is the content of guardFile.
type guard struct {
	// Cases of the synthetic set measured (seed 1).
	Cases int `json:"cases"`
	// Allocations per case of one replay and score of the set on one
	// goroutine, every report writer on, cassettes decoded from YAML and
	// through a warm cache.
	ReplayAllocs float64 `json:"replay_allocs_per_case"`
	CachedAllocs float64 `json:"cached_replay_allocs_per_case"`
	// Margin is the rise in allocations per case that fails the guard.
	// Runs of the same code have differed by up to 2.4 allocations per
	// case (map growth, the collector's timing against sync.Pool); a
	// fmt.Sprintf("%v", *c) of the case planted in the replay loop adds 11
	// and fails both figures.
	Margin float64 `json:"margin_allocs_per_case"`
}

// mallocs returns how many heap allocations op makes.
func mallocs(t *testing.T, op func() error) uint64 {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if err := op(); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	return after.Mallocs - before.Mallocs
}

// TestAllocsPerCase fails when replaying and scoring the 1,000-case
// synthetic set allocates more per case than the committed figure plus its
// margin. Timings on a shared machine are noise; allocation counts are
// not. After a change that lowers them (or a reviewed one that raises
// them): go test -run TestAllocsPerCase ./eval/synth -update-guard.
func TestAllocsPerCase(t *testing.T) {
	var want guard
	b, err := os.ReadFile(guardFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatalf("%s: %v", guardFile, err)
	}
	if want.Cases < 1 || want.Margin <= 0 {
		t.Fatalf("%s: cases %d and margin %g must be positive", guardFile, want.Cases, want.Margin)
	}
	s := load(t, want.Cases)
	// The set's answers with gold answers are graded, and those the rules
	// defer replay their recorded judge: correctness costs what it costs.
	judges, err := filepath.Glob(filepath.Join(s.Dir, synth.CassettesDir, "*", "*", "*", "*.judge.yaml"))
	if err != nil || len(judges) == 0 {
		t.Fatalf("the %d-case set holds no judge cassette (%v): the guard would not count the judge's replay", want.Cases, err)
	}
	t.Logf("%d judge cassettes in the set", len(judges))
	cache := vcr.NewCache(t.TempDir(), func(err error) { t.Fatal(err) })
	// One replay of each kind first: it fills the cache and every
	// sync.Once (compiled patterns, parsed templates), which a later
	// replay of the same process no longer pays.
	if err := s.Replay(synth.Writers()); err != nil {
		t.Fatal(err)
	}
	if err := s.ReplayCached(synth.Writers(), cache); err != nil {
		t.Fatal(err)
	}
	n := float64(len(s.Items))
	got := guard{Cases: want.Cases, Margin: want.Margin,
		ReplayAllocs: float64(mallocs(t, func() error { return s.Replay(synth.Writers()) })) / n,
		CachedAllocs: float64(mallocs(t, func() error { return s.ReplayCached(synth.Writers(), cache) })) / n,
	}
	t.Logf("allocations per case: replay %.1f (committed %.1f), cached replay %.1f (committed %.1f)",
		got.ReplayAllocs, want.ReplayAllocs, got.CachedAllocs, want.CachedAllocs)
	if *updateGuard {
		out, _ := json.MarshalIndent(got, "", "  ")
		if err := fsutil.WriteFileAtomic(guardFile, append(out, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, c := range []struct {
		what      string
		got, want float64
	}{{"replay", got.ReplayAllocs, want.ReplayAllocs}, {"cached replay", got.CachedAllocs, want.CachedAllocs}} {
		if limit := c.want + want.Margin; c.got > limit {
			t.Errorf("%s allocates %.1f times per case, over the committed %.1f + %.1f (%.1f) of %s: "+
				"a change added allocations to the replay loop. Profile it (go test -bench BenchmarkReplayScore -memprofile mem.out ./eval/synth); "+
				"if the cost is reviewed and worth it, go test -run TestAllocsPerCase ./eval/synth -update-guard",
				c.what, c.got, c.want, want.Margin, limit, guardFile)
		} else if c.got < c.want-want.Margin {
			t.Logf("%s allocates %.1f times per case, well under the committed %.1f: lower the figure (-update-guard) so the guard keeps the gain", c.what, c.got, c.want)
		}
	}
}

// load returns the synthetic set of n cases (seed 1), generated once and
// cached as make bench caches it.
func load(t *testing.T, n int) *synth.Set {
	t.Helper()
	dir, err := synth.Cached(context.Background(), synth.DefaultRoot(os.Getenv), n, 1)
	if err != nil {
		t.Fatal(err)
	}
	s, err := synth.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// heapProbe is a report writer that, when the run ends and before the
// writers after it finish, collects garbage and reads the live heap: what
// the replay and the report writers hold at the end of a run.
type heapProbe struct{ live uint64 }

func (*heapProbe) Begin(report.Meta) error       { return nil }
func (*heapProbe) Case(*report.CaseRecord) error { return nil }
func (p *heapProbe) End(report.Summary) error {
	memo.ResetAll() // bounded caches, not per-case state
	p.live = liveHeap()
	return nil
}

func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// heapGrowth is what a replay of s adds to the live heap by its end.
func heapGrowth(t *testing.T, s *synth.Set) uint64 {
	t.Helper()
	memo.ResetAll()
	before := liveHeap()
	p := &heapProbe{}
	if err := s.Replay(report.Multi(p, synth.Writers())); err != nil {
		t.Fatal(err)
	}
	if p.live < before {
		return 0
	}
	return p.live - before
}

// maxHeapPerCase is the most the live heap at the end of a run may grow
// per case beyond the 1,000-case run: the per-case state a run keeps for
// its summary (a few counters per case and metric) and nothing more.
// Records, report sections and pages stream; a writer that kept them would
// hold kilobytes per case.
const maxHeapPerCase = 128

// TestHeapIsFlat replays the 1,000- and 10,000-case synthetic sets and
// fails when memory grows with the number of cases:
//   - in process, the live heap at the end of the larger run grows by more
//     than maxHeapPerCase bytes per additional case;
//   - as whole `searchbench run` processes (datasets streamed from their
//     files, the recorded index, every report file written), the peak RSS
//     of the larger run is over 1.2 times the smaller's plus 20 MiB
//     (issue 40's target, set at 50,000 cases: SEARCHBENCH_GUARD_N=50000
//     runs it there; generating that set takes a quarter of an hour on
//     two cores, too long for every CI run).
func TestHeapIsFlat(t *testing.T) {
	testenv.Slow(t)
	small, large := 1000, 10000
	if v := os.Getenv("SEARCHBENCH_GUARD_N"); v != "" { // a quicker look while profiling
		if _, err := fmt.Sscan(v, &large); err != nil {
			t.Fatal(err)
		}
	}
	ss, sl := load(t, small), load(t, large)
	// An unmeasured replay first loads what a process loads once (the
	// consent reader's 8 MB word list, compiled patterns), which the first
	// measured run would otherwise count.
	if err := ss.Replay(synth.Writers()); err != nil {
		t.Fatal(err)
	}
	a := heapGrowth(t, ss)
	b := heapGrowth(t, sl)
	extra := float64(int64(b)-int64(a)) / float64(large-small)
	t.Logf("live heap at the end of a run: +%.1f MiB at %d cases, +%.1f MiB at %d (%.0f bytes per additional case; limit %d)",
		float64(a)/(1<<20), small, float64(b)/(1<<20), large, extra, maxHeapPerCase)
	if extra > maxHeapPerCase {
		t.Errorf("the live heap at the end of a run grows by %.0f bytes per case (+%.1f MiB at %d cases, +%.1f MiB at %d), over %d: "+
			"something keeps per-case state for the whole run; see the heap profile: "+
			"SEARCHBENCH_GUARD_N=%d go test -run TestHeapIsFlat -memprofile mem.out ./eval/synth && go tool pprof -sample_index=inuse_space mem.out",
			extra, float64(a)/(1<<20), small, float64(b)/(1<<20), large, maxHeapPerCase, large)
	}

	bin := filepath.Join(t.TempDir(), "searchbench")
	build := exec.Command("go", "build", "-o", bin, "./cmd/searchbench")
	build.Dir = "../.."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ra, rb := peakRSS(t, bin, ss.Dir), peakRSS(t, bin, sl.Dir)
	limit := 1.2*ra + 20
	t.Logf("peak RSS of searchbench run: %.0f MiB at %d cases, %.0f MiB at %d (limit 1.2 × %.0f + 20 = %.0f MiB)", ra, small, rb, large, ra, limit)
	if rb > limit {
		t.Errorf("searchbench run peaks at %.0f MiB on %d cases against %.0f MiB on %d: over 1.2 × %.0f + 20 = %.0f MiB, memory grows with the cases",
			rb, large, ra, small, ra, limit)
	}
}
