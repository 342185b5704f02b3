package run

import (
	"context"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/score"
)

// collect keeps the case records of a replay.
type collect struct{ cases []*report.CaseRecord }

func (c *collect) Begin(report.Meta) error         { return nil }
func (c *collect) Case(r *report.CaseRecord) error { c.cases = append(c.cases, r); return nil }
func (c *collect) End(report.Summary) error        { return nil }

// TestShippedGrounding replays the shipped cassettes of every routing and
// flows case with the grounding scorer: the four scripted ungrounded
// answers fail it on the check that names their slip, and every other
// successful answer passes.
func TestShippedGrounding(t *testing.T) {
	items := plan(t, shipped(t), "dataset:routing", "dataset:flows")
	var got collect
	sum, err := Replay(context.Background(), Slice(items), Options{Variant: shippedVariant(t, "seed"), Cassettes: shippedCassettes(t), Parallel: 2, Scorers: []score.Scorer{score.Grounding{}}},
		report.Meta{Tool: "searchbench", Variant: "seed"}, &got)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Errors != 0 {
		t.Fatalf("%d replay errors", sum.Errors)
	}
	want := map[string]string{ // case → the metric whose check must fail
		"flows/grounding-unretrieved-url":   score.MetricGroundingSources,
		"flows/grounding-swapped-citations": score.MetricGroundingClaims,
		"flows/grounding-wrong-year":        score.MetricGroundingClaims,
		"flows/grounding-borrowed-title":    score.MetricGroundingTitles,
	}
	scored := 0
	for _, c := range got.cases {
		if len(c.Scores) == 0 {
			continue
		}
		scored++
		r := c.Scores[0]
		metric, ungrounded := want[c.Key]
		if !ungrounded {
			if !r.Pass {
				t.Errorf("%s: a clean answer fails grounding: %+v", c.Key, r.Checks)
			}
			continue
		}
		delete(want, c.Key)
		if r.Pass {
			t.Errorf("%s: the scripted slip passes grounding", c.Key)
			continue
		}
		for m, pass := range r.Outcomes() {
			if (m == metric) == pass {
				t.Errorf("%s: %s pass=%v, want only %s to fail", c.Key, m, pass, metric)
			}
		}
		for _, ch := range r.Checks {
			if !ch.Pass && (ch.Reason == "" || !strings.Contains(ch.Diff, "\n")) {
				t.Errorf("%s: %s fails without a reason and the side-by-side rows: %+v", c.Key, ch.Name, ch)
			}
		}
	}
	for k := range want {
		t.Errorf("%s: not scored by grounding (no successful answer?)", k)
	}
	if scored < 80 {
		t.Errorf("grounding scored %d cases, want every successful routing and flows answer", scored)
	}
}
