package consent

import (
	"os"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/orchestrator/trace"
)

func TestLexiconLoads(t *testing.T) {
	l, err := loadLexicon(lexiconYAML, "lexicon.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(l.entries) < 100 || len(l.emoji) < 10 {
		t.Errorf("lexicon has %d entries and %d emoji; expected the full lists", len(l.entries), len(l.emoji))
	}
}

func TestLoadLexiconErrors(t *testing.T) {
	const lists = "polite: [please]\nnegators: [not]\nsearch_now: [check]\nfiller: [thanks]\nconnectives: [but]\nnew_question: [btw]\n"
	tests := []struct {
		name string
		yaml string
		want []string // every one must appear in the error
	}{
		{"unknown key", "yes: [y]\nno: [n]\nmaybe: [m]\n" + lists, []string{"field maybe not found"}},
		{"not a string", "yes: [[y]]\nno: [n]\n" + lists, []string{"line 1: entry is not a string"}},
		{"every problem reported", "yes:\n  - yes\n  - YESSS\n  - \"yes, please\"\n  - a b c d e f g\nno:\n  - good\n  - god\n" + lists,
			[]string{
				`lexicon.yaml:3: entry "YESSS" is the same as "yes" on line 2`,
				`lexicon.yaml:4: entry "yes, please" must be words`,
				`lexicon.yaml:5: entry "a b c d e f g" has 7 words`,
				`lexicon.yaml:8: entry "god" is the same as "good" on line 7`,
			}},
		{"same word spelled two ways", "yes: [\"i'm in\"]\nno: [im out]\n" + lists, []string{`word "im" in "im out" and "i'm in" on line 1`}},
		{"missing list", "yes: [y]\n" + lists, []string{`list "no" is missing or empty`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := loadLexicon([]byte(tt.yaml), "lexicon.yaml")
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\ndoes not contain %q", err, w)
				}
			}
		})
	}
}

// The seed's examples, word for word.
func TestSeedExamples(t *testing.T) {
	seed := map[Intent][]string{
		Yes: {"y", "yes", "yeah", "yep", "yup", "sure", "ok", "okay", "please", "go ahead",
			"yes please", "sure", "go ahead", "do it", "sounds good",
			"that would be great", "please check", "can you verify that?", "add sources"},
		No:        {"n", "no", "nope", "nah", "don’t", "no thanks", "I’m good", "that’s fine", "don’t bother", "not needed", "no need"},
		SearchNow: {"can you confirm that?", "now check with sources"},
	}
	for _, intent := range []Intent{Yes, No, SearchNow} {
		for _, reply := range seed[intent] {
			t.Run(string(intent)+"/"+reply, func(t *testing.T) {
				if got, rule := Classify(reply); got != intent {
					t.Errorf("Classify(%q) = %s (%s), want %s", reply, got, rule, intent)
				}
				// Straight apostrophes must work as well as the seed's U+2019.
				straight := strings.ReplaceAll(reply, "’", "'")
				if got, _ := Classify(straight); got != intent {
					t.Errorf("Classify(%q) = %s, want %s", straight, got, intent)
				}
			})
		}
	}
	for _, text := range []string{"? what are current EU AI regulations", "what are current EU AI regulations ?", "What are current EU AI regulations?"} {
		t.Run("override/"+text, func(t *testing.T) {
			for _, awaiting := range []bool{false, true} {
				d := Decide(text, awaiting)
				if d.Phase != trace.Phase2 || !d.Override {
					t.Errorf("Decide(%q, %v) = %+v, want an override to phase2", text, awaiting, d)
				}
			}
		})
	}
}

