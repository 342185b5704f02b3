package ask_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/internal/cmd/root"
	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/orchestrator/answer"
	"github.com/searchbench/searchbench/orchestrator/trace"
	"github.com/searchbench/searchbench/sim"
)

// simEnv starts the simulator on loopback and returns an environment that
// points every client at it.
func simEnv(t *testing.T) func(string) string {
	t.Helper()
	srv, u, err := sim.Start(sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	env := map[string]string{
		"CEREBRAS_API_KEY":         "test-key-cerebras",
		"TAVILY_API_KEY":           "test-key-tavily",
		"EXA_API_KEY":              "test-key-exa",
		"SEARCHBENCH_LLM_BASE_URL": u.String() + "/v1",
		"TAVILY_BASE_URL":          u.String() + "/tavily",
		"EXA_BASE_URL":             u.String() + "/exa",
	}
	return func(k string) string { return env[k] }
}

func TestConversation(t *testing.T) {
	io, out, errOut := cmdutil.Test("Who is the current CEO of Microsoft\n\nyes\n")
	io.Getenv = simEnv(t)
	tracePath := filepath.Join(t.TempDir(), "trace.json")
	if code := root.Main(context.Background(), []string{"ask", "--trace", tracePath}, io); code != 0 {
		t.Fatalf("exit %d, stderr: %s", code, errOut)
	}
	text := out.String()
	p1 := strings.Index(text, answer.Phase1Header)
	p2 := strings.Index(text, answer.Phase2Header)
	if p1 < 0 || p2 < p1 || !strings.Contains(text[:p2], answer.ConsentQuestion) {
		t.Fatalf("want Phase 1 with the consent question, then Phase 2:\n%s", text)
	}
	var s trace.Session
	b, err := os.ReadFile(tracePath)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	if len(s.Turns) != 2 || s.Turns[0].Phase != trace.Phase1 || s.Turns[1].Phase != trace.Phase2 || s.Turns[1].Intent != "YES" {
		t.Fatalf("trace turns: %+v", s.Turns)
	}
	if strings.Contains(string(b), "test-key") {
		t.Fatal("a key reached the trace")
	}
}

func TestOnce(t *testing.T) {
	io, out, errOut := cmdutil.Test("")
	io.Getenv = simEnv(t)
	if code := root.Main(context.Background(), []string{"ask", "--once", "? who is the current CEO of Microsoft"}, io); code != 0 {
		t.Fatalf("exit %d, stderr: %s", code, errOut)
	}
	rep := answer.CheckPhase2(strings.TrimSuffix(out.String(), "\n"))
	if answer.HasViolation(rep.Findings) || rep.Verification != answer.VerificationSkipped {
		t.Fatalf("findings %+v\n%s", rep.Findings, out)
	}
}

func TestMissingKeys(t *testing.T) {
	io, _, errOut := cmdutil.Test("")
	if code := root.Main(context.Background(), []string{"ask", "--once", "hi"}, io); code != cmdutil.ExitUsage {
		t.Fatalf("exit %d, want %d", code, cmdutil.ExitUsage)
	}
	for _, v := range []string{"CEREBRAS_API_KEY", "TAVILY_API_KEY", "EXA_API_KEY"} {
		if !strings.Contains(errOut.String(), v) {
			t.Errorf("stderr does not name %s: %s", v, errOut)
		}
	}
}

// TestTerminalShowsStatusAndNoEnvelope: on a terminal, a Phase 2 turn
// draws a status line on stderr while it searches ("searching Tavily… 3
// results") and clears it before the answer, which is shown without its
// JSON envelope unless --json asks for it. Off a terminal there is no
// status line and the answer is printed whole.
func TestTerminalShowsStatusAndNoEnvelope(t *testing.T) {
	const q = "? who is the current CEO of Microsoft"
	status := regexp.MustCompile(`\r\x1b\[Ksearching (Tavily|Exa)… \d+ results?`)
	for _, tc := range []struct {
		name           string
		tty            bool
		args           []string
		status, fenced bool
	}{
		{"terminal", true, nil, true, false},
		{"terminal --json", true, []string{"--json"}, true, true},
		{"pipe", false, nil, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			io, out, errOut := cmdutil.Test("")
			io.Getenv = simEnv(t)
			io.SetTTY(tc.tty, tc.tty)
			if code := root.Main(context.Background(), append([]string{"ask", "--once", q}, tc.args...), io); code != 0 {
				t.Fatalf("exit %d, stderr: %q", code, errOut)
			}
			text := out.String()
			if !strings.HasPrefix(text, answer.Phase2Header+"\nVerification: ") || !strings.Contains(text, "\nSources:\n1. ") {
				t.Fatalf("not a Phase 2 answer with its sources:\n%s", text)
			}
			if got := strings.Contains(text, "```json"); got != tc.fenced {
				t.Errorf("JSON envelope printed: %v, want %v\n%s", got, tc.fenced, text)
			}
			if got := status.MatchString(errOut.String()); got != tc.status {
				t.Errorf("status line drawn: %v, want %v; stderr %q", got, tc.status, errOut)
			}
			if tc.status && !strings.HasSuffix(errOut.String(), "\r\x1b[K") {
				t.Errorf("the status line is not cleared before the answer: stderr %q", errOut)
			}
			if !tc.status && errOut.Len() != 0 {
				t.Errorf("stderr off a terminal: %q", errOut)
			}
		})
	}
}
