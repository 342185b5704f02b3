package compare

import (
	"fmt"
	"io"
	"strings"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/stats"
)

// writeSamples prints what a comparison of sampled runs adds: with
// --wide or -v the reliability of each paired metric (pass^k with its
// interval), then the flaky cases and the cases whose pass rate changed.
func writeSamples(w io.Writer, r *Result, opt Options) error {
	markdown := opt.Markdown
	if _, err := fmt.Fprintln(w); err != nil {
		return err
	}
	if opt.Verbose || opt.Width < 0 {
		var rows [][]string
		for _, row := range r.Rows {
			if row.Sampled && (row.PassHatA != nil || row.PassHatB != nil) {
				rows = append(rows, []string{row.Metric, passHat(row.PassHatA), passHat(row.PassHatB)})
			}
		}
		if len(rows) > 0 {
			if err := report.RenderTableWidth(w, markdown, opt.width(), "Reliability: pass^k, the share of cases expected to pass all k samples",
				[]string{"metric", "A", "B"}, rows, []string{"τ-bench's unbiased estimator over the cases both hold, k the samples every case has on that side, with a 95% Wilson interval over cases"}); err != nil {
				return err
			}
			if _, err := fmt.Fprintln(w); err != nil {
				return err
			}
		}
	}
	if opt.Verbose || opt.Width < 0 {
		if err := writeFlaky(w, r, opt); err != nil {
			return err
		}
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
		rate := fmt.Sprintf("%d/%d→%d/%d", c.A.Pass, c.A.N, c.B.Pass, c.B.N)
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
	header := []string{"case", "passed", "change", "check (sample 1)", "A", "B"}
	if !opt.fits(header, crows) {
		// Too wide: each case's changed checks in one cell, a line each.
		crows = crows[:0]
		for _, c := range r.RateChanges {
			dir := "rose"
			if stats.Ratio(c.B.Pass, c.B.N) < stats.Ratio(c.A.Pass, c.A.N) {
				dir = "fell"
			}
			crows = append(crows, []string{c.Case, fmt.Sprintf("%d/%d→%d/%d", c.A.Pass, c.A.N, c.B.Pass, c.B.N), dir, checkLines(c.Checks)})
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

func passHat(x *PassHat) string {
	if x == nil {
		return "–"
	}
	return fmt.Sprintf("pass^%d %.1f%% [%.1f, %.1f]", x.K, 100*x.Value, 100*x.Lo, 100*x.Hi)
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
