// Package run replays dataset cases through the orchestrator and scores
// them, or records their traffic into cassettes. Both go through Execute, so
// a replay asks for exactly what the recording answered.
//
// A case recorded with several samples (RecordOptions.Samples) has one
// cassette per sample (Shelf.SamplePath) and is replayed once per sample;
// sample 1 makes its record and the others are attached to it.
//
// Cases run in parallel (bounded by Options.Parallel) and their records are
// written in selection order, so a run's reports are byte-identical however
// the work was scheduled. Records stream to the writers as cases finish; only
// the aggregates stay in memory.
package run

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/eval/vcr"
	"github.com/searchbench/searchbench/lib/fsutil"
	"github.com/searchbench/searchbench/lib/secret"
	"github.com/searchbench/searchbench/orchestrator"
	"github.com/searchbench/searchbench/orchestrator/answer"
	"github.com/searchbench/searchbench/orchestrator/executor"
	"github.com/searchbench/searchbench/orchestrator/httpx"
	"github.com/searchbench/searchbench/orchestrator/llm"
	"github.com/searchbench/searchbench/orchestrator/prompts"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// Item is one selected case and its position in the whole selection.
type Item struct {
	Seq  int
	Case *dataset.Case
}

// Plan selects the cases of ds that pass f, numbers them in selection order,
// and keeps those in shard sh. Seq numbers do not depend on the shard, so
// merged shard reports restore the order of an unsharded run.
func Plan(ds []*dataset.Dataset, f dataset.Filter, sh dataset.Shard) []Item {
	var out []Item
	for i, c := range dataset.Select(ds, f, dataset.Shard{K: 1, N: 1}) {
		if sh.Contains(c) {
			out = append(out, Item{Seq: i, Case: c})
		}
	}
	return out
}

// NeedsTraffic reports whether a case talks to the services, and so has a
// cassette: routing and flows cases do; consent and parser cases are
// app-side only.
func NeedsTraffic(c *dataset.Case) bool {
	return c.Kind == dataset.KindRouting || c.Kind == dataset.KindFlows
}

// Options configure a replay.
type Options struct {
	Variant   *prompts.Variant // prompt variant; nil: the built-in seed
	Mode      string           // Phase 2 output mode ("": the variant's, else model); a flows case may override it
	Repair    bool             // default repair setting; a flows case may turn it on
	Cassettes string           // cassette root folder; the shelf is <root>/<variant>/<mode>
	Parallel  int              // cases in flight; default GOMAXPROCS
	Scorers   []score.Scorer
	// Parser extracts tool calls from parser cases.
	Parser *executor.Parser
	// Getenv supplies base URLs and the model name, which must be those the
	// cassettes were recorded with. Keys are not needed to replay.
	Getenv func(string) string
	// Rerecord returns the command that re-records a case, for errors; chk
	// says what is wrong with its cassette (stale, missing, …).
	Rerecord func(c *dataset.Case, chk Check) string
	// Done, if set, is called after each case is written (progress bars).
	Done func(rec *report.CaseRecord)
	// Cache, if set, is the decoded-cassette cache replays read (nil: every
	// cassette is decoded from its YAML). Reports are the same either way.
	Cache *vcr.Cache
	// Samples is how many samples of each routing and flows case to
	// replay, each from its own cassette (Shelf.SamplePath); 0 means every
	// sample recorded.json lists for the case. Consent and parser cases
	// make no requests: they have one sample.
	Samples int
	// RulesOnly grades answers by the rules alone: the correctness judge's
	// cassettes are not replayed, and what the rules defer stays undecided.
	RulesOnly bool

	manifest *Manifest         // the shelf's recorded.json, read by Replay
	shelf    Shelf             // resolved by Replay before any case runs
	bases    map[string]string // the replay's own base URLs, by service
	secrets  *secret.Set       // of Getenv's base URLs, scrubbed from miss diffs
}

// replayKey is the placeholder key replays run with: requests are matched
// without headers, so any value works, and none is ever sent anywhere.
const replayKey = "replay-placeholder-key"

