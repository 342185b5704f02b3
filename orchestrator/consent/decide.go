package consent

import (
	"strings"

	"github.com/searchbench/searchbench/orchestrator/trace"
)

// Decision is how one user turn is routed.
type Decision struct {
	Input           string // the text as typed
	AwaitingConsent bool   // the previous turn was a Phase 1 answer ending in the consent question
	Intent          Intent // the consent intent; "" when not awaiting consent
	Override        bool   // a leading or trailing '?' forced Phase 2 for a new query
	// Phase is trace.Phase1, trace.Phase2 or trace.Decline.
	Phase string
	// Query is the new query the turn answers, override marker stripped,
	// when the turn starts a new query; "" for YES, SEARCH_NOW and NO, whose
	// turn is about the previous query.
	Query string
	// Rule is the id of the rule that decided (doc.go lists them): the
	// consent rule when awaiting consent, else the override or new-query rule.
	Rule string
	// Scope is the limit a scoped assent put on the search ("only official
	// sources"), as typed; "" otherwise. Phase 2 may use it.
	Scope string
	// Unplaced is set on a consent reply the rules leave to the model:
	// no clause of it decides and nothing marks it as a question ("Maleey",
	// "the 2019 one"; rule new.content), or a precision rule deferred it
	// (defer.*: its language is not settled, a negation stands beside a
	// yes, a no follows a yes uncorrected…). The rules read it as a new
	// query, as seed 000 says of "something else"; in live use the session
	// asks the chat model.
	Unplaced bool
	// Deferred says why the rules left the reply to the model; "" when
	// they decided it.
	Deferred string
	// Reading is what the clause rules read before a precision rule
	// deferred the reply ("" when none did): classify shows it.
	Reading Intent
	// Previous is the query the consent question was about, as the
	// classifier received it ("" unknown).
	Previous string
}

// Decide routes one turn. Not awaiting consent: an override goes to Phase 2,
// anything else to Phase 1. Awaiting consent, the reply is classified first,
// so a consent reply ending in '?' is consent, not an override: YES and
// SEARCH_NOW go to Phase 2 for the previous query, NO declines, and a
// NEW_QUERY's carried question goes to Phase 2 if it is an override and to
// Phase 1 otherwise.
func Decide(text string, awaitingConsent bool) Decision {
	if !awaitingConsent {
		return routeNew(Decision{Input: text}, text, "")
	}
	return DecideAfter(text, "")
}

// unplacedReason is Decision.Deferred for a reply no clause decides.
const unplacedReason = "no clause decides it, and nothing marks it as a question"

// DecideAfter routes a reply to the consent question about previous (the
// query Phase 1 answered; "" when unknown): Decide for a turn that awaits
// consent, with the previous query to settle the reply's language.
func DecideAfter(text, previous string) Decision {
	d := Decision{Input: text, AwaitingConsent: true, Previous: previous}
	v := classifyAfter(text, previous)
	d.Intent, d.Rule, d.Scope = v.intent, v.rule, v.scope
	d.Deferred, d.Reading = v.deferred, v.reading
	if v.rule == RuleNewContent && !lex().asks(text) {
		d.Deferred = unplacedReason
	}
	d.Unplaced = d.Deferred != ""
	switch {
	case d.Unplaced:
		// The model decides; until it has, nothing is searched on a
		// guess: a trailing '?' of a reply the rules could not read is no
		// override ("Achas?" declines in Portuguese).
		d.Phase, d.Query = trace.Phase1, strings.TrimSpace(v.query)
	case v.intent == Yes || v.intent == SearchNow:
		d.Phase = trace.Phase2
	case v.intent == No:
		d.Phase = trace.Decline
	default:
		d = routeNew(d, v.query, v.rule)
	}
	return d
}

// routeNew sends a new query to Phase 2 when it is an override and to
// Phase 1 otherwise. rule, when set, is the consent rule that made it new.
func routeNew(d Decision, query, rule string) Decision {
	q, orule := override(query)
	switch {
	case orule != "":
		d.Phase, d.Override, d.Query, d.Rule = trace.Phase2, true, q, orule
	case strings.ContainsFunc(query, isQueryRune):
		d.Phase, d.Query, d.Rule = trace.Phase1, strings.TrimSpace(query), RuleNewQuery
	default:
		d.Phase, d.Query, d.Rule = trace.Phase1, strings.TrimSpace(query), RuleNewEmpty
	}
	if rule != "" {
		d.Rule = rule
	}
	return d
}

// questionShaped reports whether a reply reads as a question or request of
// its own: a '?' or '¿', or a question opener or content cue among its words.
func (l *lexicon) questionShaped(text string) bool {
	for i, t := range tokenize(text, l) {
		switch {
		case t.kind == tokSep && t.text == "?":
			return true
		case t.kind == tokWord && (l.cues[t.key] || (i == 0 && l.openers[t.key])):
			return true
		}
	}
	return false
}
