package run_test

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/searchbench/searchbench/eval/vcr"
	"github.com/searchbench/searchbench/internal/cmd/root"
	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/internal/demo"
	"github.com/searchbench/searchbench/lib/testenv"
)

// workspace is a folder with a small dataset of each kind and, for the
// cases that make requests, cassettes recorded from the simulator through
// the real record command.
func workspace(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"datasets/routing.yaml": `kind: routing
cases:
  - id: iphone
    query: What year was the first iPhone released?
    label: tavily_only
  - id: alignment
    query: What are the main categories of AI alignment research?
    label: exa_only
`,
		"datasets/consent.yaml": `kind: consent
cases:
  - id: yes
    reply: "yes"
    label: "YES"
`,
		"datasets/flows.yaml": `kind: flows
cases:
  - id: yes-flow
    turns:
      - user: Who is the current CEO of Microsoft
        expect: {phase: phase1}
      - user: "yes"
        expect: {phase: phase2, intent: "YES", verification: confirmed}
`,
		"gates.yaml": "thresholds:\n  routing.accuracy: {min: 0.5}\nregressions:\n  flips: true\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, errOut := sb(t, dir, "record", "--backend", "sim"); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	return dir
}

// sb runs searchbench in dir and returns the exit code, stdout and stderr.
// Its environment is empty: no decoded-cassette cache.
func sb(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	return sbEnv(t, dir, nil, args...)
}

// sbEnv is sb with environment variables.
func sbEnv(t *testing.T, dir string, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	io, out, errOut := cmdutil.Test("")
	io.Getenv = func(k string) string { return env[k] }
	abs := func(a []string) []string {
		out := []string{a[0]}
		fl := map[string]bool{"--datasets": true, "--cassettes": true, "--out": true, "--gates": true, "--baseline": true, "--config": true, "--prompts": true}
		for i := 1; i < len(a); i++ {
			out = append(out, a[i])
			if fl[a[i]] && i+1 < len(a) && a[i+1] != "" && !filepath.IsAbs(a[i+1]) {
				out = append(out, filepath.Join(dir, a[i+1]))
				i++
			}
		}
		return out
	}
	full := abs(args)
	// Defaults that name repository paths point into dir.
	for _, f := range []struct{ flag, val string }{{"--datasets", "datasets"}, {"--cassettes", "cassettes"}} {
		if !contains(full, f.flag) {
			full = append(full, f.flag, filepath.Join(dir, f.val))
		}
	}
	// The demo's prompt variants (internal/demo), unless the test has its own.
	if !contains(full, "--prompts") {
		full = append(full, "--prompts", demo.Source(t, "prompts"))
	}
	if full[0] == "run" {
		if !contains(full, "--runs") {
			full = append(full, "--runs", filepath.Join(dir, "runs"))
		}
		if !contains(full, "--out") {
			full = append(full, "--out", filepath.Join(dir, "out"))
		}
		if !contains(full, "--config") {
			full = append(full, "--config", demo.Source(t, "config/executor.yaml"))
		}
	}
	code := root.Main(context.Background(), full, io)
	return code, out.String(), errOut.String()
}

func contains(a []string, s string) bool {
	for _, x := range a {
		if x == s {
			return true
		}
	}
	return false
}

