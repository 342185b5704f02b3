package root_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"

	"github.com/searchbench/searchbench/internal/cmd/root"
	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/lib/testenv"
)

// maxColumns is the width every command's default output fits in a pipe.
const maxColumns = 100

// TestEveryOutputFits100Columns runs every command on the shipped data
// (datasets, cassettes, prompts, gates.yaml, the baseline) with its
// default output going to a pipe, and fails on any line of stdout wider
// than 100 columns (display width: East Asian wide runes count two).
//
// Left out: ask and sim talk to a model or serve one, and prompt prints
// the executor's system prompt verbatim (its text is the product, not a
// report of it).
func TestEveryOutputFits100Columns(t *testing.T) {
	testenv.Slow(t) // replays the shipped datasets several times
	tmp := t.TempDir()
	t.Chdir("../../..")
	tmpf := func(name string) string { return filepath.Join(tmp, name) }
	if err := os.WriteFile(tmpf("phase1.md"), []byte("### Phase 1 – Immediate Answer (Unverified)\nGo 1.0 was released in March 2012.\n\nWould you like me to search the web with Tavily?\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := copyTree("cassettes", tmpf("cassettes")); err != nil {
		t.Fatal(err)
	}
	gated := []string{"--gates", "gates.yaml", "--baseline", "reports/baseline.json"}
	runs := []string{"--runs", tmpf("runs")}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"run", append([]string{"run", "--out", tmpf("latest")}, runs...)},
		{"run --quiet (the gate)", append(append([]string{"run", "--quiet", "--out", tmpf("gated")}, gated...), runs...)},
		{"run --variant routing-examples", append([]string{"run", "--variant", "routing-examples", "--out", ""}, runs...)},
		{"run --samples 1", []string{"run", "--samples", "1", "--out", "", "--runs", ""}},
		{"run --filter dataset:flows", []string{"run", "--filter", "dataset:flows", "--out", "", "--runs", ""}},
		{"run --shard 1/2", []string{"run", "--quiet", "--shard", "1/2", "--out", tmpf("s1"), "--runs", ""}},
		{"run --shard 2/2", []string{"run", "--quiet", "--shard", "2/2", "--out", tmpf("s2"), "--runs", ""}},
		{"compare", append([]string{"compare", "seed", "routing-examples"}, runs...)},
		{"compare -v", append([]string{"compare", "-v", "seed", "routing-examples"}, runs...)},
		{"merge", append([]string{"merge", "-o", tmpf("merged.json"), tmpf("s1/report.json"), tmpf("s2/report.json")}, gated...)},
		{"gate", append([]string{"gate", tmpf("merged.json")}, gated...)},
		{"variant list", []string{"variant", "list"}},
		{"record --estimate", []string{"record", "--estimate", "--filter", "dataset:routing"}},
		{"record", []string{"record", "--backend", "sim", "--cassettes", tmpf("cassettes"), "--filter", "dataset:flows", "--samples", "1"}},
		{"power --effect", []string{"power", "--effect", "5pp"}},
		{"power --cases", []string{"power", "--cases", "100"}},
		{"check codes", []string{"check", "codes"}},
		{"check phase1", []string{"check", "phase1", tmpf("phase1.md")}},
		{"classify", []string{"classify", "--rules-only", "What are current EU AI regulations?"}},
		{"classify --awaiting-consent", []string{"classify", "--rules-only", "--awaiting-consent", "no thanks, but what about Y?"}},
		{"parse", []string{"parse", "--strategy", "guided_json", "internal/cmd/parse/testdata/guided.txt"}},
		{"--help", []string{"--help"}},
		{"run --help", []string{"run", "--help"}},
		{"record --help", []string{"record", "--help"}},
		{"compare --help", []string{"compare", "--help"}},
		{"gate --help", []string{"gate", "--help"}},
	} {
		io, out, errOut := cmdutil.Test("")
		code := root.Main(context.Background(), c.args, io)
		if code != cmdutil.ExitOK && code != cmdutil.ExitFail {
			t.Errorf("%s: exit %d\n%s", c.name, code, errOut)
			continue
		}
		if out.Len() == 0 && !strings.HasPrefix(c.name, "run --shard") {
			t.Errorf("%s: printed nothing", c.name)
		}
		for i, line := range strings.Split(out.String(), "\n") {
			if w := runewidth.StringWidth(line); w > maxColumns {
				t.Errorf("%s: line %d is %d columns wide (more than %d):\n%s", c.name, i+1, w, maxColumns, line)
			}
		}
	}
}

// copyTree copies the folder src to dst.
func copyTree(src, dst string) error {
	return os.CopyFS(dst, os.DirFS(src))
}
