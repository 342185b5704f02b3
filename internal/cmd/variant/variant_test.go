package variant_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/internal/cmd/root"
	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/internal/demo"
	"github.com/searchbench/searchbench/orchestrator/prompts"
)

func sb(args ...string) (int, string, string) {
	io, out, errOut := cmdutil.Test("")
	code := root.Main(context.Background(), args, io)
	return code, out.String(), errOut.String()
}

// copyVariant copies a shipped variant's folder into dir.
func copyVariant(t *testing.T, dir, name string) {
	t.Helper()
	src := filepath.Join("../../../testdata/demo/prompts", name)
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, name), 0o755)
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(src, e.Name()))
		os.WriteFile(filepath.Join(dir, name, e.Name()), b, 0o644)
	}
}

func TestNew(t *testing.T) {
	dir := t.TempDir()
	copyVariant(t, dir, "seed")
	copyVariant(t, dir, "routing-examples")
	from, _ := prompts.Load(dir, "routing-examples")

	code, out, errOut := sb("variant", "new", "tuned", "--prompts", dir, "--from", "routing-examples")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	v, err := prompts.Load(dir, "tuned")
	if err != nil {
		t.Fatal(err)
	}
	// An exact copy of what it started from: same hash, its own files
	// only those to edit and those routing-examples changed.
	if v.Hash != from.Hash || strings.Join(v.Own, ",") != "phase2.md,variant.yaml" {
		t.Errorf("tuned: hash %s (want %s), own %v", v.Hash, from.Hash, v.Own)
	}
	for _, want := range []string{"created " + filepath.ToSlash(filepath.Join(dir, "tuned")) + "/ from routing-examples", "--sim-policy routing-examples", "--prompts " + dir, "searchbench compare routing-examples tuned"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, ".new-*")); len(leftovers) > 0 {
		t.Errorf("temporary folders left: %v", leftovers)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"variant", "new", "tuned", "--prompts", dir}, "already exists"},
		{[]string{"variant", "new", "Bad/Name", "--prompts", dir}, "invalid variant name"},
		{[]string{"variant", "new", "x", "--prompts", dir, "--files", "phase3.md"}, `--files: unknown file "phase3.md"`},
		{[]string{"variant", "new", "x", "--prompts", dir, "--from", "nope"}, `unknown prompt variant "nope"`},
	} {
		if code, _, errOut := sb(tc.args...); code != cmdutil.ExitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q (want %q)", tc.args, code, errOut, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x")); err == nil {
		t.Error("a refused variant new left a folder")
	}
}

// TestList: the shipped variants with their hashes and cassette counts; a
// changed prompt shows as stale cassettes with the file named; an invalid
// variant is listed and makes the command exit 2 with its problems.
func TestList(t *testing.T) {
	dir := t.TempDir()
	copyVariant(t, dir, "seed")
	copyVariant(t, dir, "routing-examples")
	code, out, errOut := sb("variant", "list", "--prompts", dir, "--cassettes", filepath.Join(demo.Tree(t), "cassettes"))
	seed, _ := prompts.Load(dir, "seed")
	if code != 0 || !strings.Contains(out, "│ seed ") || !strings.Contains(out, seed.Hash) || strings.Count(strings.Join(strings.Fields(strings.ReplaceAll(out, "│", " ")), " "), "113 113") != 2 || strings.Count(out, "current") != 4 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	f := filepath.Join(dir, "routing-examples", "phase2.md")
	b, _ := os.ReadFile(f)
	os.WriteFile(f, append(b, '.'), 0o644)
	os.MkdirAll(filepath.Join(dir, "broken"), 0o755)
	os.WriteFile(filepath.Join(dir, "broken", "variant.yaml"), []byte("temperature: hot\n"), 0o644)
	code, out, errOut = sb("variant", "list", "--wide", "--prompts", dir, "--cassettes", filepath.Join(demo.Tree(t), "cassettes"))
	if code != cmdutil.ExitUsage || !strings.Contains(out, "stale (phase2.md changed)") || !strings.Contains(out, "(invalid)") ||
		!strings.Contains(errOut, "broken/variant.yaml:1: temperature: want a number from 0 to 2") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
}
