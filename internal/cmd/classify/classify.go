// Package classify implements `searchbench classify`: it shows how the
// assistant would route one user message — Phase 1, Phase 2 or a declined
// search — and which documented rule of orchestrator/consent decided, so that
// an engineer can check a phrasing without running the model.
package classify

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/orchestrator/consent"
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
id of the rule that decided; the rules are listed in orchestrator/consent/doc.go.`,
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
	cmd.Flags().StringVar(&opts.Previous, "previous", "", "the previous query, shown as the query for YES, SEARCH_NOW and NO (default \""+PreviousPlaceholder+"\")")
	return cmd
}

func classifyRun(_ context.Context, opts *Options) error {
	d := consent.Decide(opts.Text, opts.AwaitingConsent)
	r := Result{
		Input:           d.Input,
		Normalized:      consent.Normalize(d.Input),
		AwaitingConsent: d.AwaitingConsent,
		Intent:          string(d.Intent),
		Override:        d.Override,
		Phase:           d.Phase,
		Query:           d.Query,
		Rule:            d.Rule,
	}
	if d.AwaitingConsent && d.Intent != consent.NewQuery {
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
