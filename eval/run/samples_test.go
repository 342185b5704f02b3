package run

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/score"
)

// A borderline routing question: the stand-in's seeded draws differ.
const borderline = "id:m-ubi-pilots"

func TestRecordAndReplaySamples(t *testing.T) {
	dir := t.TempDir()
	items := plan(t, shipped(t), borderline)
	v := shippedVariant(t, "seed")
	if err := Record(context.Background(), items, RecordOptions{Variant: v, Cassettes: dir, Backend: BackendSim, Samples: 4}); err != nil {
		t.Fatal(err)
	}
	shelf := Shelf{Root: dir, Variant: "seed", Mode: "model"}
	c := items[0].Case
	for k := 1; k <= 4; k++ {
		b, err := os.ReadFile(shelf.SamplePath(c, k))
		if err != nil {
			t.Fatal(err)
		}
		// Sample 1 is a one-sample recording (no seed); sample k sends seed k.
		hasSeed := bytes.Contains(b, []byte(`"seed":`))
		if k == 1 && hasSeed || k > 1 && !bytes.Contains(b, []byte(`"seed":`+string(rune('0'+k)))) {
			t.Errorf("sample %d: seed in its requests: %v", k, hasSeed)
		}
	}
	if !strings.HasSuffix(shelf.SamplePath(c, 3), "m-ubi-pilots.s3.yaml") || !strings.HasSuffix(shelf.SamplePath(c, 1), "m-ubi-pilots.yaml") {
		t.Errorf("sample paths %s, %s", shelf.SamplePath(c, 1), shelf.SamplePath(c, 3))
	}
	m, err := shelf.LoadManifest()
	if err != nil || m.Cases[c.Key()].Samples != 4 {
		t.Fatalf("manifest: %v %+v", err, m.Cases[c.Key()])
	}

	// A replay of every recorded sample, then of the first two.
	replayN := func(n int) *report.CaseRecord {
		t.Helper()
		var got *report.CaseRecord
		_, err := Replay(context.Background(), Slice(items), Options{Variant: v, Cassettes: dir, Scorers: score.All(), Samples: n,
			Done: func(r *report.CaseRecord) { got = r }}, report.Meta{}, report.Multi())
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	rec := replayN(0)
	if rec.Error != "" || len(rec.Samples) != 3 || rec.PassRate == nil {
		t.Fatalf("replay: error %q, %d further samples", rec.Error, len(rec.Samples))
	}
	for i, s := range rec.Samples {
		if s.Sample != i+2 || s.Error != "" {
			t.Errorf("sample %d: %+v", i+2, s)
		}
	}
	if two := replayN(2); len(two.Samples) != 1 {
		t.Errorf("--samples 2 replayed %d further samples", len(two.Samples))
	}

	// Asking for more than recorded is an input error naming the case.
	o := Options{Variant: v, Cassettes: dir, Samples: 5}
	var se *SamplesError
	if err := o.CheckSamples(Slice(items)); !errors.As(err, &se) || !strings.Contains(err.Error(), "1 with 4: routing/m-ubi-pilots") {
		t.Errorf("CheckSamples: %v", err)
	}
	if rec := replayN(5); !strings.Contains(rec.Error, "fewer samples than the 5 asked") {
		t.Errorf("a replay asking for 5 of 4 samples: %q", rec.Error)
	}

	// A missing sample makes the cassette missing.
	os.Rename(shelf.SamplePath(c, 3), shelf.SamplePath(c, 3)+".away")
	if chk := m.Check(shelf, v, c); chk.Status != StatusMissing {
		t.Errorf("sample 3 missing: status %s", chk.Status)
	}
	// ...and the replay's case an error counted in the summary, never a
	// run of "0 errors" scored on the samples that remain.
	var got *report.CaseRecord
	sum, err := Replay(context.Background(), Slice(items), Options{Variant: v, Cassettes: dir, Scorers: score.All(),
		Rerecord: func(c *dataset.Case, chk Check) string {
			return "record " + c.Key() + " " + chk.Status + " " + chk.Entry.Backend
		},
		Done: func(r *report.CaseRecord) { got = r }}, report.Meta{}, report.Multi())
	if err != nil {
		t.Fatal(err)
	}
	if sum.Errors != 1 || sum.Passed+sum.Failed != 0 {
		t.Errorf("a replay missing sample 3: %d errors, %d passed, %d failed; want the case an error", sum.Errors, sum.Passed, sum.Failed)
	}
	for _, want := range []string{"sample 3 of 4 (1 of its 4 sample cassettes missing)", "m-ubi-pilots.s3.yaml not found", "record routing/m-ubi-pilots missing sim"} {
		if !strings.Contains(got.Error, want) {
			t.Errorf("a replay missing sample 3: error %q, want it to say %q", got.Error, want)
		}
	}
	if len(got.Scores) != 0 || len(got.Samples) != 0 {
		t.Errorf("a case missing a sample cassette was scored: %d scores, %d samples", len(got.Scores), len(got.Samples))
	}
	os.Rename(shelf.SamplePath(c, 3)+".away", shelf.SamplePath(c, 3))

	// --stale with another number of samples re-records the case; fewer
	// samples remove the extra cassettes.
	if p, _ := Pending(items, shelf, v, 2); len(p) != 1 {
		t.Errorf("Pending with 2 samples: %d cases, want 1", len(p))
	}
	if p, _ := Pending(items, shelf, v, 4); len(p) != 0 {
		t.Errorf("Pending with the recorded 4 samples: %d cases", len(p))
	}
	if err := Record(context.Background(), items, RecordOptions{Variant: v, Cassettes: dir, Backend: BackendSim, Samples: 2}); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[int]bool{1: true, 2: true, 3: false, 4: false} {
		if _, err := os.Stat(shelf.SamplePath(c, k)); (err == nil) != want {
			t.Errorf("after recording 2 samples, sample %d exists: %v", k, err == nil)
		}
	}
	// Without --samples a re-recording keeps the recorded number.
	if err := Record(context.Background(), items, RecordOptions{Variant: v, Cassettes: dir, Backend: BackendSim}); err != nil {
		t.Fatal(err)
	}
	if m, _ := shelf.LoadManifest(); m.Cases[c.Key()].Samples != 2 {
		t.Errorf("re-recording without --samples: %d samples", m.Cases[c.Key()].Samples)
	}
}
