package consent

import (
	"strings"
	"testing"
)

// TestRound2Rules pins the edges of the round-2 rules: where a remark stops
// being one, where a typo correction is refused, which cover wins a tie.
func TestRound2Rules(t *testing.T) {
	tests := []struct {
		reply  string
		intent Intent
		rule   string
	}{
		// A '?' before the remark is the consent's own; after it, with no
		// vote in the remark, it asks something new.
		{"sure? I'd appreciate it", Yes, RuleYesRemark},
		{"no, I believe you?", NewQuery, RuleNewAfterNo},
		{"no, I believe you, thanks?", NewQuery, RuleNewAfterNo},
		// A vote in a covered clause after the remark lets a '?' stand.
		{"I'd appreciate it, go ahead?", Yes, RuleYesRemark},
		// At most maxRemarkWords unknown words.
		{"yes, my little brother will be very happy about it", Yes, RuleYesRemark},
		{"yes, my little brother and sister will be very happy about it", NewQuery, RuleDeferRemark}, // nothing asks: the model decides (issue 37)
		// A remark needs a vote somewhere.
		{"I reckon so", NewQuery, RuleNewContent},
		// Equal covers: the longest entry first ("yes please" + "check",
		// not "yes" + "please check"), so the check is named.
		{"yes please check", SearchNow, RuleSearchPhrase},
		// A slip from a phrase word counts only inside the phrase: "goof"
		// alone is not "good" (a filler entry of its own).
		{"goof", NewQuery, RuleNewContent},
		{"ok goof", Yes, RuleYesRemark},
		{"sounds goof", Yes, RuleYesWord},
		// Phrase words of search_now entries are typo targets too.
		{"bakc it up", SearchNow, RuleSearchPhrase},
		// An intensifier inside a phrase; alone it is filler.
		{"is that really true", SearchNow, RuleSearchPhrase},
		{"really", NewQuery, RuleDeferAcknowledgement},
		// Request words frame only a search_now entry.
		{"got any?", NewQuery, RuleNewContent},
		{"got any links?", SearchNow, RuleSearchRequest},
	}
	for _, tt := range tests {
		t.Run(tt.reply, func(t *testing.T) {
			got, rule := Classify(tt.reply)
			if got != tt.intent || rule != tt.rule {
				t.Errorf("Classify(%q) = %s %s, want %s %s (normalized %q)", tt.reply, got, rule, tt.intent, tt.rule, Normalize(tt.reply))
			}
		})
	}
}

// TestCarriedQuery: a joiner at the start of new content is dropped from
// the carried question, and one at the end of a clause carries nothing
// away.
func TestCarriedQuery(t *testing.T) {
	tests := map[string]string{
		"but what about Y":                  "what about Y",
		"no, but what about Y":              "what about Y",
		"what about germany and":            "what about germany and",
		"nope, new question: what is X":     "what is X",
		"ok, also what is the capital of X": "what is the capital of X",
	}
	for reply, want := range tests {
		d := Decide(reply, true)
		if d.Intent != NewQuery || d.Query != want {
			t.Errorf("Decide(%q) = %s carrying %q, want NEW_QUERY carrying %q", reply, d.Intent, d.Query, want)
		}
	}
}

// TestEntryLimits: an entry of exactly maxEntryWords words loads and
// matches, and so does the longest entry, whatever its byte length.
func TestEntryLimits(t *testing.T) {
	six := strings.TrimSpace(strings.Repeat("alpha ", maxEntryWords))
	yaml := smallLexicon("[\""+six+"\", \"supercalifragilistic\"]", "[n]", "[thanks]")
	m := &matcher{lx: mustLexicon(t, yaml)}
	for _, reply := range []string{six, "supercalifragilistic"} {
		if v := m.classify(reply); v.intent != Yes {
			t.Errorf("classify(%q) = %s %s with a lexicon holding it; want YES", reply, v.intent, v.rule)
		}
	}
	if _, err := loadLexicon([]byte(strings.Replace(yaml, six, six+" alpha", 1)), "lexicon.yaml"); err == nil {
		t.Errorf("a %d-word entry loaded", maxEntryWords+1)
	}
}

func TestNormalizeLeadingDash(t *testing.T) {
	// A dash opens the reply: no space before it, one after it.
	if got := Normalize("—yes"); got != "— yes" {
		t.Errorf("Normalize(%q) = %q, want %q", "—yes", got, "— yes")
	}
}

func TestIsASCIILetters(t *testing.T) {
	for s, want := range map[string]bool{"yes": true, "": false, "yes1": false, "día": false, "Yes": false, "\xff": false} {
		if got := isASCIILetters(s); got != want {
			t.Errorf("isASCIILetters(%q) = %v, want %v", s, got, want)
		}
	}
}

// smallLexicon is a lexicon with every list, yes, no and filler as given
// (YAML flow sequences) and one word in each of the others.
func smallLexicon(yes, no, filler string) string {
	return "yes: " + yes + "\nno: " + no + "\npolite: [please]\nnegators: [not]\nsearch_now: [check]\n" +
		"filler: " + filler + "\nconnectives: [but]\nnew_question: [btw]\nrequest: [got]\nnot_typos: [x]\nquestion_openers: [what]\n" +
		"content_cues: [what]\nintensifiers: [really]\nscope_openers: [only]\nremark_joiners: [but]\nspellings: {u: thanks}\n" +
		"correction_markers: [but]\nmention_cues: [mean]\ndetail_nouns: [date]\n"
}

func mustLexicon(t *testing.T, yaml string) *lexicon {
	t.Helper()
	lx, err := loadLexicon([]byte(yaml), "lexicon.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return lx
}
