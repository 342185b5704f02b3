package score

import (
	"testing"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/eval/grade"
	"github.com/searchbench/searchbench/orchestrator/answer"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

func withGold(c *dataset.Case, accept ...string) *dataset.Case {
	c.Answer = &dataset.Gold{Accept: accept}
	return c
}

func TestCorrectness(t *testing.T) {
	insufficient := answer.FormatPhase2(answer.VerificationSkipped, answer.InsufficientEvidence())
	tests := []struct {
		name   string
		in     *Input
		label  string // of turn 1; "" when no check
		pass   bool
		by     string
		noCase bool
	}{
		{"value in a bullet", &Input{Case: withGold(routingCase("tavily_only"), "March 2012"), Session: session(p2(okMsg(answer.VerificationSkipped)))},
			grade.Correct, true, grade.ByRule, false},
		{"insufficient evidence", &Input{Case: withGold(routingCase("tavily_only"), "March 2012"), Session: session(p2(insufficient))},
			grade.NotAttempted, false, grade.ByRule, false},
		{"deferred, no judge", &Input{Case: withGold(routingCase("tavily_only"), "Rob Pike"), Session: session(p2(okMsg(answer.VerificationSkipped)))},
			"", false, grade.ByNone, false},
		{"deferred, judged", &Input{Case: withGold(routingCase("tavily_only"), "Rob Pike"), Session: session(p2(okMsg(answer.VerificationSkipped))),
			Judged: map[string]grade.Verdict{"turn 1": {Label: grade.Incorrect, DecidedBy: grade.ByJudge, Rule: "judge", Reason: "no designer named"}}},
			grade.Incorrect, false, grade.ByJudge, false},
		{"no gold answer", &Input{Case: routingCase("tavily_only"), Session: session(p2(okMsg(answer.VerificationSkipped)))}, "", false, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, ok := Correctness{}.Score(tt.in)
			if ok == tt.noCase {
				t.Fatalf("applies = %v", ok)
			}
			if tt.noCase {
				return
			}
			c := checkByName(r, "phase 2 answer")
			switch {
			case tt.label == "" && c != nil:
				t.Errorf("an undecided answer made a check: %+v", c)
			case tt.label != "" && (c == nil || c.Pass != tt.pass || c.Metric != MetricCorrectnessPhase2):
				t.Errorf("check %+v, want pass %v", c, tt.pass)
			}
			want := tt.label
			if want == "" {
				want = "undecided"
			}
			if r.Attrs["turn 1: label"] != want || r.Attrs["turn 1: decided_by"] != tt.by || r.Attrs["turn 1: reason"] == "" || r.Attrs["gold"] == "" {
				t.Errorf("attrs %v", r.Attrs)
			}
		})
	}
}

func TestCorrectnessAggregate(t *testing.T) {
	agg := Correctness{}.NewAggregator()
	add := func(gold string, msg string) {
		in := &Input{Case: withGold(routingCase("tavily_only"), gold), Session: session(p2(msg))}
		r, _ := Correctness{}.Score(in)
		agg.Add(InfoOf(in.Case), r)
	}
	ok := okMsg(answer.VerificationSkipped)
	add("March 2012", ok)                                                                             // correct
	add("March 2012", ok)                                                                             // correct
	add("Rob Pike", ok)                                                                               // undecided
	add("March 2012", answer.FormatPhase2(answer.VerificationSkipped, answer.InsufficientEvidence())) // not attempted
	s := agg.Summary()
	got := map[string]Metric{}
	for _, m := range s.Metrics {
		got[m.Name] = m
	}
	for name, want := range map[string][2]int{
		"correctness.phase2": {2, 3}, "correctness.phase2.incorrect": {0, 3}, "correctness.phase2.not_attempted": {1, 3},
		"correctness.phase2.undecided": {1, 4}, "correctness.phase2.judged": {0, 3},
	} {
		if m := got[name]; m.Num != want[0] || m.Den != want[1] {
			t.Errorf("%s = %d/%d, want %d/%d", name, m.Num, m.Den, want[0], want[1])
		}
	}
	// F = harmonic mean of 2/3 (correct of decided) and 2/2 (correct of attempted) = 0.8.
	if f := got["correctness.phase2.f_score"]; f.Value < 0.7999 || f.Value > 0.8001 || f.Unit != UnitScore {
		t.Errorf("f_score %+v", f)
	}
	if got["correctness.phase2.incorrect"].Better != LowerIsBetter || !got["correctness.phase2"].Paired {
		t.Errorf("directions: %+v %+v", got["correctness.phase2.incorrect"], got["correctness.phase2"])
	}
	if len(s.Tables) != 1 || s.Tables[0].Rows[0][0] != trace.Phase2 {
		t.Errorf("tables %+v", s.Tables)
	}
}

