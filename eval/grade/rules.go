package grade

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/searchbench/searchbench/lib/memo"
	"github.com/searchbench/searchbench/lib/quantity"
)

// Answer is what is graded: an answer's text and, for a Phase 2 answer,
// its envelope's error code.
type Answer struct {
	Text string
	// Code is the Phase 2 envelope's error.code: NONE, or
	// INSUFFICIENT_EVIDENCE and SCHEMA_VIOLATION, which answer nothing.
	Code string
}

// Rule names: what decided (or deferred) a verdict.
const (
	RuleEmpty                = "empty"                 // nothing was answered
	RuleInsufficientEvidence = "insufficient_evidence" // the INSUFFICIENT_EVIDENCE envelope
	RuleSchemaViolation      = "schema_violation"      // the SCHEMA_VIOLATION form: no answer shown
	RuleRefusal              = "refusal"               // "I don't know", "unknown", a refusal or hedge with no answer
	RuleHedgedAnswer         = "hedged_answer"         // a refusal next to an answer: deferred
	RuleAlias                = "alias"                 // a gold answer is in the answer
	RuleValue                = "value"                 // a gold value (number, date, amount) agrees with one in the answer
	RuleReject               = "reject"                // a known wrong answer, and no gold one
	RuleBoth                 = "gold_and_reject"       // a gold and a known wrong answer both: deferred
	RuleConflictingValues    = "conflicting_values"    // the gold value and another of its kind: deferred
	RuleWrongValue           = "wrong_value"           // the answer's values of the gold's kind all differ from it
	RuleCoarserValue         = "coarser_value"         // the answer's value is less precise than the gold's: deferred
	RulePartOfGold           = "part_of_gold"          // the answer is part of a gold answer (a surname): deferred
	RuleNoMatch              = "no_match"              // no gold answer found, nothing to contradict it: deferred
	RuleStaleGold            = "stale_gold"            // a time-sensitive question, a gold without as_of: deferred
	RuleCoarserDate          = "coarser_date"          // the gold day's year or month, when the day is not asked for
	RuleOtherValues          = "other_values"          // values that differ from the gold's in a longer answer: deferred
	RuleNameVariant          = "name_variant"          // the gold name without middle names, or with initials
	RuleEcho                 = "echo"                  // the answer only repeats words of the question
	RuleOtherRelease         = "other_release"         // a release question, a date of another year: deferred
	RuleVaguerGold           = "vaguer_gold"           // a gold that another gold makes more specific, and not that one: deferred
	RuleBeforeLatest         = "before_latest"         // the latest of something, answered by one older than the gold
	RuleWrongType            = "wrong_type"            // a who or where question answered by a number or date alone
)

// refusalRE finds refusals and hedges that give no answer.
var refusalRE = regexp.MustCompile(`\b(i (do not|don't|dont) know|i('m| am) not (sure|certain|aware)|(i )?(cannot|can't|can not|could not|couldn't|am unable to|was unable to|unable to|am not able to) (find|determine|confirm|verify|say|answer|provide|tell|identify|locate)|no (reliable |verified |available |public |clear )?(information|data|details|answer|record|records|evidence)|not (enough|sufficient) (information|evidence|data)|insufficient (information|evidence|data)|there is no (way|answer|record|clear answer)|i (do not|don't) have (reliable |enough |any )?(details|information|data|knowledge)|not (publicly )?(available|disclosed|known)|it is (unclear|not clear|unknown)|insufficient_evidence)\b`)

// timeSensitiveRE finds questions about something that changes: the
// latest, the current, the next, what is new.
var timeSensitiveRE = regexp.MustCompile(`\b(new|newest|latest|last|current|currently|recent|recently|next|upcoming|this year|this season|today|now|still|so far|to date|as of|when (does|do|will) .* (come out|come on|air|start|premiere|release|return|begin))\b`)

// untokenize joins numerals that a tokenizer split ("3. 97" is 3.97, "1,
// 100" is 1,100), as some QA systems print them.
func untokenize(s string) string {
	s = splitDecimalRE.ReplaceAllString(s, "$1.$2")
	return splitThousandsRE.ReplaceAllString(s, "$1,$2")
}

