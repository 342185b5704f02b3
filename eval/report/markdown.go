package report

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/searchbench/searchbench/eval/score"
)

// MaxMarkdown bounds report.md, under GitHub's 65,536-character limit for
// a pull-request comment (and $GITHUB_STEP_SUMMARY's 1 MiB), with room for
// a note of what was cut.
const MaxMarkdown = 60000

// maxViolationRows bounds the violations listed in report.md; the JSON
// report has them all.
const maxViolationRows = 40

// mdSection is one part of report.md. Open parts are shown; the others go
// inside <details>. Parts are kept in order while they fit MaxMarkdown; a
// part that does not fit is replaced by a line saying it was cut.
type mdSection struct {
	summary string // the <details> summary; "" for an open part
	body    string
}

// endMarkdown writes the pull-request report: the verdict (when gated)
// and run line first, the headline metrics and the gate's violations, then
// every metric, each table and the failing checks inside <details>.
func (t *textWriter) endMarkdown(s Summary) error {
	var head bytes.Buffer
	g := t.gate
	counts := fmt.Sprintf("%s: %d passed, %d failed, %s", plural(s.Cases, "case"), s.Passed, s.Failed, plural(s.Errors, "error"))
	if p := Provenance(t.meta); p != "" {
		counts = p + ": " + counts
	}
	if u := t.meta.Unplayable; u != nil {
		// What cannot replay comes before any verdict: until it is
		// re-recorded, the verdict judges old recordings.
		fmt.Fprintf(&head, "### searchbench: %s; re-record them with: `%s`\n\n", escapeMarkdown(u.What()), u.Command)
	}
	if g != nil {
		fmt.Fprintf(&head, "### searchbench %s\n\n**%s** — %s\n", escapeMarkdown(g.Line), counts, strings.Join(t.runParts(), ", "))
	} else {
		fmt.Fprintf(&head, "### searchbench — %s (not gated)\n\n**%s**\n", strings.Join(t.runParts(), ", "), counts)
	}

	byName := map[string]score.Metric{}
	for _, m := range s.Metrics {
		byName[m.Name] = m
	}
	var parts []mdSection
	var headline []string
	if g != nil {
		headline = g.Headline
	}
	if len(headline) > 0 {
		var b bytes.Buffer
		rows := make([][]string, 0, len(headline))
		for _, name := range headline {
			m, ok := byName[name]
			if !ok {
				rows = append(rows, []string{name, "no data", "", ""})
				continue
			}
			rows = append(rows, []string{m.Name, FormatValue(m), FormatCI(m), FormatN(m)})
		}
		if err := RenderTable(&b, true, "Headline", []string{"metric", "value", "95% CI", "n"}, rows, nil); err != nil {
			return err
		}
		parts = append(parts, mdSection{body: b.String()})
	}
	if g != nil && (len(g.Violations) > 0 || len(g.Notes) > 0 || len(g.Improved) > 0) {
		var b bytes.Buffer
		if len(g.Violations) > 0 {
			shown := g.Violations[:min(len(g.Violations), maxViolationRows)]
			rows := make([][]string, len(shown))
			for i, x := range shown {
				rows[i] = []string{x.Kind, x.Metric, x.Case, x.Want, x.Got, x.Explanation}
			}
			var notes []string
			if len(shown) < len(g.Violations) {
				notes = append(notes, fmt.Sprintf("%d more violation(s) in %s (its \"gate\" section)", len(g.Violations)-len(shown), t.jsonName()))
			}
			if err := RenderTable(&b, true, fmt.Sprintf("Gate violations (%d)", len(g.Violations)),
				[]string{"kind", "metric", "case", "want", "got", "explanation"}, rows, notes); err != nil {
				return err
			}
		}
		if len(g.Notes) > 0 || len(g.Improved) > 0 {
			b.WriteString("\n")
			for _, n := range g.Notes {
				fmt.Fprintf(&b, "- note: %s\n", escapeMarkdown(n))
			}
			if len(g.Improved) > 0 {
				fmt.Fprintf(&b, "- improved (not violations): %s\n", escapeMarkdown(improvedCases(g.Improved)))
			}
		}
		parts = append(parts, mdSection{body: b.String()})
	}
	if len(s.Metrics) > 0 {
		var b bytes.Buffer
		rows := make([][]string, len(s.Metrics))
		var notes []string
		for i, m := range s.Metrics {
			rows[i] = []string{m.Name, FormatValue(m), FormatCI(m), FormatN(m)}
			if m.Note != "" {
				notes = append(notes, m.Name+": "+m.Note)
			}
		}
		// Without a verdict there is no headline: the metrics come first.
		title, summary := "", fmt.Sprintf("All metrics (%d)", len(s.Metrics))
		if g == nil {
			title, summary = "Metrics", ""
		}
		if err := RenderTable(&b, true, title, []string{"metric", "value", "95% CI", "n"}, rows, notes); err != nil {
			return err
		}
		parts = append(parts, mdSection{summary: summary, body: b.String()})
	}
	for _, tb := range s.Tables {
		var b bytes.Buffer
		if err := RenderTable(&b, true, "", tb.Header, tb.Rows, tb.Notes); err != nil {
			return err
		}
		parts = append(parts, mdSection{summary: tb.Title, body: b.String()})
	}
	if len(t.kept) > 0 {
		var b bytes.Buffer
		rows := make([][]string, len(t.kept))
		for i, f := range t.kept {
			rows[i] = []string{f.Case, f.Check, f.Expected, f.Got, f.Reason}
		}
		var notes []string
		if t.more > 0 {
			notes = append(notes, fmt.Sprintf("%d more failing check(s) not shown; every check is in %s.", t.more, t.jsonName()))
		}
		if err := RenderTable(&b, true, "", []string{"case", "check", "expected", "got", "reason"}, rows, notes); err != nil {
			return err
		}
		parts = append(parts, mdSection{summary: fmt.Sprintf("Failing checks (%d)", len(t.kept)+t.more), body: b.String()})
		for _, f := range t.kept {
			if f.Diff == "" {
				continue
			}
			label, lang := "Diff", "diff"
			if f.Check == errorCheck {
				label, lang = "Error", "text"
			}
			d := strings.TrimRight(f.Diff, "\n")
			fence := fenceFor(d)
			parts = append(parts, mdSection{summary: fmt.Sprintf("%s: %s — %s", label, htmlEscape(f.Case), htmlEscape(f.Check)),
				body: fmt.Sprintf("%s%s\n%s\n%s\n", fence, lang, d, fence)})
		}
	}
	t.printf("%s", assembleMarkdown(head.String(), parts, t.jsonName()))
	return t.err
}

