package workflow

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"
)

// This file is a small stand-in for a GitHub Actions runner: enough of one
// to execute the project's own workflow file literally, step by step, on a
// local git repository. Each job runs in a fresh shallow clone of the
// repository's "origin", as actions/checkout makes one; run: scripts run in
// bash as GitHub's default shell does (-eo pipefail) with ${{ }} expressions
// evaluated (the expression parser is actionlint's); GITHUB_ENV,
// GITHUB_OUTPUT and GITHUB_STEP_SUMMARY are files read after every step; the
// artifact actions copy folders, and gh is a stub that records its calls.

// event is what GitHub hands the workflow.
type event struct {
	name     string // pull_request or push
	ref      string // the pushed or head branch
	baseSHA  string // pull_request only
	number   int
	headRepo string // owner/name the pull request comes from
	repo     string // owner/name of this repository
	actor    string
}

// jobRun is the outcome of one job (one matrix entry).
type jobRun struct {
	job     string
	matrix  map[string]string
	exit    int      // the first failing step's exit status, 0 when none failed
	skipped bool     // the job's if was false
	summary string   // $GITHUB_STEP_SUMMARY, every step's
	notices []string // ::notice lines the steps printed
	log     string   // every step's output, for failures
	dir     string   // the job's work folder
	steps   []string // names of the steps that ran
	junit   []string // the JUnit files the publisher received
}

// runner runs one workflow for one event.
type runner struct {
	t         *testing.T
	wf        *actionlint.Workflow
	origin    string // bare repository the jobs clone
	ev        event
	root      string            // scratch folder: step files, artifacts
	workspace string            // the folder every job clones into
	env       []string          // base environment of every step
	artifacts string            // uploaded artifacts, a folder each
	ghLog     string            // the gh stub's record
	skip      map[string]string // job id → why the runner does not run it
}

// run executes every job in dependency order and returns their runs.
func (r *runner) run() map[string][]*jobRun {
	r.t.Helper()
	out := map[string][]*jobRun{}
	done := map[string]bool{}
	for len(done) < len(r.wf.Jobs) {
		progressed := false
		ids := slices.Sorted(func(yield func(string) bool) {
			for id := range r.wf.Jobs {
				if !yield(id) {
					return
				}
			}
		})
		for _, id := range ids {
			j := r.wf.Jobs[id]
			waiting := slices.ContainsFunc(j.Needs, func(s *actionlint.String) bool { return !done[s.Value] })
			if done[id] || waiting {
				continue
			}
			done[id], progressed = true, true
			if _, ok := r.skip[id]; ok {
				continue
			}
			var needs []*jobRun
			for _, n := range j.Needs {
				needs = append(needs, out[n.Value]...)
			}
			for _, m := range matrixOf(j) {
				out[id] = append(out[id], r.job(id, j, m, needs))
			}
		}
		if !progressed {
			r.t.Fatal("the workflow's jobs depend on each other in a cycle")
		}
	}
	return out
}

// matrixOf expands a job's matrix (rows only; include/exclude are not
// used by the workflow): one empty entry for a job without one.
func matrixOf(j *actionlint.Job) []map[string]string {
	out := []map[string]string{{}}
	if j.Strategy == nil || j.Strategy.Matrix == nil {
		return out
	}
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range j.Strategy.Matrix.Rows {
			if !yield(k) {
				return
			}
		}
	})
	for _, k := range keys {
		var next []map[string]string
		for _, m := range out {
			for _, v := range j.Strategy.Matrix.Rows[k].Values {
				c := map[string]string{k: strings.Trim(v.String(), `"'`)}
				for kk, vv := range m {
					c[kk] = vv
				}
				next = append(next, c)
			}
		}
		out = next
	}
	return out
}

