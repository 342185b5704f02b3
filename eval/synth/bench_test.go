package synth_test

import (
	"context"
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/searchbench/searchbench/eval/synth"
	"github.com/searchbench/searchbench/eval/vcr"
)

// benchSet is the cached synthetic set the benchmarks share: 1,000 cases
// unless SEARCHBENCH_BENCH_N says otherwise.
var benchSet = sync.OnceValues(func() (*synth.Set, error) {
	n := 1000
	if v := os.Getenv("SEARCHBENCH_BENCH_N"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			return nil, err
		}
	}
	dir, err := synth.Cached(context.Background(), synth.DefaultRoot(os.Getenv), n, 1)
	if err != nil {
		return nil, err
	}
	return synth.Load(dir)
})

func loadBench(b *testing.B) *synth.Set {
	s, err := benchSet()
	if err != nil {
		b.Fatal(err)
	}
	return s
}

func BenchmarkReplayScore(b *testing.B) { synth.BenchReplayScore(b, loadBench(b)) }

func BenchmarkDecodeFloor(b *testing.B) { synth.BenchDecodeFloor(b, loadBench(b)) }

func BenchmarkCachedReplayScore(b *testing.B) {
	synth.BenchCachedReplayScore(b, loadBench(b), benchCache(b))
}

func BenchmarkCachedFloor(b *testing.B) { synth.BenchCachedFloor(b, loadBench(b), benchCache(b)) }

func BenchmarkRatio(b *testing.B) { synth.BenchRatio(b, loadBench(b), benchCache(b)) }

// benchCache is a decoded-cassette cache in the benchmark's temporary
// folder, never the user's.
func benchCache(b *testing.B) *vcr.Cache {
	return vcr.NewCache(b.TempDir(), func(err error) { b.Fatal(err) })
}
