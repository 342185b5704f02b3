package grade

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/searchbench/searchbench/lib/fsutil"
)

// Graders named in a calibration report.
const (
	GraderRules      = "rules"
	GraderRulesJudge = "rules + judge"
	GraderNaive      = "naive (gold contained)"
	// GraderNaiveSame is the naive grader on the items the rules decide
	// (its other verdicts left out): the rules and the baseline on the
	// same items.
	GraderNaiveSame = "naive, on the rules' items"
)

// Splits of the calibration set, and their files under the calibration
// folder.
var Splits = []struct{ Name, File string }{
	{"tuning", "nq301-tuning.jsonl"},
	{"heldout", "nq301-heldout.jsonl"},
}

// DefaultCalibrationDir is where the calibration set lives.
const DefaultCalibrationDir = "datasets/calibration"

// CalibrationReport is what `searchbench grade --calibrate --out FILE`
// writes, and what the gate reads to hold a judge-based metric to a
// minimum κ.
type CalibrationReport struct {
	// Source names the calibration set.
	Source string `json:"source"`
	// Variant is the prompt variant whose judge was measured, JudgeHash
	// the hash of its judge-correctness.md: a calibration of another
	// judge prompt does not vouch for this one.
	Variant   string `json:"variant"`
	JudgeHash string `json:"judge_hash"`
	// Judge says which judge decided what the rules deferred: "sim" (the
	// simulator's stand-in, not a model), "model <name>", or "" (rules
	// only).
	Judge  string          `json:"judge"`
	Splits []SplitMeasured `json:"splits"`
}

// SplitMeasured is one split's agreement, grader by grader.
type SplitMeasured struct {
	Split   string      `json:"split"`
	Items   int         `json:"items"`
	Graders []Agreement `json:"graders"`
}

// Find returns the agreement of grader on split.
func (r *CalibrationReport) Find(split, grader string) (Agreement, bool) {
	for _, s := range r.Splits {
		if s.Split != split {
			continue
		}
		for _, a := range s.Graders {
			if a.Grader == grader {
				return a, true
			}
		}
	}
	return Agreement{}, false
}

// ReadCalibration reads a calibration report.
func ReadCalibration(path string) (*CalibrationReport, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r CalibrationReport
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("%s: not a calibration report: %v", path, err)
	}
	return &r, nil
}

// Write writes the report atomically, indented, keys in a fixed order.
func (r *CalibrationReport) Write(path string) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return fsutil.WriteFileAtomic(path, buf.Bytes(), 0o644)
}

// CalibrateSplit measures the rules, the rules with j (when not nil), the
// naive grader, and the naive grader on the items the rules decide, on
// items. A judge error stops the measurement: a verdict that does not
// parse is never counted.
func CalibrateSplit(ctx context.Context, split string, items []Item, j *Judge) (SplitMeasured, error) {
	rules := make([]Verdict, len(items))
	naive := make([]Verdict, len(items))
	for i, it := range items {
		ans := Answer{Text: it.Answer}
		rules[i] = Rules(it.Question, it.Gold, ans)
		naive[i] = Naive(it.Gold, ans)
	}
	m := SplitMeasured{Split: split, Items: len(items), Graders: []Agreement{Measure(GraderRules, items, rules)}}
	if j != nil {
		both := make([]Verdict, len(items))
		for i, it := range items {
			both[i] = rules[i]
			if rules[i].Decided() {
				continue
			}
			v, err := j.Decide(ctx, it.Question, it.Gold, Answer{Text: it.Answer})
			if err != nil {
				return m, &JudgeError{What: fmt.Sprintf("%s item %s", split, it.ID), Err: err}
			}
			both[i] = v
		}
		m.Graders = append(m.Graders, Measure(GraderRulesJudge, items, both))
	}
	same := make([]Verdict, len(items))
	for i := range items {
		if rules[i].Decided() {
			same[i] = naive[i]
		}
	}
	m.Graders = append(m.Graders, Measure(GraderNaive, items, naive), Measure(GraderNaiveSame, items, same))
	return m, nil
}
