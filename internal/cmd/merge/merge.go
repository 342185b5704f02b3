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
	"github.com/searchbench/searchbench/internal/cmdutil"
)

// Options are the inputs of one merge.
type Options struct {
	IO *cmdutil.IOStreams
	// Output is the merged JSON report; Markdown and JUnit, when set, are
	// written alongside.
	Output, Markdown, JUnit string
	// Shards are the shard reports to join.
	Shards []string
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

Outputs are written only when the whole merge succeeds.

Exit status: 0 merged, 2 when a shard cannot be read or the shards do not fit
together, 3 when an output cannot be written.`,
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

	// Each output goes to a temporary file beside it, renamed into place
	// only when the whole merge succeeded.
	var outs []*pending
	defer func() {
		for _, o := range outs {
			o.discard()
		}
	}()
	open := func(path string, mk func(io.Writer) report.Writer) (report.Writer, error) {
		p, err := create(path)
		if err != nil {
			return nil, err
		}
		outs = append(outs, p)
		return mk(p.w), nil
	}
	var ws []report.Writer
	for _, o := range []struct {
		path string
		mk   func(io.Writer) report.Writer
	}{
		{opts.Output, func(w io.Writer) report.Writer { return report.NewJSON(w) }},
		{opts.Markdown, func(w io.Writer) report.Writer {
			return report.NewMarkdown(w, report.TextOptions{JSONPath: opts.Output})
		}},
		{opts.JUnit, func(w io.Writer) report.Writer { return report.NewJUnit(w) }},
	} {
		if o.path == "" {
			continue
		}
		w, err := open(o.path, o.mk)
		if err != nil {
			return cmdutil.Infra(err)
		}
		ws = append(ws, w)
	}

	meta, notes, err := report.Merge(srcs, score.All(), report.Multi(ws...))
	switch {
	case errors.Is(err, errWrite):
		return cmdutil.Infra(err)
	case err != nil:
		// Unreadable shards, shards that do not fit together, a case twice.
		return cmdutil.Usage(err)
	}
	for _, o := range outs {
		if err := o.commit(); err != nil {
			return cmdutil.Infra(err)
		}
	}
	outs = nil
	for _, n := range notes {
		fmt.Fprintf(opts.IO.ErrOut, "searchbench merge: warning: %s\n", n)
	}
	shards := "1 report"
	if len(meta.Shards) > 0 {
		shards = "shards " + strings.Join(meta.Shards, ", ")
	}
	fmt.Fprintf(opts.IO.Out, "merged %d report(s) (%s) into %s\n", len(srcs), shards, opts.Output)
	return nil
}

// errWrite marks errors writing an output, so they are told apart from
// problems with the shard reports.
var errWrite = errors.New("writing output")

// pending is an output file being written under a temporary name.
type pending struct {
	path string
	f    *os.File
	w    *errWriter
}

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

func create(path string) (*pending, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("creating %s: %w", path, err)
	}
	return &pending{path: path, f: f, w: &errWriter{f: f}}, nil
}

func (p *pending) commit() error {
	if err := p.f.Chmod(0o644); err != nil {
		return err
	}
	if err := p.f.Sync(); err != nil {
		return fmt.Errorf("writing %s: %w", p.path, err)
	}
	if err := p.f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", p.path, err)
	}
	if err := os.Rename(p.f.Name(), p.path); err != nil {
		return fmt.Errorf("writing %s: %w", p.path, err)
	}
	p.f = nil
	return nil
}

func (p *pending) discard() {
	if p.f != nil {
		p.f.Close()
		os.Remove(p.f.Name())
	}
}
