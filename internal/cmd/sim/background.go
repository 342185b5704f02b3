package sim

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/searchbench/searchbench/eval/vcr"
	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/lib/fsutil"
	"github.com/searchbench/searchbench/lib/secret"
)

// PIDEnv is the variable --env exports with the background server's
// process id, so a shell can stop it with kill "$SEARCHBENCH_SIM_PID".
const PIDEnv = "SEARCHBENCH_SIM_PID"

// startTimeout bounds how long --env waits for the background server to
// listen. It is a bound against a server that never starts, not a speed
// expectation: a server normally prints its exports within milliseconds.
const startTimeout = 60 * time.Second

// stopTimeout bounds how long --stop waits for the server to close its port.
const stopTimeout = 30 * time.Second

// stateDir is where --env keeps the pid and log files of background
// servers: <cache>/sim, the cache being the decoded-cassette cache's root
// ($SEARCHBENCH_CACHE_DIR, else the user cache directory).
func stateDir(getenv func(string) string) (string, error) {
	root, err := vcr.CacheDir(getenv)
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "sim"), nil
}

// stateName is the file name stem of the server on addr.
func stateName(addr string) string {
	return "sim-" + strings.NewReplacer(":", "_", "[", "", "]", "").Replace(addr)
}

// state is what a pid file holds.
type state struct {
	PID  int
	Addr string // host:port it listens on
	Log  string
}

func (s state) encode() []byte {
	return fmt.Appendf(nil, "%d\n%s\n%s\n", s.PID, s.Addr, s.Log)
}

func readState(path string) (state, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return state{}, err
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) != 3 {
		return state{}, fmt.Errorf("%s: want 3 lines (pid, address, log), got %d", path, len(lines))
	}
	pid, err := strconv.Atoi(lines[0])
	if err != nil || pid <= 0 {
		return state{}, fmt.Errorf("%s:1: %q is not a process id", path, lines[0])
	}
	return state{PID: pid, Addr: lines[1], Log: lines[2]}, nil
}

// command is the process --env starts: this same program, running
// "searchbench sim" with args.
func command(args []string) (*exec.Cmd, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe, args...)
	cmd.Args[0] = os.Args[0] // a multi-call binary (testscript) picks its command by name
	return cmd, nil
}

// childEnv is the environment of the background server: the caller's,
// less the keys and base URLs, which the simulator does not use and which
// an earlier eval of --env may have set to a simulator's placeholders.
func childEnv() []string {
	skip := map[string]bool{}
	for _, k := range append(append([]string{}, secret.KeyEnv...), secret.URLEnv...) {
		skip[k] = true
	}
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !skip[k] {
			out = append(out, kv)
		}
	}
	return out
}

// startBackground is --env: it starts "searchbench sim" as a detached
// process (its own session, standard input from /dev/null, standard error
// into a log file), waits until it listens, notes its pid, and prints only
// the export lines, so that eval "$(searchbench sim --env)" returns at once
// with the server running.
func startBackground(ctx context.Context, opts *Options, policy string) error {
	dir, err := stateDir(opts.IO.Getenv)
	if err != nil {
		return cmdutil.Usage(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return cmdutil.Infra(err)
	}
	pidPath := filepath.Join(dir, stateName(opts.Addr)+".pid")
	if st, err := readState(pidPath); err == nil && answers(st.Addr) {
		return cmdutil.Usagef("a simulator started with --env already serves %s (pid %d): use it, or stop it with: searchbench sim --stop --addr %s", st.Addr, st.PID, st.Addr)
	}
	logf, err := os.CreateTemp(dir, "sim-starting-*.log")
	if err != nil {
		return cmdutil.Infra(err)
	}
	defer logf.Close()

	args := []string{"sim", "--addr", opts.Addr, "--variant", opts.Variant.Variant, "--prompts", opts.Variant.Prompts, "--sim-policy", policy}
	if opts.Verbose {
		args = append(args, "--verbose")
	}
	newCmd := opts.command
	if newCmd == nil {
		newCmd = command
	}
	cmd, err := newCmd(args)
	if err != nil {
		return cmdutil.Infra(fmt.Errorf("starting the simulator: %w", err))
	}
	cmd.Env = append(childEnv(), cmd.Env...)
	cmd.Stdin = nil
	cmd.Stderr = logf
	cmd.SysProcAttr = detached()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return cmdutil.Infra(err)
	}
	if err := cmd.Start(); err != nil {
		return cmdutil.Infra(fmt.Errorf("starting the simulator: %w", err))
	}
	if opts.started != nil {
		opts.started(cmd)
	}
	exports, err := readExports(ctx, stdout, cmd)
	if err != nil {
		cmd.Process.Kill()
		log, _ := os.ReadFile(logf.Name())
		os.Remove(logf.Name())
		msg := strings.TrimSpace(string(log))
		if msg == "" {
			msg = "(it wrote nothing)"
		}
		return cmdutil.Infra(fmt.Errorf("the background simulator did not start: %w; its output:\n%s", err, msg))
	}
	// The server listens: its address is in the exports (port 0 picked one).
	base := strings.TrimSuffix(valueOf(exports, "SEARCHBENCH_LLM_BASE_URL"), "/v1")
	addr := strings.TrimPrefix(base, "http://")
	final := filepath.Join(dir, stateName(addr))
	logPath := final + ".log"
	if err := os.Rename(logf.Name(), logPath); err != nil {
		logPath = logf.Name()
	}
	st := state{PID: cmd.Process.Pid, Addr: addr, Log: logPath}
	if err := fsutil.WriteFileAtomic(final+".pid", st.encode(), 0o644); err != nil {
		cmd.Process.Kill()
		return cmdutil.Infra(err)
	}
	for _, kv := range exports {
		fmt.Fprintf(opts.IO.Out, "export %s\n", kv)
	}
	fmt.Fprintf(opts.IO.Out, "export %s=%d\n", PIDEnv, st.PID)
	fmt.Fprintf(opts.IO.ErrOut, "searchbench sim: serving on %s in the background (pid %d, log %s); stop it with: searchbench sim --stop --addr %s\n",
		base, st.PID, logPath, addr)
	return nil
}

