package answer

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/searchbench/searchbench/lib/textdiff"
	"github.com/searchbench/searchbench/lib/visible"
)

// line is one line of a message: text is msg[start:end] without its "\n";
// nl says whether a "\n" follows it.
type line struct {
	start, end int
	text       string
	nl         bool
}

// splitLines splits msg at "\n". A final line without a newline is kept; a
// message ending in "\n" has no empty line after it.
func splitLines(msg string) []line {
	var ls []line
	for start := 0; start < len(msg); {
		end := strings.IndexByte(msg[start:], '\n')
		if end < 0 {
			ls = append(ls, line{start: start, end: len(msg), text: msg[start:]})
			break
		}
		ls = append(ls, line{start: start, end: start + end, text: msg[start : start+end], nl: true})
		start += end + 1
	}
	return ls
}

// bare is the line without a trailing CR: CRLF endings are reported once as
// text.carriage_return, not again on every structural line.
func (l line) bare() string { return strings.TrimSuffix(l.text, "\r") }

// lineNo formats a 1-based line location.
func lineNo(i int) string { return fmt.Sprintf("line %d", i+1) }

// isBlank reports whether s holds nothing visible: spaces of any kind,
// tabs, CRs and zero-width characters only.
func isBlank(s string) bool {
	return strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) }) == ""
}

// fold maps s to a form in which look-alikes compare equal: compatibility
// normalisation (NFKC: NBSP and other spaces become spaces), format
// characters (zero-width, BOM, bidi) removed, dashes to "-", typographic
// quotes to ASCII, markdown emphasis and heading marks removed, whitespace
// collapsed, lower case. Two lines that fold equal but differ are reported
// as a mismatch of the expected line rather than as a missing one.
func fold(s string) string {
	s = norm.NFKC.String(s)
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case unicode.Is(unicode.Cf, r):
			continue
		case unicode.IsSpace(r):
			space = true
			continue
		case r == '#' || r == '*' || r == '_':
			continue
		case unicode.Is(unicode.Pd, r) || r == '\u2212':
			r = '-'
		case r == '\u2018' || r == '\u2019' || r == '\u201A' || r == '\u201B' || r == '\u2032' || r == '`' || r == '\u00B4':
			r = '\''
		case r == '\u201C' || r == '\u201D' || r == '\u201E' || r == '\u201F' || r == '\u2033':
			r = '"'
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// countWords counts the words of s: runs of non-space characters that hold
// at least one letter or digit, so "state-of-the-art" is one word and a
// lone dash is none.
func countWords(s string) int {
	n := 0
	for _, f := range strings.Fields(s) {
		if strings.IndexFunc(f, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			n++
		}
	}
	return n
}

// invisibleIn lists, in visible notation, the invisible characters of s
// (each distinct one once, in order of appearance): NBSP and other non-ASCII
// spaces, format characters (zero-width, BOM, bidi controls) and control
// characters other than tab and CR.
func invisibleIn(s string) []string {
	var out []string
	var seen map[rune]bool
	for _, r := range s {
		if r >= ' ' && r < 0x7f || r == '\t' || r == '\r' || seen[r] {
			continue // printable ASCII, the bulk of any message, is never invisible
		}
		if r == utf8.RuneError || !(unicode.Is(unicode.Zs, r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Cc, r) || r == '\u2028' || r == '\u2029') {
			continue
		}
		if seen == nil {
			seen = map[rune]bool{}
		}
		seen[r] = true
		out = append(out, textdiff.Visible(string(r)))
	}
	return out
}

// textFindings reports message-wide character problems: CR line endings
// (once, at the first line with a CR) and invisible characters (per line).
func textFindings(ls []line) []Finding {
	var fs []Finding
	crLines, firstCR := 0, -1
	for i, l := range ls {
		if strings.Contains(l.text, "\r") {
			crLines++
			if firstCR < 0 {
				firstCR = i
			}
		}
	}
	if crLines > 0 {
		fs = append(fs, finding("text.carriage_return", lineNo(firstCR),
			fmt.Sprintf("%d line(s) contain CR (␍), e.g. CRLF line endings; the layout uses \"\\n\" only", crLines)))
	}
	for i, l := range ls {
		if inv := invisibleIn(l.text); len(inv) > 0 {
			fs = append(fs, finding("text.invisible", lineNo(i),
				"invisible characters: "+strings.Join(inv, " ")))
		}
	}
	return fs
}

// quote shows s in a message: visible notation, then Go quoting.
func quote(s string) string { return fmt.Sprintf("%q", textdiff.Visible(s)) }

// hasLineBreak reports whether s contains a character that ends a line.
// controlChar returns the first control or bidirectional formatting
// character of s (visible.IsControl) that is not a line break, which
// field.line_break reports.
func controlChar(s string) (rune, bool) {
	for _, r := range s {
		if visible.IsControl(r) && !hasLineBreak(string(r)) || r == '\t' {
			return r, true
		}
	}
	return 0, false
}

func hasLineBreak(s string) bool {
	return strings.ContainsAny(s, "\n\r\v\f\u0085\u2028\u2029")
}
