package grade

import (
	"strings"
	"sync"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// folders hold the diacritic-stripping transformers: a transformer keeps
// state, so each goroutine takes its own.
var folders = sync.Pool{New: func() any { return transform.Chain(norm.NFKD, runes.Remove(runes.In(unicode.Mn)), norm.NFC) }}

func stripMarks(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			t := folders.Get().(transform.Transformer)
			out, _, err := transform.String(t, s)
			t.Reset()
			folders.Put(t)
			if err != nil {
				return s
			}
			return out
		}
	}
	return s
}

// fold lower-cases s and strips its diacritics: "Dáin" is "dain".
func fold(s string) string {
	return strings.ToLower(stripMarks(s))
}

// articles are dropped from both sides before matching (in English,
// French, German, Spanish and Italian).
var articles = map[string]bool{
	"a": true, "an": true, "the": true,
	"le": true, "la": true, "les": true, "l": true, "der": true, "die": true, "das": true, "el": true, "los": true, "las": true, "il": true, "lo": true, "gli": true,
}

// tokens are the words of s as the rules compare them: folded, split at
// anything that is no letter or digit (a possessive 's dropped, "&" read
// as "and"), articles left out and a plural s cut, so "The Beatles'" and
// "beatle" are one token.
func tokens(s string) []string {
	s = fold(s)
	s = strings.NewReplacer("&", " and ", "'s ", " ", "’s ", " ").Replace(s + " ")
	fields := strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	out := fields[:0]
	for _, f := range fields {
		if articles[f] {
			continue
		}
		out = append(out, singular(f))
	}
	return out
}

// singular cuts a plural s: "rocks" is "rock"; "bass", "bus", "axis" and
// short words stay.
func singular(w string) string {
	if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is") {
		return w[:len(w)-1]
	}
	return w
}

// leadingWords are cut from the start of a gold answer before it is
// looked for in an answer: "in the s-block" is found in "the s-block".
var leadingWords = map[string]bool{"in": true, "on": true, "at": true, "by": true, "from": true, "to": true, "of": true}

func trimLeading(ts []string) []string {
	for len(ts) > 1 && leadingWords[ts[0]] {
		ts = ts[1:]
	}
	return ts
}

// containsSeq reports whether needle occurs in hay as a run of whole
// tokens.
func containsSeq(hay, needle []string) bool {
	if len(needle) == 0 || len(needle) > len(hay) {
		return false
	}
outer:
	for i := 0; i+len(needle) <= len(hay); i++ {
		for j := range needle {
			if hay[i+j] != needle[j] {
				continue outer
			}
		}
		return true
	}
	return false
}

// stopWords carry no content of their own: an answer that shares only
// these with a gold answer shares nothing.
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`of in on at to for and or by with from into as is was were are be been it its this that these those
		he she they his her their him them who which what when where how why than then there
		i me my we our you your not no yes so but if also just only very about after before over under
		s t d ll re ve`) {
		stopWords[w] = true
	}
}

// content returns the tokens of ts that are not stop words.
func content(ts []string) []string {
	var out []string
	for _, t := range ts {
		if !stopWords[t] {
			out = append(out, t)
		}
	}
	return out
}

// squadNormalize is SQuAD's normalize_answer, which the naive grader
// uses: lower case, ASCII punctuation removed, the articles a, an and the
// removed, spaces collapsed.
func squadNormalize(s string) string {
	s = strings.ToLower(s)
	s = strings.Map(func(r rune) rune {
		if r < 128 && strings.ContainsRune("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", r) {
			return -1
		}
		return r
	}, s)
	var kept []string
	for _, w := range strings.Fields(s) {
		if w != "a" && w != "an" && w != "the" {
			kept = append(kept, w)
		}
	}
	return strings.Join(kept, " ")
}

// containsWords reports whether padded (" x y z ") holds the words of n.
func containsWords(padded, n string) bool { return strings.Contains(padded, " "+n+" ") }
