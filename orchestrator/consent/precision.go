package consent

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Precision first (issue 37): a rule decides only what it is sure of. After
// the clause rules of doc.go have read a reply, precise sends it to the
// model instead (the verdict is deferred, rule defer.*) when
//
//   - its language cannot be settled, or one of its words means different
//     things in the languages it may be in (defer.language, language.go);
//   - the rules read consent but a negation cue of the reply's language
//     stands anywhere in it, a scope included ("yes, but I don't want
//     sources", "why not", "yes, keep it short, nah", "yes, only official
//     sources, no blogs"): a decline is never read as consent
//     (defer.negation);
//   - the rules read a decline after a yes with nothing marking a
//     correction between them ("Yes. I said no"; but "ok… actually no" is
//     a correction, decided by its last clause) (defer.correction);
//   - the rules read a decline from a negator before words no entry covers
//     ("it's not a lie", "不错") (defer.negated-unknown);
//   - the reply is only acknowledgements, which can go either way
//     ("thanks", "great", "hmm") (defer.acknowledgement);
//   - the rules read a new question beside a yes or no, but nothing asks
//     it: no '?' and no question opener where it starts ("sure, I'm
//     curious what you find") (defer.remark).
//
// A check of one detail of the answer ("can you check the date?") is
// SEARCH_NOW (search.detail, classify.go), its object kept as the scope.
// A reply that names a consent word rather than using it — in quotes, or
// as the word asked about ("what does 'sí' mean?", "how do you say yes in
// Greek?") — is a new query (new.about-word) whatever else it holds.

// Rule ids of the precision rules.
const (
	RuleDeferLanguage        = "defer.language"
	RuleDeferNegation        = "defer.negation"
	RuleDeferCorrection      = "defer.correction"
	RuleDeferNegatedUnknown  = "defer.negated-unknown"
	RuleDeferAcknowledgement = "defer.acknowledgement"
	RuleDeferRemark          = "defer.remark"
	RuleNewAboutWord         = "new.about-word"
)

// deferTo returns v deferred to the model under rule, with why as the
// reason. The rules' reading of a reply they cannot place is a new query
// (seed 000's "something else"): in a session without the model nothing is
// searched and nothing declined on a guess.
func deferTo(v verdict, rule, why, reply string) verdict {
	return verdict{intent: NewQuery, rule: rule, query: strings.TrimSpace(reply), deferred: why, reading: v.intent, votes: v.votes}
}

func (m *matcher) precise(reply string, v verdict) verdict {
	toks := tokenize(reply, m.lx)
	words := 0
	for _, t := range toks {
		if t.kind == tokWord {
			words++
		}
	}
	if words == 0 {
		return v // no words: emoji or nothing, which the entries decide
	}
	if m.mentions(reply, toks) {
		return verdict{intent: NewQuery, rule: RuleNewAboutWord, query: strings.TrimSpace(reply), votes: v.votes}
	}
	s := m.lx.settle(toks, m.previous)
	if s.unsettled != "" {
		if v.intent == NewQuery && v.deferred == "" && m.lx.englishQuestion(toks) {
			return v // an English question with names in it: a new query
		}
		return deferTo(v, RuleDeferLanguage, "its language is not settled: "+s.unsettled, reply)
	}
	if w := m.lx.shortForeign(toks, s); w != "" {
		return deferTo(v, RuleDeferLanguage, fmt.Sprintf("%s is a yes or no only in languages the hand-kept lexicon does not cover, and two letters cannot tell a language", quoteWord(w)), reply)
	}
	if w := m.lx.conflict(toks, s); w != "" {
		return deferTo(v, RuleDeferLanguage, fmt.Sprintf("%s means different things in the languages it may be written in (%s)", quoteWord(w), s.langs), reply)
	}
	switch v.intent {
	case Yes, SearchNow:
		if w := m.negationCue(toks, s, v); w != "" {
			return deferTo(v, RuleDeferNegation, fmt.Sprintf("the rules read consent, but %s negates: the model decides whether it declines", quoteWord(w)), reply)
		}
	case NewQuery:
		if (v.rule == RuleNewAfterYes || v.rule == RuleNewAfterNo) && !m.lx.asks(v.query) {
			return deferTo(v, RuleDeferRemark, "beside its yes or no, nothing asks a new question (no '?', no question opener)", reply)
		}
		if v.rule == RuleNewContent && !m.lx.questionMark(toks) {
			if w := m.negationCue(toks, s, v); w != "" {
				// "how could I refuse", "what if I don't": a question
				// opener and a negation, but no question mark.
				return deferTo(v, RuleDeferNegation, fmt.Sprintf("it opens like a question but asks none, and %s negates: it may answer the consent question", quoteWord(w)), reply)
			}
		}
	case No:
		switch {
		case v.rule == RuleNoFillerOnly:
			return deferTo(v, RuleDeferAcknowledgement, "it only acknowledges the answer, which can mean yes or no", reply)
		case m.negatedUnknown:
			return deferTo(v, RuleDeferNegatedUnknown, "a negator stands before words the lexicon cannot read: what it negates is unknown", reply)
		}
		if yes, no, ok := m.uncorrected(toks, v.votes); ok {
			return deferTo(v, RuleDeferCorrection, fmt.Sprintf("it says yes (at byte %d) and no (at byte %d) with no correction between them", yes, no), reply)
		}
	}
	return v
}

