package run

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/eval/price"
	"github.com/searchbench/searchbench/eval/vcr"
	"github.com/searchbench/searchbench/lib/fsutil"
	"github.com/searchbench/searchbench/lib/secret"
	"github.com/searchbench/searchbench/orchestrator"
	"github.com/searchbench/searchbench/orchestrator/httpx"
	"github.com/searchbench/searchbench/orchestrator/prompts"
	"github.com/searchbench/searchbench/orchestrator/trace"
	"github.com/searchbench/searchbench/sim"
)

// Backends a recording can talk to.
const (
	BackendSim  = "sim"  // the loopback simulator, one fresh instance per case
	BackendLive = "live" // the real services, keys from the environment
)

// RecordOptions configure a recording.
type RecordOptions struct {
	Variant   *prompts.Variant // nil: the built-in seed
	Mode      string           // "": the variant's mode, else model
	Repair    bool
	Cassettes string // cassette root; the shelf is <root>/<variant>/<mode>
	Backend   string // BackendSim or BackendLive
	// Policy is the simulator policy that answers (BackendSim): one of
	// sim.Policies(). The caller decides it; "" means the variant's name.
	Policy   string
	Parallel int // cases in flight; default 4
	// Samples is how many samples to record per case (record --samples N),
	// each in its own cassette with its own seed (SampleSeed); 0 means as
	// many as recorded.json lists for the case (one for a new case), so a
	// re-recording keeps a shelf's samples.
	Samples int
	// Seed is the base seed of every sample's draws (record --seed;
	// SampleSeed); 0 keeps the default draws.
	Seed int64
	// Getenv supplies keys (live), base URLs and the model name.
	Getenv func(string) string
	// Jitter is the retry policy's jitter in a simulator recording (nil:
	// none). Tests set a random one to record as a live run would: the
	// cassettes must come out the same, since nothing random may enter a
	// request.
	Jitter func() float64
	// Done, if set, is called after each case with its error (nil when the
	// cassette was saved).
	Done func(c *dataset.Case, err error)
	// Force lets a simulator recording replace cassettes recorded live
	// (record --force); without it Record refuses with a *LiveError.
	Force bool
	// Transport sends a live recording's requests (nil:
	// http.DefaultTransport). Pass an httpx.Pacer to pace them per
	// provider: it sits under the recorder, so the 429s it absorbs never
	// reach a cassette.
	Transport http.RoundTripper
	// Admit, if set, is asked before each case starts, with the case; false
	// stops starting cases (a budget is spent). Cases in flight finish.
	Admit func(c *dataset.Case) bool
	// Used, if set, is told what a case that ran to the end used (every
	// sample), before Done.
	Used func(c *dataset.Case, u price.Usage)
	// FailedSearch, if set, is told of each live case saved although a
	// search failed during its recording (a provider's 432, a 503 until
	// the retries ran out): the cassette holds the provider's error as the
	// model saw it, and a replay scores the model's answer to it. searches
	// are the failures, one line each.
	FailedSearch func(c *dataset.Case, searches []string)
	// Strict refuses to save a live case a search failed in: the case
	// fails with a *FailedSearchError and keeps its previous cassette.
	Strict bool
	// Cost, if set, says what a case that ended (recorded or failed)
	// spent, as the budget counts it; the journal keeps it, so that the
	// next recording of the unfinished cases (record --stale) counts it
	// (Manifest.Unfinished).
	Cost func(c *dataset.Case) (usd float64, tokens int)
	// Saved, if set, is told of each case whose cassettes and description
	// are on disk, with the number of its cassettes.
	Saved func(c *dataset.Case, cassettes int)
}

// FailedSearchError refuses a live recording in which a search failed
// (record --strict).
type FailedSearchError struct {
	Case     string
	Searches []string
}

func (e *FailedSearchError) Error() string {
	return fmt.Sprintf("case %s: not saved (--strict): %d search(es) failed during the recording, first: %s",
		e.Case, len(e.Searches), e.Searches[0])
}

// failedSearches lists the searches that failed in sessions, one line
// each: "sample 2, turn 1: tavily search \"q\": tavily /search: HTTP 432: …".
func failedSearches(sessions []*trace.Session) []string {
	var out []string
	for k, s := range sessions {
		for i, t := range s.Turns {
			for _, call := range t.ToolCalls {
				if call.Status != trace.CallError {
					continue
				}
				where := fmt.Sprintf("turn %d: ", i+1)
				if len(sessions) > 1 {
					where = fmt.Sprintf("sample %d, %s", k+1, where)
				}
				out = append(out, where+call.Error)
			}
		}
	}
	return out
}