func TestRun(t *testing.T) {
	dir := workspace(t)
	// The default output is a summary that fits 100 columns and ends with
	// where the rest is; -v prints every table.
	code, out, errOut := sb(t, dir, "run")
	if code != cmdutil.ExitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if !strings.HasPrefix(out, "searchbench: simulator, policy seed: 4 cases: ") || !strings.HasPrefix(lines[len(lines)-2], "All metrics, tables and diffs: add -v") ||
		lines[len(lines)-1] != "Every case, with what the model saw and did: "+filepath.Join(dir, "out", "report.html") {
		t.Errorf("summary:\n%s", out)
	}
	if strings.Contains(out, "grounding.titles") {
		t.Errorf("the summary lists every metric:\n%s", out)
	}
	code, out, errOut = sb(t, dir, "run", "-v")
	if code != cmdutil.ExitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.HasPrefix(out, "searchbench: simulator, policy seed: 4 cases: ") || !strings.Contains(out, "routing.accuracy") {
		t.Fatalf("tables:\n%s", out)
	}
	for _, m := range []string{"grounding.sources_retrieved ", "grounding.titles ", "grounding.claims ", "grounding.independence "} {
		if !strings.Contains(out, "│ "+m) {
			t.Errorf("the metrics table has no %s row:\n%s", m, out)
		}
	}
	for _, name := range []string{"report.json", "report.md", "junit.xml", "report.html", "traces.jsonl.gz"} {
		if _, err := os.Stat(filepath.Join(dir, "out", name)); err != nil {
			t.Error(err)
		}
	}
	// The run is also stored by name, with the same bytes (report.md and
	// report.html name their own folder).
	for _, name := range []string{"report.json", "junit.xml", "traces.jsonl.gz"} {
		a, _ := os.ReadFile(filepath.Join(dir, "out", name))
		stored, err := os.ReadFile(filepath.Join(dir, "runs", "seed", "model", name))
		if err != nil || len(a) == 0 || !bytes.Equal(stored, a) {
			t.Errorf("stored run's %s: %v (equal: %v)", name, err, bytes.Equal(stored, a))
		}
	}
	// Same inputs, same bytes, whatever the parallelism: the reports and
	// the traces.
	sb(t, dir, "run", "--quiet", "--parallel", "1", "--out", "out2")
	for _, name := range []string{"report.json", "traces.jsonl.gz", "report.md", "junit.xml", "report.html"} {
		a, _ := os.ReadFile(filepath.Join(dir, "out", name))
		b, _ := os.ReadFile(filepath.Join(dir, "out2", name))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("two replays gave different %s", name)
		}
	}

	// Gate against itself: passes.
	if code, out, errOut := sb(t, dir, "run", "--quiet", "--out", "out3", "--gates", "gates.yaml", "--baseline", "out/report.json"); code != 0 || !strings.Contains(out, "gate: PASS") {
		t.Fatalf("gate against itself: exit %d\n%s%s", code, out, errOut)
	}
}

func TestRunGateFails(t *testing.T) {
	dir := workspace(t)
	sb(t, dir, "run", "--quiet")
	// The routing label changes: the case that passed now fails.
	p := filepath.Join(dir, "datasets", "routing.yaml")
	b, _ := os.ReadFile(p)
	os.WriteFile(p, bytes.Replace(b, []byte("label: tavily_only"), []byte("label: exa_only"), 1), 0o644)
	code, out, _ := sb(t, dir, "run", "--quiet", "--out", "out2", "--gates", "gates.yaml", "--baseline", "out/report.json")
	if code != cmdutil.ExitFail || !strings.Contains(out, "routing/iphone") || !strings.Contains(out, "gate: FAIL") {
		t.Fatalf("exit %d, want %d:\n%s", code, cmdutil.ExitFail, out)
	}
}

