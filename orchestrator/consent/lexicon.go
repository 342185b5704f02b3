package consent

import (
	"cmp"
	_ "embed"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

//go:embed lexicon.yaml
var lexiconYAML []byte

// lexiconCLDR is the generated yes/no words of every CLDR language
// (gen/main.go writes it; lexicon.yaml's entries win over it).
//
//go:embed lexicon_cldr.yaml
var lexiconCLDR []byte

// lexiconGettext is the generated yes/no words of the "Yes" and "No" button
// translations in Debian packages' gettext catalogs (gen/gettext.go).
//
//go:embed lexicon_gettext.yaml
var lexiconGettext []byte

// lexiconSpeakers is the generated number of speakers of each language of
// the generated word files, from CLDR's territoryInfo (gen/speakers.go).
//
//go:embed lexicon_speakers.yaml
var lexiconSpeakers []byte

// generatedFiles are the generated word files, in the order they load.
var generatedFiles = []struct {
	name string
	data []byte
}{{"lexicon_cldr.yaml", lexiconCLDR}, {"lexicon_gettext.yaml", lexiconGettext}}

// class is what a lexicon entry does in a reply.
type class uint8

const (
	clYes class = iota + 1
	clPolite
	clNo
	clNegator
	clSearch
	clFiller
	clConnective
	clNewQuestion
	clRequest // frames a request for evidence; covers a word only beside a search_now entry
	// clAmbiguous marks a generated word that is yes in one language and
	// no in another: it is known (no typo target) but covers nothing.
	clAmbiguous
)

// maxEntryWords bounds phrase length, and with it the work per word.
const maxEntryWords = 6

// lexicon is the loaded form of lexicon.yaml.
type lexicon struct {
	// entries maps a phrase key (word keys joined by one space) to its class.
	entries map[string]class
	// canon maps a word key to the word as the lexicon spells it, so that
	// Normalize shows "yesss" and "dont" as "yes" and "don't".
	canon map[string]string
	// emoji holds the symbol runes that are words of their own.
	emoji     map[rune]bool
	maxKeyLen int
	// words holds every word key of every entry, by length in bytes: the
	// targets of typo correction.
	words map[int][]string
	// notTypos are real words one edit from a lexicon word that are never
	// corrected ("yet" is not "yes").
	notTypos map[string]bool
	// openers start a question or a request for something new; cues anywhere
	// in a clause mark new content. Both only matter for clauses the entries
	// do not cover (see loose in classify.go).
	openers, cues map[string]bool
	// intensifiers may stand inside a phrase ("is that actually true").
	intensifiers map[string]bool
	// scopes open a limit on the search after an assent ("only", "just").
	scopes map[string]bool
	// remarkJoiners introduce a reason, not a new question ("so", "because").
	remarkJoiners map[string]bool
	// corrections mark a correction ("but", "actually"): a no after a yes
	// decides only after one. mentionCues ask about a word ("mean", "say").
	// detailNouns name a detail of an answer ("date", "figure").
	corrections, mentionCues, detailNouns map[string]bool
	// generated holds the keys that only the generated file has.
	generated map[string]bool
	// spellings maps a texting spelling's key to the key it stands for.
	spellings map[string]string
	// phraseWords holds, by length, the words of the decisive phrases
	// ("good" of "sounds good") that are no entry of their own: a typo is
	// corrected to one only where the phrase then matches.
	phraseWords map[int][]string
	// langs maps the key of a generated word to the languages (CLDR codes)
	// it is yes or no in; shadowed lists the generated words lexicon.yaml
	// already has an entry for, which keep the hand-kept class.
	langs    map[string][]string
	shadowed []string
	// ambiguous lists the generated words that read as a word of the
	// other class: they are entries of no class (clAmbiguous).
	ambiguous []string
	// exact maps the exact form of a one-word entry (token.exact) to its
	// class; it is looked up before entries. exactGenerated holds the
	// exact forms only generated files have.
	exact          map[string]class
	exactGenerated map[string]bool
	// alone holds the generated words that are English words too ("nu",
	// "non"), by exact form and by key: they count only as a whole reply,
	// and only when two generated files give them the same class
	// (english holds them until addCorroborated decides).
	aloneExact, aloneKey map[string]bool
	english              map[englishWord][]genWord
	// sources names each generated file's source and version.
	sources []string
	// classLangs and exactLangs hold the languages a generated word is yes
	// or no in, by key and by exact form: resolveConflicts reads them.
	classLangs, exactLangs map[string]map[class][]string
	// resolved lists the conflicts the speakers decided by key ("न → no");
	// resolvedExact holds the exact forms they decided.
	resolved      []string
	resolvedExact map[string]bool
	// speakersSource names the speakers' source and version.
	speakersSource string
	// wordLangs maps a word key to the languages of the entries it is a
	// word of (hand-kept and generated); an emoji belongs to none, as it
	// belongs to every language. handReadings maps a one-word hand-kept
	// entry's key to its class and languages: with classLangs (the
	// generated words') they are what a word means in each language
	// (language.go).
	wordLangs    map[string][]string
	handReadings map[string]map[class][]string
	// handExact is handReadings by the exact form of the entry.
	handExact map[string]map[class][]string
	// englishTargets holds, by length, the words of English entries that
	// a slip may stand for (englishSlip), built on first use.
	englishTargets     map[int][]string
	englishTargetsOnce sync.Once
}

// lexiconFile mirrors lexicon.yaml. Each list is one class.
type lexiconFile struct {
	Yes         []lexEntry `yaml:"yes"`
	Polite      []lexEntry `yaml:"polite"`
	No          []lexEntry `yaml:"no"`
	Negators    []lexEntry `yaml:"negators"`
	SearchNow   []lexEntry `yaml:"search_now"`
	Filler      []lexEntry `yaml:"filler"`
	Connectives []lexEntry `yaml:"connectives"`
	NewQuestion []lexEntry `yaml:"new_question"`
	Request     []lexEntry `yaml:"request"`
	NotTypos    []lexEntry `yaml:"not_typos"`
	Openers     []lexEntry `yaml:"question_openers"`
	Cues        []lexEntry `yaml:"content_cues"`
	Intensify   []lexEntry `yaml:"intensifiers"`
	Scopes      []lexEntry `yaml:"scope_openers"`
	Reasons     []lexEntry `yaml:"remark_joiners"`
	Corrections []lexEntry `yaml:"correction_markers"`
	Mentions    []lexEntry `yaml:"mention_cues"`
	Details     []lexEntry `yaml:"detail_nouns"`
	Spellings   yaml.Node  `yaml:"spellings"`
}

// lexEntry is one list item with the line it came from, for error messages,
// and the languages it belongs to ("oui @fr"; none written: English).
type lexEntry struct {
	text  string
	line  int
	langs []string
}

// langCodeRe is a CLDR language code as lexicon.yaml writes one.
var langCodeRe = regexp.MustCompile(`^[a-z]{2,3}$`)

// UnmarshalYAML keeps the item's line number and reads its languages.
func (e *lexEntry) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: entry is not a string", n.Line)
	}
	e.text, e.line = n.Value, n.Line
	if text, codes, ok := strings.Cut(n.Value, " @"); ok {
		e.text = text
		for _, c := range strings.Split(codes, ",") {
			if !langCodeRe.MatchString(c) {
				return fmt.Errorf("line %d: entry %q: %q is no language code (after \" @\": codes such as fr or nb, comma-separated)", n.Line, n.Value, c)
			}
			e.langs = append(e.langs, c)
		}
	}
	return nil
}

