package consent

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"maps"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// A word counts only in the language the reply is written in (issue 37):
// "tak" is yes in a Polish reply and thanks in a Danish one, "e" is yes in
// Sango and "is" in Italian. The reply's language is settled from its own
// words, its script and the previous query, with no statistical model:
//
//   - each word belongs to the languages of the lexicon entries it is a
//     word of (lexicon.yaml's " @" codes, English when none; the generated
//     files' langs), and to English when it is in Debian's English word
//     list (english_words.txt.gz);
//   - the reply's languages are those every one of its words belongs to.
//     Emoji and numbers belong to every language;
//   - when English is among them, the reply is read as English, unless the
//     previous query is plainly not English (written in another script, or
//     with at most a third of its words English): the consent question is
//     asked in English;
//   - a reply whose words share no language, or that holds a word meaning
//     different things in the languages left, is not settled: no rule
//     decides it and the model does.
//
// lingua-go (github.com/pemistahl/lingua-go v1.4.0) was measured for this
// and not taken: 135 MB of binary, 1.9 GB resident and 27 s to load its
// high-accuracy models (128 MB and 1.4 s in low-accuracy mode), and it reads
// one-word replies wrongly ("ja" Estonian, "evet" Danish, "ok" Zulu, "tak"
// Maori). docs/consent.md has the figures and the command.

//go:embed english_words.txt.gz
var englishWordsGz []byte

// englishSet is the English word list read as the classifier reads words:
// by exact form (folded, no apostrophes) and by key (accents dropped,
// repeated letters squeezed).
type englishSet struct{ exact, key map[string]bool }

// english returns the English word list, read on first use.
var english = sync.OnceValue(func() englishSet {
	set := englishSet{exact: make(map[string]bool, englishWords), key: make(map[string]bool, englishWords)}
	eachEnglishWord(func(exact, key string) {
		set.exact[exact] = true
		set.key[key] = true
	})
	return set
})

// englishWords is about the number of words in english_words.txt.gz.
const englishWords = 84000

// eachEnglishWord calls f with the exact form and the key of each word of
// the English word list, as tokenize reads them. Reading the list through
// tokenize took a third of a second, a tenth of a whole run of the shipped
// datasets: a word of ASCII letters and inner apostrophes, nearly all of
// them, is read directly (TestEnglishFastPath checks both readings agree
// on every line), the rest through tokenize.
func eachEnglishWord(f func(exact, key string)) {
	zr, err := gzip.NewReader(bytes.NewReader(englishWordsGz))
	if err != nil {
		panic("english_words.txt.gz: " + err.Error()) // embedded: TestEnglishFastPath reads it
	}
	sc := bufio.NewScanner(zr)
	var buf []byte
	for sc.Scan() {
		if exact, key, ok := asciiWord(sc.Bytes(), buf[:0]); ok {
			f(exact, key)
			continue
		}
		for _, t := range tokenize(sc.Text(), nil) {
			if t.kind == tokWord {
				f(t.exact, t.key)
			}
		}
	}
	if err := sc.Err(); err != nil {
		panic("english_words.txt.gz: " + err.Error())
	}
}

// asciiWord reads line as tokenize reads a word of ASCII letters with
// apostrophes between them or one at its end: exact is the word in lower
// case without its apostrophes, key that with runs of a letter squeezed to
// one. ok is false for any other line. buf is scratch space.
func asciiWord(line, buf []byte) (exact, key string, ok bool) {
	if len(line) == 0 || line[0] == '\'' {
		return "", "", false
	}
	for i, c := range line {
		switch {
		case c >= 'a' && c <= 'z':
			buf = append(buf, c)
		case c >= 'A' && c <= 'Z':
			buf = append(buf, c+'a'-'A')
		case c == '\'' && (i+1 == len(line) || line[i+1] != '\''):
		default:
			return "", "", false
		}
	}
	exact = string(buf)
	n := 1
	for i := 1; i < len(buf); i++ {
		if buf[i] != buf[n-1] {
			buf[n] = buf[i]
			n++
		}
	}
	if key = exact; n < len(buf) {
		key = string(buf[:n])
	}
	return exact, key, true
}

// has reports whether t is an English word: as typed, or with a letter
// repeated for emphasis ("yesss", "nooo"), but not a word two letters make
// once squeezed ("ee" is no "e").
func (e englishSet) has(t token) bool {
	switch {
	case t.exact != "" && e.exact[t.exact]:
		return true
	case t.exact == "" || t.exact == t.key:
		return e.key[t.key] && t.exact == ""
	}
	return e.key[t.key] && emphasised(t.exact)
}

// emphasised reports a letter typed three or more times in a row.
func emphasised(s string) bool {
	run, prev := 0, rune(0)
	for _, r := range s {
		if r == prev {
			run++
			if run >= 3 {
				return true
			}
		} else {
			run, prev = 1, r
		}
	}
	return false
}

// langEnglish is English's code, the language of lexicon.yaml's entries
// that name none.
const langEnglish = "en"

