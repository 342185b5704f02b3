// Package merge implements "searchbench merge": it joins the JSON reports of
// a sharded run (searchbench run --shard k/n) into the report the unsharded
// run would have written, and optionally its Markdown and JUnit renderings.
package merge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/score"
	cmdgate "github.com/searchbench/searchbench/internal/cmd/gate"
	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/lib/fsutil"
)

// Options are the inputs of one merge.
type Options struct {
	IO *cmdutil.IOStreams
	// Output is the merged JSON report; Markdown and JUnit, when set, are
	// written alongside.
	Output, Markdown, JUnit, HTML string
	// Shards are the shard reports to join.
	Shards []string
	// Gate gates the merged report, as run --gates does an unsharded run.
	Gate cmdgate.Flags
	// Wide does not fit the verdict to 100 columns.
	Wide bool
}

// NewCmdMerge returns the merge command. runF, when not nil, receives the
// options instead of mergeRun (for tests).
func NewCmdMerge(io *cmdutil.IOStreams, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: io}
	cmd := &cobra.Command{
		Use:   "merge -o OUT.json SHARD.json...",
		Short: "Join the reports of a sharded run into one",
		Long: `Join the JSON reports of a sharded run (searchbench run --shard k/n) into one.

The shards must come from one run: the same prompt variant, output mode,
datasets (by sha256), filter and cassettes. No case may appear twice. Cases are
ordered as in the unsharded run and the summary is re-computed from the cases,
so the merged report equals, byte for byte, the report of an unsharded run over
the same cases except that its meta lists the shards instead of one. Missing
shards are allowed and reported.

With --gates (and usually --baseline) the merged report is judged with exactly
the rules of run --gates, and the verdict is written into every output. Gate a
sharded CI run here: each shard's own run --gates applies the per-case rules only.

Outputs are written only when the whole merge succeeds.

Exit status: 0 merged (and the gate passed), 1 gate violated, 2 when a shard
cannot be read, the shards do not fit together or the gates file is invalid,
3 when an output cannot be written or a shard's cassettes were stale or missing
(the reports are written first, opening with the command that re-records them).`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts.Shards = args
			if opts.Output == "" {
				return cmdutil.Usagef("merge needs -o OUT.json")
			}
			if runF != nil {
				return runF(opts)
			}
			return mergeRun(c.Context(), opts)
		},
	}
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "", "write the merged JSON report to `FILE` (required)")
	cmd.Flags().StringVar(&opts.Markdown, "markdown", "", "also write the Markdown report to `FILE`")
	cmd.Flags().StringVar(&opts.JUnit, "junit", "", "also write the JUnit XML report to `FILE`")
	cmd.Flags().StringVar(&opts.HTML, "html", "", "also write the browsable HTML report to `FILE`, with the shards' traces when each has its traces.jsonl.gz beside its report.json")
	opts.Gate.Register(cmd.Flags(), "gate the merged report: gates `file` (thresholds and regression rules)")
	cmd.Flags().BoolVar(&opts.Wide, "wide", false, "do not fit the verdict to 100 columns (or a narrower terminal)")
	return cmd
}

