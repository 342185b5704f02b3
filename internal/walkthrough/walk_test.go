package walkthrough

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/searchbench/searchbench/eval/vcr"
	"github.com/searchbench/searchbench/internal/cmd/root"
	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/internal/demo"
	"github.com/searchbench/searchbench/lib/testenv"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"searchbench": func() { os.Exit(root.Main(context.Background(), os.Args[1:], cmdutil.System())) },
	})
}

// repoRoot is the repository, two folders up.
const repoRoot = "../.."

// A walk is the part of a page a script walks: every ```sh block of one
// section of one file (the section's heading line and what follows it, up
// to the next heading of any level), in order.
type walk struct {
	file    string // relative to the repository's root
	section string // the heading line, "## Quick start"
}

// walks maps each script to the section whose ```sh blocks it walks.
// TestEveryShBlockIsWalked checks that every ```sh block of README.md and
// docs/*.md is in one of these sections or carries a visible exemption.
var walks = map[string]walk{
	"quick-start.txtar":   {"README.md", "## Quick start"},
	"everyday-loop.txtar": {"README.md", "## Tuning a prompt: the everyday loop"},
	"samples.txtar":       {"docs/statistics.md", "## Samples: one draw per case can mislead"},
	"live-estimate.txtar": {"docs/record-replay.md", "## Recording from the live services"},
	"ask-sim.txtar":       {"docs/assistant.md", "### Without keys"},
	"ci-prompt-pr.txtar":  {"docs/ci.md", "## A prompt pull request, step by step"},
}

// TestWalkthroughs runs every script in a fresh copy of the demo tree
// (internal/demo): the code as it is now, files not yet committed
// included, with the pinned demo data and its recordings, never the team's
// working cassettes, baseline and prompts. The scripts run make and go as a
// user does; neither may be missing (a skipped walk would be a vacuous
// pass).
func TestWalkthroughs(t *testing.T) {
	testenv.Slow(t)
	tree := demo.Tree(t)
	goEnv := map[string]string{}
	for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOROOT"} {
		out, err := exec.Command("go", "env", k).Output()
		if err != nil {
			t.Fatalf("go env %s: %v (the walkthroughs need the go command)", k, err)
		}
		goEnv[k] = strings.TrimSpace(string(out))
	}
	if _, err := exec.LookPath("make"); err != nil {
		t.Fatal("the walkthroughs run make, which is not on PATH")
	}
	testscript.Run(t, testscript.Params{
		Dir: "testdata",
		Setup: func(env *testscript.Env) error {
			if err := demo.CopyTree(tree, env.WorkDir); err != nil {
				return err
			}
			for k, v := range goEnv {
				env.Setenv(k, v)
			}
			// Offline: every module comes from the local cache.
			env.Setenv("GOPROXY", "off")
			env.Setenv("GOTOOLCHAIN", "local")
			env.Setenv("GOFLAGS", "-mod=readonly")
			// The decoded-cassette cache goes in the script's own folder,
			// never the user's.
			env.Setenv(vcr.CacheEnv, filepath.Join(env.Getenv("TMPDIR"), "searchbench-cache"))
			return nil
		},
	})
}

// TestScriptsFollowDocs: each script runs its section's commands, every one
// of them, in the page's order. A command a script cannot run literally (an
// editor) is a "# doc: command" comment followed by what the script does
// instead.
func TestScriptsFollowDocs(t *testing.T) {
	for script, w := range walks {
		t.Run(script, func(t *testing.T) {
			page := readPage(t, w.file)
			want, err := sectionCommands(page, w.section)
			if err != nil {
				t.Fatalf("%s: %v", w.file, err)
			}
			if len(want) == 0 {
				t.Fatalf("%s section %q has no command in a ```sh block", w.file, w.section)
			}
			b, err := os.ReadFile(filepath.Join("testdata", script))
			if err != nil {
				t.Fatal(err)
			}
			got := scriptCommands(string(b))
			// want must be a subsequence of got: the script may check
			// more between the page's steps, never skip or reorder one.
			i := 0
			for _, c := range got {
				if i < len(want) && c == want[i] {
					i++
				}
			}
			if i < len(want) {
				t.Errorf("%s does not run step %d of %s %q, %q, in order.\npage:   %q\nscript: %q", script, i+1, w.file, w.section, want[i], want, got)
			}
		})
	}
}

// TestEveryShBlockIsWalked: every ```sh block of README.md and docs/*.md is
// walked by a script, or says visibly why not, on the line before it:
//
//	<!-- not walked: REASON -->               (keys, minutes of benchmarking)
//	<!-- walked by internal/workflow -->      (lines quoted from the CI workflow,
//	                                           which internal/workflow runs; each
//	                                           must be in the workflow file)
//
// docs/design is the user's specification, not ours to walk.
func TestEveryShBlockIsWalked(t *testing.T) {
	walked := map[walk]bool{}
	for _, w := range walks {
		walked[w] = true
	}
	workflow, err := os.ReadFile(filepath.Join(repoRoot, workflowFile))
	if err != nil {
		t.Fatal(err)
	}
	// The scripts the workflow runs are the workflow too; a shell line
	// continued with a backslash is one command.
	scripts, _ := filepath.Glob(filepath.Join(repoRoot, ".github", "scripts", "*.sh"))
	for _, f := range scripts {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		workflow = append(workflow, strings.ReplaceAll(string(b), "\\\n", " ")...)
	}
	pages := []string{"README.md"}
	docs, _ := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	for _, d := range docs {
		pages = append(pages, "docs/"+filepath.Base(d))
	}
	var exempt []string
	for _, p := range pages {
		for _, b := range shBlocks(readPage(t, p)) {
			switch {
			case b.mark == markWorkflow:
				// The workflow folds long commands over lines (run: >-):
				// compare with runs of white space made one space.
				flat := strings.Join(strings.Fields(string(workflow)), " ")
				for _, c := range b.commands {
					if !strings.Contains(flat, strings.Join(strings.Fields(c), " ")) {
						t.Errorf("%s:%d: %q is marked as quoted from %s (or its .github/scripts), which has no such line", p, b.line, c, workflowFile)
					}
				}
			case b.mark != "":
				exempt = append(exempt, fmt.Sprintf("%s:%d (%s)", p, b.line, b.mark))
			case !walked[walk{p, b.section}]:
				t.Errorf("%s:%d: the ```sh block of section %q is walked by no script in internal/walkthrough/testdata (add one, or mark it <!-- not walked: reason -->)", p, b.line, b.section)
			}
		}
	}
	t.Logf("exempt blocks: %q", exempt)
	if len(exempt) > 8 {
		t.Errorf("%d blocks are exempt from walking; keep that list short: %q", len(exempt), exempt)
	}
}

