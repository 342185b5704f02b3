//go:build !race && !linux

package synth_test

import "testing"

// peakRSS needs getrusage's peak resident set in known units: Linux's
// KiB. Elsewhere the whole-process half of TestHeapIsFlat does not run.
func peakRSS(t *testing.T, _, _ string) float64 {
	t.Skip("the peak RSS of a whole process is read on Linux only (getrusage, KiB)")
	return 0
}