var (
	splitDecimalRE   = regexp.MustCompile(`(\d) ?\. (\d)`)
	splitThousandsRE = regexp.MustCompile(`(\d), (\d{3})\b`)
)

// unknownRE is an answer that is only "unknown", "n/a" or "none".
var unknownRE = regexp.MustCompile(`^\W*(unknown|n/?a|none|no answer|not known|no idea|unsure|i don't know|idk)\W*$`)

// Rules grades ans against gold by rules alone. A verdict it cannot
// decide has DecidedBy ByNone, no label, and the rule and reason that say
// why; the judge is for those.
func Rules(question string, gold Gold, ans Answer) Verdict {
	decide := func(label, rule, reason string) Verdict {
		return Verdict{Label: label, DecidedBy: ByRule, Rule: rule, Reason: reason}
	}
	deferTo := func(rule, reason string) Verdict {
		return Verdict{DecidedBy: ByNone, Rule: rule, Reason: reason}
	}
	switch ans.Code {
	case "INSUFFICIENT_EVIDENCE":
		return decide(NotAttempted, RuleInsufficientEvidence, "the answer is the INSUFFICIENT_EVIDENCE form: it declines to answer")
	case "SCHEMA_VIOLATION":
		return decide(NotAttempted, RuleSchemaViolation, "the output contract failed and the SCHEMA_VIOLATION form was shown: no answer")
	}
	text := untokenize(strings.TrimSpace(ans.Text))
	if text == "" {
		return decide(NotAttempted, RuleEmpty, "the answer is empty")
	}
	a := analyse(text, question, gold.Answers)
	if unknownRE.MatchString(fold(text)) {
		return decide(NotAttempted, RuleRefusal, fmt.Sprintf("the answer %s gives no answer", quote(text)))
	}

	goldHit, goldHow := match(a, aliases(gold.Answers))
	rejectHit, _ := match(a, gold.Reject)
	refusal := refusalRE.FindString(fold(text))

	switch {
	case refusal != "" && goldHit == "" && rejectHit == "" && len(a.content) <= refusalWords(refusal)+4:
		return decide(NotAttempted, RuleRefusal, fmt.Sprintf("the answer declines (%q) and names no answer", refusal))
	case refusal != "":
		return deferTo(RuleHedgedAnswer, fmt.Sprintf("the answer hedges (%q) but also says more", refusal))
	case goldHit != "" && rejectHit != "":
		return deferTo(RuleBoth, fmt.Sprintf("the answer names a gold answer (%s) and a known wrong one (%s)", quote(goldHit), quote(rejectHit)))
	case rejectHit != "":
		return decide(Incorrect, RuleReject, fmt.Sprintf("the answer names %s, a known wrong answer", quote(rejectHit)))
	case goldHit != "":
		if goldHow == "text" {
			if g := moreSpecific(a, goldHit, gold.Answers); g != "" {
				return deferTo(RuleVaguerGold, fmt.Sprintf("the answer gives the gold answer %s, but not %s, a more specific gold answer", quote(goldHit), quote(g)))
			}
		}
		if c := conflicting(a, gold.Answers); c != "" {
			return deferTo(RuleConflictingValues, fmt.Sprintf("the answer has the gold %s but also %s", quote(goldHit), quote(c)))
		}
		rule := RuleAlias
		if goldHow == "value" {
			rule = RuleValue
		}
		return decide(Correct, rule, fmt.Sprintf("the answer gives the gold answer %s", quote(goldHit)))
	}
	// No gold answer found. An answer that only repeats the question, or
	// gives a number or date alone for a person or place, says nothing.
	if echoes(a, question) && partOf(a, gold.Answers) == "" {
		return decide(Incorrect, RuleEcho, fmt.Sprintf("the answer %s only repeats words of the question, and gives no gold answer (%s)", quote(text), quoteList(gold.Answers)))
	}
	if v, ok := quantity.Parse(text); ok && whoWhereRE.MatchString(fold(question)) && len(goldValues(gold.Answers)) == 0 {
		return decide(Incorrect, RuleWrongType, fmt.Sprintf("the question asks who or where, and the answer is only %s, a %s", quote(v.Text), v.Kind))
	}
	// A value of the gold's kind that differs says incorrect, unless the
	// question asks about something that changes and the gold has no as_of
	// date (it may be out of date; but the latest cannot be older than the
	// gold), or asks when a title came out and the answer names another
	// year (another release); anything else is for the judge.
	stale := gold.AsOf == "" && timeSensitiveRE.MatchString(fold(question))
	if rel, got, want := valueRelation(a, gold.Answers); rel != quantity.Incomparable {
		switch {
		case (rel == quantity.Disagree || rel == quantity.Coarser) && !oneSentence(text):
			return deferTo(RuleOtherValues, fmt.Sprintf("the answer says %s where the gold answer is %s, but in an answer of several sentences a value may be about another fact", quote(got), quote(want)))
		case rel == quantity.Disagree && stale && latestRE.MatchString(fold(question)) && beforeGold(a, gold.Answers):
			return decide(Incorrect, RuleBeforeLatest, fmt.Sprintf("the question asks for the latest, and the answer's %s is older than the gold %s: the latest only moves on", quote(got), quote(want)))
		case rel == quantity.Disagree && stale:
			return deferTo(RuleStaleGold, fmt.Sprintf("the answer says %s where the gold answer is %s, but the question asks about something that changes and the gold has no as_of date", quote(got), quote(want)))
		case rel == quantity.Disagree && releaseRE.MatchString(fold(question)) && otherYear(a, gold.Answers):
			return deferTo(RuleOtherRelease, fmt.Sprintf("the answer says %s where the gold answer is %s, but the question asks when something came out, and a title is often released more than once (an adaptation, a remake, an edition): another year may be another release", quote(got), quote(want)))
		case rel == quantity.Disagree:
			return decide(Incorrect, RuleWrongValue, fmt.Sprintf("the answer says %s where the gold answer is %s", quote(got), quote(want)))
		case rel == quantity.Finer:
			return decide(Correct, RuleValue, fmt.Sprintf("the answer's %s is more precise than, and within, the gold %s", quote(got), quote(want)))
		case rel == quantity.Coarser && sameYear(a, gold.Answers) && !dayAskedRE.MatchString(fold(question)):
			return decide(Correct, RuleCoarserDate, fmt.Sprintf("the answer's %s is the gold %s to a coarser precision, and the question does not ask for the day", quote(got), quote(want)))
		case rel == quantity.Coarser:
			return deferTo(RuleCoarserValue, fmt.Sprintf("the answer's %s is less precise than the gold %s", quote(got), quote(want)))
		}
	}
	if g := nameVariant(a, gold.Answers); g != "" {
		return decide(Correct, RuleNameVariant, fmt.Sprintf("the answer %s is the gold name %s with middle names or initials left out", quote(text), quote(g)))
	}
	if g := partOf(a, gold.Answers); g != "" {
		return deferTo(RulePartOfGold, fmt.Sprintf("the answer %s is part of the gold answer %s", quote(text), quote(g)))
	}
	return deferTo(RuleNoMatch, fmt.Sprintf("no gold answer (%s) is in the answer, and nothing in it contradicts one", quoteList(gold.Answers)))
}

