// Package run implements `searchbench run`: replay the datasets against
// their cassettes, score every case, print the tables, write the reports and
// optionally gate the result against thresholds and a baseline.
package run

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/eval/price"
	"github.com/searchbench/searchbench/eval/report"
	evalrun "github.com/searchbench/searchbench/eval/run"
	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/eval/vcr"
	cmdgate "github.com/searchbench/searchbench/internal/cmd/gate"
	"github.com/searchbench/searchbench/internal/cmd/variant"
	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/lib/fsutil"
	"github.com/searchbench/searchbench/lib/secret"
	"github.com/searchbench/searchbench/lib/suggest"
	"github.com/searchbench/searchbench/orchestrator/executor"
	"github.com/searchbench/searchbench/orchestrator/prompts"
	"github.com/searchbench/searchbench/sim"
)

// Report file names inside --out.
const (
	JSONName     = cmdgate.JSONName
	MarkdownName = cmdgate.MarkdownName
	JUnitName    = cmdgate.JUnitName
)

// Options are the flags of `searchbench run`.
type Options struct {
	IO *cmdutil.IOStreams

	Datasets    string
	Variant     variant.Flags
	Runs        string
	Repair      bool
	Cassettes   string
	Filter      []string
	Shard       string
	Parallel    int
	Out         string
	Config      string
	Gate        cmdgate.Flags
	Timestamps  bool
	MaxFailures int
	Quiet       bool
	Verbose     bool
	Wide        bool
	NoCache     bool
	Samples     int
	// RulesOnly grades answers by the correctness rules alone: the judge's
	// cassettes are not replayed.
	RulesOnly bool
}

