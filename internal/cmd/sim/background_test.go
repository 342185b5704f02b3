package sim

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/eval/report"
	evalrun "github.com/searchbench/searchbench/eval/run"
	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/internal/cmdutil"
)

// mainEnv makes this test binary run "searchbench sim" instead of the
// tests: --env starts its background server as this same program.
const mainEnv = "SEARCHBENCH_SIM_TEST_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(mainEnv) != "" {
		os.Exit(cliMain(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// cliMain is cmd/searchbench's main for the sim command alone.
func cliMain(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if len(args) > 0 && args[0] == "sim" {
		args = args[1:]
	}
	cmd := NewCmdSim(cmdutil.System(), nil)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	cmd.SetArgs(args)
	if err := cmd.ExecuteContext(ctx); err != nil {
		fmt.Fprintf(os.Stderr, "searchbench: %v\n", err)
		return cmdutil.ExitCode(err)
	}
	return cmdutil.ExitOK
}

// shell runs script with sh, this binary as $BIN, and returns its stdout,
// stderr and exit code. WaitDelay turns a pipe held open by a process
// that should have let go of it (the hang this tests against) into a
// failure instead of a stuck test.
func shell(t *testing.T, cache, script string) (string, string, int) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", script)
	cmd.Env = append(os.Environ(), mainEnv+"=1", "BIN="+exe, "SEARCHBENCH_CACHE_DIR="+cache,
		"CEREBRAS_API_KEY=", "TAVILY_API_KEY=", "EXA_API_KEY=", "SEARCHBENCH_LLM_BASE_URL=", "TAVILY_BASE_URL=", "EXA_BASE_URL=")
	cmd.WaitDelay = 10 * time.Second
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	if ctx.Err() != nil || err != nil && cmd.ProcessState == nil {
		t.Fatalf("sh -c %q did not finish: %v\nstderr: %s", script, err, errOut.String())
	}
	return out.String(), errOut.String(), cmd.ProcessState.ExitCode()
}

// TestEnvServesInTheBackground is the live setup end to end, as a user
// types it: eval "$(searchbench sim --env)" returns with the server
// running, the keys it exports are accepted by record --backend live, the
// recording replays with no base URL set, and --stop stops the server.
func TestEnvServesInTheBackground(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Fatal("sh is not on PATH")
	}
	cache := t.TempDir()
	work := t.TempDir()
	printed := filepath.Join(work, "printed")
	envFile := filepath.Join(work, "env")
	_, stderr, code := shell(t, cache, `out=$("$BIN" sim --env --addr 127.0.0.1:0) || exit 9
printf '%s\n' "$out" > `+printed+`
eval "$out"
env > `+envFile)
	if code != 0 {
		t.Fatalf("eval \"$(searchbench sim --env)\": exit %d\nstderr: %s", code, stderr)
	}
	// stdout holds export lines only.
	b, _ := os.ReadFile(printed)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 7 {
		t.Errorf("--env printed %d lines, want 6 exports and the pid:\n%s", len(lines), b)
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "export ") {
			t.Errorf("--env printed a line that is not an export: %q", l)
		}
	}
	env := map[string]string{}
	f, err := os.Open(envFile)
	if err != nil {
		t.Fatal(err)
	}
	for sc := bufio.NewScanner(f); sc.Scan(); {
		k, v, _ := strings.Cut(sc.Text(), "=")
		env[k] = v
	}
	f.Close()
	base := strings.TrimSuffix(env["SEARCHBENCH_LLM_BASE_URL"], "/v1")
	addr := strings.TrimPrefix(base, "http://")
	if !strings.HasPrefix(base, "http://127.0.0.1:") || env[PIDEnv] == "" || !listening(addr) {
		t.Fatalf("after eval: base %q, pid %q, listening %v\nstderr: %s", base, env[PIDEnv], listening(addr), stderr)
	}
	if !strings.Contains(stderr, "in the background (pid "+env[PIDEnv]) || !strings.Contains(stderr, "searchbench sim --stop --addr "+addr) {
		t.Errorf("stderr does not say how to stop it:\n%s", stderr)
	}
	t.Cleanup(func() { shell(t, cache, `"$BIN" sim --stop --addr `+addr) })

	// A second --env on the same address is refused, naming the first.
	if _, e, c := shell(t, cache, `"$BIN" sim --env --addr `+addr); c != cmdutil.ExitUsage || !strings.Contains(e, "already serves "+addr) {
		t.Errorf("a second --env on %s: exit %d, stderr %s", addr, c, e)
	}

	// record --backend live accepts the exported keys, and what it records
	// replays without any of the environment.
	ds, err := dataset.LoadDir("../../../testdata/demo/datasets")
	if err != nil {
		t.Fatal(err)
	}
	filter, _ := dataset.ParseFilter([]string{"id:t-iphone-year", "id:yes-after-phase1"})
	items := evalrun.Plan(ds, filter, dataset.Shard{K: 1, N: 1})
	if len(items) != 2 {
		t.Fatalf("%d cases selected", len(items))
	}
	cassettes := t.TempDir()
	if err := evalrun.Record(context.Background(), items, evalrun.RecordOptions{Cassettes: cassettes, Backend: evalrun.BackendLive,
		Getenv: func(k string) string { return env[k] }}); err != nil {
		t.Fatalf("record --backend live with the exported environment: %v", err)
	}
	var errs []string
	sum, err := evalrun.Replay(context.Background(), evalrun.Slice(items), evalrun.Options{Cassettes: cassettes, Scorers: score.All(),
		Done: func(r *report.CaseRecord) {
			if r.Error != "" {
				errs = append(errs, r.Error)
			}
		}}, report.Meta{}, report.Multi())
	if err != nil || sum.Errors != 0 {
		t.Errorf("replay without the environment: %v, %d errors %.600q", err, sum.Errors, errs)
	}

	// --stop stops it: the port closes, the pid file goes, the log says so.
	_, stderr, code = shell(t, cache, `"$BIN" sim --stop --addr `+addr)
	if code != 0 || !strings.Contains(stderr, "stopped the simulator on "+addr) {
		t.Fatalf("--stop: exit %d, stderr %s", code, stderr)
	}
	if listening(addr) {
		t.Errorf("%s still accepts connections after --stop", addr)
	}
	if m, _ := filepath.Glob(filepath.Join(cache, "sim", "*.pid")); len(m) != 0 {
		t.Errorf("pid files left: %v", m)
	}
	logs, _ := filepath.Glob(filepath.Join(cache, "sim", "*.log"))
	if len(logs) != 1 {
		t.Fatalf("logs: %v", logs)
	}
	// The server logs its stop after closing the port: wait for the line.
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, _ := os.ReadFile(logs[0])
		if strings.Contains(string(b), "searchbench sim: stopped") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server's log never says it stopped:\n%s", b)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Nothing left to stop.
	if _, e, c := shell(t, cache, `"$BIN" sim --stop --addr `+addr); c != cmdutil.ExitUsage || !strings.Contains(e, "no simulator started with --env on "+addr) {
		t.Errorf("--stop with nothing running: exit %d, stderr %s", c, e)
	}
}
