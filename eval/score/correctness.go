package score

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/eval/grade"
	"github.com/searchbench/searchbench/eval/stats"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// Correctness grades the answers to a case's question against its gold
// answer (dataset `answer:`), with eval/grade: the rules, then the judge's
// recorded verdict for what they defer. Each graded answer is a check of
// correctness.phase1 or correctness.phase2 that passes when the answer is
// correct; the aggregate adds SimpleQA's rates (incorrect, not attempted)
// and F-score, and how many verdicts the judge gave.
type Correctness struct{}

// Metrics of the correctness scorer, for phase in {phase1, phase2}.
const (
	MetricCorrectnessPhase1 = "correctness.phase1"
	MetricCorrectnessPhase2 = "correctness.phase2"
)

var correctnessSuffixes = []string{"", ".incorrect", ".not_attempted", ".f_score", ".judged", ".undecided"}

// Name implements Scorer.
func (Correctness) Name() string { return "correctness" }

// Declare implements Scorer.
func (Correctness) Declare() Declaration {
	var ms []string
	for _, p := range []string{MetricCorrectnessPhase1, MetricCorrectnessPhase2} {
		for _, s := range correctnessSuffixes {
			ms = append(ms, p+s)
		}
	}
	return Declaration{Kinds: []string{dataset.KindRouting, dataset.KindFlows}, Metrics: ms}
}

// Score implements Scorer: it applies to cases with a gold answer whose
// question was answered.
func (Correctness) Score(in *Input) (Result, bool) {
	gs := GradedAnswers(in)
	if len(gs) == 0 {
		return Result{}, false
	}
	var checks []Check
	attrs := goldAttrs(in.Case)
	for _, g := range gs {
		v := in.Verdict(g)
		metric := "correctness." + g.Phase
		for k, x := range verdictAttrs(g, v) {
			attrs[k] = x
		}
		if !v.Decided() {
			continue // undecided: no outcome, counted apart
		}
		c := Check{
			Name:     checkName(in, g.Turn, strings.ReplaceAll(g.Phase, "phase", "phase ")+" answer"),
			Metric:   metric,
			Pass:     v.Label == grade.Correct,
			Expected: "correct: " + goldText(in.Case),
			Got:      v.Label + ": " + excerpt(answerText(g.Answer), 100),
		}
		if !c.Pass {
			c.Reason = fmt.Sprintf("%s (decided by %s)", v.Reason, v.DecidedBy)
		}
		checks = append(checks, c)
	}
	r := NewResult("correctness", checks...)
	r.Attrs = attrs
	if in.JudgeStandIn {
		r.Attrs["judge"] = "simulator stand-in"
	}
	return r, true
}

// goldAttrs are a case's gold answer as result attributes, for reports.
func goldAttrs(c *dataset.Case) map[string]string {
	a := map[string]string{"gold": strings.Join(c.Answer.Accept, " | ")}
	if len(c.Answer.Reject) > 0 {
		a["gold.reject"] = strings.Join(c.Answer.Reject, " | ")
	}
	if c.Answer.AsOf != "" {
		a["gold.as_of"] = c.Answer.AsOf
	}
	return a
}

// verdictAttrs are one graded answer's verdict as result attributes:
// "turn 2: label", "turn 2: decided_by", … ("undecided" as the label of a
// verdict no one gave).
func verdictAttrs(g Graded, v grade.Verdict) map[string]string {
	label := v.Label
	if label == "" {
		label = "undecided"
	}
	return map[string]string{
		g.Key + ": phase":      g.Phase,
		g.Key + ": answer":     excerpt(answerText(g.Answer), 300),
		g.Key + ": label":      label,
		g.Key + ": decided_by": v.DecidedBy,
		g.Key + ": rule":       v.Rule,
		g.Key + ": reason":     v.Reason,
	}
}

func goldText(c *dataset.Case) string {
	s := strings.Join(c.Answer.Accept, " | ")
	if c.Answer.AsOf != "" {
		s += " (as of " + c.Answer.AsOf + ")"
	}
	return s
}

func answerText(a grade.Answer) string {
	if a.Code != "" && a.Code != "NONE" {
		return a.Code
	}
	return strings.Join(strings.Fields(a.Text), " ")
}

