// Package gate implements `searchbench gate`, and holds what run and merge
// share with it: the --gates/--baseline flags, their checks, evaluating a
// written report, and publishing the report set with the verdict in it. One
// code path judges a run, a merged report and a saved report.
package gate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	evalgate "github.com/searchbench/searchbench/eval/gate"
	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/lib/fsutil"
	"github.com/searchbench/searchbench/lib/secret"
)

// Report file names inside an output folder.
const (
	JSONName     = "report.json"
	MarkdownName = "report.md"
	JUnitName    = "junit.xml"
	HTMLName     = report.HTMLName
	TracesName   = report.TracesName
)

// Flags are the gating flags run, merge and gate share.
type Flags struct {
	Gates         string
	Baseline      string
	BaselineRef   string
	Accept        string
	AllowMismatch bool
}

// DefaultBaselinePath is the baseline a --baseline-ref reads at its commit.
const DefaultBaselinePath = "reports/baseline.json"

// Register adds the flags to fs. gatesUsage differs per command.
func (f *Flags) Register(fs *pflag.FlagSet, gatesUsage string) {
	fs.StringVar(&f.Gates, "gates", "", gatesUsage)
	fs.StringVar(&f.Baseline, "baseline", "", "baseline report `JSON` to gate against (a release gate: the committed baseline)")
	fs.StringVar(&f.BaselineRef, "baseline-ref", "", "gate against the baseline committed at git `REF` (origin/main, HEAD~1; REF:path for another file than "+
		DefaultBaselinePath+"): a change judged against its base, where changed prompts are expected and improvements never fail")
	fs.StringVar(&f.Accept, "accept", "", "regressions the change accepts, each with its reason (`YAML`; default: "+evalgate.AcceptFile+" beside --gates, when it exists)")
	fs.BoolVar(&f.AllowMismatch, "allow-mismatch", false, "allow a baseline of another variant or mode")
}

// Judge is a loaded gates file and baseline, ready to evaluate reports.
type Judge struct {
	Config        *evalgate.Config
	Baseline      string
	AllowMismatch bool
	// Reference and refData are the baseline read from git (--baseline-ref).
	Reference *report.Reference
	refData   []byte
	// PromptsChanged allows a variant-hash change against a baseline file
	// (see evalgate.Options).
	PromptsChanged bool
	// Accept are the accepted regressions; BaseGates the gates file at the
	// reference (nil without one, or when the base has none).
	Accept    *evalgate.Acceptances
	BaseGates *evalgate.Config
}

