// Command searchbench evaluates and regression-tests a two-phase web-search
// assistant. See README.md.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"

	"github.com/searchbench/searchbench/internal/cmd/root"
	"github.com/searchbench/searchbench/internal/cmdutil"
)

// ProfileEnv names a file that receives a CPU profile of the whole
// command (go tool pprof reads it); README, Performance.
const ProfileEnv = "SEARCHBENCH_CPUPROFILE"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), root.Signals...)
	stopProfile := startProfile(os.Getenv(ProfileEnv))
	code := root.Main(ctx, os.Args[1:], cmdutil.System())
	stopProfile()
	stop()
	os.Exit(code)
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