func refusalWords(r string) int { return len(strings.Fields(r)) }

func quoteList(xs []string) string {
	var out []string
	for i, x := range xs {
		if i == 4 {
			out = append(out, fmt.Sprintf("and %d more", len(xs)-4))
			break
		}
		out = append(out, quote(x))
	}
	return strings.Join(out, ", ")
}

// analysed is an answer read once for every rule.
type analysed struct {
	text    string
	toks    []string
	content []string
	values  []quantity.Value
	// claims are the values the answer states that the question does not:
	// the "20" of "20 or more points in 126 games" answers no question
	// about 20-point games. Only claims contradict a gold value.
	claims []quantity.Value
}

// findMemo keeps the values of the texts the rules read (the answers, the
// questions, the gold answers), per process and within a bound: the same
// texts come back in every sample of a case and across cases with the same
// gold answers, and reading them was most of the rules' time. What it keeps
// is shared: no caller modifies a slice find returns (withGoldUnit makes a
// new one).
var findMemo = memo.New[string, []quantity.Value](2048)

func find(text string) []quantity.Value { return findMemo.Do(text, quantity.Find) }

func analyse(text, question string, golds []string) analysed {
	t := tokens(text)
	a := analysed{text: text, toks: t, content: content(t), values: withGoldUnit(text, find(text), golds)}
	qvs := find(question)
	for _, v := range a.values {
		stated := slices.ContainsFunc(qvs, func(q quantity.Value) bool {
			return class(q) == class(v) && quantity.Compare(v, q) == quantity.Agree
		})
		if !stated {
			a.claims = append(a.claims, v)
		}
	}
	return a
}