// Load checks the flags before any work is done: the gates file parses
// against the scorers' metric catalogue, the baseline exists, and out (the
// folder the report set will be written to, "" for none) would not
// overwrite the baseline. It returns nil, nil when no --gates was given.
func (f *Flags) Load(out string) (*Judge, error) {
	if f.Baseline != "" && f.BaselineRef != "" {
		return nil, cmdutil.Usagef("--baseline and --baseline-ref are two ways to name the baseline: give one (--baseline-ref REF:path reads another file at REF)")
	}
	if f.Baseline != "" && f.Gates == "" {
		return nil, cmdutil.Usagef("--baseline needs --gates")
	}
	if f.BaselineRef != "" && f.Gates == "" {
		return nil, cmdutil.Usagef("--baseline-ref needs --gates")
	}
	if f.Gates == "" {
		return nil, nil
	}
	data, err := os.ReadFile(f.Gates)
	if err != nil {
		return nil, cmdutil.Usage(fmt.Errorf("reading gates: %w", err))
	}
	cfg, err := evalgate.Load(f.Gates, data, score.All())
	if err != nil {
		return nil, cmdutil.Usage(err)
	}
	// The calibration report, like the acceptances, is named relative to
	// the gates file, so a gate run from another folder reads the same one.
	if j := cfg.Judges; j != nil && !filepath.IsAbs(j.Calibration) {
		j.Calibration = filepath.Join(filepath.Dir(f.Gates), j.Calibration)
	}
	if f.Baseline != "" {
		bi, err := os.Stat(f.Baseline)
		if err != nil {
			return nil, cmdutil.Infra(fmt.Errorf("reading baseline: %w (create it with: make baseline)", err))
		}
		// The run would replace the baseline with itself and then judge
		// itself against it: every gate would pass.
		if out != "" {
			if oi, err := os.Stat(filepath.Join(out, JSONName)); err == nil && os.SameFile(bi, oi) {
				return nil, cmdutil.Usagef("--baseline %s is the report --out %s would write: the run would be judged against itself; "+
					"copy the baseline elsewhere (make baseline writes reports/baseline.json) or choose another --out", f.Baseline, out)
			}
		}
	}
	j := &Judge{Config: cfg, Baseline: f.Baseline, AllowMismatch: f.AllowMismatch}
	if f.BaselineRef != "" {
		ref, data, err := ReadRef(f.BaselineRef)
		if err != nil {
			return nil, err
		}
		j.Reference, j.refData = ref, data
		j.Baseline = ref.Path + "@" + ref.Ref
		// The gates file the base judged with, to name how this change
		// weakens it. A base without one (the file is new) has nothing to
		// weaken.
		if old, err := exec.Command("git", "show", ref.Commit+":"+filepath.ToSlash(filepath.Clean(f.Gates))).Output(); err == nil {
			if bc, err := evalgate.Load(f.Gates+"@"+ref.Ref, old, score.All()); err == nil {
				j.BaseGates = bc
			}
		}
	}
	acc := f.Accept
	if acc == "" {
		acc = filepath.Join(filepath.Dir(f.Gates), evalgate.AcceptFile)
		if _, err := os.Stat(acc); err != nil {
			acc = ""
		}
	}
	if acc != "" {
		data, err := os.ReadFile(acc)
		if err != nil {
			return nil, cmdutil.Usage(fmt.Errorf("reading accepted regressions: %w", err))
		}
		if j.Accept, err = evalgate.LoadAcceptances(filepath.ToSlash(acc), data); err != nil {
			return nil, cmdutil.Usage(err)
		}
	}
	return j, nil
}

// baselineID is the fingerprint of the baseline's bytes ("" without one).
func (j *Judge) baselineID() (string, error) {
	switch {
	case j.Reference != nil:
		return report.Fingerprint(j.refData), nil
	case j.Baseline != "":
		data, err := os.ReadFile(j.Baseline)
		if err != nil {
			return "", cmdutil.Infra(fmt.Errorf("reading baseline: %w", err))
		}
		return report.Fingerprint(data), nil
	}
	return "", nil
}

// ReadRef reads the baseline committed at spec, "REF" (reports/baseline.json)
// or "REF:path", with git from the current folder, without a checkout. A
// ref git cannot resolve is a usage error; a commit without the file an
// infrastructure error (exit 3), like a missing --baseline file.
func ReadRef(spec string) (*report.Reference, []byte, error) {
	rev, path, ok := strings.Cut(spec, ":")
	if !ok || path == "" {
		path = DefaultBaselinePath
	}
	if rev == "" {
		return nil, nil, cmdutil.Usagef("--baseline-ref %q names no git ref", spec)
	}
	out, err := exec.Command("git", "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}").Output()
	if err != nil {
		return nil, nil, cmdutil.Usagef("--baseline-ref %s: git cannot resolve %q to a commit here (%v); in CI, fetch it first (git fetch origin <base-sha>)", spec, rev, exitText(err))
	}
	commit := strings.TrimSpace(string(out))
	ref := &report.Reference{Ref: rev, Commit: commit, Path: filepath.ToSlash(path)}
	data, err := exec.Command("git", "show", commit+":"+ref.Path).Output()
	if err != nil {
		return nil, nil, cmdutil.Infra(fmt.Errorf("--baseline-ref %s: %s does not exist at %s (%v): the base has no baseline to gate against; create it there with make baseline",
			spec, ref.Path, ref, exitText(err)))
	}
	return ref, data, nil
}