func TestRunErrors(t *testing.T) {
	dir := workspace(t)
	bad := filepath.Join(dir, "bad")
	os.MkdirAll(bad, 0o755)
	os.WriteFile(filepath.Join(bad, "routing.yaml"), []byte("kind: routing\ncases:\n  - id: x\n    query: q\n    lable: exa_only\n"), 0o644)

	tests := []struct {
		name string
		args []string
		code int
		want string // in stdout or stderr
	}{
		{"bad dataset", []string{"run", "--datasets", "bad"}, cmdutil.ExitUsage, `routing.yaml:5:5: case "x": unknown key "lable"`},
		{"bad shard", []string{"run", "--shard", "3/2"}, cmdutil.ExitUsage, "shard"},
		{"unknown variant", []string{"run", "--variant", "nope"}, cmdutil.ExitUsage, "unknown prompt variant"},
		{"baseline without gates", []string{"run", "--baseline", "x.json"}, cmdutil.ExitUsage, "--baseline needs --gates"},
		{"missing baseline", []string{"run", "--gates", "gates.yaml", "--baseline", "nope.json"}, cmdutil.ExitInfra, "make baseline"},
		{"no match", []string{"run", "--filter", "id:nothing-*"}, cmdutil.ExitUsage, "no case matches"},
		{"misspelt dataset", []string{"run", "--filter", "dataset:routnig"}, cmdutil.ExitUsage, "dataset:routnig names no dataset (did you mean routing?) (datasets: "},
		{"misspelt case", []string{"run", "--filter", "id:routing/iphnoe"}, cmdutil.ExitUsage, "id:routing/iphnoe names no case (did you mean routing/iphone?)"},
		{"case: for id:", []string{"run", "--filter", "case:iphone"}, cmdutil.ExitUsage, `unknown field "case" (did you mean id:iphone?`},
		{"misspelt field", []string{"run", "--filter", "lable:x"}, cmdutil.ExitUsage, `unknown field "lable" (did you mean label?)`},
		{"misspelt variant", []string{"run", "--variant", "routing-exmaples"}, cmdutil.ExitUsage, `unknown prompt variant "routing-exmaples": did you mean routing-examples?`},
		{"baseline and baseline-ref", []string{"run", "--gates", "gates.yaml", "--baseline", "x.json", "--baseline-ref", "HEAD"}, cmdutil.ExitUsage, "give one"},
		{"missing cassette", []string{"run", "--variant", "routing-examples"}, cmdutil.ExitInfra, "searchbench record --backend sim --variant routing-examples --prompts " + demo.Source(t, "prompts") + " --mode model --datasets " + filepath.Join(dir, "datasets") + " --cassettes " + filepath.Join(dir, "cassettes") + " --filter routing/iphone"},
		{"missing cassette, structured", []string{"run", "--mode", "structured"}, cmdutil.ExitInfra, "--mode structured --datasets"},
		{"misspelt mode", []string{"run", "--mode", "structred"}, cmdutil.ExitUsage, `--mode "structred": want one of model, structured`},
		{"misspelt mode, record", []string{"record", "--mode", "structred"}, cmdutil.ExitUsage, `--mode "structred": want one of model, structured`},
		{"sim policy for live", []string{"record", "--backend", "live", "--sim-policy", "seed"}, cmdutil.ExitUsage, "--sim-policy applies to --backend sim only"},
		{"unknown sim policy", []string{"record", "--sim-policy", "nope"}, cmdutil.ExitUsage, `--sim-policy "nope": no such simulator policy (policies: breaks-three, careful, careless, routing-examples, seed, trades-one)`},
		{"unknown backend", []string{"record", "--backend", "cloud"}, cmdutil.ExitUsage, "unknown --backend"},
		{"live without keys", []string{"record", "--backend", "live"}, cmdutil.ExitUsage, "TAVILY_API_KEY"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := sb(t, dir, tt.args...)
			if code != tt.code || !strings.Contains(out+errOut, tt.want) {
				t.Fatalf("exit %d (want %d), output lacks %q:\n%s\n%s", code, tt.code, tt.want, out, errOut)
			}
		})
	}
}

// TestQuietStillPrintsErrors: --quiet prints one line and drops the
// tables, never the error of a case that could not run.
func TestQuietStillPrintsErrors(t *testing.T) {
	dir := workspace(t)
	p := filepath.Join(dir, "datasets/routing.yaml")
	b, _ := os.ReadFile(p)
	os.WriteFile(p, bytes.Replace(b, []byte("first iPhone"), []byte("first iPod"), 1), 0o644)
	code, out, errOut := sb(t, dir, "run", "--quiet")
	if code != cmdutil.ExitInfra {
		t.Fatalf("exit %d, want %d (a cassette miss)", code, cmdutil.ExitInfra)
	}
	// One line on stdout: the counts (no tables).
	if lines := strings.Split(strings.TrimRight(out, "\n"), "\n"); !strings.HasPrefix(out, "searchbench: simulator, policy seed: 4 cases: 3 passed, 0 failed, 1 error") || len(lines) > 2 {
		t.Errorf("--quiet printed on stdout: %s", out)
	}
	if !strings.Contains(errOut, "Error: routing/iphone") || !strings.Contains(errOut, "no recorded interaction") ||
		!strings.Contains(errOut, "1 of 4 cases could not run") {
		t.Errorf("stderr does not show the case's error:\n%s", errOut)
	}
}

