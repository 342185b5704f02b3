package run

import (
	"bytes"
	"context"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/lib/fsutil"
	"github.com/searchbench/searchbench/lib/testenv"
	"github.com/searchbench/searchbench/sim/scenario"
)

// TestEveryFaultRecordsLiveStyleAndReplays records every shipped routing
// and flows case, the simulator's faults among them, twice: once as `make cassettes` does (no
// retry jitter) and once as a live recording would (random jitter between
// retries). Nothing random or clock-derived may enter a request, so the two
// sets of cassettes are byte-identical, and the live-style set replays with
// no error. Every fault kind must be exercised by some shipped case.
func TestEveryFaultRecordsLiveStyleAndReplays(t *testing.T) {
	testenv.Slow(t)
	scripts, err := scenario.Scripts("seed")
	if err != nil {
		t.Fatal(err)
	}
	faultsOf := func(c *dataset.Case) []scenario.Fault {
		var fs []scenario.Fault
		queries := []string{c.Query}
		for _, tr := range c.Turns {
			queries = append(queries, tr.User)
		}
		for _, q := range queries {
			if s := scripts.Lookup(q); s != nil {
				fs = append(fs, s.Faults...)
			}
		}
		return fs
	}
	// Every routing and flows case: the seed's policy plays order_miss on
	// its own (fact-first tavily_plus_exa questions lead with Tavily), and
	// scripts play the rest.
	items := plan(t, shipped(t), "dataset:routing", "dataset:flows")
	covered := map[scenario.Fault]bool{scenario.FaultOrderMiss: true}
	for _, it := range items {
		for _, f := range faultsOf(it.Case) {
			covered[f] = true
		}
	}
	for _, f := range scenario.Faults {
		if !covered[f] {
			t.Errorf("fault %q is played by no shipped routing or flows case: add one", f)
		}
	}

	plain, live := t.TempDir(), t.TempDir()
	if err := Record(context.Background(), items, RecordOptions{Cassettes: plain, Backend: BackendSim}); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	jitter := func() float64 { return rng.Float64() } // called from one case at a time below
	if err := Record(context.Background(), items, RecordOptions{Cassettes: live, Backend: BackendSim, Parallel: 1, Jitter: jitter}); err != nil {
		t.Fatal(err)
	}
	files := func(dir string) map[string][]byte {
		out := map[string][]byte{}
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && d.Name() != fsutil.LockName {
				b, _ := os.ReadFile(p)
				rel, _ := filepath.Rel(dir, p)
				out[rel] = b
			}
			return err
		})
		return out
	}
	a, b := files(plain), files(live)
	judges := 0 // the correctness judge's cassettes, beside their cases'
	for name := range a {
		if strings.HasSuffix(name, ".judge.yaml") {
			judges++
		}
	}
	if len(a) != len(items)+judges+1 || judges == 0 { // and recorded.json
		t.Fatalf("%d files for %d cases (%d judge cassettes)", len(a), len(items), judges)
	}
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range a {
			if !yield(k) {
				return
			}
		}
	}) {
		if !bytes.Equal(a[name], b[name]) {
			t.Errorf("%s: the live-style recording differs from the plain one: something random entered a request", name)
		}
	}
	got, sum := replay(t, live, items, 2)
	if sum.Errors != 0 {
		var errs []string
		for _, l := range strings.Split(string(got), "\n") {
			if strings.Contains(l, `"error":`) {
				errs = append(errs, l[:min(len(l), 600)])
			}
		}
		t.Fatalf("%d of %d live-style recordings did not replay:\n%s", sum.Errors, sum.Cases, strings.Join(errs, "\n"))
	}
	want, _ := replay(t, plain, items, 2)
	if !bytes.Equal(got, want) {
		t.Error("the live-style recordings replay to another report")
	}
}
