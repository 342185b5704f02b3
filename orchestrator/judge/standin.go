package judge

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// StandInPrefix starts every reason of the stand-in judge, so a report
// that shows its verdicts says they are not a model's.
const StandInPrefix = "stand-in judge (simulator, not a model): "

// StandIn is the simulator's policy for a judge request. It reads no
// meaning, only words: an answer that declines and names no gold word is
// not attempted; one holding every word of a gold answer (or of a known
// wrong one) is correct (incorrect); one holding at least half the words
// of a gold answer of two or more words is correct; anything else is
// incorrect. A fixed policy, it answers the same request with the same
// bytes, so a recording of it replays.
func StandIn(r Request) Verdict {
	ans := words(r.Answer)
	has := map[string]bool{}
	for _, w := range ans {
		has[w] = true
	}
	share := func(g string) (int, int) {
		ws := contentWords(g)
		n := 0
		for _, w := range ws {
			if has[w] {
				n++
			}
		}
		return n, len(ws)
	}
	v := func(label, why string) Verdict { return Verdict{Label: label, Reason: StandInPrefix + why} }
	for _, g := range r.Gold {
		if n, of := share(g); of > 0 && n == of {
			return v("correct", fmt.Sprintf("every word of the gold answer %q is in the answer", g))
		}
	}
	for _, x := range r.Reject {
		if n, of := share(x); of > 0 && n == of {
			return v("incorrect", fmt.Sprintf("the answer holds the known wrong answer %q", x))
		}
	}
	if standInRefusal.MatchString(strings.ToLower(r.Answer)) {
		return v("not_attempted", "the answer declines to answer")
	}
	for _, g := range r.Gold {
		if n, of := share(g); of >= 2 && 2*n >= of {
			return v("correct", fmt.Sprintf("the answer holds %d of the %d words of the gold answer %q", n, of, g))
		}
	}
	return v("incorrect", "the answer holds no gold answer")
}

var standInRefusal = regexp.MustCompile(`\b(i don't know|i do not know|not sure|cannot|can't|unable to|no (reliable )?information|unknown|insufficient)\b`)

// words are the lower-case letter and digit runs of s.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

var standInStop = map[string]bool{"a": true, "an": true, "the": true, "of": true, "in": true, "on": true, "at": true, "and": true, "or": true, "to": true, "for": true, "by": true, "is": true, "was": true}

func contentWords(s string) []string {
	var out []string
	for _, w := range words(s) {
		if !standInStop[w] {
			out = append(out, w)
		}
	}
	return out
}
