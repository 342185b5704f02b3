package consent

import (
	"strings"
	"testing"
)

// TestPrecisionFirst: the kinds of reply issue 37 found read confidently
// wrong on material written elsewhere, in replies of our own. Each is
// decided as its kind must be, or left to the model; none is read against
// its meaning.
func TestPrecisionFirst(t *testing.T) {
	tests := []struct {
		kind, reply string
		intent      Intent // "" when the reply must be deferred
		rule        string // the deciding or deferring rule, when it matters
		scope       string
	}{
		// A word that is yes in one language and thanks or "is" in the
		// language the reply is written in.
		{"cross-language thanks", "tak for hjælpen", "", RuleDeferLanguage, ""},
		{"cross-language is", "è ok così", "", RuleDeferLanguage, ""},
		{"cross-language decline", "ce n'est pas ok", "", RuleDeferLanguage, ""},
		// A hyphenated spelling never leaves a stray letter to vote.
		{"hyphen", "n-o-p-e", "", RuleDeferLanguage, ""},
		{"hyphen y-es", "y-es", "", "", ""},
		// "yes" then a refusal: never a remark beside a yes.
		{"refusal", "yes, but I don't want a search", No, "", ""},
		{"refusal unknown", "sure, but I'm not paying for that", "", "", ""},
		// Idioms with a negation that mean yes: the model's.
		{"idiom", "not a bad idea", "", RuleDeferNegatedUnknown, ""},
		{"idiom", "I wouldn't say no", "", RuleDeferNegation, ""},
		{"idiom", "how could I refuse", "", RuleDeferNegation, ""},
		{"idiom", "why not", "", RuleDeferNegation, ""},
		// Self-corrections: the last clause decides after a correction
		// marker, else the model does; a no taken back is a negation.
		{"correction", "sure... actually, no", No, RuleNoAfterYes, ""},
		{"correction", "yes. no.", "", RuleDeferCorrection, ""},
		{"correction", "no wait, go ahead", "", RuleDeferNegation, ""},
		{"correction other language", "ja, aber eigentlich nein", "", RuleDeferLanguage, ""},
		// A yes with a condition: YES, the condition kept.
		{"scope", "sure, keep it short", Yes, RuleYesScoped, "keep it short"},
		{"scope", "yes, but stick to government sources", Yes, RuleYesScoped, "stick to government sources"},
		// A negation inside a scope may only narrow the search ("no
		// blogs"), but a rule cannot be sure: the model decides.
		{"scope with a negation", "yes, only official sources, no blogs", "", RuleDeferNegation, ""},
		// Checking one detail of the answer.
		{"detail", "could you double-check that date?", SearchNow, RuleSearchDetail, "that date"},
		{"detail", "verify the population figure please", SearchNow, RuleSearchDetail, "the population figure please"},
		{"detail, new topic", "check the history of the Roman calendar", NewQuery, "", ""},
		// A question about a word.
		{"about a word", "what does \"yes\" mean in this context?", NewQuery, RuleNewAboutWord, ""},
		{"about a word", "is 'nope' rude?", NewQuery, RuleNewAboutWord, ""},
		{"quoted answer", "\u201cyes\u201d", Yes, "", ""},
		// Other scripts' question marks.
		{"greek question mark", "Ναι;", Yes, "", ""},
		{"arabic question", "هل هذا صحيح؟", "", RuleDeferLanguage, ""},
		// Acknowledgements alone can go either way.
		{"acknowledgement", "thanks!", "", RuleDeferAcknowledgement, ""},
	}
	for _, tt := range tests {
		t.Run(tt.kind+"/"+tt.reply, func(t *testing.T) {
			d := DecideAfter(tt.reply, "What is the population of Lagos")
			if tt.intent == "" {
				if !d.Unplaced || d.Intent != NewQuery || d.Deferred == "" || d.Phase != "phase1" || d.Override {
					t.Errorf("DecideAfter(%q) = %s by %s (phase %s, deferred %q); want it left to the model", tt.reply, d.Intent, d.Rule, d.Phase, d.Deferred)
				}
			} else if d.Unplaced || d.Intent != tt.intent {
				t.Errorf("DecideAfter(%q) = %s by %s (deferred %q); want %s", tt.reply, d.Intent, d.Rule, d.Deferred, tt.intent)
			}
			if tt.rule != "" && d.Rule != tt.rule {
				t.Errorf("DecideAfter(%q) rule %s, want %s", tt.reply, d.Rule, tt.rule)
			}
			if d.Scope != tt.scope {
				t.Errorf("DecideAfter(%q) scope %q, want %q", tt.reply, d.Scope, tt.scope)
			}
		})
	}
}

// TestNegationNeverConsents: whatever else it says, a reply in which a
// negation cue of its language stands anywhere is never read as YES
// or SEARCH_NOW by a rule.
func TestNegationNeverConsents(t *testing.T) {
	for _, reply := range []string{
		"no, go ahead", "nah, actually go ahead", "yes, not now", "no problem, go ahead", "ok but never mind",
		"sure, I don't think it matters", "yeah, it's not needed", "go ahead, nope", "check it, no", "yes no",
		"please don't", "sure thing, I can't be bothered", "ok, forget it", "yes, without sources",
	} {
		d := DecideAfter(reply, "")
		if !d.Unplaced && (d.Intent == Yes || d.Intent == SearchNow) {
			t.Errorf("DecideAfter(%q) = %s by %s: a negation read as consent", reply, d.Intent, d.Rule)
		}
	}
}