// addHandLangs records a hand-kept entry's languages: English when it names
// none, none at all for an emoji (it is a word of every language).
func (l *lexicon) addHandLangs(toks []token, c class, langs []string) {
	if len(toks) == 1 && toks[0].kind == tokEmoji {
		return
	}
	if len(langs) == 0 {
		langs = []string{langEnglish}
	}
	for _, t := range toks {
		l.addWordLangs(t.key, langs)
	}
	if len(toks) == 1 {
		if l.handReadings[toks[0].key] == nil {
			l.handReadings[toks[0].key] = map[class][]string{}
		}
		l.handReadings[toks[0].key][c] = langs
		if e := toks[0].exact; e != "" {
			if l.handExact[e] == nil {
				l.handExact[e] = map[class][]string{}
			}
			l.handExact[e][c] = langs
		}
	}
}

// englishSlip reports whether key is one typing slip (typo.go) from a word
// of a hand-kept English entry of any class.
func (l *lexicon) englishSlip(key string) bool {
	l.englishTargetsOnce.Do(func() {
		l.englishTargets = map[int][]string{}
		for k, langs := range l.wordLangs {
			if slices.Contains(langs, langEnglish) && isASCIILetters(k) && len(k) >= minTypoLen {
				l.englishTargets[len(k)] = append(l.englishTargets[len(k)], k)
			}
		}
		for _, ws := range l.englishTargets {
			slices.Sort(ws)
		}
	})
	if l.notTypos[key] || !isASCIILetters(key) {
		return false
	}
	for n := len(key) - 1; n <= len(key)+1; n++ {
		for _, w := range l.englishTargets[n] {
			if slip(key, w) {
				return true
			}
		}
	}
	return false
}

// addWordLangs adds langs to the languages of word key k.
func (l *lexicon) addWordLangs(k string, langs []string) {
	for _, lang := range langs {
		if !slices.Contains(l.wordLangs[k], lang) {
			l.wordLangs[k] = append(l.wordLangs[k], lang)
		}
	}
}

// langSet is a set of language codes. nil stands for every language.
type langSet map[string]bool

// meet returns the languages in both s and langs (s nil: every language).
func (s langSet) meet(langs []string) langSet {
	out := langSet{}
	for _, lang := range langs {
		if s == nil || s[lang] {
			out[lang] = true
		}
	}
	return out
}

// settlement is what the language of a reply came to.
type settlement struct {
	langs langSet // nil: only emoji, numbers and names: every language
	// unsettled says why no language could be settled; "" when one was.
	unsettled string
}

// langsOf returns the languages word t belongs to, and whether it is
// neutral (a number: every language writes them).
func (l *lexicon) langsOf(t token) ([]string, bool) {
	if strings.IndexFunc(t.text, unicode.IsLetter) < 0 {
		return nil, true // a number
	}
	langs := slices.Clone(l.wordLangs[t.key])
	if english().has(t) && !slices.Contains(langs, langEnglish) {
		langs = append(langs, langEnglish)
	}
	if t.corrected {
		// A typo corrected to a lexicon word belongs to that word's
		// languages, and the corrector targets hand-kept words.
		langs = slices.Clone(l.wordLangs[t.key])
	}
	if !slices.Contains(langs, langEnglish) && l.englishSlip(t.key) {
		// One typing slip from a word of an English entry ("ahed",
		// "thnks", "sur"): English too. Words of two letters never are.
		langs = append(langs, langEnglish)
	}
	return langs, false
}

// settle finds the languages reply may be written in (see the top of this
// file). previous is the query the consent question is about, "" when
// unknown.
func (l *lexicon) settle(toks []token, previous string) settlement {
	var langs langSet // nil until a word narrows it
	for _, t := range toks {
		if t.kind != tokWord {
			continue
		}
		ls, neutral := l.langsOf(t)
		if neutral {
			continue
		}
		if len(ls) == 0 {
			return settlement{unsettled: "the word " + quoteWord(t.text) + " is in no language the lexicon or the English word list knows"}
		}
		langs = langs.meet(ls)
		if len(langs) == 0 {
			return settlement{unsettled: "its words share no language (" + quoteWord(t.text) + " is in none of the others')"}
		}
	}
	if langs[langEnglish] {
		if !notEnglish(previous) || len(langs) == 1 {
			return settlement{langs: langSet{langEnglish: true}}
		}
		delete(langs, langEnglish)
	}
	return settlement{langs: langs}
}

// englishQuestion reports whether an unsettled reply is still plainly an
// English question or request: it opens with an English question opener or
// holds an English content cue, every word the lexicon or the word list
// knows is English, and no more of its words are unknown (names typed in
// lower case: "whats the capital of peru", "and canada?") than known. A
// question mark counts as a cue. Such a reply is a
// new query by rule; only the words of a consent need a settled language.
func (l *lexicon) englishQuestion(toks []token) bool {
	known, unknown, cued := 0, 0, false
	first := true
	for _, t := range toks {
		if t.kind == tokSep && t.text == "?" {
			cued = true
		}
		if t.kind != tokWord {
			continue
		}
		if (first && l.openers[t.key]) || l.cues[t.key] {
			cued = true
		}
		ls, neutral := l.langsOf(t)
		first = false
		switch {
		case neutral:
		case len(ls) == 0:
			unknown++
		case !slices.Contains(ls, langEnglish):
			return false
		default:
			known++
		}
	}
	return cued && unknown <= known
}

