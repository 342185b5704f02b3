package gate

import (
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/eval/grade"
	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/report/reporttest"
	"github.com/searchbench/searchbench/eval/score"
)

const judgesGates = `judges:
  calibration: cal.json
  min_kappa:
    correctness.phase2: 0.6
`

// judgedRun is a run reporting correctness.phase2, replayed from sim
// cassettes with the judge prompt of hash h.
func judgedRun(h string) []byte {
	meta, recs := fixture()
	meta.Backend, meta.JudgeHash = "sim", h
	sum := reporttest.Summary(recs)
	sum.Metrics = append(sum.Metrics, score.RateMetric(score.MetricCorrectnessPhase2, 9, 10, true))
	var b strings.Builder
	if err := report.Write(report.NewJSON(&b), &report.Report{Meta: meta, Cases: recs, Summary: sum}); err != nil {
		panic(err)
	}
	return []byte(b.String())
}

func calibration(judge, hash string, kappa float64) *grade.CalibrationReport {
	return &grade.CalibrationReport{Judge: judge, JudgeHash: hash, Splits: []grade.SplitMeasured{{Split: "heldout", Items: 100,
		Graders: []grade.Agreement{{Grader: grade.GraderRulesJudge, Items: 100, Decided: 100, Kappa: kappa, KappaLo: kappa - 0.05, KappaHi: kappa + 0.05}}}}}
}

// TestJudgeCalibrationGate: a judge-based metric needs a calibration of
// the same judge with κ at or above the minimum; missing, stale or low
// calibration is a violation that says what to run.
func TestJudgeCalibrationGate(t *testing.T) {
	tests := []struct {
		name string
		rep  *grade.CalibrationReport
		err  error
		want string // "" for no violation
	}{
		{"calibrated", calibration("sim", "h1", 0.65), nil, ""},
		{"exactly the minimum", calibration("sim", "h1", 0.6), nil, ""},
		{"below", calibration("sim", "h1", 0.55), nil, "agree with people at κ 0.550 on the heldout part of cal.json"},
		{"missing", nil, fs.ErrNotExist, "measure it with: searchbench grade --calibrate --judge sim --out cal.json"},
		{"another judge prompt", calibration("sim", "h0", 0.9), nil, "measured another judge-correctness.md (hash h0; this run's is h1)"},
		{"a model, not the stand-in", calibration("model gpt-oss-120b", "h1", 0.9), nil, "measured the model (gpt-oss-120b) judge, but this run's judge verdicts were recorded from simulator's stand-in"},
		{"rules only", calibration("", "h1", 0.9), nil, "measured the rules alone"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			read := func(path string) (*grade.CalibrationReport, error) {
				if path != "cal.json" {
					t.Errorf("read %q, want cal.json", path)
				}
				return tt.rep, tt.err
			}
			v, err := Evaluate(mustLoad(t, judgesGates), report.Bytes("current.json", judgedRun("h1")), report.Source{}, Options{ReadCalibration: read})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, x := range v.Violations {
				if x.Kind == KindCalibration {
					got = append(got, x.Explanation)
				}
			}
			switch {
			case tt.want == "" && (len(got) > 0 || !v.Pass()):
				t.Errorf("violations %v", v.Violations)
			case tt.want != "" && (len(got) != 1 || !strings.Contains(got[0], tt.want) || v.Pass()):
				t.Errorf("calibration violations %q, want one containing %q", got, tt.want)
			}
		})
	}
}

func TestJudgesConfigErrors(t *testing.T) {
	data := `judges:
  split: middle
  min_kappa:
    correctness.phase3: 0.6
    correctness.phase2: 2
    verification.*: 0.5
  colour: red
`
	_, err := Load("gates.yaml", []byte(data), score.All())
	var ce *ConfigError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v", err)
	}
	for _, want := range []string{
		`gates.yaml:2:10: judges.split must be tuning or heldout, got "middle"`,
		`gates.yaml:4:5: unknown metric "correctness.phase3"`,
		`gates.yaml:5:25: min_kappa of correctness.phase2: 2 is outside κ's range (-1, 1]`,
		`gates.yaml:6:5: judges.min_kappa: "verification.*": name metrics one by one`,
		`gates.yaml:7:3: judges: unknown key "colour"`,
		`gates.yaml:2:3: judges: set min_kappa for at least one metric`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}
