package run

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/lib/testenv"
	"github.com/searchbench/searchbench/orchestrator/executor"
)

// TestStreamIsPlan: a Stream yields exactly Plan's items (same cases, same
// Seq numbers), for every filter and shard, and counts them.
func TestStreamIsPlan(t *testing.T) {
	testenv.Slow(t)
	ds := shipped(t)
	for _, filter := range [][]string{nil, mixed, {"tag:seed"}, {"label:exa_only", "dataset:parser"}} {
		f, err := dataset.ParseFilter(filter)
		if err != nil {
			t.Fatal(err)
		}
		for _, sh := range []dataset.Shard{{K: 1, N: 1}, {K: 2, N: 3}} {
			want := Plan(ds, f, sh)
			s, err := OpenStream(datasets, f, sh, Shelf{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []Item
			for it, err := range s.All() {
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, it)
			}
			if s.Len() != len(want) || len(got) != len(want) {
				t.Fatalf("filter %q shard %v: Len %d, streamed %d, Plan %d", filter, sh, s.Len(), len(got), len(want))
			}
			for i := range want {
				if got[i].Seq != want[i].Seq || !reflect.DeepEqual(got[i].Case, want[i].Case) {
					t.Fatalf("filter %q shard %v: item %d is %d %s, Plan's %d %s", filter, sh, i, got[i].Seq, got[i].Case.Key(), want[i].Seq, want[i].Case.Key())
				}
			}
		}
	}
}

// TestStreamReplaysAsSlice: replaying a Stream writes the same report as
// replaying the same items held in memory, and a dataset file edited
// during the run stops it with an error naming the file.
func TestStreamReplaysAsSlice(t *testing.T) {
	testenv.Slow(t)
	dir := t.TempDir()
	dsDir := filepath.Join(dir, "datasets")
	os.MkdirAll(dsDir, 0o755)
	for _, name := range []string{"routing.yaml", "consent.yaml", "parser.yaml"} {
		b, err := os.ReadFile(filepath.Join(datasets, name))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dsDir, name), b, 0o644)
	}
	loaded, err := dataset.LoadDir(dsDir)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := dataset.ParseFilter([]string{"id:t-*", "dataset:consent", "dataset:parser"})
	items := Plan(loaded, f, dataset.Shard{K: 1, N: 1})
	cassettes := filepath.Join(dir, "cassettes")
	record(t, cassettes, "seed", "model", items)
	want, _ := replay(t, cassettes, items, 2)

	p, err := executor.New(executor.DefaultConfig().Parser)
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Variant: shippedVariant(t, "seed"), Cassettes: cassettes, Parallel: 2, Scorers: score.All(), Parser: p,
		Rerecord: func(c *dataset.Case, _ Check) string { return "searchbench record --filter id:" + c.ID }}
	shelf := opts.Shelf()
	m, err := shelf.LoadManifest()
	if err != nil {
		t.Fatal(err)
	}
	s, err := OpenStream(dsDir, f, dataset.Shard{K: 1, N: 1}, shelf, m)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := Replay(context.Background(), s, opts, report.Meta{Tool: "searchbench", Variant: "seed"}, report.NewJSON(&buf)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Fatal("a streamed replay's report differs from the in-memory one's")
	}

	// Edited after validation: the run stops, naming the file.
	done := 0
	opts.Done = func(*report.CaseRecord) {
		done++
		if done == 1 {
			b, _ := os.ReadFile(filepath.Join(dsDir, "routing.yaml"))
			os.WriteFile(filepath.Join(dsDir, "routing.yaml"), bytes.Replace(b, []byte("tavily_only"), []byte("exa_only"), 1), 0o644)
		}
	}
	s, err = OpenStream(dsDir, f, dataset.Shard{K: 1, N: 1}, shelf, m)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Replay(context.Background(), s, opts, report.Meta{}, report.NewJSON(&bytes.Buffer{}))
	if err == nil || !strings.Contains(err.Error(), "routing.yaml changed since it was validated") {
		t.Fatalf("edited dataset: err = %v", err)
	}
	if errors.Is(err, context.Canceled) {
		t.Fatal("the error is a cancellation, not the file's")
	}
}