// exitText is a failed git's stderr, or its error.
func exitText(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) && len(bytes.TrimSpace(ee.Stderr)) > 0 {
		return strings.TrimSpace(string(ee.Stderr))
	}
	return err.Error()
}

// Evaluate judges the report src. A variant or mode mismatch is a usage
// error, an unreadable report an infrastructure error.
func (j *Judge) Evaluate(src report.Source) (*report.Gate, error) {
	var base report.Source
	switch {
	case j.Reference != nil:
		base = report.Bytes(j.Baseline, j.refData)
	case j.Baseline != "":
		base = report.File(j.Baseline)
	}
	id, err := j.baselineID()
	if err != nil {
		return nil, err
	}
	v, err := evalgate.Evaluate(j.Config, src, base, evalgate.Options{AllowMismatch: j.AllowMismatch, Scorers: score.All(),
		Reference: j.Reference, PromptsChanged: j.PromptsChanged, Accept: j.Accept, BaselineID: id, BaseGates: j.BaseGates})
	var mm *evalgate.MismatchError
	var ae *evalgate.AcceptError
	switch {
	case errors.As(err, &mm), errors.As(err, &ae):
		return nil, cmdutil.Usage(err)
	case err != nil:
		return nil, cmdutil.Infra(err)
	}
	return v, nil
}

// Print writes the verdict for a terminal, fitting width columns (≤ 0: no
// limit): violations, notes, then the verdict line last.
func Print(w io.Writer, v *report.Gate, width int) error {
	if _, err := fmt.Fprintln(w); err != nil {
		return err
	}
	return evalgate.WriteWidth(w, v, false, width)
}

// PrintQuiet writes what --quiet shows of a verdict: the verdict line
// alone on a pass; the violations and the line on a failure. The notes,
// new and improved cases stay in the report.
func PrintQuiet(w io.Writer, v *report.Gate, width int) error {
	q := *v
	q.Notes, q.NewCases, q.Improved = nil, nil, nil
	return evalgate.WriteWidth(w, &q, false, width)
}

// PrintUnjudged prints, in place of a verdict, why there is none: what
// cannot replay and the one command that re-records it, then one line for
// the violations that follow from it (v may be nil).
func PrintUnjudged(w io.Writer, u *report.Unplayable, v *report.Gate, width int) error {
	lines := report.WrapText("searchbench: "+u.What()+"; re-record them with:", width, "  ")
	lines = append(lines, "  "+u.Command) // never cut: the command to copy
	n := 0
	if v != nil {
		n = len(v.Violations)
	}
	lines = append(lines, report.WrapText(u.Unjudged(n), width, "  ")...)
	for _, l := range lines {
		if _, err := fmt.Fprintln(w, l); err != nil {
			return err
		}
	}
	return nil
}

// Exit is the command's result for verdict v: nil for a pass, an exit-1
// error for a fail.
func Exit(v *report.Gate) error {
	if v == nil || v.Pass() {
		return nil
	}
	return cmdutil.Fail(fmt.Errorf("%d gate violation(s)", len(v.Violations)))
}

// Outputs names the files of a report set; empty names are not written.
// Traces is written only when the report comes with traces (see Publish).
type Outputs struct {
	JSON, Markdown, JUnit, HTML, Traces string
}

// In returns the report set of folder dir.
func In(dir string) Outputs {
	return Outputs{JSON: filepath.Join(dir, JSONName), Markdown: filepath.Join(dir, MarkdownName), JUnit: filepath.Join(dir, JUnitName),
		HTML: filepath.Join(dir, HTMLName), Traces: filepath.Join(dir, TracesName)}
}

