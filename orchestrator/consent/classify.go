package consent

import (
	"slices"
	"strings"
	"unicode"
)

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
	RuleSearchRequest    = "search.request"
	RuleSearchRemark     = "search.remark"
	RuleYesRemark        = "yes.remark"
	RuleYesScoped        = "yes.scoped"
	RuleSearchScoped     = "search.scoped"
	RuleSearchDetail     = "search.detail"
	RuleNoDecline        = "no.decline"
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
	v := classifyAfter(reply, "")
	return v.intent, v.rule
}

// verdict is Classify's result plus, for NEW_QUERY, the question to carry,
// and for a scoped assent the limit the user put on the search.
type verdict struct {
	intent Intent
	rule   string
	query  string
	scope  string
	// votes are the decisive entries read, in reply order.
	votes []vote
	// deferred says why the rules leave the reply to the model ("": they
	// decide it); reading is then what they would have said.
	deferred string
	reading  Intent
}

// segment is a run of clause words that is one lexicon entry.
type segment struct {
	class    class
	from, to int // word indexes in the clause, to exclusive
	pos      int // byte offset of its first word in the reply
}

// vote is one decisive entry, after negation.
type vote struct {
	no      bool
	search  bool // a search_now entry (positive votes only)
	negated bool // a negator turned a positive entry into this NO
	pos     int  // byte offset of the entry in the reply
}

func classify(reply string) verdict {
	v, _ := classifyCounting(reply)
	return v
}

// classifyAfter is classify with the precision rules of issue 37 applied
// (precision.go): previous is the query the consent question is about.
func classifyAfter(reply, previous string) verdict {
	m := &matcher{lx: lex(), previous: previous}
	return m.precise(reply, m.classify(reply))
}

// matcher looks clause words up in the lexicon and counts the lookups, so
// that a test can hold the work to a fixed number per word.
type matcher struct {
	lx      *lexicon
	lookups int
	// strict is set while a clause the entries cannot cover is read as a
	// remark: there only hand-kept entries of two or more letters over words
	// as typed vote, so that a generated word of another language ("tú",
	// "hai"), a typo correction ("pasa" → "pass") or a lone "y" inside
	// someone's sentence ("Y qué pasa…") decides nothing.
	strict bool
	// words is the number of words in the reply: a generated word that is
	// an English word too counts only when it is the only one.
	words int
	// previous is the query the consent question is about ("" unknown).
	previous string
	// negatedUnknown is set when a negator stood before words no entry
	// covers ("not a bad idea"): what it negates is not known.
	negatedUnknown bool
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
	m.words = 0
	for _, t := range toks {
		if t.kind == tokWord {
			m.words++
		}
	}

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

	var st state
	for ci, c := range clauses {
		var segs []segment
		ok := false
		if m.spanishQuestion(reply, toks, c) {
			// "¿Y tú?": a question opened with '¿' is read strictly, so
			// that its "y" or a word of another language decides nothing.
			m.strict = true
			segs, ok = m.segment(c)
			m.strict = false
		} else {
			segs, ok = m.cover(c)
		}
		if ok {
			st.tally(segs)
			continue
		}
		// New content: carry the reply from this clause on, without the
		// consent and joiners that introduce it — unless, with no joiner,
		// it is a remark beside a consent (see loose).
		strip := m.joinerPrefix(c)
		if v, ok := m.scoped(reply, toks, c, strip, st); ok {
			return v
		}
		if v, ok := m.detail(reply, toks, c, ci == len(clauses)-1, st); ok {
			return v
		}
		if strip > 0 && m.lx.remarkJoiners[c[strip-1].key] {
			// "look it up so I can quote it": what follows "so" or
			// "because" is a reason, read as a remark beside the consent.
			pre, _ := m.segment(c[:strip])
			st2 := st
			st2.votes = append([]vote(nil), st.votes...)
			st2.tally(pre)
			rest := append([][]token{c[strip:]}, clauses[ci+1:]...)
			if v, ok := m.loose(toks, rest, st2); ok {
				return v
			}
		}
		if strip == 0 {
			if v, ok := m.loose(toks, clauses[ci:], st); ok {
				return v
			}
		} else {
			pre, _ := m.segment(c[:strip])
			st.tally(pre)
		}
		start := c[strip].start
		if ci == 0 && strip == 0 {
			start = 0 // keep a leading override '?'
		}
		v := verdict{intent: NewQuery, rule: RuleNewContent, query: strings.TrimSpace(reply[start:]), votes: st.votes}
		if len(st.votes) > 0 {
			if st.votes[len(st.votes)-1].no {
				v.rule = RuleNewAfterNo
			} else {
				v.rule = RuleNewAfterYes
			}
		}
		return v
	}
	return st.decide()
}