// NewCmdRun returns the run command. runF replaces runRun in tests.
func NewCmdRun(io *cmdutil.IOStreams, runF func(context.Context, *Options) error) *cobra.Command {
	opts := &Options{IO: io}
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Replay the datasets, score every case and print the tables",
		Long: `Replay every dataset case against its recorded cassette (no network), score it,
print a summary (verdict and counts, headline metrics, failing checks by check;
-v prints every table) and write report.json, report.md, junit.xml, report.html
and traces.jsonl.gz to --out.

A case recorded with several samples (record --samples N) is replayed once per
sample; --samples N replays the first N, and a case with fewer is an input error.
Rates are then means over every sample with intervals over cases, and the tables
add pass@k, pass^k and the flaky cases.

With --gates (and usually --baseline) the run is also a verdict: it exits 1 when
a metric is below its threshold, a metric dropped against the baseline beyond its
tolerance, or a case that passed in the baseline fails now.

Exit codes: 0 ok, 1 gate violated, 2 usage or input error (bad dataset, bad
gates file), 3 infrastructure error (missing cassette, unrecorded request,
unreadable baseline, unwritable report).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runRun(cmd.Context(), opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Datasets, "datasets", "datasets", "folder of dataset `YAML` files")
	opts.Variant.Register(f, true)
	f.BoolVar(&opts.Repair, "repair", false, "re-render the markdown of a valid envelope instead of failing")
	f.BoolVar(&opts.RulesOnly, "rules-only", false, "grade correctness by the rules alone: do not replay the judge (what the rules defer stays undecided)")
	f.StringVar(&opts.Cassettes, "cassettes", "cassettes", "cassette root folder")
	f.StringArrayVar(&opts.Filter, "filter", nil, "select cases by id glob, tag, label or dataset (id:G, tag:T, label:L, dataset:D); repeatable, any term matches")
	f.StringVar(&opts.Shard, "shard", "", "run slice `k/n` of the cases (join shards with searchbench merge)")
	f.IntVar(&opts.Parallel, "parallel", 0, "cases replayed at once (0: one per CPU)")
	f.StringVar(&opts.Out, "out", filepath.Join("reports", "latest"), "folder for report.json, report.md, junit.xml, report.html and traces.jsonl.gz (\"\" writes none)")
	f.StringVar(&opts.Runs, "runs", filepath.Join("reports", "runs"), "`folder` of stored runs: an unsharded run also writes its reports to <runs>/<variant>/<mode>/, which compare finds by name (\"\" stores none)")
	f.StringVar(&opts.Config, "config", filepath.Join("config", "executor.yaml"), "tool-call parser configuration for the parser dataset")
	opts.Gate.Register(f, "gates `file`: thresholds and regression rules")
	f.BoolVar(&opts.Timestamps, "timestamps", false, "record the start time in the report (reports are then no longer byte-identical)")
	f.IntVar(&opts.MaxFailures, "max-failures", report.DefaultMaxFailures, "failing checks shown in the tables (negative: none; the JSON has all)")
	f.BoolVar(&opts.Quiet, "quiet", false, "print no tables (the gate verdict is still printed)")
	f.BoolVarP(&opts.Verbose, "verbose", "v", false, "print the full tables: every metric and table, each failing check and its diff")
	f.BoolVar(&opts.Wide, "wide", false, "do not cut long cells to fit 100 columns")
	f.BoolVar(&opts.NoCache, "no-cache", false, "decode every cassette from its YAML, neither reading nor writing the decoded-cassette cache ($"+vcr.CacheEnv+")")
	f.IntVar(&opts.Samples, "samples", 0, "samples replayed per routing and flows case (0: every sample recorded.json lists); a case with fewer is an input error")
	return cmd
}

func runRun(ctx context.Context, opts *Options) error {
	filter, err := dataset.ParseFilter(opts.Filter)
	if err != nil {
		return cmdutil.Usage(err)
	}
	shard, err := dataset.ParseShard(opts.Shard)
	if err != nil {
		return cmdutil.Usage(err)
	}
	v, mode, err := opts.Variant.Load()
	if err != nil {
		return err
	}
	// The datasets are validated in one pass that holds one case at a time
	// (every problem at once; nothing runs on a dataset with problems),
	// then streamed again into the replay. The same pass counts the
	// selection and sums up how its cassettes were recorded.
	shelf := (&evalrun.Options{Variant: v, Mode: mode, Cassettes: opts.Cassettes}).Shelf()
	// A recording into the shelf holds its lock while cassettes and
	// recorded.json change: wait for it before reading recorded.json, and
	// keep it out until the replay is done, so the manifest read is the
	// one the cassettes replayed match.
	unlockShelf := func() {}
	if fi, err := os.Lstat(shelf.Dir()); err == nil && fi.IsDir() {
		unlock, err := fsutil.LockDirShared(shelf.Dir())
		if err != nil {
			return cmdutil.Infra(err)
		}
		var once sync.Once
		unlockShelf = func() { once.Do(unlock) }
		defer unlockShelf()
	}
	manifest, manifestErr := shelf.LoadManifestCompact()
	var un unplayable
	items, err := evalrun.OpenStream(opts.Datasets, filter, shard, shelf, manifest, func(c *dataset.Case) {
		if manifest != nil && evalrun.NeedsTraffic(c) {
			un.add(c, evalrun.WithJudge(manifest.Check(shelf, v, c), v, opts.RulesOnly))
		}
	})
	if err != nil {
		return cmdutil.Usage(err)
	}
	judge, err := opts.Gate.Load(opts.Out)
	if err != nil {
		return invalidate(opts, err)
	}
	cfg, err := executor.LoadConfig(opts.Config)
	if err != nil {
		return cmdutil.Usage(err)
	}
	parser, err := executor.New(cfg.Parser)
	if err != nil {
		return cmdutil.Usage(err)
	}

	if items.Len() == 0 {
		return cmdutil.Usage(noMatch(opts.Filter, filter, items.Catalog()))
	}
	if manifestErr != nil {
		return cmdutil.Infra(manifestErr)
	}
	meta := metaOf(opts, items.Catalog().Datasets, shard)
	meta.Unplayable = un.summary(opts, v, mode, items.Len())

	// The run streams its JSON report into a spill file (beside the
	// outputs, or in the temporary folder without --out); the gate judges
	// it, and the report set is then rendered from it with the verdict
	// inside. The tables stream to stdout as cases finish.
	// The spills sit beside --out, not in it: the report set replaces the
	// folder whole (fsutil.SetDir), which must not take a concurrent run's
	// spills with it. Temporaries a killed run left there are swept first.
	spillDir, spillName := os.TempDir(), ".searchbench-run"
	if opts.Out != "" {
		spillDir, spillName = filepath.Dir(filepath.Clean(opts.Out)), "."+filepath.Base(filepath.Clean(opts.Out))+".searchbench-run"
		fsutil.Sweep(spillDir)
		fsutil.Sweep(opts.Out)
		if opts.Runs != "" {
			stored := StoredRun(opts.Runs, v.Name, mode)
			fsutil.Sweep(filepath.Dir(stored))
			fsutil.Sweep(stored)
		}
	}
	spill, err := fsutil.CreateAtomic(filepath.Join(spillDir, spillName+".json"))
	if err != nil {
		return cmdutil.Infra(err)
	}
	defer spill.Abort() // never published: it is the raw material
	set := opts.IO.Secrets()
	sink := secret.NewWriter(spill, set)
	// Each case's trace (its evidence) streams, scrubbed, into a second
	// spill, published as traces.jsonl.gz beside the report.
	traceSpill, err := fsutil.CreateAtomic(filepath.Join(spillDir, spillName+".traces.gz"))
	if err != nil {
		return cmdutil.Infra(err)
	}
	defer traceSpill.Abort()
	traces := report.NewTraces(traceSpill, func(w io.Writer) io.Writer { return secret.NewWriter(w, set) })
	writers := []report.Writer{report.NewJSON(sink), traces}
	var outs cmdgate.Outputs
	text := report.TextOptions{MaxFailures: opts.MaxFailures}
	if opts.Out != "" {
		outs = cmdgate.In(opts.Out)
		text.JSONPath = outs.JSON
	}
	if path := opts.IO.Getenv(HeapProfileEnv); path != "" {
		// First, so it sees every writer's state before any ends.
		writers = append([]report.Writer{heapProfile(path)}, writers...)
	}
	if opts.Quiet {
		// --quiet drops the tables, never the errors: a case that could not
		// run is printed in full on stderr.
		writers = append(writers, errorsTo(opts.IO.ErrOut))
	}

	var bar *progressbar.ProgressBar
	if opts.IO.IsStderrTTY() && items.Len() >= 200 {
		bar = progressbar.NewOptions(items.Len(), progressbar.OptionSetWriter(opts.IO.ErrOut),
			progressbar.OptionSetDescription("replaying"), progressbar.OptionShowCount(), progressbar.OptionClearOnFinish())
	}
	scorers, err := pricedScorers(opts, v)
	if err != nil {
		return cmdutil.Usage(err)
	}
	cache, cacheWarning := cacheOf(opts)
	ropts := evalrun.Options{
		Variant:   v,
		Mode:      mode,
		Repair:    opts.Repair,
		Cassettes: opts.Cassettes,
		Parallel:  opts.Parallel,
		Scorers:   scorers,
		Parser:    parser,
		Getenv:    opts.IO.Getenv,
		Samples:   opts.Samples,
		RulesOnly: opts.RulesOnly,
		Rerecord: func(c *dataset.Case, chk evalrun.Check) string {
			return rerecord(opts, v, mode, c, chk)
		},
		Done: func(*report.CaseRecord) {
			if bar != nil {
				bar.Add(1)
			}
		},
		Cache: cache,
	}
	if err := ropts.CheckSamples(items); err != nil {
		var se *evalrun.SamplesError
		if errors.As(err, &se) {
			// record --stale --samples N records exactly the cases
			// with another number of samples.
			chk := evalrun.Check{Status: evalrun.StatusStale}
			if m, err := ropts.Shelf().LoadManifest(); err == nil {
				chk.Entry, _ = m.Entry(se.Cases[0])
			}
			se.Hint = rerecord(opts, v, mode, nil, chk) + fmt.Sprintf(" --samples %d", opts.Samples)
			return cmdutil.Usage(se)
		}
		return cmdutil.Infra(err)
	}
	sum, err := evalrun.Replay(ctx, items, ropts, meta, report.Multi(writers...))
	unlockShelf()
	cacheWarning()
	if err != nil {
		return cmdutil.Infra(err)
	}
	if err := sink.Flush(); err != nil {
		return cmdutil.Infra(err)
	}
	src := report.Source{Name: "the run's report", Open: func() (io.ReadCloser, error) { return os.Open(spill.Name()) }}

	// The verdict, when gated, goes into every output. A run with cases
	// that could not run is still judged: each such case is an error in
	// the verdict (a flip or a new failure), and the run exits 3 after
	// writing everything.
	var verdict *report.Gate
	if judge != nil {
		// With stale cassettes the variant's hash differs from the
		// baseline's by construction; the run fails for that reason (exit
		// 3) and its verdict is still written.
		judge.PromptsChanged = un.Stale > 0
		if verdict, err = judge.Evaluate(src); err != nil {
			return invalidate(opts, err)
		}
	}
	// One pass over the report writes the report set, the stored copy of
	// the run and the terminal report, which opens with the verdict and
	// ends with where the rest is. It is held until the files are in
	// place; --quiet prints only the verdict.
	//
	// Only a complete run (every case, none in error) is stored as the run
	// of its variant, which compare finds by name; a filtered or erroring
	// one is stored apart, in <mode>.partial, so it never stands in for it.
	targets := []cmdgate.Target{{Outs: outs, Text: text}}
	partial := partialReason(opts, sum)
	storeDir := ""
	if opts.Runs != "" && shard.Whole() {
		storeDir = StoredRun(opts.Runs, v.Name, mode)
		if partial != "" {
			storeDir = PartialRun(opts.Runs, v.Name, mode)
		}
		stored := cmdgate.In(storeDir)
		targets = append(targets, cmdgate.Target{Outs: stored, Text: report.TextOptions{MaxFailures: opts.MaxFailures, JSONPath: stored.JSON}})
	}
	var terminal bytes.Buffer
	var also []report.Writer
	if !opts.Quiet || verdict == nil {
		also = append(also, report.NewTerminal(&terminal, terminalOptions(opts, text, outs)))
	}
	if err := cmdgate.Publish(src, traceSpill.Name(), verdict, targets, set, also...); err != nil {
		return err
	}
	if storeDir != "" {
		if err := noteStored(opts, v.Name, mode, partial, storeDir); err != nil {
			return err
		}
	}
	switch {
	case !opts.Quiet:
		if _, err := terminal.WriteTo(opts.IO.Out); err != nil {
			return cmdutil.Infra(err)
		}
	case verdict != nil && meta.Unplayable != nil:
		// No verdict: the cause and its command first, then one line for
		// what could not be judged (the violations are in the report).
		if err := cmdgate.PrintUnjudged(opts.IO.Out, meta.Unplayable, verdict, opts.IO.Width(opts.Wide)); err != nil {
			return cmdutil.Infra(err)
		}
	case verdict != nil:
		// One verdict line on a pass; the violations and the line on a
		// failure (the notes are in the report).
		if err := cmdgate.PrintQuiet(opts.IO.Out, verdict, opts.IO.Width(opts.Wide)); err != nil {
			return cmdutil.Infra(err)
		}
	default:
		// Ungated: the summary's first line, the counts.
		first, _, _ := strings.Cut(terminal.String(), "\n\n")
		if _, err := fmt.Fprintln(opts.IO.Out, first); err != nil {
			return cmdutil.Infra(err)
		}
	}
	if sum.Errors > 0 {
		note := ""
		if meta.Unplayable != nil {
			note = ";\n" + meta.Unplayable.Summary()
		}
		return cmdutil.Infra(fmt.Errorf("%d of %d cases could not run (see the errors above%s)%s", sum.Errors, sum.Cases, inReport(text.JSONPath), note))
	}
	return cmdgate.Exit(verdict)
}

// invalidate removes the report set in --out when the gate could not
// decide (exit 2 or 3), so an earlier verdict there is not taken for this
// run's (cmdgate.Invalidate).
func invalidate(opts *Options, err error) error {
	if opts.Out == "" {
		return err
	}
	return cmdgate.Invalidate(cmdgate.In(opts.Out), err, opts.Gate.Baseline)
}

// terminalOptions are the terminal report's options: the summary fits 100
// columns (or a narrower terminal) unless --wide, -v prints everything, colours only on a terminal
// that does not refuse them (NO_COLOR, TERM=dumb).
func terminalOptions(opts *Options, text report.TextOptions, outs cmdgate.Outputs) report.TextOptions {
	t := text
	t.Verbose = opts.Verbose
	t.Width = opts.IO.Width(opts.Wide)
	t.Color = opts.IO.IsStdoutTTY() && opts.IO.Getenv("NO_COLOR") == "" && opts.IO.Getenv("TERM") != "dumb"
	t.HTMLPath = outs.HTML
	if !opts.Verbose {
		t.VerboseHint = "add -v"
		if outs.Markdown != "" {
			t.VerboseHint += " (or read " + outs.Markdown + ")"
		}
	}
	return t
}

// cacheOf is the run's decoded-cassette cache: none with --no-cache, or
// when the environment names no folder for it (no $HOME). A cache that
// cannot be written turns itself off; warning, called after the run, then
// prints why on stderr.
func cacheOf(opts *Options) (c *vcr.Cache, warning func()) {
	if opts.NoCache {
		return nil, func() {}
	}
	dir, err := vcr.CacheDir(opts.IO.Getenv)
	if err != nil {
		return nil, func() {}
	}
	var mu sync.Mutex
	var off error
	c = vcr.NewCache(dir, func(err error) {
		mu.Lock()
		off = err
		mu.Unlock()
	})
	return c, func() {
		mu.Lock()
		defer mu.Unlock()
		if off != nil {
			fmt.Fprintf(opts.IO.ErrOut, "warning: %v\n", off)
		}
	}
}

// noMatch says why a filter selected nothing: a dataset term that names no
// dataset gets the nearest name and the list, a case id, tag or label the
// nearest of the catalog's; the datasets are listed for orientation.
func noMatch(terms []string, f dataset.Filter, cat *dataset.Catalog) error {
	var names []string
	for _, d := range cat.Datasets {
		names = append(names, d.Name)
	}
	sort.Strings(names)
	var problems []string
	for _, v := range f.Values("dataset") {
		if slices.ContainsFunc(names, func(n string) bool { ok, _ := path.Match(v, n); return ok }) {
			continue
		}
		problems = append(problems, fmt.Sprintf("dataset:%s names no dataset%s", v, suggest.DidYouMean(v, names)))
	}
	// The ids, keys, tags and labels of every case, for the nearest name
	// to a mistyped one (a glob is left alone).
	var ids, keys, tags, labels []string
	for c, err := range cat.Cases() {
		if err != nil {
			break
		}
		ids, keys = append(ids, c.ID), append(keys, c.Key())
		tags = append(tags, c.Tags...)
		if c.Label != "" {
			labels = append(labels, c.Label)
		}
	}
	near := func(field, v string, candidates []string, what string) {
		if strings.ContainsAny(v, "*?[") {
			return
		}
		slices.Sort(candidates)
		candidates = slices.Compact(candidates)
		p := fmt.Sprintf("%s:%s names no %s%s", field, v, what, suggest.DidYouMean(v, candidates))
		if len(candidates) <= 10 {
			p += fmt.Sprintf(" (%ss: %s)", what, strings.Join(candidates, ", "))
		}
		problems = append(problems, p)
	}
	for _, v := range f.Values("id") {
		if strings.Contains(v, "/") {
			near("id", v, keys, "case")
		} else {
			near("id", v, ids, "case")
		}
	}
	for _, v := range f.Values("tag") {
		near("tag", v, tags, "tag")
	}
	for _, v := range f.Values("label") {
		near("label", v, labels, "label")
	}
	msg := fmt.Sprintf("no case matches the filter %q", terms)
	if len(problems) > 0 {
		msg += ": " + strings.Join(problems, "; ")
	}
	return fmt.Errorf("%s (datasets: %s)", msg, suggest.List(names, 20))
}

// unplayable tallies the selected cases whose cassettes cannot replay as
// recorded: stale (a variant file their requests used changed) or missing.
type unplayable struct {
	report.Unplayable
	// first is the check of the first such case: its entry says which
	// backend (and simulator policy) recorded it, for the command.
	first    evalrun.Check
	hasFirst bool
}

func (u *unplayable) add(c *dataset.Case, chk evalrun.Check) {
	switch chk.Status {
	case evalrun.StatusStale:
		u.Stale++
		for _, f := range chk.Changed {
			if !slices.Contains(u.Changed, f) {
				u.Changed = append(u.Changed, f)
			}
		}
	case evalrun.StatusMissing:
		u.Missing++
	case evalrun.StatusUnfinished:
		u.Unfinished++
	default:
		return
	}
	if len(u.Cases) < report.MaxUnplayableCases {
		u.Cases = append(u.Cases, c.Key())
	}
	if !u.hasFirst {
		u.first, u.hasFirst = chk, true
	}
}

// summary is the report's account of the cassettes that cannot replay,
// nil when every one can, with the one command that re-records them all
// (record --stale records the missing ones too).
func (u *unplayable) summary(opts *Options, v *prompts.Variant, mode string, of int) *report.Unplayable {
	if u.Stale+u.Missing+u.Unfinished == 0 {
		return nil
	}
	out := u.Unplayable
	slices.Sort(out.Changed)
	out.Of = of
	chk := u.first
	if chk.Status != evalrun.StatusUnfinished {
		chk.Status = evalrun.StatusStale // --stale records the missing ones too
	}
	out.Command = rerecord(opts, v, mode, nil, chk)
	out.Line = out.Summary()
	return &out
}

// rerecord is the command that re-records a case's cassette, with every
// flag the run needs to find it again: backend (and simulator policy) as
// recorded, variant, prompts folder, mode, datasets, cassettes. A stale
// cassette gets --stale (re-recording every stale one the run selects), any
// other a --filter on the case.
func rerecord(opts *Options, v *prompts.Variant, mode string, c *dataset.Case, chk evalrun.Check) string {
	backend, policy := chk.Entry.Backend, chk.Entry.Policy
	samples, seed := 0, int64(0)
	if u := chk.Unfinished; chk.Status == evalrun.StatusUnfinished && u != nil && u.Backend != "" {
		// Finished as the recording that left it was recording it.
		backend, policy, samples, seed = u.Backend, u.Policy, u.Samples, u.Seed
	}
	if backend == "" {
		backend = evalrun.BackendLive
		if slices.Contains(sim.Policies(), v.Name) {
			backend = evalrun.BackendSim
		}
	}
	args := []string{"searchbench", "record", "--backend", backend}
	if backend == evalrun.BackendSim && policy != "" && policy != v.Name {
		args = append(args, "--sim-policy", policy)
	}
	args = append(args, "--variant", v.Name)
	if opts.Variant.Prompts != prompts.DefaultRoot {
		args = append(args, "--prompts", opts.Variant.Prompts)
	}
	args = append(args, "--mode", mode, "--datasets", opts.Datasets)
	if opts.Cassettes != "cassettes" {
		args = append(args, "--cassettes", opts.Cassettes)
	}
	if samples > 0 {
		args = append(args, "--samples", fmt.Sprint(samples))
	}
	if seed != 0 {
		args = append(args, "--seed", fmt.Sprint(seed))
	}
	if chk.Status == evalrun.StatusStale || chk.Status == evalrun.StatusUnfinished {
		args = append(args, "--stale")
		for _, f := range opts.Filter {
			args = append(args, "--filter", f)
		}
	} else {
		args = append(args, "--filter", c.Key())
	}
	for i, a := range args {
		args[i] = cmdutil.ShellQuote(a)
	}
	return strings.Join(args, " ")
}

// StoredRun is the folder of the latest complete stored run of a variant
// in a mode: every case selected, none in error.
func StoredRun(runs, variant, mode string) string {
	return filepath.Join(runs, variant, mode)
}

// PartialSuffix marks the stored run of a variant that is not complete.
const PartialSuffix = ".partial"

// PartialRun is the folder of the latest partial run of a variant in a
// mode (filtered, or with cases in error), kept apart from its complete
// run: compare reads it only when named (NAME/MODE.partial).
func PartialRun(runs, variant, mode string) string {
	return filepath.Join(runs, variant, mode+PartialSuffix)
}

// partialReason says why a run is not complete ("" when it is): its
// --filter, and the cases that could not run.
func partialReason(opts *Options, sum report.Summary) string {
	var why []string
	if len(opts.Filter) > 0 {
		why = append(why, "filtered with --filter "+strings.Join(opts.Filter, " --filter "))
	}
	if sum.Errors > 0 {
		why = append(why, fmt.Sprintf("%d of its %d cases could not run", sum.Errors, sum.Cases))
	}
	return strings.Join(why, "; ")
}

// noteStored finishes storing a run: a complete run retires the partial
// one it supersedes; a partial run says on stderr where it went instead,
// and how to compare it.
func noteStored(opts *Options, name, mode, partial, dir string) error {
	if partial == "" {
		if err := os.RemoveAll(PartialRun(opts.Runs, name, mode)); err != nil {
			return cmdutil.Infra(fmt.Errorf("removing the partial run this run supersedes: %w", err))
		}
		return nil
	}
	hint := fmt.Sprintf("searchbench compare %s %s/%s%s", prompts.Default, name, mode, PartialSuffix)
	if len(opts.Filter) > 0 {
		hint += " --allow-subset"
	}
	if opts.Runs != filepath.Join("reports", "runs") {
		hint += " --runs " + cmdutil.ShellQuote(opts.Runs)
	}
	fmt.Fprintf(opts.IO.ErrOut, "note: this run is partial (%s), so it is stored apart in %s/, not as the run of %s/%s that compare finds by name; compare it with: %s\n",
		partial, filepath.ToSlash(dir), name, mode, hint)
	return nil
}

func inReport(jsonPath string) string {
	if jsonPath == "" {
		return ""
	}
	return " and in " + jsonPath
}

// metaOf describes the run; dataset hashes (taken as the files were
// validated) let two reports tell whether they ran the same data.
func metaOf(opts *Options, sets []*dataset.Dataset, shard dataset.Shard) report.Meta {
	m := report.Meta{
		SchemaVersion: report.SchemaVersion,
		Tool:          report.Tool,
		Variant:       opts.Variant.Variant,
		Filter:        append([]string(nil), opts.Filter...),
		Cassettes:     filepath.ToSlash(opts.Cassettes),
	}
	if !shard.Whole() {
		m.Shard = shard.String()
	}
	if opts.Timestamps {
		m.StartedAt = time.Now().UTC().Format(time.RFC3339)
	}
	for _, d := range sets {
		m.Datasets = append(m.Datasets, report.DatasetInfo{Name: d.Name, Path: filepath.ToSlash(d.Path), Kind: d.Kind, Cases: d.Count, SHA256: d.SHA256})
	}
	sort.Slice(m.Datasets, func(i, j int) bool { return m.Datasets[i].Name < m.Datasets[j].Name })
	return m
}

// maxQuietErrors bounds the case errors a --quiet run prints in full; the
// rest are counted (every one is in report.json).
const maxQuietErrors = 10

// errorsTo is the report writer of --quiet runs: it prints the error of each
// case that could not run, in full, up to maxQuietErrors, then how many
// more there were, and nothing else.
func errorsTo(w io.Writer) report.Writer { return &caseErrors{w: w} }

type caseErrors struct {
	w io.Writer
	n int
}

func (*caseErrors) Begin(report.Meta) error { return nil }

func (e *caseErrors) Case(r *report.CaseRecord) error {
	if r.Error == "" {
		return nil
	}
	e.n++
	if e.n > maxQuietErrors {
		return nil
	}
	_, err := fmt.Fprintf(e.w, "Error: %s\n%s\n\n", r.Key, r.Error)
	return err
}

func (e *caseErrors) End(report.Summary) error {
	if e.n <= maxQuietErrors {
		return nil
	}
	_, err := fmt.Fprintf(e.w, "… and %d more case(s) that could not run, each in the JSON report\n\n", e.n-maxQuietErrors)
	return err
}

// pricedScorers is score.All() with the cost scorer pricing at
// config/providers.yaml's rates (the file when present, else the built-in
// copy) overlaid with the variant's prices.yaml, for the variant's model.
func pricedScorers(opts *Options, v *prompts.Variant) ([]score.Scorer, error) {
	prov := price.Default()
	if _, err := os.Stat("config/providers.yaml"); err == nil {
		if prov, err = price.LoadFile("config/providers.yaml"); err != nil {
			return nil, err
		}
	}
	table, err := price.LoadOverlay(prov.Prices, filepath.Join(opts.Variant.Prompts, v.Name, price.VariantFile))
	if err != nil {
		return nil, err
	}
	model := v.Settings.Model
	if model == "" {
		model = opts.IO.Getenv("SEARCHBENCH_LLM_MODEL")
	}
	out := score.All()
	for i, s := range out {
		if _, ok := s.(score.Cost); ok {
			out[i] = score.Cost{Prices: &table, Model: model}
		}
	}
	return out, nil
}
