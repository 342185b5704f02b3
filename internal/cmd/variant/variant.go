// Package variant implements `searchbench variant`: create a prompt variant
// to edit and list the variants with their hashes, settings and cassettes.
// It also holds the flags every command uses to choose a variant.
package variant

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	evalrun "github.com/searchbench/searchbench/eval/run"
	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/lib/fsutil"
	"github.com/searchbench/searchbench/orchestrator/prompts"
	builtin "github.com/searchbench/searchbench/prompts"
	"github.com/searchbench/searchbench/sim"

	"github.com/searchbench/searchbench/eval/report"
)

// NewCmdVariant returns the variant command and its subcommands.
func NewCmdVariant(io *cmdutil.IOStreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "variant",
		Short: "Create and list prompt variants",
		Long: `A prompt variant is a folder prompts/<name>/ holding the prompt files it changes
(phase1.md, phase2.md, structured.md, decline.md, tools.json) and an optional
variant.yaml of settings (model, reasoning_effort, temperature,
max_completion_tokens, mode, always_on_search). Files it lacks come from seed.
Variants are read at run time: no rebuild is needed after an edit.`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newCmdNew(io), newCmdList(io))
	return cmd
}

type newOptions struct {
	io      *cmdutil.IOStreams
	prompts string
	from    string
	files   []string
}

func newCmdNew(io *cmdutil.IOStreams) *cobra.Command {
	o := &newOptions{io: io}
	cmd := &cobra.Command{
		Use:   "new NAME",
		Short: "Create prompts/NAME/ from a variant, with the files you will edit",
		Long: `Create the folder <prompts>/NAME/ holding what you will edit: the files given by
--files (default phase2.md and variant.yaml) and whatever the --from variant itself
changes, so the new variant starts as an exact copy of it (same hash). Every
other file keeps coming from seed. Prints the commands of the tuning loop.`,
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error { return o.run(args[0]) },
	}
	cmd.Flags().StringVar(&o.prompts, "prompts", prompts.DefaultRoot, "`folder` of prompt variants")
	cmd.Flags().StringVar(&o.from, "from", prompts.Default, "`variant` to start from")
	cmd.Flags().StringSliceVar(&o.files, "files", []string{prompts.Phase2File, prompts.SettingsFile}, "files to copy for editing (comma-separated)")
	return cmd
}

func (o *newOptions) run(name string) error {
	if err := prompts.ValidName(name); err != nil {
		return cmdutil.Usage(err)
	}
	for _, f := range o.files {
		if !slices.Contains(prompts.Files, f) {
			return cmdutil.Usagef("--files: unknown file %q (a variant holds %s)", f, strings.Join(prompts.Files, ", "))
		}
	}
	dir := filepath.Join(o.prompts, name)
	if _, err := os.Stat(dir); err == nil {
		return cmdutil.Usagef("%s already exists: edit it, or choose another name", filepath.ToSlash(dir))
	}
	from, err := prompts.Load(o.prompts, o.from)
	if err != nil {
		return cmdutil.Usage(err)
	}
	copyFiles := slices.Clone(from.Own)
	if from.Name == prompts.Default {
		copyFiles = nil // seed is the base: nothing of its own to carry over
	}
	for _, f := range o.files {
		if !slices.Contains(copyFiles, f) {
			copyFiles = append(copyFiles, f)
		}
	}
	slices.SortFunc(copyFiles, func(a, b string) int { return slices.Index(prompts.Files, a) - slices.Index(prompts.Files, b) })

	// Build the folder aside and rename it into place: an interrupted
	// command leaves no half-made variant.
	if err := os.MkdirAll(o.prompts, 0o755); err != nil {
		return cmdutil.Infra(err)
	}
	tmp, err := os.MkdirTemp(o.prompts, ".new-"+name+"-")
	if err != nil {
		return cmdutil.Infra(err)
	}
	defer os.RemoveAll(tmp)
	var copied []string
	for _, f := range copyFiles {
		b, err := readSource(from.Sources[f], f)
		if errors.Is(err, fs.ErrNotExist) && f == prompts.SettingsFile {
			continue // no settings file anywhere: nothing to copy
		}
		if err != nil {
			return cmdutil.Infra(err)
		}
		if err := fsutil.WriteFileAtomic(filepath.Join(tmp, f), b, 0o644); err != nil {
			return cmdutil.Infra(err)
		}
		copied = append(copied, f)
	}
	if err := os.Rename(tmp, dir); err != nil {
		return cmdutil.Infra(err)
	}
	v, err := prompts.Load(o.prompts, name)
	if err != nil {
		return cmdutil.Infra(fmt.Errorf("the new variant does not load: %w", err))
	}
	policy := prompts.Default
	if slices.Contains(sim.Policies(), from.Name) {
		policy = from.Name
	}
	pf := ""
	if o.prompts != prompts.DefaultRoot {
		pf = " --prompts " + cmdutil.ShellQuote(o.prompts)
	}
	w := o.io.Out
	fmt.Fprintf(w, "created %s/ from %s (hash %s, as %s's): %s\n", filepath.ToSlash(dir), from.Name, v.Hash, from.Name, strings.Join(copied, ", "))
	fmt.Fprintf(w, "Its other files come from seed. Next:\n")
	fmt.Fprintf(w, "  edit %s\n", filepath.ToSlash(filepath.Join(dir, prompts.Phase2File)))
	fmt.Fprintf(w, "  searchbench record --backend live --variant %s%s      # or, without keys: --backend sim --sim-policy %s\n", name, pf, policy)
	fmt.Fprintf(w, "  searchbench run --variant %s%s\n", name, pf)
	fmt.Fprintf(w, "  searchbench compare %s %s\n", from.Name, name)
	return nil
}