// job runs one job in a fresh clone.
func (r *runner) job(id string, j *actionlint.Job, matrix map[string]string, needs []*jobRun) *jobRun {
	r.t.Helper()
	name := id
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range matrix {
			if !yield(k) {
				return
			}
		}
	}) {
		name += "-" + matrix[k]
	}
	// Every job works in the same folder, as on GitHub's runners: the Go
	// build cache keys on source paths, so a folder per job would compile
	// the module afresh each time.
	jr := &jobRun{job: id, matrix: matrix, dir: r.workspace}
	if err := os.RemoveAll(r.workspace); err != nil {
		r.t.Fatal(err)
	}
	needsOK := !slices.ContainsFunc(needs, func(n *jobRun) bool { return n.exit != 0 || n.skipped })
	ctx := &exprCtx{r: r, matrix: matrix, steps: map[string]map[string]string{}, env: map[string]string{}, success: needsOK}
	if !ctx.cond(j.If) {
		jr.skipped = true
		return jr
	}
	// In a job's if, success() means the needed jobs succeeded; in its
	// steps', that the job's steps so far did.
	ctx.success = true
	ref := r.ev.ref
	// As actions/checkout: one commit, unless fetch-depth: 0 asks for the
	// whole history.
	depth := []string{"--depth=1"}
	if checkoutInput(j, "fetch-depth") == "0" {
		depth = nil
	}
	if out, err := exec.Command("git", append(append([]string{"clone", "--quiet"}, depth...), "--branch", ref, "file://"+r.origin, jr.dir)...).CombinedOutput(); err != nil {
		r.t.Fatalf("%s: clone: %v\n%s", name, err, out)
	}
	ctx.env["GITHUB_WORKSPACE"] = jr.dir
	for k, v := range envVars(r.wf.Env) {
		ctx.env[k] = ctx.interpolate(v)
	}
	for k, v := range envVars(j.Env) {
		ctx.env[k] = ctx.interpolate(v)
	}
	for i, s := range j.Steps {
		label := fmt.Sprintf("step %d", i+1)
		if s.Name != nil {
			label = s.Name.Value
		}
		if !ctx.cond(s.If) {
			continue
		}
		jr.steps = append(jr.steps, label)
		code := r.step(jr, ctx, s, label)
		if code != 0 && jr.exit == 0 {
			jr.exit = code
			ctx.success = false
		}
	}
	return jr
}

// step runs one step and returns its exit status.
func (r *runner) step(jr *jobRun, ctx *exprCtx, s *actionlint.Step, label string) int {
	r.t.Helper()
	env := map[string]string{}
	for k, v := range ctx.env {
		env[k] = v
	}
	for k, v := range envVars(s.Env) {
		env[k] = ctx.interpolate(v)
	}
	switch e := s.Exec.(type) {
	case *actionlint.ExecRun:
		return r.script(jr, ctx, s, env, ctx.interpolate(e.Run.Value), label)
	case *actionlint.ExecAction:
		inputs := map[string]string{}
		for k, in := range e.Inputs {
			inputs[k] = ctx.interpolate(in.Value.Value)
		}
		return r.action(jr, e.Uses.Value, inputs, label)
	}
	r.t.Fatalf("%s: a step that neither runs nor uses", label)
	return 1
}

// script runs a run: step with bash, as GitHub's default shell does.
func (r *runner) script(jr *jobRun, ctx *exprCtx, s *actionlint.Step, env map[string]string, script, label string) int {
	r.t.Helper()
	files := map[string]string{}
	for _, k := range []string{"GITHUB_ENV", "GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY"} {
		f, err := os.CreateTemp(r.root, k+"-")
		if err != nil {
			r.t.Fatal(err)
		}
		f.Close()
		files[k] = f.Name()
	}
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script)
	cmd.Dir = jr.dir
	cmd.Env = append([]string(nil), r.env...)
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	for k, v := range files {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	out, err := cmd.CombinedOutput()
	jr.log += fmt.Sprintf("== %s\n%s", label, out)
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "::notice") {
			jr.notices = append(jr.notices, l)
		}
	}
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			r.t.Fatalf("%s: %v", label, err)
		}
		code = ee.ExitCode()
	}
	for k, v := range readKV(r.t, files["GITHUB_ENV"]) {
		ctx.env[k] = v
	}
	if s.ID != nil {
		ctx.steps[s.ID.Value] = readKV(r.t, files["GITHUB_OUTPUT"])
	}
	sum, _ := os.ReadFile(files["GITHUB_STEP_SUMMARY"])
	jr.summary += string(sum)
	return code
}

// checkoutInput is an input of the job's actions/checkout step ("" when
// it has no checkout or no such input).
func checkoutInput(j *actionlint.Job, name string) string {
	for _, s := range j.Steps {
		if e, ok := s.Exec.(*actionlint.ExecAction); ok && strings.HasPrefix(e.Uses.Value, "actions/checkout@") {
			if in, ok := e.Inputs[name]; ok {
				return in.Value.Value
			}
		}
	}
	return ""
}

// pinned is an action reference pinned to a commit.
var pinned = regexp.MustCompile(`^[a-z0-9-]+/[a-z0-9-]+@[0-9a-f]{40}$`)

