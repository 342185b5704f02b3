package orchestrator

import (
	"context"

	"github.com/searchbench/searchbench/orchestrator/consent"
	"github.com/searchbench/searchbench/orchestrator/llm"
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
	if s.awaiting {
		d = s.a.placeConsent(ctx, &t, d)
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

// placeConsent asks the model about a consent reply the rules could not
// place, unless the options say rules only, and routes the turn by its
// verdict: YES searches, NO declines, NEW_QUERY keeps the rules' new query.
// Without a usable verdict the rules' reading stands.
func (a *Assistant) placeConsent(ctx context.Context, t *trace.Turn, d consent.Decision) consent.Decision {
	t.IntentBy = "rule"
	if !d.Unplaced || a.opts.RulesOnlyConsent {
		return d
	}
	var ct trace.Turn
	in, ok := a.askConsent(ctx, &ct, d.Input)
	t.IntentReason = ct.IntentReason
	if len(ct.ModelCalls) > 0 {
		t.ConsentCall = &ct.ModelCalls[0]
		t.Usage = t.Usage.Add(ct.Usage)
		t.Latency.ModelMS += ct.Latency.ModelMS
	}
	if !ok {
		return d
	}
	t.IntentBy, t.Intent = "model", string(in)
	switch in {
	case consent.Yes:
		d.Intent, d.Phase, d.Query, d.Override = consent.Yes, trace.Phase2, "", false
	case consent.No:
		d.Intent, d.Phase, d.Query, d.Override = consent.No, trace.Decline, "", false
	}
	t.Phase, t.Override = d.Phase, d.Override
	return d
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
// alone decide, even a reply they cannot place.
func Classify(reply string) trace.Turn {
	return classifyTurn(consent.Decide(reply, true))
}

// ClassifyWithModel is Classify that, for a reply the rules cannot place,
// asks the chat model behind c as a session would (IntentBy says which
// decided). A model that gives no usable verdict leaves the rules' reading,
// with IntentReason saying why.
func ClassifyWithModel(ctx context.Context, c *llm.Client, reply string) trace.Turn {
	d := consent.Decide(reply, true)
	t := classifyTurn(d)
	a := &Assistant{clients: Clients{LLM: c}}
	d = a.placeConsent(ctx, &t, d)
	t.Query = d.Query
	return t
}

func classifyTurn(d consent.Decision) trace.Turn {
	return trace.Turn{
		Input:           d.Input,
		AwaitingConsent: true,
		Intent:          string(d.Intent),
		IntentRule:      d.Rule,
		IntentBy:        "rule",
		ConsentScope:    d.Scope,
		Override:        d.Override,
		Phase:           d.Phase,
		Query:           d.Query,
		ToolsOffered:    []string{},
		ModelCalls:      []trace.ModelCall{},
	}
}
