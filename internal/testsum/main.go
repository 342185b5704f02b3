// Command testsum reads go test -json on stdin and prints what go test
// prints without -v (a line per package, the output of what failed), then
// one line per optional tool saying whether the tests that need it ran,
// and how many slow tests were left to make test-all. It exits 1 when a
// test or a build failed. The tool and slow markers come from lib/testenv.
//
//	go test -short -json ./... | go run ./internal/testsum
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/searchbench/searchbench/lib/testenv"
)

type event struct {
	Action      string
	Package     string
	Test        string
	Elapsed     float64
	Output      string
	ImportPath  string
	FailedBuild string
}

type line struct{ test, text string }

type pkgState struct {
	lines   []line
	discard map[string]bool // tests that passed or skipped: their output is dropped
}

type toolState struct {
	ran, deferred, missing int
	hint                   string
}

type summary struct {
	w        io.Writer
	pkgs     map[string]*pkgState
	builds   map[string][]string // build output by import path
	found    map[string]map[string]bool
	tools    map[string]*toolState
	slow     map[string]bool // test -> marked slow
	slowN    int
	failed   bool
	failures []string
}

func newSummary(w io.Writer) *summary {
	return &summary{w: w, pkgs: map[string]*pkgState{}, builds: map[string][]string{},
		found: map[string]map[string]bool{}, tools: map[string]*toolState{}, slow: map[string]bool{}}
}

func (s *summary) tool(name string) *toolState {
	ts := s.tools[name]
	if ts == nil {
		ts = &toolState{}
		s.tools[name] = ts
	}
	return ts
}

func (s *summary) pkg(name string) *pkgState {
	p := s.pkgs[name]
	if p == nil {
		p = &pkgState{discard: map[string]bool{}}
		s.pkgs[name] = p
	}
	return p
}

func (s *summary) handle(e event) {
	key := e.Package + " " + e.Test
	switch e.Action {
	case "build-output":
		s.builds[e.ImportPath] = append(s.builds[e.ImportPath], e.Output)
	case "build-fail":
		s.failed = true
		fmt.Fprint(s.w, strings.Join(s.builds[e.ImportPath], ""))
		delete(s.builds, e.ImportPath)
	case "output":
		p := s.pkg(e.Package)
		p.lines = append(p.lines, line{e.Test, e.Output})
		if e.Test == "" {
			return
		}
		if _, name, ok := strings.Cut(e.Output, testenv.MarkFound); ok {
			name = strings.TrimSpace(name)
			if s.found[key] == nil {
				s.found[key] = map[string]bool{}
			}
			s.found[key][name] = true
		} else if _, rest, ok := strings.Cut(e.Output, testenv.MarkMissing); ok {
			name, hint, _ := strings.Cut(strings.TrimSpace(rest), " (")
			ts := s.tool(name)
			ts.missing++
			ts.hint = strings.TrimSuffix(hint, ")")
		} else if strings.Contains(e.Output, testenv.MarkSlow) {
			s.slow[key] = true
		}
	case "pass", "fail", "skip":
		if e.Test != "" {
			for name := range s.found[key] {
				if e.Action == "skip" {
					s.tool(name).deferred++
				} else {
					s.tool(name).ran++
				}
			}
			delete(s.found, key)
			if e.Action == "skip" && s.slow[key] {
				s.slowN++
			}
			delete(s.slow, key)
			if e.Action != "fail" {
				s.pkg(e.Package).discard[e.Test] = true
			} else {
				s.failures = append(s.failures, e.Package+" "+e.Test)
			}
			return
		}
		s.endPackage(e)
	}
}

func (s *summary) endPackage(e event) {
	p := s.pkg(e.Package)
	delete(s.pkgs, e.Package)
	switch {
	case e.Action == "fail":
		s.failed = true
		for _, l := range p.lines {
			if l.test == "" || !p.discard[l.test] {
				fmt.Fprint(s.w, l.text)
			}
		}
		if e.FailedBuild != "" {
			fmt.Fprintf(s.w, "FAIL\t%s [build failed]\n", e.Package)
		}
	case e.Action == "skip":
		// no test files
	default:
		fmt.Fprintf(s.w, "ok  \t%s\t%.3fs\n", e.Package, e.Elapsed)
	}
}

// report prints the tool lines and the slow-test count.
func (s *summary) report() {
	names := make([]string, 0, len(s.tools))
	for n := range s.tools {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		ts := s.tools[n]
		var parts []string
		if ts.ran > 0 {
			parts = append(parts, fmt.Sprintf("ran in %s", plural(ts.ran, "test")))
		}
		if ts.deferred > 0 {
			parts = append(parts, fmt.Sprintf("found, %s skipped here as slow (make test-all runs them)", plural(ts.deferred, "test")))
		}
		if ts.missing > 0 {
			parts = append(parts, fmt.Sprintf("NOT FOUND, %s skipped (%s)", plural(ts.missing, "test"), ts.hint))
		}
		fmt.Fprintf(s.w, "tool %-10s %s\n", n, strings.Join(parts, "; "))
	}
	if s.slowN > 0 {
		fmt.Fprintf(s.w, "slow tests: %s skipped by -short; make test-all runs them\n", plural(s.slowN, "test"))
	}
	if len(s.failures) > 0 {
		fmt.Fprintf(s.w, "FAILED: %s\n", strings.Join(s.failures, ", "))
	}
}

func plural(n int, what string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", what)
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func run(in io.Reader, w io.Writer) bool {
	s := newSummary(w)
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 64*1024*1024)
	for sc.Scan() {
		b := sc.Bytes()
		var e event
		if len(b) == 0 || b[0] != '{' || json.Unmarshal(b, &e) != nil {
			fmt.Fprintln(w, string(b)) // go's own messages pass through
			if len(b) > 0 {
				s.failed = true
			}
			continue
		}
		s.handle(e)
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(w, "testsum:", err)
		s.failed = true
	}
	// Packages that never ended (a crashed test binary) print what they have.
	for name, p := range s.pkgs {
		s.failed = true
		for _, l := range p.lines {
			fmt.Fprint(w, l.text)
		}
		fmt.Fprintf(w, "FAIL\t%s [no result]\n", name)
	}
	s.report()
	return !s.failed
}

func main() {
	if !run(os.Stdin, os.Stdout) {
		os.Exit(1)
	}
}