// LiveError refuses a simulator recording that would replace cassettes
// recorded live, which cost money and cannot be recorded again for free.
type LiveError struct {
	Cases, Paths []string
}

// maxListed is how many cases an error lists before it counts the rest.
const maxListed = 5

func (e *LiveError) Error() string {
	var list []string
	for i, c := range e.Cases {
		if i == maxListed {
			list = append(list, fmt.Sprintf("and %d more", len(e.Cases)-maxListed))
			break
		}
		list = append(list, fmt.Sprintf("%s (case %s)", filepath.ToSlash(e.Paths[i]), c))
	}
	return fmt.Sprintf("refusing to replace %d cassette(s) recorded live with simulator recordings: %s; "+
		"pass --force to replace them, or leave those cases out with --filter", len(e.Cases), strings.Join(list, ", "))
}

// simKeys are the placeholder keys sent to the simulator. They are long
// enough for the recorder to scrub, and scrubbed like real ones.
var simKeys = map[string]string{
	"CEREBRAS_API_KEY": "sim-cerebras-key",
	"TAVILY_API_KEY":   "sim-tavily-key",
	"EXA_API_KEY":      "sim-exa-key",
}

// Shelf is the shelf a recording with these options fills.
func (o *RecordOptions) Shelf() Shelf {
	o.defaults()
	return Shelf{Root: o.Cassettes, Variant: o.Variant.Name, Mode: o.Mode}
}

func (o *RecordOptions) defaults() {
	resolve(&o.Variant, &o.Mode)
	if o.Policy == "" {
		o.Policy = o.Variant.Name
	}
}

