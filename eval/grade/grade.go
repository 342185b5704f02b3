// Package grade decides whether an answer is right: SimpleQA's three labels
// (correct, incorrect, not_attempted) for an answer against a question's
// gold answers. Deterministic rules decide first (Rules); what they cannot
// decide is left to a judge, a recorded model request (judge.go). The
// scorers of correctness and of the honest verification line, the
// `searchbench grade` command and the calibration against human labels
// (Calibrate) all call the same code.
package grade

import (
	"fmt"
	"strings"
)

// Labels of a verdict: SimpleQA's three.
const (
	Correct      = "correct"
	Incorrect    = "incorrect"
	NotAttempted = "not_attempted"
)

// Labels lists them in report order.
var Labels = []string{Correct, Incorrect, NotAttempted}

// Who decided a verdict.
const (
	ByRule  = "rule"
	ByJudge = "judge"
	// ByNone: the rules deferred and no judge was asked (--rules-only), or
	// its answer could not be used; the verdict has no label.
	ByNone = "none"
)

// Gold is what a case accepts as the answer.
type Gold struct {
	// Answers are the accepted answers: aliases of one answer ("Satya
	// Nadella", "Nadella"), or the several answers a question allows.
	Answers []string `json:"answers"`
	// Reject are known wrong answers ("433" for IBM Condor's qubits).
	Reject []string `json:"reject,omitempty"`
	// AsOf is the date (YYYY-MM-DD) the answers were true, for facts that
	// change; reports show it.
	AsOf string `json:"as_of,omitempty"`
}

// Verdict is a grade with who decided it and why.
type Verdict struct {
	// Label is Correct, Incorrect or NotAttempted; "" when the rules
	// deferred and no judge decided (DecidedBy ByNone).
	Label     string `json:"label"`
	DecidedBy string `json:"decided_by"`
	// Rule names the rule that decided or deferred (see Rules).
	Rule   string `json:"rule,omitempty"`
	Reason string `json:"reason"`
}

// Decided reports whether the verdict has a label.
func (v Verdict) Decided() bool { return v.Label != "" }

func (v Verdict) String() string {
	l := v.Label
	if l == "" {
		l = "undecided"
	}
	return fmt.Sprintf("%s (%s: %s)", l, v.DecidedBy, v.Reason)
}

// quote shortens a text for a reason.
func quote(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 80 {
		s = string(r[:80]) + "…"
	}
	return fmt.Sprintf("%q", s)
}
