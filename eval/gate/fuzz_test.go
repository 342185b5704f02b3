package gate

import (
	"strings"
	"testing"

	"github.com/searchbench/searchbench/eval/score"
)

// FuzzLoad feeds arbitrary gates files to the loader: it must never panic,
// every rejection must name the file, and every accepted threshold must be
// well formed.
func FuzzLoad(f *testing.F) {
	f.Add([]byte("thresholds:\n  routing.accuracy: {min: 0.8}\n"))
	f.Add([]byte("regressions:\n  tolerance: 0.01\n  flips: false\n  metrics:\n    cost.*: {ignore: true}\n    cost.tokens: {tolerance: 100}\n"))
	f.Add([]byte("thresholds:\n  routing.recall.*: {min: 0.5, max: 1}\n  bad name: {min: x}\n"))
	f.Add([]byte("- a\n- b\n"))
	f.Add([]byte("thresholds: [1, 2]\nregressions: {metrics: []}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := Load("fuzz.yaml", data, score.All())
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz.yaml") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		for _, th := range cfg.Thresholds {
			if th.Min == nil && th.Max == nil {
				t.Fatalf("threshold %q has no bound", th.Pattern)
			}
			if th.Min != nil && th.Max != nil && *th.Min > *th.Max {
				t.Fatalf("threshold %q: min > max accepted", th.Pattern)
			}
			if !metricRE.MatchString(th.Pattern) {
				t.Fatalf("bad pattern %q accepted", th.Pattern)
			}
		}
		if cfg.Tolerance < 0 {
			t.Fatalf("negative tolerance accepted")
		}
		for _, o := range cfg.Overrides {
			if o.Tolerance < 0 {
				t.Fatalf("negative tolerance accepted for %q", o.Pattern)
			}
		}
	})
}
