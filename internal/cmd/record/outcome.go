package record

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/eval/report"
	evalrun "github.com/searchbench/searchbench/eval/run"
	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/orchestrator/prompts"
)

// resumeCommand is the one command that records what a recording left
// unfinished: this recording's own flags, with --stale.
func resumeCommand(opts *Options, v *prompts.Variant, mode, policy string) string {
	args := []string{"searchbench", "record", "--backend", opts.Backend}
	if opts.Backend == evalrun.BackendSim && policy != "" && policy != v.Name {
		args = append(args, "--sim-policy", policy)
	}
	args = append(args, "--variant", v.Name)
	if opts.Variant.Prompts != prompts.DefaultRoot {
		args = append(args, "--prompts", opts.Variant.Prompts)
	}
	args = append(args, "--mode", mode)
	if opts.Datasets != "datasets" {
		args = append(args, "--datasets", opts.Datasets)
	}
	if opts.Cassettes != "cassettes" {
		args = append(args, "--cassettes", opts.Cassettes)
	}
	for _, f := range opts.Filter {
		args = append(args, "--filter", f)
	}
	if opts.Samples > 0 {
		args = append(args, "--samples", fmt.Sprint(opts.Samples))
	}
	if opts.Seed != 0 {
		args = append(args, "--seed", fmt.Sprint(opts.Seed))
	}
	if opts.Strict {
		args = append(args, "--strict")
	}
	args = append(args, "--stale")
	for i, a := range args {
		args[i] = cmdutil.ShellQuote(a)
	}
	return strings.Join(args, " ")
}

// failedSearches collects the live cases saved although a search failed
// in them, for the warning record ends with.
type failedSearches struct {
	cases map[string][]string
}

func (f *failedSearches) add(c *dataset.Case, searches []string) {
	if f.cases == nil {
		f.cases = map[string][]string{}
	}
	f.cases[c.Key()] = searches
}

// maxWarned is how many cases the failed-search warning names before it
// counts the rest.
const maxWarned = 10

// warn prints the warning: each case and its first failed search, then
// what to do. Nothing when no search failed.
func (f *failedSearches) warn(w io.Writer, width int) {
	if len(f.cases) == 0 {
		return
	}
	keys := make([]string, 0, len(f.cases))
	for k := range f.cases {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	line := func(s, indent string) {
		for _, l := range report.WrapText(s, width, indent) {
			fmt.Fprintln(w, l)
		}
	}
	line(fmt.Sprintf("WARNING: %d case(s) were recorded with a failed search: their cassettes hold the provider's error "+
		"as the model saw it, and a replay scores the model's answer to that failure, not to results:", len(keys)), "  ")
	for i, k := range keys {
		if i == maxWarned {
			line(fmt.Sprintf("  … and %d more", len(keys)-maxWarned), "    ")
			break
		}
		s := f.cases[k]
		more := ""
		if len(s) > 1 {
			more = fmt.Sprintf(" (and %d more)", len(s)-1)
		}
		line(fmt.Sprintf("  %s: %s%s", k, s[0], more), "    ")
	}
	line("Record them again once the provider answers (--filter on those cases), or pass --strict to refuse such recordings.", "  ")
}
