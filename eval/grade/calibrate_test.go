package grade

import (
	"context"
	"testing"
)

// TestCalibrateSplit: the naive grader is measured on every item and, for
// the comparison on the same items, on the items the rules decide.
func TestCalibrateSplit(t *testing.T) {
	item := func(q, gold, answer, human string) Item {
		return Item{Question: q, Gold: Gold{Answers: []string{gold}}, Answer: answer, Human: human}
	}
	items := []Item{
		item("Who?", "Art Carney", "Art Carney", Correct),            // rules correct, naive correct
		item("Who?", "Art Carney", "Jack Nicholson", Incorrect),      // rules defer, naive incorrect
		item("When was it founded?", "1984", "1990", Correct),        // rules incorrect, naive incorrect
		item("How many seasons?", "8", "There were eight.", Correct), // rules correct, naive incorrect
		item("Who?", "Art Carney", "I don't know.", Incorrect),       // rules not attempted, naive incorrect
	}
	m, err := CalibrateSplit(context.Background(), "tuning", items, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][3]int{ // decided, agree, items
		GraderRules:     {4, 3, 5},
		GraderNaive:     {5, 3, 5},
		GraderNaiveSame: {4, 2, 5},
	}
	if len(m.Graders) != len(want) {
		t.Fatalf("graders %+v, want %d", m.Graders, len(want))
	}
	for name, w := range want {
		a, ok := (&CalibrationReport{Splits: []SplitMeasured{m}}).Find("tuning", name)
		if !ok {
			t.Errorf("no %q row", name)
			continue
		}
		if got := [3]int{a.Decided, a.Agree, a.Items}; got != w {
			t.Errorf("%s: decided, agree, items = %v, want %v", name, got, w)
		}
	}
}