// lex returns the embedded lexicon, loaded on first use. The embedded file
// is part of the binary and TestLexiconLoads guards it, so a load error is a
// programming error.
var lex = sync.OnceValue(func() *lexicon {
	l, err := loadLexicon(lexiconYAML, "lexicon.yaml")
	for _, g := range generatedFiles {
		if err == nil {
			err = l.addGenerated(g.data, g.name)
		}
	}
	if err == nil {
		l.addCorroborated()
		err = l.resolveConflicts(lexiconSpeakers, "lexicon_speakers.yaml")
	}
	if err != nil {
		panic(err)
	}
	return l
})

// speakersFile mirrors lexicon_speakers.yaml.
type speakersFile struct {
	Source   string           `yaml:"source"`
	Speakers map[string]int64 `yaml:"speakers"`
	Unknown  []string         `yaml:"unknown"`
}

// speakerRatio is how many times the speakers of one meaning's languages a
// conflicting word's other meaning needs to win.
const speakerRatio = 10

// resolveConflicts reads a generated word that is yes in some languages and
// no in others (clAmbiguous) by who speaks them: the word takes the meaning
// whose languages have at least speakerRatio times the speakers of the
// other meaning's (CLDR territoryInfo figures, lexicon_speakers.yaml),
// when every one of its languages has a figure. Only a no wins this way: a
// word that is no in a language the lexicon covers is never read as yes, so
// that a decline in that language is never read as consent (the issue's
// rule; TestDeclinesNeverSearch). A yes majority leaves the word ambiguous,
// and the model decides, as does a conflict nearer than the ratio.
func (l *lexicon) resolveConflicts(data []byte, name string) error {
	var f speakersFile
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if f.Source == "" || len(f.Speakers) == 0 {
		return fmt.Errorf("%s: source and speakers must be present and non-empty", name)
	}
	l.speakersSource = f.Source
	// winner returns the class a conflict resolves to, or clAmbiguous.
	winner := func(by map[class][]string) class {
		var n [2]int64
		for i, c := range []class{clYes, clNo} {
			if len(by[c]) == 0 {
				return clAmbiguous
			}
			for _, lang := range by[c] {
				sp, ok := f.Speakers[lang]
				if !ok {
					return clAmbiguous
				}
				n[i] += sp
			}
		}
		if n[1] >= speakerRatio*n[0] {
			return clNo
		}
		return clAmbiguous
	}
	for _, key := range slices.Sorted(maps.Keys(l.classLangs)) {
		if l.entries[key] != clAmbiguous || !l.generated[key] {
			continue
		}
		if c := winner(l.classLangs[key]); c != clAmbiguous {
			l.entries[key] = c
			l.resolved = append(l.resolved, key+" → no")
		}
	}
	for _, ex := range slices.Sorted(maps.Keys(l.exactLangs)) {
		if l.exact[ex] != clAmbiguous || !l.exactGenerated[ex] {
			continue
		}
		if c := winner(l.exactLangs[ex]); c != clAmbiguous {
			l.exact[ex] = c
			l.resolvedExact[ex] = true
		}
	}
	return nil
}

