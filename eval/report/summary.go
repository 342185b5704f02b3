package report

import (
	"fmt"
	"strings"

	"github.com/mattn/go-runewidth"
	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/eval/stats"
	"github.com/searchbench/searchbench/lib/visible"
)

// maxHeadline bounds the headline of an ungated run.
const maxHeadline = 12

// ANSI colours of the terminal summary.
const (
	green = "\x1b[32m"
	red   = "\x1b[31m"
	bold  = "\x1b[1m"
	reset = "\x1b[0m"
)

func redIf(n int) string {
	if n > 0 {
		return red
	}
	return ""
}

// paint wraps s in colour c when colours are on.
func (t *textWriter) paint(c, s string) string {
	if !t.opt.Color || c == "" {
		return s
	}
	return c + s + reset
}

func (t *textWriter) width() int {
	switch {
	case t.opt.Width < 0:
		return 0
	case t.opt.Width == 0:
		return DefaultWidth
	}
	return t.opt.Width
}

// cut shortens s to n display columns with "…" (n ≤ 0: no limit). Line
// breaks become spaces: a summary row is one line.
func cut(s string, n int) string {
	s = visible.String(strings.Join(strings.Fields(s), " "))
	if n <= 0 || runewidth.StringWidth(s) <= n {
		return s
	}
	return runewidth.Truncate(s, n, "…")
}

// endSummary writes the default terminal report: the counts and the
// verdict, the headline metrics, the failing checks grouped by check, and
// where the full tables and every case are. Everything fits the width.
func (t *textWriter) endSummary(s Summary) error {
	t.summaryLine(s)
	t.verdictLines()
	t.headline(s)
	t.samplesLine(s)
	t.failureGroups()
	// A case that could not run is printed in full: its error names the
	// cassette and the command that re-records it.
	for _, f := range t.kept {
		if f.Check == errorCheck {
			t.blank()
			// Not cut or wrapped: it holds the command to copy.
			t.printf("Error: %s\n%s\n", f.Case, visible.String(strings.TrimRight(f.Diff, "\n")))
		}
	}
	t.pointers()
	return t.err
}

// samplesLine sums up a sampled run in one line (the Samples and Flaky
// cases tables are in -v and report.md): how many cases have several
// samples, pass^N of a case passing as a whole, and how many are flaky.
func (t *textWriter) samplesLine(s Summary) {
	ss := s.Samples
	if ss == nil || ss.SampledCases == 0 {
		return
	}
	line := fmt.Sprintf("Samples: %d cases with more than one sample (up to %d)", ss.SampledCases, ss.MaxSamples)
	for _, m := range ss.Metrics {
		if k := len(m.PassHatK); m.Name == "case" && k > 0 {
			lo, hi := stats.WilsonMean(m.PassHatK[k-1], m.CasesAtK[k-1])
			line += fmt.Sprintf("; pass^%d %.1f%% [%.1f–%.1f%%]", k, 100*m.PassHatK[k-1], 100*lo, 100*hi)
		}
	}
	line += fmt.Sprintf("; %d flaky", len(ss.Flaky))
	t.blank()
	t.printf("%s\n", cut(line, t.width()))
}