// Replay runs items, writing a record per case to w in order, and returns the
// summary. extra sections (the parser measurement) are added to the summary.
// Case failures, including cassette misses, are recorded on the cases and
// counted in Summary.Errors; the returned error is for failures of the run
// itself (a writer that cannot write, a cancelled context).
//
// Replay fills in meta's variant, hash, mode and backend from the options
// and the shelf's recorded.json.
func Replay(ctx context.Context, items Items, opts Options, meta report.Meta, w report.Writer) (report.Summary, error) {
	opts.defaults()
	agg := report.NewAggregate(opts.Scorers)
	shelf := opts.Shelf()
	// A recording into the shelf holds its lock while cassettes and
	// recorded.json change: wait for it, and keep it out while replaying.
	// (A shelf that does not exist yet is not created by a replay.)
	if fi, err := os.Lstat(shelf.Dir()); err == nil && fi.IsDir() {
		unlock, err := fsutil.LockDirShared(shelf.Dir())
		if err != nil {
			return report.Summary{}, err
		}
		defer unlock()
	}
	m, recorded, err := prepare(items, shelf)
	if err != nil {
		return report.Summary{}, err
	}
	opts.manifest, opts.shelf = m, shelf
	if opts.Getenv != nil {
		opts.secrets = secret.FromEnv(opts.Getenv)
	}
	meta.Variant, meta.VariantHash, meta.Mode = opts.Variant.Name, opts.Variant.Hash, opts.Mode
	meta.JudgeHash = opts.Variant.Hashes[prompts.JudgeFile]
	recorded.fill(&meta)
	opts.bases = serviceBases(opts.Getenv)
	if err := w.Begin(meta); err != nil {
		return report.Summary{}, err
	}
	err = ordered(ctx, items.All(), opts.parallel(), func(ctx context.Context, it Item) *report.CaseRecord {
		rec := opts.replayOne(ctx, it)
		// Encoded here, in parallel. A record that cannot be encoded is
		// left as it is: the writers, encoding it again, report why.
		_ = rec.Encode()
		return rec
	}, func(rec *report.CaseRecord) error {
		agg.Add(rec)
		if err := w.Case(rec); err != nil {
			return err
		}
		if opts.Done != nil {
			opts.Done(rec)
		}
		return nil
	})
	if err != nil {
		return report.Summary{}, err
	}
	sum := agg.Summary()
	if err := w.End(sum); err != nil {
		return report.Summary{}, err
	}
	return sum, nil
}

// Shelf is the shelf a replay with these options reads.
func (o *Options) Shelf() Shelf {
	o.defaults()
	return Shelf{Root: o.Cassettes, Variant: o.Variant.Name, Mode: o.Mode}
}

func (o *Options) defaults() { resolve(&o.Variant, &o.Mode) }

func (o *Options) parallel() int {
	if o.Parallel > 0 {
		return o.Parallel
	}
	return runtime.GOMAXPROCS(0)
}

// replayOne runs and scores one case.
func (o *Options) replayOne(ctx context.Context, it Item) *report.CaseRecord {
	c := it.Case
	in := &score.Input{Case: c}
	var runErr error
	switch {
	case c.Kind == dataset.KindParser:
		if o.Parser == nil {
			runErr = errors.New("no tool-call parser configured")
			break
		}
		in.Parse = ParseOutcome(o.Parser, c)
	case c.Kind == dataset.KindConsent:
		in.Session = &trace.Session{Variant: o.Variant.Name, Mode: o.mode(c), Turns: []trace.Turn{orchestrator.Classify(c.Reply, c.Previous)}}
	default:
		return o.replaySamples(ctx, it)
	}
	return report.NewCaseRecord(it.Seq, in, o.score(in, runErr), runErr)
}

func (o *Options) score(in *score.Input, runErr error) []score.Result {
	var results []score.Result
	if runErr == nil {
		for _, s := range o.Scorers {
			if r, ok := s.Score(in); ok {
				results = append(results, r)
			}
		}
	}
	return results
}

// samplesOf is how many samples of c to replay, and how many are recorded.
func (o *Options) samplesOf(c *dataset.Case) (want, have int) {
	have = 1
	if o.manifest != nil {
		if e, ok := o.manifest.Entry(c.Key()); ok {
			have = e.SampleCount()
		}
	}
	if o.Samples > 0 {
		return o.Samples, have
	}
	return have, have
}

