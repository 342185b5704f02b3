//go:build !unix

package synth

import "time"

// cpuTime is not measured here: CPU ratios read 0.
func cpuTime() time.Duration { return 0 }
