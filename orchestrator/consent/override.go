package consent

import (
	"strings"
	"unicode"
)

// Override reports whether text forces Phase 2: after trimming whitespace,
// its first or last character is '?'. query is text with the marker removed
// where it is a marker and otherwise unchanged: a leading run of '?' and
// whitespace ("? ", "?? ? ") is dropped, and the whitespace in a trailing one
// is closed up ("X ?" → "X?", "X ? ?" → "X??"). Only the ASCII '?' is a
// marker. Text that is nothing but markers ("?", "? ?") has no query to
// search for and is not an override.
func Override(text string) (query string, ok bool) {
	q, rule := override(text)
	return q, rule != ""
}

// override is Override that also names the rule: override.leading when the
// text starts with '?', override.trailing when only its end does, "" when it
// is not an override.
func override(text string) (string, string) {
	t := strings.TrimSpace(text)
	leading := strings.HasPrefix(t, "?")
	trailing := strings.HasSuffix(t, "?")
	if !leading && !trailing {
		return "", ""
	}
	q := t
	if leading {
		q = strings.TrimLeftFunc(q, func(r rune) bool { return r == '?' || unicode.IsSpace(r) })
	}
	if trailing {
		body := strings.TrimRightFunc(q, func(r rune) bool { return r == '?' || unicode.IsSpace(r) })
		q = body + strings.Repeat("?", strings.Count(q[len(body):], "?"))
	}
	if !strings.ContainsFunc(q, isQueryRune) {
		return "", ""
	}
	if leading {
		return q, RuleOverrideLeading
	}
	return q, RuleOverrideTrailing
}

// isQueryRune is a rune a search query can be about.
func isQueryRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.So, r)
}
