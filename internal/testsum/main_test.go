package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/lib/testenv"
)

func stream(t *testing.T, evs ...event) string {
	t.Helper()
	var b strings.Builder
	for _, e := range evs {
		data, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	return b.String()
}

func TestSummary(t *testing.T) {
	in := stream(t,
		event{Action: "run", Package: "p", Test: "TestXML"},
		event{Action: "output", Package: "p", Test: "TestXML", Output: "    x_test.go:9: " + testenv.MarkFound + "xmllint\n"},
		event{Action: "pass", Package: "p", Test: "TestXML"},
		event{Action: "run", Package: "p", Test: "TestBrowser"},
		event{Action: "output", Package: "p", Test: "TestBrowser", Output: "    b_test.go:3: " + testenv.MarkFound + "chromium\n"},
		event{Action: "output", Package: "p", Test: "TestBrowser", Output: "    b_test.go:4: " + testenv.MarkSlow + "\n"},
		event{Action: "skip", Package: "p", Test: "TestBrowser"},
		event{Action: "run", Package: "p", Test: "TestLint"},
		event{Action: "output", Package: "p", Test: "TestLint", Output: "    l_test.go:5: " + testenv.MarkMissing + "shellcheck (apt-get install shellcheck)\n"},
		event{Action: "skip", Package: "p", Test: "TestLint"},
		event{Action: "pass", Package: "p", Elapsed: 1.5},
		event{Action: "run", Package: "q", Test: "TestBad"},
		event{Action: "output", Package: "q", Test: "TestBad", Output: "    q_test.go:7: want 1, got 2\n"},
		event{Action: "fail", Package: "q", Test: "TestBad"},
		event{Action: "run", Package: "q", Test: "TestGood"},
		event{Action: "output", Package: "q", Test: "TestGood", Output: "noise from a passing test\n"},
		event{Action: "pass", Package: "q", Test: "TestGood"},
		event{Action: "fail", Package: "q", Elapsed: 0.2},
	)
	var out strings.Builder
	if run(strings.NewReader(in), &out) {
		t.Error("a failing test: run reported success")
	}
	got := out.String()
	for _, want := range []string{
		"ok  \tp\t1.500s\n",
		"    q_test.go:7: want 1, got 2\n",
		"tool chromium   found, 1 test skipped here as slow (make test-all runs them)\n",
		"tool shellcheck NOT FOUND, 1 test skipped (apt-get install shellcheck)\n",
		"tool xmllint    ran in 1 test\n",
		"slow tests: 1 test skipped by -short; make test-all runs them\n",
		"FAILED: q TestBad\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "noise from a passing test") {
		t.Errorf("a passing test's output was printed:\n%s", got)
	}
}

func TestBuildFailureFails(t *testing.T) {
	in := stream(t,
		event{Action: "build-output", ImportPath: "r [r.test]", Output: "r/x.go:1:1: syntax error\n"},
		event{Action: "build-fail", ImportPath: "r [r.test]"},
		event{Action: "fail", Package: "r", FailedBuild: "r [r.test]"},
	)
	var out strings.Builder
	if run(strings.NewReader(in), &out) {
		t.Error("a build failure: run reported success")
	}
	if !strings.Contains(out.String(), "syntax error") || !strings.Contains(out.String(), "FAIL\tr [build failed]") {
		t.Errorf("output:\n%s", out.String())
	}
}

func TestCrashedBinaryFails(t *testing.T) {
	in := stream(t,
		event{Action: "run", Package: "s", Test: "TestPanics"},
		event{Action: "output", Package: "s", Test: "TestPanics", Output: "panic: boom\n"},
	) + "not json from go itself\n"
	var out strings.Builder
	if run(strings.NewReader(in), &out) {
		t.Error("a package with no result: run reported success")
	}
	if !strings.Contains(out.String(), "panic: boom") || !strings.Contains(out.String(), "FAIL\ts [no result]") {
		t.Errorf("output:\n%s", out.String())
	}
}

// TestDocsCountTheSlowTests keeps docs/development.md's count of slow tests
// (the testenv.Slow call sites) true.
func TestDocsCountTheSlowTests(t *testing.T) {
	n := 0
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if strings.HasSuffix(path, "_test.go") {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			n += strings.Count(string(data), "\ttestenv.Slow(t)")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../../docs/development.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{fmt.Sprintf("the %d slow ones", n), fmt.Sprintf("slow tests: %d tests skipped by -short", n)} {
		if !strings.Contains(string(doc), want) {
			t.Errorf("docs/development.md does not say %q (%d tests call testenv.Slow)", want, n)
		}
	}
}
