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

// TestMarkdownQuotesContentInert: report.md (the job summary, and the
// head of the pull-request comment) quotes model and web text. A NUL, an
// ESC sequence and a right-to-left override come out as visible escapes,
// and @mentions and issue references as code spans, so the comment neither
// notifies anyone nor cross-links another repository's issue.
func TestMarkdownQuotesContentInert(t *testing.T) {
	hostile := "nul\x00 esc\x1b]0;t\x07 rlo\u202etxt.exe cc @octocat @org/team see owner/repo#12 and #7"
	msg := strings.Replace(reporttest.OKMessage(), "March 2012.\n", "March 2012. "+hostile+"\n", 1)
	rec := reporttest.Routing(0, "hostile", "tavily_only", msg, trace.ToolExa)
	g := &report.Gate{Verdict: report.VerdictFail, Line: "gate: FAIL (1 violation: 1 flip)", Gates: "gates.yaml",
		Violations: []report.Violation{{Kind: "flip", Metric: "routing", Case: rec.Key, Want: "pass", Got: "fail", Explanation: hostile}},
		Notes:      []string{"a note quoting " + hostile}}
	rep := &report.Report{Meta: reporttest.Meta("seed"), Cases: []*report.CaseRecord{rec}, Summary: reporttest.Summary([]*report.CaseRecord{rec}), Gate: g}
	var b bytes.Buffer
	if err := report.Write(report.NewMarkdown(&b, report.TextOptions{MaxFailures: 10}), rep); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	if strings.ContainsAny(md, "\x00\x1b\x07\u202e") {
		t.Errorf("report.md holds raw control characters: %q", md)
	}
	// GitHub links nothing inside a fenced block (the diffs): check the rest.
	var prose strings.Builder
	fenced := false
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			prose.WriteString(l + "\n")
		}
	}
	text := prose.String()
	if !strings.Contains(text, "`@octocat`") {
		t.Fatalf("the test quotes nothing outside the diffs:\n%s", text)
	}
	for _, m := range []string{"@octocat", "@org/team", "owner/repo#12", "#7"} {
		md := text
		for i := 0; ; {
			j := strings.Index(md[i:], m)
			if j < 0 {
				break
			}
			j += i
			if j == 0 || md[j-1] != '`' {
				t.Errorf("report.md links %s: …%s…", m, md[max(0, j-30):min(len(md), j+30)])
				break
			}
			i = j + len(m)
		}
	}
	if !strings.Contains(md, `\\x00`) || !strings.Contains(md, `\\u202e`) {
		t.Errorf("report.md does not show the control characters as escapes:\n%s", md)
	}
}
