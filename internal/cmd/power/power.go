// Package power implements "searchbench power": how many cases a dataset
// needs to detect a change of a pass rate, or the smallest change a number
// of cases can detect, under the paired test compare and the gate use.
package power

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/stats"
	"github.com/searchbench/searchbench/internal/cmdutil"
)

// Options are the inputs of one power calculation.
type Options struct {
	IO *cmdutil.IOStreams
	// Effect is the change of the pass rate to detect ("5pp", "0.05",
	// "5%"); Cases the number of cases to find the detectable change of.
	// One of them is set.
	Effect string
	Cases  int
	// Discordant is the share of cases expected to change outcome between
	// the runs (either way), the figure the power depends on most; empty
	// prints a table over several.
	Discordant string
	Power      float64
	Alpha      float64
}

// maxCases bounds the search for a number of cases.
const maxCases = 1_000_000

// NewCmdPower returns the power command. runF, when not nil, receives the
// options instead of powerRun (for tests).
func NewCmdPower(io *cmdutil.IOStreams, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: io}
	cmd := &cobra.Command{
		Use:   "power (--effect CHANGE | --cases N)",
		Short: "How many cases a dataset needs to detect a change of a pass rate",
		Long: `How many cases the paired test of compare and the gate needs to detect a
change of a pass rate (--effect 5pp), or the smallest change N cases detect
(--cases N): the minimum detectable effect that compare prints as "mde".

The test is the two-sided exact McNemar test (the sign-flip test with one
sample per case) at --alpha, and the power is computed exactly, not by a
normal approximation. It depends above all on how many cases change outcome
between the two runs, either way (--discordant): a change of 5 points made
of 5% of cases all moving up is far easier to see than the same change
inside 40% of cases moving both ways. Without --discordant a table shows
several. More samples per case (record --samples) make each case's outcome
steadier but do not replace cases: the case is the unit of every test.
Adjusting for many metrics (compare tests about 25) asks for more: with
Holm, the smallest p-value must beat 0.05/25.

Exit status: 0, or 2 for bad flags.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return powerRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Effect, "effect", "", "change of the pass rate to detect: `CHANGE` in points (5pp), percent (5%) or a fraction (0.05)")
	cmd.Flags().IntVar(&opts.Cases, "cases", 0, "number of cases: print the smallest change they detect instead")
	cmd.Flags().StringVar(&opts.Discordant, "discordant", "", "`SHARE` of cases expected to change outcome either way (20%, 0.2); default: a table")
	cmd.Flags().Float64Var(&opts.Power, "power", 0.8, "power to reach, in (0, 1)")
	cmd.Flags().Float64Var(&opts.Alpha, "alpha", stats.Alpha, "two-sided significance level, in (0, 1)")
	return cmd
}

// parseShare reads "5pp", "5%" or "0.05" as a fraction in (0, 1].
func parseShare(flag, s string) (float64, error) {
	t := strings.TrimSpace(s)
	scale := 1.0
	switch {
	case strings.HasSuffix(t, "pp"):
		t, scale = strings.TrimSuffix(t, "pp"), 0.01
	case strings.HasSuffix(t, "%"):
		t, scale = strings.TrimSuffix(t, "%"), 0.01
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if err != nil {
		return 0, fmt.Errorf("--%s %q: want points (5pp), percent (5%%) or a fraction (0.05)", flag, s)
	}
	v *= scale
	if !(v > 0 && v <= 1) {
		return 0, fmt.Errorf("--%s %q: want a change above 0 and at most 100 points", flag, s)
	}
	return v, nil
}

func powerRun(opts *Options) error {
	var problems []string
	if (opts.Effect == "") == (opts.Cases == 0) {
		problems = append(problems, "set one of --effect and --cases")
	}
	if opts.Cases < 0 {
		problems = append(problems, "--cases must be positive")
	}
	if !(opts.Power > 0 && opts.Power < 1) {
		problems = append(problems, fmt.Sprintf("--power %g: want a probability in (0, 1)", opts.Power))
	}
	if !(opts.Alpha > 0 && opts.Alpha < 1) {
		problems = append(problems, fmt.Sprintf("--alpha %g: want a probability in (0, 1)", opts.Alpha))
	}
	var effect float64
	if opts.Effect != "" {
		v, err := parseShare("effect", opts.Effect)
		if err != nil {
			problems = append(problems, err.Error())
		}
		effect = v
	}
	shares := []float64{0.05, 0.1, 0.2, 0.3, 0.5}
	if opts.Discordant != "" {
		v, err := parseShare("discordant", opts.Discordant)
		switch {
		case err != nil:
			problems = append(problems, err.Error())
		case effect > 0 && v < effect:
			problems = append(problems, fmt.Sprintf("--discordant %s is below --effect %s: a change of the rate is made of cases that changed", opts.Discordant, opts.Effect))
		}
		shares = []float64{v}
	}
	if len(problems) > 0 {
		return cmdutil.Usage(fmt.Errorf("power: %s", strings.Join(problems, "; ")))
	}
	out := opts.IO.Out
	// Lines wrap to the output's width, the later ones indented.
	para := func(format string, args ...any) {
		for _, l := range report.WrapText(fmt.Sprintf(format, args...), opts.IO.Width(false), "  ") {
			fmt.Fprintln(out, l)
		}
	}
	test := fmt.Sprintf("two-sided exact McNemar test at α = %g, %.0f%% power", opts.Alpha, 100*opts.Power)
	if opts.Cases > 0 {
		para("Smallest change of a pass rate %d cases detect (%s):", opts.Cases, test)
		for _, s := range shares {
			d, ok := stats.MinDetectable(opts.Cases, s, opts.Alpha, opts.Power)
			what := fmt.Sprintf("%.1f points", 100*d)
			if !ok {
				what = "none: too few cases for any change"
			}
			para("  %s of cases change outcome: %s", shareText(s, d), what)
		}
		return nil
	}
	para("Cases needed to detect a change of %.1f points in a pass rate (%s):", 100*effect, test)
	for _, s := range shares {
		if s < effect {
			continue
		}
		n, ok := stats.CasesFor(effect, s, opts.Alpha, opts.Power, maxCases)
		what := fmt.Sprintf("%d cases", n)
		if !ok {
			what = fmt.Sprintf("more than %d cases", maxCases)
		}
		fmt.Fprintf(out, "  %.0f%% of cases change outcome: %s\n", 100*s, what)
	}
	para("The share of cases that change is the assumption that matters: compare prints it as the pairs column (−fell +rose of n).")
	return nil
}

// shareText names the discordant share; a share below the change is
// raised to it (every changed case moved the same way).
func shareText(s, d float64) string {
	if s < d {
		return fmt.Sprintf("%.0f%% (raised to the change)", 100*d)
	}
	return fmt.Sprintf("%.0f%%", 100*s)
}
