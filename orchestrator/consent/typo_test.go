package consent

import (
	"bufio"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/lib/testenv"
)

func TestSlip(t *testing.T) {
	tests := []struct {
		typed, word string
		want        bool
	}{
		{"yse", "yes", true},   // swap
		{"eys", "yes", true},   // swap at the start
		{"yws", "yes", true},   // w is beside e
		{"yet", "yes", false},  // t is not beside s
		{"tes", "yes", false},  // the first letter is never replaced in a short word
		{"yeas", "yes", true},  // a beside s
		{"yeps", "yes", false}, // p is beside neither e nor s
		{"ye", "yes", false},   // nothing left out of a 3-letter word
		{"ahed", "ahead", true},
		{"hure", "sure", false}, // the first letter left out: no
		{"ure", "sure", false},
		{"suer", "sure", true},
		{"sire", "sure", false}, // i is beside u but is on not_typos? no: slip says yes, see below
		{"definately", "definitely", true},
		{"nevermnd", "nevermind", true},
		{"okay", "okay", false}, // no slip at all
		{"yes", "yesterday", false},
	}
	for _, tt := range tests {
		if tt.typed == "sire" {
			tt.want = true // i and u are neighbours: a slip; "sire" is kept by not_typos
		}
		if got := slip(tt.typed, tt.word); got != tt.want {
			t.Errorf("slip(%q, %q) = %v, want %v", tt.typed, tt.word, got, tt.want)
		}
	}
}

// TestNoDictionaryWordCorrected runs every word of the system word list
// (Debian's wamerican: a list nobody here wrote) through the corrector. A
// real word must never be read as a lexicon word it merely resembles, so
// every word it corrects must be on the lexicon's not_typos list, which
// this test keeps complete and minimal.
func TestNoDictionaryWordCorrected(t *testing.T) {
	const path = "/usr/share/dict/words"
	testenv.File(t, "words", path, "wamerican")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lx := lex()
	var corrected []string
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		w := strings.TrimSpace(sc.Text())
		if w == "" || strings.ContainsAny(w, "'") || w != strings.ToLower(w) {
			continue // possessives and proper names
		}
		toks := tokenize(w, nil)
		if len(toks) != 1 || toks[0].kind != tokWord {
			continue
		}
		key := toks[0].key
		if seen[key] {
			continue
		}
		seen[key] = true
		if _, known := lx.canon[key]; known {
			continue
		}
		lx.notTypos[key] = false
		if c := lx.correct(key); c != "" {
			corrected = append(corrected, key+"→"+c+"→"+w)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	lx2, _ := loadLexicon(lexiconYAML, "lexicon.yaml")
	var missing, words []string
	for _, c := range corrected {
		parts := strings.Split(c, "→")
		k := parts[0]
		words = append(words, k)
		if !lx2.notTypos[k] {
			missing = append(missing, parts[2]+" (read as "+parts[1]+")")
		}
	}
	if len(missing) > 0 {
		t.Errorf("%d dictionary words are corrected to lexicon words; add them to not_typos in lexicon.yaml:\n  - %s", len(missing), strings.Join(missing, "\n  - "))
	}
	for k := range lx2.notTypos {
		if !slices.Contains(words, k) {
			t.Errorf("not_typos entry %q is not a dictionary word the corrector would change; remove it", k)
		}
	}
}
