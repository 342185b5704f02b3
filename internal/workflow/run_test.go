package workflow

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"

	"github.com/searchbench/searchbench/eval/vcr"
	"github.com/searchbench/searchbench/internal/demo"
	"github.com/searchbench/searchbench/lib/testenv"
)

// tradeoffReason is the reviewed reason of the trade-off PR's acceptance.
const tradeoffReason = "careful routing wins 17 cases; the H100 question goes to Exa"

// TestWorkflowRuns executes .github/workflows/searchbench.yml's steps (see
// runner_test.go) on a repository made of this tree: a base commit on main
// and one commit per kind of pull request, each scenario checking the gate
// job's step summary, its JUnit, the comment and every job's exit status.
// The "test" job is `make test` itself, which is running this test: it is
// checked for what it runs, not run again.
func TestWorkflowRuns(t *testing.T) {
	testenv.Slow(t)
	for _, tool := range []string{"git", "bash", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("the workflow test runs the workflow's steps with %s, which is not on PATH", tool)
		}
	}
	data, err := os.ReadFile(filepath.Join(repo, ".github", "workflows", "searchbench.yml"))
	if err != nil {
		t.Fatal(err)
	}
	wf, errs := actionlint.Parse(data)
	if len(errs) > 0 {
		t.Fatalf("the workflow does not parse: %v", errs[0])
	}
	testJob := wf.Jobs["test"]
	if testJob == nil || !strings.Contains(runs(testJob), "bash .ci/run") {
		t.Fatal(`the workflow has no "test" job running bash .ci/run (make test, with the tools its tests need)`)
	}
	if wf.Concurrency == nil {
		t.Error("the workflow has no concurrency group: two pushes to one PR would both publish a verdict")
	}
	if p := wf.Jobs["gate"].Permissions; p == nil || p.Scopes["checks"] == nil || p.Scopes["checks"].Value.Value != "write" {
		t.Error("the gate job lacks checks: write, which the JUnit publisher needs")
	}

	w := newWorld(t)
	pr := func(branch, headRepo, actor string) event {
		return event{name: "pull_request", ref: branch, baseSHA: w.base, number: 7, headRepo: headRepo, repo: "team/searchbench", actor: actor}
	}
	type want struct {
		gate, shards int    // exit statuses; shards: the worst of the four
		first        string // prefix of the step summary's first line
		summary      []string
		comment      []string // "" entries: no comment at all
		noComment    bool
		junit        bool
		junitFail    bool // junit.xml holds a <failure>
		bench        bool // the bench job runs (minutes: one scenario)
	}
	scenarios := []struct {
		name string
		ev   event
		want want
	}{
		{"a PR that changes no prompt", pr("pr-docs", "team/searchbench", "dev"), want{
			gate: 0, shards: 0, first: "### searchbench gate: PASS",
			summary: []string{"compared with " + w.base[:7], "mode `structured`"},
			comment: []string{"gate: PASS", "(mode model)", "(mode structured)", "This pull request against its base"}, junit: true, bench: true}},
		{"a prompt PR re-recorded with a regressing policy", pr("pr-careless", "team/searchbench", "dev"), want{
			gate: 1, shards: 0, first: "### searchbench gate: FAIL",
			summary: []string{"; cases: flows/no-then-go-ahead, routing/", "prompts changed: seed@" + w.base[:7]},
			comment: []string{"gate: FAIL", "cases: flows/no-then-go-ahead, routing/"}, junit: true, junitFail: true}},
		{"a prompt PR re-recorded with an improving policy", pr("pr-careful", "team/searchbench", "dev"), want{
			gate: 0, shards: 0, first: "### searchbench gate: PASS",
			summary: []string{"improved (not violations): ", "prompts changed: seed@"},
			comment: []string{"gate: PASS", "improved"}, junit: true}},
		// The PR recipe of docs/ci.md: a trade-off re-recorded (make
		// pr-update), its one significant fall accepted in gates.accept.yaml.
		{"an improving PR with one accepted regression", pr("pr-tradeoff", "team/searchbench", "dev"), want{
			gate: 0, shards: 0, first: "### searchbench gate: PASS with 1 accepted regression (routing/t-h100-maker: " + tradeoffReason + ")",
			comment: []string{"PASS with 1 accepted regression (routing/t-h100-maker: " + tradeoffReason + ")"}, junit: true}},
		{"the same PR without the acceptance fails the gate job only, naming the case", pr("pr-tradeoff-unaccepted", "team/searchbench", "dev"), want{
			gate: 1, shards: 0, first: "### searchbench gate: FAIL (1 violation: 1 rate\\_drop; cases: routing/t-h100-maker)",
			comment: []string{"gate: FAIL (1 violation: 1 rate\\_drop; cases: routing/t-h100-maker)"}, junit: true, junitFail: true}},
		{"a PR that turns flips off says so in its verdict line", pr("pr-flips-off", "team/searchbench", "dev"), want{
			gate: 0, shards: 0, first: "### searchbench gate: PASS; gates.yaml weakened in this change: flips off",
			comment: []string{"gates.yaml weakened in this change: flips off"}, junit: true}},
		{"a PR that commits a cassette recorded live", pr("pr-live-cassette", "team/searchbench", "dev"), want{
			gate: 0, shards: 0, first: "### searchbench gate: PASS",
			comment: []string{"gate: PASS"}, junit: true}},
		{"a prompt PR with no re-record", pr("pr-stale", "team/searchbench", "dev"), want{
			gate: 3, shards: 3, first: "### searchbench: cassettes not replayable: ",
			summary: []string{"stale (phase2.md changed since they were recorded)", "searchbench record --backend sim --variant seed --mode model --datasets datasets --stale"},
			comment: []string{"cassettes not replayable", "--stale"}, junit: true, junitFail: true}},
		{"a fork's PR gets its verdict without a comment", pr("pr-careless", "someone/searchbench", "someone"), want{
			gate: 1, shards: 0, first: "### searchbench gate: FAIL", noComment: true}},
		{"a Dependabot PR", pr("pr-docs", "team/searchbench", "dependabot[bot]"), want{
			gate: 0, shards: 0, first: "### searchbench gate: PASS", noComment: true}},
		{"a push to main gates against the committed baseline", event{name: "push", ref: "main", repo: "team/searchbench", actor: "dev"}, want{
			gate: 0, shards: 0, first: "### searchbench gate: PASS", summary: []string{"compared with the baseline"}, noComment: true, junit: true}},
	}
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			r := w.runner(t, sc.ev)
			if sc.want.bench {
				delete(r.skip, "bench")
			}
			jobs := r.run()
			if sc.want.bench {
				checkBench(t, jobs["bench"])
			}
			worst := 0
			for _, s := range jobs["shard"] {
				worst = max(worst, s.exit)
			}
			if len(jobs["shard"]) != 4 {
				t.Fatalf("%d shard jobs ran, want 4 (two modes, two shards each)", len(jobs["shard"]))
			}
			if worst != sc.want.shards {
				t.Errorf("shards exited %d at worst, want %d", worst, sc.want.shards)
			}
			if len(jobs["gate"]) != 1 {
				t.Fatalf("the gate job ran %d times", len(jobs["gate"]))
			}
			g := jobs["gate"][0]
			if g.exit != sc.want.gate {
				t.Errorf("the gate job exited %d, want %d\n%s", g.exit, sc.want.gate, tail(g.log, 3000))
			}
			first, _, _ := strings.Cut(g.summary, "\n")
			if !strings.HasPrefix(first, sc.want.first) {
				t.Errorf("the step summary opens with\n%s\nwant the prefix\n%s", first, sc.want.first)
			}
			for _, s := range sc.want.summary {
				if !strings.Contains(g.summary, s) {
					t.Errorf("the step summary lacks %q", s)
				}
			}
			gh, _ := os.ReadFile(r.ghLog)
			if sc.want.noComment {
				if len(gh) > 0 {
					t.Errorf("gh was called on a read-only token:\n%s", gh)
				}
				if sc.ev.name == "pull_request" && !strings.Contains(strings.Join(g.notices, "\n"), "read-only token") {
					t.Errorf("no notice says why there is no comment; notices: %q", g.notices)
				}
			} else {
				// The comment is found by its marker, then posted (this
				// runner's PR has none yet): never gh's --edit-last.
				if !strings.HasPrefix(string(gh), "api --paginate repos/team/searchbench/issues/7/comments --jq ") ||
					!strings.Contains(string(gh), "\npr comment 7 --body-file comment.md\n<!-- searchbench-verdict -->\n") {
					t.Errorf("gh calls:\n%s", gh)
				}
				for _, s := range sc.want.comment {
					if !strings.Contains(string(gh), s) {
						t.Errorf("the comment lacks %q:\n%s", s, tail(string(gh), 2000))
					}
				}
			}
			if (len(g.junit) > 0) != sc.want.junit {
				t.Errorf("junit published: %v, want %v", g.junit, sc.want.junit)
			}
			if sc.want.junit && len(g.junit) > 0 {
				failing := slices.ContainsFunc(g.junit, func(j string) bool { return strings.Contains(j, "<failure") })
				if failing != sc.want.junitFail {
					t.Errorf("a junit.xml has a <failure>: %v, want %v", failing, sc.want.junitFail)
				}
			}
			if t.Failed() {
				for _, s := range jobs["shard"] {
					t.Logf("shard %v exit %d\n%s", s.matrix, s.exit, tail(s.log, 1500))
				}
			}
		})
	}
}

