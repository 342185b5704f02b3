package consent

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

type tokKind uint8

const (
	tokWord  tokKind = iota // letters, marks and digits, with inner apostrophes
	tokEmoji                // a symbol the lexicon knows ("👍")
	tokSep                  // clause punctuation: , ; : . ! ? dashes, line breaks
)

// token is one word, emoji or separator of a reply, with its place in the
// reply so that a carried question can be cut from the original text.
type token struct {
	kind tokKind
	// text is the word folded to lower case with straight apostrophes, the
	// emoji rune, or the separator as Normalize shows it.
	text string
	// key is what lexicon lookups compare: text without apostrophes and with
	// runs of a repeated letter squeezed to one ("yesss", "yes'" → "yes").
	key string
	// exact is the word as typed, folded, without apostrophes: no accent
	// dropped, no squeeze, no look-alike. A one-word entry is looked up by
	// it first, so that words those would merge stay apart ("ie" ≠ "iie",
	// "ee" ≠ "eé", Cherokee "ᎥᎥ" ≠ "i"). It is "" when key is a spelling
	// or a typo correction.
	exact string
	// alt is a phrase word key is one slip from ("goof" → "good"), tried
	// only when the clause cannot be covered otherwise.
	alt   string
	start int // byte offset in the input
	// corrected is set when key is a typo correction of the word typed.
	corrected bool
}

// Normalize returns reply as the classifier sees it: lower case, straight
// apostrophes, words the lexicon knows in its spelling ("Yesss" → "yes",
// "DONT" → "don't"), known emoji kept and other symbols, quotes and emoji
// modifiers dropped, repeated punctuation collapsed, single spaces. It is
// for tests and messages; Classify(Normalize(r)) decides as Classify(r) does.
func Normalize(reply string) string {
	lx := lex()
	var b strings.Builder
	prevSep := ""
	for i, t := range tokenize(reply, lx) {
		if t.kind == tokSep {
			if t.text == prevSep {
				continue
			}
			if t.text == "—" && i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(t.text)
			prevSep = t.text
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		prevSep = ""
		if c, ok := lx.canon[t.key]; ok {
			b.WriteString(c)
		} else {
			b.WriteString(t.text)
		}
	}
	return b.String()
}

// tokenize splits s into words, known emoji and separators. With lx nil
// (while loading the lexicon) every symbol is taken as an emoji. It runs in
// one pass over s.
func tokenize(s string, lx *lexicon) []token {
	var toks []token
	var text, key, exact strings.Builder
	wordStart := -1
	var last rune  // last rune added to key, for squeezing
	greek := false // the last word was Greek
	flush := func() {
		if wordStart >= 0 {
			t := token{kind: tokWord, text: text.String(), start: wordStart}
			greek = strings.IndexFunc(t.text, func(r rune) bool { return unicode.Is(unicode.Greek, r) }) >= 0
			if t.key = key.String(); t.key == t.text {
				t.key = t.text // share: most words have no apostrophe or repeat
			}
			if t.exact = exact.String(); t.exact == t.key {
				t.exact = t.key
			}
			if lx != nil {
				if s, ok := lx.spellings[t.key]; ok {
					t.key, t.exact = s, ""
				} else if _, known := lx.canon[t.key]; !known {
					if c := lx.correct(t.key); c != "" {
						t.key, t.corrected, t.exact = c, true, ""
					} else {
						t.alt = lx.correctPhrase(t.key)
					}
				}
			}
			toks = append(toks, t)
		}
		text.Reset()
		key.Reset()
		exact.Reset()
		wordStart, last = -1, 0
	}
	// prev is the rune before r in s, ignorable runes included; next the
	// one after it. Before the first and after the last there is
	// utf8.RuneError, which is no word rune.
	prev := utf8.RuneError
	var buf, nbuf [4]rune
	for i := 0; i < len(s); {
		r0, size := utf8.DecodeRuneInString(s[i:])
		n0, _ := utf8.DecodeRuneInString(s[i+size:])
		as := readAs(r0, buf[:0])
		nextAs := readAs(n0, nbuf[:0])
		for j, r := range as {
			next := nextAs[0]
			if j+1 < len(as) {
				next = as[j+1]
			}
			switch {
			case isIgnorable(r):
				// invisible joiners and emoji modifiers neither join nor split
			case isWordRune(r):
				han := unicode.Is(unicode.Han, r)
				if han {
					// Chinese and Japanese put no spaces between words: each
					// Han character is read as a word ("是的" = "是 的").
					flush()
				}
				if wordStart == -1 {
					wordStart = i
				}
				f := fold(r)
				text.WriteRune(f)
				exact.WriteRune(foldKana(f))
				if b, ok := unaccent(f); ok {
					if b = lookalikeOf(foldKana(b)); b != last {
						key.WriteRune(b)
						last = b
					}
				}
				if han {
					flush()
				}
			case isApostrophe(r) && wordStart >= 0 && isWordRune(next):
				text.WriteByte('\'')
			case isHyphen(r) && isWordRune(prev) && isWordRune(next) && (utf8.RuneCountInString(text.String()) == 1 || wordRunesAt(s[i+size:]) == 1):
				// A hyphen beside a lone letter ("n-o-p-e", "y-es") joins a
				// spelling, not two words: no stray letter may vote.
				text.WriteRune(r)
				key.WriteRune(r)
				exact.WriteRune(r)
				last = r
			case isHyphen(r) && isWordRune(prev) && isWordRune(next):
				// "double-check" is two words, not two clauses
				flush()
			default:
				flush()
				if sep, ok := separator(r); ok {
					if sep == ";" && greek {
						sep = "?" // Greek writes its question mark as ";"
					}
					toks = append(toks, token{kind: tokSep, text: sep, key: sep, start: i})
				} else if isSymbol(r) && (lx == nil || lx.emoji[r]) {
					e := string(r)
					toks = append(toks, token{kind: tokEmoji, text: e, key: e, start: i})
				}
			}
			prev = r
		}
		i += size
	}
	flush()
	return toks
}

// wordRunesAt counts the word runes s starts with, up to 2.
func wordRunesAt(s string) int {
	n := 0
	for _, r := range s {
		if !isWordRune(r) || n == 2 {
			break
		}
		n++
	}
	return n
}

// readAs appends to dst what r reads as: r itself when it is ASCII, an
// apostrophe, a separator or an emoji modifier, and otherwise its NFKC
// form, so that full-width ("ｙｅｓ"), mathematical ("𝐲𝐞𝐬"), circled and
// superscript letters read as the letters they are drawn from. It appends
// at least one rune.
func readAs(r rune, dst []rune) []rune {
	if r < utf8.RuneSelf || isApostrophe(r) || isIgnorable(r) || isHyphen(r) {
		return append(dst, r)
	}
	if _, ok := separator(r); ok {
		return append(dst, r)
	}
	var b [utf8.UTFMax]byte
	n := utf8.EncodeRune(b[:], r)
	if norm.NFKC.IsNormal(b[:n]) {
		return append(dst, r)
	}
	for _, c := range norm.NFKC.String(string(r)) {
		dst = append(dst, c)
	}
	if len(dst) == 0 {
		dst = append(dst, r)
	}
	return dst
}

// lookalikeOf returns the ASCII letter a folded, unaccented letter imitates
// by Unicode TS #39 (Cyrillic "е" in "yеs", Greek "ο", small capital "ᴇ"),
// or r itself. Only lexicon keys see it: a word's text keeps its own
// letters. The table is generated (lookalike_table.go).
func lookalikeOf(r rune) rune {
	if r < utf8.RuneSelf {
		return r
	}
	if l, ok := lookalike[r]; ok {
		return l
	}
	return r
}

// foldKana reads katakana as hiragana ("ハイ" = "はい"): Japanese writes one
// word in either script, as Latin letters are written in either case.
// Half-width katakana are full-width after readAs (NFKC).
func foldKana(r rune) rune {
	if r >= 0x30A1 && r <= 0x30F6 { // KATAKANA LETTER SMALL A … SMALL KE
		return r - 0x60
	}
	return r
}

// fold maps r to a case-insensitive form that both strings.ToUpper and
// strings.ToLower of the input fold to the same rune ("ſ", "S", "s" → "s").
func fold(r rune) rune { return unicode.ToLower(unicode.ToUpper(r)) }

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || (unicode.IsMark(r) && !isIgnorable(r))
}

