package consent

import "strings"

// Intent is what a reply to the consent question means.
type Intent string

// The four consent intents.
const (
	Yes       Intent = "YES"        // search for the previous query
	No        Intent = "NO"         // do not search; acknowledge and stay in Phase 1
	SearchNow Intent = "SEARCH_NOW" // refers to the prior answer and asks to check it; treated as YES
	NewQuery  Intent = "NEW_QUERY"  // something else: a new query
)

// Rule ids, documented in doc.go. They are stable: reports and datasets
// name them.
const (
	RuleYesWord          = "yes.word"
	RuleYesPlease        = "yes.please"
	RuleYesAfterNo       = "yes.after-no"
	RuleSearchPhrase     = "search.phrase"
	RuleSearchAfterNo    = "search.after-no"
	RuleNoWord           = "no.word"
	RuleNoNegatedYes     = "no.negated-yes"
	RuleNoAfterYes       = "no.after-yes"
	RuleNoFillerOnly     = "no.filler-only"
	RuleNoEmpty          = "no.empty"
	RuleNewContent       = "new.content"
	RuleNewAfterNo       = "new.question-after-no"
	RuleNewAfterYes      = "new.question-after-yes"
	RuleOverrideLeading  = "override.leading"
	RuleOverrideTrailing = "override.trailing"
	RuleNewQuery         = "new.query"
	RuleNewEmpty         = "new.empty"
)

// Classify says what reply means as an answer to "Would you like me to look
// this up and confirm with sources? (y/n)". The second result is the id of
// the rule that decided (see the table in doc.go).
func Classify(reply string) (Intent, string) {
	v := classify(reply)
	return v.intent, v.rule
}

// verdict is Classify's result plus, for NEW_QUERY, the question to carry.
type verdict struct {
	intent Intent
	rule   string
	query  string
}

// segment is a run of clause words that is one lexicon entry.
type segment struct {
	class    class
	from, to int // word indexes in the clause, to exclusive
}

// vote is one decisive entry, after negation.
type vote struct {
	no      bool
	search  bool // a search_now entry (positive votes only)
	negated bool // a negator turned a positive entry into this NO
}

func classify(reply string) verdict {
	v, _ := classifyCounting(reply)
	return v
}

// matcher looks clause words up in the lexicon and counts the lookups, so
// that a test can hold the work to a fixed number per word.
type matcher struct {
	lx      *lexicon
	lookups int
}

// classifyCounting is classify that also reports how many lexicon lookups
// it made.
func classifyCounting(reply string) (verdict, int) {
	m := &matcher{lx: lex()}
	v := m.classify(reply)
	return v, m.lookups
}

func (m *matcher) classify(reply string) verdict {
	toks := tokenize(reply, m.lx)

	// Split into clauses at separators: runs of words and emoji, sharing
	// toks' backing array.
	var clauses [][]token
	from := 0
	for i, t := range toks {
		if t.kind == tokSep {
			if i > from {
				clauses = append(clauses, toks[from:i])
			}
			from = i + 1
		}
	}
	if len(toks) > from {
		clauses = append(clauses, toks[from:])
	}
	if len(clauses) == 0 {
		return verdict{intent: No, rule: RuleNoEmpty}
	}

	var votes []vote
	polite := false
	for ci, c := range clauses {
		segs, ok := m.segment(c)
		if ok {
			votes, polite = tally(votes, segs, polite)
			continue
		}
		// New content: carry the reply from this clause on, without the
		// consent and joiners that introduce it.
		strip := m.joinerPrefix(c)
		if strip > 0 {
			pre, _ := m.segment(c[:strip])
			votes, _ = tally(votes, pre, polite)
		}
		start := c[strip].start
		if ci == 0 && strip == 0 {
			start = 0 // keep a leading override '?'
		}
		v := verdict{intent: NewQuery, rule: RuleNewContent, query: strings.TrimSpace(reply[start:])}
		if len(votes) > 0 {
			if votes[len(votes)-1].no {
				v.rule = RuleNewAfterNo
			} else {
				v.rule = RuleNewAfterYes
			}
		}
		return v
	}

	if len(votes) == 0 {
		if polite {
			return verdict{intent: Yes, rule: RuleYesPlease}
		}
		return verdict{intent: No, rule: RuleNoFillerOnly}
	}
	// The last decisive entry wins: people correct themselves forwards
	// ("no, go ahead") and put the operative part after "but".
	last := votes[len(votes)-1]
	if last.no {
		switch {
		case last.negated:
			return verdict{intent: No, rule: RuleNoNegatedYes}
		case hasVote(votes, false):
			return verdict{intent: No, rule: RuleNoAfterYes}
		}
		return verdict{intent: No, rule: RuleNoWord}
	}
	afterNo := hasVote(votes, true)
	search := false
	for i := len(votes) - 1; i >= 0 && !votes[i].no; i-- {
		search = search || votes[i].search
	}
	switch {
	case search && afterNo:
		return verdict{intent: SearchNow, rule: RuleSearchAfterNo}
	case search:
		return verdict{intent: SearchNow, rule: RuleSearchPhrase}
	case afterNo:
		return verdict{intent: Yes, rule: RuleYesAfterNo}
	}
	return verdict{intent: Yes, rule: RuleYesWord}
}