// verdictLines prints the gate's verdict under the counts: its line, then
// each violation on one line (the full table is in -v and report.md).
func (t *textWriter) verdictLines() {
	g := t.gate
	if g == nil {
		return
	}
	if u := t.meta.Unplayable; u != nil {
		// No verdict: the cause opened the summary; its violations follow
		// from the cases that could not run.
		for _, l := range wrap(u.Unjudged(len(g.Violations)), t.width(), "  ") {
			t.printf("%s\n", t.paint(red, l))
		}
		return
	}
	c := green
	if !g.Pass() {
		c = red
	}
	if t.opt.Verbose {
		t.printf("%s\n", t.paint(c, g.Line))
	} else {
		// The verdict, then what was compared, wrapped to the width.
		head, rest, _ := strings.Cut(g.Line, " — ")
		t.printf("%s\n", t.paint(c, head))
		for _, l := range wrap("  "+rest, t.width(), "  ") {
			t.printf("%s\n", l)
		}
		// Notes say what could not be compared and why that was allowed.
		for _, n := range g.Notes {
			for _, l := range wrap("  note: "+n, t.width(), "    ") {
				t.printf("%s\n", l)
			}
		}
	}
	if len(g.Violations) == 0 {
		return
	}
	if t.opt.Verbose {
		rows := make([][]string, len(g.Violations))
		for i, x := range g.Violations {
			rows[i] = []string{x.Kind, x.Metric, x.Case, x.Want, x.Got, x.Explanation}
		}
		t.blank()
		t.table(fmt.Sprintf("Gate violations (%d)", len(g.Violations)), []string{"kind", "metric", "case", "want", "got", "explanation"}, rows, nil)
		for _, n := range g.Notes {
			t.printf("  note: %s\n", n)
		}
		return
	}
	shown := g.Violations[:min(len(g.Violations), maxViolationRows/4)]
	for _, x := range shown {
		subject := x.Metric
		if x.Case != "" {
			subject = x.Case
		}
		t.printf("  %s\n", cut(fmt.Sprintf("%s %s: want %s, got %s — %s", x.Kind, subject, x.Want, x.Got, x.Explanation), t.width()-2))
	}
	if len(shown) < len(g.Violations) {
		t.printf("  … and %d more violation(s) (add -v, or see report.md)\n", len(g.Violations)-len(shown))
	}
}

// headline prints the headline metrics: the gate's, or for an ungated run
// the pass rates below 100% (what there is to look at).
func (t *textWriter) headline(s Summary) {
	byName := map[string]score.Metric{}
	for _, m := range s.Metrics {
		byName[m.Name] = m
	}
	var rows [][]string
	title := "Headline"
	if t.gate != nil && len(t.gate.Headline) > 0 {
		for _, name := range t.gate.Headline {
			if m, ok := byName[name]; ok {
				rows = append(rows, []string{m.Name, FormatValue(m), FormatCI(m), FormatN(m)})
			} else {
				rows = append(rows, []string{name, "no data", "", ""})
			}
		}
	} else {
		rates, below := 0, 0
		for _, m := range s.Metrics {
			// A share that is not a pass rate (consent.wrong, incorrect
			// answers, answers the judge decided) has no "below 100%".
			if m.Unit != score.UnitRate || m.Den == 0 || m.Better != score.HigherIsBetter {
				continue
			}
			rates++
			if m.Num < m.Den {
				below++
				if len(rows) < maxHeadline {
					rows = append(rows, []string{m.Name, FormatValue(m), FormatCI(m), FormatN(m)})
				}
			}
		}
		if rates == 0 {
			return
		}
		title = fmt.Sprintf("Pass rates below 100%% (%d of %d rates", below, rates)
		if below > len(rows) {
			title += fmt.Sprintf("; %d shown", len(rows))
		}
		title += ")"
		if below == 0 {
			t.blank()
			note := ""
			if s.Errors > 0 {
				note = fmt.Sprintf(", over the cases that ran: %s could not", plural(s.Errors, "case"))
			}
			t.printf("Every pass rate is 100%% (%d rates%s).\n", rates, note)
			return
		}
	}
	t.blank()
	t.compactTable(title, []string{"metric", "value", "95% CI", "n"}, rows, 0)
}

// failureGroups prints the failing checks grouped by check: how many cases
// fail it and the first few of them, most frequent first.
func (t *textWriter) failureGroups() {
	if len(t.order) == 0 {
		return
	}
	names := append([]string(nil), t.order...)
	// Most failures first; ties keep the order the checks were first met.
	for i := 1; i < len(names); i++ {
		for j := i; j > 0 && t.groups[names[j]].n > t.groups[names[j-1]].n; j-- {
			names[j], names[j-1] = names[j-1], names[j]
		}
	}
	total := 0
	for _, n := range names {
		total += t.groups[n].n
	}
	rows := make([][]string, len(names))
	for i, n := range names {
		g := t.groups[n]
		first := strings.Join(g.cases, ", ")
		if g.n > len(g.cases) {
			first += ", …"
		}
		rows[i] = []string{n, fmt.Sprint(g.n), first}
	}
	t.blank()
	if split := t.failedSplit(); split != "" {
		for _, l := range WrapText(split, t.width(), "  ") {
			t.printf("%s\n", l)
		}
		t.blank()
	}
	t.compactTable(fmt.Sprintf("Failing checks (%d, in %s)", total, plural(len(names), "check")), []string{"check", "cases", "first cases"}, rows, 2)
}