// TracesBeside returns the traces file written with the report at path,
// or "" when there is none (a merged report, or one written before
// traces were kept). Only a report named report.json has traces beside
// it: a renamed copy (a baseline, a shard saved as shard1.json) may share
// its folder with other reports.
func TracesBeside(path string) string {
	if filepath.Base(path) != JSONName {
		return ""
	}
	p := filepath.Join(filepath.Dir(path), TracesName)
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// A Target is one report set Publish writes: its files, and the options
// of its Markdown report.
type Target struct {
	Outs Outputs
	Text report.TextOptions
}

// Publish renders the report src, with verdict v (nil when ungated), into
// the files of every target, and through also (a terminal report), in one
// pass over src: the writers work side by side. A target that is a whole
// folder's set (In(dir)) is written into a fresh folder beside dir and
// swapped in with one rename (fsutil.SetDir), so a reader, a concurrent run
// into the same folder or a run killed at any moment never leaves or sees
// a mixed set. Other targets (merge's named files) are written under
// temporary names and renamed into place when all were written, under a
// lock of their folder. Every byte passes the scrubber of
// set. traces is the report's traces file (already scrubbed when it was
// written), "" for none: it is copied beside each target's report and the
// HTML reports embed it.
func Publish(src report.Source, traces string, v *report.Gate, targets []Target, set *secret.Set, also ...report.Writer) error {
	var files []*fsutil.AtomicFile
	var sets []*fsutil.SetDir
	defer func() {
		for _, f := range files {
			f.Abort()
		}
		for _, s := range sets {
			s.Abort()
		}
	}()
	// The traces are streamed from their file, never held whole: into the
	// HTML pages, and copied beside the reports.
	var traceSrc report.Source
	if traces != "" {
		if _, err := os.Stat(traces); err != nil {
			return cmdutil.Infra(fmt.Errorf("reading traces: %w", err))
		}
		traceSrc = report.Source{Name: report.TracesName, Open: func() (io.ReadCloser, error) {
			f, err := os.Open(traces)
			if err != nil {
				err = fmt.Errorf("reading traces: %w", err)
			}
			return f, err
		}}
	}
	var ws []report.Writer
	var sinks []*secret.Writer
	for _, t := range targets {
		outs, text := t.Outs, t.Text
		if dir := filepath.Dir(outs.JSON); isSet(outs) {
			sd, err := fsutil.CreateSetDir(dir)
			if err != nil {
				return cmdutil.Infra(err)
			}
			sets = append(sets, sd)
			outs = In(sd.Path(""))
		}
		for _, o := range []struct {
			path string
			mk   func(io.Writer) (report.Writer, error)
		}{
			{outs.JSON, func(w io.Writer) (report.Writer, error) { return report.NewJSON(w), nil }},
			{outs.Markdown, func(w io.Writer) (report.Writer, error) { return report.NewMarkdown(w, text), nil }},
			{outs.JUnit, func(w io.Writer) (report.Writer, error) { return report.NewJUnit(w), nil }},
			{outs.HTML, func(w io.Writer) (report.Writer, error) {
				// The page names the report where it will be, not the
				// temporary folder it is written in: two runs of the same
				// inputs write the same page.
				return report.NewHTML(w, report.HTMLOptions{Name: htmlName(t.Outs.JSON), Traces: traceSrc})
			}},
		} {
			if o.path == "" {
				continue
			}
			f, err := fsutil.CreateAtomic(o.path)
			if err != nil {
				return cmdutil.Infra(err)
			}
			files = append(files, f)
			s := secret.NewWriter(f, set)
			sinks = append(sinks, s)
			w, err := o.mk(s)
			if err != nil {
				return cmdutil.Infra(err)
			}
			ws = append(ws, w)
		}
		if outs.Traces != "" && traces != "" && !sameFile(traces, outs.Traces) {
			f, err := fsutil.CreateAtomic(outs.Traces)
			if err != nil {
				return cmdutil.Infra(err)
			}
			files = append(files, f)
			if err := copyFile(f, traces); err != nil {
				return cmdutil.Infra(fmt.Errorf("writing %s: %w", outs.Traces, err))
			}
		}
	}
	ws = append(ws, also...)
	if len(ws) == 0 {
		return nil
	}
	if err := report.Render(src, v, report.Multi(ws...)); err != nil {
		return cmdutil.Infra(err)
	}
	for _, s := range sinks {
		if err := s.Flush(); err != nil {
			return cmdutil.Infra(err)
		}
	}
	locked := map[string]bool{}
	inSet := func(name string) bool {
		for _, s := range sets {
			if strings.HasPrefix(name, s.Path("")+string(filepath.Separator)) {
				return true
			}
		}
		return false
	}
	for _, f := range files {
		dir := filepath.Dir(f.Name())
		if locked[dir] || inSet(f.Name()) {
			continue
		}
		locked[dir] = true
		unlock, err := fsutil.LockDir(dir)
		if err != nil {
			return cmdutil.Infra(err)
		}
		defer unlock()
	}
	for _, s := range sets {
		unlock, err := fsutil.LockBeside(s.Dir())
		if err != nil {
			return cmdutil.Infra(err)
		}
		defer unlock()
	}
	for _, f := range files {
		if err := f.Commit(); err != nil {
			return cmdutil.Infra(err)
		}
	}
	owned := []string{JSONName, MarkdownName, JUnitName, HTMLName, TracesName}
	for _, s := range sets {
		if err := s.Commit(owned); err != nil {
			return cmdutil.Infra(err)
		}
	}
	// Traces of an earlier run must not sit beside a report they do not
	// belong to (a set's folder was replaced whole).
	for _, t := range targets {
		if isSet(t.Outs) {
			continue
		}
		if t.Outs.Traces != "" && traces == "" {
			if err := os.Remove(t.Outs.Traces); err != nil && !errors.Is(err, os.ErrNotExist) {
				return cmdutil.Infra(err)
			}
		}
	}
	return nil
}

// htmlName names the report on its HTML page: relative paths as given, an
// absolute one by its base name (the page may be read on another machine).
func htmlName(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Base(p)
	}
	return filepath.ToSlash(p)
}

