package run_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/internal/cmd/root"
	"github.com/searchbench/searchbench/internal/cmdutil"
)

// TestOneSampleIsUnchanged: replaying one sample per case of the shipped
// shelves (some of which hold five) gives, byte for byte, the reports and
// the terminal output searchbench gave before samples existed. The files
// in testdata were written by the build before samples (the merge commit
// 2999cdd, on the datasets and cassettes of the commit that added samples;
// `searchbench run --quiet --out out --runs ""` and `run --out "" --runs ""`
// at the repository root). report.json and report.md were written again
// when the cost scorer gained dollars (issue 28): they differ from the
// originals only by the "usd" of each case and the cost.usd metrics.
func TestOneSampleIsUnchanged(t *testing.T) {
	t.Chdir("../../..")
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
		want, err := os.ReadFile(filepath.Join("internal/cmd/run/testdata", f.want))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s with --samples 1 differs from the report before samples (%s)", f.got, f.want)
		}
	}
	_ = stdout
	io, stdout, stderr = cmdutil.Test("")
	if code := root.Main(context.Background(), []string{"run", "--samples", "1", "--out", "", "--runs", ""}, io); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want, _ := os.ReadFile("internal/cmd/run/testdata/one-sample.stdout")
	if got := stdout.String(); got != string(want) {
		t.Errorf("terminal output with --samples 1 differs from before samples:\n%s", firstDiff(got, string(want)))
	}
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