// dedupLangs appends langs to the languages of m[k][c], each once.
func dedupLangs(m map[string]map[class][]string, k string, c class, langs []string) {
	if m[k] == nil {
		m[k] = map[class][]string{}
	}
	for _, lang := range langs {
		if !slices.Contains(m[k][c], lang) {
			m[k][c] = append(m[k][c], lang)
		}
	}
}

// englishWord is a generated word that is an English word too, in one class.
type englishWord struct {
	word string
	c    class
}

// addCorroborated adds the generated words that are English words too and
// that two sources give the same class ("nu": Romanian no in CLDR and in
// GTK's catalogs). A word only one source gives ("sin", Kabuverdianu yes
// in CLDR alone) is left out: an English reply would use it as English.
func (l *lexicon) addCorroborated() {
	keys := slices.SortedFunc(maps.Keys(l.english), func(a, b englishWord) int {
		return cmp.Or(strings.Compare(a.word, b.word), cmp.Compare(a.c, b.c))
	})
	for _, k := range keys {
		ws := l.english[k]
		if len(ws) < 2 {
			continue
		}
		var langs []string
		for _, w := range ws {
			langs = append(langs, w.Langs...)
		}
		slices.Sort(langs)
		_ = l.addWord(genWord{Word: ws[0].Word, Langs: slices.Compact(langs), English: true}, k.c) // each was checked as it loaded
	}
	l.english = nil
}

// generatedFile mirrors lexicon_cldr.yaml and lexicon_gettext.yaml.
type generatedFile struct {
	Source string    `yaml:"source"`
	Yes    []genWord `yaml:"yes"`
	No     []genWord `yaml:"no"`
}

