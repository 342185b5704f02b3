package run

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/eval/vcr"
	"github.com/searchbench/searchbench/internal/demo"
	"github.com/searchbench/searchbench/lib/testenv"
	"github.com/searchbench/searchbench/orchestrator/executor"
	"github.com/searchbench/searchbench/orchestrator/prompts"
)

// datasets is the demo's pinned datasets (internal/demo): the tests' own
// data, never the team's working datasets/.
const datasets = "../../testdata/demo/datasets"

// shippedCassettes is the demo tree's cassettes, recorded from the pinned
// data by the simulator (built once, shared by every test binary).
func shippedCassettes(t testing.TB) string { return filepath.Join(demo.Tree(t), "cassettes") }

func shipped(t *testing.T) []*dataset.Dataset {
	t.Helper()
	ds, err := dataset.LoadDir(datasets)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

func plan(t *testing.T, ds []*dataset.Dataset, filter ...string) []Item {
	t.Helper()
	f, err := dataset.ParseFilter(filter)
	if err != nil {
		t.Fatal(err)
	}
	return Plan(ds, f, dataset.Shard{K: 1, N: 1})
}

// shippedVariant loads a variant of the project's prompts folder.
func shippedVariant(t testing.TB, name string) *prompts.Variant {
	t.Helper()
	v, err := prompts.Load("../../testdata/demo/prompts", name)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func record(t *testing.T, dir, variant, mode string, items []Item) {
	t.Helper()
	if err := Record(context.Background(), items, RecordOptions{Variant: shippedVariant(t, variant), Mode: mode, Cassettes: dir, Backend: BackendSim}); err != nil {
		t.Fatal(err)
	}
}

func replay(t *testing.T, dir string, items []Item, parallel int) ([]byte, report.Summary) {
	t.Helper()
	cfg := executor.DefaultConfig()
	p, err := executor.New(cfg.Parser)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	sum, err := Replay(context.Background(), Slice(items), Options{
		Variant: shippedVariant(t, "seed"), Cassettes: dir, Parallel: parallel, Scorers: score.All(), Parser: p,
		Rerecord: func(c *dataset.Case, _ Check) string { return "searchbench record --filter id:" + c.ID },
	}, report.Meta{Tool: "searchbench", Variant: "seed"}, report.NewJSON(&buf))
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), sum
}

// A selection across every kind, including a 429 retried and a flow that
// changes output mode.
var mixed = []string{"dataset:consent", "dataset:parser", "id:t-*", "id:m-a*", "dataset:flows"}

func TestReplayIsDeterministic(t *testing.T) {
	dir := t.TempDir()
	items := plan(t, shipped(t), mixed...)
	record(t, dir, "seed", "model", items)
	one, sum := replay(t, dir, items, 1)
	if sum.Errors != 0 {
		t.Fatalf("%d errors:\n%s", sum.Errors, one)
	}
	for _, n := range []int{4, 16} {
		if again, _ := replay(t, dir, items, n); !bytes.Equal(one, again) {
			t.Fatalf("parallel %d gives a different report", n)
		}
	}
	if sum.Cases != len(items) || sum.Passed == 0 {
		t.Fatalf("summary %+v", sum)
	}
}

func TestPlanSeqIgnoresShards(t *testing.T) {
	ds := shipped(t)
	all := plan(t, ds)
	seen := map[int]bool{}
	for k := 1; k <= 3; k++ {
		for _, it := range Plan(ds, dataset.Filter{}, dataset.Shard{K: k, N: 3}) {
			if all[it.Seq].Case != it.Case || seen[it.Seq] {
				t.Fatalf("shard %d: item %d is not the unsharded item at its Seq", k, it.Seq)
			}
			seen[it.Seq] = true
		}
	}
	if len(seen) != len(all) {
		t.Fatalf("shards cover %d of %d cases", len(seen), len(all))
	}
}

func TestCassetteMiss(t *testing.T) {
	dir := t.TempDir()
	ds := shipped(t)
	items := plan(t, ds, "id:t-iphone-year")
	if len(items) != 1 {
		t.Fatalf("want the first-iPhone case, got %d items", len(items))
	}
	record(t, dir, "seed", "model", items)
	// The dataset changes the question after recording.
	changed := *items[0].Case
	changed.Query = "What year was the first iPod released?"
	out, sum := replay(t, dir, []Item{{Seq: 0, Case: &changed}}, 1)
	if sum.Errors != 1 {
		t.Fatalf("want 1 error, got %+v", sum)
	}
	msg := string(out)
	for _, want := range []string{"routing/t-iphone-year", "POST https://api.cerebras.ai/v1/chat/completions", "searchbench record --filter id:t-iphone-year", "iPod", "iPhone"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the error record does not mention %q:\n%s", want, msg)
		}
	}

	// A missing cassette names the path and the command.
	missing := *items[0].Case
	missing.ID = "never-recorded"
	out, _ = replay(t, dir, []Item{{Seq: 0, Case: &missing}}, 1)
	if !strings.Contains(string(out), "never-recorded.yaml") || !strings.Contains(string(out), "searchbench record --filter id:never-recorded") {
		t.Errorf("missing cassette error: %s", out)
	}
}

