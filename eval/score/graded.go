package score

import (
	"fmt"
	"strings"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/eval/grade"
	"github.com/searchbench/searchbench/orchestrator/answer"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// Graded is one answer to a case's question that the correctness scorers
// grade against the case's gold answer: the Phase 1 answer of a flow's
// first question, and every Phase 2 answer to that question (a routing
// case's one answer).
type Graded struct {
	// Key names the answer in Input.Judged and in reports: "turn 2".
	Key   string
	Turn  int    // 1-based
	Phase string // trace.Phase1 or trace.Phase2
	// Question is the question the answer answers.
	Question string
	Answer   grade.Answer
}

// GradedAnswers returns the answers of in that are graded: none when the
// case has no gold answer. A turn that did not finish has no answer to
// grade.
func GradedAnswers(in *Input) []Graded {
	c := in.Case
	if c == nil || c.Answer == nil || (c.Kind != dataset.KindRouting && c.Kind != dataset.KindFlows) {
		return nil
	}
	ts := sessionTurns(in)
	if len(ts) == 0 {
		return nil
	}
	question := ts[0].T.Query
	var out []Graded
	for _, r := range ts {
		t := r.T
		if t.Error != "" || t.Query != question {
			continue
		}
		g := Graded{Key: fmt.Sprintf("turn %d", r.N), Turn: r.N, Phase: t.Phase, Question: question}
		switch t.Phase {
		case trace.Phase1:
			g.Answer = grade.Answer{Text: Phase1Body(t.Output)}
		case trace.Phase2:
			g.Answer = phase2Answer(in.CheckPhase2(t.Output))
		default:
			continue
		}
		out = append(out, g)
	}
	return out
}

// Phase1Body is a Phase 1 answer without its header and consent question.
func Phase1Body(output string) string {
	var kept []string
	for _, l := range strings.Split(output, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "### Phase 1") || strings.Contains(t, "Would you like me to look this up") {
			continue
		}
		kept = append(kept, l)
	}
	return strings.TrimSpace(strings.Join(kept, "\n"))
}

// phase2Answer is what a Phase 2 answer says: its bullets, one a line, and
// its envelope's error code.
func phase2Answer(rep answer.Phase2Report) grade.Answer {
	if rep.Envelope == nil {
		return grade.Answer{Code: "SCHEMA_VIOLATION"}
	}
	var lines []string
	for _, b := range rep.Envelope.Data.Bullets {
		lines = append(lines, b.Text)
	}
	return grade.Answer{Text: strings.Join(lines, "\n"), Code: rep.Envelope.Error.Code}
}

// GoldOf converts a case's gold answer for the grader.
func GoldOf(c *dataset.Case) grade.Gold {
	if c == nil || c.Answer == nil {
		return grade.Gold{}
	}
	return grade.Gold{Answers: c.Answer.Accept, Reject: c.Answer.Reject, AsOf: c.Answer.AsOf}
}

// Verdict is the grade of g: the rules' verdict, or the judge's when the
// rules deferred and the run asked the judge (Input.Judged); memoized per
// Input, so the two scorers that read it agree.
func (in *Input) Verdict(g Graded) grade.Verdict {
	if v, ok := in.verdicts[g.Key]; ok {
		return v
	}
	v := in.RulesVerdict(g)
	if !v.Decided() {
		if j, ok := in.Judged[g.Key]; ok {
			v = j
		}
	}
	if in.verdicts == nil {
		in.verdicts = map[string]grade.Verdict{}
	}
	in.verdicts[g.Key] = v
	return v
}

// RulesVerdict is the rules' grade of g, memoized per Input: the replay
// asks it to find the answers the judge must decide, and Verdict again.
func (in *Input) RulesVerdict(g Graded) grade.Verdict {
	if v, ok := in.rules[g.Key]; ok {
		return v
	}
	v := grade.Rules(g.Question, GoldOf(in.Case), g.Answer)
	if in.rules == nil {
		in.rules = map[string]grade.Verdict{}
	}
	in.rules[g.Key] = v
	return v
}
