// Package record implements `searchbench record`: record the cassettes of
// the selected cases from the live services or from the simulator.
package record

import (
	"context"
	"fmt"
	"sync"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/searchbench/searchbench/eval/dataset"
	evalrun "github.com/searchbench/searchbench/eval/run"
	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/orchestrator/prompts"
)

// Options are the flags of `searchbench record`.
type Options struct {
	IO *cmdutil.IOStreams

	Backend   string
	Datasets  string
	Variant   string
	Mode      string
	Cassettes string
	Filter    []string
	Parallel  int
}

// NewCmdRecord returns the record command. runF replaces recordRun in tests.
func NewCmdRecord(io *cmdutil.IOStreams, runF func(context.Context, *Options) error) *cobra.Command {
	opts := &Options{IO: io}
	cmd := &cobra.Command{
		Use:   "record",
		Short: "Record the cassettes of the selected cases",
		Long: `Record the HTTP traffic of every selected routing and flows case into
cassettes/<variant>/<dataset>/<case-id>.yaml, case by case.

--backend sim talks to a fresh in-process simulator per case (no keys, no
network) and records deterministically: recording twice gives identical files.
--backend live talks to the real services with the keys in CEREBRAS_API_KEY (or
OPENAI_API_KEY), TAVILY_API_KEY and EXA_API_KEY; base URLs and the model come
from SEARCHBENCH_LLM_BASE_URL, SEARCHBENCH_LLM_MODEL, TAVILY_BASE_URL and
EXA_BASE_URL. Keys are scrubbed before anything is written.

A cassette is replaced only when its case ran to the end; a failed case keeps
its previous cassette.`,
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
	f.StringVar(&opts.Variant, "variant", prompts.Default, "prompt variant to record")
	f.StringVar(&opts.Mode, "mode", "model", "default Phase 2 output mode: model or structured")
	f.StringVar(&opts.Cassettes, "cassettes", "cassettes", "cassette root folder")
	f.StringArrayVar(&opts.Filter, "filter", nil, "select cases (as for run); repeatable")
	f.IntVar(&opts.Parallel, "parallel", 4, "cases recorded at once (bounds requests in flight)")
	return cmd
}

func recordRun(ctx context.Context, opts *Options) error {
	if opts.Backend != evalrun.BackendSim && opts.Backend != evalrun.BackendLive {
		return cmdutil.Usagef("unknown --backend %q (want sim or live)", opts.Backend)
	}
	if _, err := prompts.Load(opts.Variant); err != nil {
		return cmdutil.Usage(err)
	}
	filter, err := dataset.ParseFilter(opts.Filter)
	if err != nil {
		return cmdutil.Usage(err)
	}
	sets, err := dataset.LoadDir(opts.Datasets)
	if err != nil {
		return cmdutil.Usage(err)
	}
	items := evalrun.Plan(sets, filter, dataset.Shard{K: 1, N: 1})
	total := 0
	for _, it := range items {
		if evalrun.NeedsTraffic(it.Case) {
			total++
		}
	}
	if total == 0 {
		return cmdutil.Usagef("no routing or flows case matches the filter %q", opts.Filter)
	}

	var mu sync.Mutex
	var bar *progressbar.ProgressBar
	if opts.IO.IsStderrTTY() {
		bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(opts.IO.ErrOut),
			progressbar.OptionSetDescription("recording "+opts.Variant), progressbar.OptionShowCount(), progressbar.OptionClearOnFinish())
	}
	failed, finished := 0, 0 // finished: cases that started and ended, either way
	err = evalrun.Record(ctx, items, evalrun.RecordOptions{
		Variant:   opts.Variant,
		Mode:      opts.Mode,
		Cassettes: opts.Cassettes,
		Backend:   opts.Backend,
		Parallel:  opts.Parallel,
		Getenv:    opts.IO.Getenv,
		Done: func(c *dataset.Case, err error) {
			mu.Lock()
			defer mu.Unlock()
			finished++
			if err != nil {
				failed++
			}
			if bar != nil {
				bar.Add(1)
			}
		},
	})
	if bar != nil {
		bar.Finish()
	}
	if err != nil || ctx.Err() != nil {
		if err == nil {
			err = ctx.Err()
		}
		if failed == 0 && ctx.Err() == nil {
			// Nothing was recorded: a configuration problem (a missing key).
			return cmdutil.Usage(err)
		}
		// Say what happened to every case: an interrupted recording has
		// cases that never started, and their cassettes are unchanged.
		return cmdutil.Infra(fmt.Errorf("%d of %d cases started: %d recorded, %d failed or interrupted; %d not started "+
			"(the cassettes of cases not recorded are unchanged):\n%w",
			finished, total, finished-failed, failed, total-finished, err))
	}
	fmt.Fprintf(opts.IO.Out, "recorded %d cassettes under %s/%s (backend %s)\n", total, opts.Cassettes, opts.Variant, opts.Backend)
	return nil
}