type genWord struct {
	Word  string   `yaml:"word"`
	Langs []string `yaml:"langs"`
	// English marks a word that is an English word too: it counts only as
	// the whole reply.
	English bool `yaml:"english"`
}

// covered returns the languages the lexicon covers: those with a yes or no
// word in any generated file (CLDR, gettext), whether the word is read as
// written, shadowed by lexicon.yaml or ambiguous, and English, the language
// of lexicon.yaml.
func (l *lexicon) covered() map[string]bool {
	c := map[string]bool{"en": true}
	for _, ls := range l.langs {
		for _, lang := range ls {
			c[lang] = true
		}
	}
	return c
}

// addGenerated adds the words of a generated yes/no file as yes and no
// entries. A word whose key lexicon.yaml has already keeps the hand-kept
// class (it is listed in shadowed). Generated words are no typo targets:
// a slip is judged against the hand-kept words only, so that a short word
// of one language does not swallow a word of another.
func (l *lexicon) addGenerated(data []byte, name string) error {
	var f generatedFile
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if f.Source == "" || len(f.Yes) == 0 || len(f.No) == 0 {
		return fmt.Errorf("%s: source, yes and no must all be present and non-empty", name)
	}
	l.sources = append(l.sources, f.Source)
	if l.langs == nil {
		l.langs = map[string][]string{}
	}
	if l.english == nil {
		l.english = map[englishWord][]genWord{}
	}
	var errs []error
	for _, li := range []struct {
		c     class
		words []genWord
	}{{clYes, f.Yes}, {clNo, f.No}} {
		for _, w := range li.words {
			if w.English {
				// Added by addCorroborated if another file agrees.
				k := englishWord{w.Word, li.c}
				l.english[k] = append(l.english[k], w)
				continue
			}
			if err := l.addWord(w, li.c); err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", name, err))
			}
		}
	}
	return errors.Join(errs...)
}

// addWord adds one generated word of class c.
func (l *lexicon) addWord(w genWord, c class) error {
	// Read as written: no typo correction towards hand-kept words ("ano" is
	// Czech yes, not a slip for "nao").
	toks := tokenize(w.Word, nil)
	var keys []string
	for _, t := range toks {
		if t.kind != tokWord {
			keys = nil
			break
		}
		keys = append(keys, t.key)
	}
	if len(keys) == 0 || len(keys) > maxEntryWords || len(w.Langs) == 0 {
		return fmt.Errorf("word %q is not 1 to %d words with languages", w.Word, maxEntryWords)
	}
	key := strings.Join(keys, " ")
	if len(toks) == 1 && toks[0].exact != "" {
		l.addExact(toks[0].exact, c, w.English)
		dedupLangs(l.exactLangs, toks[0].exact, c, w.Langs)
	}
	dedupLangs(l.classLangs, key, c, w.Langs)
	for _, k := range keys {
		l.addWordLangs(k, w.Langs)
	}
	if w.English {
		l.aloneKey[key] = true
	}
	l.langs[key] = append(l.langs[key], w.Langs...)
	prev, ok := l.entries[key]
	switch {
	case ok && !l.generated[key]:
		l.shadowed = append(l.shadowed, w.Word)
	case ok && prev != c && prev != clAmbiguous:
		// Yes in one language and no in another once accents and
		// look-alikes are read away ("ee", "eé"): neither.
		l.ambiguous = append(l.ambiguous, w.Word)
		l.entries[key] = clAmbiguous
	case !ok:
		l.generated[key] = true
		l.entries[key] = c
		l.maxKeyLen = max(l.maxKeyLen, len(key))
		for i, t := range toks {
			// A word is shown as its key when the key is ASCII, so that a
			// look-alike letter of a generated word ("х") never spells an
			// ASCII word ("x") in Normalize.
			if _, ok := l.canon[keys[i]]; !ok && isASCII(keys[i]) {
				l.canon[keys[i]] = keys[i]
			} else if !ok {
				l.canon[keys[i]] = t.text
			}
		}
	}
	return nil
}

