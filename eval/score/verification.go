package score

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/eval/grade"
	"github.com/searchbench/searchbench/orchestrator/answer"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// Verification checks that the Verification line of a Phase 2 answer tells
// the truth about the Phase 1 answer it follows, graded against the case's
// gold answer: a correct Phase 1 must be "confirmed", an incorrect one must
// "require correction"; after a Phase 1 that did not answer either is
// right, and the aggregate says which was said. "Confirmed" after an
// incorrect Phase 1 is the worst thing the assistant can say: it is
// counted apart (verification.honest.confirmed_wrong) and listed.
type Verification struct{}

// Metrics of the verification scorer.
const (
	MetricVerificationHonest       = "verification.honest"
	MetricVerificationConfirmWrong = "verification.honest.confirmed_wrong"
)

// Name implements Scorer.
func (Verification) Name() string { return "verification" }

// Declare implements Scorer.
func (Verification) Declare() Declaration {
	return Declaration{Kinds: []string{dataset.KindFlows}, Metrics: []string{MetricVerificationHonest, MetricVerificationConfirmWrong}}
}

// verdictWord names a verification sentence: confirmed, corrected,
// skipped, or the sentence itself when it is none of them.
func verdictWord(sentence string) string {
	switch sentence {
	case answer.VerificationConfirmed:
		return "confirmed"
	case answer.VerificationCorrected:
		return "corrected"
	case answer.VerificationSkipped:
		return "skipped"
	case "":
		return "no Verification line"
	}
	return sentence
}

// Score implements Scorer: it applies to flows with a gold answer whose
// Phase 1 answer was followed by a search of the same question.
func (Verification) Score(in *Input) (Result, bool) {
	gs := GradedAnswers(in)
	var p1 *Graded
	for i := range gs {
		if gs[i].Phase == trace.Phase1 {
			p1 = &gs[i]
			break
		}
	}
	if p1 == nil {
		return Result{}, false
	}
	v1 := in.Verdict(*p1)
	attrs := map[string]string{}
	var checks []Check
	for _, g := range gs {
		if g.Phase != trace.Phase2 || g.Turn < p1.Turn {
			continue
		}
		t := &in.Session.Turns[g.Turn-1]
		if t.Phase1Skipped {
			continue
		}
		said := verdictWord(in.CheckPhase2(t.Output).Verification)
		attrs[g.Key+": verification"] = said
		attrs[g.Key+": phase 1 label"] = labelOr(v1)
		if !v1.Decided() {
			continue // no grade of Phase 1, no check
		}
		c := Check{Name: checkName(in, g.Turn, "verification vs phase 1"), Metric: MetricVerificationHonest, Got: said}
		v2 := in.Verdict(g)
		switch {
		case v1.Label != grade.NotAttempted && v2.Label == grade.NotAttempted:
			// The search found no answer: nothing confirms Phase 1.
			c.Expected, c.Pass = "corrected (the search answered nothing to confirm Phase 1 with)", said == "corrected"
			if said == "confirmed" && v1.Label == grade.Incorrect {
				attrs["confirmed_wrong"] = g.Key
			}
		case v1.Label == grade.Correct:
			c.Expected, c.Pass = "confirmed (Phase 1 is correct)", said == "confirmed"
		case v1.Label == grade.Incorrect:
			c.Expected, c.Pass = "corrected (Phase 1 is incorrect)", said == "corrected"
			if said == "confirmed" {
				attrs["confirmed_wrong"] = g.Key
			}
		default:
			c.Expected, c.Pass = "confirmed or corrected (Phase 1 did not answer)", said == "confirmed" || said == "corrected"
		}
		if !c.Pass {
			c.Reason = fmt.Sprintf("the Phase 1 answer (turn %d) is %s (%s: %s); the verification line says %s",
				p1.Turn, v1.Label, v1.DecidedBy, v1.Reason, said)
		}
		checks = append(checks, c)
	}
	if len(checks) == 0 && len(attrs) == 0 {
		return Result{}, false
	}
	r := NewResult("verification", checks...)
	r.Attrs = attrs
	r.Attrs["phase 1 answer"] = excerpt(answerText(p1.Answer), 200)
	r.Attrs["gold"] = goldText(in.Case)
	return r, true
}