// state is what the clauses read so far add up to.
type state struct {
	votes     []vote
	polite    bool // a polite entry that no negator took
	requested bool // a request entry framed a search_now entry ("got a source?")
}

// decide turns the votes into a verdict by the rules of doc.go, and keeps
// them on it.
func (st *state) decide() verdict {
	v := st.decideVotes()
	v.votes = st.votes
	return v
}

func (st *state) decideVotes() verdict {
	votes := st.votes
	if len(votes) == 0 {
		if st.polite {
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
	case search && st.requested:
		return verdict{intent: SearchNow, rule: RuleSearchRequest}
	case search:
		return verdict{intent: SearchNow, rule: RuleSearchPhrase}
	case afterNo:
		return verdict{intent: Yes, rule: RuleYesAfterNo}
	}
	return verdict{intent: Yes, rule: RuleYesWord}
}

// maxRemarkWords bounds the words a remark beside a consent may have that
// no entry covers: past it, a reply is saying something of its own.
const maxRemarkWords = 8

// loose reads the clauses from the first one the entries do not cover as a
// remark beside a consent rather than new content: "no, I'm satisfied",
// "not needed right now", "sure, I would appreciate it", "ok, you can
// search". It applies when
//
//   - the uncovered clauses hold no cue of a new question or topic: no
//     question opener first ("what", "tell", "how"…), no content cue anywhere
//     (a wh-word, "meant", "asking"…), no digit, no word the entries do not know after a
//     search_now entry (the check has an object of its own: "sources on the
//     Battle of Hastings"), and no '?' unless the remark itself names a
//     decision;
//   - they have at most maxRemarkWords uncovered words in all;
//   - some entry decides: a vote in an earlier clause or in the remark
//     itself, found by covering what can be covered and skipping the rest.
//
// The decision is then the usual one (the last vote wins, a negator takes the
// next positive entry), under its own rule: no.decline, yes.remark or
// search.remark.
func (m *matcher) loose(toks []token, rest [][]token, st state) (verdict, bool) {
	defer func() { m.strict = false }()
	question := false
	for _, t := range toks {
		if t.kind == tokSep && t.text == "?" && t.start >= rest[0][0].start {
			question = true
		}
	}
	uncovered, remarkVotes := 0, 0
	for ri, c := range rest {
		// rest[0] is the clause the entries did not cover (or covered only
		// loosely, as a '¿' question): it is read word by word.
		if segs, ok := m.segment(c); ok && ri > 0 {
			n := len(st.votes)
			st.tally(segs)
			remarkVotes += len(st.votes) - n
			continue
		}
		if m.lx.openers[c[0].key] {
			return verdict{}, false
		}
		var segs []segment
		searched := false
		m.strict = true
		known := make([]bool, len(c)) // covered by an entry
		negating := false             // a negator before this word, past filler only
		for i := 0; i < len(c); {
			w := c[i]
			if m.lx.cues[w.key] || strings.ContainsFunc(w.text, unicode.IsDigit) {
				return verdict{}, false
			}
			length, k := m.looseEntry(c, i)
			if length == 0 {
				if searched {
					return verdict{}, false // the check has an object of its own: "sources on the Battle of Hastings"
				}
				if negating {
					m.negatedUnknown = true // "not a bad idea": what is negated is unknown
				}
				uncovered++
				i++
				continue
			}
			negating = (k == clNegator && !m.lx.stopNegator(c[i:i+length])) || (negating && k == clFiller)
			// A connective ends the check's object: "look it up so I can
			// quote it" names no object of its own.
			searched = (searched || k == clSearch) && k != clConnective
			if k != clRequest { // a request frames only a covered search_now entry
				segs = append(segs, segment{class: k, from: i, to: i + length, pos: c[i].start})
			}
			for j := i; j < i+length; j++ {
				known[j] = true
			}
			i += length
		}
		// An assent with an unknown word right before and right after it
		// is inside a phrase the lexicon cannot read ("sánzá ya yambo", a
		// Lingala month name): it consents to nothing. Only assents are
		// dropped, so this never turns a decline into a yes.
		segs = slices.DeleteFunc(segs, func(sg segment) bool {
			positive := sg.class == clYes || sg.class == clPolite || sg.class == clSearch
			return positive && sg.from > 0 && sg.to < len(c) && !known[sg.from-1] && !known[sg.to]
		})
		m.strict = false
		n := len(st.votes)
		st.tally(segs)
		remarkVotes += len(st.votes) - n
	}
	if uncovered > maxRemarkWords || len(st.votes) == 0 || (question && remarkVotes == 0) {
		return verdict{}, false
	}
	v := st.decide()
	switch v.intent {
	case No:
		v.rule = RuleNoDecline
	case Yes:
		v.rule = RuleYesRemark
	case SearchNow:
		v.rule = RuleSearchRemark
	}
	return v, true
}

// determiners point back at the answer: "check the date", "that figure".
var determiners = map[string]bool{"the": true, "that": true, "this": true, "those": true, "these": true,
	"your": true, "its": true, "his": true, "her": true, "their": true}

// detail reads a clause that asks to check one detail of the answer as
// SEARCH_NOW (rule search.detail): a check word ("check", "verify",
// "double-check"…) after nothing but filler, polite and request words,
// then an object that points back at the answer — a determiner, at most
// eight words, and a detail noun ("the date", "that figure", "your second
// point"; detail_nouns) or a word of the previous query longer than three
// letters ("check the CEO part"). The clause must end the reply and ask
// nothing new. The object is kept as the scope, so Phase 2 knows what to
// check. "search for the EU AI Act timeline" names no detail: a new query.
func (m *matcher) detail(reply string, toks, c []token, lastClause bool, st state) (verdict, bool) {
	if !lastClause {
		return verdict{}, false
	}
	i, search := 0, -1
	for i < len(c) && search < 0 {
		length, k := m.looseEntry(c, i)
		switch k {
		case clSearch:
			search = i + length
		case clFiller, clPolite, clRequest, clYes:
		default:
			return verdict{}, false
		}
		if length == 0 {
			return verdict{}, false
		}
		i += length
	}
	for search >= 0 && search < len(c) && (m.lx.entries[c[search].key] == clRequest || m.lx.entries[c[search].key] == clFiller) && !determiners[c[search].key] {
		search++ // "check on the date", "verify for me that figure"
	}
	obj := c[max(search, 0):]
	if search < 0 || len(obj) == 0 || len(obj) > 8 || !determiners[obj[0].key] {
		return verdict{}, false
	}
	prev := map[string]bool{}
	for _, t := range tokenize(m.previous, m.lx) {
		if t.kind == tokWord && len(t.key) > 3 {
			prev[t.key] = true
		}
	}
	refers := false
	for _, t := range obj {
		if m.lx.openers[t.key] && t.key != "that" || m.lx.cues[t.key] {
			return verdict{}, false
		}
		refers = refers || m.lx.detailNouns[t.key] || prev[t.key]
	}
	if !refers {
		return verdict{}, false
	}
	pre, _ := m.segment(c[:search])
	st.votes = append([]vote(nil), st.votes...)
	st.tally(pre)
	if len(st.votes) > 0 && st.votes[len(st.votes)-1].no {
		return verdict{}, false
	}
	v := st.decide()
	v.intent, v.rule = SearchNow, RuleSearchDetail
	v.scope = strings.TrimRight(strings.TrimSpace(reply[obj[0].start:]), "?.! ")
	return v, true
}

// looseEntry returns the entry loose reads at word i of c: the longest one,
// unless a shorter one lets the next entry reach further ("is | not
// necessary" rather than "is not | necessary"). length 0: none.
func (m *matcher) looseEntry(c []token, i int) (int, class) {
	type cand struct {
		length int
		k      class
	}
	var cands []cand
	m.eachEntry(c, i, func(l int, k class) { cands = append(cands, cand{l, k}) })
	if len(cands) == 0 {
		return 0, 0
	}
	best, reach := cands[len(cands)-1], -1
	for _, cd := range cands {
		next := 0
		if i+cd.length < len(c) {
			m.eachEntry(c, i+cd.length, func(l int, _ class) { next = l })
		}
		if r := cd.length + next; r > reach || (r == reach && cd.length > best.length) {
			best, reach = cd, r
		}
	}
	return best.length, best.k
}

// spanishQuestion reports whether clause c follows an inverted question
// mark ("¿Y tú?").
func (m *matcher) spanishQuestion(reply string, toks []token, c []token) bool {
	for i := len(toks) - 1; i >= 0; i-- {
		if toks[i].start >= c[0].start || toks[i].kind != tokSep {
			continue
		}
		return strings.HasPrefix(reply[toks[i].start:], "¿")
	}
	return false
}

// scoped reads an uncovered clause that follows an assent and opens with a
// scope word ("only", "just", "preferably"…, after any joiner) as a limit on
// the search: "yes, but only official sources", "sure, keep it short". The
// assent decides (rule yes.scoped or search.scoped); the clause from the
// scope word on is kept as the scope, and its words cast no vote. But a no
// or negation in or after it ("no blogs", "nah", "just your answer is
// enough") still sends the reply to the model (negationCue, precision.go):
// a decline is never read as consent. Not when a '?' or a content cue
// follows: then it asks something new.
func (m *matcher) scoped(reply string, toks []token, c []token, strip int, st state) (verdict, bool) {
	if strip >= len(c) || !m.lx.scopes[c[strip].key] {
		return verdict{}, false
	}
	from := c[strip].start
	for _, t := range toks {
		if t.start < from {
			continue
		}
		if (t.kind == tokSep && t.text == "?") || (t.kind == tokWord && m.lx.cues[t.key]) {
			return verdict{}, false
		}
	}
	pre, _ := m.segment(c[:strip])
	st.tally(pre)
	if len(st.votes) == 0 || st.votes[len(st.votes)-1].no {
		return verdict{}, false
	}
	v := st.decide()
	v.rule = RuleYesScoped
	if v.intent == SearchNow {
		v.rule = RuleSearchScoped
	}
	v.scope = strings.TrimSpace(reply[from:])
	return v, true
}

func hasVote(votes []vote, no bool) bool {
	for _, v := range votes {
		if v.no == no {
			return true
		}
	}
	return false
}

// tally adds the votes of one clause's segments. A negator negates the next
// positive entry of its clause, skipping filler; a negator with nothing to
// negate is a NO of its own ("don't").
func (st *state) tally(segs []segment) {
	pending, at := false, 0 // a negator waiting for its entry, and where it stands
	for _, s := range segs {
		switch s.class {
		case clNegator:
			if pending {
				st.votes = append(st.votes, vote{no: true, pos: at})
			}
			pending, at = true, s.pos
		case clYes, clSearch, clPolite:
			if pending {
				st.votes = append(st.votes, vote{no: true, negated: true, pos: at})
				pending = false
			} else if s.class == clPolite {
				st.polite = true
			} else {
				st.votes = append(st.votes, vote{search: s.class == clSearch, pos: s.pos})
			}
		case clNo:
			if pending {
				st.votes = append(st.votes, vote{no: true, pos: at})
				pending = false
			}
			st.votes = append(st.votes, vote{no: true, pos: s.pos})
		case clConnective, clNewQuestion:
			if pending {
				st.votes = append(st.votes, vote{no: true, pos: at})
				pending = false
			}
		case clRequest:
			st.requested = true
		}
	}
	if pending {
		st.votes = append(st.votes, vote{no: true, pos: at})
	}
}

// segment covers a clause with lexicon entries, using as few entries as
// possible and, among equal covers, the longest entry first. ok is false
// when some word is not covered, or when request entries ("got", "any",
// "show me") frame no search_now entry: the clause is new content.
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
	request, search := false, false
	for i := 0; i < n; i += step[i] {
		segs = append(segs, segment{class: cls[i], from: i, to: i + step[i], pos: c[i].start})
		request = request || cls[i] == clRequest
		search = search || cls[i] == clSearch
	}
	if request && !search {
		return nil, false
	}
	return segs, true
}

