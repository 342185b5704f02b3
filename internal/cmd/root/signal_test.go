package root_test

import (
	"context"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/searchbench/searchbench/internal/cmd/root"
	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/internal/demo"
	"github.com/searchbench/searchbench/lib/testenv"
)

// shipped runs from the demo tree's datasets, prompts and cassettes
// (internal/demo: the tests' own, never the team's working data).
func shipped(t testing.TB) []string {
	d := demo.Tree(t)
	return []string{"--datasets", filepath.Join(d, "datasets"), "--cassettes", filepath.Join(d, "cassettes"),
		"--prompts", filepath.Join(d, "prompts"), "--config", filepath.Join(d, "config", "executor.yaml")}
}

// temporaries lists the atomic writers' temporary files under dir.
func temporaries(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".tmp-") {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// TestInterruptedRunKeepsPreviousReports: a run stopped by a signal exits
// 130, leaves no temporary file, and the previous reports stay as they were.
func TestInterruptedRunKeepsPreviousReports(t *testing.T) {
	out := t.TempDir()
	prev := map[string]string{"report.json": "{\"previous\":true}\n", "report.md": "previous\n", "junit.xml": "<previous/>\n"}
	for n, b := range prev {
		os.WriteFile(filepath.Join(out, n), []byte(b), 0o644)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the signal arrives before the first case
	io, _, errOut := cmdutil.Test("")
	code := root.Main(ctx, append([]string{"run", "--quiet", "--runs", "", "--out", out}, shipped(t)...), io)
	if code != cmdutil.ExitInterrupted || !strings.Contains(errOut.String(), "interrupted") {
		t.Fatalf("exit %d, want %d; stderr: %s", code, cmdutil.ExitInterrupted, errOut)
	}
	if tmp := temporaries(t, out); len(tmp) > 0 {
		t.Errorf("temporaries left: %v", tmp)
	}
	for n, b := range prev {
		got, _ := os.ReadFile(filepath.Join(out, n))
		if string(got) != b {
			t.Errorf("%s = %q, want the previous %q", n, got, b)
		}
	}
}

// TestSIGTERM sends SIGTERM to a real process replaying the shipped
// datasets. Wherever the signal lands, no temporary is left and the report
// set is either the previous one or a complete new one. The child is this
// test binary running searchbench's main path.
func TestSIGTERM(t *testing.T) {
	if os.Getenv("SEARCHBENCH_SIGNAL_CHILD") != "" {
		return // the child runs from TestMain
	}
	out := t.TempDir()
	for i := 0; i < 3; i++ {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "SEARCHBENCH_SIGNAL_CHILD="+strings.Join(append([]string{"run", "--quiet", "--runs", "", "--out", out}, shipped(t)...), "\x1f"))
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Wait for the child to be running (it prints a line once its
		// signal handler is installed), then stop it.
		buf := make([]byte, 64)
		n, _ := stderr.Read(buf)
		if !strings.HasPrefix(string(buf[:n]), "ready") {
			t.Fatalf("child said %q", buf[:n])
		}
		cmd.Process.Signal(syscall.SIGTERM)
		err = cmd.Wait()
		code := cmd.ProcessState.ExitCode()
		if code != cmdutil.ExitInterrupted && code != cmdutil.ExitOK {
			t.Fatalf("exit %d (%v), want %d or 0", code, err, cmdutil.ExitInterrupted)
		}
		if tmp := temporaries(t, out); len(tmp) > 0 {
			t.Fatalf("temporaries left after SIGTERM: %v", tmp)
		}
	}
}

func TestMain(m *testing.M) {
	if args := os.Getenv("SEARCHBENCH_SIGNAL_CHILD"); args != "" {
		crashInit()
		os.Exit(childMain(strings.Split(args, "\x1f")))
	}
	os.Exit(m.Run())
}

// childMain is cmd/searchbench's main with a "ready" line once the signal
// handler is installed, so the parent knows when to signal.
func childMain(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), root.Signals...)
	defer stop()
	os.Stderr.WriteString("ready\n")
	return root.Main(ctx, args, cmdutil.System())
}

// TestInterruptedRecordSaysWhatHappened: a record stopped before its first
// case says every case did not start, and exits 130.
func TestInterruptedRecordSaysWhatHappened(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	io, _, errOut := cmdutil.Test("")
	code := root.Main(ctx, []string{"record", "--backend", "sim", "--filter", "dataset:routing",
		"--datasets", "../../../testdata/demo/datasets", "--cassettes", dir}, io)
	if code != cmdutil.ExitInterrupted || !strings.Contains(errOut.String(), " not started") {
		t.Fatalf("exit %d, stderr: %s", code, errOut)
	}
	// It names the one command that resumes, and claims no case unchanged.
	resume := "searchbench record --backend sim --variant seed --mode model --datasets ../../../testdata/demo/datasets --cassettes " + dir + " --filter dataset:routing --stale"
	if !strings.Contains(errOut.String(), "Resume with:\n  "+resume+"\n") || strings.Contains(errOut.String(), "unchanged") {
		t.Errorf("the interrupted recording does not name %q (or claims cassettes unchanged):\n%s", resume, errOut)
	}
	if tmp := temporaries(t, dir); len(tmp) > 0 {
		t.Errorf("temporaries left: %v", tmp)
	}
}

// TestConcurrentRunsNeverMixReports: two runs into one folder, over
// different cases, at the same time. Whichever wins, report.json, report.md
// and junit.xml come from the same run.
func TestConcurrentRunsNeverMixReports(t *testing.T) {
	testenv.Slow(t)
	out := t.TempDir()
	filters := []string{"dataset:consent", "dataset:parser"}
	for round := 0; round < 8; round++ {
		var wg sync.WaitGroup
		for _, f := range filters {
			wg.Go(func() {
				io, _, errOut := cmdutil.Test("")
				if code := root.Main(context.Background(), append([]string{"run", "--quiet", "--runs", "", "--out", out, "--filter", f}, shipped(t)...), io); code != 0 {
					t.Errorf("run %s: exit %d: %s", f, code, errOut)
				}
			})
		}
		wg.Wait()
		js, _ := os.ReadFile(filepath.Join(out, "report.json"))
		md, _ := os.ReadFile(filepath.Join(out, "report.md"))
		ju, _ := os.ReadFile(filepath.Join(out, "junit.xml"))
		var from []string
		for _, f := range filters {
			name := strings.TrimPrefix(f, "dataset:")
			if strings.Contains(string(js), `"dataset": "`+name+`"`) || strings.Contains(string(js), `"dataset":"`+name+`"`) {
				from = append(from, "json:"+name)
			}
			if strings.Contains(string(md), "filter `"+f+"`") {
				from = append(from, "md:"+name)
			}
			if strings.Contains(string(ju), `<testsuite name="`+name+`"`) {
				from = append(from, "junit:"+name)
			}
		}
		if len(from) != 3 {
			t.Fatalf("round %d: the report set mixes runs: %v", round, from)
		}
		if tmp := temporaries(t, out); len(tmp) > 0 {
			t.Fatalf("temporaries left: %v", tmp)
		}
	}
}