func sameFile(a, b string) bool {
	ai, err := os.Stat(a)
	if err != nil {
		return false
	}
	bi, err := os.Stat(b)
	return err == nil && os.SameFile(ai, bi)
}

// Options are the flags of `searchbench gate`.
type Options struct {
	IO     *cmdutil.IOStreams
	Report string
	Flags  Flags
	Out    string
	// Wide does not fit the verdict to 100 columns.
	Wide bool
}

// NewCmdGate returns the gate command. runF replaces gateRun in tests.
func NewCmdGate(io *cmdutil.IOStreams, runF func(context.Context, *Options) error) *cobra.Command {
	opts := &Options{IO: io}
	cmd := &cobra.Command{
		Use:   "gate REPORT.json --gates FILE [--baseline BASELINE.json]",
		Short: "Gate a saved or merged report against thresholds and a baseline",
		Long: `Judge a saved report (a run's report.json, or the output of merge) with exactly
the rules run --gates applies, print the verdict, and with --out write the report
set (report.json with its "gate" section, report.md, junit.xml, report.html, and
the traces.jsonl.gz found beside REPORT.json) to a folder.

A shard's report gets the per-case rules only; thresholds and metric regressions
are checked on the merged report.

Exit codes: 0 pass, 1 gate violated, 2 usage or input error (bad gates file,
baseline of another variant), 3 unreadable report or unwritable output.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Report = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return gateRun(opts)
		},
	}
	opts.Flags.Register(cmd.Flags(), "gates `file`: thresholds and regression rules (required)")
	cmd.Flags().StringVar(&opts.Out, "out", "", "also write report.json (with the verdict), report.md, junit.xml and report.html to this folder")
	cmd.Flags().BoolVar(&opts.Wide, "wide", false, "do not fit the verdict to 100 columns (or a narrower terminal)")
	return cmd
}

func gateRun(opts *Options) (err error) {
	defer func() {
		if opts.Out != "" {
			err = Invalidate(In(opts.Out), err, opts.Report, opts.Flags.Baseline)
		}
	}()
	if opts.Flags.Gates == "" {
		return cmdutil.Usagef("gate needs --gates FILE")
	}
	if _, err := os.Stat(opts.Report); err != nil {
		return cmdutil.Usage(err)
	}
	j, err := opts.Flags.Load(opts.Out)
	if err != nil {
		return err
	}
	// With --out on the report's own folder, the new report.json is
	// rendered from the old one beside it and renamed over it at the end.
	src := report.File(opts.Report)
	v, err := j.Evaluate(src)
	if err != nil {
		return err
	}
	if opts.Out != "" {
		out := In(opts.Out)
		if err := Publish(src, TracesBeside(opts.Report), v, []Target{{Outs: out, Text: report.TextOptions{JSONPath: out.JSON}}}, opts.IO.Secrets()); err != nil {
			return err
		}
	}
	if err := Print(opts.IO.Out, v, opts.IO.Width(opts.Wide)); err != nil {
		return cmdutil.Infra(err)
	}
	return Exit(v)
}

// isSet reports whether outs are a whole folder's report set, published by
// swapping the folder (not the working folder: --out . writes file by file).
func isSet(outs Outputs) bool {
	dir := filepath.Dir(outs.JSON)
	return outs.JSON != "" && outs == In(dir) && fsutil.Swappable(dir)
}

// InvalidName is the file a gate that could not decide leaves in the
// report folder in place of the report set.
const InvalidName = "NO-VERDICT.txt"

// Invalidate is what a gate that ends in an input or infrastructure error
// (exit 2 or 3) does to the report set in out: an earlier run's set there
// — whose verdict may be PASS — must not survive to be published as if it
// were this run's. It removes the set's files (never one of keep: the
// report being gated, the baseline) and, when there were any, writes
// InvalidName saying why; it
// returns err, joined with any error of its own. A nil err, or a verdict
// of pass or fail (exit 0 or 1), means the set was written: only an
// InvalidName left by an earlier run is removed.
func Invalidate(out Outputs, err error, keep ...string) error {
	dir := filepath.Dir(out.JSON)
	code := cmdutil.ExitCode(err)
	if err == nil || (code != cmdutil.ExitUsage && code != cmdutil.ExitInfra) {
		if e := os.Remove(filepath.Join(dir, InvalidName)); e != nil && !errors.Is(e, os.ErrNotExist) {
			return errors.Join(err, e)
		}
		return err
	}
	if _, statErr := os.Stat(dir); statErr != nil {
		return err // nothing was ever written there
	}
	var errs []error
	removed := 0
	for _, f := range []string{out.JSON, out.Markdown, out.JUnit, out.HTML, out.Traces} {
		if f == "" || slices.ContainsFunc(keep, func(k string) bool { return k != "" && sameFile(k, f) }) {
			continue
		}
		switch e := os.Remove(f); {
		case e == nil:
			removed++
		case !errors.Is(e, os.ErrNotExist):
			errs = append(errs, e)
		}
	}
	if _, e := os.Stat(filepath.Join(dir, InvalidName)); removed == 0 && len(errs) == 0 && e != nil {
		return err // no earlier set: nothing stale to mark
	}
	note := fmt.Sprintf("searchbench gate: no verdict (exit %d). The report set that was here was removed, so an earlier verdict cannot be taken for this one.\n\n%v\n", code, err)
	if e := fsutil.WriteFileAtomic(filepath.Join(dir, InvalidName), []byte(note), 0o644); e != nil {
		errs = append(errs, e)
	}
	if len(errs) > 0 {
		return errors.Join(append([]error{err}, errs...)...)
	}
	return err
}

// copyFile copies the file at path into w.
func copyFile(w io.Writer, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(w, f)
	return err
}
