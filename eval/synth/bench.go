package synth

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"gopkg.in/dnaeon/go-vcr.v4/pkg/cassette"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/eval/report"
	evalrun "github.com/searchbench/searchbench/eval/run"
	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/eval/vcr"
	"github.com/searchbench/searchbench/orchestrator/executor"
	"github.com/searchbench/searchbench/orchestrator/prompts"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// Set is a generated set loaded for benchmarking: its cases in run order
// and the cassette files they replay.
type Set struct {
	Dir       string
	Items     []evalrun.Item
	Cassettes []string // one per routing and flows case, in run order
}

// Load reads the set that Generate wrote into dir.
func Load(dir string) (*Set, error) {
	sets, err := dataset.LoadDir(filepath.Join(dir, DatasetsDir))
	if err != nil {
		return nil, err
	}
	s := &Set{Dir: dir, Items: evalrun.Plan(sets, dataset.Filter{}, dataset.Shard{K: 1, N: 1})}
	shelf := evalrun.Shelf{Root: filepath.Join(dir, CassettesDir), Variant: Variant, Mode: trace.ModeModel}
	for _, it := range s.Items {
		if evalrun.NeedsTraffic(it.Case) {
			s.Cassettes = append(s.Cassettes, shelf.Path(it.Case))
		}
	}
	return s, nil
}

// Replay replays and scores every case of s once, on one goroutine, and
// streams the records to w, decoding every cassette from its YAML. It fails
// when any case could not run: a benchmark of a broken replay measures
// nothing.
func (s *Set) Replay(w report.Writer) error { return s.ReplayCached(w, nil) }

// ReplayCached is Replay reading the cassettes through cache (nil: none).
func (s *Set) ReplayCached(w report.Writer, cache *vcr.Cache) error {
	p, err := executor.New(executor.DefaultConfig().Parser)
	if err != nil {
		return err
	}
	sum, err := evalrun.Replay(context.Background(), evalrun.Slice(s.Items), evalrun.Options{
		Variant:   prompts.Builtin(),
		Cassettes: filepath.Join(s.Dir, CassettesDir),
		Parallel:  1,
		Scorers:   score.All(),
		Parser:    p,
		Cache:     cache,
	}, report.Meta{SchemaVersion: report.SchemaVersion, Tool: report.Tool, Variant: Variant, Mode: "model"}, w)
	if err != nil {
		return err
	}
	if sum.Errors > 0 {
		return fmt.Errorf("%d of %d cases of %s could not run (regenerate the set: remove the folder)", sum.Errors, sum.Cases, s.Dir)
	}
	return nil
}

// Decode reads and decodes every cassette of s once, with the loader the
// replay uses (go-vcr's cassette.Load), and does nothing else: the floor
// the replay's cost is measured against.
func (s *Set) Decode() error {
	for _, p := range s.Cassettes {
		if _, err := cassette.Load(strings.TrimSuffix(p, vcr.Ext)); err != nil {
			return err
		}
	}
	return nil
}

// DecodeCached opens every cassette of s for replay through cache, and does
// nothing else: the cached floor. A warm cache reads each YAML file (to
// hash it) and its entry; a cold one also decodes the YAML and writes the
// entry.
func (s *Set) DecodeCached(cache *vcr.Cache) error {
	for _, p := range s.Cassettes {
		r, err := vcr.OpenReplayWith(p, vcr.ReplayOptions{Cache: cache})
		if err != nil {
			return err
		}
		r.Close()
	}
	return nil
}

// Writers returns the report writers a run uses (JSON, Markdown, JUnit,
// terminal, HTML, traces), all writing to io.Discard.
func Writers() report.Writer {
	page, err := report.NewHTML(io.Discard, report.HTMLOptions{})
	if err != nil {
		panic(err) // no traces to read: cannot fail
	}
	return report.Multi(report.NewJSON(io.Discard), report.NewMarkdown(io.Discard, report.TextOptions{}),
		report.NewJUnit(io.Discard), report.NewTerminal(io.Discard, report.TextOptions{}), page, report.NewTraces(io.Discard, nil))
}

