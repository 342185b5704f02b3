// Package root builds the searchbench command tree and runs it.
package root

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/searchbench/searchbench/internal/cmd/accept"
	"github.com/searchbench/searchbench/internal/cmd/ask"
	"github.com/searchbench/searchbench/internal/cmd/check"
	"github.com/searchbench/searchbench/internal/cmd/classify"
	"github.com/searchbench/searchbench/internal/cmd/compare"
	"github.com/searchbench/searchbench/internal/cmd/gate"
	"github.com/searchbench/searchbench/internal/cmd/grade"
	"github.com/searchbench/searchbench/internal/cmd/merge"
	"github.com/searchbench/searchbench/internal/cmd/parse"
	"github.com/searchbench/searchbench/internal/cmd/power"
	"github.com/searchbench/searchbench/internal/cmd/prompt"
	"github.com/searchbench/searchbench/internal/cmd/record"
	"github.com/searchbench/searchbench/internal/cmd/run"
	"github.com/searchbench/searchbench/internal/cmd/sim"
	"github.com/searchbench/searchbench/internal/cmd/variant"
	"github.com/searchbench/searchbench/internal/cmdutil"
)

// NewCmdRoot returns the searchbench command with every subcommand attached.
func NewCmdRoot(io *cmdutil.IOStreams) *cobra.Command {
	return newCmdRoot(io, new(bool))
}

// newCmdRoot sets *started once a command's own RunE begins: any
// unclassified error raised before that came from cobra's checks of
// commands, arguments and required flags, and is a usage error.
func newCmdRoot(io *cmdutil.IOStreams, started *bool) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "searchbench",
		Short: "Evaluate and regression-test a two-phase web-search assistant",
		Long: `searchbench runs and judges a two-phase web-search assistant built on GPT-OSS-120B.

Phase 1 answers from the model's own knowledge and asks whether to search; Phase 2
searches with Tavily and/or Exa and answers with bullets, numbered sources and a JSON
envelope. searchbench holds that assistant (ask), checks its output contract (check),
replays recorded traffic against labelled datasets and scores it (run), and gates CI
on regressions against a baseline (run --gates, compare).

Exit codes: 0 ok, 1 a check or verdict failed, 2 usage or input error,
3 infrastructure error, 130 interrupted (SIGINT or SIGTERM).`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       Version(),
	}
	cmd.SetVersionTemplate("searchbench {{.Version}}\n")
	cmd.InitDefaultVersionFlag() // now, so the flag is in the tree the docs are checked against
	cmd.SetOut(io.Out)
	cmd.SetErr(io.ErrOut)
	cmd.SetIn(io.In)
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return cmdutil.Usage(err) })
	// Flag descriptions wrap to fit 100 columns, as every output does.
	usage := strings.NewReplacer(".LocalFlags.FlagUsages", "(.LocalFlags.FlagUsagesWrapped 100)",
		".InheritedFlags.FlagUsages", "(.InheritedFlags.FlagUsagesWrapped 100)").Replace(cmd.UsageTemplate())
	cmd.SetUsageTemplate(usage)
	cmd.CompletionOptions.DisableDefaultCmd = true

	for _, sub := range []*cobra.Command{
		// Subcommands register here, one line each.
		ask.NewCmdAsk(io, nil),
		run.NewCmdRun(io, nil),
		record.NewCmdRecord(io, nil),
		parse.NewCmdParse(io, nil),
		prompt.NewCmdPrompt(io, nil),
		classify.NewCmdClassify(io, nil),
		grade.NewCmdGrade(io, nil),
		check.NewCmdCheck(io, nil),
		compare.NewCmdCompare(io, nil),
		merge.NewCmdMerge(io, nil),
		gate.NewCmdGate(io, nil),
		accept.NewCmdAccept(io, nil),
		power.NewCmdPower(io, nil),
		sim.NewCmdSim(io, nil),
		variant.NewCmdVariant(io),
	} {
		cmd.AddCommand(sub)
	}
	markStart(cmd, started)
	return cmd
}

// Version is the module version and VCS revision the binary was built
// from (debug.ReadBuildInfo): "v1.2.3", or "(devel)" for a build of a
// checkout, then the commit, "+dirty" for uncommitted changes, and Go's
// version.
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown: built without module information)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, when string
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	parts := []string{}
	if rev != "" && !strings.Contains(v, rev[:min(len(rev), 12)]) {
		c := "commit " + rev[:min(len(rev), 12)]
		if dirty {
			c += "+dirty"
		}
		if when != "" {
			c += " of " + when
		}
		parts = append(parts, c)
	}
	parts = append(parts, bi.GoVersion)
	return v + " (" + strings.Join(parts, ", ") + ")"
}

// markStart wraps every RunE in the tree so that *started is set when the
// command's own code begins.
func markStart(cmd *cobra.Command, started *bool) {
	if run := cmd.RunE; run != nil {
		cmd.RunE = func(c *cobra.Command, args []string) error {
			*started = true
			return run(c, args)
		}
	}
	for _, sub := range cmd.Commands() {
		markStart(sub, started)
	}
}

// Signals stop a command: SIGTERM (CI cancelling a job) is handled like
// Ctrl-C. The command stops, removes its temporaries, keeps the previous
// outputs, and Main returns cmdutil.ExitInterrupted.
var Signals = []os.Signal{os.Interrupt, syscall.SIGTERM}

// Main runs searchbench with args and returns the process exit code.
func Main(ctx context.Context, args []string, io *cmdutil.IOStreams) int {
	// Every byte a command prints passes the one scrubber, whatever path
	// (a provider's error body, a cassette-miss diff, a trace) it came by.
	flush := io.Scrub()
	defer flush()
	started := false
	cmd := newCmdRoot(io, &started)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(ctx)
	if err == nil {
		return cmdutil.ExitOK
	}
	if ctx.Err() != nil {
		// Interrupted: whatever the command was doing failed because of it.
		fmt.Fprintf(io.ErrOut, "searchbench: interrupted: %v\n", err)
		return cmdutil.ExitInterrupted
	}
	var ee *cmdutil.ExitError
	if !errors.As(err, &ee) && !started {
		err = cmdutil.Usage(err)
	}
	if !cmdutil.IsSilent(err) {
		fmt.Fprintf(io.ErrOut, "searchbench: %v\n", err)
	}
	return cmdutil.ExitCode(err)
}