func TestClassify(t *testing.T) {
	tests := []struct {
		reply  string
		intent Intent
		rule   string
		query  string // carried query, NEW_QUERY only
	}{
		{"y", Yes, RuleYesWord, ""},
		{"Yesss!!", Yes, RuleYesWord, ""},
		{"yeahhh 👍🏽", Yes, RuleYesWord, ""},
		{"ok?", Yes, RuleYesWord, ""},
		{"please", Yes, RuleYesPlease, ""},
		{"pls 🙏", Yes, RuleYesPlease, ""},
		{"no, go ahead", Yes, RuleYesAfterNo, ""},
		{"can you confirm that?", SearchNow, RuleSearchPhrase, ""},
		{"yes, check it", SearchNow, RuleSearchPhrase, ""},
		{"no, check it", SearchNow, RuleSearchAfterNo, ""},
		{"NOOO", No, RuleNoWord, ""},
		{"🙅‍♂️", No, RuleNoWord, ""},
		{"not now", No, RuleNoWord, ""},
		{"please don't", No, RuleNoWord, ""},
		{"don't check", No, RuleNoNegatedYes, ""},
		{"not ok", No, RuleNoNegatedYes, ""},
		{"no need to search", No, RuleNoNegatedYes, ""},
		{"yes but no sources", No, RuleNoAfterYes, ""},
		{"please, no", No, RuleNoWord, ""},
		{"thanks", No, RuleNoFillerOnly, ""},
		{"new question", No, RuleNoFillerOnly, ""},
		{"", No, RuleNoEmpty, ""},
		{" ?! ", No, RuleNoEmpty, ""},
		{"What are current EU AI regulations?", NewQuery, RuleNewContent, "What are current EU AI regulations?"},
		{"? what is x", NewQuery, RuleNewContent, "? what is x"},
		{"hmm, what is X", NewQuery, RuleNewContent, "what is X"},
		{"what is X? yes", NewQuery, RuleNewContent, "what is X? yes"},
		{"nope, new question: what is X", NewQuery, RuleNewAfterNo, "what is X"},
		{"nope new question what is X", NewQuery, RuleNewAfterNo, "what is X"},
		{"no thanks, but what about Y?", NewQuery, RuleNewAfterNo, "what about Y?"},
		{"yes — and also what is Z?", NewQuery, RuleNewAfterYes, "what is Z?"},
		{"sure, but what is the GDP of France?", NewQuery, RuleNewAfterYes, "what is the GDP of France?"},
		{"no, but is that right about Paris", NewQuery, RuleNewAfterNo, "is that right about Paris"},
	}
	for _, tt := range tests {
		t.Run(tt.reply, func(t *testing.T) {
			v := classify(tt.reply)
			if v.intent != tt.intent || v.rule != tt.rule || v.query != tt.query {
				t.Errorf("classify(%q) = %s %s %q, want %s %s %q", tt.reply, v.intent, v.rule, v.query, tt.intent, tt.rule, tt.query)
			}
		})
	}
}

func TestOverride(t *testing.T) {
	tests := []struct {
		text  string
		query string
		ok    bool
	}{
		{"? what are current EU AI regulations", "what are current EU AI regulations", true},
		{"what are current EU AI regulations ?", "what are current EU AI regulations?", true},
		{"What are current EU AI regulations?", "What are current EU AI regulations?", true},
		{"  ?what  is   x  ", "what  is   x", true},
		{"?? x", "x", true},
		{"? what is x ?", "what is x?", true},
		{"what is x \t??", "what is x??", true},
		{"¿qué es la IA?", "¿qué es la IA?", true},
		{"what is x", "", false},
		{"what? is x", "", false},
		{"", "", false},
		{"?", "", false},
		{" ? ? ", "", false},
		{"what is x？", "", false}, // only the ASCII '?' is a marker
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			q, ok := Override(tt.text)
			if q != tt.query || ok != tt.ok {
				t.Errorf("Override(%q) = %q, %v; want %q, %v", tt.text, q, ok, tt.query, tt.ok)
			}
		})
	}
}