// isIgnorable reports the runes that only decorate their neighbours: emoji
// variation selectors and skin tones, joiners, soft hyphens, byte-order marks.
func isIgnorable(r rune) bool {
	switch {
	case unicode.Is(unicode.Variation_Selector, r),
		r >= 0x1F3FB && r <= 0x1F3FF, // skin tone modifiers
		r == 0x200C, r == 0x200D, r == 0x2060, r == 0xFEFF, r == 0xAD:
		return true
	}
	return false
}

// isApostrophe covers the straight, curly and look-alike apostrophes people
// type: "don't", "don’t", "donʼt" and "don`t" are one word.
func isApostrophe(r rune) bool {
	switch r {
	case '\'', '’', '‘', 'ʼ', '`', '´', '′', '＇':
		return true
	}
	return false
}

func isHyphen(r rune) bool { return r == '-' || r == '‐' || r == '‑' }

func isSymbol(r rune) bool { return unicode.Is(unicode.So, r) }

// separator maps clause punctuation to the form Normalize shows. Anything
// else that is neither a word nor a known emoji (quotes, brackets, slashes,
// other symbols) is dropped like a space.
func separator(r rune) (string, bool) {
	switch r {
	case ',', '，', '、':
		return ",", true
	case ';', '；':
		return ";", true
	case ':', '：':
		return ":", true
	case '.', '。', '\n', '\r', '\u2028', '\u2029':
		return ".", true
	case '!', '！', '¡', '‼':
		return "!", true
	case '?', '？', '¿', '⁇', '⁈', '⁉',
		'\u037e', // GREEK QUESTION MARK (NFKC would make it ";")
		'؟',      // ARABIC QUESTION MARK
		'՞',      // ARMENIAN QUESTION MARK
		'፧',      // ETHIOPIC QUESTION MARK
		'⸮',      // REVERSED QUESTION MARK
		'꘏',      // VAI QUESTION MARK
		'᥅':      // LIMBU QUESTION MARK
		return "?", true
	case '…':
		return "…", true
	case '-', '‐', '‑', '‒', '–', '—', '―', '−', '⸺', '⸻':
		return "—", true
	}
	return "", false
}

// unaccent maps a folded letter to the letter lookups compare: without its
// accents ("é", "ü", "ã" → "e", "u", "a"), so that "sí", "si" and "sì", or
// "não" and "nao", are one word. A combining mark typed on its own is
// dropped (ok is false).
func unaccent(r rune) (rune, bool) {
	if r < 0x80 {
		return r, true
	}
	if unicode.Is(unicode.Mn, r) {
		return 0, false
	}
	d := norm.NFD.String(string(r))
	b, size := utf8.DecodeRuneInString(d)
	for _, m := range d[size:] {
		if !unicode.Is(unicode.Mn, m) {
			return r, true
		}
	}
	return b, true
}
