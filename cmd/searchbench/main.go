// Command searchbench evaluates and regression-tests a two-phase web-search
// assistant. See README.md.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"runtime/pprof"

	"github.com/searchbench/searchbench/internal/cmd/root"
	"github.com/searchbench/searchbench/internal/cmd/run"
	"github.com/searchbench/searchbench/internal/cmdutil"
)

// ProfileEnv names a file that receives a CPU profile of the whole
// command (go tool pprof reads it); README, Performance.
const ProfileEnv = "SEARCHBENCH_CPUPROFILE"

func main() {
	tuneGC(os.Getenv)
	if os.Getenv(run.HeapProfileEnv) != "" {
		// Sample every 4 KiB allocated, not every 512 KiB: the
		// profile is of a run's small per-case state.
		runtime.MemProfileRate = 4096
	}
	ctx, stop := signal.NotifyContext(context.Background(), root.Signals...)
	stopProfile := startProfile(os.Getenv(ProfileEnv))
	code := root.Main(ctx, os.Args[1:], cmdutil.System())
	stopProfile()
	stop()
	os.Exit(code)
}

// gcPercent and memoryLimit are the collector's settings unless GOGC or
// GOMEMLIMIT say otherwise. searchbench allocates much and keeps little: a
// run's live heap stays near 10 MB however many cases it replays, and at
// Go's default (100) the collector took a fifth of a run's CPU. At 400 it
// runs a quarter as often (10,000 synthetic cases: 6.5 s → 5.1 s of CPU,
// peak RSS 34 → 56 MiB, still flat in the number of cases). The soft limit
// makes the collector run more often again as the heap nears 1 GiB, should
// a live heap ever grow large (a big dataset file decoded whole), instead
// of letting it grow to five times its live size.
const (
	gcPercent   = 400
	memoryLimit = 1 << 30
)

func tuneGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
}

func startProfile(path string) func() {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "searchbench: %s: %v\n", ProfileEnv, err)
		os.Exit(cmdutil.ExitUsage)
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintf(os.Stderr, "searchbench: %s: %v\n", ProfileEnv, err)
		}
	}
}
