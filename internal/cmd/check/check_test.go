package check_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/searchbench/searchbench/internal/cmd/check"
	"github.com/searchbench/searchbench/internal/cmd/root"
	"github.com/searchbench/searchbench/internal/cmdutil"
)

var update = flag.Bool("update", false, "rewrite the expected output in testdata/script")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"searchbench": func() { os.Exit(root.Main(context.Background(), os.Args[1:], cmdutil.System())) },
	})
}

// TestScripts runs the end-to-end scripts in testdata/script against the
// real command tree.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: filepath.Join("testdata", "script"), UpdateScripts: *update})
}

const examples = "../../../orchestrator/answer/testdata/examples/"

func read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(examples + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestExitCodes runs check through root.Main and pins the documented exit
// codes: 0 no violation, 1 a violation, 2 unreadable input or bad usage.
func TestExitCodes(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		stdin  string
		code   int
		stdout string // substring
		stderr string // substring
	}{
		{name: "phase2 ok", args: []string{"check", "phase2", examples + "phase2-ok.md"}, code: 0, stdout: "ok (0 violations, 0 warnings)"},
		{name: "phase2 insufficient evidence", args: []string{"check", "phase2", examples + "phase2-insufficient-evidence.md"}, code: 0},
		{name: "phase1 ok from stdin", args: []string{"check", "phase1", "-"}, stdin: read(t, "phase1-ok.md"), code: 0, stdout: "<stdin>: ok"},
		{name: "phase1 ok from implicit stdin", args: []string{"check", "phase1"}, stdin: read(t, "phase1-ok.md"), code: 0},
		{name: "phase2 violation", args: []string{"check", "phase2", examples + "phase2-bad-markdown.md"}, code: 1, stdout: "markdown.mismatch"},
		{name: "phase1 violation json", args: []string{"check", "phase1", "--json", examples + "phase1-bad-consent.md"}, code: 1, stdout: `"code": "consent.mismatch"`},
		{name: "warnings only", args: []string{"check", "phase2", "-"}, stdin: strings.ReplaceAll(read(t, "phase2-ok.md"), "March 28", "March\u200b 28"), code: 0, stdout: "ok (0 violations, 3 warnings)"},
		{name: "missing file", args: []string{"check", "phase2", "no-such-file.md"}, code: 2, stderr: "reading input"},
		{name: "too many args", args: []string{"check", "phase2", "a", "b"}, code: 2},
		{name: "unknown flag", args: []string{"check", "phase1", "--yaml"}, code: 2},
		{name: "no subcommand", args: []string{"check"}, code: 2, stderr: "needs a subcommand"},
		{name: "codes", args: []string{"check", "codes"}, code: 0, stdout: "markdown.mismatch"},
		{name: "input over the limit", args: []string{"check", "phase2", "-"}, stdin: strings.Repeat("x", cmdutil.MaxInput+1), code: 2, stderr: "input larger than 4 MiB"},
		{name: "input at the limit is read", args: []string{"check", "phase1", "-"}, stdin: strings.Repeat("x", cmdutil.MaxInput), code: 1, stdout: "header."},
		{name: "repeated findings capped", args: []string{"check", "phase2", "-"},
			stdin: strings.Replace(strings.ReplaceAll(read(t, "phase2-ok.md"), "- ", "- \u200b"), "a", "a\u00a0", 30), code: 1,
			stdout: "… 2 more text.invisible not shown (the first 10 are above; --json lists all)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			io, out, errOut := cmdutil.Test(tt.stdin)
			code := root.Main(context.Background(), tt.args, io)
			if code != tt.code {
				t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, out, errOut)
			}
			if !strings.Contains(out.String(), tt.stdout) {
				t.Errorf("stdout lacks %q:\n%s", tt.stdout, out)
			}
			if !strings.Contains(errOut.String(), tt.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tt.stderr, errOut)
			}
			if tt.code == 1 && errOut.Len() > 0 {
				t.Errorf("a failed check prints its findings, not an error: %s", errOut)
			}
		})
	}
}

// TestNewCmdCheckOptions checks flag and argument binding without running
// the check.
func TestNewCmdCheckOptions(t *testing.T) {
	tests := []struct {
		args []string
		want check.Options
	}{
		{[]string{"phase2", "f.md"}, check.Options{Phase: "phase2", File: "f.md"}},
		{[]string{"phase1", "--json", "-"}, check.Options{Phase: "phase1", File: "-", JSON: true}},
		{[]string{"phase1"}, check.Options{Phase: "phase1"}},
		{[]string{"codes", "--json"}, check.Options{Codes: true, JSON: true}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			io, _, _ := cmdutil.Test("")
			var got *check.Options
			cmd := check.NewCmdCheck(io, func(o *check.Options) error { got = o; return nil })
			cmd.SetArgs(tt.args)
			if err := cmd.Execute(); err != nil {
				t.Fatal(err)
			}
			if got == nil || got.IO != io {
				t.Fatalf("runF got %+v", got)
			}
			g := *got
			g.IO = nil
			if g != tt.want {
				t.Errorf("options = %+v, want %+v", g, tt.want)
			}
		})
	}
}