// notEnglish reports whether the previous query is plainly not English:
// most of its letters are not Latin, or at most a third of its words are
// English words.
func notEnglish(previous string) bool {
	latin, other := 0, 0
	for _, r := range previous {
		switch {
		case unicode.Is(unicode.Latin, r):
			latin++
		case unicode.IsLetter(r):
			other++
		}
	}
	if latin+other == 0 {
		return false
	}
	if other > latin {
		return true
	}
	words, en := 0, 0
	for _, t := range tokenize(previous, nil) {
		if t.kind != tokWord || strings.IndexFunc(t.text, unicode.IsLetter) < 0 {
			continue
		}
		words++
		if english().has(t) {
			en++
		}
	}
	return words > 0 && 3*en <= words
}

// conflict returns a word of the reply that means different things in the
// settled languages (a decisive class in one, another class in another),
// or that the classifier reads as a class it does not have in them: the
// word cannot be read, and the model decides. "" when there is none.
func (l *lexicon) conflict(toks []token, s settlement) string {
	for _, t := range toks {
		if t.kind != tokWord {
			continue
		}
		readings := map[class]bool{}
		for c, langs := range l.readingsOf(t) {
			if s.langs == nil || len(s.langs.meet(langs)) > 0 {
				readings[c] = true
			}
		}
		merged, known := l.entries[t.key]
		if _, ok := l.exact[t.exact]; ok && t.exact != "" {
			merged, known = l.exact[t.exact]
		}
		if len(readings) == 0 {
			continue
		}
		groups := map[int]bool{}
		for c := range readings {
			groups[group(c)] = true
		}
		if !groups[groupPositive] && !groups[groupNegative] {
			continue // no reading decides anything
		}
		if len(groups) > 1 {
			return t.text
		}
		if known && merged != clAmbiguous && !groups[group(merged)] {
			return t.text
		}
	}
	return ""
}

// readingsOf returns what word t means in each language: the classes of
// the one-word entries it is, with their languages. A word found by its
// exact form ("iie", not "ie"; "नं", not "न") has that form's readings.
func (l *lexicon) readingsOf(t token) map[class][]string {
	out := map[class][]string{}
	add := func(by map[class][]string) {
		for c, langs := range by {
			out[c] = append(out[c], langs...)
		}
	}
	_, hand := l.handExact[t.exact]
	_, gen := l.exactLangs[t.exact]
	if t.exact != "" && (hand || gen) {
		add(l.handExact[t.exact])
		add(l.exactLangs[t.exact])
		if !hand {
			add(l.handReadings[t.key])
		}
		return out
	}
	add(l.handReadings[t.key])
	add(l.classLangs[t.key])
	return out
}

// The groups of classes a word's readings are compared by: a word that is
// a negator in one language and a no in another negates in both.
const (
	groupPositive = iota // yes, polite, search_now
	groupNegative        // no, negators
	groupOther           // filler, connectives…
)

func group(c class) int {
	switch c {
	case clYes, clPolite, clSearch:
		return groupPositive
	case clNo, clNegator:
		return groupNegative
	}
	return groupOther
}

// shortForeign returns a word of the reply of one or two Latin letters
// that is a yes or no only by the generated files (no hand-kept entry of
// the settled languages gives it): "ee" (Bemba yes, and no in languages
// no file covers), "ya". So short a word is a word in too many languages to
// tell which one a reply is in. "" when there is none.
func (l *lexicon) shortForeign(toks []token, s settlement) string {
	for _, t := range toks {
		if t.kind != tokWord || utf8.RuneCountInString(t.key) > 2 || strings.IndexFunc(t.key, func(r rune) bool { return !unicode.Is(unicode.Latin, r) }) >= 0 {
			continue
		}
		hand := false
		for c, langs := range l.handReadings[t.key] {
			if c != clAmbiguous && (s.langs == nil || len(s.langs.meet(langs)) > 0) {
				hand = true
			}
		}
		if hand || english().has(t) && (s.langs == nil || s.langs[langEnglish]) {
			continue
		}
		for c, langs := range l.classLangs[t.key] {
			if (c == clYes || c == clNo) && (s.langs == nil || len(s.langs.meet(langs)) > 0) {
				return t.text
			}
		}
	}
	return ""
}

// langNames lists a language set for a message.
func (s langSet) String() string {
	if s == nil {
		return "any"
	}
	return strings.Join(slices.Sorted(maps.Keys(s)), ",")
}

func quoteWord(w string) string { return "\u201c" + w + "\u201d" }
