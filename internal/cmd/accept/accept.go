// Package accept implements "searchbench accept": it writes a violation of
// the last gated run into the accept file (gates.accept.yaml) with the
// reason a reviewer will read, tied to the baseline it was judged against.
package accept

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	evalgate "github.com/searchbench/searchbench/eval/gate"
	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/lib/fsutil"
)

// Options are the inputs of one acceptance.
type Options struct {
	IO     *cmdutil.IOStreams
	Case   string // dataset/id
	Scorer string // "" when the case has one violation
	Reason string
	Report string // the gated report.json to read the violation from
	File   string // the accept file to write
}

// NewCmdAccept returns the accept command. runF, when not nil, receives
// the options instead of acceptRun (for tests).
func NewCmdAccept(io *cmdutil.IOStreams, runF func(context.Context, *Options) error) *cobra.Command {
	opts := &Options{IO: io}
	cmd := &cobra.Command{
		Use:   "accept CASE --reason TEXT",
		Short: "Accept a regression of the last gated run, with a reason, in " + evalgate.AcceptFile,
		Long: `Accept a regression the last gated run found (a case's pass rate that fell,
a flip, a new failure) as a reviewed trade-off: the entry — case, scorer, the
change from → to, and your reason — goes into ` + evalgate.AcceptFile + `, which the
change commits and its reviewers read. The gate then passes "with 1 accepted
regression", naming it in its verdict line.

CASE is the case key (routing/e-rag-patterns) or its id. The violation is read
from --report (the gated run's report.json), with the fingerprint of the
baseline it was judged against: an acceptance expires when the baseline is
regenerated (the regression is then part of it). An entry the gate finds no
violation for is an error, so a stale acceptance never hides a later
regression.

Exit status: 0; 2 for bad input (no such violation, no reason).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Case = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return acceptRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Reason, "reason", "", "why the regression is accepted, for the reviewer (a sentence)")
	f.StringVar(&opts.Scorer, "scorer", "", "the violation's scorer or metric, when the case has several")
	f.StringVar(&opts.Report, "report", "reports/latest/report.json", "the gated run's `report.json`")
	f.StringVar(&opts.File, "file", evalgate.AcceptFile, "the accept `file` to write")
	return cmd
}

func acceptRun(opts *Options) error {
	if len(strings.Fields(opts.Reason)) < 3 {
		return cmdutil.Usagef("--reason: say in a sentence why the regression is accepted; the reviewer reads it in the verdict")
	}
	g, err := readGate(opts.Report)
	if err != nil {
		return err
	}
	if g.BaselineID == "" {
		return cmdutil.Usagef("%s was not gated against a baseline: run with --gates and --baseline-ref (or --baseline) first", opts.Report)
	}
	var matches []report.Violation
	for _, v := range g.Violations {
		if (v.Case == opts.Case || strings.HasSuffix(v.Case, "/"+opts.Case)) && (opts.Scorer == "" || v.Metric == opts.Scorer) {
			matches = append(matches, v)
		}
	}
	switch {
	case len(matches) == 0:
		var cases []string
		for _, v := range g.Violations {
			if v.Case != "" && !slices.Contains(cases, v.Case) {
				cases = append(cases, v.Case)
			}
		}
		return cmdutil.Usagef("%s: no violation of case %s%s in the last gated run (cases with violations: %s)", opts.Report, opts.Case, scorerText(opts.Scorer), orNone(cases))
	case len(matches) > 1:
		var names []string
		for _, v := range matches {
			names = append(names, v.Metric)
		}
		return cmdutil.Usagef("case %s has %d violations (%s): choose one with --scorer", opts.Case, len(matches), strings.Join(names, ", "))
	}
	v := matches[0]
	doc, err := load(opts.File)
	if err != nil {
		return err
	}
	if doc.Baseline != "" && doc.Baseline != g.BaselineID {
		// Written against an older baseline: those entries expired.
		fmt.Fprintf(opts.IO.ErrOut, "%s: its entries were written against baseline %s, expired now that the baseline is %s: replaced\n", opts.File, doc.Baseline, g.BaselineID)
		doc.Accept = nil
	}
	doc.Baseline = g.BaselineID
	doc.Accept = slices.DeleteFunc(doc.Accept, func(e entry) bool { return e.Case == v.Case && e.Scorer == v.Metric })
	doc.Accept = append(doc.Accept, entry{Case: v.Case, Scorer: v.Metric, From: v.Want, To: v.Got, Reason: strings.TrimSpace(opts.Reason)})
	var buf bytes.Buffer
	buf.WriteString("# Regressions this change accepts, each a reviewed trade-off (searchbench accept).\n" +
		"# They expire when the baseline is regenerated: delete the file then.\n")
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return cmdutil.Infra(err)
	}
	if err := fsutil.WriteFileAtomic(opts.File, buf.Bytes(), 0o644); err != nil {
		return cmdutil.Infra(err)
	}
	fmt.Fprintf(opts.IO.Out, "accepted %s (%s: %s → %s) in %s; commit it with the change\n", v.Case, v.Metric, v.Want, v.Got, filepath.ToSlash(opts.File))
	return nil
}

func scorerText(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}

func orNone(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return strings.Join(xs, ", ")
}

// doc is the accept file as written.
type doc struct {
	Baseline string  `yaml:"baseline"`
	Accept   []entry `yaml:"accept"`
}

type entry struct {
	Case   string `yaml:"case"`
	Scorer string `yaml:"scorer"`
	From   string `yaml:"from"`
	To     string `yaml:"to"`
	Reason string `yaml:"reason"`
}

// load reads an existing accept file (validated like the gate reads it),
// or an empty one.
func load(file string) (*doc, error) {
	data, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		return &doc{}, nil
	}
	if err != nil {
		return nil, cmdutil.Infra(err)
	}
	if _, err := evalgate.LoadAcceptances(file, data); err != nil {
		return nil, cmdutil.Usage(err)
	}
	var d doc
	if err := yaml.Unmarshal(data, &d); err != nil {
		return nil, cmdutil.Usage(err)
	}
	return &d, nil
}

// readGate reads the verdict of a gated report.json.
func readGate(path string) (*report.Gate, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, cmdutil.Usage(fmt.Errorf("reading the gated run: %w (run with --gates first)", err))
	}
	defer f.Close()
	sc, err := report.NewScanner(path, f)
	if err != nil {
		return nil, cmdutil.Usage(err)
	}
	for sc.Next() {
	}
	if err := sc.Err(); err != nil {
		return nil, cmdutil.Usage(err)
	}
	if sc.Gate() == nil {
		return nil, cmdutil.Usagef("%s has no verdict: run with --gates (and --baseline-ref) first", path)
	}
	return sc.Gate(), nil
}