// questionMark reports whether toks hold a question mark.
func (l *lexicon) questionMark(toks []token) bool {
	for _, t := range toks {
		if t.kind == tokSep && t.text == "?" {
			return true
		}
	}
	return false
}

// asks reports whether text plainly asks or says something new: it has a
// question mark, opens with a question opener ("what about Y", "tell me"),
// or holds a number or a content cue that is no wh-word ("I meant the
// other one", "I was asking about the UK", "the 2019 model"). A wh-word
// inside a sentence ("I'm curious what you find", "I'd love to see where
// that came from") asks nothing by itself.
func (l *lexicon) asks(text string) bool {
	first := true
	for _, t := range tokenize(text, l) {
		switch {
		case t.kind == tokSep && t.text == "?":
			return true
		case t.kind != tokWord:
			continue
		case first && l.openers[t.key],
			l.cues[t.key] && !whWords[t.key],
			strings.ContainsFunc(t.text, unicode.IsDigit):
			return true
		}
		first = false
	}
	return false
}

// whWords are the content cues that are question words: inside a sentence
// they may start a relative clause rather than a question.
var whWords = map[string]bool{"what": true, "whats": true, "who": true, "whos": true, "where": true, "wheres": true,
	"when": true, "why": true, "how": true, "hows": true, "which": true, "whose": true}

// negationCue returns a word anywhere in the reply that negates in the
// reply's language: a NO vote, a no or negator entry, or an English
// negation ("not", "never", "…n't"). "" when there is none. A scope is no
// exception: "yes, keep it short, nah" and "sure, keep it short. no
// thanks" decline after the limit, and even "yes, only official sources,
// no blogs", where the no only narrows the search, is not sure enough for
// a rule. The model decides them.
func (m *matcher) negationCue(toks []token, s settlement, v verdict) string {
	for _, vt := range v.votes {
		if vt.no {
			return wordAt(toks, vt.pos)
		}
	}
	for _, t := range toks {
		if t.kind != tokWord {
			continue
		}
		if s.langs == nil || s.langs[langEnglish] {
			if englishNegations[t.key] || strings.HasSuffix(t.text, "n't") {
				return t.text
			}
		}
		by := m.lx.readingsOf(t)
		for _, c := range []class{clNo, clNegator} {
			if langs, ok := by[c]; ok && (s.langs == nil || len(s.langs.meet(langs)) > 0) {
				return t.text
			}
		}
	}
	return ""
}

// stopNegators stop the search whatever follows them ("stop searching",
// "skip the lookup"): before an unknown word they still decline, unlike
// "not", whose object decides what it means ("not a bad idea").
var stopNegators = map[string]bool{"skip": true, "stop": true, "cancel": true, "forget": true, "forget about": true,
	"hold off on": true, "no need to": true, "theres no need to": true, "no reason to": true, "dont need to": true,
	"dont have to": true, "you dont have to": true, "without": true}

