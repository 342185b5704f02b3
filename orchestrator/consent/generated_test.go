package consent

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestGeneratedWords: every one-word entry of the generated files that the
// lexicon reads as written — not shadowed by lexicon.yaml, not yes in one
// language and no in another, not an English word only one file gives —
// classifies as its class on its own.
func TestGeneratedWords(t *testing.T) {
	lx := lex()
	if len(lx.sources) != 2 || !strings.HasPrefix(lx.sources[0], "npm cldr-misc-full ") || !strings.HasPrefix(lx.sources[1], "Debian ") {
		t.Errorf("sources = %q, want the npm package and the Debian packages with their versions", lx.sources)
	}
	n, skipped, deferred := 0, 0, 0
	for _, g := range generatedFiles {
		var f generatedFile
		if err := yaml.Unmarshal(g.data, &f); err != nil {
			t.Fatal(err)
		}
		for _, li := range []struct {
			words []genWord
			want  Intent
		}{{f.Yes, Yes}, {f.No, No}} {
			for _, w := range li.words {
				toks := tokenize(w.Word, nil)
				if len(toks) != 1 {
					continue // phrases: TestDataset and the held-out sets read them
				}
				e := toks[0].exact
				if k, ok := lx.exact[e]; !ok || !lx.exactGenerated[e] || k == clAmbiguous || lx.resolvedExact[e] {
					skipped++
					continue
				}
				n++
				got, rule := Classify(w.Word)
				if rule == RuleDeferLanguage {
					// Too short to tell its language, or a word of
					// another class in another language: the model
					// decides (language.go). Never the other class.
					deferred++
					continue
				}
				if got != li.want {
					t.Errorf("%s: Classify(%q) (%v) = %s by %s, want %s", g.name, w.Word, w.Langs, got, rule, li.want)
				}
			}
		}
	}
	if n < 400 {
		t.Errorf("only %d generated words checked; want both files", n)
	}
	if 4*deferred > n {
		t.Errorf("%d of %d generated words deferred to the model; want at most a quarter", deferred, n)
	}
	t.Logf("%d generated words read as written (%d of them deferred to the model), %d skipped (shadowed, ambiguous, decided by speakers, or English words one source gives)", n, deferred, skipped)
}

// keyOf is the lexicon key of a phrase.
func keyOf(s string) string {
	var keys []string
	for _, t := range tokenize(s, nil) {
		keys = append(keys, t.key)
	}
	return strings.Join(keys, " ")
}

// TestResolveConflicts: a word yes in some languages and no in others is
// read as no when its no-languages have ten times the speakers; a yes
// majority, a nearer conflict or a language with no figure leave it
// ambiguous. The real table names its source.
func TestResolveConflicts(t *testing.T) {
	if !strings.HasPrefix(lex().speakersSource, "npm cldr-core ") {
		t.Errorf("speakers source = %q, want the npm package and its version", lex().speakersSource)
	}
	words := `source: test
yes:
  - {word: "zanu", langs: [small]}
  - {word: "zeku", langs: [big]}
  - {word: "zoba", langs: [mid]}
  - {word: "zilu", langs: [small]}
no:
  - {word: "zanu", langs: [big]}
  - {word: "zeku", langs: [small]}
  - {word: "zoba", langs: [big]}
  - {word: "zilu", langs: [nobody]}
`
	speakers := "source: test\nspeakers: {small: 10, mid: 20, big: 200}\nunknown: [nobody]\n"
	l, err := loadLexicon(lexiconYAML, "lexicon.yaml")
	if err == nil {
		err = l.addGenerated([]byte(words), "words")
	}
	if err == nil {
		err = l.resolveConflicts([]byte(speakers), "speakers")
	}
	if err != nil {
		t.Fatal(err)
	}
	for w, want := range map[string]class{"zanu": clNo, "zeku": clAmbiguous, "zoba": clNo, "zilu": clAmbiguous} {
		if got := l.entries[w]; got != want {
			t.Errorf("entries[%q] = %d, want %d", w, got, want)
		}
		if got := l.exact[w]; got != want {
			t.Errorf("exact[%q] = %d, want %d", w, got, want)
		}
	}
}
