package root

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/searchbench/searchbench/internal/cmdutil"
)

// readmeSection returns the README's text from the line starting with
// start up to the next line starting with "## " or "Makefile targets".
func readmeSection(t *testing.T, start string) string {
	t.Helper()
	b, err := os.ReadFile("../../../docs/commands.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "\n"+start)
	if i < 0 {
		t.Fatalf("docs/commands.md has no %q", start)
	}
	s = s[i+1+len(start):]
	for _, end := range []string{"\n## ", "\nMakefile targets", "\nFlags of "} {
		if j := strings.Index(s, end); j >= 0 {
			s = s[:j]
		}
	}
	return s
}

// TestREADMECommandsTable: the docs/commands.md's Commands table lists every command
// the binary has, and no other.
func TestREADMECommandsTable(t *testing.T) {
	io, _, _ := cmdutil.Test("")
	var have []string
	for _, c := range NewCmdRoot(io).Commands() {
		if !c.Hidden && c.Name() != "help" {
			have = append(have, c.Name())
		}
	}
	var listed []string
	for _, m := range regexp.MustCompile("(?m)^\\| `searchbench ([a-z]+)").FindAllStringSubmatch(readmeSection(t, "## Commands"), -1) {
		listed = append(listed, m[1])
	}
	slices.Sort(have)
	slices.Sort(listed)
	listed = slices.Compact(listed)
	if !slices.Equal(have, listed) {
		t.Errorf("docs/commands.md's Commands table lists %v; the binary has %v", listed, have)
	}
}

// TestREADMEFlagTables: the README's tables of run's and record's flags
// name every flag the command has and no other, each with the default the
// code has (--help prints the code's, so the two agree).
func TestREADMEFlagTables(t *testing.T) {
	for _, name := range []string{"run", "record"} {
		t.Run(name, func(t *testing.T) {
			io, _, _ := cmdutil.Test("")
			cmd, _, err := NewCmdRoot(io).Find([]string{name})
			if err != nil {
				t.Fatal(err)
			}
			var have []string
			cmd.Flags().VisitAll(func(f *pflag.Flag) {
				if f.Name != "help" {
					have = append(have, f.Name)
				}
			})
			var listed []string
			for _, row := range strings.Split(readmeSection(t, "Flags of `searchbench "+name+"`:"), "\n") {
				if !strings.HasPrefix(row, "| `--") {
					continue
				}
				cells := strings.Split(row, " | ")
				for _, m := range regexp.MustCompile("`--([a-z-]+)").FindAllStringSubmatch(cells[0], -1) {
					listed = append(listed, m[1])
					f := cmd.Flags().Lookup(m[1])
					if f == nil || len(cells) < 3 {
						continue
					}
					if want := readmeDefault(f); !strings.Contains(cells[1], want) {
						t.Errorf("--%s: docs/commands.md's default is %q; the code's is %q", m[1], cells[1], want)
					}
				}
			}
			slices.Sort(have)
			slices.Sort(listed)
			if !slices.Equal(have, listed) {
				t.Errorf("docs/commands.md's %s flags table lists %v; %s has %v", name, listed, name, have)
			}
		})
	}
}

// readmeDefault is how the README's tables write a flag's default.
func readmeDefault(f *pflag.Flag) string {
	switch {
	case f.Value.Type() == "bool" && f.DefValue == "false":
		return "off"
	case f.Value.Type() == "stringArray" || f.Name == "filter":
		return "all cases"
	case f.Name == "shard":
		return "whole run"
	case f.Name == "mode":
		return "the variant's, else `model`"
	case f.Name == "sim-policy":
		return "the variant's own"
	case f.DefValue == "":
		return "none"
	}
	return "`" + f.DefValue + "`"
}

// TestREADMEMentionsEveryFlag: every flag of every command (subcommands
// included) is named somewhere in the README, and every --flag the
// Commands section names exists on some command: none missing, none
// stale.
func TestREADMEMentionsEveryFlag(t *testing.T) {
	b, err := os.ReadFile("../../../docs/commands.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	io, _, _ := cmdutil.Test("")
	all := map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Name == "help" {
				return
			}
			all[f.Name] = true
			if !strings.Contains(readme, "--"+f.Name) {
				t.Errorf("%s --%s: not in docs/commands.md", c.CommandPath(), f.Name)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(NewCmdRoot(io))
	for _, m := range regexp.MustCompile("--([a-z][a-z-]+)").FindAllStringSubmatch(readmeSection(t, "## Commands"), -1) {
		if !all[m[1]] {
			t.Errorf("docs/commands.md's Commands section names --%s, which no command has", m[1])
		}
	}
}
