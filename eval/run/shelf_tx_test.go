package run

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/eval/vcr"
)

// TestCassetteTheManifestDoesNotDescribeIsRefused: a recording killed (or
// out of disk) after writing a case's cassette and before recorded.json
// leaves the new cassette beside the old entry. The replay refuses it with
// the re-record command and record --stale takes it up again.
func TestCassetteTheManifestDoesNotDescribeIsRefused(t *testing.T) {
	dir := t.TempDir()
	items := plan(t, shipped(t), "id:t-iphone-year")
	record(t, dir, "seed", "model", items)
	shelf := Shelf{Root: dir, Variant: "seed", Mode: "model"}
	c := items[0].Case
	m, err := shelf.LoadManifest()
	if err != nil {
		t.Fatal(err)
	}
	e := m.Cases[c.Key()]
	if len(e.Sums) != 1 || !shelf.Verify(c, e) {
		t.Fatalf("entry %+v: want one sum that verifies", e)
	}
	if _, sum := replay(t, dir, items, 1); sum.Errors != 0 {
		t.Fatalf("a fresh recording does not replay: %+v", sum)
	}
	// Another recording of the case (sample 2 of a two-sample one: its
	// requests carry a seed) whose manifest never reached the disk.
	other := t.TempDir()
	if err := Record(context.Background(), items, RecordOptions{Variant: shippedVariant(t, "seed"), Cassettes: other, Backend: BackendSim, Samples: 2}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(Shelf{Root: other, Variant: "seed", Mode: "model"}.SamplePath(c, 2))
	if err != nil {
		t.Fatal(err)
	}
	if old, _ := os.ReadFile(shelf.Path(c)); string(old) == string(b) {
		t.Fatal("the two policies recorded the same cassette; the test shows nothing")
	}
	if err := os.WriteFile(shelf.Path(c), b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, sum := replay(t, dir, items, 1)
	if sum.Errors != 1 || !strings.Contains(string(out), "is not the one recorded.json describes") || !strings.Contains(string(out), "re-record it with: searchbench record") {
		t.Fatalf("a cassette recorded.json does not describe replayed: errors %d\n%.600s", sum.Errors, out)
	}
	pending, err := Pending(items, shelf, shippedVariant(t, "seed"), 0)
	if err != nil || len(pending) != 1 {
		t.Fatalf("record --stale would take up %d cases (%v), want the changed one", len(pending), err)
	}
	// The error is a *vcr.ChangedError for whoever maps errors.
	_, err = Replay(context.Background(), Slice(items), Options{Variant: shippedVariant(t, "seed"), Cassettes: dir, Scorers: score.All(),
		Done: func(r *report.CaseRecord) {
			if !strings.Contains(r.Error, "sum ") {
				t.Errorf("case error %q", r.Error)
			}
		}}, report.Meta{}, report.Multi())
	if err != nil {
		t.Fatal(err)
	}
	var ce *vcr.ChangedError
	_, oerr := vcr.OpenReplayWith(shelf.Path(c), vcr.ReplayOptions{Sum: e.Sum(1)})
	if !errors.As(oerr, &ce) {
		t.Errorf("OpenReplayWith: %v, want a *ChangedError", oerr)
	}
}
