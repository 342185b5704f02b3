// Package check implements "searchbench check": it checks one Phase 1 or
// Phase 2 message (a file or standard input) against the output contract of
// package answer and prints the findings.
package check

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
	"github.com/spf13/cobra"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/orchestrator/answer"
)

// Options are the inputs of one check.
type Options struct {
	IO *cmdutil.IOStreams
	// Phase is "phase1" or "phase2"; Codes lists the finding codes instead.
	Phase string
	Codes bool
	// File is the message to check; "" or "-" reads standard input.
	File string
	// JSON prints the findings as a JSON array instead of a table.
	JSON bool
}

// NewCmdCheck returns the check command and its subcommands. runF, when not
// nil, receives the options instead of checkRun (for tests).
func NewCmdCheck(io *cmdutil.IOStreams, runF func(*Options) error) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "check <phase1|phase2|codes>",
		Short: "Check an assistant message against the Phase 1 or Phase 2 output contract",
		Long: `Check one assistant message against the output contract (package answer).

Findings are violations (the contract is broken: exit 1) or warnings (the seed's
quality guidance: exit 0). Mismatches of the printed markdown show the first
differing byte and a diff in which invisible characters are visible:
␠ trailing space, → tab, ␍ CR, ⍽ no-break space, ‹U+XXXX› other invisible or
look-alike characters (zero-width spaces, curly quotes, dashes).`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			return cmdutil.Usagef("check needs a subcommand: phase1, phase2 or codes")
		},
	}
	cmd.AddCommand(
		newCmdPhase(io, runF, "phase1", "Check a Phase 1 message (immediate answer and consent question)"),
		newCmdPhase(io, runF, "phase2", "Check a Phase 2 message (search-backed answer and JSON envelope)"),
		newCmdCodes(io, runF),
	)
	return cmd
}

