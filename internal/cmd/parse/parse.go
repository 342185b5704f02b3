// Package parse implements `searchbench parse`: extract tool calls from one
// raw model output with the executor's strategies, and print what was found.
package parse

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/orchestrator/executor"
)

// Options are the inputs of `searchbench parse`.
type Options struct {
	IO *cmdutil.IOStreams

	Strategy   string // primary strategy; "" takes the configuration's
	Fallback   string // fallback strategy; with Strategy set, "" means none
	ConfigPath string // config/executor.yaml; "" is the seed's recommended configuration
	Input      string // FILE, or "-" / "" for standard input
}

// NewCmdParse returns the parse command. runF replaces parseRun in tests.
func NewCmdParse(io *cmdutil.IOStreams, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: io}
	cmd := &cobra.Command{
		Use:   "parse [--strategy S] [--fallback F] [--config FILE] [FILE|-]",
		Short: "Extract tool calls from a model output",
		Long: `Extract tool calls from one raw GPT-OSS output, as the executor would, and print
the result as JSON: the strategy that matched, the field read, the calls (name and
arguments) and the findings (unknown tools, missing or unknown arguments, schema
violations, malformed attempts).

The input is either raw text, taken as the content field, or a JSON or YAML object
with "reasoning" and/or "content" (vLLM's "reasoning_content" is accepted, and so is
a chat completion response, whose first message is read).

Strategies: ` + strings.Join(executor.Strategies, ", ") + `. Without --config the seed's
recommended configuration applies (react, falling back to fuzzy, reading reasoning
and content when reasoning is empty). --strategy names the chain exactly: the
fallback is --fallback, none when it is not given, and the fields are the seed's
for that strategy (guided_json reads content) unless --config sets them.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Input = args[0]
			}
			if runF != nil {
				return runF(opts)
			}
			return parseRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVarP(&opts.Strategy, "strategy", "s", "", "primary strategy: "+strings.Join(executor.Strategies, "|"))
	cmd.Flags().StringVar(&opts.Fallback, "fallback", "", "fallback strategy, run when the primary recognises nothing")
	cmd.Flags().StringVar(&opts.ConfigPath, "config", "", "executor configuration (e.g. config/executor.yaml)")
	return cmd
}

// parserConfig resolves the parser configuration from the options.
func parserConfig(opts *Options) (executor.ParserConfig, error) {
	var cfg executor.Config
	var err error
	switch {
	case opts.ConfigPath != "":
		cfg, err = executor.LoadConfig(opts.ConfigPath)
	case opts.Strategy != "":
		cfg, err = executor.DefaultConfigFor(opts.Strategy)
	default:
		cfg = executor.DefaultConfig()
	}
	if err != nil {
		return executor.ParserConfig{}, err
	}
	p := cfg.Parser
	if opts.Strategy != "" {
		p.Strategy, p.FallbackStrategy = opts.Strategy, opts.Fallback
	} else if opts.Fallback != "" {
		p.FallbackStrategy = opts.Fallback
	}
	return p, p.Validate()
}

func parseRun(_ context.Context, opts *Options) error {
	cfg, err := parserConfig(opts)
	if err != nil {
		return cmdutil.Usage(err)
	}
	p, err := executor.New(cfg)
	if err != nil {
		return cmdutil.Usage(err)
	}
	data, _, err := cmdutil.ReadInput(opts.IO, opts.Input)
	if err != nil {
		return err
	}
	res := p.Extract(executor.DecodeMessage(data))
	enc := json.NewEncoder(opts.IO.Out)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // URLs keep their & and <>
	if err := enc.Encode(res); err != nil {
		return fmt.Errorf("writing result: %w", err)
	}
	return nil
}