// withGoldUnit reads an answer that is one bare number in the unit of a
// gold measure or percentage: "11.3" for "10–12 years" is 11.3 years,
// "19" for "20%" is 19%.
func withGoldUnit(text string, vs []quantity.Value, golds []string) []quantity.Value {
	if len(vs) != 1 || vs[0].Kind != quantity.Number || vs[0].YearLike || vs[0].Scale != "" {
		return vs
	}
	if _, ok := quantity.Parse(text); !ok {
		return vs
	}
	for _, g := range golds {
		gv, ok := goldValue(g)
		if !ok {
			continue
		}
		var with string
		switch gv.Kind {
		case quantity.Measure:
			with = text + " " + gv.UnitText
		case quantity.Percent:
			with = text + "%"
		default:
			continue
		}
		if v, ok := quantity.Parse(with); ok && v.Kind == gv.Kind && v.Dim == gv.Dim {
			v.Text, v.Start, v.End = vs[0].Text, vs[0].Start, vs[0].End
			return []quantity.Value{v}
		}
	}
	return vs
}

// match finds the first of golds in a: as a run of tokens, or as a value
// that agrees with one of the answer's. how is "text" or "value".
func match(a analysed, golds []string) (hit, how string) {
	for _, g := range golds {
		gt := trimLeading(tokens(g))
		if len(gt) > 0 && containsSeq(a.toks, gt) && !valueOnlyText(g) {
			return g, "text"
		}
	}
	for _, g := range golds {
		gv, ok := goldValue(g)
		if !ok {
			continue
		}
		for _, v := range a.values {
			// The gold value, or a more precise value within an exact one
			// ("29 June 2007" for "2007").
			if r := compare(v, gv); r == quantity.Agree || r == quantity.Finer && !gv.Approx && gv.Bound == quantity.Exact {
				return g, "value"
			}
		}
	}
	return "", ""
}

// valueOnlyText reports whether a gold answer is a value, so it must be
// matched as one: "20%" is not found in "120%", nor "1984" in "1984–1990"
// as text.
func valueOnlyText(g string) bool {
	_, ok := quantity.Parse(g)
	return ok
}

// goldValue is the one value a gold answer holds ("775 rooms" is 775),
// when it holds exactly one.
func goldValue(g string) (quantity.Value, bool) {
	vs := find(g)
	if len(vs) != 1 {
		return quantity.Value{}, false
	}
	return vs[0], true
}

// goldVal is a gold answer and its value.
type goldVal struct {
	text string
	v    quantity.Value
}

// goldValues are the values of the gold answers that hold one, but for an
// approximate one that holds a more precise gold ("late 1968" beside
// "November 8, 1968"): it is a vaguer form of that answer, not another
// answer, and the precise one decides what disagrees.
func goldValues(golds []string) []goldVal {
	var all []goldVal
	for _, g := range golds {
		if v, ok := goldValue(g); ok {
			all = append(all, goldVal{g, v})
		}
	}
	var out []goldVal
	for i, x := range all {
		vaguer := x.v.Approx && slices.ContainsFunc(all, func(y goldVal) bool {
			return y.text != all[i].text && !y.v.Approx && class(y.v) == class(x.v) && quantity.Compare(y.v, x.v) == quantity.Finer
		})
		if !vaguer {
			out = append(out, x)
		}
	}
	return out
}

