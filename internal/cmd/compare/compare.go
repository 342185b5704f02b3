// Package compare implements "searchbench compare": two run reports side by
// side, benchstat style, with an exact McNemar test on the cases they share
// and the cases that flipped. It informs a decision; it is not a verdict,
// so it exits 0 whatever it finds.
package compare

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/searchbench/searchbench/eval/compare"
	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/eval/stats"
	cmdgate "github.com/searchbench/searchbench/internal/cmd/gate"
	cmdrun "github.com/searchbench/searchbench/internal/cmd/run"
	"github.com/searchbench/searchbench/internal/cmd/variant"
	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/lib/fsutil"
	"github.com/searchbench/searchbench/lib/secret"
	"github.com/searchbench/searchbench/lib/suggest"
	"github.com/searchbench/searchbench/orchestrator/prompts"
)

// Options are the inputs of one comparison.
type Options struct {
	IO *cmdutil.IOStreams
	// A and B are the JSON reports to compare (A is the reference).
	A, B string
	// Markdown prints GitHub Markdown, for a pull-request comment.
	Markdown bool
	// Runs is the folder of stored runs; Mode the mode a bare variant name
	// resolves to.
	Runs string
	Mode string
	// Verbose shows every metric row, the "~" ones too.
	Verbose bool
	// HTML is a file to write the two runs side by side to ("": none).
	HTML string
	// Adjust is the multiple-comparison correction: holm, bh or none.
	Adjust string
	// AllowSubset compares reports holding different cases on the cases
	// they share (refused otherwise).
	AllowSubset bool
	// Wide shows every column and lifts the width limit (100 columns in a
	// pipe, a narrower terminal's width).
	Wide bool
}

// NewCmdCompare returns the compare command. runF, when not nil, receives
// the options instead of compareRun (for tests).
func NewCmdCompare(io *cmdutil.IOStreams, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: io}
	cmd := &cobra.Command{
		Use:   "compare A B",
		Short: "Compare two run reports metric by metric and case by case",
		Long: `Compare two JSON run reports (written by searchbench run or merge).

A and B are report files, or variant names: a name resolves to the latest
complete stored run of that variant, <runs>/<variant>/<mode>/report.json, which
every unsharded run of all the cases with none in error writes. NAME/MODE picks
the mode; a bare NAME takes --mode (default model). A filtered or erroring run is
stored apart, as NAME/MODE.partial, and read only when named so; a warning says
when a name's latest run was such a partial one.

Reports holding different cases are refused, naming the difference, unless
--allow-subset: then only the cases both hold are compared, every metric
re-aggregated over them, and the headline says so.

Warnings say what the comparison cannot tell: when both reports replay
simulator recordings (the simulator does not read prompts, so their differences
are its scripts'), when one side is simulator and the other live, and when the
live recordings of the two sides asked for different models or came from
different base URLs.

For each metric: its value in A and B, the change, and for pass rates of
per-case outcomes the p-value of an exact McNemar test over the cases both
reports hold, adjusted across the metrics tested (Holm by default, --adjust
bh for Benjamini–Hochberg), and the smallest change the cases can detect at
80% power (mde). The change of a paired rate is the paired per-case effect.
As in benchstat, "~" replaces it when the adjusted p ≥ 0.05 (the difference
is not significant); a rate over fewer than 6 cases says "too few cases to
test"; "–" marks metrics with no per-case outcomes (means, F1), untested.
Then the cases that passed in one report and failed in the other, with the
checks that changed.

When either report has cases with several samples (record --samples N), each
per-case pass rate is tested instead with an exact paired sign-flip test on the
per-case pass-rate differences, with the mean difference, its case-level
Newcombe interval and pass^N of each run; then the cases whose pass rate
changed.

Exit status: 0 (a comparison is not a verdict; use run --gates to gate),
2 when a report cannot be read or the case sets differ without --allow-subset.`,
		Args: cobra.ExactArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			opts.A, opts.B = args[0], args[1]
			if runF != nil {
				return runF(opts)
			}
			return compareRun(c.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Markdown, "markdown", false, "print GitHub Markdown (for a pull-request comment or $GITHUB_STEP_SUMMARY)")
	cmd.Flags().StringVar(&opts.Runs, "runs", filepath.Join("reports", "runs"), "`folder` of stored runs, where variant names are looked up")
	cmd.Flags().StringVar(&opts.Mode, "mode", "model", "output `mode` of the stored run a bare variant name resolves to")
	cmd.Flags().BoolVarP(&opts.Verbose, "verbose", "v", false, "show every metric row, also those with no significant change (~)")
	cmd.Flags().StringVar(&opts.Adjust, "adjust", string(stats.Holm), "p-value adjustment across the metrics tested: `holm` (family-wise error), bh (Benjamini–Hochberg, false discovery rate) or none")
	cmd.Flags().BoolVar(&opts.AllowSubset, "allow-subset", false, "compare reports that hold different cases, on the cases both hold (refused otherwise)")
	cmd.Flags().BoolVar(&opts.Wide, "wide", false, "show every column (the counts behind each rate, pairs, mde, pass^N) and do not fit the tables to 100 columns")
	cmd.Flags().StringVar(&opts.HTML, "html", "", "also write the two runs side by side, flipped cases first, as one self-contained HTML `FILE`")
	return cmd
}