const (
	workflowFile = ".github/workflows/searchbench.yml"
	markWorkflow = "walked by internal/workflow"
)

var markRe = regexp.MustCompile(`^<!-- (not walked: .+|walked by internal/workflow) -->$`)

func readPage(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, file))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A block is one ```sh block of a page.
type block struct {
	line     int    // of the opening fence, 1-based
	section  string // the heading line of the innermost section holding it
	mark     string // the exemption on the line before it, if any
	commands []string
}

// shBlocks returns a page's ```sh blocks, each with its section: the
// nearest heading before it (fences of other kinds are skipped whole, so
// a "# comment" in them is no heading).
func shBlocks(page string) []block {
	var out []block
	lines := strings.Split(page, "\n")
	section := ""
	prev := ""
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		trim := strings.TrimSpace(l)
		if strings.HasPrefix(trim, "```") {
			sh := trim == "```sh"
			b := block{line: i + 1, section: section}
			if m := markRe.FindStringSubmatch(prev); m != nil {
				b.mark = m[1]
			}
			for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
				if c := strings.TrimSpace(lines[i]); sh && c != "" && !strings.HasPrefix(c, "#") {
					b.commands = append(b.commands, stripComment(c))
				}
			}
			if sh {
				out = append(out, b)
			}
			prev = ""
			continue
		}
		if strings.HasPrefix(l, "#") && strings.Contains(l, " ") && strings.Trim(l[:strings.Index(l, " ")], "#") == "" {
			section = l
		}
		if trim != "" {
			prev = trim
		}
	}
	return out
}

// stripComment drops a trailing "   # comment" from a command line, as
// the shell would (a # after spaces).
func stripComment(c string) string {
	if i := strings.Index(c, "  #"); i >= 0 {
		return strings.TrimSpace(c[:i])
	}
	return c
}

// sectionCommands returns the command lines of every unexempted ```sh block
// of the section: from the heading line up to the next heading of any
// level (a subsection is a section of its own).
func sectionCommands(page, section string) ([]string, error) {
	found := false
	for _, l := range strings.Split(page, "\n") {
		if l == section {
			found = true
		}
	}
	if !found {
		return nil, fmt.Errorf("no section %q", section)
	}
	var out []string
	for _, b := range shBlocks(page) {
		if b.section == section && b.mark == "" {
			out = append(out, b.commands...)
		}
	}
	return out, nil
}

// scriptCommands returns a script's exec commands (negated or not) and its
// "# doc:" stand-ins, in order.
func scriptCommands(script string) []string {
	var out []string
	for _, l := range strings.Split(script, "\n") {
		if strings.HasPrefix(l, "-- ") {
			break // the archive's files
		}
		l = strings.TrimSpace(l)
		if c, ok := strings.CutPrefix(l, "# doc: "); ok {
			out = append(out, c)
			continue
		}
		l = strings.TrimPrefix(l, "! ")
		if c, ok := strings.CutPrefix(l, "exec "); ok {
			out = append(out, c)
		}
	}
	return out
}

// TestExtraction guards the extraction itself.
func TestExtraction(t *testing.T) {
	page := "# x\n\n## A\n\ntext\n\n```sh\nfoo a\n# comment\n\nbar b   # why\n```\n\n### A.1\n```sh\nsub\n```\n<!-- not walked: keys -->\n\n```sh\nexempt\n```\n## B\n```yaml\n# not a heading\n```\n```sh\nother\n```\n"
	got, err := sectionCommands(page, "## A")
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != "[foo a bar b]" {
		t.Errorf("## A: got %q", got)
	}
	blocks := shBlocks(page)
	var desc []string
	for _, b := range blocks {
		desc = append(desc, fmt.Sprintf("%d %s %q %q", b.line, b.section, b.mark, b.commands))
	}
	want := []string{
		`7 ## A "" ["foo a" "bar b"]`,
		`15 ### A.1 "" ["sub"]`,
		`20 ### A.1 "not walked: keys" ["exempt"]`,
		`27 ## B "" ["other"]`,
	}
	if strings.Join(desc, "\n") != strings.Join(want, "\n") {
		t.Errorf("blocks:\n%s\nwant:\n%s", strings.Join(desc, "\n"), strings.Join(want, "\n"))
	}
	s := scriptCommands("exec foo a\n! exec bar b\n# doc: $EDITOR x\nstdout y\n-- f --\nexec not\n")
	if !bytes.Equal([]byte(fmt.Sprint(s)), []byte("[foo a bar b $EDITOR x]")) {
		t.Errorf("got %v", s)
	}
}
