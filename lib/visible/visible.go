// Package visible keeps text that came from outside (model output, web
// content, provider errors) inert on a terminal, in a CI log and in
// Markdown: control characters that a terminal obeys (ESC sequences that
// set a window title, write the clipboard or clear the screen; a carriage
// return that overwrites a line; a backspace) and the bidirectional
// formatting characters that reorder what a reader sees (U+202E
// RIGHT-TO-LEFT OVERRIDE) are shown as visible escapes, "\x1b" and
// "\u202e", and a line that would start a GitHub Actions workflow command
// ("::set-output", "::add-mask::") is defused.
//
// String makes one piece of text inert; Writer does it to a stream,
// letting through the few sequences searchbench itself writes (colours,
// the progress bar's line erase and carriage return).
package visible

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// IsControl reports whether r is shown escaped: a C0 control other than
// newline and tab, DEL, a C1 control, or a bidirectional formatting
// character (the embeddings, overrides and isolates, the marks LRM, RLM
// and ALM).
func IsControl(r rune) bool {
	switch {
	case r < 0x20:
		return r != '\n' && r != '\t'
	case r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	}
	return IsBidi(r)
}

// IsBidi reports whether r is a bidirectional formatting character.
func IsBidi(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f || r == 0x061c
}

// escape is r as it is shown: \xNN below U+0100, \uNNNN above.
func escape(r rune) string {
	if r < 0x100 {
		return fmt.Sprintf(`\x%02x`, r)
	}
	return fmt.Sprintf(`\u%04x`, r)
}

// commandLead is what a line starting a workflow command shows instead of
// its first colon.
const commandLead = `\x3a`

// String returns s with every control character (IsControl) escaped and
// every line that would start a workflow command ("::", after spaces)
// defused. Text without any is returned as is.
func String(s string) string {
	if !needs(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	lineStart := true
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case lineStart && (r == ' ' || r == '\t'):
			b.WriteRune(r)
		case lineStart && strings.HasPrefix(s[i:], "::"):
			b.WriteString(commandLead)
			lineStart = false
		case r == utf8.RuneError && n == 1:
			b.WriteString(escape(rune(s[i])))
			lineStart = false
		case IsControl(r):
			b.WriteString(escape(r))
			lineStart = false
		default:
			b.WriteRune(r)
			lineStart = r == '\n'
		}
		i += n
	}
	return b.String()
}

// needs reports whether String would change s.
func needs(s string) bool {
	lineStart := true
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case lineStart && (c == ' ' || c == '\t'):
			case lineStart && c == ':' && i+1 < len(s) && s[i+1] == ':':
				return true
			case c < 0x20 && c != '\n' && c != '\t', c == 0x7f:
				return true
			default:
				lineStart = c == '\n'
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || IsControl(r) {
			return true
		}
		lineStart = false
		i += n
	}
	return false
}
