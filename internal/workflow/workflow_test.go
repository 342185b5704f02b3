package workflow

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"
	"github.com/searchbench/searchbench/lib/testenv"
)

const repo = "../.."

// TestWorkflowsLint runs actionlint (as a library) over every workflow.
func TestWorkflowsLint(t *testing.T) {
	lintWorkflows(t, "")
}

// TestWorkflowScriptsShellcheck runs actionlint again with shellcheck on
// the run: scripts (.ci/run installs shellcheck and requires it).
func TestWorkflowScriptsShellcheck(t *testing.T) {
	lintWorkflows(t, testenv.Tool(t, "", "shellcheck", "shellcheck"))
}

func lintWorkflows(t *testing.T, shellcheck string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(repo, ".github", "workflows", "*.yml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no workflow under .github/workflows (%v): docs/ci.md documents one", err)
	}
	var out strings.Builder
	l, err := actionlint.NewLinter(&out, &actionlint.LinterOptions{Shellcheck: shellcheck})
	if err != nil {
		t.Fatal(err)
	}
	errs, err := l.LintFiles(files, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range errs {
		t.Errorf("%s:%d:%d: %s [%s]", e.Filepath, e.Line, e.Column, e.Message, e.Kind)
	}
}

// The workflow runs the commands docs/ci.md shows.
func TestWorkflowMatchesDocs(t *testing.T) {
	wf, err := os.ReadFile(filepath.Join(repo, ".github", "workflows", "searchbench.yml"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(repo, "docs", "ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	ci, _, _ := strings.Cut(string(doc), "\n## How the workflow is tested\n")
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	for _, cmd := range []string{
		`bin/searchbench run --quiet --shard ${{ matrix.shard }}/4 --out out/shard-${{ matrix.shard }} --gates gates.yaml "$REFERENCE_FLAG" "$REFERENCE"`,
		`bin/searchbench merge -o merged/report.json --markdown merged/report.md --junit merged/junit.xml --html merged/report.html --gates gates.yaml "$REFERENCE_FLAG" "$REFERENCE" shards/*/report.json`,
		`cat merged/report.md >> "$GITHUB_STEP_SUMMARY"`,
		"bin/searchbench compare --markdown --allow-subset base-baseline.json merged/report.json",
	} {
		if !strings.Contains(flat(string(wf)), cmd) {
			t.Errorf("the workflow does not run %q", cmd)
		}
		if !strings.Contains(flat(ci), cmd) {
			t.Errorf("docs/ci.md does not show %q", cmd)
		}
	}
}

// TestCIScriptLint runs shellcheck on .ci/run, the script CI runs, and on
// the workflow's scripts: a
// comment that reads as a shellcheck directive, or a quoting slip, fails
// here rather than on CI's machine.
func TestCIScriptLint(t *testing.T) {
	testenv.Tool(t, "", "shellcheck", "shellcheck")
	scripts, _ := filepath.Glob(filepath.Join(repo, ".github", "scripts", "*.sh"))
	for _, f := range append([]string{filepath.Join(repo, ".ci", "run")}, scripts...) {
		out, err := exec.Command("shellcheck", f).CombinedOutput()
		if err != nil {
			t.Errorf("shellcheck %s: %v\n%s", f, err, out)
		}
	}
}