// cover is segment with two second tries for a clause it cannot cover:
// without its intensifiers ("is that actually true"), and with each typo
// that is one slip from a phrase word read as that word, where it then falls
// inside a phrase ("sounds goof" → "sounds good").
func (m *matcher) cover(c []token) ([]segment, bool) {
	if segs, ok := m.segment(c); ok {
		return segs, true
	}
	if plain, ok := m.withoutIntensifiers(c); ok {
		if segs, ok := m.segment(plain); ok {
			return segs, true
		}
	}
	fixed := make([]token, len(c))
	copy(fixed, c)
	corrected := false
	for i := range fixed {
		if fixed[i].alt != "" {
			fixed[i].key = fixed[i].alt
			corrected = true
		}
	}
	if !corrected {
		return nil, false
	}
	segs, ok := m.segment(fixed)
	if !ok {
		return nil, false
	}
	for _, s := range segs {
		for i := s.from; i < s.to; i++ {
			if c[i].alt != "" && s.to-s.from < 2 {
				return nil, false // the correction made no phrase match
			}
		}
	}
	return segs, true
}

// withoutIntensifiers returns a copy of c without its intensifiers; ok is
// false when it has none, or nothing else.
func (m *matcher) withoutIntensifiers(c []token) ([]token, bool) {
	var out []token
	for _, t := range c {
		if !m.lx.intensifiers[t.key] {
			out = append(out, t)
		}
	}
	return out, len(out) != len(c) && len(out) != 0
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
		if m.strict && c[i+length-1].corrected {
			return
		}
		if e := c[i].exact; length == 1 && e != "" {
			// A one-word entry is found by the word as typed first.
			if k, ok := m.lx.exact[e]; ok {
				gen := m.lx.exactGenerated[e]
				if k != clAmbiguous && !(m.strict && (len(key) == 1 || gen)) && !(gen && m.lx.aloneExact[e] && m.words > 1) {
					f(length, k)
				}
				continue
			}
		}
		if k, ok := m.lx.entries[string(key)]; ok && k != clAmbiguous {
			gen := m.lx.generated[string(key)]
			if m.strict && (len(key) == 1 || gen) {
				continue
			}
			if gen && m.lx.aloneKey[string(key)] && m.words > 1 {
				continue
			}
			f(length, k)
		}
	}
}