// TestScopeHidesNoDecline: a scope clause is no place for a decline to
// hide. A negation cue or decline inside or after the limit a yes puts on
// the search ("yes, keep it short, nah") keeps every rule from reading YES
// or SEARCH_NOW, in every language the lexicon covers; a scoped yes with no
// negation stays YES with its scope.
func TestScopeHidesNoDecline(t *testing.T) {
	const previous = "What is the population of Lagos"
	for _, tt := range []struct{ lang, reply string }{
		{"en", "yes, keep it brief, actually no"},
		{"en", "sure, keep it short. no thanks"},
		{"en", "yes, only government sources, nope"},
		{"en", "yes, keep it short, nah"},
		{"en", "yes, only official sources, no blogs"},
		{"en", "yes, only official sources, no Wikipedia"},
		{"en", "yes, just keep it short, never mind"},
		{"en", "yes, stick to government sources, don't bother"},
		{"en", "sure, only official sources. actually, forget it"},
		{"en", "ok, keep it short - no"},
		{"en", "yes, only peer-reviewed work, not now"},
		{"en", "yes, preferably recent sources, never mind"},
		{"en", "yes please, just government sources, no wait, don't"},
		{"en", "check it, only peer-reviewed work, nope"},
		{"en", "go ahead, just the EU rules, no thanks"},
		{"en", "sure, just your answer is enough"},
		{"en", "yes, just two or three links is enough"},
		{"de", "ja, nur Regierungsquellen, doch nicht"},
		{"de", "ja, bitte kurz, nein danke"},
		{"de", "ja, aber nein danke"},
		{"de", "ja bitte, doch nicht"},
		{"fr", "oui, en bref, non merci"},
		{"fr", "oui, mais non merci"},
		{"fr", "oui, finalement non"},
		{"es", "sí, solo fuentes oficiales, no gracias"},
		{"es", "sí, pero no gracias"},
		{"es", "sí, mejor no"},
		{"pt", "sim, mas não obrigado"},
		{"it", "sì, ma no grazie"},
		{"nl", "ja, maar nee dank je"},
		{"pl", "tak, ale nie dziękuję"},
		{"ru", "да, но нет спасибо"},
	} {
		for _, prev := range []string{previous, ""} {
			d := DecideAfter(tt.reply, prev)
			if !d.Unplaced && (d.Intent == Yes || d.Intent == SearchNow) {
				t.Errorf("%s: DecideAfter(%q, %q) = %s by %s (scope %q): a decline read as consent", tt.lang, tt.reply, prev, d.Intent, d.Rule, d.Scope)
			}
		}
	}
	for _, tt := range []struct{ reply, rule, scope string }{
		{"sure, keep it short", RuleYesScoped, "keep it short"},
		{"yes, but stick to government sources", RuleYesScoped, "stick to government sources"},
		{"yes, but only official sources", RuleYesScoped, "only official sources"},
		{"sure, avoid blogs", RuleYesScoped, "avoid blogs"},
	} {
		d := DecideAfter(tt.reply, previous)
		if d.Unplaced || d.Intent != Yes || d.Rule != tt.rule || d.Scope != tt.scope {
			t.Errorf("DecideAfter(%q) = %s by %s (scope %q, deferred %q); want YES by %s, scope %q", tt.reply, d.Intent, d.Rule, d.Scope, d.Deferred, tt.rule, tt.scope)
		}
	}
}

// TestPreviousQuerySettlesLanguage: the previous query is read too. After
// an English question, "i" is the English pronoun (an acknowledgement);
// after a Hausa one it is Hausa's yes, which two letters cannot tell from
// other languages': both are left to the model, for different reasons.
// After a question in another script, an English word is still English.
func TestPreviousQuerySettlesLanguage(t *testing.T) {
	if d := DecideAfter("i", "What is the capital of Nigeria"); d.Rule != RuleDeferAcknowledgement {
		t.Errorf("\"i\" after an English question: %s %s (%s)", d.Intent, d.Rule, d.Deferred)
	}
	if d := DecideAfter("i", "Menene babban birnin Najeriya"); d.Rule != RuleDeferLanguage || !strings.Contains(d.Deferred, "two letters") {
		t.Errorf("\"i\" after a Hausa question: %s %s (%s)", d.Intent, d.Rule, d.Deferred)
	}
	if d := DecideAfter("no", "¿Cuál es la capital de Francia?"); d.Intent != No || d.Unplaced {
		t.Errorf("\"no\" after a Spanish question: %s %s", d.Intent, d.Rule)
	}
	if d := DecideAfter("ok", "フランスの首都は"); d.Intent != Yes || d.Unplaced {
		t.Errorf("\"ok\" after a Japanese question: %s %s", d.Intent, d.Rule)
	}
	if !notEnglish("Aké je hlavné mesto Francúzska") || notEnglish("What is the capital of France") || !notEnglish("フランスの首都は") || notEnglish("") {
		t.Error("notEnglish misreads a previous query")
	}
}
