package report_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/report/reporttest"
	"github.com/searchbench/searchbench/lib/golden"
)

// fixtureGate is a failing verdict over the fixed run, with explanations
// longer than any terminal.
func fixtureGate() *report.Gate {
	return &report.Gate{Verdict: report.VerdictFail,
		Notes:    []string{"edited_cases is off in gates.yaml: 1 case edited under the same id (routing/ceo-microsoft) is compared anyway, as a note"},
		Line:     "gate: FAIL (2 violations: 1 threshold, 1 flip) — 1 threshold checked; 10 of 10 cases compared with the baseline (34 metrics); 0 new, 0 removed, 0 known failures",
		Headline: []string{"routing.accuracy", "consent.accuracy", "schema.final", "grounding.claims"},
		Violations: []report.Violation{
			{Kind: "threshold", Metric: "routing.accuracy", Want: "≥ 90.0%", Got: "66.7% (4/6)", Explanation: "routing.accuracy is below the minimum set at gates.yaml:2"},
			{Kind: "flip", Metric: "routing", Case: "routing/iphone-year", Want: "pass", Got: "fail",
				Explanation: "passed in the baseline; now markdown: printed markdown equals render_markdown: expected the canonical rendering, got a trailing space after the first bullet"},
		}}
}

func summary(t *testing.T, opt report.TextOptions, g *report.Gate) string {
	t.Helper()
	meta, recs := reporttest.Run()
	var buf bytes.Buffer
	err := report.Write(report.NewTerminal(&buf, opt), &report.Report{Meta: meta, Cases: recs, Summary: reporttest.Summary(recs), Gate: g})
	if err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestSummaryLayouts are the default terminal report at 80 and 100
// columns and with --wide, ungated and gated: each line fits its width,
// and the report ends with the pointer lines.
func TestSummaryLayouts(t *testing.T) {
	for _, tc := range []struct {
		name  string
		width int
		gate  *report.Gate
	}{
		{"summary-80.txt", 80, nil},
		{"summary-100.txt", 0, nil},
		{"summary-wide.txt", -1, nil},
		{"summary-gated-80.txt", 80, fixtureGate()},
		{"summary-gated-100.txt", 0, fixtureGate()},
		{"summary-gated-wide.txt", -1, fixtureGate()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opt := report.TextOptions{Width: tc.width, JSONPath: "reports/latest/report.json", HTMLPath: "reports/latest/report.html",
				VerboseHint: "add -v (or read reports/latest/report.md)"}
			out := summary(t, opt, tc.gate)
			golden.Check(t, filepath.Join("testdata", tc.name), []byte(out))
			limit := tc.width
			if limit == 0 {
				limit = report.DefaultWidth
			}
			for i, line := range strings.Split(out, "\n") {
				// An error is printed whole: it holds a command to copy.
				if strings.Contains(line, "cassette miss") {
					continue
				}
				if w := runewidth.StringWidth(line); limit > 0 && w > limit {
					t.Errorf("line %d is %d columns, more than %d: %q", i+1, w, limit, line)
				}
			}
			if full := "got a trailing space after the first bullet"; tc.gate != nil && tc.width < 0 != strings.Contains(out, full) {
				t.Errorf("--wide is %v, and the violation's whole explanation shown is %v", tc.width < 0, !(tc.width < 0))
			}
			lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
			if last := lines[len(lines)-1]; !strings.HasSuffix(last, "reports/latest/report.html") {
				t.Errorf("the report ends with %q, not the pointer to report.html", last)
			}
			// The verdict follows the counts (and their continuation lines).
			next := 1
			for next < len(lines) && strings.HasPrefix(lines[next], "  ") {
				next++
			}
			if tc.gate != nil && !strings.Contains(lines[next], "gate: FAIL") {
				t.Errorf("the verdict is not under the counts: %q", lines[next])
			}
			if strings.Contains(out, "\x1b[") {
				t.Error("colours without a terminal")
			}
		})
	}
}

func TestSummaryColours(t *testing.T) {
	out := summary(t, report.TextOptions{Color: true}, fixtureGate())
	if !strings.Contains(out, "\x1b[31mgate: FAIL") || !strings.Contains(out, "\x1b[31m4\x1b[0m failed") {
		t.Errorf("a failing verdict and failed count are not red:\n%q", out[:min(len(out), 400)])
	}
}
