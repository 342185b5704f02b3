package consent

import (
	"strings"
	"testing"
	"unicode"

	"github.com/searchbench/searchbench/orchestrator/trace"
)

var fuzzSeeds = []string{
	"y", "Yesss!!", "no, go ahead", "yes but no sources", "not now", "don’t", "I’m good",
	"nope, new question: what is X", "no thanks, but what about Y?", "yes — and also what is Z?",
	"ok?", "can you confirm that?", "👍🏽", "🙅‍♂️", "? what is x", "what is x ?", "", "?", "don't-check",
	"a'b''c", "ǅ ſ ı İ", "\xff\xfeyes", "yes\u200d\ufe0f", "no need to search", "pls 🙏",
	"got a source?", "no, I'm satisfied", "sure, I'd appreciate it", "sounds goof", "where did u get that",
	"is that actually true?", "sí, por favor", "não", "nope, 2021", "definately",
}

// ruleIDs are the consent rules' ids (AllRules with an intent).
var ruleIDs = func() map[string]bool {
	ids := map[string]bool{}
	for _, r := range AllRules() {
		if r.Intent != "" {
			ids[r.ID] = true
		}
	}
	return ids
}()

// FuzzClassify checks properties of consent classification that must hold
// for any reply.
func FuzzClassify(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, reply string) {
		_, lookups := classifyCounting(reply)
		v := classifyAfter(reply, "")
		if !ruleIDs[v.rule] {
			t.Fatalf("classify(%q): undocumented rule %q", reply, v.rule)
		}

		// Surrounding whitespace and letter case change nothing.
		for _, variant := range []string{" \t" + reply + "\n ", strings.ToUpper(reply), strings.ToLower(reply)} {
			if in, rule := Classify(variant); in != v.intent || rule != v.rule {
				t.Fatalf("Classify(%q) = %s %s but Classify(%q) = %s %s", reply, v.intent, v.rule, variant, in, rule)
			}
		}

		// Normalize is idempotent and keeps the decision.
		n := Normalize(reply)
		if nn := Normalize(n); nn != n {
			t.Fatalf("Normalize(%q) = %q, but Normalize of that = %q", reply, n, nn)
		}
		if in, rule := Classify(n); in != v.intent || rule != v.rule {
			t.Fatalf("Classify(%q) = %s %s but Classify(Normalize) = Classify(%q) = %s %s", reply, v.intent, v.rule, n, in, rule)
		}

		// A new query carries a non-empty tail of the reply.
		if v.intent == NewQuery {
			if v.query == "" || !strings.HasSuffix(strings.TrimSpace(reply), v.query) {
				t.Fatalf("classify(%q) carried %q, not a tail of the reply", reply, v.query)
			}
		} else if v.query != "" {
			t.Fatalf("classify(%q) = %s carried %q", reply, v.intent, v.query)
		}

		// A reply is never both consent and an override.
		d := Decide(reply, true)
		if d.Intent != v.intent || d.Rule != v.rule {
			t.Fatalf("Decide(%q, true) = %+v, Classify = %s %s", reply, d, v.intent, v.rule)
		}
		want := map[Intent]string{Yes: trace.Phase2, SearchNow: trace.Phase2, No: trace.Decline}[d.Intent]
		if d.Intent != NewQuery && (d.Override || d.Query != "" || d.Phase != want) {
			t.Fatalf("Decide(%q, true) = %+v: consent must not be an override", reply, d)
		}
		if d.Intent == NewQuery && d.Phase == trace.Decline {
			t.Fatalf("Decide(%q, true) = %+v: a new query is never declined", reply, d)
		}

		// Bounded work per word.
		words := 0
		for _, tok := range tokenize(reply, lex()) {
			if tok.kind != tokSep {
				words++
			}
		}
		if lookups > 3*maxEntryWords*words {
			t.Fatalf("classify(%q): %d lookups for %d words", reply, lookups, words)
		}
	})
}

// FuzzOverride checks the '?' override on any text.
func FuzzOverride(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		q, ok := Override(text)
		trimmed := strings.TrimSpace(text)
		marked := strings.HasPrefix(trimmed, "?") || strings.HasSuffix(trimmed, "?")
		if ok && !marked {
			t.Fatalf("Override(%q) = %q without a marker", text, q)
		}
		if q2, ok2 := Override(" \n" + text + "\t "); q2 != q || ok2 != ok {
			t.Fatalf("Override(%q) = %q %v but with whitespace around = %q %v", text, q, ok, q2, ok2)
		}
		d := Decide(text, false)
		if d.Intent != "" || d.Override != ok || (d.Phase == trace.Phase2) != ok {
			t.Fatalf("Decide(%q, false) = %+v, Override ok = %v", text, d, ok)
		}
		if !ok {
			if q != "" {
				t.Fatalf("Override(%q) = %q, false", text, q)
			}
			if marked && strings.ContainsFunc(strings.Trim(trimmed, "? \t\n\v\f\r\u0085\u00a0"), isQueryRune) {
				t.Fatalf("Override(%q): marked text with a query is not an override", text)
			}
			return
		}
		if !strings.ContainsFunc(q, isQueryRune) {
			t.Fatalf("Override(%q) = %q: nothing to search for", text, q)
		}
		if strings.HasPrefix(q, "?") || q != strings.TrimSpace(q) {
			t.Fatalf("Override(%q) = %q: marker or whitespace left at an end", text, q)
		}
		// The body is the user's text, unchanged; only the markers moved.
		body := strings.TrimRight(q, "?")
		if !strings.Contains(text, body) {
			t.Fatalf("Override(%q) = %q: body %q is not in the text", text, q, body)
		}
		if strings.HasSuffix(q, "?") && body != strings.TrimRightFunc(body, unicode.IsSpace) {
			t.Fatalf("Override(%q) = %q: whitespace before the trailing '?'", text, q)
		}
	})
}