// Rule is one row of the rule table in doc.go: its stable id and the intent
// it decides ("" for the routing rules of a turn that awaits no consent).
type Rule struct {
	ID     string
	Intent Intent
}

// AllRules lists every rule id in the order of doc.go's table.
func AllRules() []Rule {
	return []Rule{
		{RuleYesWord, Yes}, {RuleYesPlease, Yes}, {RuleYesAfterNo, Yes}, {RuleYesRemark, Yes}, {RuleYesScoped, Yes},
		{RuleSearchPhrase, SearchNow}, {RuleSearchRequest, SearchNow}, {RuleSearchAfterNo, SearchNow}, {RuleSearchRemark, SearchNow}, {RuleSearchScoped, SearchNow}, {RuleSearchDetail, SearchNow},
		{RuleNoWord, No}, {RuleNoNegatedYes, No}, {RuleNoAfterYes, No}, {RuleNoDecline, No}, {RuleNoFillerOnly, No}, {RuleNoEmpty, No},
		{RuleNewContent, NewQuery}, {RuleNewAfterNo, NewQuery}, {RuleNewAfterYes, NewQuery}, {RuleNewAboutWord, NewQuery},
		{RuleDeferLanguage, NewQuery}, {RuleDeferNegation, NewQuery}, {RuleDeferCorrection, NewQuery}, {RuleDeferNegatedUnknown, NewQuery},
		{RuleDeferAcknowledgement, NewQuery}, {RuleDeferRemark, NewQuery},
		{RuleOverrideLeading, ""}, {RuleOverrideTrailing, ""}, {RuleNewQuery, ""}, {RuleNewEmpty, ""},
	}
}
