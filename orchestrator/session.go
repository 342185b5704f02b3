package orchestrator

import (
	"context"

	"github.com/searchbench/searchbench/orchestrator/consent"
	"github.com/searchbench/searchbench/orchestrator/llm"
	"github.com/searchbench/searchbench/orchestrator/prompts"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// Session is one conversation: the turn state machine of the seed.
// A Session is not safe for concurrent use; run one per goroutine.
type Session struct {
	a     *Assistant
	trace trace.Session

	// Set after a Phase 1 answer, until the reply to its consent question.
	awaiting bool
	query    string // the query Phase 1 answered
	phase1   string // the Phase 1 text shown
}

// NewSession starts a conversation.
func (a *Assistant) NewSession() *Session {
	return &Session{a: a, trace: trace.Session{Variant: a.prompts.Variant, Mode: a.opts.Mode, Turns: []trace.Turn{}}}
}

// Trace returns the turns so far.
func (s *Session) Trace() *trace.Session { return &s.trace }

// AwaitingConsent reports whether the last answer was a Phase 1 answer whose
// consent question has not been answered yet.
func (s *Session) AwaitingConsent() bool { return s.awaiting }

// Turn answers one user message. The returned turn is also appended to the
// session's trace. A non-nil error means the turn could not finish (the
// services failed after retries, or a recorded response was missing); the
// turn then records the error and the session is no longer awaiting consent.
func (s *Session) Turn(ctx context.Context, text string) (trace.Turn, error) {
	d := consent.Decide(text, false)
	if s.awaiting {
		d = consent.DecideAfter(text, s.query)
	}
	t := trace.Turn{
		Index:           len(s.trace.Turns),
		Input:           text,
		AwaitingConsent: s.awaiting,
		Intent:          string(d.Intent),
		IntentRule:      d.Rule,
		ConsentScope:    d.Scope,
		ConsentDeferred: d.Deferred,
		Override:        d.Override,
		Phase:           d.Phase,
	}
	var err error
	if s.awaiting {
		d, err = s.a.placeConsent(ctx, &t, d, s.query)
	}
	switch {
	case err != nil:
		// The model's verdict could not be read: the turn ends, naming
		// why, and no phase runs on a guess. The question stays open.
		t.Error = err.Error()
		s.trace.Turns = append(s.trace.Turns, t)
		return t, err
	case d.Intent == consent.Yes || d.Intent == consent.SearchNow:
		// Consent: search the query Phase 1 answered, under the
		// condition the consent put on it, if any.
		t.Query = s.query
		err = s.a.phase2(ctx, &t, s.scoped(d.Scope, []message{user(s.query), assistant(s.phase1), user(text)}))
		s.awaiting = false
	case d.Phase == trace.Phase2:
		t.Query = d.Query
		t.Phase1Skipped = true
		err = s.a.phase2(ctx, &t, []message{user(d.Query)})
		s.awaiting = false
	case d.Phase == trace.Decline:
		t.Query = s.query
		err = s.a.decline(ctx, &t, []message{user(s.query), assistant(s.phase1), user(text)})
		s.awaiting = false
	default:
		t.Query = d.Query
		err = s.a.phase1(ctx, &t)
		s.awaiting = err == nil
		s.query, s.phase1 = t.Query, t.Output
	}
	if err != nil {
		t.Error = err.Error()
		s.awaiting = false
	}
	s.trace.Turns = append(s.trace.Turns, t)
	return t, err
}

// scoped puts the scope instruction before history when the consent named
// a condition: the phase2 system prompt comes first, then this, then the
// conversation.
func (s *Session) scoped(scope string, history []message) []message {
	if scope == "" {
		return history
	}
	return append([]message{system(ScopeInstruction(scope))}, history...)
}

// placeConsent asks the model about a consent reply the rules left to it,
// unless the options say rules only, and routes the turn by its verdict:
// YES and SEARCH_NOW search (with the scope the model read), NO declines,
// NEW_QUERY keeps the rules' new query. A verdict that cannot be had or
// read is an error: the trace names it and the turn ends.
func (a *Assistant) placeConsent(ctx context.Context, t *trace.Turn, d consent.Decision, previous string) (consent.Decision, error) {
	t.IntentBy = "rule"
	if !d.Unplaced || a.opts.RulesOnlyConsent {
		return d, nil
	}
	var ct trace.Turn
	v, err := a.askConsent(ctx, &ct, previous, d.Input)
	if len(ct.ModelCalls) > 0 {
		t.ConsentCall = &ct.ModelCalls[0]
		t.Usage = t.Usage.Add(ct.Usage)
		t.Latency.ModelMS += ct.Latency.ModelMS
	}
	t.IntentBy = "model"
	if err != nil {
		t.IntentReason = err.Error()
		t.Intent, t.Phase = "", ""
		return d, err
	}
	t.Intent, t.IntentReason = string(v.Intent), v.Reason
	switch v.Intent {
	case consent.Yes, consent.SearchNow:
		d.Intent, d.Phase, d.Query, d.Override, d.Scope = v.Intent, trace.Phase2, "", false, v.Scope
	case consent.No:
		d.Intent, d.Phase, d.Query, d.Override, d.Scope = consent.No, trace.Decline, "", false, ""
	}
	t.Phase, t.Override, t.ConsentScope = d.Phase, d.Override, d.Scope
	return d, nil
}

// Search answers query with Phase 2 directly, as when the system (not the
// user) asks for a search-backed answer. No Phase 1 answer precedes it, so
// the right verification sentence is the "skipped" one.
func (s *Session) Search(ctx context.Context, query string) (trace.Turn, error) {
	t := trace.Turn{
		Index:         len(s.trace.Turns),
		Input:         query,
		Phase:         trace.Phase2,
		Query:         query,
		Phase1Skipped: true,
	}
	err := s.a.phase2(ctx, &t, []message{user(query)})
	if err != nil {
		t.Error = err.Error()
	}
	s.awaiting = false
	s.trace.Turns = append(s.trace.Turns, t)
	return t, err
}

// Classify returns the turn a consent reply leads to without running it:
// what the harness's consent dataset scores. It makes no request: the rules
// alone decide, and a reply they leave to the model keeps their reading
// (ConsentDeferred says why it was left). previous is the query the consent
// question was about ("" when unknown).
func Classify(reply, previous string) trace.Turn {
	return classifyTurn(consent.DecideAfter(reply, previous))
}

// ClassifyWithModel is Classify that, for a reply the rules leave to the
// model, asks the chat model behind c as a session would, with the prompt
// set p (nil: the built-in seed). IntentBy says which decided; a verdict
// that cannot be had or read is returned as the error, with the turn as far
// as it got.
func ClassifyWithModel(ctx context.Context, c *llm.Client, p *prompts.Set, reply, previous string) (trace.Turn, error) {
	d := consent.DecideAfter(reply, previous)
	t := classifyTurn(d)
	a := &Assistant{clients: Clients{LLM: c}, prompts: p}
	d, err := a.placeConsent(ctx, &t, d, previous)
	if err != nil {
		return t, err
	}
	t.Query = d.Query
	return t, nil
}

func classifyTurn(d consent.Decision) trace.Turn {
	return trace.Turn{
		Input:           d.Input,
		AwaitingConsent: true,
		Intent:          string(d.Intent),
		IntentRule:      d.Rule,
		IntentBy:        "rule",
		ConsentScope:    d.Scope,
		ConsentDeferred: d.Deferred,
		Override:        d.Override,
		Phase:           d.Phase,
		Query:           d.Query,
		ToolsOffered:    []string{},
		ModelCalls:      []trace.ModelCall{},
	}
}
