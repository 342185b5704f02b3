package grade

import (
	"reflect"
	"testing"

	"github.com/searchbench/searchbench/lib/memo"
	"github.com/searchbench/searchbench/lib/quantity"
)

// TestFindMemoIsReadOnly: grading with the kept values gives the verdicts
// of values read afresh, and grading leaves the kept values as read.
func TestFindMemoIsReadOnly(t *testing.T) {
	cases := []struct {
		question string
		gold     Gold
		answer   string
	}{
		{"How many rooms does the hotel have?", Gold{Answers: []string{"775 rooms"}}, "It has 775."},
		{"What share voted?", Gold{Answers: []string{"20%"}}, "19"},
		{"When did it open?", Gold{Answers: []string{"November 8, 1968", "late 1968"}}, "It opened in 1968, with 20 or more rooms in 126 suites."},
		{"How long is the bridge?", Gold{Answers: []string{"10–12 years"}, Reject: []string{"15 years"}}, "About 11.3, though 15 years is also quoted."},
	}
	var texts []string
	for _, c := range cases {
		texts = append(texts, c.question, c.answer)
		texts = append(texts, c.gold.Answers...)
		texts = append(texts, c.gold.Reject...)
	}
	memo.ResetAll()
	var first []Verdict
	for _, c := range cases {
		first = append(first, Rules(c.question, c.gold, Answer{Text: c.answer}))
	}
	for i, c := range cases { // again, from the memo
		if got := Rules(c.question, c.gold, Answer{Text: c.answer}); !reflect.DeepEqual(got, first[i]) {
			t.Errorf("case %d graded %+v from kept values, %+v afresh", i, got, first[i])
		}
	}
	for _, s := range texts {
		kept, ok := findMemo.Get(s)
		if !ok {
			continue // not every text is read
		}
		if fresh := quantity.Find(s); !reflect.DeepEqual(kept, fresh) {
			t.Errorf("kept values of %q changed by grading:\n kept %+v\nfresh %+v", s, kept, fresh)
		}
	}
	if findMemo.Len() == 0 {
		t.Fatal("nothing was kept: the test proves nothing")
	}
}