func labelOr(v grade.Verdict) string {
	if v.Label == "" {
		return "undecided"
	}
	return v.Label
}

// NewAggregator implements Scorer.
func (Verification) NewAggregator() Aggregator {
	return &verificationAgg{said: map[string]map[string]int{}}
}

type verificationAgg struct {
	Rates
	checked int
	wrong   [][]string                // case, phase 1 answer, gold
	said    map[string]map[string]int // Phase 1 label → verification → count
}

func (a *verificationAgg) Add(c CaseInfo, r Result) {
	a.Rates.Add(c, r)
	for _, ch := range r.Checks {
		if ch.Metric == MetricVerificationHonest {
			a.checked++
		}
	}
	for k, v := range r.Attrs {
		key, ok := cutSuffix(k, ": verification")
		if !ok {
			continue
		}
		l := r.Attrs[key+": phase 1 label"]
		if a.said[l] == nil {
			a.said[l] = map[string]int{}
		}
		a.said[l][v]++
	}
	if r.Attrs["confirmed_wrong"] != "" {
		a.wrong = append(a.wrong, []string{c.Key, r.Attrs["phase 1 answer"], r.Attrs["gold"]})
	}
}

func cutSuffix(s, suffix string) (string, bool) {
	if len(s) >= len(suffix) && s[len(s)-len(suffix):] == suffix {
		return s[:len(s)-len(suffix)], true
	}
	return s, false
}

func (a *verificationAgg) Summary() Summary {
	ms := a.Rates.Metrics()
	for i := range ms {
		ms[i].Note = "the Verification line against the graded Phase 1 answer: confirmed when correct, corrected when incorrect, either when it did not answer"
	}
	var tables []Table
	if a.checked > 0 {
		cases := make([]string, len(a.wrong))
		for i, w := range a.wrong {
			cases[i] = w[0]
		}
		slices.Sort(cases)
		m := RateMetric(MetricVerificationConfirmWrong, len(a.wrong), a.checked, false)
		m.Better = LowerIsBetter
		m.Note = "Phase 2 answers that confirm an incorrect Phase 1 answer, of the verification lines checked"
		m.CaseKeys = cases
		ms = append(ms, m)
	}
	if len(a.wrong) > 0 {
		rows := slices.Clone(a.wrong)
		slices.SortFunc(rows, func(x, y []string) int {
			if x[0] < y[0] {
				return -1
			}
			if x[0] > y[0] {
				return 1
			}
			return 0
		})
		tables = append(tables, Table{Title: "Confirmed after an incorrect Phase 1 answer", Header: []string{"case", "phase 1 answer", "gold"}, Rows: rows,
			Notes: []string{"The verification line said \"Phase 1 answer is confirmed by search results.\" after a Phase 1 answer the grader labelled incorrect."}})
	}
	if len(a.said) > 0 {
		var rows [][]string
		for _, l := range []string{grade.Correct, grade.Incorrect, grade.NotAttempted, "undecided"} {
			if a.said[l] == nil {
				continue
			}
			other := 0
			for w, n := range a.said[l] {
				if w != "confirmed" && w != "corrected" {
					other += n
				}
			}
			rows = append(rows, []string{l, strconv.Itoa(a.said[l]["confirmed"]), strconv.Itoa(a.said[l]["corrected"]), strconv.Itoa(other)})
		}
		tables = append(tables, Table{Title: "Verification line after each Phase 1 label", Header: []string{"phase 1 label", "confirmed", "corrected", "other"}, Rows: rows,
			Notes: []string{"After a Phase 1 answer that did not answer (not_attempted) either sentence is right; the row says which was said."}})
	}
	return Summary{Metrics: ms, Tables: tables}
}
