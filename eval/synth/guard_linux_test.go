//go:build !race

package synth_test

import (
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/searchbench/searchbench/eval/synth"
)

// peakRSS runs searchbench over the set in dir (no cassette cache, every
// report written to a temporary folder) and returns its peak resident set
// in MiB.
func peakRSS(t *testing.T, bin, dir string) float64 {
	t.Helper()
	// The demo's parser configuration (the tests' own data), from an
	// empty folder: the built-in prompts the set was recorded with.
	config, err := filepath.Abs("../../testdata/demo/config/executor.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "run", "--quiet", "--no-cache", "--runs", "", "--config", config,
		"--datasets", filepath.Join(dir, synth.DatasetsDir), "--cassettes", filepath.Join(dir, synth.CassettesDir),
		"--out", filepath.Join(t.TempDir(), "out"))
	cmd.Dir = t.TempDir()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cmd, err, out)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Fatalf("no resource usage of %s on this system", cmd)
	}
	return float64(ru.Maxrss) / 1024 // KiB on Linux
}
