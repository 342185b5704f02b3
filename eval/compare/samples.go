package compare

import (
	"fmt"
	"io"
	"strings"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/stats"
)

// sampledNote is the metrics table's note when the runs have samples.
func sampledNote(r *Result) string {
	return fmt.Sprintf("values are means over every sample; p: exact paired sign-flip test on the per-case pass-rate differences B − A "+
		"over the %d cases both reports hold (all 2^n sign assignments counted exactly; for very large runs a seeded Monte Carlo, marked with its standard error), "+
		"per metric over the cases where both have an outcome; pairs: cases (−rate fell +rate rose). With one sample per case this test is McNemar's",
		r.Shared)
}

// writeSamples prints what a comparison of sampled runs adds: per paired
// metric the effect with its interval, the test and pass^N of each run,
// then the cases whose pass rate changed.
func writeSamples(w io.Writer, r *Result, opt Options) error {
	markdown := opt.Markdown
	var rows [][]string
	for _, row := range r.Rows {
		if !row.Sampled {
			continue
		}
		p := pValue(row)
		effect := fmt.Sprintf("%+.1f pp [%+.1f, %+.1f]", 100*row.Effect, 100*row.Lo, 100*row.Hi)
		rows = append(rows, []string{row.Metric, cell(row.A), cell(row.B), effect, p, pairsCell(row),
			passHat(row.PassHatA), passHat(row.PassHatB)})
	}
	if _, err := fmt.Fprintln(w); err != nil {
		return err
	}
	notes := []string{
		"effect: mean over cases of the per-case pass-rate difference B − A (each case weighs the same; the delta of the metrics table), with Newcombe's paired score 95% interval (continuity-corrected, case-level outcomes); A and B: pooled over samples",
		fmt.Sprintf("pass^%d (A) and pass^%d (B): the share of cases expected to pass all of that many samples (τ-bench's unbiased estimator); – when the run has no case with that many samples", r.MaxSamplesA, r.MaxSamplesB),
	}
	header := []string{"metric", "A", "B", "effect [95% CI]", "p (sign-flip, adj.)", "cases", fmt.Sprintf("pass^%d A", r.MaxSamplesA), fmt.Sprintf("pass^%d B", r.MaxSamplesB)}
	if !opt.fits(header, rows) {
		// Too wide: the values alone, pass^N left to --wide.
		for i, row := range rows {
			rows[i] = []string{row[0], narrow(row[1]), narrow(row[2]), row[3], row[4], row[5]}
		}
		header = []string{"metric", "A", "B", "effect [95% CI]", "p", "cases"}
		notes = []string{notes[0] + "; p: the sign-flip test, adjusted; cases: paired (−rate fell +rate rose)",
			fmt.Sprintf("--wide adds the counts behind each rate and pass^%d of each run", max(r.MaxSamplesA, r.MaxSamplesB))}
	}
	if err := report.RenderTableWidth(w, markdown, opt.width(), fmt.Sprintf("Samples: paired test on per-case pass rates (A up to %d, B up to %d samples per case)", r.MaxSamplesA, r.MaxSamplesB),
		header, rows, notes); err != nil {
		return err
	}
	if _, err := fmt.Fprintln(w); err != nil {
		return err
	}
	if err := writeFlaky(w, r, opt); err != nil {
		return err
	}
	if len(r.RateChanges) == 0 {
		_, err := fmt.Fprintf(w, "No case's pass rate changed between A and B.\n")
		return err
	}
	var crows [][]string
	fell := 0
	for _, c := range r.RateChanges {
		dir := "rose"
		if stats.Ratio(c.B.Pass, c.B.N) < stats.Ratio(c.A.Pass, c.A.N) {
			dir = "fell"
			fell++
		}
		rate := fmt.Sprintf("%d/%d → %d/%d", c.A.Pass, c.A.N, c.B.Pass, c.B.N)
		if len(c.Checks) == 0 {
			crows = append(crows, []string{c.Case, rate, dir, "", "", ""})
		}
		for i, ch := range c.Checks {
			cs, rt, d := c.Case, rate, dir
			if i > 0 {
				cs, rt, d = "", "", ""
			}
			crows = append(crows, []string{cs, rt, d, ch.Check, ch.A, ch.B})
		}
	}
	title := fmt.Sprintf("Cases whose pass rate changed (%d fell, %d rose)", fell, len(r.RateChanges)-fell)
	header = []string{"case", "passed", "change", "check (sample 1)", "A", "B"}
	if !opt.fits(header, crows) {
		// Too wide: each case's changed checks in one cell, a line each.
		crows = crows[:0]
		for _, c := range r.RateChanges {
			dir := "rose"
			if stats.Ratio(c.B.Pass, c.B.N) < stats.Ratio(c.A.Pass, c.A.N) {
				dir = "fell"
			}
			crows = append(crows, []string{c.Case, fmt.Sprintf("%d/%d → %d/%d", c.A.Pass, c.A.N, c.B.Pass, c.B.N), dir, checkLines(c.Checks)})
		}
		header = []string{"case", "passed", "change", "check (sample 1): A → B"}
	}
	return report.RenderTableWidth(w, markdown, opt.width(), title, header, crows,
		[]string{"samples passed (as a whole) in A → in B; the checks are those whose outcome differs in sample 1"})
}

// checkLines is the changed checks of a case in one cell, a line each:
// "routing: route — fail: tavily_only → pass: tavily_plus_exa".
func checkLines(cs []CheckChange) string {
	lines := make([]string, len(cs))
	for i, c := range cs {
		lines[i] = c.Check + " — " + c.A + " → " + c.B
	}
	return strings.Join(lines, "\n")
}

func passHat(x *float64) string {
	if x == nil {
		return "–"
	}
	return fmt.Sprintf("%.1f%%", 100**x)
}

// writeFlaky prints the cases whose samples ended differently in A or B.
func writeFlaky(w io.Writer, r *Result, opt Options) error {
	nA, nB := 0, 0
	var rows [][]string
	side := func(res []string) string {
		if res == nil {
			return "(not flaky)"
		}
		return strings.Join(res, " ")
	}
	for _, f := range r.Flaky {
		if f.A != nil {
			nA++
		}
		if f.B != nil {
			nB++
		}
		rows = append(rows, []string{f.Case, side(f.A), side(f.B)})
	}
	notes := []string{"each sample's result in order (sample 1 first); every flaky case's samples and what differed are in each run's report (summary.samples.flaky)"}
	if len(rows) == 0 {
		notes = []string{"no case ended differently across its samples in either run"}
	}
	if err := report.RenderTableWidth(w, opt.Markdown, opt.width(), fmt.Sprintf("Flaky cases (%d in A, %d in B)", nA, nB), []string{"case", "A", "B"}, rows, notes); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w)
	return err
}