func compareRun(_ context.Context, opts *Options) error {
	adj, err := stats.ParseAdjustment(opts.Adjust)
	if err != nil {
		return cmdutil.Usage(fmt.Errorf("--adjust: %w", err))
	}
	var paths, notes []string
	for _, arg := range []string{opts.A, opts.B} {
		p, err := resolve(arg, opts.Runs, opts.Mode)
		if err != nil {
			return cmdutil.Usage(err)
		}
		paths = append(paths, p)
		if n := newerPartial(arg, p, opts.Runs, opts.Mode); n != "" {
			notes = append(notes, n)
		}
	}
	res, err := compare.CompareWith(report.File(paths[0]), report.File(paths[1]), compare.CompareOptions{AllowSubset: opts.AllowSubset})
	if err != nil {
		return cmdutil.Usage(err)
	}
	res.SetAdjustment(adj)
	res.Warnings = append(notes, res.Warnings...)
	if err := compare.Write(opts.IO.Out, res, compare.Options{Markdown: opts.Markdown, Verbose: opts.Verbose, Width: opts.IO.Width(opts.Wide)}); err != nil {
		return cmdutil.Infra(err)
	}
	if opts.HTML != "" {
		if err := writeHTML(opts, paths, res); err != nil {
			return err
		}
		fmt.Fprintf(opts.IO.Out, "\nBoth runs side by side, flipped cases first: %s\n", opts.HTML)
	}
	return nil
}

// writeHTML writes the comparison page: both runs with their traces (the
// traces.jsonl.gz beside each report, when there is one), the metrics
// table, and the flipped cases first.
func writeHTML(opts *Options, paths []string, res *compare.Result) error {
	var sides []report.HTMLSide
	for _, p := range paths {
		side := report.HTMLSide{Report: report.File(p)}
		if tp := cmdgate.TracesBeside(p); tp != "" {
			side.Traces = report.Source{Name: tp, Open: func() (io.ReadCloser, error) { return os.Open(tp) }}
		}
		sides = append(sides, side)
	}
	cmp := &report.HTMLComparison{Flips: []report.HTMLFlip{}, Tables: []score.Table{res.MetricsTable()}, Warnings: res.Warnings}
	for _, f := range res.Flips {
		cmp.Flips = append(cmp.Flips, report.HTMLFlip{Key: f.Case, ToFail: f.ToFail})
	}
	if res.Sampled {
		// Sampled runs: the cases whose pass rate changed take the
		// flipped cases' place, first on the page.
		cmp.Sampled = true
		for _, c := range res.RateChanges {
			worse := c.B.Pass*c.A.N < c.A.Pass*c.B.N
			cmp.Flips = append(cmp.Flips, report.HTMLFlip{Key: c.Case, ToFail: worse,
				Change: fmt.Sprintf("%d/%d → %d/%d", c.A.Pass, c.A.N, c.B.Pass, c.B.N)})
		}
	}
	f, err := fsutil.CreateAtomic(opts.HTML)
	if err != nil {
		return cmdutil.Infra(err)
	}
	defer f.Abort()
	sink := secret.NewWriter(f, opts.IO.Secrets())
	if err := report.WriteHTMLComparison(sink, sides[0], sides[1], [2]string{res.A.Variant, res.B.Variant}, cmp); err != nil {
		return cmdutil.Usage(err)
	}
	if err := sink.Flush(); err != nil {
		return cmdutil.Infra(err)
	}
	if err := f.Commit(); err != nil {
		return cmdutil.Infra(err)
	}
	return nil
}

// newerPartial is the warning for a variant name that resolved to its
// complete stored run while a later, partial run of it is stored apart;
// "" otherwise. (A complete run retires the partial one, so a partial run
// on the shelf is always the later one.)
func newerPartial(arg, resolved, runs, mode string) string {
	if _, err := os.Stat(arg); err == nil || strings.HasSuffix(arg, ".json") {
		return "" // a file, named as such
	}
	name, m, hasMode := strings.Cut(arg, "/")
	if !hasMode {
		m = mode
	}
	if strings.HasSuffix(m, cmdrun.PartialSuffix) {
		return ""
	}
	pp := filepath.Join(cmdrun.PartialRun(runs, name, m), "report.json")
	if _, err := os.Stat(pp); err != nil {
		return ""
	}
	return fmt.Sprintf("the latest run of %s/%s was partial (%s) and is stored apart in %s; this compares its last complete run, %s. "+
		"Name %s/%s%s to compare the partial one.", name, m, partialWhy(pp), filepath.ToSlash(pp), filepath.ToSlash(resolved), name, m, cmdrun.PartialSuffix)
}