// TestVerificationHonest: confirmed after a correct Phase 1, corrected
// after an incorrect one, either after one that did not answer; confirmed
// after an incorrect one is counted apart, with the case named.
func TestVerificationHonest(t *testing.T) {
	flow := func(gold string) *dataset.Case {
		return withGold(flowCase(flowExpect{Phase: "phase1"}, flowExpect{Phase: "phase2"}), gold)
	}
	notAnswered := trace.Turn{Phase: trace.Phase1, Output: answer.Phase1Header + "\nI don't know.\n\n" + answer.ConsentQuestion, ModelCalls: []trace.ModelCall{{Attempts: 1}}}
	insufficient := answer.FormatPhase2(answer.VerificationCorrected, answer.InsufficientEvidence())
	tests := []struct {
		name, gold string
		p1         trace.Turn
		p2         string
		pass       bool
		wrong      bool
	}{
		{"correct, confirmed", "2012", p1(), okMsg(answer.VerificationConfirmed), true, false},
		{"correct, corrected", "2012", p1(), okMsg(answer.VerificationCorrected), false, false},
		{"incorrect, corrected", "2009", p1(), okMsg(answer.VerificationCorrected), true, false},
		{"incorrect, confirmed", "2009", p1(), okMsg(answer.VerificationConfirmed), false, true},
		{"not attempted, confirmed", "2012", notAnswered, okMsg(answer.VerificationConfirmed), true, false},
		{"not attempted, corrected", "2012", notAnswered, okMsg(answer.VerificationCorrected), true, false},
		{"nothing found, corrected", "2012", p1(), insufficient, true, false},
	}
	agg := Verification{}.NewAggregator()
	var wrongKeys []string
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := flow(tt.gold)
			c.ID = "f" + string(rune('a'+i))
			in := &Input{Case: c, Session: session(tt.p1, p2(tt.p2))}
			r, ok := Verification{}.Score(in)
			if !ok {
				t.Fatal("does not apply")
			}
			ch := checkByName(r, "turn 2: verification vs phase 1")
			if ch == nil || ch.Pass != tt.pass || ch.Metric != MetricVerificationHonest {
				t.Errorf("check %+v, want pass %v", ch, tt.pass)
			}
			if (r.Attrs["confirmed_wrong"] != "") != tt.wrong {
				t.Errorf("confirmed_wrong attr %q", r.Attrs["confirmed_wrong"])
			}
			if tt.wrong {
				wrongKeys = append(wrongKeys, c.Key())
			}
			agg.Add(InfoOf(c), r)
		})
	}
	s := agg.Summary()
	for _, m := range s.Metrics {
		if m.Name == MetricVerificationConfirmWrong {
			if m.Num != 1 || m.Den != len(tests) || len(m.CaseKeys) != 1 || m.CaseKeys[0] != wrongKeys[0] || m.Better != LowerIsBetter {
				t.Errorf("%+v", m)
			}
			return
		}
	}
	t.Errorf("no %s metric: %+v", MetricVerificationConfirmWrong, s.Metrics)
}