// readSource reads a variant file from where Load found it.
func readSource(src, file string) ([]byte, error) {
	switch src {
	case "":
		return nil, fs.ErrNotExist
	case prompts.BuiltinSource:
		return builtin.Seed.ReadFile(prompts.Default + "/" + file)
	}
	return os.ReadFile(filepath.FromSlash(src))
}

type listOptions struct {
	io        *cmdutil.IOStreams
	prompts   string
	cassettes string
	wide      bool
}

func newCmdList(io *cmdutil.IOStreams) *cobra.Command {
	o := &listOptions{io: io}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the variants: hash, own files, settings, cassettes per mode",
		Long: `List every variant under --prompts with its content hash, the files it holds
itself, its settings, and for each output mode how many of its recorded
cassettes are current and how many are stale (a file they used changed since).`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error { return o.run() },
	}
	cmd.Flags().StringVar(&o.prompts, "prompts", prompts.DefaultRoot, "`folder` of prompt variants")
	cmd.Flags().StringVar(&o.cassettes, "cassettes", "cassettes", "cassette root folder")
	cmd.Flags().BoolVar(&o.wide, "wide", false, "do not fit the table to 100 columns (or a narrower terminal)")
	return cmd
}

func (o *listOptions) run() error {
	names, err := prompts.List(o.prompts)
	if err != nil {
		return cmdutil.Infra(err)
	}
	var rows [][]string
	var errs []error
	for _, name := range names {
		v, err := prompts.Load(o.prompts, name)
		if err != nil {
			errs = append(errs, err)
			rows = append(rows, []string{name, "(invalid)", "", "", "", ""})
			continue
		}
		own := strings.Join(v.Own, " ")
		if v.Sources[prompts.Phase1File] == prompts.BuiltinSource {
			own = "(built in)"
		}
		row := []string{name, v.Hash, own, settings(v.Settings)}
		for _, mode := range prompts.Modes {
			c, err := cassettes(evalrun.Shelf{Root: o.cassettes, Variant: name, Mode: mode}, v)
			if err != nil {
				errs = append(errs, err)
			}
			row = append(row, c)
		}
		rows = append(rows, row)
	}
	header := []string{"variant", "hash", "own files", "settings"}
	for _, m := range prompts.Modes {
		header = append(header, "cassettes: "+m)
	}
	if err := report.RenderTableWidth(o.io.Out, false, o.io.Width(o.wide), "", header, rows, nil); err != nil {
		return cmdutil.Infra(err)
	}
	if len(errs) > 0 {
		return cmdutil.Usage(errors.Join(errs...))
	}
	return nil
}

func settings(s prompts.Settings) string {
	var kv []string
	add := func(k, v string) { kv = append(kv, k+"="+v) }
	if s.Model != "" {
		add("model", s.Model)
	}
	if s.ReasoningEffort != "" {
		add("reasoning_effort", s.ReasoningEffort)
	}
	if s.Temperature != nil {
		add("temperature", strconv.FormatFloat(*s.Temperature, 'g', -1, 64))
	}
	if s.MaxCompletionTokens != 0 {
		add("max_completion_tokens", strconv.Itoa(s.MaxCompletionTokens))
	}
	if s.Mode != "" {
		add("mode", s.Mode)
	}
	if s.AlwaysOnSearch {
		add("always_on_search", "true")
	}
	if len(kv) == 0 {
		return "(defaults)"
	}
	return strings.Join(kv, " ")
}

// cassettes sums up a shelf against v: how many recorded cassettes are
// current and how many stale, with the files that changed.
func cassettes(shelf evalrun.Shelf, v *prompts.Variant) (string, error) {
	m, err := shelf.LoadManifest()
	if err != nil {
		return "?", err
	}
	if len(m.Cases) == 0 {
		return "none", nil
	}
	current, stale := 0, 0
	var changed []string
	for _, e := range m.Cases {
		c := v.Changed(e.Files)
		if len(c) == 0 {
			current++
			continue
		}
		stale++
		for _, f := range c {
			if !slices.Contains(changed, f) {
				changed = append(changed, f)
			}
		}
	}
	if stale == 0 {
		return fmt.Sprintf("%d current", current), nil
	}
	slices.SortFunc(changed, func(a, b string) int { return slices.Index(prompts.Files, a) - slices.Index(prompts.Files, b) })
	return fmt.Sprintf("%d current, %d stale (%s changed)", current, stale, strings.Join(changed, ", ")), nil
}
