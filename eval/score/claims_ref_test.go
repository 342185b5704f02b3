package score

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The regular expressions claimTokens was first written with: the
// reference its hand-written scanners must agree with.
var (
	refPercentRE = regexp.MustCompile(`\d+(?:[.,]\d+)?\s?(?:%|per ?cent\b)`)
	refNumberRE  = regexp.MustCompile(`\d[\d,]*(?:\.\d+)?`)
	refYearRE    = regexp.MustCompile(`^(1[5-9]\d\d|20\d\d)$`)
	refWordRE    = regexp.MustCompile(`[\p{L}][\p{L}\p{N}'’.&-]*`)
)

// claimTokensReference is claimTokens as first written, with the regexp
// package.
func claimTokensReference(text string) []claimToken {
	var out []claimToken
	seen := map[string]bool{}
	add := func(t claimToken) {
		if !seen[t.Text] {
			seen[t.Text] = true
			out = append(out, t)
		}
	}
	rest := text
	for _, m := range refPercentRE.FindAllString(text, -1) {
		add(claimToken{m, tokPercent})
		rest = strings.Replace(rest, m, " ", 1)
	}
	for _, m := range refNumberRE.FindAllString(rest, -1) {
		m = strings.TrimRight(m, ",.")
		switch {
		case refYearRE.MatchString(m):
			add(claimToken{m, tokYear})
		case len(strings.Trim(m, ",.")) >= 2:
			add(claimToken{m, tokNumber})
		}
	}
	var run []string
	flush := func() {
		for len(run) > 0 && nameStop[run[0]] {
			run = run[1:]
		}
		if len(run) >= 2 {
			add(claimToken{strings.Join(run, " "), tokName})
		}
		run = run[:0]
	}
	lastEnd := 0
	for _, loc := range refWordRE.FindAllStringIndex(text, -1) {
		w := strings.TrimRight(text[loc[0]:loc[1]], ".’'")
		r, _ := utf8.DecodeRuneInString(w)
		if strings.TrimSpace(text[lastEnd:loc[0]]) != "" {
			flush()
		}
		lastEnd = loc[1]
		if unicode.IsUpper(r) {
			run = append(run, w)
			if strings.HasSuffix(text[loc[0]:loc[1]], ".") && !isInitial(w) {
				flush()
			}
			continue
		}
		flush()
	}
	flush()
	return out
}

// claimSamples exercise each pattern's edges: decimal parts tried both
// ways, the optional space, "per cent" against "percentage", years at the
// range ends, thousands separators, trailing dots and commas, initials,
// apostrophes, non-Latin letters and numbers, invalid UTF-8.
var claimSamples = []string{
	"Inflation rose 3.5% in 2023, per Statistics Canada.",
	"12.5.3% and 7,5 % and 40 per cent and 40 percent and 40 percentage and 40 per centum and 9percent_x",
	"1499 1500 1999 2000 2099 2100 20 2 1,000,000 1,000. 3.14. 3. .5 ,7, 12,",
	"5\t%, 5\n%, 5\v%, 5\u00a0%, 5  %, 50% 50%",
	"J. R. R. Tolkien met Jean-Luc Picard at O'Neill & Sons Ltd. in New York City. The Big Apple.",
	"Angela Merkel’s Isar, Emsland and Grafenrheinfeld plants; São Paulo; Ελληνική Δημοκρατία; 東京 都",
	"Ⅻ Roman ² superscript ٣ arabic-indic 12٣4 digits",
	"bad\xffbyte Capital\xffWord 1\xff2% per\xffcent",
	"", "%", "per cent", "A", "1", "10", "a1b22c333",
}

func TestClaimTokensMatchRegexps(t *testing.T) {
	for _, s := range claimSamples {
		if got, want := claimTokens(s), claimTokensReference(s); !slices.Equal(got, want) {
			t.Errorf("claimTokens(%q)\n = %v\nthe regexps give\n   %v", s, got, want)
		}
	}
}

func FuzzClaimTokens(f *testing.F) {
	for _, s := range claimSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := claimTokens(s), claimTokensReference(s); !slices.Equal(got, want) {
			t.Fatalf("claimTokens(%q)\n = %v\nthe regexps give\n   %v", s, got, want)
		}
	})
}

// normTextReference and normTitleReference are normText and normTitle
// without their ASCII fast path.
func normTextReference(s string) string {
	s = norm.NFKC.String(s)
	s = typographic.Replace(s)
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

func normTitleReference(s string) string {
	s = normTextReference(s)
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) }), " ")
}

var foldSamples = []string{
	"", " ", "Hello,  World!\n", "\tTabs\vand\fFeeds\r\n", "Title | Site - Page_2 (2024)", "UPPER lower 123",
	"x\x00y\x7fz", "Caf\u00e9 \u2019quoted\u2019 \u2013 dash\u00a0nbsp", "ﬁ ligature ①", "ASCII then é",
}

func TestFoldMatchesReference(t *testing.T) {
	for _, s := range foldSamples {
		if got, want := normText(s), normTextReference(s); got != want {
			t.Errorf("normText(%q) = %q, want %q", s, got, want)
		}
		if got, want := normTitle(s), normTitleReference(s); got != want {
			t.Errorf("normTitle(%q) = %q, want %q", s, got, want)
		}
	}
}

func FuzzFold(f *testing.F) {
	for _, s := range foldSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := normText(s), normTextReference(s); got != want {
			t.Fatalf("normText(%q) = %q, want %q", s, got, want)
		}
		if got, want := normTitle(s), normTitleReference(s); got != want {
			t.Fatalf("normTitle(%q) = %q, want %q", s, got, want)
		}
	})
}
