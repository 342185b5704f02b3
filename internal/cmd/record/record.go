// Package record implements `searchbench record`: record the cassettes of
// the selected cases from the live services or from the simulator.
package record

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/eval/price"
	"github.com/searchbench/searchbench/eval/report"
	evalrun "github.com/searchbench/searchbench/eval/run"
	"github.com/searchbench/searchbench/internal/cmd/variant"
	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/orchestrator/httpx"
	"github.com/searchbench/searchbench/orchestrator/prompts"
)

// MaxSamples bounds --samples: each sample is a full recording of the case.
const MaxSamples = 100

// Options are the flags of `searchbench record`.
type Options struct {
	IO *cmdutil.IOStreams

	Backend   string
	Datasets  string
	Variant   variant.Flags
	SimPolicy string
	Stale     bool
	Cassettes string
	Filter    []string
	Parallel  int
	Samples   int
	Seed      int64
	Force     bool
	// Strict refuses to save a live case in which a search failed.
	Strict bool

	// Providers is the rate limits and prices file ("": config/providers.yaml
	// when present, else the built-in copy).
	Providers string
	MaxUSD    float64
	MaxTokens int
	Estimate  bool
	// NoPace sends live requests as fast as --parallel allows, as before
	// pacing existed (the benchmark's comparison).
	NoPace bool
	// Clock paces a live recording (nil: the wall clock); tests inject one.
	Clock httpx.Clock
	// Transport carries a live recording's requests under the pacer (nil:
	// http.DefaultTransport).
	Transport http.RoundTripper
}

