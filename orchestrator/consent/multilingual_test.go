package consent

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/lib/golden"
)

// multilingualFile is the held-out set generated from glibc's locales
// (gen/glibc.go): a source the lexicon, built from CLDR, does not use.
// multilingualFloor is what the rules alone measure on it for the covered
// languages (93.8%), rounded down: a regression floor, not
// the 97% target of issue 26, which the rules do not reach (README, Consent,
// says why: glibc and CLDR often name different words for one language).
const (
	multilingualFile  = "../../datasets/consent-multilingual.yaml"
	multilingualFloor = 0.93
)

// langOf returns a case's lang: tag.
func langOf(c datasetCase) string {
	for _, t := range c.Tags {
		if l, ok := strings.CutPrefix(t, "lang:"); ok {
			return l
		}
	}
	return ""
}

type score struct{ n, right int }

func (s score) String() string {
	if s.n == 0 {
		return "–"
	}
	return fmt.Sprintf("%d/%d", s.right, s.n)
}

func (s score) pct() string {
	if s.n == 0 {
		return "–"
	}
	return fmt.Sprintf("%d/%d = %.1f%%", s.right, s.n, 100*float64(s.right)/float64(s.n))
}

// multilingualTable scores the multilingual held-out set with the rules
// alone, per language and per class, for the languages the lexicon covers,
// and in one line for the others.
func multilingualTable(t *testing.T) (string, score) {
	cases := loadCasesLabels(t, multilingualFile, 500, []Intent{Yes, No, NewQuery})
	covered := lex().covered()
	classes := []Intent{Yes, No, NewQuery}
	byLang := map[string]map[Intent]*score{}
	var cov, other score
	perClass := map[Intent]*score{}
	var misses []string
	for _, c := range cases {
		lang := langOf(c)
		if byLang[lang] == nil {
			byLang[lang] = map[Intent]*score{}
			for _, k := range classes {
				byLang[lang][k] = &score{}
			}
		}
		got, rule := Classify(c.Reply)
		ok := got == c.Label
		s := byLang[lang][c.Label]
		s.n++
		tot := &other
		if covered[lang] {
			tot = &cov
			if perClass[c.Label] == nil {
				perClass[c.Label] = &score{}
			}
			perClass[c.Label].n++
			if ok {
				perClass[c.Label].right++
			} else {
				misses = append(misses, fmt.Sprintf("%s: %q = %s by %s, labelled %s", c.ID, c.Reply, got, rule, c.Label))
			}
		}
		tot.n++
		if ok {
			s.right++
			tot.right++
		}
	}
	for _, m := range misses {
		t.Logf("miss %s", m)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "| languages | YES | NO | NEW_QUERY | all |\n|---|---|---|---|---|\n")
	fmt.Fprintf(&b, "| covered by the lexicon (%d) | %s | %s | %s | **%s** |\n", countCovered(byLang, covered, true),
		deref(perClass[Yes]), deref(perClass[No]), deref(perClass[NewQuery]), cov.pct())
	fmt.Fprintf(&b, "| not covered (%d) | | | | %s |\n\n", countCovered(byLang, covered, false), other.pct())
	b.WriteString("Per covered language (rules alone):\n\n")
	langs := slices.Sorted(func(yield func(string) bool) {
		for l := range byLang {
			if covered[l] && !yield(l) {
				return
			}
		}
	})
	// Languages in rows of four, to keep the table short.
	b.WriteString("| lang | YES NO NEW | lang | YES NO NEW | lang | YES NO NEW | lang | YES NO NEW |\n|---|---|---|---|---|---|---|---|\n")
	for i := 0; i < len(langs); i += 4 {
		b.WriteString("|")
		for j := i; j < i+4; j++ {
			if j >= len(langs) {
				b.WriteString(" | |")
				continue
			}
			s := byLang[langs[j]]
			fmt.Fprintf(&b, " %s | %s %s %s |", langs[j], s[Yes], s[No], s[NewQuery])
		}
		b.WriteString("\n")
	}
	return b.String(), cov
}

func deref(s *score) score {
	if s == nil {
		return score{}
	}
	return *s
}

func countCovered(byLang map[string]map[Intent]*score, covered map[string]bool, want bool) int {
	n := 0
	for l := range byLang {
		if covered[l] == want {
			n++
		}
	}
	return n
}

// TestMultilingual: the rules alone read at least multilingualFloor of the
// multilingual held-out set right for the languages the lexicon covers. The
// table is kept in testdata/multilingual.md and the README.
func TestMultilingual(t *testing.T) {
	table, cov := multilingualTable(t)
	golden.Check(t, "testdata/multilingual.md", []byte(table))
	readme, err := os.ReadFile(readmeFile)
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- consent-multilingual:begin -->\n", "<!-- consent-multilingual:end -->"
	_, rest, ok := strings.Cut(string(readme), begin)
	inReadme, _, ok2 := strings.Cut(rest, end)
	if !ok || !ok2 || inReadme != table {
		t.Errorf("%s's multilingual table is missing or out of date; paste testdata/multilingual.md between %q and %q", readmeFile, strings.TrimSpace(begin), end)
	}
	acc := float64(cov.right) / float64(cov.n)
	t.Logf("%s, covered languages: %s", multilingualFile, cov.pct())
	if acc < multilingualFloor {
		t.Errorf("multilingual held-out accuracy for covered languages %s, below the %.0f%% floor", cov.pct(), 100*multilingualFloor)
	}
}