// class groups values that compare: years and dates; counts; percents;
// an amount of one currency; a measure of one dimension.
func class(v quantity.Value) string {
	switch {
	case v.Kind == quantity.Date || v.Kind == quantity.Number && v.YearLike:
		return "date"
	case v.Kind == quantity.Number || v.Kind == quantity.Ordinal:
		return "count"
	case v.Kind == quantity.Percent:
		return "percent"
	case v.Kind == quantity.Money:
		return "money " + v.Currency
	case v.Kind == quantity.Measure:
		return "measure " + v.Dim
	}
	return ""
}

// oneSentence reports whether an answer is one line of one sentence: the
// answers in which a second value of the gold's kind is a second answer
// rather than another fact ("1984 or 1990"; a Phase 2 answer's bullets
// mention other years and counts).
func oneSentence(text string) bool {
	t := strings.TrimRight(strings.TrimSpace(text), ".!")
	return !strings.Contains(t, "\n") && !sentenceEndRE.MatchString(t)
}

var sentenceEndRE = regexp.MustCompile(`[.!?]\s+\p{Lu}`)

// conflicting returns a value of a one-sentence answer of a gold value's
// class that agrees with no gold value: "1984 or 1990".
func conflicting(a analysed, golds []string) string {
	gvs := goldValues(golds)
	if len(gvs) == 0 || !oneSentence(a.text) {
		return ""
	}
	for _, v := range a.claims {
		same, agrees := false, false
		for _, g := range gvs {
			gv := g.v
			if class(v) != class(gv) {
				continue
			}
			same = true
			if r := compare(v, gv); r != quantity.Disagree {
				agrees = true
			}
		}
		if same && !agrees {
			return v.Text
		}
	}
	return ""
}

// valueRelation compares the answer's values with the gold values of
// their class: Agree when one agrees; Finer when one is a more precise
// value within an exact gold one and none disagrees; Coarser when one
// covers a gold value, or is finer than an approximate one ("late 1968");
// Disagree when every such pair disagrees; Incomparable when the answer
// has no value of a gold's class.
func valueRelation(a analysed, golds []string) (quantity.Agreement, string, string) {
	var finer, coarser, disagree [2]string
	for _, x := range goldValues(golds) {
		g, gv := x.text, x.v
		for _, v := range a.claims {
			if class(v) != class(gv) {
				continue
			}
			switch r := compare(v, gv); {
			case r == quantity.Agree:
				return r, v.Text, g
			case r == quantity.Finer && !gv.Approx && gv.Bound == quantity.Exact:
				if finer[0] == "" {
					finer = [2]string{v.Text, g}
				}
			case r == quantity.Finer || r == quantity.Coarser:
				if coarser[0] == "" {
					coarser = [2]string{v.Text, g}
				}
			case r == quantity.Disagree:
				if disagree[0] == "" {
					disagree = [2]string{v.Text, g}
				}
			}
		}
	}
	switch {
	case finer[0] != "" && disagree[0] == "":
		return quantity.Finer, finer[0], finer[1]
	case finer[0] != "":
		return quantity.Coarser, finer[0], finer[1] // finer than one gold, off another: the judge decides
	case coarser[0] != "":
		return quantity.Coarser, coarser[0], coarser[1]
	case disagree[0] != "":
		return quantity.Disagree, disagree[0], disagree[1]
	}
	return quantity.Incomparable, "", ""
}

// dayAskedRE finds questions that ask for the day or the exact date.
var dayAskedRE = regexp.MustCompile(`\b(what|which) (day|date|month)\b|\bexact(ly)? (date|day)\b|\bon what (day|date)\b`)