// Record records the cassette of every item that makes requests, case by
// case, and notes in the shelf's recorded.json how each was recorded. A
// case's cassette is replaced only when the whole case ran; a failed case
// leaves its previous cassette (and entry) as it was. It returns one error
// per failed case, joined.
func Record(ctx context.Context, items []Item, opts RecordOptions) error {
	opts.defaults()
	if opts.Backend != BackendSim && opts.Backend != BackendLive {
		return fmt.Errorf("unknown backend %q (want %s or %s)", opts.Backend, BackendSim, BackendLive)
	}
	shelf := opts.Shelf()
	// One recording per shelf at a time, and no replay reads it meanwhile:
	// the cassettes and recorded.json change together under this lock.
	// The folders cassettes are written into must be what they say: a link
	// would send the writes outside the project.
	for _, d := range []string{opts.Cassettes, filepath.Join(opts.Cassettes, shelf.Variant), shelf.Dir()} {
		if err := fsutil.RefuseSymlink(d); err != nil {
			return fmt.Errorf("cassette folder: %w", err)
		}
	}
	unlock, err := fsutil.LockDir(shelf.Dir())
	if err != nil {
		return err
	}
	defer unlock()
	// Under the lock no other recording writes here: what temporaries a
	// killed one left can go.
	fsutil.SweepTree(shelf.Dir())
	manifest, err := shelf.LoadManifest()
	if err != nil {
		return err
	}
	if opts.Getenv == nil {
		opts.Getenv = func(string) string { return "" }
	}
	if opts.Backend == BackendLive {
		// Every missing key, named, before any request.
		if _, err := orchestrator.ClientsFromEnv(opts.Getenv, http.DefaultTransport, httpx.DefaultPolicy()); err != nil {
			return err
		}
		if _, err := httpx.PolicyFromEnv(opts.Getenv, httpx.DefaultPolicy()); err != nil {
			return err
		}
		if err := shortSecrets(opts.Getenv); err != nil {
			return err
		}
	}
	var traffic []Item
	live := &LiveError{}
	for _, it := range items {
		if !NeedsTraffic(it.Case) {
			continue
		}
		if err := fsutil.RefuseSymlink(filepath.Dir(shelf.Path(it.Case))); err != nil {
			return fmt.Errorf("cassette folder: %w", err)
		}
		traffic = append(traffic, it)
		if e, ok := manifest.Cases[it.Case.Key()]; ok && e.Backend == BackendLive && opts.Backend == BackendSim && !opts.Force {
			live.Cases = append(live.Cases, it.Case.Key())
			live.Paths = append(live.Paths, shelf.Path(it.Case))
		}
	}
	if len(live.Cases) > 0 {
		return live
	}
	if len(traffic) == 0 {
		return nil
	}
	n := opts.Parallel
	if n <= 0 {
		n = 4
	}
	// Each case's number of samples, read before the workers start: the
	// manifest is written as cases finish.
	samples := map[string]int{}
	keys := make([]string, 0, len(traffic))
	for _, it := range traffic {
		k := opts.Samples
		if k <= 0 {
			k = manifest.Cases[it.Case.Key()].SampleCount()
		}
		samples[it.Case.Key()] = k
		keys = append(keys, it.Case.Key())
	}
	// Every selected case is unfinished until its cassettes and their
	// description are on disk: written down before the first request, so
	// that whatever stops this recording (kill -9, a full disk, SIGINT, the
	// budget, a failed case), replay refuses the cases it did not finish
	// and record --stale records exactly those.
	manifest.begin(keys, opts.Backend, opts.Policy, opts.Samples, opts.Seed)
	if err := shelf.commit(manifest); err != nil {
		err = fmt.Errorf("saving %s before recording: %w", shelf.ManifestPath(), err)
		if diskError(err) {
			err = &DiskError{Err: err}
		}
		return err
	}
	j, err := shelf.openJournal()
	if err != nil {
		if diskError(err) {
			err = &DiskError{Err: err}
		}
		return err
	}
	defer j.close()

	var (
		mu      sync.Mutex
		errs    []error
		stopped error // the disk's refusal that stops the recording
	)
	// note journals a case that ended and its spend: as it ends, not in
	// selection order, so a kill loses no finished case.
	note := func(c *dataset.Case, e *Entry, cassettes int) error {
		l := journalLine{Case: c.Key(), Entry: e}
		if opts.Cost != nil {
			l.USD, l.Tokens = opts.Cost(c)
		}
		mu.Lock()
		defer mu.Unlock()
		if err := j.append(l); err != nil {
			if diskError(err) && stopped == nil {
				stopped = &DiskError{Err: err}
			}
			return err
		}
		manifest.apply(l)
		if e != nil && opts.Saved != nil {
			opts.Saved(c, cassettes)
		}
		return nil
	}
	seq := Slice(traffic).All()
	if opts.Admit != nil {
		seq = admitted(seq, opts.Admit)
	}
	halted := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return stopped != nil
	}
	seq = admitted(seq, func(*dataset.Case) bool { return !halted() })
	err = ordered(ctx, seq, n, func(ctx context.Context, it Item) error {
		if halted() {
			return nil // dispatched before the disk refused: not started
		}
		e, err := opts.recordOne(ctx, shelf, it.Case, samples[it.Case.Key()])
		if err != nil {
			if diskError(err) {
				err = &DiskError{Err: err}
				mu.Lock()
				if stopped == nil {
					stopped = err
				}
				mu.Unlock()
			}
			note(it.Case, nil, 0) // its spend; the case stays unfinished
			return err
		}
		if err := note(it.Case, &e, e.SampleCount()); err != nil {
			err = fmt.Errorf("case %s: its cassettes are written, but not noted: %w", it.Case.Key(), err)
			if diskError(err) {
				err = &DiskError{Err: err}
			}
			return err
		}
		return nil
	}, func(err error) error {
		if err != nil {
			errs = append(errs, err)
		}
		return nil
	})
	// The journal holds every case that ended; recorded.json takes them in
	// now (a journal left by a failure here is read with it next time).
	if cerr := shelf.commit(manifest); cerr != nil {
		errs = append(errs, fmt.Errorf("saving %s (its journal %s keeps what it could not take in): %w", shelf.ManifestPath(), JournalName, cerr))
	}
	if err != nil {
		return errors.Join(append([]error{err}, errs...)...)
	}
	return errors.Join(errs...)
}

// shortSecrets names every variable whose secret the recorder would refuse
// as too short to scrub safely (vcr.MinSecretLen): a key, or a password or
// credential query value of a base URL. Shorter values still are not
// secrets at all (vLLM's "EMPTY" key) and pass.
func shortSecrets(getenv func(string) string) error {
	var errs []error
	short := func(v string) bool {
		v = strings.TrimSpace(v)
		return len(v) >= secret.MinLen && len(v) < vcr.MinSecretLen
	}
	for _, k := range secret.KeyEnv {
		if v := getenv(k); short(v) {
			errs = append(errs, fmt.Errorf("%s is %d bytes long: the recorder refuses secrets shorter than %d bytes, since scrubbing so short a value would redact unrelated text; set it to the real key (searchbench sim prints keys long enough)", k, len(strings.TrimSpace(v)), vcr.MinSecretLen))
		}
	}
	for _, k := range secret.URLEnv {
		for _, v := range secret.OfURL(getenv(k)) {
			if short(v) {
				errs = append(errs, fmt.Errorf("%s carries a credential (a password or key query value) of %d bytes: the recorder refuses secrets shorter than %d bytes", k, len(strings.TrimSpace(v)), vcr.MinSecretLen))
			}
		}
	}
	return errors.Join(errs...)
}