// checkBench checks the bench job's one run: it succeeded and its summary
// holds benchstat's tables of the base against the pull request.
func checkBench(t *testing.T, runs []*jobRun) {
	t.Helper()
	if len(runs) != 1 || runs[0].skipped {
		t.Fatalf("the bench job ran %d times (skipped: %v), want once on a pull request", len(runs), len(runs) == 1 && runs[0].skipped)
	}
	b := runs[0]
	if b.exit != 0 {
		t.Errorf("the bench job exited %d\n%s", b.exit, tail(b.log, 12000))
	}
	for _, s := range []string{"### Benchmarks: replay + score, base ", "base.txt", "head.txt", "vs base", "allocs/case", "ReplayScore-", "CachedReplayScore-"} {
		if !strings.Contains(b.summary, s) {
			t.Errorf("the bench job's summary lacks %q:\n%s", s, tail(b.summary, 2000))
		}
	}
}

// runs joins a job's run: scripts.
func runs(j *actionlint.Job) string {
	var b strings.Builder
	for _, s := range j.Steps {
		if e, ok := s.Exec.(*actionlint.ExecRun); ok {
			b.WriteString(e.Run.Value + "\n")
		}
	}
	return b.String()
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

// world is the repositories the scenarios share: origin (bare) with main
// at the base commit and a branch per kind of pull request.
type world struct {
	t      *testing.T
	root   string
	origin string
	base   string // main's commit
	env    []string
	wf     *actionlint.Workflow
}

func newWorld(t *testing.T) *world {
	root := t.TempDir()
	w := &world{t: t, root: root, origin: filepath.Join(root, "origin.git")}
	data, err := os.ReadFile(filepath.Join(repo, ".github", "workflows", "searchbench.yml"))
	if err != nil {
		t.Fatal(err)
	}
	w.wf, _ = actionlint.Parse(data)

	// The bench job builds benchstat, go.mod's tool, offline: building it
	// here first brings its modules into the cache (from the module proxy
	// when missing). Downloading x/perf alone would leave out its own
	// dependency, go-moremath.
	if out, err := exec.Command("go", "-C", repo, "build", "-o", filepath.Join(root, "benchstat"), "golang.org/x/perf/cmd/benchstat").CombinedOutput(); err != nil {
		t.Fatalf("go build golang.org/x/perf/cmd/benchstat: %v\n%s", err, out)
	}

	// The steps' environment: offline Go with the user's caches, git with an
	// identity, the gh stub first on PATH.
	stub := filepath.Join(root, "stub")
	if err := os.MkdirAll(stub, 0o755); err != nil {
		t.Fatal(err)
	}
	writeGHStub(t, stub)
	w.env = []string{"PATH=" + stub + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "TMPDIR=" + os.TempDir(), "CI=true",
		"GOPROXY=off", "GOTOOLCHAIN=local", "GOFLAGS=-mod=readonly",
		// The bench job's benchmarks, small: 20 cases, two runs a side.
		"SEARCHBENCH_BENCH_N=20", "BENCH_COUNT=2", "BENCH_TIME=1x",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid",
		vcr.CacheEnv + "=" + filepath.Join(root, "vcr-cache")}
	for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOROOT"} {
		out, err := exec.Command("go", "env", k).Output()
		if err != nil {
			t.Fatalf("go env %s: %v", k, err)
		}
		w.env = append(w.env, k+"="+strings.TrimSpace(string(out)))
	}

	// main: the demo tree (internal/demo) as a fresh clone has it: this
	// tree's code with the pinned demo data and its recordings, never the
	// team's working cassettes, baseline and prompts.
	work := filepath.Join(root, "work")
	if err := demo.CopyTree(demo.Tree(t), work); err != nil {
		t.Fatal(err)
	}
	w.sh(t, work, "git init --quiet -b main . && git add -A && git commit --quiet -m base && "+
		"git init --quiet --bare "+w.origin+" && git -C "+w.origin+" config uploadpack.allowAnySHA1InWant true && "+
		"git push --quiet "+w.origin+" main && go build -o bin/searchbench ./cmd/searchbench")
	w.base = strings.TrimSpace(w.sh(t, work, "git rev-parse HEAD"))
	edit := "printf '\\nCite the primary source when there is one.\\n' >> prompts/seed/phase2.md"
	// The trade-off PR follows docs/ci.md's recipe: make pr-update, the
	// gate against the base, which names the case that fell, and the
	// acceptance of it.
	tradeoff := edit + " && make pr-update SIM_POLICY=trades-one >/dev/null && " +
		"{ bin/searchbench run --quiet --gates gates.yaml --baseline-ref main >/dev/null || test $? = 1; }"
	for _, b := range []struct{ branch, script string }{
		{"pr-docs", "printf '\\nA line of documentation.\\n' >> README.md"},
		{"pr-stale", edit},
		{"pr-careless", edit + " && bin/searchbench record --backend sim --sim-policy careless --variant seed --stale"},
		{"pr-careful", edit + " && bin/searchbench record --backend sim --sim-policy careful --variant seed --stale"},
		{"pr-tradeoff", tradeoff + " && bin/searchbench accept routing/t-h100-maker --reason '" + tradeoffReason + "'"},
		{"pr-tradeoff-unaccepted", tradeoff},
		{"pr-flips-off", "sed -i 's/^  flips: true$/  flips: false/' gates.yaml && grep -q '^  flips: false$' gates.yaml"},
		// One case recorded live against the simulator served on loopback
		// (its ten samples, as recorded.json lists), over the simulator's
		// cassettes, in both output modes the gate replays, and the live
		// judge calibrated (both modes' verdicts are now partly a model's):
		// it replays with no environment set.
		{"pr-live-cassette", `eval "$(bin/searchbench sim --env --addr 127.0.0.1:0)" && ` +
			`s=0 && for m in model structured; do bin/searchbench record --backend live --no-pace --mode $m --filter id:t-iphone-year >/dev/null || { s=$?; break; }; done && ` +
			`{ test $s != 0 || make calibration JUDGE=model >/dev/null || s=$?; } && ` +
			`kill "$SEARCHBENCH_SIM_PID" && test $s = 0 && ` +
			`grep -q '"backend": *"live"' cassettes/seed/model/recorded.json && grep -q '"backend": *"live"' cassettes/seed/structured/recorded.json`},
	} {
		w.sh(t, work, "git checkout --quiet -B "+b.branch+" main && "+b.script+" && git add -A && git commit --quiet -m "+b.branch+
			" && git push --quiet "+w.origin+" "+b.branch)
	}
	return w
}

