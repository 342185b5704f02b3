// Package prompt implements `searchbench prompt`: print the system prompt the
// executor sends GPT-OSS for a parser strategy.
package prompt

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/orchestrator/executor"
)

// Options are the inputs of `searchbench prompt`.
type Options struct {
	IO       *cmdutil.IOStreams
	Strategy string
}

// NewCmdPrompt returns the prompt command. runF replaces promptRun in tests.
func NewCmdPrompt(io *cmdutil.IOStreams, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: io}
	cmd := &cobra.Command{
		Use:   "prompt --strategy S",
		Short: "Print the executor's system prompt for a parser strategy",
		Long: `Print, byte for byte, the system prompt the executor sends GPT-OSS for a parser
strategy (` + strings.Join(executor.Strategies, ", ") + `). The prompt has no final
newline; one is added only when standard output is a terminal.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// Checked here, not with MarkFlagRequired: cobra validates
			// required flags after the root's PersistentPreRun, which would
			// classify the error as infrastructure rather than usage.
			if opts.Strategy == "" {
				return cmdutil.Usagef("--strategy is required (one of %s)", strings.Join(executor.Strategies, ", "))
			}
			if runF != nil {
				return runF(opts)
			}
			return promptRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVarP(&opts.Strategy, "strategy", "s", "", "strategy: "+strings.Join(executor.Strategies, "|"))
	return cmd
}

func promptRun(_ context.Context, opts *Options) error {
	p, err := executor.Prompt(opts.Strategy)
	if err != nil {
		return cmdutil.Usage(err)
	}
	if opts.IO.IsStdoutTTY() {
		p += "\n"
	}
	if _, err := fmt.Fprint(opts.IO.Out, p); err != nil {
		return fmt.Errorf("writing prompt: %w", err)
	}
	return nil
}