// replaySamples replays every sample of a routing or flows case: sample 1
// makes the record, the others are attached to it.
func (o *Options) replaySamples(ctx context.Context, it Item) *report.CaseRecord {
	c := it.Case
	want, have := o.samplesOf(c)
	if want > have {
		err := &SamplesError{Cases: []string{c.Key()}, Want: want, Have: []int{have}}
		return report.NewCaseRecord(it.Seq, &score.Input{Case: c}, nil, err)
	}
	if err := o.missingSample(c, want); err != nil {
		// One sample's cassette gone is the case's cassette missing: the
		// case is an error, as a one-sample case without its cassette is,
		// and is never scored on the samples that remain.
		return report.NewCaseRecord(it.Seq, &score.Input{Case: c}, nil, err)
	}
	var rec *report.CaseRecord
	var more []report.SampleRecord
	for k := 1; k <= want; k++ {
		in := &score.Input{Case: c}
		sess, runErr := o.replayTraffic(ctx, in, k)
		in.Session = sess
		if k == 1 {
			rec = report.NewCaseRecord(it.Seq, in, o.score(in, runErr), runErr)
			continue
		}
		if runErr != nil {
			runErr = fmt.Errorf("sample %d: %w", k, runErr)
		}
		more = append(more, report.NewSampleRecord(k, in, o.score(in, runErr), runErr))
	}
	rec.SetSamples(more)
	return rec
}