// TestManifestDecodesAsUnmarshal: the streaming manifest decoder gives
// what json.Unmarshal gives, and shares identical entries.
func TestManifestDecodesAsUnmarshal(t *testing.T) {
	inputs := []string{
		`{"variant":"seed","mode":"model","cases":{"a/x":{"backend":"sim","policy":"seed","variant_hash":"h","files":{"p.md":"1","v.yaml":"2"}},"a/y":{"backend":"sim","policy":"seed","variant_hash":"h","files":{"v.yaml":"2","p.md":"1"}},"b/z":{"backend":"live","variant_hash":"h","files":{}}}}`,
		`{"cases":null,"Variant":"v","extra":[1,{"x":2}]}`,
		`{"cases":{"a/x":{"backend":"sim"},"a/x":{"policy":"p","files":{"f":"1"}}}}`,
		`{}`,
		// Entries alike but for their samples stay apart (the merge of
		// samples into the compact form once shared them).
		`{"cases":{"a/x":{"backend":"sim","variant_hash":"h","samples":5},"a/y":{"backend":"sim","variant_hash":"h"}}}`,
		// Sums: as the recorder writes them (packed apart from the
		// entry), and otherwise (kept in it, as written).
		`{"cases":{"a/x":{"backend":"sim","variant_hash":"h","sums":["f0ce9e65b3409a8bb6aeba7ae48d3fd8"]},"a/y":{"backend":"sim","variant_hash":"h","sums":["6af75fd4897b227146fc73f3301f18ff","7c318496c6867d2b3ae8c69fcd0e922d"]},"b/z":{"backend":"sim","variant_hash":"h","sums":[]}}}`,
		`{"cases":{"a/x":{"backend":"sim","sums":["F0CE9E65B3409A8BB6AEBA7AE48D3FD8"]},"a/y":{"backend":"sim","sums":["6af75fd4897b227146fc73f3301f18ff","not hex"]},"b/z":{"backend":"sim","sums":["abc"]}}}`,
	}
	for _, in := range inputs {
		want := &Manifest{Variant: "shelf", Mode: "m"}
		if err := json.Unmarshal([]byte(in), want); err != nil {
			t.Fatal(err)
		}
		got := &Manifest{Variant: "shelf", Mode: "m"}
		if err := decodeManifest(strings.NewReader(in), got); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\ngot  %+v\nwant %+v", in, got, want)
		}
	}
	// The compact form answers every lookup as the map does.
	for _, in := range inputs {
		full, compact := &Manifest{}, &Manifest{index: map[keySum]caseRef{}}
		if err := decodeManifest(strings.NewReader(in), full); err != nil {
			t.Fatal(err)
		}
		if err := decodeManifest(strings.NewReader(in), compact); err != nil {
			t.Fatal(err)
		}
		if compact.Cases != nil {
			t.Fatalf("%s: a compact manifest keeps its keys", in)
		}
		for _, k := range []string{"a/x", "a/y", "b/z", "nope"} {
			fe, fok := full.Entry(k)
			ce, cok := compact.Entry(k)
			if len(fe.Sums) == 0 && len(ce.Sums) == 0 {
				fe.Sums, ce.Sums = nil, nil // absent and [] read alike (Entry.Sum)
			}
			if fok != cok || !reflect.DeepEqual(fe, ce) {
				t.Errorf("%s: Entry(%q) = %+v %v compact, %+v %v full", in, k, ce, cok, fe, fok)
			}
		}
		if err := (Shelf{Root: t.TempDir()}).Save(compact); err == nil {
			t.Error("a compact manifest was saved")
		}
	}
	// Cases recorded alike share one entry in the compact form, whatever
	// their sums.
	compact := &Manifest{index: map[keySum]caseRef{}}
	if err := decodeManifest(strings.NewReader(inputs[5]), compact); err != nil {
		t.Fatal(err)
	}
	if len(compact.entries) != 1 || len(compact.sums) != 3*16 {
		t.Errorf("three cases alike but for their sums: %d entries, %d bytes of sums; want 1 and 48", len(compact.entries), len(compact.sums))
	}
	m := &Manifest{}
	decodeManifest(strings.NewReader(inputs[0]), m)
	x, y := m.Cases["a/x"].Files, m.Cases["a/y"].Files
	x["probe"] = "shared"
	if y["probe"] != "shared" {
		t.Error("identical entries are not shared")
	}
	for _, bad := range []string{`{"cases":{"a":1}}`, `{"cases":[]}`, `{} {}`, `{"cases":{"a":{}}`, `[]`} {
		if err := decodeManifest(strings.NewReader(bad), &Manifest{}); err == nil || json.Unmarshal([]byte(bad), &Manifest{}) == nil {
			t.Errorf("%s: decoded without error (%v)", bad, err)
		}
	}
}
