package grade

import (
	"math"

	"github.com/searchbench/searchbench/eval/stats"
)

// Agreement is how a grader's verdicts on a calibration set agree with the
// human labels. Labels compare as correct against not correct: people
// judged answers acceptable or not, so incorrect and not_attempted are one
// side.
type Agreement struct {
	Grader string `json:"grader"`
	Items  int    `json:"items"`
	// Decided is how many items the grader labelled; Agree how many of
	// those match the human label.
	Decided int `json:"decided"`
	Agree   int `json:"agree"`
	// Kappa is Cohen's κ over the decided items, with its 95% interval.
	Kappa   float64 `json:"kappa"`
	KappaLo float64 `json:"kappa_low"`
	KappaHi float64 `json:"kappa_high"`
	// NoKappa is set when κ is undefined (both sides used one label, or
	// nothing was decided); the three figures are then 0.
	NoKappa bool `json:"no_kappa,omitempty"`
	// Table counts the decided items by human label (rows: correct, not
	// correct) and grader label (columns: the same).
	Table [2][2]int `json:"table"`
	// ByRule counts decided items and their disagreements by the rule or
	// decider that labelled them, for finding what to fix.
	ByRule map[string][2]int `json:"by_rule,omitempty"`
}

// AgreeRate is Agree / Decided (0 when nothing was decided).
func (a Agreement) AgreeRate() float64 { return stats.Ratio(a.Agree, a.Decided) }

// DecidedRate is Decided / Items.
func (a Agreement) DecidedRate() float64 { return stats.Ratio(a.Decided, a.Items) }

// Measure compares verdicts (one per item, in order) with the items'
// human labels.
func Measure(grader string, items []Item, verdicts []Verdict) Agreement {
	a := Agreement{Grader: grader, Items: len(items), ByRule: map[string][2]int{}}
	for i, it := range items {
		v := verdicts[i]
		if !v.Decided() || it.Human == "" {
			continue
		}
		a.Decided++
		h, g := side(it.Human), side(v.Label)
		a.Table[h][g]++
		key := v.DecidedBy + ":" + v.Rule
		c := a.ByRule[key]
		c[0]++
		if h == g {
			a.Agree++
		} else {
			c[1]++
		}
		a.ByRule[key] = c
	}
	k := stats.CohensKappa([][]int{a.Table[0][:], a.Table[1][:]})
	if math.IsNaN(k.Kappa) {
		a.NoKappa = true
	} else {
		a.Kappa, a.KappaLo, a.KappaHi = k.Kappa, k.Lo, k.Hi
	}
	return a
}

func side(label string) int {
	if label == Correct {
		return 0
	}
	return 1
}

// Naive is the baseline grader the rules must beat: correct when a gold
// answer's text is in the answer (after lower-casing, punctuation,
// articles and spaces are normalised as SQuAD's evaluation does),
// incorrect otherwise. It always decides.
func Naive(gold Gold, ans Answer) Verdict {
	a := " " + squadNormalize(ans.Text) + " "
	for _, g := range gold.Answers {
		if n := squadNormalize(g); n != "" && containsWords(a, n) {
			return Verdict{Label: Correct, DecidedBy: ByRule, Rule: "contains", Reason: "the answer contains the gold answer " + quote(g)}
		}
	}
	return Verdict{Label: Incorrect, DecidedBy: ByRule, Rule: "contains", Reason: "the answer contains no gold answer"}
}