// missingSample is the error of a case of several samples whose cassettes
// are not all on the shelf: a *vcr.MissingCassetteError naming the first
// missing sample (and how many are missing), with the command that
// records the case again. nil when every sample's cassette is there, and
// for a one-sample case, whose replay reports its missing cassette itself.
func (o *Options) missingSample(c *dataset.Case, want int) error {
	if want <= 1 {
		return nil
	}
	var missing []int
	for k := 1; k <= want; k++ {
		if _, err := os.Stat(o.shelf.SamplePath(c, k)); err != nil {
			missing = append(missing, k)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	k := missing[0]
	path := o.shelf.SamplePath(c, k)
	_, statErr := os.Stat(path)
	e := &vcr.MissingCassetteError{Path: path, Case: c.Key(), Err: statErr}
	if o.Rerecord != nil {
		chk := Check{Status: StatusMissing}
		if o.manifest != nil {
			chk.Entry, _ = o.manifest.Entry(c.Key())
		}
		e.Rerecord = o.Rerecord(c, chk)
	}
	return fmt.Errorf("sample %d of %d (%d of its %d sample cassettes missing): %w", k, want, len(missing), want, e)
}

// SamplesError is the input error of a run that asks for more samples
// than some cases have recorded.
type SamplesError struct {
	Cases []string // case keys
	Have  []int    // their recorded samples
	Want  int
	Hint  string // the command that records them
}

func (e *SamplesError) Error() string {
	// Grouped by how many samples they have, the first few cases of each
	// named and the rest counted: a long list is cut, not printed whole.
	var counts []int
	byHave := map[int][]string{}
	for i, c := range e.Cases {
		if _, ok := byHave[e.Have[i]]; !ok {
			counts = append(counts, e.Have[i])
		}
		byHave[e.Have[i]] = append(byHave[e.Have[i]], c)
	}
	slices.Sort(counts)
	var parts []string
	for _, n := range counts {
		cs := byHave[n]
		shown := strings.Join(cs[:min(len(cs), maxNamed)], ", ")
		if len(cs) > maxNamed {
			shown += fmt.Sprintf(" and %d more", len(cs)-maxNamed)
		}
		parts = append(parts, fmt.Sprintf("\n  %d with %d: %s", len(cs), n, shown))
	}
	s := fmt.Sprintf("%d case(s) have fewer samples than the %d asked (--samples %d):%s", len(e.Cases), e.Want, e.Want, strings.Join(parts, ""))
	if e.Hint != "" {
		s += "\nrecord them with:\n  " + e.Hint
	}
	return s
}

// maxNamed is how many cases a SamplesError names per sample count.
const maxNamed = 3

// CheckSamples returns a *SamplesError naming every routing or flows case
// of items that has fewer recorded samples than o.Samples asks, before
// anything runs; nil when none has (or o.Samples asks for none).
func (o *Options) CheckSamples(items Items) error {
	if o.Samples <= 1 {
		return nil
	}
	m, err := o.Shelf().LoadManifest()
	if err != nil {
		return err
	}
	e := &SamplesError{Want: o.Samples}
	for it, err := range items.All() {
		if err != nil {
			return err
		}
		if !NeedsTraffic(it.Case) {
			continue
		}
		have := 1
		if en, ok := m.Entry(it.Case.Key()); ok {
			have = en.SampleCount()
		}
		if have < o.Samples {
			e.Cases = append(e.Cases, it.Case.Key())
			e.Have = append(e.Have, have)
		}
	}
	if len(e.Cases) == 0 {
		return nil
	}
	return e
}

func (o *Options) mode(c *dataset.Case) string {
	if c.Mode != "" {
		return c.Mode
	}
	return o.Mode
}

// replayTraffic runs in's case against its cassette. The assistant checks
// its Phase 2 answers through in, so the scorers find them checked.
//
// k is the sample: its cassette is shelf.SamplePath(c, k) and its requests
// carry the seed SampleSeed gives for the seed it was recorded with.
func (o *Options) replayTraffic(ctx context.Context, in *score.Input, k int) (*trace.Session, error) {
	c := in.Case
	shelf := o.shelf
	path := shelf.SamplePath(c, k)
	ropts := vcr.ReplayOptions{Case: c.Key(), Clock: vcr.NewClock(), Cache: o.Cache, Secrets: o.secrets}
	chk := Check{Status: StatusCurrent}
	if o.manifest != nil {
		chk = o.manifest.Check(shelf, o.Variant, c)
		ropts.Sum = chk.Entry.Sum(k)
	}
	ropts.Services = replayServices(o.bases, chk.Entry.BaseURLs)
	ropts.Bases, ropts.Explain = o.bases, o.explain
	if o.Rerecord != nil {
		ropts.Rerecord = o.Rerecord(c, chk)
	}
	switch chk.Status {
	case StatusStale:
		return nil, &StaleError{Case: c.Key(), Path: path, Changed: chk.Changed, Then: chk.Entry.VariantHash, Now: o.Variant.Hash, Hint: ropts.Rerecord}
	case StatusUnlisted:
		return nil, &UnlistedError{Case: c.Key(), Path: path, Hint: ropts.Rerecord}
	case StatusUnfinished:
		return nil, &UnfinishedError{Case: c.Key(), Path: path, Hint: ropts.Rerecord}
	}
	rp, err := vcr.OpenReplayWith(path, ropts)
	if err != nil {
		return nil, err
	}
	defer rp.Close()
	a, err := o.assistant(c, rp, in.CheckPhase2, ropts.Clock.Now, SampleSeed(chk.Entry.Seed, k))
	if err != nil {
		return nil, err
	}
	sess, err := Execute(ctx, c, a)
	if first := rp.FirstMiss(); first != nil && ctx.Err() == nil {
		// A search that missed read as a failed search to the model, and
		// whatever failed after follows from it: the first miss is the
		// case's error.
		if err == nil || !errors.Is(err, error(first)) {
			return sess, fmt.Errorf("%w (the first request of the case that matched nothing)", first)
		}
	}
	if err != nil {
		// A miss names its cassette already; any other failure (a recorded
		// body the client cannot decode) is located here.
		var miss *vcr.MissError
		if last, ok := rp.Last(); ok && !errors.As(err, &miss) && ctx.Err() == nil {
			err = fmt.Errorf("%w (after replaying %s of cassette %s)", err, last, path)
		}
		return sess, err
	}
	if unused := rp.Unused(); len(unused) > 0 {
		err := fmt.Errorf("cassette %s: %d recorded interaction(s) %s were never requested: the code now makes fewer requests than were recorded", path, len(unused), listIDs(unused, maxIDs))
		if ropts.Rerecord != "" {
			err = fmt.Errorf("%w; re-record with: %s", err, ropts.Rerecord)
		}
		return sess, err
	}
	in.Session = sess
	return sess, o.replayJudge(ctx, in, k, chk)
}

// explain is the sentence a miss leads with when only the environment
// separates it from the recording: the variable to set, and its value.
func (o *Options) explain(m vcr.Mismatch) string {
	getenv := o.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	if m.Model {
		if o.Variant.Settings.Model != "" {
			return fmt.Sprintf("the cassette was recorded asking for model %s, and the variant's %s sets model: %s", m.Recorded, prompts.SettingsFile, m.Live)
		}
		now := "unset, so " + llm.DefaultModel
		if v := strings.TrimSpace(getenv(llm.EnvModel)); v != "" {
			now = cmdutilQuote(v)
		}
		return fmt.Sprintf("the cassette was recorded asking for model %s, and this replay asks for %s (%s is %s): set %s=%s; nothing needs re-recording",
			m.Recorded, m.Live, llm.EnvModel, now, llm.EnvModel, cmdutilQuote(m.Recorded))
	}
	for _, s := range serviceEnv {
		if s.name == m.Service {
			return fmt.Sprintf("the cassette was recorded through %s, a %s base URL this replay does not know (recorded.json names none): set %s=%s; nothing needs re-recording",
				m.Recorded, m.Service, s.env, cmdutilQuote(m.Recorded))
		}
	}
	return ""
}

// cmdutilQuote quotes s for a POSIX shell when it needs it.
func cmdutilQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:@%+=,", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// maxIDs is how many interaction numbers an error lists before it counts
// the rest: a cassette of 100,000 interactions must not make a
// 100,000-number line.
const maxIDs = 10

// listIDs renders ids as "[3 4 5]", the first max of them, then "and N
// more".
func listIDs(ids []int, max int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, id := range ids {
		if i == max {
			fmt.Fprintf(&b, " and %d more", len(ids)-max)
			break
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(id))
	}
	b.WriteByte(']')
	return b.String()
}

// assistant builds the case's assistant with clients sending through rt.
// Retries do not sleep: a recorded 429 is answered at once by the next
// recorded response.
//
// now is the clients' clock: in a replay the cassette's clock, so that a
// time the clients measure (an Exa search without searchTime) is the
// recorded one; nil means the wall clock.
func (o *Options) assistant(c *dataset.Case, rt http.RoundTripper, check func(string) answer.Phase2Report, now func() time.Time, seed *int) (*orchestrator.Assistant, error) {
	getenv := o.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	keyed := func(k string) string {
		switch k {
		case "CEREBRAS_API_KEY", "TAVILY_API_KEY", "EXA_API_KEY":
			return replayKey
		case "OPENAI_API_KEY":
			return ""
		}
		return getenv(k)
	}
	p := httpx.DefaultPolicy()
	p.Sleep = httpx.NoSleep
	p.Jitter = func() float64 { return 0 }
	if now != nil {
		p.Now = now
	}
	clients, err := orchestrator.ClientsFromEnv(keyed, rt, p)
	if err != nil {
		return nil, err
	}
	return orchestrator.New(clients, orchestrator.Options{
		Prompts: o.Variant,
		Mode:    o.mode(c),
		Repair:  o.Repair || c.Repair,
		Seed:    seed,

		CheckPhase2: check,
	})
}

// Execute runs one case's conversation on a fresh session of a: a routing
// case is one system-requested Phase 2 answer; a flows case is its turns in
// order, stopping at the first turn that cannot finish.
func Execute(ctx context.Context, c *dataset.Case, a *orchestrator.Assistant) (*trace.Session, error) {
	s := a.NewSession()
	switch c.Kind {
	case dataset.KindRouting:
		_, err := s.Search(ctx, c.Query)
		return s.Trace(), err
	case dataset.KindFlows:
		for i, t := range c.Turns {
			if _, err := s.Turn(ctx, t.User); err != nil {
				return s.Trace(), fmt.Errorf("turn %d: %w", i+1, err)
			}
		}
		return s.Trace(), nil
	}
	return nil, fmt.Errorf("case %s: a %s case makes no requests", c.Key(), c.Kind)
}

// ParseOutcome extracts the tool calls of a parser case with p.
func ParseOutcome(p *executor.Parser, c *dataset.Case) *score.ParseOutcome {
	res := p.Extract(executor.Message{Reasoning: c.Reasoning, Content: c.Content})
	cfg := p.Config()
	out := &score.ParseOutcome{Primary: cfg.Strategy, Fallback: cfg.FallbackStrategy, Strategy: res.Strategy, Field: res.Field, Calls: []dataset.Call{}}
	for _, call := range res.Calls {
		out.Calls = append(out.Calls, dataset.Call{Name: call.Name, Arguments: call.Arguments})
	}
	for _, f := range res.Findings {
		out.Findings = append(out.Findings, f.Kind+": "+f.Message)
	}
	return out
}