// sh runs a script in dir with the world's environment.
func (w *world) sh(t *testing.T, dir, script string) string {
	t.Helper()
	cmd := exec.Command("bash", "-eo", "pipefail", "-c", script)
	cmd.Dir = dir
	cmd.Env = w.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
	return string(out)
}

// runner is a runner for ev with a scratch folder of its own.
func (w *world) runner(t *testing.T, ev event) *runner {
	root := t.TempDir()
	r := &runner{t: t, wf: w.wf, origin: w.origin, ev: ev, root: root, artifacts: filepath.Join(root, "artifacts"), workspace: filepath.Join(w.root, "workspace"),
		ghLog: filepath.Join(root, "gh.log"), skip: map[string]string{"test": "make test runs this test", "bench": "minutes of benchmarks: one scenario runs it"}}
	r.env = append(append([]string(nil), w.env...), "GH_LOG="+r.ghLog)
	return r
}

// ghStub stands in for gh: it records its arguments and every body it is
// given in $GH_LOG, and keeps the comment it posted in $GH_LOG.comment, so
// that listing the pull request's comments finds it (id 101, posted by
// github-actions[bot]) as GitHub would.
const ghStub = `#!/usr/bin/env bash
printf '%s\n' "$*" >> "$GH_LOG"
state="$GH_LOG.comment"
if [ "$1" = api ] && [ "$2" = --paginate ]; then
	[ ! -f "$state" ] || echo 101
	exit 0
fi
prev=""
for a in "$@"; do
	f=""
	[ "$prev" != --body-file ] || f=$a
	case $a in body=@*) f=${a#body=@} ;; esac
	if [ -n "$f" ]; then cat "$f" >> "$GH_LOG"; cp "$f" "$state"; fi
	prev=$a
done
`

func writeGHStub(t *testing.T, dir string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "gh"), []byte(ghStub), 0o755); err != nil {
		t.Fatal(err)
	}
}