// Pending keeps the items whose cassette is not current for v on shelf:
// missing, stale, or unknown to recorded.json (record --stale), and, when
// samples > 0, those recorded with another number of samples.
func Pending(items []Item, shelf Shelf, v *prompts.Variant, samples int) ([]Item, error) {
	m, err := shelf.LoadManifest()
	if err != nil {
		return nil, err
	}
	var out []Item
	for _, it := range items {
		if !NeedsTraffic(it.Case) {
			continue
		}
		chk := m.Check(shelf, v, it.Case)
		judgeStale := chk.Entry.Judge != nil && len(v.Changed(chk.Entry.Judge.Files)) > 0
		if chk.Status != StatusCurrent || judgeStale || samples > 0 && chk.Entry.SampleCount() != samples || !shelf.Verify(it.Case, chk.Entry) {
			out = append(out, it)
		}
	}
	return out, nil
}

func (o *RecordOptions) recordOne(ctx context.Context, shelf Shelf, c *dataset.Case, n int) (_ Entry, err error) {
	defer func() {
		if o.Done != nil {
			o.Done(c, err)
		}
	}()
	n = max(n, 1)
	// Every sample is recorded before any is saved: a case whose sample 3
	// fails keeps all its previous cassettes.
	recs := make([]*vcr.Recording, 0, n)
	defer func() {
		if err != nil {
			for _, r := range recs {
				r.Discard()
			}
		}
	}()
	var sessions []*trace.Session
	judges := make([]*vcr.Recording, 0, n) // nil where a sample needs no judge
	defer func() {
		if err != nil {
			for _, r := range judges {
				if r != nil {
					r.Discard()
				}
			}
		}
	}()
	for k := 1; k <= n; k++ {
		rec, judge, sess, err := o.recordSample(ctx, shelf, c, k)
		if err != nil {
			if n > 1 {
				return Entry{}, fmt.Errorf("case %s: sample %d: %w (previous cassettes kept)", c.Key(), k, err)
			}
			return Entry{}, fmt.Errorf("case %s: %w (previous cassette kept)", c.Key(), err)
		}
		recs = append(recs, rec)
		judges = append(judges, judge)
		sessions = append(sessions, sess)
	}
	var failed []string
	if o.Backend == BackendLive {
		if failed = failedSearches(sessions); len(failed) > 0 && o.Strict {
			return Entry{}, &FailedSearchError{Case: c.Key(), Searches: failed}
		}
	}
	sums := make([]string, 0, len(recs))
	judgeSums, err := saveJudges(shelf, c, judges)
	if err != nil {
		return Entry{}, fmt.Errorf("case %s: %w", c.Key(), err)
	}
	for i, rec := range recs {
		if err := rec.Save(); err != nil {
			recs = recs[i+1:]
			return Entry{}, fmt.Errorf("case %s: %w", c.Key(), err)
		}
		// The sum of what is on disk now, read back under the shelf's lock:
		// recorded.json promises exactly these bytes.
		sum, err := FileSum(shelf.SamplePath(c, i+1))
		if err != nil {
			recs = recs[i+1:]
			return Entry{}, fmt.Errorf("case %s: reading back its cassette: %w", c.Key(), err)
		}
		sums = append(sums, sum)
	}
	recs = nil
	// Samples beyond n from an earlier recording would be read by nothing
	// and mislead whoever looks at the shelf.
	for _, extra := range shelf.extraSamples(c, n) {
		if err := os.Remove(extra); err != nil {
			return Entry{}, fmt.Errorf("case %s: removing the sample cassette of an earlier recording: %w", c.Key(), err)
		}
	}
	if o.Used != nil {
		var u price.Usage
		for _, s := range sessions {
			u = u.Add(price.UsageOf(s))
		}
		o.Used(c, u)
	}
	e := entryOf(o.Variant, o.Backend, o.Policy, sessions, sums)
	e.Seed = o.Seed
	e.Judge = judgeEntry(o.Variant, judgeSums)
	if o.Backend == BackendLive {
		e.Model, e.BaseURLs = o.liveSource()
	}
	if len(failed) > 0 && o.FailedSearch != nil {
		o.FailedSearch(c, failed)
	}
	return e, nil
}