// BenchReplayScore benchmarks replaying and scoring every case of s, with
// the records streamed to every report writer (discarding their output).
// One op is the whole set; it reports ns/case and allocs/case.
func BenchReplayScore(b *testing.B, s *Set) {
	bench(b, s, func() error { return s.Replay(Writers()) })
}

// BenchDecodeFloor benchmarks reading and decoding every cassette of s.
// One op is the whole set; ns/case and allocs/case divide by the cases of
// the set, as BenchReplayScore does, so the two compare directly.
func BenchDecodeFloor(b *testing.B, s *Set) {
	bench(b, s, s.Decode)
}

func bench(b *testing.B, s *Set, op func() error) {
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	n := 0
	for b.Loop() {
		if err := op(); err != nil {
			b.Fatal(err)
		}
		n++
	}
	runtime.ReadMemStats(&after)
	cases := float64(n * len(s.Items))
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/cases, "ns/case")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/cases, "allocs/case")
}

// BenchCachedReplayScore is BenchReplayScore with the cassettes read
// through cache, warmed first: a later replay of unchanged cassettes.
func BenchCachedReplayScore(b *testing.B, s *Set, cache *vcr.Cache) {
	if err := s.DecodeCached(cache); err != nil {
		b.Fatal(err)
	}
	bench(b, s, func() error { return s.ReplayCached(Writers(), cache) })
}

// BenchCachedFloor benchmarks opening every cassette of s through a warm
// cache: reading and hashing the YAML, reading and checking the entry.
func BenchCachedFloor(b *testing.B, s *Set, cache *vcr.Cache) {
	if err := s.DecodeCached(cache); err != nil {
		b.Fatal(err)
	}
	bench(b, s, func() error { return s.DecodeCached(cache) })
}

// Ratios are the per-case costs BenchRatio measured, in nanoseconds.
type Ratios struct {
	YAMLFloor, CachedFloor, Replay, CachedReplay float64
}

// BenchRatio runs, alternately, one whole set each per op: the YAML floor,
// the replay decoding YAML, the cached floor and the replay through the
// warm cache. It reports each cost per case and their ratios. Alternating
// makes the ratios hold on a machine whose speed drifts (a shared VM),
// where benchmarks run one after the other would each see another machine.
func BenchRatio(b *testing.B, s *Set, cache *vcr.Cache) {
	if err := s.DecodeCached(cache); err != nil {
		b.Fatal(err)
	}
	var d, cpu [4]time.Duration
	steps := [4]func() error{
		s.Decode,
		func() error { return s.Replay(Writers()) },
		func() error { return s.DecodeCached(cache) },
		func() error { return s.ReplayCached(Writers(), cache) },
	}
	for b.Loop() {
		for i, step := range steps {
			t0, c0 := time.Now(), cpuTime()
			if err := step(); err != nil {
				b.Fatal(err)
			}
			d[i] += time.Since(t0)
			cpu[i] += cpuTime() - c0
		}
	}
	cases := float64(b.N * len(s.Items))
	per := func(x time.Duration) float64 { return float64(x.Nanoseconds()) / cases }
	b.ReportMetric(per(d[0]), "yaml-floor-ns/case")
	b.ReportMetric(per(d[1]), "replay-ns/case")
	b.ReportMetric(per(d[2]), "cached-floor-ns/case")
	b.ReportMetric(per(d[3]), "cached-replay-ns/case")
	b.ReportMetric(float64(d[1])/float64(d[0]), "replay/yaml-floor")
	b.ReportMetric(float64(d[3])/float64(d[2]), "cached-replay/cached-floor")
	b.ReportMetric(float64(d[2])/float64(d[0]), "cached-floor/yaml-floor")
	b.ReportMetric(float64(d[3])/float64(d[1]), "cached-replay/replay")
	// The same from CPU time (every goroutine's, the collector's too).
	if cpu[0] > 0 && cpu[1] > 0 {
		b.ReportMetric(per(cpu[1]), "replay-cpu-ns/case")
		b.ReportMetric(per(cpu[3]), "cached-replay-cpu-ns/case")
		b.ReportMetric(float64(cpu[1])/float64(cpu[0]), "cpu:replay/yaml-floor")
		b.ReportMetric(float64(cpu[3])/float64(cpu[1]), "cpu:cached-replay/replay")
	}
}
