package gate

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/searchbench/searchbench/eval/grade"
	"github.com/searchbench/searchbench/eval/report"
)

// KindCalibration is the violation of a judge-based metric whose judge is
// not calibrated against people, or below the κ the gates file asks.
const KindCalibration = "calibration"

// Judges is the judges section of a gates file: a metric graded partly by
// the correctness judge rests on the judge's agreement with human labels,
// measured by `searchbench grade --calibrate --out FILE`. For each metric
// in MinKappa, the calibration file must exist, must have measured this
// judge (the same judge-correctness.md, the same kind of judge as the
// run's verdicts came from), and its rules + judge κ on Split must reach
// the minimum.
type Judges struct {
	Calibration string // the calibration report; internal/cmd/gate resolves it against the gates file's folder
	Split       string // tuning or heldout
	MinKappa    []KappaRule
	Line        int
}

// KappaRule is one metric's minimum κ.
type KappaRule struct {
	Metric string
	Min    float64
	Line   int
}

// DefaultCalibration is the calibration report the gates file names by
// default.
const DefaultCalibration = "reports/calibration.json"

func (l *loader) judges(n *yaml.Node) {
	j := &Judges{Calibration: DefaultCalibration, Split: "heldout", Line: n.Line}
	for _, kv := range l.mapping(n, "judges", "calibration", "split", "min_kappa") {
		switch kv.key.Value {
		case "calibration":
			if kv.val.Kind != yaml.ScalarNode || strings.TrimSpace(kv.val.Value) == "" {
				l.addf(kv.val, "judges.calibration must be a file name")
				continue
			}
			j.Calibration = kv.val.Value
		case "split":
			if kv.val.Value != "tuning" && kv.val.Value != "heldout" {
				l.addf(kv.val, "judges.split must be tuning or heldout, got %q", kv.val.Value)
				continue
			}
			j.Split = kv.val.Value
		case "min_kappa":
			for _, m := range l.mapping(kv.val, "judges.min_kappa") {
				if !l.metricName(m.key) {
					continue
				}
				if strings.HasSuffix(m.key.Value, ".*") {
					l.addf(m.key, "judges.min_kappa: %q: name metrics one by one, not a pattern", m.key.Value)
					continue
				}
				v, ok := l.number(m.val, "min_kappa of "+m.key.Value)
				switch {
				case !ok:
				case v <= -1 || v > 1:
					l.addf(m.val, "min_kappa of %s: %g is outside κ's range (-1, 1]", m.key.Value, v)
				default:
					j.MinKappa = append(j.MinKappa, KappaRule{Metric: m.key.Value, Min: v, Line: m.key.Line})
				}
			}
		}
	}
	if len(j.MinKappa) == 0 {
		l.addf(n, "judges: set min_kappa for at least one metric (a judges section that asks nothing cannot fail)")
		return
	}
	l.cfg.Judges = j
}

// judges checks the calibration behind each judge-based metric the run
// reports.
func (e *evaluation) judges(meta report.Meta, s *report.Summary) {
	j := e.cfg.Judges
	if j == nil || s == nil {
		return
	}
	have := map[string]bool{}
	for _, m := range s.Metrics {
		have[m.Name] = true
	}
	var rules []KappaRule
	for _, r := range j.MinKappa {
		if have[r.Metric] {
			rules = append(rules, r)
		} else {
			e.note("judge calibration of %s (%s:%d) not checked: no data in this run", r.Metric, e.cfg.File, r.Line)
		}
	}
	if len(rules) == 0 {
		return
	}
	read := e.readCalibration
	if read == nil {
		read = grade.ReadCalibration
	}
	measure := fmt.Sprintf("measure it with: searchbench grade --calibrate --judge %s --out %s", judgeFlag(meta), j.Calibration)
	fail := func(r KappaRule, got, why string) {
		e.add(Violation{Kind: KindCalibration, Metric: r.Metric, Want: "κ ≥ " + strconv.FormatFloat(r.Min, 'g', -1, 64), Got: got,
			Explanation: fmt.Sprintf("%s is graded partly by the correctness judge, which the gate (%s:%d) holds to a κ against human labels: %s", r.Metric, e.cfg.File, r.Line, why)})
	}
	rep, err := read(j.Calibration)
	if err != nil {
		for _, r := range rules {
			fail(r, "no calibration", fmt.Sprintf("%v; %s", err, measure))
		}
		return
	}
	var why string
	switch {
	case rep.Judge == "":
		why = fmt.Sprintf("%s measured the rules alone, not the judge; %s", j.Calibration, measure)
	case meta.JudgeHash != "" && rep.JudgeHash != meta.JudgeHash:
		why = fmt.Sprintf("%s measured another judge-correctness.md (hash %s; this run's is %s); %s", j.Calibration, rep.JudgeHash, meta.JudgeHash, measure)
	case judgeKind(rep.Judge) != judgeKind(judgeFlag(meta)):
		why = fmt.Sprintf("%s measured the %s judge, but this run's judge verdicts were recorded from %s; %s", j.Calibration, judgeName(rep.Judge), judgeName(judgeFlag(meta)), measure)
	}
	if why != "" {
		for _, r := range rules {
			fail(r, "no calibration of this judge", why)
		}
		return
	}
	a, ok := rep.Find(j.Split, grade.GraderRulesJudge)
	for _, r := range rules {
		switch {
		case !ok:
			fail(r, "no calibration", fmt.Sprintf("%s has no %q figures for the %s part; %s", j.Calibration, grade.GraderRulesJudge, j.Split, measure))
		case a.NoKappa || math.IsNaN(a.Kappa):
			fail(r, "κ undefined", fmt.Sprintf("κ is undefined on the %s part of %s", j.Split, j.Calibration))
		case a.Kappa < r.Min:
			fail(r, fmt.Sprintf("κ %.3f [%.3f, %.3f]", a.Kappa, a.KappaLo, a.KappaHi),
				fmt.Sprintf("the rules + judge agree with people at κ %.3f on the %s part of %s (%d answers), below the minimum", a.Kappa, j.Split, j.Calibration, a.Items))
		}
	}
}

// judgeFlag is the grade --judge value that measures the judge a run's
// verdicts came from: sim for simulator recordings, model otherwise.
func judgeFlag(meta report.Meta) string {
	if meta.Backend == "sim" {
		return "sim"
	}
	return "model"
}

func judgeKind(judge string) string {
	if judge == "sim" {
		return "sim"
	}
	return "model"
}

func judgeName(judge string) string {
	if judgeKind(judge) == "sim" {
		return "simulator's stand-in"
	}
	if name, ok := strings.CutPrefix(judge, "model "); ok {
		return "model (" + name + ")"
	}
	return "model"
}
