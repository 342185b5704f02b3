// Package ask implements `searchbench ask`: the assistant on the terminal,
// against the live services (or the simulator, through the base URL
// variables).
package ask

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/searchbench/searchbench/internal/cmd/variant"
	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/lib/fsutil"
	"github.com/searchbench/searchbench/orchestrator"
	"github.com/searchbench/searchbench/orchestrator/httpx"
	"github.com/searchbench/searchbench/orchestrator/prompts"
	"github.com/searchbench/searchbench/orchestrator/search"
)

// Options are the flags of `searchbench ask`.
type Options struct {
	IO *cmdutil.IOStreams

	Once      string
	Trace     string
	Variant   variant.Flags
	Repair    bool
	AlwaysOn  bool
	MaxRounds int
	Effort    string
	// RulesOnlyConsent never asks the model about a consent reply the
	// rules cannot place.
	RulesOnlyConsent bool
	// JSON prints a Phase 2 answer whole, its JSON envelope included, on a
	// terminal too (off a terminal it always is).
	JSON bool

	// Transport replaces the HTTP transport in tests.
	Transport http.RoundTripper
}

// NewCmdAsk returns the ask command. runF replaces askRun in tests.
func NewCmdAsk(io *cmdutil.IOStreams, runF func(context.Context, *Options) error) *cobra.Command {
	opts := &Options{IO: io}
	cmd := &cobra.Command{
		Use:   "ask",
		Short: "Talk to the assistant: Phase 1, the y/n question, Phase 2",
		Long: `Run the two-phase assistant on the terminal. Type a question: the assistant
answers from its own knowledge (Phase 1) and asks whether to search; reply y/n
(or anything else to ask a new question). Start or end a question with '?' to
search straight away (Phase 2). End the session with Ctrl-D.

Keys: CEREBRAS_API_KEY (or OPENAI_API_KEY), TAVILY_API_KEY, EXA_API_KEY.
Endpoints: SEARCHBENCH_LLM_BASE_URL (default https://api.cerebras.ai/v1; a vLLM
server's /v1 works too), SEARCHBENCH_LLM_MODEL (default gpt-oss-120b),
TAVILY_BASE_URL, EXA_BASE_URL; WEB_SEARCH_MAX_RESULTS caps results per query.
To try it without keys, start 'searchbench sim' and export what it prints.

On a terminal, a Phase 2 answer is shown without its JSON envelope (its
bullets and sources are printed above it) and a status line on standard error
says which search the turn is waiting for; --json prints the envelope too.
Off a terminal (a pipe, a file) every answer is printed whole, as the
contract lays it out, and no status line is drawn.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return askRun(cmd.Context(), opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Once, "once", "", "answer this one `question` and exit (for scripts)")
	f.StringVar(&opts.Trace, "trace", "", "write the session's trace as JSON to `FILE`")
	opts.Variant.Register(f, true)
	f.BoolVar(&opts.Repair, "repair", false, "re-render the markdown of a valid envelope instead of failing")
	f.BoolVar(&opts.AlwaysOn, "always-on", false, "search the question with Tavily before Phase 2 and inject the results")
	f.IntVar(&opts.MaxRounds, "max-rounds", orchestrator.DefaultMaxRounds, "model requests in one Phase 2 tool loop")
	f.BoolVar(&opts.RulesOnlyConsent, "rules-only-consent", false, "read consent replies with the rules alone: never ask the model about one they cannot place")
	f.StringVar(&opts.Effort, "reasoning-effort", "", "GPT-OSS reasoning effort: low, medium or high (default: the server's)")
	f.BoolVar(&opts.JSON, "json", false, "print a Phase 2 answer's JSON envelope on a terminal too (off a terminal it always is)")
	return cmd
}

func askRun(ctx context.Context, opts *Options) (err error) {
	v, mode, err := opts.Variant.Load()
	if err != nil {
		return err
	}
	if opts.Effort != "" && !slices.Contains(prompts.ReasoningEfforts, opts.Effort) {
		return cmdutil.Usagef("--reasoning-effort %q: want one of %s", opts.Effort, strings.Join(prompts.ReasoningEfforts, ", "))
	}
	rt := opts.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	maxResults, err := search.MaxResultsFromEnv(opts.IO.Getenv)
	if err != nil {
		return cmdutil.Usage(err)
	}
	policy, err := httpx.PolicyFromEnv(opts.IO.Getenv, httpx.DefaultPolicy())
	if err != nil {
		return cmdutil.Usage(err)
	}
	clients, err := orchestrator.ClientsFromEnv(opts.IO.Getenv, rt, policy)
	if err != nil {
		return cmdutil.Usage(err)
	}
	st := newStatus(opts.IO)
	a, err := orchestrator.New(clients, orchestrator.Options{
		Progress:         st.search,
		Prompts:          v,
		Mode:             mode,
		Repair:           opts.Repair,
		AlwaysOn:         opts.AlwaysOn,
		MaxRounds:        opts.MaxRounds,
		MaxResults:       maxResults,
		ReasoningEffort:  opts.Effort,
		RulesOnlyConsent: opts.RulesOnlyConsent,
	})
	if err != nil {
		return cmdutil.Usage(err)
	}
	s := a.NewSession()
	if opts.Trace != "" {
		defer func() {
			b, merr := json.MarshalIndent(s.Trace(), "", "  ")
			if merr == nil {
				// The trace holds provider bodies verbatim: scrub them.
				merr = fsutil.WriteFileAtomic(opts.Trace, opts.IO.Secrets().Scrub(append(b, '\n')), 0o644)
			}
			if merr != nil && err == nil {
				err = cmdutil.Infra(merr)
			}
		}()
	}
	if opts.Once != "" {
		t, err := s.Turn(ctx, opts.Once)
		st.clear()
		if err != nil {
			return cmdutil.Infra(err)
		}
		fmt.Fprintln(opts.IO.Out, shown(t.Output, opts.JSON || !opts.IO.IsStdoutTTY()))
		return nil
	}
	return converse(ctx, opts, s, st)
}

// converse reads one message per line until end of input.
func converse(ctx context.Context, opts *Options, s *orchestrator.Session, st *status) error {
	in := bufio.NewScanner(opts.IO.In)
	in.Buffer(make([]byte, 64*1024), 1<<20)
	prompt := func() {
		if opts.IO.IsStdoutTTY() {
			fmt.Fprint(opts.IO.Out, "\nyou> ")
		}
	}
	prompt()
	for in.Scan() {
		text := strings.TrimSpace(in.Text())
		if text == "" {
			prompt()
			continue
		}
		t, err := s.Turn(ctx, text)
		st.clear()
		switch {
		case errors.Is(err, context.Canceled):
			return cmdutil.Infra(err)
		case err != nil:
			// The session stays usable: report and carry on.
			fmt.Fprintf(opts.IO.ErrOut, "searchbench: %v\n", err)
		default:
			fmt.Fprintln(opts.IO.Out, shown(t.Output, opts.JSON || !opts.IO.IsStdoutTTY()))
		}
		prompt()
	}
	if err := in.Err(); err != nil {
		return cmdutil.Infra(err)
	}
	return nil
}
