package run_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/internal/cmd/root"
	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/internal/demo"
)

// TestOneSampleIsUnchanged: replaying one sample per case of the shipped
// shelves (some of which hold five) gives, byte for byte, the reports and
// the terminal output searchbench gave before samples existed. The files
// in testdata were written by the build before samples (the merge commit
// 2999cdd, on the datasets and cassettes of the commit that added samples;
// `searchbench run --quiet --out out --runs ""` and `run --out "" --runs ""`
// at the repository root). The run sees the datasets of that time
// (preSamplesTree). report.json and report.md were rewritten since, each
// diff checked to be only its issue's change: issue 26, the held-out reply
// "no that's plenty, thanks" is decided by no.word (now a phrase) rather
// than no.decline; issue 28, the "usd" of each case and the cost.usd
// metrics.
// updateOneSample rewrites the one-sample goldens: only for a change that
// moves every report on purpose (a new scorer field), its diff reviewed.
var updateOneSample = flag.Bool("update-one-sample", false, "rewrite testdata/one-sample.* from this build")

func TestOneSampleIsUnchanged(t *testing.T) {
	testdata, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(preSamplesTree(t, demo.Tree(t)))
	out := t.TempDir()
	io, stdout, stderr := cmdutil.Test("")
	if code := root.Main(context.Background(), []string{"run", "--quiet", "--samples", "1", "--out", out, "--runs", ""}, io); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, f := range []struct{ got, want string }{
		{"report.json", "one-sample.report.json"},
		{"report.md", "one-sample.report.md"},
		{"junit.xml", "one-sample.junit.xml"},
	} {
		got, err := os.ReadFile(filepath.Join(out, f.got))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(testdata, f.want))
		if err != nil {
			t.Fatal(err)
		}
		if *updateOneSample {
			if err := os.WriteFile(filepath.Join(testdata, f.want), got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s with --samples 1 differs from the report before samples (%s; after a change that moves the report on purpose, go test -run TestOneSampleIsUnchanged -update-one-sample and review the diff)", f.got, f.want)
		}
	}
	_ = stdout
	io, stdout, stderr = cmdutil.Test("")
	if code := root.Main(context.Background(), []string{"run", "--samples", "1", "--out", "", "--runs", ""}, io); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if *updateOneSample {
		if err := os.WriteFile(filepath.Join(testdata, "one-sample.stdout"), stdout.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, _ := os.ReadFile(filepath.Join(testdata, "one-sample.stdout"))
	if got := stdout.String(); got != string(want) {
		t.Errorf("terminal output with --samples 1 differs from before samples:\n%s", firstDiff(got, string(want)))
	}
}

// preSamplesTree returns a folder that mirrors the repository at root
// through symbolic links, but whose datasets folder holds only the datasets
// there were before samples, so that the run reads them by the same
// relative paths ("datasets/consent.yaml") as the build that wrote testdata.
func preSamplesTree(t *testing.T, root string) string {
	t.Helper()
	root, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() == "datasets" {
			continue
		}
		if err := os.Symlink(filepath.Join(root, e.Name()), filepath.Join(dir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "datasets"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"consent.yaml", "consent-heldout.yaml", "flows.yaml", "parser.yaml", "routing.yaml"} {
		if err := os.Symlink(filepath.Join(root, "datasets", name), filepath.Join(dir, "datasets", name)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n got: %s\nwant: %s", i+1, al[i], bl[i])
		}
	}
	return "lengths differ"
}