// addExact adds a generated one-word entry by its exact form. A hand-kept
// entry of that form wins; a generated one of the other class makes it
// ambiguous: a word that is yes in one language and no in another ("jo":
// Albanian no, Luxembourgish yes) is no clear answer, and the model
// decides.
func (l *lexicon) addExact(exact string, c class, english bool) {
	prev, ok := l.exact[exact]
	switch {
	case ok && !l.exactGenerated[exact]:
		return
	case ok && prev != c:
		l.exact[exact] = clAmbiguous
	case !ok:
		l.exact[exact] = c
		l.exactGenerated[exact] = true
	}
	if english {
		l.aloneExact[exact] = true
	}
}

// loadLexicon parses and checks a lexicon, reporting every bad entry.
func loadLexicon(data []byte, name string) (*lexicon, error) {
	var f lexiconFile
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	l := &lexicon{
		entries:       map[string]class{},
		canon:         map[string]string{},
		emoji:         map[rune]bool{},
		words:         map[int][]string{},
		notTypos:      map[string]bool{},
		openers:       map[string]bool{},
		cues:          map[string]bool{},
		intensifiers:  map[string]bool{},
		scopes:        map[string]bool{},
		remarkJoiners: map[string]bool{},
		corrections:   map[string]bool{},
		mentionCues:   map[string]bool{},
		detailNouns:   map[string]bool{},
		generated:     map[string]bool{},
		spellings:     map[string]string{},
		phraseWords:   map[int][]string{},
		exact:         map[string]class{},

		exactGenerated: map[string]bool{},
		classLangs:     map[string]map[class][]string{},
		exactLangs:     map[string]map[class][]string{},
		resolvedExact:  map[string]bool{},
		aloneExact:     map[string]bool{},
		aloneKey:       map[string]bool{},
		wordLangs:      map[string][]string{},
		handReadings:   map[string]map[class][]string{},
		handExact:      map[string]map[class][]string{},
	}
	type origin struct {
		text string
		line int
	}
	seen := map[string]origin{}    // phrase key -> first entry
	spelled := map[string]origin{} // word key -> first spelling
	var errs []error
	lists := []struct {
		c       class
		list    string
		entries []lexEntry
	}{
		{clYes, "yes", f.Yes}, {clPolite, "polite", f.Polite}, {clNo, "no", f.No},
		{clNegator, "negators", f.Negators}, {clSearch, "search_now", f.SearchNow},
		{clFiller, "filler", f.Filler}, {clConnective, "connectives", f.Connectives},
		{clNewQuestion, "new_question", f.NewQuestion},
		{clRequest, "request", f.Request},
	}
	for _, li := range lists {
		if len(li.entries) == 0 {
			errs = append(errs, fmt.Errorf("%s: list %q is missing or empty", name, li.list))
		}
		for _, e := range li.entries {
			toks := tokenize(e.text, nil)
			var keys []string
			bad := len(toks) == 0
			for _, t := range toks {
				if t.kind == tokSep {
					bad = true
					break
				}
				keys = append(keys, t.key)
			}
			if bad {
				errs = append(errs, fmt.Errorf("%s:%d: entry %q must be words or single emoji without punctuation", name, e.line, e.text))
				continue
			}
			if len(keys) > maxEntryWords {
				errs = append(errs, fmt.Errorf("%s:%d: entry %q has %d words, more than %d", name, e.line, e.text, len(keys), maxEntryWords))
				continue
			}
			key := strings.Join(keys, " ")
			if prev, ok := seen[key]; ok {
				errs = append(errs, fmt.Errorf("%s:%d: entry %q is the same as %q on line %d (case, apostrophes and repeated letters are ignored)", name, e.line, e.text, prev.text, prev.line))
				continue
			}
			seen[key] = origin{e.text, e.line}
			for _, t := range toks {
				// Every decisive word is a phrase word too; those that are
				// word entries are removed below.
				if t.kind == tokWord && li.c <= clSearch && len(t.key) >= minTypoLen && isASCIILetters(t.key) && !slices.Contains(l.phraseWords[len(t.key)], t.key) {
					l.phraseWords[len(t.key)] = append(l.phraseWords[len(t.key)], t.key)
				}
				if len(toks) == 1 && t.kind == tokWord && li.c <= clSearch && len(t.key) >= minTypoLen && isASCIILetters(t.key) && !slices.Contains(l.words[len(t.key)], t.key) {
					l.words[len(t.key)] = append(l.words[len(t.key)], t.key)
				}
				if t.kind == tokEmoji {
					l.emoji[[]rune(t.text)[0]] = true
				}
				if prev, ok := spelled[t.key]; ok && l.canon[t.key] != t.text && strings.ReplaceAll(l.canon[t.key], "'", "") == strings.ReplaceAll(t.text, "'", "") {
					errs = append(errs, fmt.Errorf("%s:%d: word %q in %q and %q on line %d differ only in apostrophes; spell them alike", name, e.line, t.text, e.text, prev.text, prev.line))
					continue
				} else if !ok {
					spelled[t.key] = origin{e.text, e.line}
					l.canon[t.key] = t.text
				}
			}
			l.entries[key] = li.c
			l.maxKeyLen = max(l.maxKeyLen, len(key))
			if len(toks) == 1 && toks[0].kind == tokWord && toks[0].exact != "" {
				l.exact[toks[0].exact] = li.c
			}
			l.addHandLangs(toks, li.c, e.langs)
		}
	}
	// Word lists that are not entries: one word each.
	for _, wl := range []struct {
		list    string
		entries []lexEntry
		set     map[string]bool
	}{{"not_typos", f.NotTypos, l.notTypos}, {"question_openers", f.Openers, l.openers}, {"content_cues", f.Cues, l.cues}, {"intensifiers", f.Intensify, l.intensifiers}, {"scope_openers", f.Scopes, l.scopes}, {"remark_joiners", f.Reasons, l.remarkJoiners},
		{"correction_markers", f.Corrections, l.corrections}, {"mention_cues", f.Mentions, l.mentionCues}, {"detail_nouns", f.Details, l.detailNouns}} {
		if len(wl.entries) == 0 {
			errs = append(errs, fmt.Errorf("%s: list %q is missing or empty", name, wl.list))
		}
		for _, e := range wl.entries {
			toks := tokenize(e.text, nil)
			if len(toks) != 1 || toks[0].kind != tokWord {
				errs = append(errs, fmt.Errorf("%s:%d: %s entry %q must be one word", name, e.line, wl.list, e.text))
				continue
			}
			wl.set[toks[0].key] = true
		}
	}
	for _, ws := range l.words {
		slices.Sort(ws)
	}
	// A phrase word that is also a word entry is corrected as that.
	for n, ws := range l.phraseWords {
		l.phraseWords[n] = slices.DeleteFunc(ws, func(w string) bool { return slices.Contains(l.words[n], w) })
	}
	errs = append(errs, l.loadSpellings(&f.Spellings, name)...)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return l, nil
}