func TestDecide(t *testing.T) {
	tests := []struct {
		text     string
		awaiting bool
		want     Decision
	}{
		{"what is the capital of France", false, Decision{Phase: trace.Phase1, Query: "what is the capital of France", Rule: RuleNewQuery}},
		{"  yes  ", false, Decision{Phase: trace.Phase1, Query: "yes", Rule: RuleNewQuery}},
		{"? what is x", false, Decision{Phase: trace.Phase2, Override: true, Query: "what is x", Rule: RuleOverrideLeading}},
		{"what is x ?", false, Decision{Phase: trace.Phase2, Override: true, Query: "what is x?", Rule: RuleOverrideTrailing}},
		{"?", false, Decision{Phase: trace.Phase1, Query: "?", Rule: RuleNewEmpty}},
		{"sure?", true, Decision{Intent: Yes, Phase: trace.Phase2, Rule: RuleYesWord}},
		{"can you confirm that?", true, Decision{Intent: SearchNow, Phase: trace.Phase2, Rule: RuleSearchPhrase}},
		{"no thanks", true, Decision{Intent: No, Phase: trace.Decline, Rule: RuleNoWord}},
		{"tell me about Exa", true, Decision{Intent: NewQuery, Phase: trace.Phase1, Query: "tell me about Exa", Rule: RuleNewContent}},
		{"no thanks, but what about Y ?", true, Decision{Intent: NewQuery, Phase: trace.Phase2, Override: true, Query: "what about Y?", Rule: RuleNewAfterNo}},
		{"? what are current EU AI regulations", true, Decision{Intent: NewQuery, Phase: trace.Phase2, Override: true, Query: "what are current EU AI regulations", Rule: RuleNewContent}},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			tt.want.Input, tt.want.AwaitingConsent = tt.text, tt.awaiting
			if got := Decide(tt.text, tt.awaiting); got != tt.want {
				t.Errorf("Decide(%q, %v)\n got %+v\nwant %+v", tt.text, tt.awaiting, got, tt.want)
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"  Yesss!!  ", "yes!"},
		{"DON’T", "don't"},
		{"dont bother", "don't bother"},
		{"Im good", "i'm good"},
		{"👍🏽✔️", "👍 ✔"},
		{"🙅‍♀️ nope", "🙅 nope"},
		{"“yes”, please…", "yes, please…"},
		{"yes—and also", "yes — and also"},
		{"double-check that", "double check that"},
		{"no\nthanks", "no. thanks"},
		{"What is X ?", "what is x?"},
		{"ye\u200ds", "yes"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := Normalize(tt.in); got != tt.want {
				t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestRulesDocumented keeps the rule table in doc.go complete.
func TestRulesDocumented(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	rules := AllRules()
	if len(rules) != 31 {
		t.Errorf("AllRules has %d rules; doc.go's table has 31", len(rules))
	}
	for _, r := range rules {
		if !strings.Contains(string(doc), "//\t"+r.ID+" ") {
			t.Errorf("rule %s has no row in doc.go's rule table", r.ID)
		}
	}
}

// TestLinearWork holds classification to a fixed number of lexicon lookups
// per word, whatever the reply: no backtracking, no quadratic rescans.
// (Tokenizing is one pass over the bytes.) Counting lookups rather than
// timing keeps the test exact on a busy machine.
func TestLinearWork(t *testing.T) {
	for _, unit := range []string{"yes no maybe ", "what about x, ", "no thanks but ", "y", "👍?", "not ", "double check that ", "a b c d e f "} {
		t.Run(unit, func(t *testing.T) {
			for _, n := range []int{1, 10, 200, 2000} {
				reply := strings.Repeat(unit, n)
				words := 0
				for _, tok := range tokenize(reply, lex()) {
					if tok.kind != tokSep {
						words++
					}
				}
				// segment and joinerPrefix each look up at most
				// maxEntryWords keys per word; a stripped prefix is
				// segmented once more.
				_, lookups := classifyCounting(reply)
				if limit := 3 * maxEntryWords * words; lookups > limit {
					t.Errorf("%d words took %d lookups, more than %d", words, lookups, limit)
				}
				if words > 0 && lookups < 1 {
					t.Errorf("%d words took %d lookups: the count is broken", words, lookups)
				}
			}
		})
	}
}