func excerpt(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// NewAggregator implements Scorer.
func (Correctness) NewAggregator() Aggregator { return &correctnessAgg{} }

// phaseCounts counts one phase's verdicts.
type phaseCounts struct {
	correct, incorrect, notAttempted, undecided, judged int
}

func (l phaseCounts) decided() int { return l.correct + l.incorrect + l.notAttempted }

type correctnessAgg struct {
	Rates
	phases  map[string]*phaseCounts
	standIn bool
}

func (a *correctnessAgg) Add(c CaseInfo, r Result) {
	a.Rates.Add(c, r)
	if a.phases == nil {
		a.phases = map[string]*phaseCounts{trace.Phase1: {}, trace.Phase2: {}}
	}
	if r.Attrs["judge"] != "" {
		a.standIn = true
	}
	for k, phase := range r.Attrs {
		key, ok := strings.CutSuffix(k, ": phase")
		if !ok {
			continue
		}
		n := a.phases[phase]
		if n == nil {
			continue
		}
		switch r.Attrs[key+": label"] {
		case grade.Correct:
			n.correct++
		case grade.Incorrect:
			n.incorrect++
		case grade.NotAttempted:
			n.notAttempted++
		default:
			n.undecided++
		}
		if r.Attrs[key+": decided_by"] == grade.ByJudge {
			n.judged++
		}
	}
}

func (a *correctnessAgg) Summary() Summary {
	var ms []Metric
	for _, m := range a.Rates.Metrics() {
		m.Note = "share of graded answers the grader labelled correct (SimpleQA's correct rate); answers the rules deferred and no judge decided are left out"
		ms = append(ms, m)
	}
	var rows [][]string
	for _, phase := range []string{trace.Phase1, trace.Phase2} {
		n := a.phases[phase]
		if n == nil || n.decided()+n.undecided == 0 {
			continue
		}
		name := "correctness." + phase
		d := n.decided()
		if d > 0 {
			inc := RateMetric(name+".incorrect", n.incorrect, d, false)
			inc.Better, inc.Note = LowerIsBetter, "share of graded answers labelled incorrect: a wrong answer, not an abstention"
			na := RateMetric(name+".not_attempted", n.notAttempted, d, false)
			na.Better, na.Note = "", "share of graded answers that did not answer: refusals, hedges, INSUFFICIENT_EVIDENCE"
			ms = append(ms, inc, na)
			ms = append(ms, Metric{Name: name + ".f_score", Value: fScore(n.correct, n.incorrect, d), Unit: UnitScore, Better: HigherIsBetter,
				Num: n.correct, Den: d, Note: "SimpleQA's F-score: the harmonic mean of the correct rate and the correct rate among attempted answers"})
			j := RateMetric(name+".judged", n.judged, d, false)
			j.Better, j.Note = "", "share of graded answers the judge decided (the rules deferred)"
			if a.standIn {
				j.Note += "; the judge is the simulator's stand-in, which reads words, not meaning: not a model"
			}
			ms = append(ms, j)
		}
		u := RateMetric(name+".undecided", n.undecided, d+n.undecided, false)
		u.Better, u.Note = "", "share of graded answers no one labelled: the rules deferred and there was no judge verdict (--rules-only)"
		ms = append(ms, u)
		rows = append(rows, []string{phase, strconv.Itoa(n.correct), strconv.Itoa(n.incorrect), strconv.Itoa(n.notAttempted),
			strconv.Itoa(n.undecided), fmt.Sprintf("%d of %d", n.judged, d)})
	}
	slices.SortFunc(ms, func(x, y Metric) int { return strings.Compare(x.Name, y.Name) })
	s := Summary{Metrics: ms}
	if len(rows) > 0 {
		notes := []string{"Every sample counts. Labels by the rules, or by the judge for what they deferred."}
		if a.standIn {
			notes = append(notes, "The judge's verdicts come from the simulator's stand-in, which is not a model.")
		}
		s.Tables = append(s.Tables, Table{Title: "Correctness: graded answers by label",
			Header: []string{"phase", "correct", "incorrect", "not attempted", "undecided", "by the judge"}, Rows: rows, Notes: notes})
	}
	return s
}

// fScore is SimpleQA's F-score: the harmonic mean of correct/decided and
// correct/(correct+incorrect).
func fScore(correct, incorrect, decided int) float64 {
	overall := stats.Ratio(correct, decided)
	given := stats.Ratio(correct, correct+incorrect)
	if overall+given == 0 {
		return 0
	}
	return 2 * overall * given / (overall + given)
}