// partialWhy says what made the stored report at path partial: its filter
// and its cases in error.
func partialWhy(path string) string {
	var meta report.Meta
	var errs, cases int
	err := report.Scan(report.File(path), func(m report.Meta) error { meta = m; return nil }, nil, func(s *report.Summary) {
		errs, cases = s.Errors, s.Cases
	})
	if err != nil {
		return "unreadable: " + err.Error()
	}
	var why []string
	if len(meta.Filter) > 0 {
		why = append(why, "filtered with --filter "+strings.Join(meta.Filter, " --filter "))
	}
	if errs > 0 {
		why = append(why, fmt.Sprintf("%d of its %d cases could not run", errs, cases))
	}
	if len(why) == 0 {
		return "filtered or in error"
	}
	return strings.Join(why, "; ")
}

// resolve turns an argument into a report file: a path that exists (or
// looks like one) is itself; NAME or NAME/MODE is the stored run of that
// variant. A name with no stored run says which runs there are and how to
// make the missing one.
func resolve(arg, runs, mode string) (string, error) {
	if _, err := os.Stat(arg); err == nil || strings.HasSuffix(arg, ".json") {
		if err != nil {
			return "", err
		}
		return arg, nil
	}
	name, m, hasMode := strings.Cut(arg, "/")
	if !hasMode {
		m = mode
	}
	if err := prompts.ValidName(name); err != nil || strings.Contains(m, "/") {
		return "", fmt.Errorf("%q is neither a report file nor a variant name (NAME, NAME/MODE or NAME/MODE%s)", arg, cmdrun.PartialSuffix)
	}
	bare, partial := strings.CutSuffix(m, cmdrun.PartialSuffix)
	if err := variant.CheckMode(bare); err != nil {
		return "", err
	}
	p := filepath.Join(runs, name, m, "report.json")
	if _, err := os.Stat(p); err == nil {
		return p, nil
	}
	if partial {
		return "", fmt.Errorf("no partial stored run of variant %s in mode %s (%s): a filtered or erroring run is stored there", name, bare, filepath.ToSlash(p))
	}
	pp := filepath.Join(cmdrun.PartialRun(runs, name, m), "report.json")
	if _, err := os.Stat(pp); err == nil {
		return "", fmt.Errorf("no complete stored run of variant %s in mode %s (%s); its latest run was partial (%s): "+
			"compare it as %s/%s%s (with --allow-subset if it was filtered), or run all its cases: searchbench run --variant %s --mode %s",
			name, m, filepath.ToSlash(p), partialWhy(pp), name, m, cmdrun.PartialSuffix, name, m)
	}
	var have []string
	for _, mm := range prompts.Modes {
		if _, err := os.Stat(filepath.Join(runs, name, mm, "report.json")); err == nil {
			have = append(have, name+"/"+mm)
		}
	}
	variants, _ := prompts.List(prompts.DefaultRoot)
	if len(have) == 0 && !slices.Contains(variants, name) {
		// Neither a stored run nor a variant: a typo, most likely. Never
		// tell the user to run the name they mistyped.
		stored := storedNames(runs)
		known := slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(stored), variants...))))
		msg := fmt.Sprintf("%q is neither a report file, a stored run under %s nor a prompt variant", arg, filepath.ToSlash(runs))
		if c := suggest.Closest(name, known); c != "" {
			msg += fmt.Sprintf(": did you mean %s?", c)
		}
		if len(stored) > 0 && len(stored) <= maxListed {
			msg += " (stored runs: " + strings.Join(stored, ", ") + ")"
		} else if len(stored) == 0 && len(variants) <= maxListed {
			msg += " (no stored runs; variants: " + strings.Join(variants, ", ") + ")"
		}
		return "", errors.New(msg)
	}
	hint := fmt.Sprintf("run it first: searchbench run --variant %s --mode %s", name, m)
	if len(have) > 0 {
		hint = "stored runs of " + name + ": " + strings.Join(have, ", ") + "; or " + hint
	}
	return "", fmt.Errorf("no stored run of variant %s in mode %s (%s): %s", name, m, filepath.ToSlash(p), hint)
}

// maxListed is how many names a "did you mean" message lists in full.
const maxListed = 10

// storedNames are the variants with a stored run under runs, sorted.
func storedNames(runs string) []string {
	entries, _ := os.ReadDir(runs)
	var names []string
	for _, e := range entries {
		if e.IsDir() && prompts.ValidName(e.Name()) == nil {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names
}
