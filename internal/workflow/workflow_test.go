package workflow

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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
	gate, err := os.ReadFile(filepath.Join(repo, ".github", "scripts", "gate.sh"))
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{
		`bin/searchbench run --quiet --mode "$MODE" --shard "$SHARD/2" --out "out/shard-$MODE-$SHARD"`,
		`bin/searchbench merge -o "merged/$mode/report.json" --markdown "merged/$mode/report.md" --junit "merged/$mode/junit.xml" --html "merged/$mode/report.html" --gates gates.yaml "$REFERENCE_FLAG" "$(bash .github/scripts/reference.sh "$mode")" shards/shard-"$mode"-*/report.json`,
		`cat merged/report.md >> "$GITHUB_STEP_SUMMARY"`,
		"bin/searchbench compare --markdown --allow-subset base-baseline.json merged/model/report.json",
		`bash .github/scripts/bench.sh "$BASE_SHA" >> "$GITHUB_STEP_SUMMARY"`,
	} {
		if !strings.Contains(flat(string(wf)), cmd) && !strings.Contains(flat(strings.ReplaceAll(string(gate), "\\\n", " ")), cmd) {
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

// TestCommentFoundByMarker: the workflow's comment script posts a new
// comment on a pull request without one, and edits its own (found by the
// marker line, never gh's --edit-last) on the next push.
func TestCommentFoundByMarker(t *testing.T) {
	testenv.Tool(t, "", "bash", "bash")
	dir := t.TempDir()
	writeGHStub(t, dir)
	body := filepath.Join(dir, "comment.md")
	log := filepath.Join(dir, "gh.log")
	comment := func(text string) string {
		t.Helper()
		if err := os.WriteFile(body, []byte("<!-- searchbench-verdict -->\n"+text+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Remove(log)
		cmd := exec.Command("bash", filepath.Join(repo, ".github", "scripts", "comment.sh"), body)
		cmd.Env = append(os.Environ(), "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"), "GH_LOG="+log, "PR=7", "REPO=team/searchbench")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("comment.sh: %v\n%s", err, out)
		}
		b, _ := os.ReadFile(log)
		return string(b)
	}
	first := comment("gate: PASS")
	if !strings.Contains(first, "\npr comment 7 --body-file "+body+"\n<!-- searchbench-verdict -->\ngate: PASS\n") || strings.Contains(first, "--edit-last") {
		t.Errorf("first push: gh calls\n%s", first)
	}
	if !strings.Contains(first, `select(.user.login == "github-actions[bot]" and (.body | startswith("<!-- searchbench-verdict -->")))`) {
		t.Errorf("the comment is not looked up by its author and marker:\n%s", first)
	}
	second := comment("gate: FAIL")
	if !strings.Contains(second, "\napi --method PATCH repos/team/searchbench/issues/comments/101 -F body=@"+body+"\n<!-- searchbench-verdict -->\ngate: FAIL\n") || strings.Contains(second, "pr comment") {
		t.Errorf("second push: want the comment edited, gh calls\n%s", second)
	}
	if err := os.WriteFile(body, []byte("no marker\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", filepath.Join(repo, ".github", "scripts", "comment.sh"), body)
	cmd.Env = append(os.Environ(), "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"), "GH_LOG="+log, "PR=7", "REPO=team/searchbench")
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "does not start with a marker line") {
		t.Errorf("a body without a marker: %v\n%s", err, out)
	}
}

// TestWorkflowIsHardened: every action pinned by commit SHA with its
// version in a comment, no checkout keeping the token (every job runs the
// pull request's code), a time limit on every job, cancel-in-progress for
// pull requests only, and the comment found by its marker.
func TestWorkflowIsHardened(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repo, ".github", "workflows", "searchbench.yml"))
	if err != nil {
		t.Fatal(err)
	}
	usesRE := regexp.MustCompile(`^\s*(- )?uses: [a-z0-9-]+/[a-z0-9-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$`)
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, "uses:") && !usesRE.MatchString(l) {
			t.Errorf("searchbench.yml:%d: %q: pin the action by commit SHA, its version in a comment (uses: owner/repo@<sha> # vX.Y.Z)", i+1, strings.TrimSpace(l))
		}
	}
	if strings.Contains(string(data), "--edit-last") {
		t.Error("the workflow edits gh's last comment, which may be another bot's: find it by its marker (.github/scripts/comment.sh)")
	}
	wf, errs := actionlint.Parse(data)
	if len(errs) > 0 {
		t.Fatalf("the workflow does not parse: %v", errs[0])
	}
	if c := wf.Concurrency; c == nil || c.CancelInProgress == nil || c.CancelInProgress.Expression == nil ||
		strings.Join(strings.Fields(c.CancelInProgress.Expression.Value), " ") != "${{ github.event_name == 'pull_request' }}" {
		t.Error("cancel-in-progress must be ${{ github.event_name == 'pull_request' }}: a newer push cancels a pull request's run, never the release gate on main")
	}
	for id, j := range wf.Jobs {
		if j.TimeoutMinutes == nil {
			t.Errorf("job %s has no timeout-minutes", id)
		}
		checkouts := 0
		for _, s := range j.Steps {
			e, ok := s.Exec.(*actionlint.ExecAction)
			if !ok || !strings.HasPrefix(e.Uses.Value, "actions/checkout@") {
				continue
			}
			checkouts++
			if in := e.Inputs["persist-credentials"]; in == nil || in.Value.Value != "false" {
				t.Errorf("job %s: actions/checkout keeps the token in .git/config while the pull request's code runs: set persist-credentials: false", id)
			}
		}
		if checkouts != 1 {
			t.Errorf("job %s has %d checkouts, want 1", id, checkouts)
		}
	}
}
