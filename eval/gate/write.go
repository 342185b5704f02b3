package gate

import (
	"fmt"
	"io"
	"strings"

	"github.com/searchbench/searchbench/eval/report"
)

// maxNewCases bounds the new cases listed by name.
const maxNewCases = 20

// Write prints the verdict: the violations as a table (kind, metric, case,
// want, got, explanation), the notes, the new cases, and a last line that
// says PASS or FAIL. With markdown it writes GitHub Markdown for a pull
// request comment or $GITHUB_STEP_SUMMARY.
func Write(w io.Writer, v *Verdict, markdown bool) error {
	return WriteWidth(w, v, markdown, report.DefaultWidth)
}

// WriteWidth is Write fitting the terminal text to width columns (≤ 0:
// no limit): the table's cells and the notes wrap.
func WriteWidth(w io.Writer, v *Verdict, markdown bool, width int) error {
	var err error
	printf := func(format string, args ...any) {
		if err == nil {
			_, err = fmt.Fprintf(w, format, args...)
		}
	}
	if markdown {
		printf("### searchbench %s\n\n", report.EscapeMarkdown(v.Line))
	}
	if len(v.Violations) > 0 {
		rows := make([][]string, len(v.Violations))
		for i, x := range v.Violations {
			rows[i] = []string{x.Kind, x.Metric, x.Case, x.Want, x.Got, x.Explanation}
		}
		if e := report.RenderTableWidth(w, markdown, width, fmt.Sprintf("Gate violations (%d)", len(v.Violations)),
			[]string{"kind", "metric", "case", "want", "got", "explanation"}, rows, nil); e != nil && err == nil {
			err = e
		}
		printf("\n")
	}
	bullet := "  "
	if markdown {
		bullet = "- "
	}
	esc := func(s string) string {
		if markdown {
			return report.EscapeMarkdown(s)
		}
		return s
	}
	line := func(s string) {
		if markdown {
			printf("%s\n", s)
			return
		}
		for _, l := range report.WrapText(s, width, "    ") {
			printf("%s\n", l)
		}
	}
	for _, n := range v.Notes {
		line(bullet + "note: " + esc(n))
	}
	if len(v.NewCases) > 0 {
		shown := v.NewCases[:min(len(v.NewCases), maxNewCases)]
		more := ""
		if len(v.NewCases) > len(shown) {
			more = fmt.Sprintf(" and %d more", len(v.NewCases)-len(shown))
		}
		line(bullet + "new cases: " + esc(strings.Join(shown, ", ")) + more)
	}
	if keys := distinctCases(v.Improved); len(keys) > 0 {
		shown := keys[:min(len(keys), maxNewCases)]
		more := ""
		if len(keys) > len(shown) {
			more = fmt.Sprintf(" and %d more", len(keys)-len(shown))
		}
		line(bullet + "improved (not violations): " + esc(strings.Join(shown, ", ")) + more)
	}
	if len(v.Notes) > 0 || len(v.NewCases) > 0 || len(v.Improved) > 0 {
		printf("\n")
	}
	if !markdown {
		line(v.Line)
	}
	return err
}