// sameYear reports whether the answer's dates that cover a gold date do
// so within one year: "1965" for "1 August 1965", "June 1991" for "23
// June 1991" (not "the 16th century" for 1524).
func sameYear(a analysed, golds []string) bool {
	found := false
	for _, x := range goldValues(golds) {
		gv := x.v
		if class(gv) != "date" {
			continue
		}
		for _, v := range a.claims {
			if class(v) != "date" || compare(v, gv) != quantity.Coarser {
				continue
			}
			d := v.Date
			if v.Kind == quantity.Number {
				d = quantity.DateValue{Year: int(v.Num), Prec: quantity.PrecYear}
			}
			if d.Prec != quantity.PrecYear && d.Prec != quantity.PrecMonth || gv.Approx {
				return false
			}
			found = true
		}
	}
	return found
}

// aliases are the gold answers with their parenthetical parts left out
// as further aliases: "copper (Cu)" is also "copper".
func aliases(golds []string) []string {
	out := append([]string(nil), golds...)
	for _, g := range golds {
		if short := strings.TrimSpace(parenRE.ReplaceAllString(g, " ")); short != g && short != "" {
			out = append(out, strings.Join(strings.Fields(short), " "))
		}
	}
	return out
}

var parenRE = regexp.MustCompile(`\([^()]*\)`)

// titles are left out of names before they are compared.
var titles = map[string]bool{"dr": true, "mr": true, "mrs": true, "ms": true, "sir": true, "dame": true, "prof": true, "jr": true, "sr": true}

// nameVariant returns the gold name the answer writes with middle names
// left out or names as initials ("Carolyn Jones", "B. R. Ambedkar" for
// "Bhimrao Ramji Ambedkar"), or writes in full where the gold has
// initials ("Bhimrao Ramji Ambedkar" for "B. R. Ambedkar"): same first
// word (or initial) and last word, the shorter name's words in the longer
// one's order. Both must be names of two or more words; the answer may be
// the longer only where the gold has an initial.
func nameVariant(a analysed, golds []string) string {
	at := untitled(a.toks)
	if len(at) < 2 || len(at) > 5 {
		return ""
	}
	for _, g := range golds {
		gt := untitled(tokens(g))
		if len(gt) < 2 || len(gt) > 6 {
			continue
		}
		short, long := at, gt
		if len(at) > len(gt) {
			if !slices.ContainsFunc(gt, func(t string) bool { return len(t) == 1 }) {
				continue
			}
			short, long = gt, at
		}
		if sameNameWord(short[0], long[0]) && short[len(short)-1] == long[len(long)-1] && inOrder(short, long) {
			return g
		}
	}
	return ""
}

// untitled leaves out titles ("Dr", "Sir").
func untitled(ts []string) []string {
	var out []string
	for _, t := range ts {
		if !titles[t] {
			out = append(out, t)
		}
	}
	return out
}

// sameNameWord reports whether two words of names agree: the same word,
// or one is the other's initial.
func sameNameWord(x, y string) bool {
	return x == y || len(x) == 1 && strings.HasPrefix(y, x) || len(y) == 1 && strings.HasPrefix(x, y)
}

// inOrder reports whether the words of short occur in long in order, the
// last word of short being the last of long.
func inOrder(short, long []string) bool {
	j := 0
	for _, t := range short {
		for j < len(long) && !sameNameWord(t, long[j]) {
			j++
		}
		if j == len(long) {
			return false
		}
		j++
	}
	return j == len(long)
}

// approxTolerance is how far (relative) an answer may be from a gold
// number written as approximate ("about 3.99 degrees") and still agree.
const approxTolerance = 0.05

// compare is quantity.Compare, with a gold written as approximate
// agreeing within approxTolerance.
func compare(v, gold quantity.Value) quantity.Agreement {
	r := quantity.Compare(v, gold)
	if r == quantity.Disagree && gold.Approx && gold.Kind != quantity.Date && !gold.YearLike &&
		math.Abs(v.Num-gold.Num) <= approxTolerance*math.Abs(gold.Num) {
		return quantity.Agree
	}
	return r
}

