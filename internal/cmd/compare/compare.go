// Package compare implements "searchbench compare": two run reports side by
// side, benchstat style, with an exact McNemar test on the cases they share
// and the cases that flipped. It informs a decision; it is not a verdict,
// so it exits 0 whatever it finds.
package compare

import (
	"context"
	"os"

	"github.com/spf13/cobra"

	"github.com/searchbench/searchbench/eval/compare"
	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/internal/cmdutil"
)

// Options are the inputs of one comparison.
type Options struct {
	IO *cmdutil.IOStreams
	// A and B are the JSON reports to compare (A is the reference).
	A, B string
	// Markdown prints GitHub Markdown, for a pull-request comment.
	Markdown bool
}

// NewCmdCompare returns the compare command. runF, when not nil, receives
// the options instead of compareRun (for tests).
func NewCmdCompare(io *cmdutil.IOStreams, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: io}
	cmd := &cobra.Command{
		Use:   "compare A.json B.json",
		Short: "Compare two run reports metric by metric and case by case",
		Long: `Compare two JSON run reports (written by searchbench run or merge).

For each metric: its value in A and B, the change, and for pass rates of
per-case outcomes the p-value of an exact McNemar test over the cases both
reports hold. As in benchstat, "~" replaces the change when p ≥ 0.05 (the
difference is not significant); "–" marks metrics with no per-case outcomes
(means, F1), where no test applies. Then the cases that passed in one report
and failed in the other, with the checks that changed.

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
	return cmd
}

func compareRun(_ context.Context, opts *Options) error {
	for _, p := range []string{opts.A, opts.B} {
		if _, err := os.Stat(p); err != nil {
			return cmdutil.Usage(err)
		}
	}
	res, err := compare.Compare(report.File(opts.A), report.File(opts.B))
	if err != nil {
		return cmdutil.Usage(err)
	}
	if err := compare.Write(opts.IO.Out, res, opts.Markdown); err != nil {
		return cmdutil.Infra(err)
	}
	return nil
}
