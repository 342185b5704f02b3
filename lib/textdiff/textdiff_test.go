package textdiff

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestVisible(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "a b\nc", "a b\nc"},
		{"trailing spaces", "a  \nb ", "a␠␠\nb␠"},
		{"trailing space before CR", "a \r\nb", "a␠␍\nb"},
		{"tab", "a\tb", "a→b"},
		{"nbsp", "a\u00a0b", "a⍽b"},
		{"zero-width", "a\u200bb\u200dc\ufeff", "a‹U+200B›b‹U+200D›c‹U+FEFF›"},
		{"smart quotes", "‘a’ “b”", "‹U+2018›a‹U+2019› ‹U+201C›b‹U+201D›"},
		{"dashes", "a–b—c−d", "a‹U+2013›b‹U+2014›c‹U+2212›d"},
		{"other spaces", "a\u2009b\u3000c", "a‹U+2009›b‹U+3000›c"},
		{"markers are escaped", "→␠⍽‹›", "‹U+2192›‹U+2420›‹U+237D›‹U+2039›‹U+203A›"},
		{"control", "a\x00b\x1bc", "a‹U+0000›b‹U+001B›c"},
		{"invalid UTF-8", "a\xffb", "a‹0xFF›b"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Visible(tt.in); got != tt.want {
				t.Errorf("Visible(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// FuzzVisiblePlain: the shortcut for plain text is taken only for text the
// general path leaves as it is.
func FuzzVisiblePlain(f *testing.F) {
	for _, s := range []string{"a b\nc", "a \nb", "a ", " a", "a  b\n\n", "\x7f", "~ \n", "a\r\n", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if plain(s) && visible(s) != s {
			t.Errorf("plain(%q), but the general path gives %q", s, visible(s))
		}
		if !plain(s) && visible(s) == s && isPrintableASCII(s) {
			t.Errorf("%q is printable ASCII the general path leaves alone, but not plain", s)
		}
	})
}

// isPrintableASCII reports whether s holds only printable ASCII and
// newlines.
func isPrintableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < ' ' || c > '~') && c != '\n' {
			return false
		}
	}
	return true
}

func TestCompare(t *testing.T) {
	tests := []struct {
		name           string
		want, got      string
		off, line, col int
		wantL, gotL    string
		diffHas        []string
	}{
		{name: "trailing space", want: "- a\n- b", got: "- a \n- b", off: 3, line: 1, col: 4,
			wantL: "- a⏎", gotL: "- a␠⏎", diffHas: []string{"-- a\n", "+- a␠\n"}},
		{name: "curly apostrophe at its first byte", want: "I haven’t", got: "I haven't", off: 7, line: 1, col: 8,
			wantL: "I haven‹U+2019›t", gotL: "I haven't"},
		{name: "two curly quotes share two bytes", want: "x‘", got: "x’", off: 1, line: 1, col: 2,
			wantL: "x‹U+2018›", gotL: "x‹U+2019›"},
		{name: "missing final newline", want: "Sources:\n", got: "Sources:", off: 8, line: 1, col: 9,
			wantL: "Sources:⏎", gotL: "Sources:", diffHas: []string{`\ No newline at end of file`}},
		{name: "CRLF", want: "a\nb", got: "a\r\nb", off: 1, line: 1, col: 2, wantL: "a⏎", gotL: "a␍⏎"},
		{name: "got shorter", want: "a\nb\nc", got: "a\n", off: 2, line: 2, col: 1, wantL: "b⏎", gotL: ""},
		{name: "column counts characters", want: "é–x", got: "é-x", off: 2, line: 1, col: 2,
			wantL: "é‹U+2013›x", gotL: "é-x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := Compare(tt.want, tt.got)
			if m == nil {
				t.Fatal("Compare = nil for different texts")
			}
			if m.Offset != tt.off || m.Line != tt.line || m.Col != tt.col || m.Want != tt.wantL || m.Got != tt.gotL {
				t.Errorf("Compare = {Offset:%d Line:%d Col:%d Want:%q Got:%q}, want {%d %d %d %q %q}",
					m.Offset, m.Line, m.Col, m.Want, m.Got, tt.off, tt.line, tt.col, tt.wantL, tt.gotL)
			}
			if !strings.HasPrefix(m.Diff, "--- want\n+++ got\n") {
				t.Errorf("Diff has no labels:\n%s", m.Diff)
			}
			for _, s := range tt.diffHas {
				if !strings.Contains(m.Diff, s) {
					t.Errorf("Diff lacks %q:\n%s", s, m.Diff)
				}
			}
		})
	}
	if m := Compare("same", "same"); m != nil {
		t.Errorf("Compare of equal texts = %+v", m)
	}
}

func TestMismatchStringExcerpt(t *testing.T) {
	long := strings.Repeat("–", 60) + "x" + strings.Repeat("y", 100)
	m := Compare(long, strings.Replace(long, "x", "z", 1))
	s := m.String()
	if !strings.Contains(s, "x") || !strings.Contains(s, "z") {
		t.Errorf("excerpt lost the difference: %s", s)
	}
	if n := utf8.RuneCountInString(s); n > 300 {
		t.Errorf("summary is %d characters long: %s", n, s)
	}
}

// FuzzCompare checks Compare's contract on arbitrary pairs.
func FuzzCompare(f *testing.F) {
	f.Add("a\nb", "a \nb")
	f.Add("I haven’t", "I haven't")
	f.Add("", "x")
	f.Fuzz(func(t *testing.T, want, got string) {
		m := Compare(want, got)
		if (m == nil) != (want == got) {
			t.Fatalf("Compare nil=%v for equal=%v", m == nil, want == got)
		}
		if m == nil {
			return
		}
		if m.Offset > len(want) || m.Offset > len(got) || want[:m.Offset] != got[:m.Offset] {
			t.Fatalf("offset %d is past the common prefix of %q and %q", m.Offset, want, got)
		}
		if m.Line < 1 || m.Col < 1 || m.Diff == "" {
			t.Fatalf("bad mismatch %+v", m)
		}
		_ = m.String()
	})
}