// improvedCases names the improved cases, each once with the scorers that
// improved, at most 20 of them and how many more.
func improvedCases(xs []Violation) string {
	var keys []string
	scorers := map[string][]string{}
	for _, x := range xs {
		if _, ok := scorers[x.Case]; !ok {
			keys = append(keys, x.Case)
		}
		scorers[x.Case] = append(scorers[x.Case], x.Metric)
	}
	const most = 20
	var parts []string
	for _, k := range keys[:min(len(keys), most)] {
		parts = append(parts, fmt.Sprintf("%s (%s)", k, strings.Join(scorers[k], ", ")))
	}
	if len(keys) > most {
		parts = append(parts, fmt.Sprintf("and %d more", len(keys)-most))
	}
	return strings.Join(parts, ", ")
}

// assembleMarkdown joins head and parts, keeping parts in order while the
// whole stays under MaxMarkdown and ending with a note of what was cut.
func assembleMarkdown(head string, parts []mdSection, jsonName string) string {
	var b strings.Builder
	b.WriteString(head)
	var cut []string
	const reserve = 2000 // the note of what was cut
	for _, p := range parts {
		var text string
		if p.summary == "" {
			text = "\n" + p.body
		} else {
			text = fmt.Sprintf("\n<details><summary>%s</summary>\n\n%s\n</details>\n", p.summary, strings.TrimRight(p.body, "\n"))
		}
		if len(cut) > 0 || b.Len()+len(text) > MaxMarkdown-reserve {
			name := p.summary
			if name == "" {
				name = "a summary table"
			}
			cut = append(cut, name)
			continue
		}
		b.WriteString(text)
	}
	if len(cut) > 0 {
		shown := cut[:min(len(cut), 10)]
		more := ""
		if len(cut) > len(shown) {
			more = fmt.Sprintf(" and %d more", len(cut)-len(shown))
		}
		fmt.Fprintf(&b, "\n> Cut to stay under %d characters (GitHub's comment limit): %s%s. The complete report is %s.\n",
			MaxMarkdown, strings.Join(shown, "; "), more, jsonName)
	}
	return b.String()
}

func (t *textWriter) runParts() []string {
	var run []string
	if t.meta.Variant != "" {
		run = append(run, "variant "+t.code(t.meta.Variant))
	}
	if t.meta.Mode != "" {
		run = append(run, "mode "+t.code(t.meta.Mode))
	}
	if len(t.meta.Filter) > 0 {
		run = append(run, "filter "+t.code(strings.Join(t.meta.Filter, ",")))
	}
	if t.meta.Shard != "" {
		run = append(run, "shard "+t.meta.Shard)
	}
	if len(t.meta.Shards) > 0 {
		run = append(run, "merged from shards "+strings.Join(t.meta.Shards, ", "))
	}
	return run
}

// jsonName names the JSON report without a local absolute path: report.md
// is read on GitHub, where the runner's folders mean nothing.
func (t *textWriter) jsonName() string {
	p := t.opt.JSONPath
	switch {
	case p == "":
		return "the JSON report"
	case filepath.IsAbs(p):
		return filepath.Base(p)
	}
	return filepath.ToSlash(p)
}
