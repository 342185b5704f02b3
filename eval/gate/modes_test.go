package gate

import (
	"strings"
	"testing"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/report/reporttest"
	"github.com/searchbench/searchbench/eval/score"
)

// A threshold with modes: applies to runs of those output modes only; a
// run of another mode says it left it unchecked.
func TestThresholdModes(t *testing.T) {
	cfg := mustLoad(t, "thresholds:\n  routing.accuracy: {min: 0.99, modes: [model]}\n")
	for _, tt := range []struct {
		mode string
		pass bool
		note string
	}{
		{"model", false, ""},
		{"structured", true, "threshold routing.accuracy (gates.yaml:2) not evaluated in mode structured: it applies to mode model"},
	} {
		meta, recs := fixtureRun()
		meta.Mode = tt.mode
		v, err := Evaluate(cfg, report.Bytes("run.json", reporttest.JSON(meta, recs)), report.Source{}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if v.Pass() != tt.pass || (tt.note != "" && !strings.Contains(strings.Join(v.Notes, "\n"), tt.note)) {
			t.Errorf("mode %s: pass %v (want %v), violations %v, notes %q", tt.mode, v.Pass(), tt.pass, v.Violations, v.Notes)
		}
	}
	for _, bad := range []struct{ yaml, want string }{
		{"thresholds:\n  routing.accuracy: {min: 0.5, modes: [modle]}\n", `gates.yaml:2:40: threshold "routing.accuracy": unknown mode "modle" (modes: model, structured)`},
		{"thresholds:\n  routing.accuracy: {min: 0.5, modes: model}\n", `gates.yaml:2:39: threshold "routing.accuracy": modes must be a list of output modes (model, structured)`},
	} {
		_, err := Load("gates.yaml", []byte(bad.yaml), score.All())
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("Load(%q) = %v, want %q", bad.yaml, err, bad.want)
		}
	}
}

// fixtureRun is a small routing run: four cases, three routed right.
func fixtureRun() (report.Meta, []*report.CaseRecord) {
	var recs []*report.CaseRecord
	for i, right := range []bool{true, true, false, true} {
		recs = append(recs, reporttest.RoutingSamples(i, string(rune('a'+i)), right))
	}
	return reporttest.Meta("seed"), recs
}

// Weakenings names every way a change's gates file is weaker than its
// base's, and nothing when it is as strict or stricter.
func TestWeakenings(t *testing.T) {
	base := `thresholds:
  routing.accuracy: {min: 0.7}
  schema.final: {min: 1.0}
  cost.latency.p95: {max: 5000}
  flow.output: {min: 1.0}
regressions:
  tolerance: 0
  alpha: 0.05
  flips: true
  metrics:
    cost.usd: {tolerance: 0.002}
`
	for _, tt := range []struct {
		name, cur string
		want      []string
	}{
		{"unchanged", base, nil},
		{"stricter", strings.ReplaceAll(base, "{min: 0.7}", "{min: 0.8}"), nil},
		{"flips off", strings.ReplaceAll(base, "flips: true", "flips: false"), []string{"flips off"}},
		{"a minimum lowered", strings.ReplaceAll(base, "{min: 0.7}", "{min: 0.6}"), []string{"threshold routing.accuracy: min 0.7 → 0.6"}},
		{"a maximum raised", strings.ReplaceAll(base, "{max: 5000}", "{max: 9000}"), []string{"threshold cost.latency.p95: max 5000 → 9000"}},
		{"a threshold removed", strings.ReplaceAll(base, "  schema.final: {min: 1.0}\n", ""), []string{"threshold schema.final removed"}},
		{"allowed to lack data", strings.ReplaceAll(base, "schema.final: {min: 1.0}", "schema.final: {min: 1.0, no_data: pass}"), []string{"threshold schema.final: no_data pass"}},
		{"limited to one mode", strings.ReplaceAll(base, "flow.output: {min: 1.0}", "flow.output: {min: 1.0, modes: [model]}"), []string{"threshold flow.output: not in mode structured"}},
		{"alpha raised", strings.ReplaceAll(base, "alpha: 0.05", "alpha: 0.2"), []string{"alpha 0.05 → 0.2"}},
		{"a tolerance raised", strings.ReplaceAll(base, "{tolerance: 0.002}", "{tolerance: 0.01}"), []string{"tolerance raised: cost.usd 0.002 → 0.01"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := Weakenings(mustLoad(t, base), mustLoad(t, tt.cur), score.All())
			if strings.Join(got, "; ") != strings.Join(tt.want, "; ") {
				t.Errorf("Weakenings = %q, want %q", got, tt.want)
			}
		})
	}
}
