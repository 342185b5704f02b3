package root

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/searchbench/searchbench/internal/cmdutil"
)

// readmeSection returns the README's text from the line starting with
// start up to the next line starting with "## " or "Makefile targets".
func readmeSection(t *testing.T, start string) string {
	t.Helper()
	b, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "\n"+start)
	if i < 0 {
		t.Fatalf("README has no %q", start)
	}
	s = s[i+1+len(start):]
	for _, end := range []string{"\n## ", "\nMakefile targets"} {
		if j := strings.Index(s, end); j >= 0 {
			s = s[:j]
		}
	}
	return s
}

// TestREADMECommandsTable: the README's Commands table lists every command
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
	if !slices.Equal(have, listed) {
		t.Errorf("README's Commands table lists %v; the binary has %v", listed, have)
	}
}

// TestREADMERunFlags: the README's table of run's flags names every flag
// run has, and no flag run lacks.
func TestREADMERunFlags(t *testing.T) {
	io, _, _ := cmdutil.Test("")
	run, _, err := NewCmdRoot(io).Find([]string{"run"})
	if err != nil {
		t.Fatal(err)
	}
	var have []string
	run.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Name != "help" {
			have = append(have, f.Name)
		}
	})
	var listed []string
	for _, row := range strings.Split(readmeSection(t, "Flags of `searchbench run`:"), "\n") {
		if !strings.HasPrefix(row, "| `--") {
			continue
		}
		first := strings.SplitN(row, " | ", 2)[0]
		for _, m := range regexp.MustCompile("`--([a-z-]+)").FindAllStringSubmatch(first, -1) {
			listed = append(listed, m[1])
		}
	}
	slices.Sort(have)
	slices.Sort(listed)
	if !slices.Equal(have, listed) {
		t.Errorf("README's run flags table lists %v; run has %v", listed, have)
	}
}