// TestUndecodableCassetteBodyIsLocated: a recorded response the client
// cannot decode (an HTML error page saved by a proxy) names the cassette
// and the interaction, not only the decoder's complaint.
func TestUndecodableCassetteBodyIsLocated(t *testing.T) {
	dir := workspace(t)
	p := filepath.Join(dir, "cassettes/seed/model/routing/iphone.yaml")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	done := false
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), `body: '{"id":"chatcmpl`) {
			lines[i] = l[:strings.Index(l, "body:")] + "body: '<html>Bad gateway</html>'"
			done = true
			break
		}
	}
	if !done {
		t.Fatal("no chat response body in the cassette")
	}
	os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o644)
	// A hand-edited cassette is accepted once its sum is taken out of
	// recorded.json (otherwise it is refused as not the one recorded).
	mp := filepath.Join(dir, "cassettes/seed/model/recorded.json")
	mb, _ := os.ReadFile(mp)
	os.WriteFile(mp, regexp.MustCompile(`,\s*"sums": \[[^\]]*\]`).ReplaceAll(mb, nil), 0o644)
	code, out, errOut := sb(t, dir, "run", "--filter", "routing/iphone")
	if code != cmdutil.ExitInfra {
		t.Fatalf("exit %d, want %d\n%s\n%s", code, cmdutil.ExitInfra, out, errOut)
	}
	if !strings.Contains(out, "of cassette "+p) || !strings.Contains(out, "after replaying interaction ") {
		t.Errorf("the error does not name the cassette and interaction:\n%s", out)
	}
}

// TestBaselineThatOutWouldOverwrite: a --baseline inside --out would be
// replaced by the run it judges; refused as a usage error before any case.
func TestBaselineThatOutWouldOverwrite(t *testing.T) {
	dir := workspace(t)
	if code, out, errOut := sb(t, dir, "run", "--quiet", "--out", "out"); code != 0 {
		t.Fatalf("first run: exit %d\n%s\n%s", code, out, errOut)
	}
	before, _ := os.ReadFile(filepath.Join(dir, "out/report.json"))
	code, _, errOut := sb(t, dir, "run", "--quiet", "--out", "out", "--gates", "gates.yaml", "--baseline", "out/report.json")
	if code != cmdutil.ExitUsage || !strings.Contains(errOut, "would be judged against itself") {
		t.Fatalf("exit %d, want %d; stderr: %s", code, cmdutil.ExitUsage, errOut)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "out/report.json"))
	if !bytes.Equal(before, after) {
		t.Error("the refused run changed the baseline")
	}
	// The same file reached by another path is refused too.
	code, _, errOut = sb(t, dir, "run", "--quiet", "--out", "out", "--gates", "gates.yaml", "--baseline", "out/../out/report.json")
	if code != cmdutil.ExitUsage {
		t.Fatalf("via another path: exit %d; stderr: %s", code, errOut)
	}
}

