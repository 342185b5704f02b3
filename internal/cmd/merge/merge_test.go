package merge_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/report/reporttest"
	"github.com/searchbench/searchbench/internal/cmd/root"
	"github.com/searchbench/searchbench/internal/cmdutil"
)

var update = flag.Bool("update", false, "rewrite the expected output in testdata/script")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"searchbench": func() { os.Exit(root.Main(context.Background(), os.Args[1:], cmdutil.System())) },
	})
}

// TestScripts runs testdata/script/*.txtar with the fixed run split in two
// shards (shard1.json, shard2.json), the unsharded run (whole.json) and a
// shard of another variant (other.json) in the work directory.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           filepath.Join("testdata", "script"),
		UpdateScripts: *update,
		Setup: func(env *testscript.Env) error {
			meta, recs := reporttest.Run()
			write := func(name string, m report.Meta, rs []*report.CaseRecord) error {
				return os.WriteFile(filepath.Join(env.WorkDir, name), reporttest.JSON(m, rs), 0o644)
			}
			if err := write("whole.json", meta, recs); err != nil {
				return err
			}
			var parts [2][]*report.CaseRecord
			for _, r := range recs {
				parts[r.Seq%2] = append(parts[r.Seq%2], r)
			}
			for k, p := range parts {
				m := meta
				m.Shard = []string{"1/2", "2/2"}[k]
				if err := write([]string{"shard1.json", "shard2.json"}[k], m, p); err != nil {
					return err
				}
			}
			other := meta
			other.Shard, other.Variant = "2/2", "routing-examples"
			return write("other.json", other, parts[1])
		},
	})
}