func mergeRun(_ context.Context, opts *Options) error {
	var srcs []report.Source
	for _, p := range opts.Shards {
		if _, err := os.Stat(p); err != nil {
			return cmdutil.Usage(err)
		}
		srcs = append(srcs, report.File(p))
	}
	judge, err := opts.Gate.Load(filepath.Dir(opts.Output))
	if err != nil {
		return err
	}
	if judge != nil && judge.Baseline != "" {
		if bi, err := os.Stat(judge.Baseline); err == nil {
			if oi, err := os.Stat(opts.Output); err == nil && os.SameFile(bi, oi) {
				return cmdutil.Usagef("--baseline %s is the report -o %s would write: the merge would be judged against itself", judge.Baseline, opts.Output)
			}
		}
	}

	// The merged report is streamed into a spill file beside the output;
	// the gate judges it and the outputs are rendered from it, each
	// renamed into place only when everything succeeded.
	spill, err := fsutil.CreateAtomic(opts.Output + ".merge")
	if err != nil {
		return cmdutil.Infra(err)
	}
	defer spill.Abort()
	meta, notes, err := report.Merge(srcs, score.All(), report.NewJSON(&errWriter{f: spill.File}))
	switch {
	case errors.Is(err, errWrite):
		return cmdutil.Infra(err)
	case err != nil:
		// Unreadable shards, shards that do not fit together, a case twice.
		return cmdutil.Usage(err)
	}
	src := report.Source{Name: opts.Output, Open: func() (io.ReadCloser, error) { return os.Open(spill.Name()) }}
	var verdict *report.Gate
	if judge != nil {
		judge.PromptsChanged = meta.Unplayable != nil && meta.Unplayable.Stale > 0
		if verdict, err = judge.Evaluate(src); err != nil {
			return err
		}
	}
	outs := cmdgate.Outputs{JSON: opts.Output, Markdown: opts.Markdown, JUnit: opts.JUnit, HTML: opts.HTML}
	traces, note, err := mergeTraces(opts)
	if err != nil {
		return err
	}
	if traces != nil {
		defer traces.Abort()
		outs.Traces = filepath.Join(filepath.Dir(opts.Output), cmdgate.TracesName)
		if filepath.Base(opts.Output) != cmdgate.JSONName {
			// Traces sit beside a report.json only (see TracesBeside).
			outs.Traces = ""
		}
	}
	if note != "" && opts.HTML != "" {
		// Only the page misses them; say so when it is asked for.
		notes = append(notes, note)
	}
	tracesPath := ""
	if traces != nil {
		tracesPath = traces.Name()
	}
	if err := cmdgate.Publish(src, tracesPath, verdict, []cmdgate.Target{{Outs: outs, Text: report.TextOptions{JSONPath: opts.Output}}}, opts.IO.Secrets()); err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprintf(opts.IO.ErrOut, "searchbench merge: warning: %s\n", n)
	}
	shards := "1 report"
	if len(meta.Shards) > 0 {
		shards = "shards " + strings.Join(meta.Shards, ", ")
	}
	merged := report.WrapText(fmt.Sprintf("merged %d report(s) (%s) into %s", len(srcs), shards, opts.Output), opts.IO.Width(opts.Wide), "  ")
	if u := meta.Unplayable; u != nil {
		// The cause first, and no verdict: the shards' cases could not
		// replay.
		if err := cmdgate.PrintUnjudged(opts.IO.Out, u, verdict, opts.IO.Width(opts.Wide)); err != nil {
			return cmdutil.Infra(err)
		}
		merged = nil
	}
	for _, l := range merged {
		fmt.Fprintln(opts.IO.Out, l)
	}
	if verdict != nil && meta.Unplayable == nil {
		if err := cmdgate.Print(opts.IO.Out, verdict, opts.IO.Width(opts.Wide)); err != nil {
			return cmdutil.Infra(err)
		}
	}
	if u := meta.Unplayable; u != nil {
		// As for run: the shards' cases could not replay, so no verdict on
		// the change exists yet.
		return cmdutil.Infra(errors.New(u.Summary()))
	}
	return cmdgate.Exit(verdict)
}

// mergeTraces joins the shards' traces (the traces.jsonl.gz beside each
// shard's report.json) into a spill beside the output, when every shard
// has them; otherwise it returns nil and a note saying why there are none.
func mergeTraces(opts *Options) (*fsutil.AtomicFile, string, error) {
	var paths []string
	for _, p := range opts.Shards {
		tp := cmdgate.TracesBeside(p)
		if tp == "" {
			return nil, fmt.Sprintf("%s has no %s beside it: the merged report has no traces", p, cmdgate.TracesName), nil
		}
		paths = append(paths, tp)
	}
	var rs []io.Reader
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return nil, "", cmdutil.Infra(err)
		}
		defer f.Close()
		rs = append(rs, f)
	}
	spill, err := fsutil.CreateAtomic(opts.Output + ".traces")
	if err != nil {
		return nil, "", cmdutil.Infra(err)
	}
	if err := report.MergeTraces(paths, rs, spill); err != nil {
		spill.Abort()
		return nil, "", cmdutil.Usage(err)
	}
	return spill, "", nil
}

// errWrite marks errors writing an output, so they are told apart from
// problems with the shard reports.
var errWrite = errors.New("writing output")

type errWriter struct {
	f   *os.File
	err error
}

func (w *errWriter) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	if err != nil {
		w.err = fmt.Errorf("%w %s: %w", errWrite, w.f.Name(), err)
		return n, w.err
	}
	return n, nil
}