func TestUnusedInteractionsAreAnError(t *testing.T) {
	dir := t.TempDir()
	items := plan(t, shipped(t), "id:yes-after-phase1")
	if len(items) != 1 || len(items[0].Case.Turns) < 2 {
		t.Fatalf("want the two-turn yes flow, got %d items", len(items))
	}
	record(t, dir, "seed", "model", items)
	short := *items[0].Case
	short.Turns = short.Turns[:1]
	out, sum := replay(t, dir, []Item{{Seq: 0, Case: &short}}, 1)
	if sum.Errors != 1 || !strings.Contains(string(out), "never requested") {
		t.Fatalf("want an unused-interactions error, got %+v\n%s", sum, out)
	}
}

func TestFailedRecordingKeepsCassette(t *testing.T) {
	dir := t.TempDir()
	items := plan(t, shipped(t), "id:t-iphone-year")
	record(t, dir, "seed", "model", items)
	path := vcr.Path(dir, "seed", "model", "routing", "t-iphone-year")
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err = Record(ctx, items, RecordOptions{Cassettes: dir, Backend: BackendSim})
	if err == nil {
		t.Fatal("recording with a cancelled context succeeded")
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Fatal("a failed recording changed the cassette")
	}
}

// Consent and parser cases make no requests: they replay without cassettes.
func TestAppSideCasesNeedNoCassettes(t *testing.T) {
	items := plan(t, shipped(t), "dataset:consent", "dataset:parser")
	_, sum := replay(t, t.TempDir(), items, 2)
	if sum.Errors != 0 || sum.Cases != len(items) {
		t.Fatalf("%+v", sum)
	}
}

