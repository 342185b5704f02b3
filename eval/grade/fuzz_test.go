package grade

import (
	"slices"
	"strings"
	"testing"
)

// FuzzRules checks that the rules never panic and that every verdict is
// one of the three labels with the rule that decided it, or undecided with
// the rule that deferred; a verdict is the same every time.
func FuzzRules(f *testing.F) {
	for _, s := range [][3]string{
		{"How many?", "1,121 qubits", "IBM's Condor has 1121 qubits."},
		{"When?", "2 August 2024", "am 2. August 2024"},
		{"Who?", "Art Carney", "I don't know."},
		{"When?", "1984", "1984 or 1990"},
		{"How much?", "€3bn", "3 billion euros, roughly"},
		{"Which?", "copper (Cu)", "Copper"},
		{"", "", ""},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, question, gold, answer string) {
		g := Gold{Answers: strings.Split(gold, "|")}
		v := Rules(question, g, Answer{Text: answer})
		switch {
		case v.Decided() && (!slices.Contains(Labels, v.Label) || v.DecidedBy != ByRule):
			t.Fatalf("Rules(%q, %q, %q) = %+v", question, gold, answer, v)
		case !v.Decided() && v.DecidedBy != ByNone:
			t.Fatalf("undecided but decided_by %q: %+v", v.DecidedBy, v)
		case v.Rule == "" || v.Reason == "":
			t.Fatalf("no rule or reason: %+v", v)
		}
		if again := Rules(question, g, Answer{Text: answer}); again != v {
			t.Fatalf("Rules is not deterministic: %+v then %+v", v, again)
		}
		_ = Naive(g, Answer{Text: answer})
	})
}
