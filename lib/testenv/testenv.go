// Package testenv is how tests say what they need beyond Go: an external
// tool (xmllint, shellcheck, Chromium), a system file (a word list), or
// time (a slow test). Each call logs one marker line that the test summary
// (internal/testsum, run by make test) turns into one line per tool, so a
// check that could not run is never silent.
//
// A missing tool skips the test, or fails it when RequireToolsEnv is 1 (as
// .ci/run sets): CI must never pass a check it could not run. A slow test
// skips under go test -short, which make test uses; make test-all runs it.
package testenv

import (
	"os"
	"os/exec"
	"testing"
)

// RequireToolsEnv, when set to 1, turns a skip for a missing tool or file
// into a failure.
const RequireToolsEnv = "SEARCHBENCH_REQUIRE_TOOLS"

// Marker lines, parsed by internal/testsum. Keep the two in step.
const (
	MarkFound   = "testenv: tool found: "   // + name
	MarkMissing = "testenv: tool missing: " // + name + " (" + install hint + ")"
	MarkSlow    = "testenv: slow test: runs in make test-all (go test without -short)"
)

// Tool returns the path of the first of names found on PATH (an explicit
// path in env, when env is set and non-empty, wins), logging which; it
// skips or fails the test, naming the Debian package pkg, when none is.
// The tool is reported under names[0].
func Tool(t testing.TB, env, pkg string, names ...string) string {
	t.Helper()
	if env != "" {
		if p := os.Getenv(env); p != "" {
			t.Log(MarkFound + names[0])
			return p
		}
	}
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			t.Log(MarkFound + names[0])
			return p
		}
	}
	missing(t, names[0], "apt-get install "+pkg)
	return ""
}

// File checks that a system file the test reads exists, reporting it as
// the tool name; it skips or fails like Tool when it does not.
func File(t testing.TB, name, path, pkg string) {
	t.Helper()
	if _, err := os.Stat(path); err == nil {
		t.Log(MarkFound + name)
		return
	}
	missing(t, name, path+" is missing: apt-get install "+pkg)
}

func missing(t testing.TB, name, hint string) {
	t.Helper()
	msg := MarkMissing + name + " (" + hint + ")"
	if os.Getenv(RequireToolsEnv) == "1" {
		t.Fatalf("%s, and %s=1 requires it", msg, RequireToolsEnv)
	}
	t.Skip(msg)
}

// Slow skips the test under go test -short. make test runs -short and
// stays within minutes; make test-all, which CI also runs, runs it.
func Slow(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip(MarkSlow)
	}
}
