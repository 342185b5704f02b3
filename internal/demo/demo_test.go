package demo

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/searchbench/searchbench/lib/testenv"
)

func TestWorking(t *testing.T) {
	for rel, want := range map[string]bool{
		"cassettes/seed/model/routing/t-iphone-year.yaml": true,
		"reports/baseline.json":                           true,
		"datasets/routing.yaml":                           true,
		"config/executor.yaml":                            true,
		"gates.yaml":                                      true,
		"gates.accept.yaml":                               true,
		"prompts/seed/phase2.md":                          true,
		"prompts/my-variant/variant.yaml":                 true,
		"prompts/embed.go":                                false,
		"docs/gates.yaml":                                 false,
		"eval/gate/gate.go":                               false,
		"testdata/demo/datasets/routing.yaml":             false,
		"fixtures/scripts/seed.yaml":                      false,
		"Makefile":                                        false,
	} {
		if got := Working(rel); got != want {
			t.Errorf("Working(%q) = %v, want %v", rel, got, want)
		}
	}
}

// The tree takes the pinned data, never the root's working data.
func TestFilesTakeThePinnedData(t *testing.T) {
	testenv.Tool(t, "", "git", "git")
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	files, err := Files(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	for dst, src := range files {
		rel, err := filepath.Rel(root, src)
		if err != nil {
			t.Fatal(err)
		}
		rel = filepath.ToSlash(rel)
		if Working(rel) {
			t.Errorf("%s comes from the working data %s", dst, rel)
		}
		if Working(dst) && rel != Pinned+"/"+dst {
			t.Errorf("%s comes from %s, not from %s", dst, rel, Pinned)
		}
	}
	for _, want := range []string{"datasets/routing.yaml", "prompts/seed/phase2.md", "gates.yaml", "config/executor.yaml", "go.mod", "prompts/embed.go"} {
		if files[want] == "" {
			t.Errorf("the demo tree has no %s", want)
		}
	}
}

// The simulator is deterministic: two demo trees built from the same
// sources in two caches record the same bytes (cassettes, baseline,
// calibration). This is what keeps a replay byte-identical anywhere.
func TestRecordingIsReproducible(t *testing.T) {
	testenv.Slow(t)
	testenv.Tool(t, "", "git", "git")
	testenv.Tool(t, "", "make", "make")
	shared := Tree(t)
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	again, err := Build(context.Background(), root, t.TempDir(), t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, sub := range []string{"cassettes", "reports"} {
		err := filepath.WalkDir(filepath.Join(shared, sub), func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() || filepath.Base(p)[0] == '.' {
				return err
			}
			rel, _ := filepath.Rel(shared, p)
			a, _ := os.ReadFile(p)
			b, err := os.ReadFile(filepath.Join(again, rel))
			switch {
			case err != nil:
				t.Errorf("%s: in one build only: %v", rel, err)
			case !bytes.Equal(a, b):
				t.Errorf("%s: two recordings of the same sources differ", rel)
			}
			n++
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n < 1000 {
		t.Errorf("compared %d files: the demo tree is not the shipped demo", n)
	}
}
