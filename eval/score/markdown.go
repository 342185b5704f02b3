package score

import (
	"github.com/searchbench/searchbench/eval/dataset"

	"strings"

	"github.com/searchbench/searchbench/lib/textdiff"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// Markdown judges the printed markdown of Phase 2 answers byte for byte: the
// printed block must equal data.render_markdown, and render_markdown must
// equal the canonical rendering of the envelope's bullets and sources.
// Without a decodable envelope there is nothing to compare with; the schema
// scorer has already failed the case.
type Markdown struct{}

// Metrics of the markdown scorer.
const (
	MetricMarkdownRaw   = "markdown.raw"
	MetricMarkdownFinal = "markdown.final"
)

// Name implements Scorer.
func (Markdown) Name() string { return "markdown" }

// Declare implements Scorer.
func (Markdown) Declare() Declaration {
	return Declaration{Kinds: []string{dataset.KindRouting, dataset.KindFlows}, Measure: false, Metrics: []string{
		MetricMarkdownRaw,
		MetricMarkdownFinal,
	}, Invariants: []string{MetricMarkdownFinal}}
}

// Score implements Scorer. The raw check applies in model mode only: in
// structured mode the model prints no markdown.
func (Markdown) Score(in *Input) (Result, bool) {
	var checks []Check
	for _, r := range phase2Turns(in) {
		t := r.T
		if t.Error != "" {
			continue
		}
		if modeOf(in, t) == trace.ModeModel && !rawBroken(in, r.N) {
			if c, ok := markdownCheck(in, checkName(in, r.N, "raw markdown"), MetricMarkdownRaw, t.RawOutput); ok {
				checks = append(checks, c)
			}
		}
		if c, ok := markdownCheck(in, checkName(in, r.N, "final markdown"), MetricMarkdownFinal, t.Output); ok {
			checks = append(checks, c)
		}
	}
	if len(checks) == 0 {
		return Result{}, false
	}
	return NewResult("markdown", checks...), true
}

// markdownCheck compares the printed block and render_markdown of msg; it
// does not apply (false) when msg has no decodable envelope.
func markdownCheck(in *Input, name, metric, msg string) (Check, bool) {
	rep := in.CheckPhase2(msg)
	if rep.Envelope == nil {
		return Check{}, false
	}
	c := Check{Name: name, Metric: metric, Pass: rep.MarkdownMatches && rep.CanonicalMatches,
		Expected: "printed = render_markdown = canonical"}
	if c.Pass {
		c.Got = "identical"
		return c, true
	}
	var got, reasons, diffs []string
	if !rep.MarkdownMatches {
		got = append(got, "printed ≠ render_markdown")
		reasons = append(reasons, "the printed markdown is not data.render_markdown byte for byte"+where(rep.MarkdownDiff))
		diffs = append(diffs, diffOf(rep.MarkdownDiff))
	}
	if !rep.CanonicalMatches {
		got = append(got, "render_markdown ≠ canonical")
		reasons = append(reasons, "data.render_markdown is not the canonical rendering of bullets and sources"+where(rep.CanonicalDiff))
		diffs = append(diffs, diffOf(rep.CanonicalDiff))
	}
	c.Got = strings.Join(got, "; ")
	c.Reason = strings.Join(reasons, "; ")
	c.Diff = strings.Join(diffs, "\n")
	return c, true
}

// where says where two texts first differ, for a reason.
func where(m *textdiff.Mismatch) string {
	if m == nil {
		return ""
	}
	return ": " + m.String()
}

// diffOf is a Check.Diff: where the texts first differ, then the visible
// unified diff.
func diffOf(m *textdiff.Mismatch) string {
	if m == nil {
		return ""
	}
	return m.String() + "\n" + m.Diff
}

// NewAggregator implements Scorer.
func (Markdown) NewAggregator() Aggregator { return &Rates{} }
