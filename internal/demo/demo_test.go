package demo

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
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

// TestKeyCoversWhatTestsRun: a change to a page or a test reuses the tree;
// a change to the code or to a script a test runs from the tree (the
// workflow's, CI's) builds another.
func TestKeyCoversWhatTestsRun(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for _, n := range []string{"README.md", "eval/gate/gate_test.go", "eval/gate/gate.go", ".github/scripts/bench.sh", ".github/workflows/searchbench.yml", ".ci/run"} {
		p := filepath.Join(dir, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("v1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		files[n] = p
	}
	base, err := key(files)
	if err != nil {
		t.Fatal(err)
	}
	for n, p := range files {
		if err := os.WriteFile(p, []byte("v2\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		k, err := key(files)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("v1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		reused := strings.HasSuffix(n, ".md") || strings.HasSuffix(n, "_test.go")
		if (k == base) != reused {
			t.Errorf("a change to %s: key changed %v, want %v", n, k != base, !reused)
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

// TestTestsOwnTheirData: no test names the repository's working data (a
// path that climbs to the root and enters cassettes/, reports/,
// datasets/, config/, prompts/ or a gates file); they read the demo tree
// (Tree, Source). A line that must read the working data on purpose says
// why in a "demo:working" comment.
func TestTestsOwnTheirData(t *testing.T) {
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	working := regexp.MustCompile(`"((?:\.\./)+)(cassettes|reports|datasets|config|prompts|gates\.yaml|gates\.accept\.yaml)\b`)
	n := 0
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata" && p != root) {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		depth := strings.Count(filepath.ToSlash(rel), "/")
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		for i, line := range strings.Split(string(b), "\n") {
			for _, m := range working.FindAllStringSubmatch(line, -1) {
				if strings.Count(m[1], "../") == depth && !strings.Contains(line, "demo:working") {
					t.Errorf("%s:%d: %q reads the working %s; read the demo tree (internal/demo: Tree, Source)", rel, i+1, m[0][1:], m[2])
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Errorf("read %d test files: not the repository", n)
	}
}