// partOf returns the gold answer the answer is a part of ("Nicklaus" of
// "Jack Nicklaus"), when it is.
func partOf(a analysed, golds []string) string {
	if len(a.content) == 0 {
		return ""
	}
	for _, g := range golds {
		if containsSeq(tokens(g), a.toks) {
			return g
		}
	}
	return ""
}

// releaseRE finds questions about when something came out: a title is
// often released more than once — an adaptation, a remake, an edition, a
// country's release — so another year may answer for another release
// (AmbigQA, Min et al. 2020, finds such questions often ambiguous).
var releaseRE = regexp.MustCompile(`\b(come|comes|came|coming) out\b|\breleased?\b|\brelease date\b|\bpremiered?\b|\bfirst (published|aired|shown)\b`)

// otherYear reports whether the answer's dates all fall in other years
// than every gold date: "1990" or "March 30, 1990" for "May 1984", not
// "September 1968" for "November 8, 1968".
func otherYear(a analysed, golds []string) bool {
	var gys [][2]int
	for _, g := range goldValues(golds) {
		if lo, hi, ok := years(g.v); ok {
			gys = append(gys, [2]int{lo, hi})
		}
	}
	if len(gys) == 0 {
		return false
	}
	found := false
	for _, v := range a.claims {
		lo, hi, ok := years(v)
		if !ok {
			continue
		}
		for _, gy := range gys {
			if lo <= gy[1] && gy[0] <= hi {
				return false
			}
		}
		found = true
	}
	return found
}

// years is the span of years a date covers.
func years(v quantity.Value) (lo, hi int, ok bool) {
	switch {
	case v.Kind == quantity.Number && v.YearLike:
		return int(v.Num), int(v.Num), true
	case v.Kind != quantity.Date || v.Date.Year == 0:
		return 0, 0, false
	}
	switch y := v.Date.Year; v.Date.Prec {
	case quantity.PrecDecade:
		return y, y + 9, true
	case quantity.PrecCentury:
		return y, y + 99, true
	default:
		return y, y, true
	}
}

// echoes reports whether every word of the answer is a word of the
// question ("Michael Jackson" to "who sings somebody's watching me with
// michael jackson"): it names nothing the question did not. A question
// that offers a choice ("A or B") is left out.
func echoes(a analysed, question string) bool {
	if len(a.content) == 0 {
		return false
	}
	qt := tokens(question)
	if slices.Contains(qt, "or") || slices.Contains(qt, "either") {
		return false
	}
	for _, t := range a.content {
		if !slices.Contains(qt, t) {
			return false
		}
	}
	return true
}

// moreSpecific returns a gold answer that makes the gold hit more
// specific ("back of the head" for "back"), when the answer does not give
// it: the hit alone may mean something else (the back of the body).
func moreSpecific(a analysed, hit string, golds []string) string {
	ht := trimLeading(tokens(hit))
	for _, g := range golds {
		gt := trimLeading(tokens(g))
		if len(gt) > len(ht)+1 && slices.Equal(gt[:len(ht)], ht) && gt[len(ht)] == "of" && !containsSeq(a.toks, gt) {
			return g
		}
	}
	return ""
}

// whoWhereRE finds questions that ask for a person or a place.
var whoWhereRE = regexp.MustCompile(`^\W*(who|whom|whose|where)\b`)

// latestRE finds questions about the latest or last of something: its
// answer only moves forward in time.
var latestRE = regexp.MustCompile(`\b(last|latest|most recent|newest)\b`)

// beforeGold reports whether every value of the answer's that compares
// with a gold value comes before every such gold: an earlier year, a
// smaller count (the seventh season for the fourteenth).
func beforeGold(a analysed, golds []string) bool {
	found := false
	for _, x := range goldValues(golds) {
		for _, v := range a.claims {
			if class(v) != class(x.v) {
				continue
			}
			switch class(v) {
			case "date":
				_, hi, ok1 := years(v)
				lo, _, ok2 := years(x.v)
				if !ok1 || !ok2 || hi >= lo {
					return false
				}
			case "count":
				if v.Hi+v.Tol >= x.v.Num-x.v.Tol {
					return false
				}
			default:
				return false
			}
			found = true
		}
	}
	return found
}
