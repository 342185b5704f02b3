package synth

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/lib/testenv"
	"github.com/searchbench/searchbench/orchestrator/consent"
)

// files reads every file under dir, by slash path relative to dir.
func files(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestGenerateIsDeterministic(t *testing.T) {
	testenv.Slow(t)
	const n = 40
	a, b := t.TempDir(), t.TempDir()
	for _, d := range []string{a, b} {
		if err := Generate(d, n, 7); err != nil {
			t.Fatal(err)
		}
	}
	fa, fb := files(t, a), files(t, b)
	if len(fa) != len(fb) {
		t.Fatalf("%d files, then %d", len(fa), len(fb))
	}
	cassettes := 0
	for name, data := range fa {
		if !bytes.Equal(data, fb[name]) {
			t.Errorf("%s differs between two generations with the same seed", name)
		}
		if strings.HasPrefix(name, CassettesDir+"/") && strings.HasSuffix(name, ".yaml") {
			cassettes++
		}
	}
	// 60% routing and 30% flows cases, each with a cassette.
	if want := n*routingShare/100 + n*flowsShare/100; cassettes != want {
		t.Errorf("%d cassettes, want %d", cassettes, want)
	}

	other, err := datasets(n, 8)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(other["routing"], fa[DatasetsDir+"/routing.yaml"]) {
		t.Error("another seed gave the same routing dataset")
	}
}

func TestGeneratedSetReplays(t *testing.T) {
	dir := t.TempDir()
	if err := Generate(dir, 30, 1); err != nil {
		t.Fatal(err)
	}
	s, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	kinds, golds := map[string]int{}, 0
	for _, it := range s.Items {
		kinds[it.Case.Kind]++
		if it.Case.Answer != nil {
			golds++
		}
	}
	for _, k := range dataset.Kinds {
		if kinds[k] == 0 {
			t.Errorf("no %s case in a set of 30", k)
		}
	}
	// Cases with gold answers are graded (TestAllocsPerCase checks that
	// the 1,000-case set holds judge cassettes too).
	if golds == 0 {
		t.Errorf("no case with a gold answer in a set of 30")
	}
	// Replay fails on any case that could not run: every cassette must
	// answer exactly what the code asks.
	if err := s.Replay(Writers()); err != nil {
		t.Fatal(err)
	}
	if err := s.Decode(); err != nil {
		t.Fatal(err)
	}
}

// TestRepliesCarryTheirIntent: the generated expectations must be right, or
// the benchmark would measure a harness reporting failures it should not.
func TestRepliesCarryTheirIntent(t *testing.T) {
	check := func(reply, want string) {
		t.Helper()
		if got := consent.Decide(reply, true).Intent; string(got) != want {
			t.Errorf("reply %q: intent %s, want %s", reply, got, want)
		}
	}
	for _, r := range yesReplies {
		check(r, "YES")
	}
	for _, r := range noReplies {
		check(r, "NO")
	}
	for _, r := range searchReplies {
		check(r, "SEARCH_NOW")
	}
	for _, c := range consentReplies {
		check(c.reply, c.label)
	}
}

func TestCachedReusesASet(t *testing.T) {
	root := t.TempDir()
	d1, err := Cached(context.Background(), root, 5, 3)
	if err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(d1, "marker")
	if err := os.WriteFile(marker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	d2, err := Cached(context.Background(), root, 5, 3)
	if err != nil {
		t.Fatal(err)
	}
	if d2 != d1 {
		t.Errorf("second call: %s, want %s", d2, d1)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("the set was generated again: %v", err)
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 1 {
		t.Errorf("%d entries under the cache root, want 1 (no temporary folder left)", len(entries))
	}
	if err := Generate(t.TempDir(), 0, 1); err == nil {
		t.Error("Generate accepted 0 cases")
	}
}
