// Package classify implements `searchbench classify`: it shows how the
// assistant would route one user message — Phase 1, Phase 2 or a declined
// search — and which documented rule of orchestrator/consent decided, so that
// an engineer can check a phrasing without running the assistant. Only a
// consent reply the rules cannot place is sent to the chat model, when one
// is configured, as a session would; --rules-only never sends it.
package classify

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/spf13/cobra"

	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/orchestrator"
	"github.com/searchbench/searchbench/orchestrator/consent"
	"github.com/searchbench/searchbench/orchestrator/httpx"
	"github.com/searchbench/searchbench/orchestrator/llm"
)

// PreviousPlaceholder stands for the earlier query when --previous is not
// given: the command has no conversation history.
const PreviousPlaceholder = "<previous query>"

// Options are the inputs of classify.
type Options struct {
	IO *cmdutil.IOStreams

	// Text is the user's message: the arguments joined by one space.
	Text string
	// AwaitingConsent says the previous turn was a Phase 1 answer ending in
	// the consent question, so Text is first read as a consent reply.
	AwaitingConsent bool
	// Previous is the query a YES, SEARCH_NOW or NO reply is about.
	Previous string
	// RulesOnly shows the rules' verdict alone: a reply they cannot place
	// is not sent to the chat model.
	RulesOnly bool

	// Transport replaces the HTTP transport in tests.
	Transport http.RoundTripper
}

// Result is the JSON that classify prints.
type Result struct {
	Input           string `json:"input"`
	Normalized      string `json:"normalized"` // the text as the consent classifier reads it
	AwaitingConsent bool   `json:"awaiting_consent"`
	Intent          string `json:"intent,omitempty"` // only when awaiting consent
	Override        bool   `json:"override"`
	Phase           string `json:"phase"` // phase1, phase2 or decline
	// Query is the query the next phase answers: the new query, override
	// marker stripped, or for YES, SEARCH_NOW and NO the previous query.
	Query string `json:"query"`
	Rule  string `json:"rule"`
	// DecidedBy is "rule" or "model" for a consent reply; Unplaced says the
	// rules left it to the model, Deferred why (the precision rules of
	// orchestrator/consent), and RulesReading what the clause rules read
	// before they deferred it; Reason is the model's reason, or why the
	// rules' reading stands; Scope is the condition a consent put on the
	// search, which Phase 2 gets as an instruction.
	DecidedBy    string `json:"decided_by,omitempty"`
	Unplaced     bool   `json:"unplaced,omitempty"`
	Deferred     string `json:"deferred,omitempty"`
	RulesReading string `json:"rules_reading,omitempty"`
	Reason       string `json:"reason,omitempty"`
	Scope        string `json:"scope,omitempty"`
}

// NewCmdClassify returns the classify command. runF replaces classifyRun in
// tests.
func NewCmdClassify(io *cmdutil.IOStreams, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: io}
	cmd := &cobra.Command{
		Use:   "classify [--awaiting-consent [--previous QUERY]] TEXT...",
		Short: "Show how a user message is routed: Phase 1, Phase 2 or decline",
		Long: `classify shows how the assistant routes one user message, without calling any model.

Without --awaiting-consent the message is a new query: a leading or trailing '?'
(after trimming whitespace) sends it straight to Phase 2 with the marker removed,
anything else goes to Phase 1.

With --awaiting-consent the message answers "Would you like me to look this up and
confirm with sources? (y/n)" and is classified first as YES, NO, SEARCH_NOW or
NEW_QUERY; only a new query is then checked for the override. YES and SEARCH_NOW
search for the previous query (phase2), NO declines (decline).

The arguments are joined by one space. The decision is printed as JSON with the
id of the rule that decided; the rules are listed in orchestrator/consent/doc.go.

The rules decide only what they are sure of. A consent reply they leave to the
model ("unplaced": its language is not settled, a negation stands beside a yes,
a no follows a yes uncorrected, it only acknowledges…; "deferred" says which,
"rules_reading" what the clause rules read) is sent to the chat model as a small
classification request with the previous query (--previous), as in a live
session, when a model is configured (CEREBRAS_API_KEY or OPENAI_API_KEY,
SEARCHBENCH_LLM_BASE_URL; 'searchbench sim' answers it from its policy), with
seed's consent.md as its prompt; "decided_by" says which decided. A verdict the
model gives off its schema is an error. --rules-only shows the rules' verdict
alone and never sends a request.`,
		Example: `  searchbench classify "What are current EU AI regulations?"
  searchbench classify --awaiting-consent "no thanks, but what about Y?"
  searchbench classify --awaiting-consent --previous "who is the CEO of Microsoft" sure?`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Text = strings.Join(args, " ")
			if cmd.Flags().Changed("previous") && !opts.AwaitingConsent {
				return cmdutil.Usagef("--previous needs --awaiting-consent: only a consent reply refers to the previous query")
			}
			if runF != nil {
				return runF(opts)
			}
			return classifyRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.AwaitingConsent, "awaiting-consent", false, "the previous turn was a Phase 1 answer awaiting consent")
	cmd.Flags().BoolVar(&opts.RulesOnly, "rules-only", false, "show the consent rules' verdict alone: never ask the chat model")
	cmd.Flags().StringVar(&opts.Previous, "previous", "", "the previous query: the reply's language is read with it, and it is the query of YES, SEARCH_NOW and NO (default \""+PreviousPlaceholder+"\")")
	return cmd
}