// pointers are the summary's last lines: where the full tables and every
// case are.
func (t *textWriter) pointers() {
	var lines []string
	if t.opt.VerboseHint != "" {
		lines = append(lines, "All metrics, tables and diffs: "+t.opt.VerboseHint)
	}
	if t.opt.HTMLPath != "" {
		lines = append(lines, "Every case, with what the model saw and did: "+t.opt.HTMLPath)
	}
	if len(lines) == 0 {
		return
	}
	t.blank()
	for _, l := range lines {
		// A path too long for the line goes under, whole where it fits.
		for _, l := range WrapText(l, t.width(), "  ") {
			t.printf("%s\n", l)
		}
	}
}

// wrap breaks s at spaces into lines of at most width columns (0: one
// line), the later ones indented; a word longer than a line stays whole,
// so a command or URL can still be copied.
func wrap(s string, width int, indent string) []string {
	if s == "" {
		return nil
	}
	if width <= 0 || runewidth.StringWidth(s) <= width {
		return []string{s}
	}
	var lines []string
	trimmed := strings.TrimLeft(s, " ")
	line, started := s[:len(s)-len(trimmed)], false
	for _, word := range strings.Split(trimmed, " ") {
		switch {
		case !started:
			line, started = line+word, true
		case runewidth.StringWidth(line)+1+runewidth.StringWidth(word) > width:
			lines = append(lines, line)
			line = indent + word
		default:
			line += " " + word
		}
	}
	return append(lines, line)
}

// compactTable renders a one-line-per-row table that fits the width: the
// column flex (its cells are cut first) gets what the others leave, and
// any cell still too wide is cut too.
func (t *textWriter) compactTable(title string, header []string, rows [][]string, flex int) {
	if t.err != nil {
		return
	}
	width := t.width()
	cells := make([][]string, len(rows))
	for i, r := range rows {
		cells[i] = make([]string, len(r))
		for j, c := range r {
			cells[i][j] = cut(c, 0)
		}
	}
	if width > 0 {
		// Borders: one per column plus one, and a space each side of a cell.
		budget := width - (len(header) + 1) - 2*len(header)
		colWidth := func(j int) int {
			w := runewidth.StringWidth(header[j])
			for _, r := range cells {
				w = max(w, runewidth.StringWidth(r[j]))
			}
			return w
		}
		others := 0
		for j := range header {
			if j != flex {
				others += colWidth(j)
			}
		}
		room := budget - others
		const minFlex = 12
		if room < minFlex {
			// The other columns are too wide: cut them all to share the room.
			room = minFlex
			share := max((budget-minFlex)/max(len(header)-1, 1), 4)
			for i := range cells {
				for j := range cells[i] {
					if j != flex {
						cells[i][j] = cut(cells[i][j], share)
					}
				}
			}
		}
		for i := range cells {
			cells[i][flex] = cut(cells[i][flex], room)
		}
	}
	if title != "" {
		t.printf("%s\n", t.paint(bold, title))
	}
	tb := tablewriter.NewTable(t.w, tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithRowAutoWrap(tw.WrapNone), tablewriter.WithHeaderAutoWrap(tw.WrapNone))
	tb.Header(header)
	if err := tb.Bulk(cells); err != nil {
		t.err = fmt.Errorf("table %q: %w", title, err)
		return
	}
	if err := tb.Render(); err != nil {
		t.err = fmt.Errorf("table %q: %w", title, err)
	}
}