// stopNegator reports whether the entry of words ws is a stop negator.
func (l *lexicon) stopNegator(ws []token) bool {
	keys := make([]string, len(ws))
	for i, t := range ws {
		keys[i] = t.key
	}
	return stopNegators[strings.Join(keys, " ")]
}

// englishNegations are English words that negate whatever the lexicon says
// of them.
var englishNegations = map[string]bool{
	"not": true, "no": true, "never": true, "nothing": true, "nobody": true, "none": true,
	"neither": true, "nor": true, "without": true, "cannot": true, "nope": true, "nah": true,
	"refuse": true, "decline": true,
}

// wordAt returns the word of toks that starts at pos.
func wordAt(toks []token, pos int) string {
	for _, t := range toks {
		if t.start == pos {
			return t.text
		}
	}
	return "a negation"
}

// uncorrected reports a yes vote followed by the last no vote with no
// correction marker ("but", "actually", "wait"…; correction_markers)
// between them, and where both stand.
func (m *matcher) uncorrected(toks []token, votes []vote) (yes, no int, ok bool) {
	last := -1
	for i, v := range votes {
		if v.no {
			last = i
		}
	}
	if last < 0 {
		return 0, 0, false
	}
	if votes[last].negated {
		return 0, 0, false // an entry negated outright: "please do not search", "don't check"
	}
	prevYes := -1
	for i := last - 1; i >= 0; i-- {
		if !votes[i].no {
			prevYes = i
			break
		}
	}
	if prevYes < 0 {
		return 0, 0, false
	}
	from, to := votes[prevYes].pos, votes[last].pos
	for _, t := range toks {
		if t.kind == tokWord && t.start > from && t.start <= to && m.lx.corrections[t.key] {
			return 0, 0, false
		}
	}
	return from, to, true
}

// mentions reports whether the reply names a consent word rather than
// using it: the word stands in quotes (unless the quote is the whole
// reply: "“yes”" answers), or in a question beside a word that asks about
// words ("what does sí mean", "how do you say yes in Greek?";
// mention_cues).
func (m *matcher) mentions(reply string, toks []token) bool {
	spans := quotedSpans(reply)
	question := m.lx.questionShaped(reply)
	var words []token
	for _, t := range toks {
		if t.kind == tokWord {
			words = append(words, t)
		}
	}
	for i, t := range words {
		if !m.decisive(t) {
			continue
		}
		for _, sp := range spans {
			if t.start >= sp[0] && t.start < sp[1] && !(sp[0] <= words[0].start && sp[1] > words[len(words)-1].start) {
				return true
			}
		}
		if !question {
			continue
		}
		if i > 0 && m.lx.mentionCues[words[i-1].key] || i+1 < len(words) && m.lx.mentionCues[words[i+1].key] {
			return true
		}
	}
	return false
}

// decisive reports whether t is a one-word yes, no, search, polite or
// negator entry.
func (m *matcher) decisive(t token) bool {
	switch m.lx.entries[t.key] {
	case clYes, clNo, clSearch, clPolite, clNegator:
		return true
	}
	return false
}

// quotePairs are the quotation marks people type, opening and closing.
var quotePairs = map[rune]rune{'"': '"', '“': '”', '„': '“', '«': '»', '»': '«', '「': '」', '『': '』', '‘': '’', '\'': '\''}

// quotedSpans returns the byte ranges of reply inside quotation marks. A
// straight or curly single quote opens only after a space or at the start,
// so that apostrophes ("don't", "l'm") are no quotes.
func quotedSpans(reply string) [][2]int {
	var spans [][2]int
	for i := 0; i < len(reply); {
		r, size := utf8.DecodeRuneInString(reply[i:])
		closer, ok := quotePairs[r]
		if ok && (r == '\'' || r == '‘') && i > 0 && reply[i-1] != ' ' {
			ok = false
		}
		if !ok {
			i += size
			continue
		}
		j := strings.IndexRune(reply[i+size:], closer)
		if j < 0 {
			i += size
			continue
		}
		spans = append(spans, [2]int{i + size, i + size + j})
		i += size + j + utf8.RuneLen(closer)
	}
	return spans
}