// TestVariantFromFiles walks a variant as data: a new folder is usable at
// once; the simulator refuses it without an explicit policy; one changed
// prompt byte makes exactly the cassettes that used that file stale, named
// with the file and the command that re-records them; record --stale
// re-records only those, and the replay passes again.
func TestVariantFromFiles(t *testing.T) {
	dir := workspace(t)
	prompts := filepath.Join(dir, "prompts")
	mine := filepath.Join(prompts, "mine")
	os.MkdirAll(mine, 0o755)
	seedPhase2, err := os.ReadFile(demo.Source(t, "prompts/seed/phase2.md"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(mine, "phase2.md"), seedPhase2, 0o644)

	code, out, errOut := sb(t, dir, "record", "--backend", "sim", "--prompts", "prompts", "--variant", "mine")
	if code != cmdutil.ExitUsage || !strings.Contains(errOut, `variant "mine" has no scripted policy`) || !strings.Contains(errOut, "--sim-policy seed") {
		t.Fatalf("record without a policy: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = sb(t, dir, "record", "--backend", "sim", "--prompts", "prompts", "--variant", "mine", "--sim-policy", "seed")
	if code != 0 || !strings.Contains(errOut, `WARNING: recording variant mine from the simulator, which plays the scripted policy "seed"`) ||
		!strings.Contains(out, "recorded 3 cassettes under "+filepath.Join(dir, "cassettes", "mine", "model")) {
		t.Fatalf("record with a policy: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut := sb(t, dir, "run", "--quiet", "--prompts", "prompts", "--variant", "mine", "--out", "base"); code != 0 {
		t.Fatalf("replay: exit %d\n%s%s", code, out, errOut)
	}

	// Phase 2's prompt changes by one byte: the routing cases and the flow
	// that reached Phase 2 are stale. Phase 1 was not touched.
	os.WriteFile(filepath.Join(mine, "phase2.md"), append(seedPhase2, '!'), 0o644)
	code, out, errOut = sb(t, dir, "run", "--quiet", "--prompts", "prompts", "--variant", "mine", "--out", "out")
	hint := "searchbench record --backend sim --sim-policy seed --variant mine --prompts " + prompts + " --mode model --datasets " + filepath.Join(dir, "datasets") + " --cassettes " + filepath.Join(dir, "cassettes") + " --stale"
	if code != cmdutil.ExitInfra || strings.Count(errOut, "stale cassette") != 3 || !strings.Contains(errOut, "recorded before phase2.md changed") ||
		!strings.Contains(errOut, "cassettes not replayable: 3 stale (phase2.md changed since they were recorded) of 4 cases; re-record them with: "+hint) {
		t.Fatalf("stale replay: exit %d\n%s%s", code, out, errOut)
	}
	// Gated, a run whose cassettes cannot replay is no verdict: the cause
	// and its command first, one line for what was not judged, exit 3.
	code, out, errOut = sb(t, dir, "run", "--quiet", "--prompts", "prompts", "--variant", "mine", "--out", "gated",
		"--gates", "gates.yaml", "--baseline", "base/report.json", "--allow-mismatch")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != cmdutil.ExitInfra || !strings.HasPrefix(lines[0], "searchbench: cassettes not replayable: 3 stale") || len(lines) > 6 ||
		!strings.Contains(strings.Join(strings.Fields(out), " "), "not judged: 3 case(s) could not replay, so this run gives no verdict") || strings.Contains(out, "gate: ") {
		t.Errorf("gated stale replay: exit %d, stdout:\n%s", code, out)
	}
	// The report set is still written, and each file opens with what is
	// stale and the command.
	md, err := os.ReadFile(filepath.Join(dir, "out", "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(md), "\n")
	if want := "### searchbench: cassettes not replayable: 3 stale (phase2.md changed since they were recorded) of 4 cases; re-record them with: `" + hint + "`"; first != want {
		t.Errorf("report.md opens with\n%s\nwant\n%s", first, want)
	}
	ju, err := os.ReadFile(filepath.Join(dir, "out", "junit.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if i, j := strings.Index(string(ju), "<testcase"), strings.Index(string(ju), `name="replayable" classname="cassettes"`); i < 0 || j < 0 || j > i+len("<testcase ")+5 {
		t.Errorf("junit.xml's first testcase is not the cassettes' (%d, %d):\n%.600s", i, j, ju)
	}
	// Following the hint re-records the three, and only them.
	args := strings.Fields(hint)[1:]
	code, out, errOut = sb(t, dir, args...)
	if code != 0 || !strings.Contains(out, "recorded 3 cassettes") {
		t.Fatalf("record --stale: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = sb(t, dir, args...)
	if code != 0 || !strings.Contains(out, "nothing to record") {
		t.Fatalf("second record --stale: exit %d\n%s", code, out)
	}
	if code, out, errOut := sb(t, dir, "run", "--quiet", "--prompts", "prompts", "--variant", "mine"); code != 0 {
		t.Fatalf("replay after re-recording: exit %d\n%s%s", code, out, errOut)
	}

	// The decline prompt changes: no shipped case here declined, so
	// nothing is stale.
	os.WriteFile(filepath.Join(mine, "decline.md"), []byte("Say no nicely.\n"), 0o644)
	if code, out, _ := sb(t, dir, args...); code != 0 || !strings.Contains(out, "nothing to record") {
		t.Fatalf("an unused file made cassettes stale: exit %d\n%s", code, out)
	}
}

// TestColourOnlyOnATerminal: the summary is coloured on a terminal, never
// in a pipe, and never when NO_COLOR is set or TERM is dumb.
func TestColourOnlyOnATerminal(t *testing.T) {
	dir := workspace(t)
	for _, tc := range []struct {
		name  string
		tty   bool
		env   map[string]string
		color bool
	}{
		{"terminal", true, nil, true},
		{"pipe", false, nil, false},
		{"NO_COLOR", true, map[string]string{"NO_COLOR": "1"}, false},
		{"TERM=dumb", true, map[string]string{"TERM": "dumb"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			io, out, errOut := cmdutil.Test("")
			io.SetTTY(tc.tty, false)
			io.Getenv = func(k string) string { return tc.env[k] }
			code := root.Main(context.Background(), []string{"run", "--datasets", filepath.Join(dir, "datasets"),
				"--cassettes", filepath.Join(dir, "cassettes"), "--prompts", demo.Source(t, "prompts"), "--config", demo.Source(t, "config/executor.yaml"),
				"--out", filepath.Join(dir, "out-"+strings.ReplaceAll(tc.name, "=", "-")), "--runs", ""}, io)
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
			}
			if got := strings.Contains(out.String(), "\x1b["); got != tc.color {
				t.Errorf("colour codes in the output: %v, want %v\n%q", got, tc.color, out.String())
			}
		})
	}
}

// TestSummaryFitsANarrowTerminal: on an 80-column terminal the summary
// fits 80 columns; --wide cuts nothing; a pipe gets 100.
func TestSummaryFitsANarrowTerminal(t *testing.T) {
	testenv.Slow(t)
	dir := t.TempDir()
	repo := demo.Tree(t)
	ansi := regexp.MustCompile("\x1b\\[[0-9;]*m")
	widest := func(width int, extra ...string) int {
		io, out, errOut := cmdutil.Test("")
		io.SetTTY(width > 0, false)
		io.SetStdoutWidth(width)
		// The demo's data: its failing-checks table fills 100 columns.
		args := append([]string{"run", "--datasets", filepath.Join(repo, "datasets"), "--cassettes", filepath.Join(repo, "cassettes"),
			"--prompts", filepath.Join(repo, "prompts"), "--config", filepath.Join(repo, "config", "executor.yaml"), "--runs", "",
			"--out", filepath.Join(dir, "a-rather-long-output-folder-name-so-that-the-pointer-lines-are-long")}, extra...)
		if code := root.Main(context.Background(), args, io); code != 0 {
			t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
		}
		w := 0
		for _, l := range strings.Split(out.String(), "\n") {
			// Pointer lines name paths, which are never cut.
			if strings.Contains(l, "a-rather-long-output") {
				continue
			}
			w = max(w, utf8.RuneCountInString(ansi.ReplaceAllString(l, "")))
		}
		return w
	}
	if w := widest(80); w > 80 {
		t.Errorf("on an 80-column terminal the summary is %d columns wide", w)
	}
	if narrow, pipe := widest(80), widest(0); narrow >= pipe || pipe > 100 {
		t.Errorf("an 80-column terminal gets lines of %d columns, a pipe %d: want fewer than the pipe's, at most 100", narrow, pipe)
	}
	if wide := widest(80, "--wide"); wide <= 100 {
		t.Errorf("--wide on an 80-column terminal: lines of %d columns, want the uncut cells (over 100)", wide)
	}
}

// TestCacheGivesByteIdenticalReports: a run without the decoded-cassette
// cache, one that fills it and one that reads it write the same bytes.
func TestCacheGivesByteIdenticalReports(t *testing.T) {
	dir := workspace(t)
	cache := filepath.Join(t.TempDir(), "cache")
	env := map[string]string{vcr.CacheEnv: cache}
	outputs := func(out string) map[string]string {
		got := map[string]string{}
		for _, name := range []string{"report.json", "report.md", "junit.xml"} {
			b, err := os.ReadFile(filepath.Join(dir, out, name))
			if err != nil {
				t.Fatal(err)
			}
			got[name] = string(b)
		}
		return got
	}
	entries := func() []string {
		var es []string
		filepath.WalkDir(cache, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				es = append(es, p)
			}
			return nil
		})
		return es
	}
	runs := []struct {
		out  string
		args []string
	}{
		{"nocache", []string{"--no-cache"}},
		{"cold", nil},
		{"warm", nil},
	}
	var tables []string
	for i, r := range runs {
		if r.out == "warm" {
			// The cold run stored one entry per cassette; age them, so a
			// rewrite would show.
			es := entries()
			if len(es) != 3 {
				t.Fatalf("cache holds %d entries after the cold run, want 3 (two routing cases, one flow): %v", len(es), es)
			}
			for _, e := range es {
				os.Chtimes(e, time.Unix(1e9, 0), time.Unix(1e9, 0))
			}
		}
		args := append([]string{"run", "--out", r.out, "--runs", ""}, r.args...)
		code, out, errOut := sbEnv(t, dir, env, args...)
		if code != cmdutil.ExitOK || errOut != "" {
			t.Fatalf("%s run: exit %d\n%s%s", r.out, code, out, errOut)
		}
		// The closing pointer lines name the run's own --out folder.
		tables = append(tables, strings.ReplaceAll(out, r.out+"/", "OUT/"))
		if i == 0 && len(entries()) != 0 {
			t.Fatal("--no-cache wrote the cache")
		}
	}
	for _, e := range entries() {
		if st, err := os.Stat(e); err != nil || st.ModTime().Unix() != 1e9 {
			t.Errorf("entry %s was rewritten by the warm run: it was not read", e)
		}
	}
	want := outputs("nocache")
	for _, r := range runs[1:] {
		got := outputs(r.out)
		for name := range want {
			if got[name] != want[name] {
				t.Errorf("%s/%s differs from the run without the cache", r.out, name)
			}
		}
	}
	for i := range tables {
		if tables[i] != tables[0] {
			t.Errorf("the tables of the %s run differ", runs[i].out)
		}
	}
}

// TestTwoRunsWriteTheSamePage: two identical runs into the default --out
// write byte-identical report.html files, and the page names the report
// where it ends up (reports/latest/report.json), never the temporary folder
// it was written in.
func TestTwoRunsWriteTheSamePage(t *testing.T) {
	repo := demo.Tree(t)
	t.Chdir(t.TempDir())
	var pages []string
	for i := range 2 {
		io, _, stderr := cmdutil.Test("")
		args := []string{"run", "--quiet", "--runs", "", "--filter", "dataset:routing", "--datasets", filepath.Join(repo, "datasets"),
			"--cassettes", filepath.Join(repo, "cassettes"), "--prompts", filepath.Join(repo, "prompts"),
			"--config", filepath.Join(repo, "config", "executor.yaml")}
		if code := root.Main(context.Background(), args, io); code != cmdutil.ExitOK {
			t.Fatalf("run %d: exit %d\n%s", i+1, code, stderr)
		}
		b, err := os.ReadFile(filepath.Join("reports", "latest", "report.html"))
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, string(b))
	}
	if pages[0] != pages[1] {
		a, b := pages[0], pages[1]
		i := 0
		for i < len(a) && i < len(b) && a[i] == b[i] {
			i++
		}
		t.Errorf("two identical runs wrote different pages; first difference at byte %d: %q vs %q",
			i, a[max(0, i-40):min(len(a), i+40)], b[max(0, i-40):min(len(b), i+40)])
	}
	if !strings.Contains(pages[0], `"name":"reports/latest/report.json"`) || strings.Contains(pages[0], ".tmp") {
		t.Errorf("the page does not name reports/latest/report.json, or names a temporary folder: %q", regexp.MustCompile(`"name":"[^"]*report.json"`).FindString(pages[0]))
	}
}
