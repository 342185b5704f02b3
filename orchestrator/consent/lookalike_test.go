package consent

import (
	"testing"
	"unicode"
)

// TestLookalikes: letters drawn to look like Latin ones read as those
// letters. The forms are the ones of issue 26's look-alike class: NFKC
// folds full-width and mathematical letters (Unicode UAX #15 compatibility
// decompositions), TS #39's confusables.txt maps Cyrillic and Greek
// look-alikes, and small capitals are read by their Unicode names.
func TestLookalikes(t *testing.T) {
	tests := []struct {
		reply string
		want  Intent
	}{
		{"ｙｅｓ", Yes},                // full-width
		{"ＮＯ ＴＨＡＮＫＳ", No},           // full-width capitals
		{"𝐲𝐞𝐬 𝐩𝐥𝐞𝐚𝐬𝐞", Yes},         // mathematical bold
		{"𝓈𝓊𝓇𝑒", Yes},               // mathematical script
		{"ɴᴏᴘᴇ", No},                // small capitals
		{"ʏᴇꜱ", Yes},                // small capitals
		{"y\u0435s", Yes},           // Cyrillic е inside a Latin word
		{"\u0430bsolutely", Yes},    // Cyrillic а
		{"n\u043e thanks", No},      // Cyrillic о
		{"g\u043e \u0430head", Yes}, // Cyrillic о and а
		{"ⓨⓔⓢ", Yes},                // circled letters (NFKC)
		{"ｃａｎ ｙｏｕ ｃｏｎｆｉｒｍ ｔｈａｔ？", SearchNow},
	}
	for _, tt := range tests {
		t.Run(tt.reply, func(t *testing.T) {
			got, rule := Classify(tt.reply)
			if got != tt.want {
				t.Errorf("Classify(%q) = %s by %s (normalized %q), want %s", tt.reply, got, rule, Normalize(tt.reply), tt.want)
			}
		})
	}
}

// TestLookalikeKeepsQuery: a carried question is cut from the reply as
// typed, not from its normalised form.
func TestLookalikeKeepsQuery(t *testing.T) {
	const reply = "ｎｏ, but what is ｘ?"
	d := Decide(reply, true)
	if d.Intent != NewQuery || d.Query != "what is ｘ?" || d.Input != reply {
		t.Errorf("Decide(%q) = %s carrying %q (input %q), want NEW_QUERY carrying %q", reply, d.Intent, d.Query, d.Input, "what is ｘ?")
	}
}

// TestLookalikeTable: every entry maps a folded non-ASCII letter or digit
// to an ASCII lower-case letter, and the TS #39 examples are in it.
func TestLookalikeTable(t *testing.T) {
	for from, to := range lookalike {
		if from < 0x80 || (!unicode.IsLetter(from) && !unicode.IsNumber(from)) || fold(from) != from || to < 'a' || to > 'z' {
			t.Errorf("lookalike[%U] = %q: want a folded non-ASCII letter mapped to a-z", from, to)
		}
	}
	// confusables.txt 13.0.0: 0430 ; 0061 (CYRILLIC SMALL LETTER A → a),
	// 03BF ; 006F (GREEK SMALL LETTER OMICRON → o), 0455 ; 0073 (DZE → s).
	for from, to := range map[rune]rune{0x0430: 'a', 0x03BF: 'o', 0x0455: 's', 0x1D07: 'e'} {
		if lookalike[from] != to {
			t.Errorf("lookalike[%U] = %q, want %q", from, lookalike[from], to)
		}
	}
}