func hasVote(votes []vote, no bool) bool {
	for _, v := range votes {
		if v.no == no {
			return true
		}
	}
	return false
}

// tally appends the votes of one clause's segments. A negator negates the
// next positive entry of its clause, skipping filler; a negator with nothing
// to negate is a NO of its own ("don't").
func tally(votes []vote, segs []segment, polite bool) ([]vote, bool) {
	pending := false
	for _, s := range segs {
		switch s.class {
		case clNegator:
			if pending {
				votes = append(votes, vote{no: true})
			}
			pending = true
		case clYes, clSearch, clPolite:
			if pending {
				votes = append(votes, vote{no: true, negated: true})
				pending = false
			} else if s.class == clPolite {
				polite = true
			} else {
				votes = append(votes, vote{search: s.class == clSearch})
			}
		case clNo:
			if pending {
				votes = append(votes, vote{no: true})
				pending = false
			}
			votes = append(votes, vote{no: true})
		case clConnective, clNewQuestion:
			if pending {
				votes = append(votes, vote{no: true})
				pending = false
			}
		}
	}
	if pending {
		votes = append(votes, vote{no: true})
	}
	return votes, polite
}

// segment covers a clause with lexicon entries, using as few entries as
// possible and, among equal covers, the longest entry first. ok is false
// when some word is not covered: the clause is new content.
func (m *matcher) segment(c []token) ([]segment, bool) {
	n := len(c)
	const inf = int(^uint(0) >> 1)
	cost := make([]int, n+1)
	step := make([]int, n+1)
	cls := make([]class, n+1)
	for i := n - 1; i >= 0; i-- {
		cost[i] = inf
		m.eachEntry(c, i, func(length int, k class) {
			if cost[i+length] != inf && cost[i+length]+1 <= cost[i] {
				cost[i], step[i], cls[i] = cost[i+length]+1, length, k
			}
		})
	}
	if cost[0] == inf {
		return nil, false
	}
	segs := make([]segment, 0, cost[0])
	for i := 0; i < n; i += step[i] {
		segs = append(segs, segment{class: cls[i], from: i, to: i + step[i]})
	}
	return segs, true
}

// joinerPrefix returns where the new content of an uncovered clause starts:
// just after the last connective or new-question entry that lexicon entries
// reach from the clause start ("but what about Y", "nope new question what
// is X"), or 0.
func (m *matcher) joinerPrefix(c []token) int {
	n := len(c)
	reach := make([]bool, n+1)
	reach[0] = true
	strip := 0
	for i := 0; i < n; i++ {
		if !reach[i] {
			continue
		}
		m.eachEntry(c, i, func(length int, k class) {
			reach[i+length] = true
			if (k == clConnective || k == clNewQuestion) && i+length < n && i+length > strip {
				strip = i + length
			}
		})
	}
	return strip
}

// eachEntry calls f for every lexicon entry that starts at word i of c,
// shortest first. Keys longer than the longest entry stop the search, so the
// work per word is bounded whatever the input.
func (m *matcher) eachEntry(c []token, i int, f func(length int, k class)) {
	var buf [64]byte
	key := buf[:0]
	for length := 1; length <= maxEntryWords && i+length <= len(c); length++ {
		if length > 1 {
			key = append(key, ' ')
		}
		key = append(key, c[i+length-1].key...)
		if len(key) > m.lx.maxKeyLen {
			return
		}
		m.lookups++
		if k, ok := m.lx.entries[string(key)]; ok {
			f(length, k)
		}
	}
}
