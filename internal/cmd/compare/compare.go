// Package compare implements "searchbench compare": two run reports side by
// side, benchstat style, with an exact McNemar test on the cases they share
// and the cases that flipped. It informs a decision; it is not a verdict,
// so it exits 0 whatever it finds.
package compare

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/searchbench/searchbench/eval/compare"
	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/eval/stats"
	cmdgate "github.com/searchbench/searchbench/internal/cmd/gate"
	"github.com/searchbench/searchbench/internal/cmd/variant"
	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/internal/fsutil"
	"github.com/searchbench/searchbench/internal/secret"
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
stored run of that variant, <runs>/<variant>/<mode>/report.json, which every
unsharded searchbench run writes. NAME/MODE picks the mode; a bare NAME takes
--mode (default model).

When both reports replay simulator recordings, a warning says so: the
simulator does not read prompts, so their differences are its scripts'.

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
2 when a report cannot be read.`,
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
	cmd.Flags().StringVar(&opts.HTML, "html", "", "also write the two runs side by side, flipped cases first, as one self-contained HTML `FILE`")
	return cmd
}

func compareRun(_ context.Context, opts *Options) error {
	adj, err := stats.ParseAdjustment(opts.Adjust)
	if err != nil {
		return cmdutil.Usage(fmt.Errorf("--adjust: %w", err))
	}
	var paths []string
	for _, arg := range []string{opts.A, opts.B} {
		p, err := resolve(arg, opts.Runs, opts.Mode)
		if err != nil {
			return cmdutil.Usage(err)
		}
		paths = append(paths, p)
	}
	res, err := compare.Compare(report.File(paths[0]), report.File(paths[1]))
	if err != nil {
		return cmdutil.Usage(err)
	}
	res.SetAdjustment(adj)
	if err := compare.Write(opts.IO.Out, res, compare.Options{Markdown: opts.Markdown, Verbose: opts.Verbose}); err != nil {
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
		return "", fmt.Errorf("%q is neither a report file nor a variant name (NAME or NAME/MODE)", arg)
	}
	if err := variant.CheckMode(m); err != nil {
		return "", err
	}
	p := filepath.Join(runs, name, m, "report.json")
	if _, err := os.Stat(p); err == nil {
		return p, nil
	}
	var have []string
	for _, mm := range prompts.Modes {
		if _, err := os.Stat(filepath.Join(runs, name, mm, "report.json")); err == nil {
			have = append(have, name+"/"+mm)
		}
	}
	hint := fmt.Sprintf("run it first: searchbench run --variant %s --mode %s", name, m)
	if len(have) > 0 {
		hint = "stored runs of " + name + ": " + strings.Join(have, ", ") + "; or " + hint
	}
	return "", fmt.Errorf("no stored run of variant %s in mode %s (%s): %s", name, m, filepath.ToSlash(p), hint)
}