// TestShippedCassettesAreReproducible re-records every shipped cassette
// from the simulator and compares it with the committed file, byte for byte:
// `make cassettes` must be a no-op on a clean tree, and the cassettes must
// be what the simulator and the current code produce.
func TestShippedCassettesAreReproducible(t *testing.T) {
	testenv.Slow(t)
	items := plan(t, shipped(t))
	for _, variant := range []string{"seed", "routing-examples"} {
		for _, mode := range prompts.Modes {
			dir := t.TempDir()
			// The committed recorded.json says how many samples each case
			// has; a recording without --samples keeps them.
			committedShelf := Shelf{Root: shippedCassettes(t), Variant: variant, Mode: mode}
			m, err := committedShelf.LoadManifest()
			if err != nil {
				t.Fatal(err)
			}
			fresh := Shelf{Root: dir, Variant: variant, Mode: mode}
			if err := fresh.Save(&Manifest{Variant: variant, Mode: mode, Cases: m.Cases}); err != nil {
				t.Fatal(err)
			}
			record(t, dir, variant, mode, items)
			compare := func(rel ...string) {
				fresh, err := os.ReadFile(filepath.Join(append([]string{dir}, rel...)...))
				if err != nil {
					t.Fatal(err)
				}
				committed, err := os.ReadFile(filepath.Join(append([]string{shippedCassettes(t)}, rel...)...))
				if errors.Is(err, os.ErrNotExist) {
					t.Errorf("%s: not committed (run make cassettes)", filepath.Join(rel...))
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(fresh, committed) {
					t.Errorf("%s: the committed file differs from a fresh recording (run make cassettes)", filepath.Join(rel...))
				}
			}
			compare(variant, mode, ManifestName)
			sampled := 0
			for _, it := range items {
				if !NeedsTraffic(it.Case) {
					continue
				}
				n := m.Cases[it.Case.Key()].SampleCount()
				for k := 1; k <= n; k++ {
					rel, _ := filepath.Rel(dir, fresh.SamplePath(it.Case, k))
					compare(rel)
				}
				if n > 1 {
					sampled++
				}
			}
			// The shipped routing set has five samples per case in model
			// mode (record --samples 5): the sampled figures rest on them.
			if mode == "model" && sampled < 68 {
				t.Errorf("%s/%s: %d cases have several samples, want every routing case", variant, mode, sampled)
			}
		}
	}
}

// TestShippedCassettesReplayInEveryMode: both shipped variants replay in
// both output modes with no case error: every cassette is there and
// current.
func TestShippedCassettesReplayInEveryMode(t *testing.T) {
	testenv.Slow(t)
	items := plan(t, shipped(t))
	p, err := executor.New(executor.DefaultConfig().Parser)
	if err != nil {
		t.Fatal(err)
	}
	for _, variant := range []string{"seed", "routing-examples"} {
		for _, mode := range prompts.Modes {
			var buf bytes.Buffer
			sum, err := Replay(context.Background(), Slice(items), Options{
				Variant: shippedVariant(t, variant), Mode: mode, Cassettes: shippedCassettes(t), Scorers: score.All(), Parser: p,
			}, report.Meta{SchemaVersion: report.SchemaVersion, Tool: "searchbench"}, report.NewJSON(&buf))
			if err != nil {
				t.Fatal(err)
			}
			if sum.Errors != 0 || sum.Cases != len(items) {
				t.Errorf("%s/%s: %d of %d cases could not run", variant, mode, sum.Errors, sum.Cases)
			}
			var m report.Meta
			src := report.Source{Name: "replay", Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(buf.Bytes())), nil }}
			if err := report.Scan(src, func(x report.Meta) error { m = x; return nil }, func(*report.CaseRecord) error { return nil }, nil); err != nil {
				t.Fatal(err)
			}
			want := report.Meta{SchemaVersion: report.SchemaVersion, Tool: "searchbench", Variant: variant, VariantHash: shippedVariant(t, variant).Hash, JudgeHash: shippedVariant(t, variant).Hashes[prompts.JudgeFile], Mode: mode, Backend: "sim", SimPolicies: []string{variant}}
			if !reflect.DeepEqual(m, want) {
				t.Errorf("%s/%s: meta %+v, want %+v", variant, mode, m, want)
			}
		}
	}
}

// TestUnusedListIsCapped: a cassette of 100,000 interactions never requested
// names the first few and counts the rest, on one short line.
func TestUnusedListIsCapped(t *testing.T) {
	ids := make([]int, 100000)
	for i := range ids {
		ids[i] = i
	}
	got := listIDs(ids, maxIDs)
	if want := "[0 1 2 3 4 5 6 7 8 9 and 99990 more]"; got != want {
		t.Errorf("listIDs = %q, want %q", got, want)
	}
	if got, want := listIDs([]int{3, 7}, maxIDs), "[3 7]"; got != want {
		t.Errorf("listIDs = %q, want %q", got, want)
	}
}
