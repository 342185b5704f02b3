package consent

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
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
		{reply: "yes, just two or three links is enough", intent: Yes, rule: RuleYesScoped, scope: "just two or three links is enough"},
		{reply: "check it, only peer-reviewed work", intent: SearchNow, rule: RuleSearchScoped, scope: "only peer-reviewed work"},
		{reply: "yes, only sources from this year?", intent: NewQuery, rule: RuleNewAfterYes, query: "only sources from this year?"},
		// Requests to verify (seed 000: "can you verify that?", "add sources").
		{reply: "can you find a source for that?", intent: SearchNow, rule: RuleSearchRequest},
		// Wrong direction.
		{reply: "skip the search", intent: No, rule: RuleNoNegatedYes},
		{reply: "stop searching", intent: No},
		{reply: "Y qué pasa con el precio?", intent: NewQuery, rule: RuleNewContent, query: "Y qué pasa con el precio?"},
		{reply: "¿Y tú?", intent: NewQuery, rule: RuleNewContent, query: "¿Y tú?"},
		{reply: "nein danke, aber was ist mit Berlin?", intent: NewQuery, rule: RuleNewAfterNo, query: "was ist mit Berlin?"},
		// A yes, then a new question: seed 000's rule (a new query), named.
		{reply: "yes, and what is the capital of France?", intent: NewQuery, rule: RuleNewAfterYes, query: "what is the capital of France?"},
		// An assent inside a phrase the lexicon cannot read consents to
		// nothing; a negator there still declines.
		{reply: "lorem ya ipsum", intent: NewQuery, rule: RuleNewContent, query: "lorem ya ipsum"},
		{reply: "I didn't ask for sources", intent: No},
		// Idioms.
		{reply: "that's plenty, thanks", intent: No},
		{reply: "copy that, search away", intent: SearchNow},
		{reply: "negative", intent: No},
		{reply: "I wouldn't say no", intent: Yes},
		// Languages: CLDR words and curated polite forms.
		{reply: "tak, poproszę", intent: Yes},
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
		{reply: "hai", intent: Yes},
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
// datasets/ — the consent sets, the multilingual held-out set, and the
// consent turns of the flows — is read as YES or SEARCH_NOW, or sent to
// Phase 2. A decline read as a new query is a miss the other tests count;
// read as consent, it runs a search the user refused.
//
// A word that is yes in one language the lexicon covers and no in another
// ("jo": Albanian no, Luxembourgish yes) is ambiguous: the rules place it
// nowhere and the model decides, so it is never read as YES here. One kind
// is exempt and listed: a decline in a language the lexicon does not cover
// at all, whose words are all yes words of other languages by the
// lexicon's sources (Tsonga "Ee" is no by glibc and yes in Bemba, Duala and
// Luo by CLDR; Hokkien "M̄-Sī" is "m", filler, and "si", Spanish yes). With
// no word of that language known, nothing tells such a reply from a yes.
func TestDeclinesNeverSearch(t *testing.T) {
	lx := lex()
	covered := lx.covered()
	otherYes := func(reply, lang string) bool {
		if lang == "" || covered[lang] {
			return false
		}
		for _, tok := range tokenize(reply, lx) {
			k, ok := lx.exact[tok.exact]
			if !ok {
				k = lx.entries[tok.key]
			}
			if tok.kind != tokWord || k == clFiller {
				continue
			}
			if k != clYes {
				return false
			}
			if ls := lx.langs[tok.key]; len(ls) > 0 && !slices.Contains(ls, lang) {
				continue
			}
			if len(lx.langs[tok.key]) == 0 && lang != "en" {
				continue // a hand-kept yes of English or a Romance language
			}
			return false
		}
		return true
	}
	exempt := 0
	paths, err := filepath.Glob("../../datasets/*.yaml")
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
		check := func(id, reply, lang string) {
			declines++
			d := Decide(reply, true)
			if (d.Intent == Yes || d.Intent == SearchNow) && otherYes(reply, lang) {
				exempt++
				t.Logf("%s: case %s: %q (%s) is a yes in another language: read as %s", filepath.Base(path), id, reply, lang, d.Intent)
				return
			}
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
				check(c.ID, c.Reply, langOf(datasetCase{Tags: c.Tags}))
			}
			for _, turn := range c.Turns {
				if turn.Expect.Intent == No {
					check(c.ID, turn.User, "")
				}
			}
		}
	}
	if exempt > 4 {
		t.Errorf("%d declines exempt as a yes in another language; at most 4 expected", exempt)
	}
	if consentSets < 3 || flowSets < 1 {
		t.Errorf("read %d consent sets and %d flow sets; want every consent*.yaml and flows.yaml", consentSets, flowSets)
	}
	if declines < 400 {
		t.Errorf("only %d declines found in the datasets; the loader is missing some", declines)
	}
	t.Logf("%d declines checked, %d exempt", declines, exempt)
}
