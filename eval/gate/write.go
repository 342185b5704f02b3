package gate

import (
	"fmt"
	"io"
	"strings"

	"github.com/searchbench/searchbench/eval/report"
)

// maxNewCases bounds the new cases listed by name.
const maxNewCases = 20

// Write prints the verdict: each violation as a block (a header line, its
// explanation as wrapped prose, what to do next), the notes, the new and
// improved cases, and a last line that says PASS or FAIL. With markdown it
// writes GitHub Markdown for a pull request comment or
// $GITHUB_STEP_SUMMARY.
func Write(w io.Writer, v *Verdict, markdown bool) error {
	return WriteWidth(w, v, markdown, report.DefaultWidth)
}

// Header is a violation's one-line header: its kind, the case, the metric
// or scorer, and the change ("5/5 → 1/5", "want ≥ 70.0%, got 65.0%").
func Header(x Violation) string {
	parts := []string{strings.ToUpper(x.Kind)}
	if x.Case != "" {
		parts = append(parts, x.Case)
	}
	if x.Metric != "" {
		parts = append(parts, x.Metric)
	}
	change := ""
	switch x.Kind {
	case KindRateDrop, KindImproved, KindFlip:
		change = x.Want + " → " + x.Got
	default:
		change = "want " + x.Want + ", got " + x.Got
	}
	return strings.Join(parts, " · ") + ": " + change
}

// WriteWidth is Write fitting the terminal text to width columns (≤ 0:
// no limit): every line wraps at word boundaries, names are never split.
func WriteWidth(w io.Writer, v *Verdict, markdown bool, width int) error {
	var err error
	printf := func(format string, args ...any) {
		if err == nil {
			_, err = fmt.Fprintf(w, format, args...)
		}
	}
	esc := func(s string) string {
		if markdown {
			return report.EscapeMarkdown(s)
		}
		return s
	}
	line := func(s, indent string) {
		if markdown {
			printf("%s\n", s)
			return
		}
		for _, l := range report.WrapText(s, width, indent) {
			printf("%s\n", l)
		}
	}
	if markdown {
		printf("### searchbench %s\n\n", report.EscapeMarkdown(v.Line))
	}
	if len(v.Violations) > 0 {
		if markdown {
			printf("#### Violations (%d)\n\n", len(v.Violations))
		} else {
			printf("Violations (%d)\n\n", len(v.Violations))
		}
		for _, x := range v.Violations {
			if markdown {
				printf("- **%s**  \n  %s", esc(Header(x)), esc(x.Explanation))
				if x.Next != "" {
					printf("  \n  *Next:* %s", esc(x.Next))
				}
				printf("\n")
				continue
			}
			line(Header(x), "    ")
			line("  "+x.Explanation, "  ")
			if x.Next != "" {
				line("  next: "+x.Next, "  ")
			}
			printf("\n")
		}
		if markdown {
			printf("\n")
		}
	}
	bullet := "  "
	if markdown {
		bullet = "- "
	}
	for _, n := range v.Notes {
		line(bullet+"note: "+esc(n), "    ")
	}
	if len(v.NewCases) > 0 {
		shown := v.NewCases[:min(len(v.NewCases), maxNewCases)]
		more := ""
		if len(v.NewCases) > len(shown) {
			more = fmt.Sprintf(" and %d more", len(v.NewCases)-len(shown))
		}
		line(bullet+"new cases: "+esc(strings.Join(shown, ", "))+more, "    ")
	}
	if keys := distinctCases(v.Improved); len(keys) > 0 {
		shown := keys[:min(len(keys), maxNewCases)]
		more := ""
		if len(keys) > len(shown) {
			more = fmt.Sprintf(" and %d more", len(keys)-len(shown))
		}
		line(bullet+"improved (not violations): "+esc(strings.Join(shown, ", "))+more, "    ")
	}
	if len(v.Notes) > 0 || len(v.NewCases) > 0 || len(v.Improved) > 0 {
		printf("\n")
	}
	if !markdown {
		line(v.Line, "    ")
	}
	return err
}