// NewCmdRecord returns the record command. runF replaces recordRun in tests.
func NewCmdRecord(io *cmdutil.IOStreams, runF func(context.Context, *Options) error) *cobra.Command {
	opts := &Options{IO: io}
	cmd := &cobra.Command{
		Use:   "record",
		Short: "Record the cassettes of the selected cases",
		Long: `Record the HTTP traffic of every selected routing and flows case into
cassettes/<variant>/<mode>/<dataset>/<case-id>.yaml, case by case, and note in
cassettes/<variant>/<mode>/recorded.json the backend and the hash of every
variant file each case's requests used. A later replay names the cassettes a
prompt edit made stale; --stale records only those (and missing ones), in
every mode the variant has cassettes of (model and structured: the gate
replays both) unless --mode names one.

--backend sim talks to a fresh in-process simulator per case (no keys, no
network) and records deterministically: recording twice gives identical files.
The simulator cannot read prompts: it plays a scripted policy. A variant with a
policy of its own (seed, routing-examples) gets it; any other variant is refused
unless --sim-policy names the policy to play.
--backend live talks to the real services with the keys in CEREBRAS_API_KEY (or
OPENAI_API_KEY), TAVILY_API_KEY and EXA_API_KEY; base URLs and the model come
from SEARCHBENCH_LLM_BASE_URL, SEARCHBENCH_LLM_MODEL, TAVILY_BASE_URL and
EXA_BASE_URL. Keys are scrubbed before anything is written.

--samples N records N independent samples of each case: sample 1 in
<case-id>.yaml, exactly as a one-sample recording, and sample k ≥ 2 in
<case-id>.s<k>.yaml, its requests carrying "seed": k (Cerebras and vLLM accept
it) and the variant's temperature. Without --samples, each case keeps the
number of samples recorded.json lists for it (one for a new case).

--seed S draws every sample afresh, sample 1 included: sample k's requests
carry "seed": S·1000+k, and recorded.json keeps S so a replay sends the same
seeds. Two seeds give independent draws, as two re-recordings against a live
model do: record the unchanged prompt with a few seeds and gate each against
the baseline to see how often noise alone fails your gate (make aa). Without
--seed the draws are the default ones (sample 1 unseeded, sample k seeded k),
so the shipped cassettes are reproducible.

A cassette is replaced only when its case ran to the end; a failed case keeps
its previous cassettes. --backend sim refuses to replace cassettes recorded live
(recorded.json says which), naming them, unless --force.

--backend live paces itself per provider (chat, Tavily, Exa): requests and
tokens per minute from the providers' x-ratelimit-* headers when they send
them, else from config/providers.yaml, whose published limits hold only at
the provider's own host (a vLLM server, a gateway or the simulator starts
bounded by the requests in flight, and is paced by its headers or its 429s);
a window of requests in flight that halves on a 429; Retry-After and reset
headers honoured exactly. A 429 is waited out and the request sent again
below the recorder, so cassettes hold no refusals. Off a terminal, a line of
progress is printed every tenth of the cases and every 10 seconds without
one; the summary says where each provider's pace came from.

--estimate prints, without sending anything, the requests, tokens, dollars
and the time at the known rate limits that recording the selection would
take, estimated from the cases' existing cassettes. --max-usd and
--max-tokens stop starting cases once the next case's estimate would pass
the budget: cases in flight finish, every finished cassette is kept, and
the command exits 1 naming the budget, what was spent and the cases left;
--stale then resumes.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return recordRun(cmd.Context(), opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Backend, "backend", evalrun.BackendSim, "where requests go: sim or live")
	f.StringVar(&opts.Datasets, "datasets", "datasets", "folder of dataset YAML files")
	opts.Variant.Register(f, true)
	f.StringVar(&opts.SimPolicy, "sim-policy", "", "simulator `policy` to play (--backend sim; default: the variant's own, if it has one)")
	f.BoolVar(&opts.Stale, "stale", false, "record only the cases whose cassette is missing or stale (every mode recorded so far, unless --mode)")
	f.StringVar(&opts.Cassettes, "cassettes", "cassettes", "cassette root folder")
	f.StringArrayVar(&opts.Filter, "filter", nil, "select cases (as for run); repeatable")
	f.IntVar(&opts.Parallel, "parallel", 4, "cases recorded at once (bounds requests in flight)")
	f.IntVar(&opts.Samples, "samples", 0, "samples recorded per case, each in its own cassette with its own seed (0: as recorded.json lists, else 1)")
	f.Int64Var(&opts.Seed, "seed", 0, "base `seed` of every sample's draws, sample 1 included (0: the default draws)")
	f.BoolVar(&opts.Strict, "strict", false, "--backend live: do not save a case in which a search failed (the provider's error would be recorded as what the model saw)")
	f.BoolVar(&opts.Force, "force", false, "let --backend sim replace cassettes recorded live (refused otherwise: they cost money)")
	f.StringVar(&opts.Providers, "providers", DefaultProviders, "rate limits and prices `file` (the built-in copy when the default is absent)")
	f.Float64Var(&opts.MaxUSD, "max-usd", 0, "stop starting cases when the next would pass this many `dollars` (estimated; 0: no budget)")
	f.IntVar(&opts.MaxTokens, "max-tokens", 0, "stop starting cases when the next would pass this many model `tokens` (estimated; 0: no budget)")
	f.BoolVar(&opts.NoPace, "no-pace", false, "--backend live: do not pace requests (only --parallel bounds them; 429s are retried by the client and recorded)")
	f.BoolVar(&opts.Estimate, "estimate", false, "print the requests, tokens, dollars and time the selection would take, and record nothing")
	return cmd
}

// recordRun records the selection. --stale with no --mode records the
// stale cassettes of every mode the variant has a shelf of (the gate
// replays each), model first; with a budget or --estimate, which cover one
// mode's spending, it records the default mode and names the others left.
func recordRun(ctx context.Context, opts *Options) error {
	if !opts.Stale || opts.Variant.Mode != "" {
		return recordMode(ctx, opts)
	}
	var modes []string
	for _, m := range prompts.Modes {
		if _, err := os.Stat(evalrun.Shelf{Root: opts.Cassettes, Variant: opts.Variant.Variant, Mode: m}.ManifestPath()); err == nil {
			modes = append(modes, m)
		}
	}
	if len(modes) < 2 {
		return recordMode(ctx, opts)
	}
	if opts.Estimate || opts.MaxUSD > 0 || opts.MaxTokens > 0 {
		o := *opts
		o.Variant.Mode = modes[0]
		err := recordMode(ctx, &o)
		for _, m := range modes[1:] {
			fmt.Fprintf(opts.IO.ErrOut, "note: --stale %s mode %s only (a budget or --estimate covers one mode); the gate also replays mode %s: %s\n",
				map[bool]string{true: "estimated", false: "recorded"}[opts.Estimate], modes[0], m, modeCommand(opts, m))
		}
		return err
	}
	for _, m := range modes {
		o := *opts
		o.Variant.Mode = m
		if err := recordMode(ctx, &o); err != nil {
			for _, left := range modes[slices.Index(modes, m)+1:] {
				fmt.Fprintf(opts.IO.ErrOut, "note: mode %s not recorded either; after the above: %s\n", left, modeCommand(opts, left))
			}
			return err
		}
	}
	return nil
}

// modeCommand is the command that records mode's stale cassettes as opts
// would have.
func modeCommand(opts *Options, mode string) string {
	args := []string{"searchbench", "record", "--backend", opts.Backend}
	if opts.SimPolicy != "" {
		args = append(args, "--sim-policy", opts.SimPolicy)
	}
	args = append(args, "--variant", opts.Variant.Variant, "--mode", mode, "--datasets", opts.Datasets, "--cassettes", opts.Cassettes, "--stale")
	for _, f := range opts.Filter {
		args = append(args, "--filter", f)
	}
	return strings.Join(args, " ")
}

func recordMode(ctx context.Context, opts *Options) error {
	if opts.Backend != evalrun.BackendSim && opts.Backend != evalrun.BackendLive {
		return cmdutil.Usagef("unknown --backend %q (want sim or live)", opts.Backend)
	}
	v, mode, err := opts.Variant.Load()
	if err != nil {
		return err
	}
	policy := ""
	if opts.Backend == evalrun.BackendSim {
		if policy, err = variant.Policy(v, opts.SimPolicy); err != nil {
			return err
		}
	} else if opts.SimPolicy != "" {
		return cmdutil.Usagef("--sim-policy applies to --backend sim only")
	}
	if opts.Samples < 0 || opts.Samples > MaxSamples {
		return cmdutil.Usagef("--samples %d: want 1 to %d (or 0: as recorded)", opts.Samples, MaxSamples)
	}
	if opts.Seed < 0 || opts.Seed > evalrun.MaxSeed {
		return cmdutil.Usagef("--seed %d: want 1 to %d (or 0: the default draws)", opts.Seed, evalrun.MaxSeed)
	}
	filter, err := dataset.ParseFilter(opts.Filter)
	if err != nil {
		return cmdutil.Usage(err)
	}
	sets, err := dataset.LoadDir(opts.Datasets)
	if err != nil {
		return cmdutil.Usage(err)
	}
	ropts := evalrun.RecordOptions{
		Variant:   v,
		Mode:      mode,
		Policy:    policy,
		Cassettes: opts.Cassettes,
		Backend:   opts.Backend,
		Parallel:  opts.Parallel,
		Getenv:    opts.IO.Getenv,
		Samples:   opts.Samples,
		Seed:      opts.Seed,
		Force:     opts.Force,
	}
	shelf := ropts.Shelf()
	items := evalrun.Plan(sets, filter, dataset.Shard{K: 1, N: 1})
	if opts.Stale {
		if items, err = evalrun.Pending(items, shelf, v, opts.Samples); err != nil {
			return cmdutil.Infra(err)
		}
		if len(items) == 0 {
			summary(opts, fmt.Sprintf("nothing to record: every selected cassette under %s is current for variant %s (hash %s)", filepath.ToSlash(shelf.Dir()), v.Name, v.Hash))
			return nil
		}
	}
	var traffic []evalrun.Item
	for _, it := range items {
		if evalrun.NeedsTraffic(it.Case) {
			traffic = append(traffic, it)
		}
	}
	total := len(traffic)
	if total == 0 {
		return cmdutil.Usagef("no routing or flows case matches the filter %q", opts.Filter)
	}
	if opts.MaxUSD < 0 || opts.MaxTokens < 0 {
		return cmdutil.Usagef("--max-usd %v, --max-tokens %d: a budget is positive (0: none)", opts.MaxUSD, opts.MaxTokens)
	}
	prov, err := loadProviders(opts.Providers)
	if err != nil {
		return cmdutil.Usage(err)
	}
	table, err := price.LoadOverlay(prov.Prices, filepath.Join(opts.Variant.Prompts, v.Name, price.VariantFile))
	if err != nil {
		return cmdutil.Usage(err)
	}
	model := v.Settings.Model
	if model == "" {
		model = opts.IO.Getenv("SEARCHBENCH_LLM_MODEL")
	}
	if model == "" {
		model = table.DefaultModel
	}
	// A model the price table does not know is unpriced: said everywhere
	// a dollar figure would be, never shown as $0.
	_, pricedAs, priced := table.Lookup(model)
	var unpriced *price.UnpricedError
	if !priced {
		unpriced = &price.UnpricedError{Model: model}
		if opts.MaxUSD > 0 {
			return cmdutil.Usagef("--max-usd %s needs a price for the model: %v", usdString(opts.MaxUSD), unpriced)
		}
	}
	// Estimates come from the case's own cassette, else the shipped seed
	// recording of it.
	shelves := []evalrun.Shelf{shelf}
	if seed := (evalrun.Shelf{Root: opts.Cassettes, Variant: "seed", Mode: mode}); seed != shelf {
		shelves = append(shelves, seed)
	}
	// Estimates cost a read of every cassette: only when something uses
	// them (a simulator recording costs nothing).
	ests := make([]evalrun.Estimate, len(traffic))
	if opts.Estimate || opts.MaxUSD > 0 || opts.MaxTokens > 0 {
		if ests, err = evalrun.EstimateItems(traffic, shelves, table, model, opts.Samples); err != nil {
			return cmdutil.Usage(err)
		}
	}
	if opts.Estimate {
		printEstimate(opts.IO.Out, traffic, ests, prov.PaceLimits(laneBases(opts.IO.Getenv)), estimateModel{name: model, pricedAs: pricedAs, unpriced: unpriced}, max(opts.Samples, 1))
		return nil
	}
	if opts.Backend == evalrun.BackendSim {
		warn := "note"
		if policy != v.Name {
			warn = "WARNING"
		}
		for _, l := range report.WrapText(fmt.Sprintf("%s: recording variant %s from the simulator, which plays the scripted policy %q: it does not read prompts, so its answers are that policy's whatever the prompts say", warn, v.Name, policy), cmdutil.DefaultWidth, "  ") {
			fmt.Fprintln(opts.IO.ErrOut, l)
		}
	}
	if t := v.Settings.Temperature; opts.Samples > 1 && t != nil && *t == 0 {
		fmt.Fprintf(opts.IO.ErrOut, "WARNING: variant %s sets temperature 0: a real model's samples will hardly differ, so they measure little beyond the first\n", v.Name)
	}
	var pacer *httpx.Pacer
	var plans map[string]price.LanePlan
	if opts.Backend == evalrun.BackendLive && opts.NoPace {
		ropts.Transport = opts.Transport
	} else if opts.Backend == evalrun.BackendLive {
		// The published limits hold only at the provider's own host.
		plans = prov.PaceLimits(laneBases(opts.IO.Getenv))
		pacer = httpx.NewPacer(opts.Transport, httpx.PacerOptions{Lanes: paceLimits(plans), Route: evalrun.RouteRequest, Clock: opts.Clock})
		ropts.Transport = pacer
	}
	clock := opts.Clock
	if clock == nil {
		clock = httpx.RealClock
	}

	est := make(map[string]evalrun.Estimate, total)
	for i, it := range traffic {
		est[it.Case.Key()] = ests[i]
	}
	var mu sync.Mutex
	b := &budget{maxUSD: opts.MaxUSD, maxTokens: opts.MaxTokens, used: map[string]price.Usage{}}
	// A resumed recording's budget counts what the recordings it finishes
	// have spent already (recorded.json keeps it while cases are left).
	if m, err := shelf.LoadManifest(); err == nil && opts.Stale && m.Unfinished != nil {
		b.spentUSD, b.spentTokens = m.Unfinished.SpentUSD, m.Unfinished.SpentTokens
		if b.spentUSD > 0 || b.spentTokens > 0 {
			summary(opts, fmt.Sprintf("resuming a recording that has spent %s (%s tokens) so far; the budget counts it", usdString(b.spentUSD), thousands(b.spentTokens)))
		}
	}
	carried := b.spentUSD
	type spend struct {
		usd    float64
		tokens int
	}
	spent := map[string]spend{}
	var searches failedSearches
	cassettes := 0
	ropts.Strict = opts.Strict
	ropts.FailedSearch = func(c *dataset.Case, s []string) {
		mu.Lock()
		defer mu.Unlock()
		searches.add(c, s)
	}
	ropts.Cost = func(c *dataset.Case) (float64, int) {
		mu.Lock()
		defer mu.Unlock()
		return spent[c.Key()].usd, spent[c.Key()].tokens
	}
	recorded := 0 // cases whose cassettes and description are on disk
	ropts.Saved = func(c *dataset.Case, n int) {
		mu.Lock()
		defer mu.Unlock()
		recorded++
		cassettes += n
	}
	var bar *progressbar.ProgressBar
	var pipe *pipeProgress
	stopPipe := func() {}
	desc := "recording " + v.Name + "/" + mode
	if opts.IO.IsStderrTTY() {
		bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(opts.IO.ErrOut),
			progressbar.OptionSetDescription(desc), progressbar.OptionShowCount(), progressbar.OptionClearOnFinish(),
			progressbar.OptionSetPredictTime(true))
	} else {
		// In a pipe (CI, a log file) a line every tenth of the cases, or
		// every 10 seconds without one: a long recording never looks
		// hung. The simulator's recordings are quick: by time only.
		step := 0
		if opts.Backend == evalrun.BackendLive {
			step = max(1, total/10)
		}
		pipe = newPipeProgress(opts.IO.ErrOut, clock, &mu, desc, total, step, func() string { return progressLine(pacer, b, unpriced) })
		pctx, stop := context.WithCancel(ctx)
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { defer wg.Done(); pipe.run(pctx) }()
		stopPipe = func() { stop(); wg.Wait() }
		defer stopPipe()
	}
	finished := 0 // cases that started and ended, either way
	ropts.Admit = func(c *dataset.Case) bool {
		mu.Lock()
		defer mu.Unlock()
		return b.admit(est[c.Key()])
	}
	ropts.Used = func(c *dataset.Case, u price.Usage) {
		mu.Lock()
		defer mu.Unlock()
		u.Model = model
		b.used[c.Key()] = u
	}
	ropts.Done = func(c *dataset.Case, err error) {
		mu.Lock()
		defer mu.Unlock()
		finished++
		e := est[c.Key()]
		u, ok := b.used[c.Key()]
		usd := e.USD // a failed case spent an unknown part: count the estimate
		tokens := e.Tokens()
		if ok {
			usd, _ = table.USD(u) // the model was priced by the estimate already
			tokens = u.Tokens()
		}
		b.finish(e, usd, tokens)
		spent[c.Key()] = spend{usd, tokens}
		if bar != nil {
			bar.Describe(desc + " " + progressLine(pacer, b, unpriced))
			bar.Add(1)
		}
		if pipe != nil {
			pipe.done(err != nil)
		}
	}
	err = evalrun.Record(ctx, items, ropts)
	stopPipe()
	if bar != nil {
		bar.Finish()
	}
	if pacer != nil {
		for _, line := range pacingSummary(pacer, plans) {
			for _, l := range report.WrapText(line, cmdutil.DefaultWidth, "  ") {
				fmt.Fprintln(opts.IO.ErrOut, l)
			}
		}
	}
	searches.warn(opts.IO.ErrOut, opts.IO.Width(false))
	resume := resumeCommand(opts, v, mode, policy)
	var budgetErr error
	if b.stopped {
		budgetErr = fmt.Errorf("budget reached: %s; spent %s (%s tokens) on %d cases%s; %d of %d cases left, not started (their cassettes are unchanged; replay refuses them until they are recorded): raise the budget and resume with:\n  %s",
			b.describe(), spentString(b.spentUSD, unpriced), thousands(b.spentTokens), finished, carriedNote(carried), total-finished, total, resume)
	}
	if err != nil || ctx.Err() != nil {
		if err == nil {
			err = ctx.Err()
		}
		if finished == 0 && ctx.Err() == nil && !isDiskError(err) {
			// Nothing was recorded: a configuration problem (a missing key).
			return cmdutil.Usage(err)
		}
		// Say what happened to every case, what stopped the recording, and
		// the one command that finishes it. recorded.json lists every case
		// not recorded as unfinished: replay refuses them, whatever their
		// cassettes, and --stale records exactly those.
		var b strings.Builder
		for _, l := range report.WrapText(fmt.Sprintf("%d of %d cases recorded (%d cassettes); %d failed or interrupted, %d not started: "+
			"recorded.json notes them unfinished, and replay refuses them until they are recorded. %s:",
			recorded, total, cassettes, finished-recorded, total-finished, resumeVerb(err)), cmdutil.DefaultWidth, "") {
			b.WriteString(l + "\n")
		}
		err = fmt.Errorf("%s\n%s  %s\nwhat failed:\n%w", stopCause(ctx.Err(), err), b.String(), resume, err)
		if budgetErr != nil {
			err = fmt.Errorf("%w\n%w", budgetErr, err)
		}
		return cmdutil.Infra(err)
	}
	if budgetErr != nil {
		return &cmdutil.ExitError{Code: cmdutil.ExitFail, Err: budgetErr}
	}
	by := opts.Backend
	if policy != "" {
		by += ", policy " + policy
	}
	spentNote := ""
	if opts.Backend == evalrun.BackendLive {
		spentNote = "; spent " + spentString(b.spentUSD, unpriced) + carriedNote(carried)
	}
	if opts.Samples > 1 {
		summary(opts, fmt.Sprintf("recorded %d cases × %d samples = %d cassettes under %s (variant %s, hash %s; backend %s%s)", recorded, opts.Samples, cassettes, filepath.ToSlash(shelf.Dir()), v.Name, v.Hash, by, spentNote))
		return nil
	}
	summary(opts, fmt.Sprintf("recorded %d cassettes under %s (variant %s, hash %s; backend %s%s)", cassettes, filepath.ToSlash(shelf.Dir()), v.Name, v.Hash, by, spentNote))
	return nil
}

// carriedNote says how much of a budget's spend an earlier, unfinished
// recording made.
func carriedNote(carried float64) string {
	if carried <= 0 {
		return ""
	}
	return fmt.Sprintf(" (%s of it before, by the recording this one resumes)", usdString(carried))
}

// isDiskError reports whether a recording stopped because the disk refused
// a write.
func isDiskError(err error) bool {
	var de *evalrun.DiskError
	return errors.As(err, &de)
}

// stopCause is the first line of a recording that did not finish: why.
func stopCause(ctxErr, err error) string {
	var de *evalrun.DiskError
	switch {
	case ctxErr != nil:
		return "recording interrupted (" + ctxErr.Error() + ")"
	case errors.As(err, &de):
		return "recording stopped: the disk refused a write (" + de.Cause() + ")"
	}
	return "recording finished with failed cases"
}

// resumeVerb says what to do before the resume command.
func resumeVerb(err error) string {
	if isDiskError(err) {
		return "Free disk space, then resume with"
	}
	return "Resume with"
}

// Run records as the command would with opts; tests call it to inject a
// transport and a clock.
func Run(ctx context.Context, opts *Options) error { return recordRun(ctx, opts) }

// summary prints a line of record's summary on stdout, wrapped to its
// width (a path stays whole where it can).
func summary(opts *Options, s string) {
	for _, l := range report.WrapText(s, opts.IO.Width(false), "  ") {
		fmt.Fprintln(opts.IO.Out, l)
	}
}
