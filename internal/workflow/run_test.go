package workflow

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"

	"github.com/searchbench/searchbench/eval/vcr"
	"github.com/searchbench/searchbench/internal/demo"
	"github.com/searchbench/searchbench/lib/testenv"
)

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
	}
	scenarios := []struct {
		name string
		ev   event
		want want
	}{
		{"a PR that changes no prompt", pr("pr-docs", "team/searchbench", "dev"), want{
			gate: 0, shards: 0, first: "### searchbench gate: PASS",
			summary: []string{"compared with " + w.base[:7]},
			comment: []string{"gate: PASS", "This pull request against its base"}, junit: true}},
		{"a prompt PR re-recorded with a regressing policy", pr("pr-careless", "team/searchbench", "dev"), want{
			gate: 1, shards: 1, first: "### searchbench gate: FAIL",
			summary: []string{"; cases: flows/no-then-go-ahead, routing/", "prompts changed: seed@" + w.base[:7]},
			comment: []string{"gate: FAIL", "cases: flows/no-then-go-ahead, routing/"}, junit: true, junitFail: true}},
		{"a prompt PR re-recorded with an improving policy", pr("pr-careful", "team/searchbench", "dev"), want{
			gate: 0, shards: 0, first: "### searchbench gate: PASS",
			summary: []string{"improved (not violations): ", "prompts changed: seed@"},
			comment: []string{"gate: PASS", "improved"}, junit: true}},
		{"a prompt PR with no re-record", pr("pr-stale", "team/searchbench", "dev"), want{
			gate: 3, shards: 3, first: "### searchbench: cassettes not replayable: ",
			summary: []string{"stale (phase2.md changed since they were recorded)", "searchbench record --backend sim --variant seed --mode model --datasets datasets --stale"},
			comment: []string{"cassettes not replayable", "--stale"}, junit: true, junitFail: true}},
		{"a fork's PR gets its verdict without a comment", pr("pr-careless", "someone/searchbench", "someone"), want{
			gate: 1, shards: 1, first: "### searchbench gate: FAIL", noComment: true}},
		{"a Dependabot PR", pr("pr-docs", "team/searchbench", "dependabot[bot]"), want{
			gate: 0, shards: 0, first: "### searchbench gate: PASS", noComment: true}},
		{"a push to main gates against the committed baseline", event{name: "push", ref: "main", repo: "team/searchbench", actor: "dev"}, want{
			gate: 0, shards: 0, first: "### searchbench gate: PASS", summary: []string{"compared with the baseline"}, noComment: true, junit: true}},
	}
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			r := w.runner(t, sc.ev)
			jobs := r.run()
			worst := 0
			for _, s := range jobs["shard"] {
				worst = max(worst, s.exit)
			}
			if len(jobs["shard"]) != 4 {
				t.Fatalf("%d shard jobs ran, want 4", len(jobs["shard"]))
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
				if !strings.HasPrefix(string(gh), "pr comment 7 --body-file comment.md --edit-last --create-if-none\n") {
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
				if strings.Contains(g.junit[0], "<failure") != sc.want.junitFail {
					t.Errorf("junit.xml has a <failure>: %v, want %v", !sc.want.junitFail, sc.want.junitFail)
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

	// The steps' environment: offline Go with the user's caches, git with an
	// identity, the gh stub first on PATH.
	stub := filepath.Join(root, "stub")
	if err := os.MkdirAll(stub, 0o755); err != nil {
		t.Fatal(err)
	}
	gh := "#!/usr/bin/env bash\n# gh stand-in: records its arguments, then the body file it was given.\n" +
		"printf '%s\\n' \"$*\" >> \"$GH_LOG\"\n" +
		"prev=\"\"; for a in \"$@\"; do if [ \"$prev\" = --body-file ]; then cat \"$a\" >> \"$GH_LOG\"; fi; prev=$a; done\n"
	if err := os.WriteFile(filepath.Join(stub, "gh"), []byte(gh), 0o755); err != nil {
		t.Fatal(err)
	}
	w.env = []string{"PATH=" + stub + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "TMPDIR=" + os.TempDir(), "CI=true",
		"GOPROXY=off", "GOTOOLCHAIN=local", "GOFLAGS=-mod=readonly",
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
	for _, b := range []struct{ branch, script string }{
		{"pr-docs", "printf '\\nA line of documentation.\\n' >> README.md"},
		{"pr-stale", edit},
		{"pr-careless", edit + " && bin/searchbench record --backend sim --sim-policy careless --variant seed --stale"},
		{"pr-careful", edit + " && bin/searchbench record --backend sim --sim-policy careful --variant seed --stale"},
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
		ghLog: filepath.Join(root, "gh.log"), skip: map[string]string{"test": "make test runs this test"}}
	r.env = append(append([]string(nil), w.env...), "GH_LOG="+r.ghLog)
	return r
}