// admitted yields items while admit lets each start.
func admitted(items iter.Seq2[Item, error], admit func(*dataset.Case) bool) iter.Seq2[Item, error] {
	return func(yield func(Item, error) bool) {
		for it, err := range items {
			if err == nil && !admit(it.Case) {
				return
			}
			if !yield(it, err) {
				return
			}
		}
	}
}

// recordSample runs sample k of case c against the backend and returns its
// recording, not yet saved.
func (o *RecordOptions) recordSample(ctx context.Context, shelf Shelf, c *dataset.Case, k int) (_, _ *vcr.Recording, _ *trace.Session, err error) {
	path := shelf.SamplePath(c, k)
	getenv := o.Getenv
	policy := httpx.DefaultPolicy()
	ropts := vcr.RecordOptions{Real: http.DefaultTransport}
	if o.Backend == BackendSim {
		srv, u, err := sim.Start(sim.Options{Policy: o.Policy, Prompts: o.Variant.Prompts})
		if err != nil {
			return nil, nil, nil, fmt.Errorf("starting the simulator: %w", err)
		}
		defer srv.Close()
		// The clients keep the real base URLs, so the cassette reads as a
		// live recording would; the transport sends everything to the
		// simulator instead.
		getenv = func(k string) string {
			if v, ok := simKeys[k]; ok {
				return v
			}
			switch k {
			case "OPENAI_API_KEY", "SEARCHBENCH_LLM_BASE_URL", "SEARCHBENCH_LLM_MODEL", "TAVILY_BASE_URL", "EXA_BASE_URL":
				return ""
			}
			return o.Getenv(k)
		}
		ropts.Real = vcr.Redirect(u, http.DefaultTransport)
		ropts.Deterministic = true
		// The simulator's failures are its policy's script, the behaviour
		// under test: a retried one stays in the cassette.
		ropts.KeepRetried = true
		policy.Sleep = httpx.NoSleep
		policy.Jitter = func() float64 { return 0 }
		if o.Jitter != nil {
			policy.Jitter = o.Jitter
		}
		for _, v := range simKeys {
			ropts.Secrets = append(ropts.Secrets, v)
		}
		// The configured keys and base URL credentials are scrubbed as in
		// a live recording: a prompt or a dataset may carry one into a
		// request body, and the simulator echoes request text back.
		ropts.Secrets = append(ropts.Secrets, secret.FromEnv(o.Getenv).Values()...)
	} else {
		if o.Transport != nil {
			ropts.Real = o.Transport
		}
		if _, ok := o.Transport.(*httpx.Pacer); ok {
			// Time queued for a rate limit is not the server being slow.
			policy.WithTimeout = httpx.DeferredTimeout
		}
		// The one list of secrets: every key and every base URL's password
		// and credential query values.
		ropts.Secrets = append(ropts.Secrets, secret.FromEnv(getenv).Values()...)
		policy.AttemptTimeout = 2 * time.Minute
		if policy, err = httpx.PolicyFromEnv(getenv, policy); err != nil {
			return nil, nil, nil, err
		}
	}
	rec, err := vcr.StartRecording(path, ropts)
	if err != nil {
		return nil, nil, nil, err
	}
	clients, err := orchestrator.ClientsFromEnv(getenv, rec, policy)
	if err != nil {
		rec.Discard()
		return nil, nil, nil, err
	}
	mode := o.Mode
	if c.Mode != "" {
		mode = c.Mode
	}
	a, err := orchestrator.New(clients, orchestrator.Options{Prompts: o.Variant, Mode: mode, Repair: o.Repair || c.Repair, Seed: SampleSeed(o.Seed, k)})
	if err != nil {
		rec.Discard()
		return nil, nil, nil, err
	}
	sess, err := Execute(ctx, c, a)
	if err != nil {
		rec.Discard()
		return nil, nil, nil, err
	}
	// The judge, for the answers the rules cannot grade, into its own
	// cassette (judge.go).
	judge, err := o.recordJudge(ctx, shelf, c, k, sess, ropts, getenv, policy)
	if err != nil {
		rec.Discard()
		return nil, nil, nil, err
	}
	return rec, judge, sess, nil
}
