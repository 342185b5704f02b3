package consent

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestGeneratedWords: every word of lexicon_cldr.yaml that lexicon.yaml does
// not shadow, and that is not yes in one language and no in another once
// read (lexicon.ambiguous), classifies as its class on its own.
func TestGeneratedWords(t *testing.T) {
	var f generatedFile
	if err := yaml.Unmarshal(lexiconCLDR, &f); err != nil {
		t.Fatal(err)
	}
	lx := lex()
	skip := map[string]bool{}
	for _, w := range append(append([]string{}, lx.shadowed...), lx.ambiguous...) {
		skip[w] = true
	}
	if !strings.HasPrefix(lx.source, "npm cldr-misc-full ") {
		t.Errorf("source = %q, want the npm package and its version", lx.source)
	}
	n := 0
	for _, li := range []struct {
		words []genWord
		want  Intent
	}{{f.Yes, Yes}, {f.No, No}} {
		for _, w := range li.words {
			if skip[w.Word] || lx.entries[keyOf(w.Word)] == clAmbiguous {
				continue
			}
			n++
			if got, rule := Classify(w.Word); got != li.want {
				t.Errorf("Classify(%q) (%v) = %s by %s, want %s", w.Word, w.Langs, got, rule, li.want)
			}
		}
	}
	if n < 300 {
		t.Errorf("only %d generated words checked; want the whole CLDR list", n)
	}
	t.Logf("%d generated words; %d shadowed by lexicon.yaml, %d ambiguous", n, len(lx.shadowed), len(lx.ambiguous))
}

// keyOf is the lexicon key of a phrase.
func keyOf(s string) string {
	var keys []string
	for _, t := range tokenize(s, nil) {
		keys = append(keys, t.key)
	}
	return strings.Join(keys, " ")
}
