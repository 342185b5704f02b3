package orchestrator

import (
	"context"

	"github.com/searchbench/searchbench/orchestrator/consent"
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
	d := consent.Decide(text, s.awaiting)
	t := trace.Turn{
		Index:           len(s.trace.Turns),
		Input:           text,
		AwaitingConsent: s.awaiting,
		Intent:          string(d.Intent),
		IntentRule:      d.Rule,
		ConsentScope:    d.Scope,
		Override:        d.Override,
		Phase:           d.Phase,
	}
	var err error
	switch {
	case d.Intent == consent.Yes || d.Intent == consent.SearchNow:
		// Consent: search the query Phase 1 answered.
		t.Query = s.query
		err = s.a.phase2(ctx, &t, []message{user(s.query), assistant(s.phase1), user(text)})
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
// what the harness's consent dataset scores. It makes no request.
func Classify(reply string) trace.Turn {
	d := consent.Decide(reply, true)
	return trace.Turn{
		Input:           reply,
		AwaitingConsent: true,
		Intent:          string(d.Intent),
		IntentRule:      d.Rule,
		ConsentScope:    d.Scope,
		Override:        d.Override,
		Phase:           d.Phase,
		Query:           d.Query,
		ToolsOffered:    []string{},
		ModelCalls:      []trace.ModelCall{},
	}
}
