package variant

import (
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/orchestrator/prompts"
	"github.com/searchbench/searchbench/sim"
)

// Flags are the flags that choose a prompt variant and an output mode,
// shared by run, record, ask and sim.
type Flags struct {
	Variant string
	Prompts string
	Mode    string
}

// Register adds --variant, --prompts and (withMode) --mode to fs.
func (f *Flags) Register(fs *pflag.FlagSet, withMode bool) {
	fs.StringVar(&f.Variant, "variant", prompts.Default, "prompt `variant`: the folder <prompts>/<variant>/ (seed is built in)")
	fs.StringVar(&f.Prompts, "prompts", prompts.DefaultRoot, "`folder` of prompt variants")
	if withMode {
		fs.StringVar(&f.Mode, "mode", "", "Phase 2 output `mode`: model or structured (default: the variant's mode, else model)")
	}
}

// Load validates the flags and reads the variant, before any case runs:
// a bad --mode or variant is a usage error (exit 2) naming what is allowed.
// It returns the variant and the mode to use.
func (f *Flags) Load() (*prompts.Variant, string, error) {
	if err := CheckMode(f.Mode); err != nil {
		return nil, "", err
	}
	v, err := prompts.Load(f.Prompts, f.Variant)
	if err != nil {
		return nil, "", cmdutil.Usage(err)
	}
	return v, v.Mode(f.Mode), nil
}

// CheckMode is the usage check of a --mode value ("" allowed: the default).
func CheckMode(mode string) error {
	if mode != "" && !slices.Contains(prompts.Modes, mode) {
		return cmdutil.Usagef("--mode %q: want one of %s", mode, strings.Join(prompts.Modes, ", "))
	}
	return nil
}

// Policy decides the simulator policy that answers a sim recording of v:
// the one asked for, else the variant's own. The simulator cannot read a
// prompt, so a variant without a policy of its own is refused unless one
// is named: playing another variant's policy silently would show no effect
// of the prompt being tuned.
func Policy(v *prompts.Variant, asked string) (string, error) {
	have := sim.Policies()
	if asked != "" {
		if !slices.Contains(have, asked) {
			return "", cmdutil.Usagef("--sim-policy %q: no such simulator policy (policies: %s)", asked, strings.Join(have, ", "))
		}
		return asked, nil
	}
	if slices.Contains(have, v.Name) {
		return v.Name, nil
	}
	return "", cmdutil.Usagef("the simulator cannot read prompts, and variant %q has no scripted policy of its own (policies: %s).\n"+
		"Recording it from the simulator would replay another variant's scripts, so `compare` could never show your prompt's effect.\n"+
		"Record it from the live services (--backend live), or choose the policy explicitly and accept that the answers are that policy's: --sim-policy %s",
		v.Name, strings.Join(have, ", "), prompts.Default)
}
