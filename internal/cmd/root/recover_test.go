package root_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/searchbench/searchbench/eval/run"
	"github.com/searchbench/searchbench/eval/vcr"
	"github.com/searchbench/searchbench/internal/cmd/root"
	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/lib/fsutil"
	"github.com/searchbench/searchbench/sim"
)

// recoverCases are six routing cases, recorded one at a time.
var recoverCases = []string{"--parallel", "1",
	"--filter", "id:t-iphone-year", "--filter", "id:t-microsoft-ceo", "--filter", "id:t-australia-capital",
	"--filter", "id:t-yen-code", "--filter", "id:t-apple-ticker", "--filter", "id:t-anthropic-founded"}

// payGateway is a loopback gateway in front of a simulator, standing in
// for the paid services: it counts, per question, the answered first
// requests of a case (what a provider bills a recording of it for), and
// can SIGKILL the recording process when a case with the n-th new question
// starts, before answering it.
type payGateway struct {
	mu     sync.Mutex
	paid   map[string]int // question → answered first requests
	seen   int            // distinct questions
	killAt int            // kill pid when the killAt-th question arrives (0: never)
	pid    int
	env    map[string]string
}

func newPayGateway(t *testing.T) *payGateway {
	t.Helper()
	srv, u, err := sim.Start(sim.Options{Policy: "seed"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	g := &payGateway{paid: map[string]int{}}
	proxy := httputil.NewSingleHostReverseProxy(u)
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var req struct {
			Messages []struct{ Role, Content string } `json:"messages"`
		}
		q := ""
		if strings.HasSuffix(r.URL.Path, "/chat/completions") && json.Unmarshal(body, &req) == nil &&
			len(req.Messages) == 2 && req.Messages[1].Role == "user" {
			q = req.Messages[1].Content
		}
		if q != "" {
			g.mu.Lock()
			if _, ok := g.paid[q]; !ok {
				g.paid[q] = 0
				g.seen++
				if g.seen == g.killAt && g.pid > 0 {
					syscall.Kill(g.pid, syscall.SIGKILL)
					g.mu.Unlock()
					http.Error(w, "killed", http.StatusServiceUnavailable)
					return
				}
			}
			g.paid[q]++
			g.mu.Unlock()
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(gw.Close)
	g.env = map[string]string{
		"SEARCHBENCH_LLM_BASE_URL": gw.URL + "/v1",
		"TAVILY_BASE_URL":          gw.URL + "/tavily",
		"EXA_BASE_URL":             gw.URL + "/exa",
		"CEREBRAS_API_KEY":         "recover-test-key-0001",
		"TAVILY_API_KEY":           "tvly-recover-test-key-0001",
		"EXA_API_KEY":              "exa-recover-test-key-0001",
	}
	return g
}

// paidOnce fails the test unless every question was paid exactly once,
// but for those in twice (a case whose recording a full disk lost).
func (g *payGateway) paidOnce(t *testing.T, want int, twice int) {
	t.Helper()
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.paid) != want {
		t.Errorf("%d cases paid for, want %d: %v", len(g.paid), want, g.paid)
	}
	again := 0
	for q, n := range g.paid {
		switch {
		case n == 2 && again < twice:
			again++
		case n != 1:
			t.Errorf("%q paid %d times", q, n)
		}
	}
}

// sbEnv runs searchbench in this process with env as its environment and
// fault as fsutil.Fault.
func sbEnv(t *testing.T, env map[string]string, fault func(step, name string) error, args ...string) (int, string, string) {
	t.Helper()
	fsutil.Fault = fault
	defer func() { fsutil.Fault = nil }()
	io, out, errOut := cmdutil.Test("")
	io.Getenv = func(k string) string { return env[k] }
	code := root.Main(context.Background(), args, io)
	return code, out.String(), errOut.String()
}

// audit checks the shelf after the resume: recorded.json describes every
// cassette (sums match), nothing is left unfinished, and a replay with no
// environment exits 0.
func auditShelf(t *testing.T, cassettes string, cases int) {
	t.Helper()
	shelf := run.Shelf{Root: cassettes, Variant: "seed", Mode: "model"}
	m, err := shelf.LoadManifest()
	if err != nil {
		t.Fatal(err)
	}
	if m.Unfinished != nil || len(m.Cases) != cases {
		t.Errorf("recorded.json: %d cases, unfinished %+v; want %d and none", len(m.Cases), m.Unfinished, cases)
	}
	for key, e := range m.Cases {
		ds, id, _ := strings.Cut(key, "/")
		b, err := os.ReadFile(vcr.Path(cassettes, "seed", "model", ds, id))
		if err != nil || vcr.Sum(b) != e.Sum(1) {
			t.Errorf("%s: the cassette is not the one recorded.json describes (%v)", key, err)
		}
	}
	if _, err := os.Stat(shelf.JournalPath()); err == nil {
		t.Error("the journal is left after a recording that finished")
	}
	code, out, errOut := sbEnv(t, nil, nil, append([]string{"run", "--quiet", "--runs", "", "--out", "", "--datasets", "../../../testdata/demo/datasets",
		"--cassettes", cassettes, "--config", "../../../testdata/demo/config/executor.yaml"}, recoverCases[2:]...)...)
	if code != 0 {
		t.Errorf("replay after the resume: exit %d\n%s%s", code, out, errOut)
	}
}

// TestKilledRecordResumes is the recovery done-when of issue 36: a live
// recording killed with -9 after half its cases, then record --stale: the
// shelf describes every cassette, each case was paid once, the budget
// counts what the killed recording spent, and the replay exits 0.
func TestKilledRecordResumes(t *testing.T) {
	g := newPayGateway(t)
	cassettes := filepath.Join(t.TempDir(), "cassettes")
	args := append([]string{"record", "--backend", "live", "--no-pace", "--datasets", "../../../testdata/demo/datasets", "--cassettes", cassettes}, recoverCases...)

	g.killAt = 4 // the fourth case starts: three are recorded
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SEARCHBENCH_SIGNAL_CHILD="+strings.Join(args, "\x1f"))
	for k, v := range g.env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	g.mu.Lock()
	g.pid = cmd.Process.Pid
	g.mu.Unlock()
	err := cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the recording was not killed: %v\n%s", err, stderr.String())
	}
	// Half the cases are described; the other half are unfinished.
	m, err := run.Shelf{Root: cassettes, Variant: "seed", Mode: "model"}.LoadManifest()
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Cases) != 3 || m.Unfinished == nil || m.Unfinished.SpentUSD <= 0 {
		t.Fatalf("after the kill: %d cases described, unfinished %+v; want 3, and the spend", len(m.Cases), m.Unfinished)
	}
	spent := m.Unfinished.SpentUSD

	g.killAt = 0
	code, out, errOut := sbEnv(t, g.env, nil, append(args, "--stale", "--max-usd", "10")...)
	if code != 0 || !strings.Contains(out, "recorded 3 cassettes") || !strings.Contains(out, "resuming a recording that has spent ") {
		t.Fatalf("record --stale after the kill: exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(strings.Join(strings.Fields(out), " "), "by the recording this one resumes") || spent <= 0 {
		t.Errorf("the resumed budget does not count the killed recording's spend:\n%s", out)
	}
	g.paidOnce(t, 6, 0)
	auditShelf(t, cassettes, 6)
}

// TestFullDiskRecordResumes: the same after a full disk. The fourth case's
// cassette cannot be written (ENOSPC, injected); record stops starting
// cases, says so and names the one command; once space is freed, record
// --stale records exactly the cases left, and the shelf replays. Only the
// case the disk refused is paid twice: its answers were lost with it.
func TestFullDiskRecordResumes(t *testing.T) {
	g := newPayGateway(t)
	cassettes := filepath.Join(t.TempDir(), "cassettes")
	args := append([]string{"record", "--backend", "live", "--no-pace", "--datasets", "../../../testdata/demo/datasets", "--cassettes", cassettes}, recoverCases...)
	var mu sync.Mutex
	written := 0
	full := func(step, name string) error {
		mu.Lock()
		defer mu.Unlock()
		if step == "write" && strings.HasSuffix(name, vcr.Ext) {
			written++
		}
		if written >= 4 {
			return syscall.ENOSPC // from the fourth cassette on, every write
		}
		return nil
	}
	code, out, errOut := sbEnv(t, g.env, full, args...)
	if code != cmdutil.ExitInfra {
		t.Fatalf("record on a full disk: exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{"recording stopped: the disk refused a write", "no space left on device",
		"3 of 6 cases recorded (3 cassettes)", "Free disk space, then resume with:\n  searchbench record --backend live", "--stale\n"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("the message lacks %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(errOut, "unchanged") {
		t.Errorf("the message claims cassettes unchanged:\n%s", errOut)
	}
	g.mu.Lock()
	started := len(g.paid)
	g.mu.Unlock()
	if started != 4 {
		t.Errorf("%d cases started on a full disk, want 4 (none after the refused write)", started)
	}
	code, out, errOut = sbEnv(t, g.env, nil, append(args, "--stale", "--max-usd", "10")...)
	if code != 0 || !strings.Contains(out, "recorded 3 cassettes") {
		t.Fatalf("record --stale once space is freed: exit %d\n%s%s", code, out, errOut)
	}
	// The budget counts what the stopped recording spent, the refused
	// case's answers included.
	if !strings.Contains(out, "resuming a recording that has spent ") || !strings.Contains(strings.Join(strings.Fields(out), " "), "by the recording this one resumes") {
		t.Errorf("the resumed budget does not count the stopped recording's spend:\n%s", out)
	}
	// The case whose cassette the disk refused is asked again: its answers
	// could be kept nowhere (the disk was full), so they are lost with it.
	g.paidOnce(t, 6, 1)
	auditShelf(t, cassettes, 6)
}

// TestFullDiskLeavesNoOldPolicyReplaying: a recording with another
// simulator policy runs out of disk before any cassette is written. The
// old cassettes are intact, but they are not what was asked for: replay
// refuses them (it used to exit 0 on the old policy), each error naming
// the one command that finishes the recording, with its --sim-policy; that
// command records them, and the replay passes on the new policy.
func TestFullDiskLeavesNoOldPolicyReplaying(t *testing.T) {
	cassettes := filepath.Join(t.TempDir(), "cassettes")
	common := []string{"--datasets", "../../../testdata/demo/datasets", "--cassettes", cassettes, crashCases[0], crashCases[1], crashCases[2], crashCases[3]}
	if code, _, errOut := sbEnv(t, nil, nil, append([]string{"record", "--backend", "sim"}, common...)...); code != 0 {
		t.Fatalf("record: exit %d\n%s", code, errOut)
	}
	full := func(step, name string) error {
		if strings.HasSuffix(name, vcr.Ext) {
			return syscall.ENOSPC
		}
		return nil
	}
	if code, _, errOut := sbEnv(t, nil, full, append([]string{"record", "--backend", "sim", "--sim-policy", "routing-examples"}, common...)...); code != cmdutil.ExitInfra {
		t.Fatalf("record on a full disk: exit %d\n%s", code, errOut)
	}
	runArgs := append([]string{"run", "--quiet", "--runs", "", "--out", "", "--config", "../../../testdata/demo/config/executor.yaml"}, common...)
	code, out, errOut := sbEnv(t, nil, nil, runArgs...)
	resume := "searchbench record --backend sim --sim-policy routing-examples --variant seed --mode model --datasets ../../../testdata/demo/datasets --cassettes " + cassettes +
		" --stale " + strings.Join(crashCases, " ")
	if code != cmdutil.ExitInfra || strings.Count(out+errOut, "finish that recording with: "+resume) != 2 {
		t.Fatalf("replay after the full disk: exit %d, want 3 with the resume command for each case:\n%s%s", code, out, errOut)
	}
	if code, out, errOut := sbEnv(t, nil, nil, strings.Fields(strings.TrimPrefix(resume, "searchbench "))...); code != 0 || !strings.Contains(out, "recorded 2 cassettes") {
		t.Fatalf("the resume command: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut := sbEnv(t, nil, nil, runArgs...); code != 0 {
		t.Fatalf("replay after the resume: exit %d\n%s%s", code, out, errOut)
	}
	m, _ := run.Shelf{Root: cassettes, Variant: "seed", Mode: "model"}.LoadManifest()
	for k, e := range m.Cases {
		if e.Policy != "routing-examples" {
			t.Errorf("%s: recorded with policy %s after the resume", k, e.Policy)
		}
	}
}
