// Package textdiff compares two texts byte for byte and explains the first
// difference so that a person can see it, even when it is invisible.
//
// The assistant's contract is byte-exact (the printed markdown must equal
// data.render_markdown), and the differences that break it are usually ones a
// terminal does not show: a trailing space, a CR before the newline, a
// non-breaking space, a zero-width space, a curly apostrophe where a straight
// one was expected. Compare finds the first differing character and renders
// both sides, and a unified line diff, through Visible.
//
// # Notation
//
// Visible rewrites a text so that every character that could hide a
// difference is shown explicitly. Newlines are kept (they structure the diff);
// everything else is marked:
//
//	␠          a space at the end of a line (before the newline, before a CR,
//	           or at the end of the text); spaces inside a line are left alone
//	→          a tab (U+0009)
//	␍          a carriage return (U+000D)
//	⍽          a no-break space (U+00A0)
//	‹U+XXXX›   any other character that is invisible or looks like a plainer
//	           one: zero-width and other format characters (U+200B–U+200D,
//	           U+2060, U+FEFF, U+00AD, bidi controls), other space characters
//	           (U+2000–U+200A, U+202F, U+3000…), control characters, line and
//	           paragraph separators, typographic quotes (‘ ’ ‚ ‛ “ ” „ ‟ and
//	           primes), dashes (U+2010–U+2015, U+2212), and the marker
//	           characters ␠ → ␍ ⍽ ⏎ ‹ › themselves when they occur literally,
//	           so the notation is never ambiguous
//	‹0xFF›     a byte that is not valid UTF-8
//
// In Mismatch.Want and Mismatch.Got a line that ends in a newline is shown
// with a trailing ⏎, so a missing or extra final newline is visible too.
package textdiff

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/aymanbagabas/go-udiff"
)

// Mismatch describes the first difference between two texts.
type Mismatch struct {
	// Offset is the byte offset of the first differing character: the first
	// differing byte, moved back to the start of its UTF-8 sequence. It is
	// the same in both texts, since they agree before it.
	Offset int
	// Line and Col locate Offset (1-based; Col counts characters).
	Line, Col int
	// Want and Got are the visible forms of the line containing Offset in
	// each text, with ⏎ appended when the line ends in a newline. A text that
	// ends before Offset's line begins shows "".
	Want, Got string
	// Diff is a unified line diff of the visible forms of both texts.
	Diff string

	// visCol is Col in the visible forms Want and Got, which are longer
	// than the original line when characters before Offset were marked.
	visCol int
}

// Compare returns nil when want and got are equal, and otherwise describes
// their first difference. The diff is labelled "want" and "got".
func Compare(want, got string) *Mismatch {
	return CompareNamed("want", "got", want, got)
}

// CompareNamed is Compare with the diff's two sides labelled wantName and
// gotName (for example "data.render_markdown" and "printed").
func CompareNamed(wantName, gotName, want, got string) *Mismatch {
	if want == got {
		return nil
	}
	off := 0
	for off < len(want) && off < len(got) && want[off] == got[off] {
		off++
	}
	// Step back to the start of the character both texts disagree on, so a
	// curly apostrophe is reported at its first byte, not its third.
	// At most UTFMax-1 steps: a longer run of continuation bytes is invalid
	// UTF-8, shown byte by byte anyway.
	for n := 0; n < utf8.UTFMax-1 && off > 0 && (midRune(want, off) || midRune(got, off)); n++ {
		off--
	}
	lineStart := strings.LastIndexByte(want[:off], '\n') + 1
	m := &Mismatch{
		Offset: off,
		Line:   strings.Count(want[:off], "\n") + 1,
		Col:    utf8.RuneCountInString(want[lineStart:off]) + 1,
		Want:   lineAt(want, lineStart),
		Got:    lineAt(got, lineStart),
		visCol: utf8.RuneCountInString(Visible(want[lineStart:off])) + 1,
	}
	m.Diff = udiff.Unified(wantName, gotName, Visible(want), Visible(got))
	return m
}

// midRune reports whether byte i of s continues a UTF-8 sequence.
func midRune(s string, i int) bool { return i < len(s) && !utf8.RuneStart(s[i]) }

// lineAt returns the visible form of the line of s starting at byte start.
func lineAt(s string, start int) string {
	if start >= len(s) {
		return ""
	}
	line := s[start:]
	nl := ""
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line, nl = line[:i], "⏎"
	}
	return Visible(line) + nl
}

// String summarises m on one line: where the texts differ and how, with
// long lines cut to an excerpt around the difference.
func (m *Mismatch) String() string {
	return fmt.Sprintf("first difference at byte %d (line %d, col %d): want %q, got %q",
		m.Offset, m.Line, m.Col, excerpt(m.Want, max(m.visCol, m.Col)), excerpt(m.Got, max(m.visCol, m.Col)))
}

// excerpt cuts a visible line to at most 30 characters before column col
// (1-based, in the visible line) and 40 from it, marking cuts with "…".
func excerpt(s string, col int) string {
	const before, after = 30, 40
	r := []rune(s)
	from := max(col-1-before, 0)
	to := min(col-1+after, len(r))
	if from >= to {
		from = max(len(r)-before-after, 0)
		to = len(r)
	}
	out := string(r[from:to])
	if from > 0 {
		out = "…" + out
	}
	if to < len(r) {
		out += "…"
	}
	return out
}

// Visible returns s with invisible and look-alike characters made visible,
// in the notation described in the package documentation.
func Visible(s string) string {
	if plain(s) {
		return s
	}
	return visible(s)
}

// plain reports whether s reads the same in visible form: printable ASCII
// and newlines, with no space ending a line. Most expected and got values
// are; they are returned as they are.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c > ' ' && c < 0x7F, c == '\n':
		case c == ' ':
			if i+1 == len(s) || s[i+1] == '\n' {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func visible(s string) string {
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	for len(s) > 0 {
		end := strings.IndexByte(s, '\n')
		line := s
		if end >= 0 {
			line = s[:end]
		}
		visibleLine(&b, line)
		if end < 0 {
			break
		}
		b.WriteByte('\n')
		s = s[end+1:]
	}
	return b.String()
}

// visibleLine writes one line (without its newline) in visible form.
func visibleLine(b *strings.Builder, line string) {
	// Spaces are trailing when only spaces and CRs follow them.
	trail := len(strings.TrimRight(line, " \r"))
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRuneInString(line[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(b, "‹0x%02X›", line[i])
		case r == ' ' && i >= trail:
			b.WriteString("␠")
		case r == '\t':
			b.WriteString("→")
		case r == '\r':
			b.WriteString("␍")
		case r == '\u00A0':
			b.WriteString("⍽")
		case suspicious(r):
			fmt.Fprintf(b, "‹U+%04X›", r)
		default:
			b.WriteString(line[i : i+size])
		}
		i += size
	}
}

// suspicious reports whether Visible shows r as a ‹U+XXXX› code: r is
// invisible, a space other than U+0020 and U+00A0, or a typographic
// look-alike of a plain ASCII character, or one of the notation's markers.
func suspicious(r rune) bool {
	switch r {
	case '\u2018', '\u2019', '\u201A', '\u201B', '\u201C', '\u201D', '\u201E', '\u201F',
		'\u2032', '\u2033', '\u2212', '\u2028', '\u2029',
		'␠', '→', '␍', '⍽', '⏎', '‹', '›':
		return true
	case '\t', '\n', '\r', ' ', '\u00A0':
		return false
	}
	if r >= '\u2010' && r <= '\u2015' {
		return true
	}
	return unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Zs, r)
}