// action stands in for the actions the workflow uses.
func (r *runner) action(jr *jobRun, uses string, in map[string]string, label string) int {
	r.t.Helper()
	name, _, _ := strings.Cut(uses, "@")
	if !pinned.MatchString(uses) {
		r.t.Errorf("%s: %s is not pinned to a commit SHA", label, uses)
	}
	switch name {
	case "actions/checkout", "actions/setup-go":
		return 0 // the job's clone is the checkout; go is on PATH
	case "actions/upload-artifact":
		return r.upload(jr, in)
	case "actions/download-artifact":
		return r.download(jr, in)
	case "mikepenz/action-junit-report":
		ps, _ := filepath.Glob(filepath.Join(jr.dir, in["report_paths"]))
		if len(ps) == 0 {
			jr.log += fmt.Sprintf("== %s\nno report at %s\n", label, in["report_paths"])
			return 1
		}
		for _, p := range ps {
			b, _ := os.ReadFile(p)
			jr.junit = append(jr.junit, string(b))
		}
		return 0
	}
	r.t.Errorf("%s: the test runner does not know action %s", label, uses)
	return 1
}

// upload copies the files of path (one per line) into the artifact, keyed
// by their paths below the folder they share, as upload-artifact does.
func (r *runner) upload(jr *jobRun, in map[string]string) int {
	var paths []string
	for _, p := range strings.Split(in["path"], "\n") {
		if p = strings.TrimSpace(p); p != "" {
			paths = append(paths, filepath.Clean(p))
		}
	}
	var files []string
	for _, p := range paths {
		full := filepath.Join(jr.dir, p)
		filepath.WalkDir(full, func(f string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				files = append(files, f)
			}
			return nil
		})
	}
	if len(files) == 0 {
		if in["if-no-files-found"] == "error" {
			jr.log += "upload-artifact: no files found\n"
			return 1
		}
		return 0
	}
	root := filepath.Dir(files[0])
	for _, f := range files {
		for !strings.HasPrefix(f, root+string(filepath.Separator)) {
			root = filepath.Dir(root)
		}
	}
	for _, f := range files {
		rel, _ := filepath.Rel(root, f)
		copyFile(r.t, f, filepath.Join(r.artifacts, in["name"], rel))
	}
	return 0
}

// download copies every artifact whose name matches pattern into
// path/<name>/.
func (r *runner) download(jr *jobRun, in map[string]string) int {
	entries, _ := os.ReadDir(r.artifacts)
	for _, e := range entries {
		if ok, _ := path.Match(in["pattern"], e.Name()); !ok {
			continue
		}
		src := filepath.Join(r.artifacts, e.Name())
		filepath.WalkDir(src, func(f string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(src, f)
				copyFile(r.t, f, filepath.Join(jr.dir, in["path"], e.Name(), rel))
			}
			return nil
		})
	}
	return 0
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func envVars(e *actionlint.Env) map[string]string {
	out := map[string]string{}
	if e == nil {
		return out
	}
	for _, v := range e.Vars {
		out[v.Name.Value] = v.Value.Value
	}
	return out
}

// readKV reads a GITHUB_ENV or GITHUB_OUTPUT file: NAME=value lines and
// NAME<<DELIMITER blocks.
func readKV(t *testing.T, file string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	for sc.Scan() {
		l := sc.Text()
		if k, delim, ok := strings.Cut(l, "<<"); ok && !strings.Contains(k, "=") {
			var val []string
			for sc.Scan() && sc.Text() != delim {
				val = append(val, sc.Text())
			}
			out[k] = strings.Join(val, "\n")
			continue
		}
		if k, v, ok := strings.Cut(l, "="); ok {
			out[k] = v
		}
	}
	return out
}

// exprCtx evaluates ${{ }} expressions for one job.
type exprCtx struct {
	r       *runner
	matrix  map[string]string
	steps   map[string]map[string]string
	env     map[string]string
	success bool // every step so far (and every needed job) succeeded
}

var exprRE = regexp.MustCompile(`\$\{\{(.*?)\}\}`)

// interpolate replaces every ${{ }} in s with its value.
func (c *exprCtx) interpolate(s string) string {
	return exprRE.ReplaceAllStringFunc(s, func(m string) string {
		return str(c.eval(exprRE.FindStringSubmatch(m)[1]))
	})
}

// cond evaluates an if: a missing one is success(); one without a status
// function is ANDed with success(), as GitHub does.
func (c *exprCtx) cond(s *actionlint.String) bool {
	if s == nil {
		return c.success
	}
	src := strings.TrimSpace(s.Value)
	if m := exprRE.FindStringSubmatch(src); m != nil && m[0] == src {
		src = m[1]
	}
	v := truthy(c.eval(src))
	if !regexp.MustCompile(`\b(always|cancelled|success|failure)\(`).MatchString(src) {
		v = v && c.success
	}
	return v
}

