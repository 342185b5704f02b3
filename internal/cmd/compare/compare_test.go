package compare_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/report/reporttest"
	"github.com/searchbench/searchbench/internal/cmd/root"
	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

var update = flag.Bool("update", false, "rewrite the expected output in testdata/script")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"searchbench": func() { os.Exit(root.Main(context.Background(), os.Args[1:], cmdutil.System())) },
	})
}

// reportFile writes a routing run of variant in which the cases marked
// true route correctly.
func reportFile(dir, name, variant string, right []bool) error {
	var recs []*report.CaseRecord
	for i, r := range right {
		tool := trace.ToolTavily
		if r {
			tool = trace.ToolExa
		}
		recs = append(recs, reporttest.Routing(i, fmt.Sprintf("q%02d", i), "exa_only", reporttest.OKMessage(), tool))
	}
	return os.WriteFile(filepath.Join(dir, name), reporttest.JSON(reporttest.Meta(variant), recs), 0o644)
}

// TestScripts runs testdata/script/*.txtar against the real command tree,
// with seed.json (12 of 16 routed right) and better.json (the same cases,
// 10 more right, 1 fewer) in the work directory.
func TestScripts(t *testing.T) {
	seed := make([]bool, 16)
	better := make([]bool, 16)
	for i := range seed {
		seed[i] = i < 4
		better[i] = i > 0 && i < 15
	}
	testscript.Run(t, testscript.Params{
		Dir:           filepath.Join("testdata", "script"),
		UpdateScripts: *update,
		Setup: func(env *testscript.Env) error {
			if err := reportFile(env.WorkDir, "seed.json", "seed", seed); err != nil {
				return err
			}
			return reportFile(env.WorkDir, "better.json", "routing-examples", better)
		},
	})
}
