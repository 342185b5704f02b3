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
	"github.com/searchbench/searchbench/lib/testenv"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"searchbench": func() { os.Exit(root.Main(context.Background(), os.Args[1:], cmdutil.System())) },
	})
}

// repoRoot is the repository, two folders up.
const repoRoot = "../.."

// walks maps each script to the README section whose ```sh block it walks.
var walks = map[string]string{
	"everyday-loop.txtar": "## Tuning a prompt: the everyday loop",
	"samples.txtar":       "## Samples: one draw per case can mislead",
}

// TestWalkthroughs runs every script in a fresh copy of the tree: the files
// git tracks plus those it would track (untracked, not ignored), so a run
// before committing sees the change. The scripts run make and go as a user
// does; neither may be missing (a skipped walk would be a vacuous pass).
func TestWalkthroughs(t *testing.T) {
	testenv.Slow(t)
	files := treeFiles(t)
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
			for _, f := range files {
				b, err := os.ReadFile(filepath.Join(repoRoot, f))
				if err != nil {
					return err
				}
				dst := filepath.Join(env.WorkDir, f)
				if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
					return err
				}
				if err := os.WriteFile(dst, b, 0o644); err != nil {
					return err
				}
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

// treeFiles lists the repository's files as a fresh clone would have them,
// plus untracked files that are not ignored.
func treeFiles(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("git", "-C", repoRoot, "ls-files", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v (the walkthroughs copy the tree git knows)", err)
	}
	var files []string
	for _, f := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if _, err := os.Stat(filepath.Join(repoRoot, f)); err == nil {
			files = append(files, f) // a tracked file deleted in the work tree is gone
		}
	}
	if len(files) < 100 {
		t.Fatalf("git ls-files listed %d files: not the repository", len(files))
	}
	return files
}

// TestScriptsFollowREADME: each script runs its README section's commands,
// every one of them, in the README's order. A command a script cannot run
// literally (an editor) is a "# README: command" comment followed by what
// the script does instead.
func TestScriptsFollowREADME(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for script, section := range walks {
		t.Run(script, func(t *testing.T) {
			want := readmeCommands(t, string(readme), section)
			if len(want) < 5 {
				t.Fatalf("README section %q has %d commands", section, len(want))
			}
			b, err := os.ReadFile(filepath.Join("testdata", script))
			if err != nil {
				t.Fatal(err)
			}
			got := scriptCommands(string(b))
			// want must be a subsequence of got: the script may check
			// more between the README's steps, never skip or reorder one.
			i := 0
			for _, c := range got {
				if i < len(want) && c == want[i] {
					i++
				}
			}
			if i < len(want) {
				t.Errorf("%s does not run README step %d, %q, in order.\nREADME: %q\nscript: %q", script, i+1, want[i], want, got)
			}
		})
	}
}

// readmeCommands returns the command lines of the first ```sh block after
// the section heading.
func readmeCommands(t *testing.T, readme, section string) []string {
	t.Helper()
	i := strings.Index(readme, "\n"+section+"\n")
	if i < 0 {
		t.Fatalf("README has no section %q", section)
	}
	rest := readme[i:]
	if j := strings.Index(rest[1:], "\n## "); j >= 0 {
		rest = rest[:j+1]
	}
	m := regexp.MustCompile("(?s)```sh\n(.*?)```").FindStringSubmatch(rest)
	if m == nil {
		t.Fatalf("README section %q has no ```sh block", section)
	}
	var out []string
	for _, l := range strings.Split(m[1], "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

// scriptCommands returns a script's exec commands (negated or not) and its
// "# README:" stand-ins, in order.
func scriptCommands(script string) []string {
	var out []string
	for _, l := range strings.Split(script, "\n") {
		if strings.HasPrefix(l, "-- ") {
			break // the archive's files
		}
		l = strings.TrimSpace(l)
		if c, ok := strings.CutPrefix(l, "# README: "); ok {
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

// TestReadmeCommandsParse guards the extraction itself.
func TestReadmeCommandsParse(t *testing.T) {
	readme := "# x\n\n## A\n\ntext\n\n```sh\nfoo a\n# comment\n\nbar b\n```\n\n```sh\nnot this\n```\n## B\n```sh\nother\n```\n"
	got := fmt.Sprint(readmeCommands(t, readme, "## A"))
	if got != "[foo a bar b]" {
		t.Errorf("got %s", got)
	}
	s := scriptCommands("exec foo a\n! exec bar b\n# README: $EDITOR x\nstdout y\n-- f --\nexec not\n")
	if !bytes.Equal([]byte(fmt.Sprint(s)), []byte("[foo a bar b $EDITOR x]")) {
		t.Errorf("got %v", s)
	}
}