// readExports reads the NAME=value lines the server prints once it
// listens. It fails when the server exits first or takes longer than
// startTimeout.
func readExports(ctx context.Context, r io.Reader, cmd *exec.Cmd) ([]string, error) {
	type result struct {
		lines []string
		err   error
	}
	want := len(Env("http://x", 0))
	done := make(chan result, 1)
	go func() {
		var lines []string
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			if kv, ok := strings.CutPrefix(sc.Text(), "export "); ok {
				lines = append(lines, kv)
			}
			if len(lines) == want {
				done <- result{lines: lines}
				return
			}
		}
		done <- result{err: errors.New("it exited before listening")}
	}()
	timer := time.NewTimer(startTimeout)
	defer timer.Stop()
	select {
	case res := <-done:
		return res.lines, res.err
	case <-timer.C:
		return nil, fmt.Errorf("it did not listen within %s", startTimeout)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func valueOf(kvs []string, name string) string {
	for _, kv := range kvs {
		if v, ok := strings.CutPrefix(kv, name+"="); ok {
			return v
		}
	}
	return ""
}

// answers reports whether a simulator answers on addr: its model list, a
// request no other server answers alike.
func answers(addr string) bool {
	client := &http.Client{Timeout: 5 * time.Second}
	req, err := http.NewRequest(http.MethodGet, "http://"+addr+"/v1/models", nil)
	if err != nil {
		return false
	}
	req.Header.Set("Authorization", "Bearer sim-stop-check")
	resp, err := client.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	return resp.StatusCode == http.StatusOK && strings.Contains(string(b), `"object":"list"`)
}

// listening reports whether anything accepts connections on addr.
func listening(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// stopBackground is --stop: it signals the server --env started on
// opts.Addr to stop, waits until its port is closed and removes its pid
// file. A pid file whose server no longer answers is removed without
// signalling anything (its pid may belong to another process by now).
func stopBackground(ctx context.Context, opts *Options) error {
	dir, err := stateDir(opts.IO.Getenv)
	if err != nil {
		return cmdutil.Usage(err)
	}
	pidPath := filepath.Join(dir, stateName(opts.Addr)+".pid")
	st, err := readState(pidPath)
	if errors.Is(err, os.ErrNotExist) {
		return cmdutil.Usagef("no simulator started with --env on %s (no %s); a foreground one stops with Ctrl-C", opts.Addr, pidPath)
	}
	if err != nil {
		return cmdutil.Infra(err)
	}
	if !answers(st.Addr) {
		os.Remove(pidPath)
		fmt.Fprintf(opts.IO.ErrOut, "searchbench sim: nothing serves %s any more (pid %d was not signalled); removed %s\n", st.Addr, st.PID, pidPath)
		return nil
	}
	p, err := os.FindProcess(st.PID)
	if err == nil {
		err = terminate(p)
	}
	if err != nil {
		return cmdutil.Infra(fmt.Errorf("stopping the simulator (pid %d) on %s: %w", st.PID, st.Addr, err))
	}
	deadline := time.Now().Add(stopTimeout)
	for listening(st.Addr) {
		if time.Now().After(deadline) {
			return cmdutil.Infra(fmt.Errorf("the simulator (pid %d) still serves %s %s after it was told to stop; see %s", st.PID, st.Addr, stopTimeout, st.Log))
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
	os.Remove(pidPath)
	fmt.Fprintf(opts.IO.ErrOut, "searchbench sim: stopped the simulator on %s (pid %d); its log: %s\n", st.Addr, st.PID, st.Log)
	return nil
}