func classifyRun(ctx context.Context, opts *Options) error {
	d := consent.Decide(opts.Text, false)
	if opts.AwaitingConsent {
		d = consent.DecideAfter(opts.Text, opts.Previous)
	}
	r := Result{
		Input:           d.Input,
		Normalized:      consent.Normalize(d.Input),
		AwaitingConsent: d.AwaitingConsent,
		Intent:          string(d.Intent),
		Override:        d.Override,
		Phase:           d.Phase,
		Query:           d.Query,
		Rule:            d.Rule,
		Unplaced:        d.Unplaced,
		Deferred:        d.Deferred,
		RulesReading:    string(d.Reading),
		Scope:           d.Scope,
	}
	if d.AwaitingConsent {
		r.DecidedBy = "rule"
	}
	if d.Unplaced && !opts.RulesOnly {
		if err := askModel(ctx, opts, &r); err != nil {
			return err
		}
	}
	if d.AwaitingConsent && consent.Intent(r.Intent) != consent.NewQuery {
		r.Query = opts.Previous
		if r.Query == "" {
			r.Query = PreviousPlaceholder
		}
	}
	enc := json.NewEncoder(opts.IO.Out)
	enc.SetEscapeHTML(false) // print "<previous query>" and "&" as typed
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return cmdutil.Infra(fmt.Errorf("writing classify result: %w", err))
	}
	return nil
}

// askModel asks the configured chat model about a reply the rules could not
// place and writes its verdict into r. With no model configured the rules'
// reading stands and r.Reason says so.
func askModel(ctx context.Context, opts *Options, r *Result) error {
	cfg, err := llm.ConfigFromEnv(opts.IO.Getenv)
	if err != nil {
		r.Reason = "the rules cannot place this reply and no chat model is configured (" + err.Error() + "): the rules' reading stands"
		return nil
	}
	policy, err := httpx.PolicyFromEnv(opts.IO.Getenv, httpx.DefaultPolicy())
	if err != nil {
		return cmdutil.Usage(err)
	}
	cfg.Transport, cfg.Retry = opts.Transport, policy
	if cfg.Transport == nil {
		cfg.Transport = http.DefaultTransport
	}
	c, err := llm.New(cfg)
	if err != nil {
		return cmdutil.Usage(err)
	}
	t, err := orchestrator.ClassifyWithModel(ctx, c, nil, r.Input, opts.Previous)
	if err != nil {
		return cmdutil.Infra(fmt.Errorf("classify %q: %w", r.Input, err))
	}
	r.Intent, r.Phase, r.Query, r.DecidedBy, r.Reason, r.Scope = t.Intent, t.Phase, t.Query, t.IntentBy, t.IntentReason, t.ConsentScope
	return nil
}
