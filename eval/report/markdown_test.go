package report_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/report/reporttest"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// A failure-heavy gated run keeps report.md under GitHub's comment limit,
// verdict first, and says what was cut; no local absolute path leaks.
func TestMarkdownStaysUnderTheCommentLimit(t *testing.T) {
	var recs []*report.CaseRecord
	long := strings.Repeat("a drifting sentence with trailing spaces ", 40)
	for i := range 400 {
		msg := strings.Replace(reporttest.OKMessage(), "March 2012.\n", "March 2012. "+long+"\n", 1)
		recs = append(recs, reporttest.Routing(i, fmt.Sprintf("case-%03d", i), "tavily_only", msg, trace.ToolExa))
	}
	g := &report.Gate{Verdict: report.VerdictFail, Line: "gate: FAIL (400 violations: 400 flip) — x", Gates: "gates.yaml",
		Headline: []string{"routing.accuracy", "markdown.final"}}
	for _, r := range recs {
		g.Violations = append(g.Violations, report.Violation{Kind: "flip", Metric: "routing", Case: r.Key, Want: "pass", Got: "fail", Explanation: long})
	}
	rep := &report.Report{Meta: reporttest.Meta("seed"), Cases: recs, Summary: reporttest.Summary(recs), Gate: g}
	var b bytes.Buffer
	w := report.NewMarkdown(&b, report.TextOptions{MaxFailures: 1000, JSONPath: "/home/runner/work/x/reports/latest/report.json"})
	if err := report.Write(w, rep); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	if n := utf8.RuneCountInString(md); n > report.MaxMarkdown {
		t.Errorf("report.md is %d characters, over %d", n, report.MaxMarkdown)
	}
	if !strings.HasPrefix(md, "### searchbench gate: FAIL (400 violations: 400 flip)") {
		t.Errorf("the verdict is not the first line: %q", md[:80])
	}
	for _, want := range []string{"#### Headline", "Gate violations (400)", "360 more violation(s) in report.json", "> Cut to stay under 60000 characters"} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	if strings.Contains(md, "/home/runner") {
		t.Error("report.md holds a local absolute path")
	}
}
