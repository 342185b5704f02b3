package consent

import (
	"strings"
	"unicode/utf8"
)

// Typo correction: a word the lexicon does not know is read as a lexicon
// word when it is one typing slip away from exactly one of them (or from
// several that mean the same). What counts as one slip depends on the
// lexicon word's length, so that short words are not turned into other
// short words:
//
//	length  slips allowed
//	≤ 2     none ("ye" is not "yes")
//	3       two neighbouring letters swapped ("yse"); one letter added next to
//	        a letter whose key it neighbours on a QWERTY keyboard ("yeas");
//	        a letter after the first replaced by a neighbouring key ("yws")
//	4–6     as for 3, plus one letter after the first left out ("ahed")
//	≥ 7     any one letter added, left out, replaced, or two swapped
//	        ("definately", "nevermnd")
//
// "yet" is not "yes" (t is no neighbour of s), and the lexicon's not_typos
// list names real words one slip from a lexicon word that are never
// corrected. Typos are corrected in the word keys (case folded, accents and
// apostrophes dropped, repeated letters squeezed), so "Yessss" and "okk"
// need no correction at all.

// minTypoLen is the shortest lexicon word a typo is corrected to.
const minTypoLen = 3

// qwerty lists, for each letter, the letters of the keys around it.
var qwerty = func() map[byte]string {
	rows := []string{"qwertyuiop", "asdfghjkl", "zxcvbnm"}
	adj := map[byte]string{}
	add := func(a, b byte) {
		adj[a] += string(b)
	}
	for r, row := range rows {
		for i := 0; i < len(row); i++ {
			c := row[i]
			if i > 0 {
				add(c, row[i-1])
			}
			if i+1 < len(row) {
				add(c, row[i+1])
			}
			// The rows are offset: key i of a row touches keys i and i+1 of
			// the row above ("s" touches "w" and "e") and i-1 and i of the
			// row below ("s" touches "z" and "x").
			for _, o := range []struct{ row, from int }{{r - 1, i}, {r + 1, i - 1}} {
				if o.row < 0 || o.row >= len(rows) {
					continue
				}
				for j := o.from; j <= o.from+1; j++ {
					if j >= 0 && j < len(rows[o.row]) {
						add(c, rows[o.row][j])
					}
				}
			}
		}
	}
	return adj
}()

// near reports whether a and b are the same letter or neighbouring keys.
func near(a, b byte) bool {
	if a == b {
		return true
	}
	for i := 0; i < len(qwerty[a]); i++ {
		if qwerty[a][i] == b {
			return true
		}
	}
	return false
}

// correct returns the lexicon word key that key is a typo of, or "" when it
// is none, or several with different meanings.
func (l *lexicon) correct(key string) string {
	return l.correctTo(key, l.words)
}

// correctPhrase is correct with the phrase words as targets ("goof" →
// "good"); the caller keeps the correction only where a phrase then
// matches ("sounds good").
func (l *lexicon) correctPhrase(key string) string {
	return l.correctTo(key, l.phraseWords)
}

func (l *lexicon) correctTo(key string, targets map[int][]string) string {
	if l.notTypos[key] || !isASCIILetters(key) {
		return ""
	}
	var found string
	for n := len(key) - 1; n <= len(key)+1; n++ {
		for _, w := range targets[n] {
			if !slip(key, w) {
				continue
			}
			switch {
			case found == "":
				found = w
			case l.entries[found] != l.entries[w] || l.entries[w] == 0:
				return "" // ambiguous: "sourcs" may be "source" or "sources", both search_now; anything else is a guess
			}
		}
	}
	return found
}

// slip reports whether typed is word with one typing slip, by the table in
// the comment above. Both are ASCII letters.
func slip(typed, word string) bool {
	if !isASCIILetters(word) || len(word) < minTypoLen {
		return false
	}
	long := len(word) >= 7
	switch {
	case len(typed) == len(word):
		diff := -1
		for i := 0; i < len(word); i++ {
			if typed[i] != word[i] {
				if diff >= 0 {
					// a second difference: only a swap of the two
					return i == diff+1 && typed[diff] == word[i] && typed[i] == word[diff] && typed[i+1:] == word[i+1:]
				}
				diff = i
			}
		}
		if diff < 0 {
			return false
		}
		return long || (diff > 0 && near(typed[diff], word[diff]))
	case len(typed) == len(word)+1: // a letter added
		for i := 0; i < len(typed); i++ {
			if typed[:i]+typed[i+1:] != word {
				continue
			}
			if i == len(word) && strings.IndexByte("sdry", typed[i]) >= 0 {
				continue // an inflection, not a slip: "sures", "cited", "surer", "surely"
			}
			if long {
				return true
			}
			c := typed[i]
			if (i > 0 && near(c, typed[i-1])) || (i+1 < len(typed) && near(c, typed[i+1])) {
				return true
			}
		}
		return false
	case len(typed)+1 == len(word): // a letter left out
		if len(word) < 4 {
			return false
		}
		for i := 0; i < len(word); i++ {
			if word[:i]+word[i+1:] == typed && (i > 0 || long) {
				return true
			}
		}
	}
	return false
}

func isASCIILetters(s string) bool {
	if s == "" || !utf8.ValidString(s) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}
