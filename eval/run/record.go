package run

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/eval/vcr"
	"github.com/searchbench/searchbench/fixtures/sim"
	"github.com/searchbench/searchbench/internal/secret"
	"github.com/searchbench/searchbench/orchestrator"
	"github.com/searchbench/searchbench/orchestrator/httpx"
)

// Backends a recording can talk to.
const (
	BackendSim  = "sim"  // the loopback simulator, one fresh instance per case
	BackendLive = "live" // the real services, keys from the environment
)

// RecordOptions configure a recording.
type RecordOptions struct {
	Variant   string
	Mode      string
	Repair    bool
	Cassettes string
	Backend   string // BackendSim or BackendLive
	Parallel  int    // cases in flight; default 4
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
}

// simKeys are the placeholder keys sent to the simulator. They are long
// enough for the recorder to scrub, and scrubbed like real ones.
var simKeys = map[string]string{
	"CEREBRAS_API_KEY": "sim-cerebras-key",
	"TAVILY_API_KEY":   "sim-tavily-key",
	"EXA_API_KEY":      "sim-exa-key",
}

// Record records the cassette of every item that makes requests, case by
// case. A case's cassette is replaced only when the whole case ran; a
// failed case leaves its previous cassette as it was. It returns one error
// per failed case, joined.
func Record(ctx context.Context, items []Item, opts RecordOptions) error {
	if opts.Backend != BackendSim && opts.Backend != BackendLive {
		return fmt.Errorf("unknown backend %q (want %s or %s)", opts.Backend, BackendSim, BackendLive)
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
	}
	var traffic []Item
	for _, it := range items {
		if NeedsTraffic(it.Case) {
			traffic = append(traffic, it)
		}
	}
	n := opts.Parallel
	if n <= 0 {
		n = 4
	}
	var errs []error
	err := ordered(ctx, traffic, n, func(ctx context.Context, it Item) error {
		return opts.recordOne(ctx, it.Case)
	}, func(err error) error {
		if err != nil {
			errs = append(errs, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return errors.Join(errs...)
}

func (o *RecordOptions) recordOne(ctx context.Context, c *dataset.Case) (err error) {
	defer func() {
		if o.Done != nil {
			o.Done(c, err)
		}
	}()
	path := vcr.Path(o.Cassettes, o.Variant, c.Dataset, c.ID)
	getenv := o.Getenv
	policy := httpx.DefaultPolicy()
	ropts := vcr.RecordOptions{Real: http.DefaultTransport}
	if o.Backend == BackendSim {
		srv, u, err := sim.Start(sim.Options{Variant: o.Variant})
		if err != nil {
			return fmt.Errorf("case %s: starting the simulator: %w", c.Key(), err)
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
		policy.Sleep = httpx.NoSleep
		policy.Jitter = func() float64 { return 0 }
		if o.Jitter != nil {
			policy.Jitter = o.Jitter
		}
		for _, v := range simKeys {
			ropts.Secrets = append(ropts.Secrets, v)
		}
	} else {
		// The one list of secrets: every key and every base URL's password
		// and credential query values.
		ropts.Secrets = append(ropts.Secrets, secret.FromEnv(getenv).Values()...)
		policy.AttemptTimeout = 2 * time.Minute
		if policy, err = httpx.PolicyFromEnv(getenv, policy); err != nil {
			return err
		}
	}
	rec, err := vcr.StartRecording(path, ropts)
	if err != nil {
		return fmt.Errorf("case %s: %w", c.Key(), err)
	}
	clients, err := orchestrator.ClientsFromEnv(getenv, rec, policy)
	if err != nil {
		rec.Discard()
		return fmt.Errorf("case %s: %w", c.Key(), err)
	}
	mode := o.Mode
	if c.Mode != "" {
		mode = c.Mode
	}
	a, err := orchestrator.New(clients, orchestrator.Options{Variant: o.Variant, Mode: mode, Repair: o.Repair || c.Repair})
	if err != nil {
		rec.Discard()
		return fmt.Errorf("case %s: %w", c.Key(), err)
	}
	if _, err := Execute(ctx, c, a); err != nil {
		rec.Discard()
		return fmt.Errorf("case %s: %w (previous cassette kept)", c.Key(), err)
	}
	if err := rec.Save(); err != nil {
		return fmt.Errorf("case %s: %w", c.Key(), err)
	}
	return nil
}
