package consent

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestIssue26Kinds: the kinds of reply issue 26 measured as misses on a set
// written by someone who never saw the datasets. The replies here are the
// issue's own examples and ones of the same kind; none of them is from a
// held-out file.
func TestIssue26Kinds(t *testing.T) {
	tests := []struct {
		reply  string
		intent Intent
		rule   string
		query  string // carried question, for NEW_QUERY
		scope  string // kept scope, for a scoped assent
	}{
		// The decision inside a long reply.
		{reply: "…so yes, please go ahead and look it up so I can quote it…", intent: SearchNow, rule: RuleSearchRemark},
		// Scoped assent: YES, the scope kept.
		{reply: "yes, but only official sources", intent: Yes, rule: RuleYesScoped, scope: "only official sources"},
		// "is enough" is a decline entry ("just your answer is enough"):
		// inside a scope too, the model decides.
		{reply: "yes, just two or three links is enough", intent: NewQuery, rule: RuleDeferNegation, query: "yes, just two or three links is enough"},
		{reply: "check it, only peer-reviewed work", intent: SearchNow, rule: RuleSearchScoped, scope: "only peer-reviewed work"},
		{reply: "yes, only sources from this year?", intent: NewQuery, rule: RuleNewAfterYes, query: "only sources from this year?"},
		// Requests to verify (seed 000: "can you verify that?", "add sources").
		{reply: "can you find a source for that?", intent: SearchNow, rule: RuleSearchRequest},
		// Wrong direction.
		{reply: "skip the search", intent: No, rule: RuleNoNegatedYes},
		{reply: "stop searching", intent: No},
		// Issue 37: a reply whose words the lexicon cannot all place in one
		// language goes to the model, never read by its known words alone.
		{reply: "Y qué pasa con el precio?", intent: NewQuery, rule: RuleDeferLanguage, query: "Y qué pasa con el precio?"},
		{reply: "¿Y tú?", intent: NewQuery, rule: RuleDeferLanguage, query: "¿Y tú?"},
		{reply: "nein danke, aber was ist mit Berlin?", intent: NewQuery, rule: RuleDeferLanguage, query: "nein danke, aber was ist mit Berlin?"},
		// A yes, then a new question: seed 000's rule (a new query), named.
		{reply: "yes, and what is the capital of France?", intent: NewQuery, rule: RuleNewAfterYes, query: "what is the capital of France?"},
		// An assent inside a phrase the lexicon cannot read consents to
		// nothing; a negator there still declines.
		{reply: "lorem ya ipsum", intent: NewQuery, rule: RuleDeferLanguage, query: "lorem ya ipsum"},
		{reply: "I didn't ask for sources", intent: NewQuery, rule: RuleDeferNegatedUnknown, query: "I didn't ask for sources"},
		// Idioms.
		{reply: "that's plenty, thanks", intent: No},
		{reply: "copy that, search away", intent: SearchNow},
		{reply: "negative", intent: No},
		// Issue 37: an idiom that carries a negation is the model's.
		{reply: "I wouldn't say no", intent: NewQuery, rule: RuleDeferNegation, query: "I wouldn't say no"},
		// Languages: CLDR words and curated polite forms. "tak" is thanks
		// in Danish too: the model decides (issue 37).
		{reply: "tak, poproszę", intent: NewQuery, rule: RuleDeferLanguage, query: "tak, poproszę"},
		{reply: "nie, dziękuję", intent: No},
		{reply: "да, пожалуйста", intent: Yes},
		{reply: "нет, спасибо", intent: No},
		{reply: "네", intent: Yes},
		{reply: "아니요", intent: No},
		{reply: "evet lütfen", intent: Yes},
		{reply: "hayır teşekkürler", intent: No},
		{reply: "ndiyo", intent: Yes},
		{reply: "hapana asante", intent: No},
		{reply: "はい、お願いします", intent: Yes},
		{reply: "いいえ、結構です", intent: No},
		{reply: "hai", intent: NewQuery, rule: RuleDeferLanguage, query: "hai"}, // Japanese yes, Asu no (CLDR)
		{reply: "iie", intent: No},
		{reply: "是的", intent: Yes},
		{reply: "不用了", intent: No},
		{reply: "不是", intent: No},
		{reply: "haan", intent: Yes},
		{reply: "nahi", intent: No},
		{reply: "نعم", intent: Yes},
		{reply: "لا شكرا", intent: No},
	}
	for _, tt := range tests {
		t.Run(tt.reply, func(t *testing.T) {
			d := Decide(tt.reply, true)
			if d.Intent != tt.intent || (tt.rule != "" && d.Rule != tt.rule) || d.Query != tt.query || d.Scope != tt.scope {
				t.Errorf("Decide(%q) = %s %s carrying %q, scope %q; want %s %s carrying %q, scope %q (normalized %q)",
					tt.reply, d.Intent, d.Rule, d.Query, d.Scope, tt.intent, tt.rule, tt.query, tt.scope, Normalize(tt.reply))
			}
		})
	}
}

// TestDeclinesNeverSearch: no reply labelled NO in any dataset under
// datasets/ — the consent sets (the tuning set, the held-out sets, the
// multilingual set, the framework and intent sets of issue 37) and the
// consent turns of the flows — is read as YES or SEARCH_NOW, or sent to
// Phase 2, by the rules. A decline deferred to the model, or read as a new
// query, is a miss the other tests count; read as consent, it runs a search
// the user refused. There is no exemption: a word that is a yes only in
// languages the reply may not be written in decides nothing (language.go).
func TestDeclinesNeverSearch(t *testing.T) {
	paths, err := filepath.Glob("../../testdata/demo/datasets/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var consentSets, flowSets int
	declines := 0
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var ds struct {
			Kind  string `yaml:"kind"`
			Cases []struct {
				ID    string   `yaml:"id"`
				Reply string   `yaml:"reply"`
				Label Intent   `yaml:"label"`
				Tags  []string `yaml:"tags"`
				Turns []struct {
					User   string `yaml:"user"`
					Expect struct {
						Intent Intent `yaml:"intent"`
					} `yaml:"expect"`
				} `yaml:"turns"`
			} `yaml:"cases"`
		}
		if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&ds); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		check := func(id, reply string) {
			declines++
			d := Decide(reply, true)
			if d.Intent == Yes || d.Intent == SearchNow || d.Phase == "phase2" {
				t.Errorf("%s: case %s: decline %q read as %s by %s (phase %s)", filepath.Base(path), id, reply, d.Intent, d.Rule, d.Phase)
			}
		}
		switch {
		case ds.Kind == "consent":
			consentSets++
		case strings.HasPrefix(filepath.Base(path), "flows"):
			flowSets++
		}
		for _, c := range ds.Cases {
			if ds.Kind == "consent" && c.Label == No {
				check(c.ID, c.Reply)
			}
			for _, turn := range c.Turns {
				if turn.Expect.Intent == No {
					check(c.ID, turn.User)
				}
			}
		}
	}
	if consentSets < 5 || flowSets < 1 {
		t.Errorf("read %d consent sets and %d flow sets; want every consent*.yaml and flows.yaml", consentSets, flowSets)
	}
	if declines < 400 {
		t.Errorf("only %d declines found in the datasets; the loader is missing some", declines)
	}
	t.Logf("%d declines checked", declines)
}