func (c *exprCtx) eval(src string) any {
	c.r.t.Helper()
	n, err := actionlint.NewExprParser().Parse(actionlint.NewExprLexer(src + "}}"))
	if err != nil {
		c.r.t.Fatalf("expression %q: %v", src, err)
	}
	return c.node(n)
}

func (c *exprCtx) node(n actionlint.ExprNode) any {
	t := c.r.t
	t.Helper()
	switch n := n.(type) {
	case *actionlint.StringNode:
		return n.Value
	case *actionlint.BoolNode:
		return n.Value
	case *actionlint.IntNode:
		return float64(n.Value)
	case *actionlint.NullNode:
		return nil
	case *actionlint.NotOpNode:
		return !truthy(c.node(n.Operand))
	case *actionlint.LogicalOpNode:
		l := c.node(n.Left)
		if n.Kind == actionlint.LogicalOpNodeKindAnd {
			if !truthy(l) {
				return l
			}
			return c.node(n.Right)
		}
		if truthy(l) {
			return l
		}
		return c.node(n.Right)
	case *actionlint.CompareOpNode:
		eq := strings.EqualFold(str(c.node(n.Left)), str(c.node(n.Right)))
		switch n.Kind {
		case actionlint.CompareOpNodeKindEq:
			return eq
		case actionlint.CompareOpNodeKindNotEq:
			return !eq
		}
	case *actionlint.FuncCallNode:
		switch strings.ToLower(n.Callee) {
		case "cancelled":
			return false
		case "always":
			return true
		case "success":
			return c.success
		case "failure":
			return !c.success
		case "hashfiles":
			return c.hashFiles(n.Args)
		}
	case *actionlint.VariableNode, *actionlint.ObjectDerefNode:
		return c.lookup(propPath(n))
	}
	t.Fatalf("the test runner cannot evaluate %T", n)
	return nil
}

// propPath turns a.b.c into its names.
func propPath(n actionlint.ExprNode) []string {
	switch n := n.(type) {
	case *actionlint.VariableNode:
		return []string{strings.ToLower(n.Name)}
	case *actionlint.ObjectDerefNode:
		return append(propPath(n.Receiver), strings.ToLower(n.Property))
	}
	return nil
}

// lookup resolves a context path; an unknown property is null, as on GitHub.
func (c *exprCtx) lookup(p []string) any {
	ev := c.r.ev
	key := strings.Join(p, ".")
	switch p[0] {
	case "matrix":
		if len(p) == 2 {
			if v, ok := c.matrix[p[1]]; ok {
				return v
			}
		}
		return nil
	case "env":
		if len(p) == 2 {
			if v, ok := c.env[strings.ToUpper(p[1])]; ok {
				return v
			}
		}
		return nil
	case "steps":
		if len(p) == 4 && p[2] == "outputs" {
			if v, ok := c.steps[p[1]][p[3]]; ok {
				return v
			}
		}
		return nil
	}
	github := map[string]any{
		"github.event_name": ev.name,
		"github.repository": ev.repo,
		"github.actor":      ev.actor,
		"github.token":      "test-token-not-a-secret",
		"github.ref":        "refs/heads/" + ev.ref,
		"github.workflow":   "searchbench",
	}
	if ev.name == "pull_request" {
		github["github.event.pull_request.number"] = float64(ev.number)
		github["github.event.pull_request.base.sha"] = ev.baseSHA
		github["github.event.pull_request.head.repo.full_name"] = ev.headRepo
	}
	if v, ok := github[key]; ok {
		return v
	}
	return nil
}

// hashFiles is "" when no file matches, else a hash of their contents.
func (c *exprCtx) hashFiles(args []actionlint.ExprNode) string {
	h := sha256.New()
	n := 0
	for _, a := range args {
		matches, _ := filepath.Glob(filepath.Join(c.workspace(), str(c.node(a))))
		for _, m := range matches {
			if b, err := os.ReadFile(m); err == nil {
				h.Write(b)
				n++
			}
		}
	}
	if n == 0 {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (c *exprCtx) workspace() string { return c.env["GITHUB_WORKSPACE"] }

func truthy(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return v
	case string:
		return v != ""
	case float64:
		return v != 0
	}
	return true
}

func str(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case bool:
		return strconv.FormatBool(v)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case string:
		return v
	}
	return fmt.Sprint(v)
}
