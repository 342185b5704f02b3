package orchestrator

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/searchbench/searchbench/orchestrator/answer"
	"github.com/searchbench/searchbench/orchestrator/httpx"
	"github.com/searchbench/searchbench/orchestrator/llm"
	"github.com/searchbench/searchbench/orchestrator/prompts"
	"github.com/searchbench/searchbench/orchestrator/search"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// Defaults of the seed's limits.
const (
	DefaultQueryLimit = 3 // queries per tool per answer
	DefaultMaxResults = 5 // results per query
	DefaultMaxRounds  = 4 // model requests in one Phase 2 tool loop
)

// Options shape the assistant's behaviour. The zero value is the seed's
// default: the built-in "seed" prompt variant, model output mode, no repair.
// The variant's settings (variant.yaml) fill in every option left at its
// zero value: Mode, AlwaysOn, Model, Temperature, ReasoningEffort and
// MaxCompletionTokens.
type Options struct {
	Prompts  *prompts.Variant // prompt variant; nil: the built-in seed
	Mode     string           // trace.ModeModel (default) or trace.ModeStructured
	Repair   bool             // re-render the markdown of a valid envelope instead of failing
	AlwaysOn bool             // search the query with Tavily before Phase 2 and inject the results

	QueryLimit int // per tool; default 3
	MaxResults int // per query; default 5, never more than 5
	MaxRounds  int // model requests in a Phase 2 tool loop; default 4

	// CheckPhase2 checks a Phase 2 message against the output contract;
	// nil means answer.CheckPhase2. It must return what that function
	// returns. The harness passes a per-case memo, because its scorers
	// check the same messages again; the assistant never modifies a report.
	CheckPhase2 func(msg string) answer.Phase2Report

	// RulesOnlyConsent reads every consent reply with the rules alone: a
	// reply they cannot place (consent.Decision.Unplaced) is not sent to the
	// model as a classification request, and keeps the rules' reading.
	RulesOnlyConsent bool

	// Progress, when set, is told of each Phase 2 search as it starts and
	// as it ends, so a terminal can show what the turn is waiting for. It
	// is called on the turn's goroutine; nothing the assistant does
	// depends on it.
	Progress func(SearchProgress)

	// Model request knobs; zero values are left out of the request.
	Model               string // empty: the client's configured model
	Temperature         *float64
	Seed                *int
	ReasoningEffort     string
	MaxCompletionTokens int
}

// SearchProgress is one step of a Phase 2 search: its start (Done false),
// or its end with the results kept or the error.
type SearchProgress struct {
	Tool    string // trace.ToolTavily or trace.ToolExa
	Query   string
	Done    bool
	Results int
	Err     error
}

// Clients are the three services the assistant calls.
type Clients struct {
	LLM    *llm.Client
	Tavily *search.Tavily
	Exa    *search.Exa
}

// ClientsFromEnv builds the clients from environment variables (keys and
// base URLs, see README), all sending through rt with retry policy p. Every
// missing key is reported, by variable name, before any request is made.
func ClientsFromEnv(getenv func(string) string, rt http.RoundTripper, p httpx.Policy) (Clients, error) {
	var errs []error
	lc, err := llm.ConfigFromEnv(getenv)
	errs = append(errs, err)
	tc, err := search.TavilyConfigFromEnv(getenv)
	errs = append(errs, err)
	ec, err := search.ExaConfigFromEnv(getenv)
	errs = append(errs, err)
	if err := errors.Join(errs...); err != nil {
		return Clients{}, err
	}
	lc.Transport, tc.Transport, ec.Transport = rt, rt, rt
	lc.Retry, tc.Retry, ec.Retry = p, p, p
	return NewClients(lc, tc, ec)
}

// NewClients builds the clients from explicit configurations.
func NewClients(lc llm.Config, tc search.TavilyConfig, ec search.ExaConfig) (Clients, error) {
	l, err := llm.New(lc)
	if err != nil {
		return Clients{}, err
	}
	t, err := search.NewTavily(tc)
	if err != nil {
		return Clients{}, err
	}
	e, err := search.NewExa(ec)
	if err != nil {
		return Clients{}, err
	}
	return Clients{LLM: l, Tavily: t, Exa: e}, nil
}

// Assistant is a configured assistant; it starts sessions.
type Assistant struct {
	opts    Options
	prompts *prompts.Set
	tools   []llm.Tool
	clients Clients
}

// New returns an assistant using clients, with opts validated and defaulted.
func New(clients Clients, opts Options) (*Assistant, error) {
	if clients.LLM == nil || clients.Tavily == nil || clients.Exa == nil {
		return nil, errors.New("orchestrator: all three clients are required")
	}
	if opts.Prompts == nil {
		opts.Prompts = prompts.Builtin()
	}
	st := opts.Prompts.Settings
	if opts.Mode == "" {
		opts.Mode = st.Mode
	}
	opts.AlwaysOn = opts.AlwaysOn || st.AlwaysOnSearch
	if opts.Model == "" {
		opts.Model = st.Model
	}
	if opts.Temperature == nil {
		opts.Temperature = st.Temperature
	}
	if opts.ReasoningEffort == "" {
		opts.ReasoningEffort = st.ReasoningEffort
	}
	if opts.MaxCompletionTokens == 0 {
		opts.MaxCompletionTokens = st.MaxCompletionTokens
	}
	switch opts.Mode {
	case "":
		opts.Mode = trace.ModeModel
	case trace.ModeModel, trace.ModeStructured:
	default:
		return nil, fmt.Errorf("unknown output mode %q (want %s or %s)", opts.Mode, trace.ModeModel, trace.ModeStructured)
	}
	if opts.QueryLimit <= 0 {
		opts.QueryLimit = DefaultQueryLimit
	}
	if opts.MaxResults <= 0 || opts.MaxResults > DefaultMaxResults {
		opts.MaxResults = DefaultMaxResults
	}
	if opts.MaxRounds <= 0 {
		opts.MaxRounds = DefaultMaxRounds
	}
	if opts.CheckPhase2 == nil {
		opts.CheckPhase2 = answer.CheckPhase2
	}
	tools, err := toolsOf(opts.Prompts.Prompts)
	if err != nil {
		return nil, err
	}
	return &Assistant{opts: opts, prompts: opts.Prompts.Prompts, tools: tools, clients: clients}, nil
}

// decodedTools caches each prompt set's decoded tools: a replay builds one
// assistant per case from the same loaded variant. Assistants only read
// them.
var decodedTools sync.Map // *prompts.Set -> []llm.Tool

func toolsOf(set *prompts.Set) ([]llm.Tool, error) {
	if t, ok := decodedTools.Load(set); ok {
		return t.([]llm.Tool), nil
	}
	var tools []llm.Tool
	if err := json.Unmarshal(set.Tools, &tools); err != nil {
		return nil, fmt.Errorf("prompt variant %q: tools.json: %w", set.Variant, err)
	}
	decodedTools.Store(set, tools)
	return tools, nil
}

// Options returns the assistant's options after defaults.
func (a *Assistant) Options() Options { return a.opts }
