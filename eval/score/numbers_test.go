package score

import (
	"strings"
	"testing"

	"github.com/searchbench/searchbench/lib/quantity"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

func TestClaimValues(t *testing.T) {
	for _, tt := range []struct {
		text  string
		want  string // the first value's text
		soft  bool
		dir   int
		said  string
		count int
	}{
		{text: "The model has 175B parameters.", want: "175B", count: 1},
		{text: "Go 1.0 was released in March 2012.", want: "1.0", count: 2}, // the month is a soft date
		{text: "The 50% target was met.", want: "50%", dir: 1, said: "was met", count: 1},
		{text: "Turnout crossed the 50% threshold.", want: "50%", dir: 1, said: "was crossed", count: 1},
		{text: "Inflation fell below 2% in September.", want: "2%", dir: -1, said: "it is below", count: 1},
		{text: "It fell short of the 50% target.", want: "50%", dir: -1, said: "it is short of", count: 1},
		{text: "The 50% target was not met.", want: "50%", dir: -1, said: "was not met", count: 1},
		{text: "It did not reach the 50% target.", want: "50%", dir: -1, said: "was not reached", count: 1},
		{text: "At least 52% voted in favour.", want: "52%", dir: 1, said: "it is at least", count: 1},
		{text: "Revenue rose 17% to $61.9bn.", want: "17%", count: 2},
		{text: "Roughly reached about 50%.", want: "50%", count: 1}, // approximate: no threshold
		{text: "Two thirds of voters agreed.", want: "Two thirds", soft: true, count: 1},
		{text: "It was founded in 2007.", count: 0}, // a year is a year token
		// The phrase after a value is read in a window (quantity.After):
		// a long text after it changes nothing.
		{text: "The 50% target was not met. " + strings.Repeat("Nothing more to say here. ", 40), want: "50%", dir: -1, said: "was not met", count: 1},
	} {
		cs := claimValues(tt.text)
		if len(cs) != tt.count {
			t.Errorf("%q: %d values %v, want %d", tt.text, len(cs), cs, tt.count)
			continue
		}
		if tt.count == 0 {
			continue
		}
		c := cs[0]
		if c.Text != tt.want || c.soft != tt.soft || c.dir != tt.dir || c.said != tt.said {
			t.Errorf("%q: %q soft=%v dir=%d said=%q, want %q soft=%v dir=%d said=%q", tt.text, c.Text, c.soft, c.dir, c.said, tt.want, tt.soft, tt.dir, tt.said)
		}
	}
}

func TestClaimWords(t *testing.T) {
	text := "Equinor reported a profit. The robot, built in Oslo by a team of forty engineers over six years of work, weighs 118 lb and walks. It sold well."
	i := strings.Index(text, "118 lb")
	got := claimWords(text, i, i+len("118 lb"))
	if !strings.Contains(got, "weighs 118 lb and walks.") || strings.Contains(got, "Equinor") || strings.Contains(got, "sold") || len(got) > 100 {
		t.Errorf("claimWords = %q", got)
	}
}

// TestValuesOfResolvesDates: an ambiguous numeric date is read in its
// source's order, by domain, then by language, else either way.
func TestValuesOfResolvesDates(t *testing.T) {
	g := &grounded{}
	for _, tt := range []struct {
		url, snippet, want string
	}{
		{"https://www.gov.uk/news", "Published 03/09/2024.", "2024-09-03"},
		{"https://www.census.gov/release", "Release Date: 03/09/2024.", "2024-03-09"},
		{"https://example.com/de", "Die Regierung hat am 03/09/2024 den Entwurf für den Haushalt beschlossen.", "2024-09-03"},
		{"https://example.com/en", "Posted 03/09/2024.", "2024-03-09 or 2024-09-03"},
	} {
		vs := g.valuesOf(trace.Retrieved{URL: tt.url, Snippet: tt.snippet}).vals
		var got []string
		for _, v := range vs {
			if v.Kind == quantity.Date {
				got = append(got, v.Date.String())
			}
		}
		if len(got) != 1 || got[0] != tt.want {
			t.Errorf("%s %q: dates %v, want %s", tt.url, tt.snippet, got, tt.want)
		}
	}
}

// FuzzValues: reading a bullet's values never panics, spans stay inside
// the text, the claim's words are valid text, and the URL key is
// idempotent.
func FuzzValues(f *testing.F) {
	f.Add("GPT-3 has 175B parameters, 1,200,000 documents and 20 percent on 2 August 2024.")
	f.Add("The 50% target was met; it weighs 118 lb a week, €1 = $1.09, KW 36, 4-3/4 to 5 percent.")
	f.Add("HTTP://EUR-Lex.europa.eu:443/a/./b/../c%7e?utm_source=x#f")
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range claimValues(s) {
			if c.Start < 0 || c.End > len(s) || s[c.Start:c.End] != c.Text || c.Tol < 0 {
				t.Fatalf("value %+v of %q", c.Value, s)
			}
			if c.dir < -1 || c.dir > 1 || (c.dir != 0) != (c.said != "") {
				t.Fatalf("threshold %d %q of %q", c.dir, c.said, s)
			}
		}
		if k := sameSourceKey(s); sameSourceKey(k) != k {
			t.Fatalf("sameSourceKey not idempotent on %q: %q then %q", s, k, sameSourceKey(k))
		}
	})
}