// loadSpellings reads the spellings map: one word to one word, the second a
// word of the lexicon, the first not.
func (l *lexicon) loadSpellings(n *yaml.Node, name string) []error {
	if n.Kind != yaml.MappingNode || len(n.Content) == 0 {
		return []error{fmt.Errorf("%s: map \"spellings\" is missing or empty", name)}
	}
	var errs []error
	word := func(v *yaml.Node) (string, bool) {
		toks := tokenize(v.Value, nil)
		if v.Kind != yaml.ScalarNode || len(toks) != 1 || toks[0].kind != tokWord {
			errs = append(errs, fmt.Errorf("%s:%d: spellings: %q must be one word", name, v.Line, v.Value))
			return "", false
		}
		return toks[0].key, true
	}
	for i := 0; i < len(n.Content); i += 2 { // a mapping's Content holds key, value pairs
		from, ok1 := word(n.Content[i])
		to, ok2 := word(n.Content[i+1])
		if !ok1 || !ok2 {
			continue
		}
		if _, known := l.canon[from]; known {
			errs = append(errs, fmt.Errorf("%s:%d: spellings: %q is a lexicon word already", name, n.Content[i].Line, n.Content[i].Value))
		}
		if _, known := l.canon[to]; !known {
			errs = append(errs, fmt.Errorf("%s:%d: spellings: %q is no lexicon word", name, n.Content[i+1].Line, n.Content[i+1].Value))
		}
		l.spellings[from] = to
	}
	return errs
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
