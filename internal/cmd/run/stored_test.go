package run_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/internal/cmd/root"
	"github.com/searchbench/searchbench/internal/cmdutil"
)

// TestPartialRunsAreStoredApart: a filtered or erroring run never stands
// in for its variant's stored run, which compare finds by name; it is
// stored in <mode>.partial, compared only when named, and then only with
// --allow-subset when its cases differ.
func TestPartialRunsAreStoredApart(t *testing.T) {
	dir := workspace(t)
	runs := filepath.Join(dir, "runs")
	if code, _, errOut := sb(t, dir, "record", "--backend", "sim", "--variant", "routing-examples"); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	compare := func(args ...string) (int, string, string) {
		t.Helper()
		io, out, errOut := cmdutil.Test("")
		code := root.Main(context.Background(), append(append([]string{"compare"}, args...), "--runs", runs), io)
		return code, out.String(), errOut.String()
	}
	stored := func(variant, mode string) string {
		b, _ := os.ReadFile(filepath.Join(runs, variant, mode, "report.json"))
		return string(b)
	}

	if code, _, errOut := sb(t, dir, "run", "--quiet"); code != 0 || stored("seed", "model") == "" || strings.Contains(errOut, "stored apart") {
		t.Fatalf("a complete run: exit %d, stored %v, stderr %s", code, stored("seed", "model") != "", errOut)
	}

	// A filtered run goes to model.partial and says so.
	code, _, errOut := sb(t, dir, "run", "--quiet", "--variant", "routing-examples", "--filter", "dataset:routing")
	if code != 0 || stored("routing-examples", "model") != "" || stored("routing-examples", "model.partial") == "" {
		t.Fatalf("a filtered run: exit %d, stored as the variant's run %v, apart %v", code, stored("routing-examples", "model") != "", stored("routing-examples", "model.partial") != "")
	}
	for _, want := range []string{"this run is partial (filtered with --filter dataset:routing), so it is stored apart in " + filepath.ToSlash(filepath.Join(runs, "routing-examples", "model.partial")),
		"compare it with: searchbench compare seed routing-examples/model.partial --allow-subset"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("filtered run's stderr lacks %q:\n%s", want, errOut)
		}
	}
	// By name, there is no complete run to compare, and the message says
	// where the partial one is.
	code, _, errOut = compare("seed", "routing-examples")
	if code != cmdutil.ExitUsage || !strings.Contains(errOut, "no complete stored run of variant routing-examples in mode model") ||
		!strings.Contains(errOut, "its latest run was partial (filtered with --filter dataset:routing): compare it as routing-examples/model.partial") {
		t.Errorf("compare by name with only a partial run: exit %d\n%s", code, errOut)
	}
	// Named, it holds other cases: refused without --allow-subset.
	code, _, errOut = compare("seed", "routing-examples/model.partial")
	if code != cmdutil.ExitUsage || !strings.Contains(errOut, "hold different cases: 2 case(s) only in A (consent/yes, flows/yes-flow), 0 only in B, 2 in both; B was filtered with --filter dataset:routing") {
		t.Errorf("compare with a filtered run: exit %d\n%s", code, errOut)
	}
	code, out, errOut := compare("seed", "routing-examples/model.partial", "--allow-subset")
	if code != 0 || !strings.Contains(out, "\nSubset: only the 2 cases both reports hold are compared") {
		t.Errorf("--allow-subset: exit %d\n%s%s", code, out, errOut)
	}

	// A complete run is stored by name and retires the partial one.
	if code, _, errOut := sb(t, dir, "run", "--quiet", "--variant", "routing-examples"); code != 0 || stored("routing-examples", "model") == "" || stored("routing-examples", "model.partial") != "" {
		t.Fatalf("complete run: exit %d, stderr %s", code, errOut)
	}

	// A run with a case in error (a missing cassette) is stored apart too,
	// and compare by name warns that it compares the last complete run.
	before := stored("seed", "model")
	os.Remove(filepath.Join(dir, "cassettes", "seed", "model", "routing", "iphone.yaml"))
	code, _, errOut = sb(t, dir, "run", "--quiet")
	if code != cmdutil.ExitInfra || stored("seed", "model") != before || !strings.Contains(stored("seed", "model.partial"), "not found") {
		t.Fatalf("an erroring run: exit %d, the stored run changed %v\n%s", code, stored("seed", "model") != before, errOut)
	}
	if !strings.Contains(errOut, "note: this run is partial (1 of its 4 cases could not run), so it is stored apart in ") {
		t.Errorf("erroring run's stderr:\n%s", errOut)
	}
	code, out, errOut = compare("seed", "routing-examples")
	// The warning wraps to the width: compare its words.
	if code != 0 || !strings.Contains(strings.Join(strings.Fields(out), " "), "warning: the latest run of seed/model was partial (1 of its 4 cases could not run) and is stored apart in ") {
		t.Errorf("compare by name with a later partial run: exit %d\n%s%s", code, out, errOut)
	}
}