func newCmdPhase(io *cmdutil.IOStreams, runF func(*Options) error, phase, short string) *cobra.Command {
	opts := &Options{IO: io, Phase: phase}
	cmd := &cobra.Command{
		Use:   phase + " [FILE|-]",
		Short: short,
		Long: short + `.

Reads FILE, or standard input when FILE is "-" or absent. Exit status: 0 when
there is no violation (warnings allowed), 1 when there is one, 2 when the input
cannot be read.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.File = args[0]
			}
			if runF != nil {
				return runF(opts)
			}
			return checkRun(c.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print findings as a JSON array of {code, severity, message, location, diff}")
	return cmd
}

func newCmdCodes(io *cmdutil.IOStreams, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: io, Codes: true}
	cmd := &cobra.Command{
		Use:   "codes",
		Short: "List every finding code with its severity and meaning",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(opts)
			}
			return checkRun(c.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the codes as JSON")
	return cmd
}

// checkRun does the work of every check subcommand from opts alone.
func checkRun(_ context.Context, opts *Options) error {
	out := opts.IO.Out
	if opts.Codes {
		return writeCodes(out, opts.JSON)
	}
	data, name, err := cmdutil.ReadInput(opts.IO, opts.File)
	if err != nil {
		return err
	}
	var fs []answer.Finding
	switch opts.Phase {
	case "phase1":
		fs = answer.CheckPhase1(string(data))
	case "phase2":
		fs = answer.CheckPhase2(string(data)).Findings
	default:
		return cmdutil.Usagef("unknown phase %q", opts.Phase)
	}
	if opts.JSON {
		err = writeJSON(out, fs)
	} else {
		err = writeText(out, name, fs)
	}
	if err != nil {
		return cmdutil.Infra(fmt.Errorf("writing findings for %s: %w", name, err))
	}
	if answer.HasViolation(fs) {
		return cmdutil.Fail(fmt.Errorf("%s: %s contract violated", name, opts.Phase))
	}
	return nil
}

// writeJSON prints fs as an indented JSON array ([] when empty).
func writeJSON(w io.Writer, fs []answer.Finding) error {
	if fs == nil {
		fs = []answer.Finding{}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(fs)
}

// writeText prints a summary line, the findings table and, under it, the
// diff of every finding that has one.
func writeText(w io.Writer, name string, fs []answer.Finding) error {
	nv, nw := 0, 0
	for _, f := range fs {
		if f.Severity == answer.Violation {
			nv++
		} else {
			nw++
		}
	}
	verdict := "ok"
	if nv > 0 {
		verdict = "FAIL"
	}
	if _, err := fmt.Fprintf(w, "%s: %s (%s, %s)\n", name, verdict, plural(nv, "violation"), plural(nw, "warning")); err != nil {
		return err
	}
	if len(fs) == 0 {
		return nil
	}
	fs, omitted := capPerCode(fs, maxPerCode)
	t := newTable(w)
	rows := make([][]string, len(fs))
	for i, f := range fs {
		rows[i] = []string{string(f.Severity), f.Code, orDash(f.Location), f.Message}
	}
	header, rows := report.FitCells([]string{"Severity", "Code", "Location", "Message"}, rows, cmdutil.DefaultWidth)
	t.Header(header)
	if err := t.Bulk(rows); err != nil {
		return err
	}
	if err := t.Render(); err != nil {
		return err
	}
	for _, f := range fs {
		if f.Diff == "" {
			continue
		}
		if _, err := fmt.Fprintf(w, "\n%s at %s:\n%s", f.Code, orDash(f.Location), f.Diff); err != nil {
			return err
		}
		if !strings.HasSuffix(f.Diff, "\n") {
			fmt.Fprintln(w)
		}
	}
	for _, o := range omitted {
		if _, err := fmt.Fprintf(w, "\n… %s more %s not shown (the first %d are above; --json lists all)\n", strconv.Itoa(o.n), o.code, maxPerCode); err != nil {
			return err
		}
	}
	return nil
}

// maxPerCode bounds the findings of one code that the text output shows: a
// message with a thousand overlong bullets needs the first few, not all.
const maxPerCode = 10

type omission struct {
	code string
	n    int
}

// capPerCode keeps the first max findings of each code, in order, and
// counts the rest per code, in order of first omission.
func capPerCode(fs []answer.Finding, max int) ([]answer.Finding, []omission) {
	seen := map[string]int{}
	var kept []answer.Finding
	var omitted []omission
	idx := map[string]int{}
	for _, f := range fs {
		seen[f.Code]++
		if seen[f.Code] <= max {
			kept = append(kept, f)
			continue
		}
		i, ok := idx[f.Code]
		if !ok {
			i = len(omitted)
			idx[f.Code] = i
			omitted = append(omitted, omission{code: f.Code})
		}
		omitted[i].n++
	}
	return kept, omitted
}

func writeCodes(w io.Writer, asJSON bool) error {
	if asJSON {
		type code struct {
			Code     string          `json:"code"`
			Severity answer.Severity `json:"severity"`
			Summary  string          `json:"summary"`
		}
		cs := make([]code, len(answer.Codes))
		for i, c := range answer.Codes {
			cs[i] = code(c)
		}
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(cs)
	}
	t := newTable(w)
	rows := make([][]string, len(answer.Codes))
	for i, c := range answer.Codes {
		rows[i] = []string{c.Code, string(c.Severity), c.Summary}
	}
	header, rows := report.FitCells([]string{"Code", "Severity", "Meaning"}, rows, cmdutil.DefaultWidth)
	t.Header(header)
	if err := t.Bulk(rows); err != nil {
		return err
	}
	return t.Render()
}

// newTable returns a left-aligned table whose cells come wrapped
// (report.FitCells) to fit 100 columns, so long messages stay readable in
// a terminal and the output does not depend on the terminal's width.
func newTable(w io.Writer) *tablewriter.Table {
	return tablewriter.NewTable(w,
		tablewriter.WithHeaderAlignment(tw.AlignLeft),
		tablewriter.WithRowAlignment(tw.AlignLeft),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithHeaderAutoWrap(tw.WrapNone),
	)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
