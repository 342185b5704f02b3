package run_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/searchbench/searchbench/lib/fsutil"
)

// TestRunDuringRecordReadsManifestUnderLock: a run started while a
// recording holds the shelf waits for it, then replays the cassettes with
// the recorded.json the recording left, not the one it found before
// waiting (finding: 21 cases "not the one recorded.json describes").
func TestRunDuringRecordReadsManifestUnderLock(t *testing.T) {
	dir := workspace(t)
	// Cases the two policies answer differently.
	os.WriteFile(filepath.Join(dir, "datasets", "routing.yaml"), []byte(`kind: routing
cases:
  - id: m-carbon-pricing-paris
    query: How has carbon pricing developed since the Paris Agreement, and which countries have the highest carbon prices today?
    label: tavily_plus_exa
  - id: m-alphafold-nobel
    query: How did AlphaFold change protein structure prediction, and who received the 2024 Nobel Prize for it?
    label: tavily_plus_exa
`), 0o644)
	if code, _, errOut := sb(t, dir, "record", "--backend", "sim"); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	other := filepath.Join(dir, "other")
	if code, _, errOut := sb(t, dir, "record", "--backend", "sim", "--sim-policy", "routing-examples", "--cassettes", other); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	shelf := filepath.Join(dir, "cassettes", "seed", "model")
	newShelf := filepath.Join(other, "seed", "model")
	// The second recording must differ somewhere, or the test proves nothing.
	differs := false
	filepath.WalkDir(newShelf, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".yaml" {
			return err
		}
		rel, _ := filepath.Rel(newShelf, p)
		a, _ := os.ReadFile(filepath.Join(shelf, rel))
		b, _ := os.ReadFile(p)
		differs = differs || !bytes.Equal(a, b)
		return nil
	})
	if !differs {
		t.Fatal("the two policies recorded the same cassettes")
	}

	// A recording holds the shelf. The run starts, finds it held, and
	// waits; meanwhile the recording replaces cassettes and recorded.json.
	unlock, err := fsutil.LockDir(shelf)
	if err != nil {
		t.Fatal(err)
	}
	waiting := make(chan struct{})
	fsutil.OnWait = func(d string) {
		if filepath.Clean(d) == filepath.Clean(shelf) {
			close(waiting)
		}
	}
	defer func() { fsutil.OnWait = nil }()
	type result struct {
		code        int
		out, errOut string
	}
	done := make(chan result)
	go func() {
		code, out, errOut := sb(t, dir, "run", "--quiet", "--out", "", "--runs", "")
		done <- result{code, out, errOut}
	}()
	<-waiting
	if err := os.CopyFS(shelf+".new", os.DirFS(newShelf)); err != nil {
		t.Fatal(err)
	}
	filepath.WalkDir(shelf+".new", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(shelf+".new", p)
			err = os.Rename(p, filepath.Join(shelf, rel))
		}
		return err
	})
	unlock()
	r := <-done
	if r.code != 0 {
		t.Fatalf("a run that waited for the recording: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.out, r.errOut)
	}
}
