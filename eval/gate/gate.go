// Package gate decides whether a run may ship: absolute thresholds on its
// metrics, and regression rules against a baseline report — a metric that
// worsened beyond its tolerance, or a case that passed a scorer in the
// baseline and fails it now. Every violation is reported with what was
// wanted, what was got and why, in a stable order.
//
// When the run covers only part of the baseline (a --filter or a shard),
// both sides are re-aggregated over the cases they share before metrics are
// compared, so a subset is never judged against the whole; cases new in the
// run are listed, not failed. Reports are read as streams (see
// report.Scanner), twice when re-aggregation is needed.
package gate

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/score"
)

// Kinds of violation.
const (
	KindThreshold  = "threshold"
	KindRegression = "regression"
	KindFlip       = "flip"
	KindStale      = "stale" // a case improved: the baseline must be updated
)

// Violation is one broken rule.
type Violation struct {
	Kind string `json:"kind"`
	// Metric is the metric (threshold, regression) or the scorer (flip).
	Metric string `json:"metric"`
	// Case is the case key of a flip.
	Case        string `json:"case,omitempty"`
	Want        string `json:"want"`
	Got         string `json:"got"`
	Explanation string `json:"explanation"`
}

// Verdict is the gate's decision.
type Verdict struct {
	Violations []Violation `json:"violations"`
	// Notes say what was compared and what could not be evaluated.
	Notes []string `json:"notes,omitempty"`
	// NewCases are cases of the run the baseline does not have.
	NewCases []string `json:"new_cases,omitempty"`
	// Shared is the number of cases both reports hold; Baseline the
	// baseline's case count (0 without a baseline).
	Shared   int `json:"shared"`
	Baseline int `json:"baseline"`
	// Reaggregated is set when metrics were compared over the shared cases
	// rather than the reports' own summaries.
	Reaggregated bool `json:"reaggregated,omitempty"`
}

// Pass reports whether no rule was broken.
func (v *Verdict) Pass() bool { return len(v.Violations) == 0 }

// Options tune Evaluate.
type Options struct {
	// AllowMismatch allows a baseline of another prompt variant or output
	// mode; without it that is a *MismatchError.
	AllowMismatch bool
	// Scorers re-aggregate subsets; nil means score.All().
	Scorers []score.Scorer
}

// MismatchError says the baseline was run with another variant or mode, so
// comparing with it would judge the change by the wrong yardstick.
type MismatchError struct {
	Field, Current, Baseline string
}

func (e *MismatchError) Error() string {
	return fmt.Sprintf("the baseline was run with %s %q but this run uses %q; compare like with like, or allow it explicitly",
		e.Field, e.Baseline, e.Current)
}

// caseOutcome is what the gate keeps of a baseline case.
type caseOutcome struct {
	pass    map[string]bool // non-measure scorer → passed
	scorers []string        // in result order
}

// Evaluate judges the report current against cfg and, when baseline.Open
// is not nil, against baseline. Input problems (unreadable reports,
// variant mismatch) are returned as errors; broken rules are violations.
func Evaluate(cfg *Config, current, baseline report.Source, opt Options) (*Verdict, error) {
	if opt.Scorers == nil {
		opt.Scorers = score.All()
	}
	v := &Verdict{Violations: []Violation{}}

	// Pass 1: the baseline's per-case outcomes.
	var base map[string]*caseOutcome
	var baseMeta report.Meta
	var baseSum *report.Summary
	if baseline.Open != nil {
		base = map[string]*caseOutcome{}
		err := report.Scan(baseline, func(m report.Meta) error {
			baseMeta = m
			return nil
		}, func(r *report.CaseRecord) error {
			o := &caseOutcome{pass: map[string]bool{}}
			for _, res := range r.Scores {
				if !res.Measure {
					o.pass[res.Scorer] = res.Pass
					o.scorers = append(o.scorers, res.Scorer)
				}
			}
			base[r.Key] = o
			return nil
		}, func(s *report.Summary) { baseSum = s })
		if err != nil {
			return nil, err
		}
		v.Baseline = len(base)
	}

	// Pass 2: the current run, checking flips as cases stream by.
	var curMeta report.Meta
	var curSum *report.Summary
	curShared := report.NewAggregate(opt.Scorers)
	inCurrent := map[string]bool{}
	err := report.Scan(current, func(m report.Meta) error {
		curMeta = m
		if base == nil || opt.AllowMismatch {
			return nil
		}
		if m.Variant != baseMeta.Variant {
			return &MismatchError{"variant", m.Variant, baseMeta.Variant}
		}
		if m.Mode != baseMeta.Mode {
			return &MismatchError{"mode", m.Mode, baseMeta.Mode}
		}
		return nil
	}, func(r *report.CaseRecord) error {
		inCurrent[r.Key] = true
		if base == nil {
			return nil
		}
		b, ok := base[r.Key]
		if !ok {
			v.NewCases = append(v.NewCases, r.Key)
			return nil
		}
		v.Shared++
		curShared.Add(r)
		if cfg.Flips {
			v.Violations = append(v.Violations, flips(r, b)...)
		}
		if cfg.Improvements {
			v.Violations = append(v.Violations, improvements(r, b)...)
		}
		return nil
	}, func(s *report.Summary) { curSum = s })
	if err != nil {
		return nil, err
	}
	flipViolations := v.Violations
	v.Violations = thresholds(cfg, curSum, &v.Notes)

	if base == nil {
		return v, nil
	}
	if opt.AllowMismatch && (curMeta.Variant != baseMeta.Variant || curMeta.Mode != baseMeta.Mode) {
		v.Notes = append(v.Notes, fmt.Sprintf("baseline variant %s/mode %s differs from this run's %s/%s (allowed)",
			baseMeta.Variant, baseMeta.Mode, curMeta.Variant, curMeta.Mode))
	}
	if !slices.Equal(curMeta.Datasets, baseMeta.Datasets) {
		v.Notes = append(v.Notes, "the baseline was run on different dataset files (names, case counts or sha256 differ); cases are matched by dataset/id")
	}

	// Metrics: the reports' own summaries when they cover the same cases,
	// otherwise both re-aggregated over the shared cases.
	baseM, curM := baseSum, curSum
	if v.Shared != len(base) || v.Shared != len(inCurrent) {
		v.Reaggregated = true
		baseShared := report.NewAggregate(opt.Scorers)
		err := report.Scan(baseline, nil, func(r *report.CaseRecord) error {
			if inCurrent[r.Key] {
				baseShared.Add(r)
			}
			return nil
		}, nil)
		if err != nil {
			return nil, err
		}
		bs, cs := baseShared.Summary(), curShared.Summary()
		baseM, curM = &bs, &cs
		v.Notes = append(v.Notes, fmt.Sprintf("this run covers %d of the baseline's %d cases%s; metrics are compared with both re-aggregated over the %d shared cases",
			v.Shared, len(base), selection(curMeta), v.Shared))
		if missing := len(base) - v.Shared; missing > 0 {
			v.Notes = append(v.Notes, fmt.Sprintf("%d baseline case(s) are not in this run", missing))
		}
		if len(v.NewCases) > 0 {
			v.Notes = append(v.Notes, fmt.Sprintf("%d case(s) are new in this run (not in the baseline): listed, not judged against it", len(v.NewCases)))
		}
	}
	v.Violations = append(v.Violations, regressions(cfg, baseM, curM, &v.Notes)...)
	v.Violations = append(v.Violations, flipViolations...)
	return v, nil
}

func selection(m report.Meta) string {
	var parts []string
	if len(m.Filter) > 0 {
		parts = append(parts, "filter "+strings.Join(m.Filter, ","))
	}
	if m.Shard != "" {
		parts = append(parts, "shard "+m.Shard)
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// IsMismatch reports whether err is a variant/mode mismatch.
func IsMismatch(err error) bool {
	var m *MismatchError
	return errors.As(err, &m)
}

// thresholds checks every threshold against the current summary.
func thresholds(cfg *Config, s *report.Summary, notes *[]string) []Violation {
	out := []Violation{}
	for _, t := range cfg.Thresholds {
		matched := false
		for _, m := range s.Metrics {
			if !match(t.Pattern, m.Name) {
				continue
			}
			matched = true
			where := fmt.Sprintf("%s:%d", cfg.File, t.Line)
			if t.Min != nil && m.Value < *t.Min-epsilon {
				out = append(out, Violation{Kind: KindThreshold, Metric: m.Name,
					Want: "≥ " + report.FormatNumber(m.Unit, *t.Min), Got: describe(m),
					Explanation: fmt.Sprintf("%s is below the minimum set at %s", m.Name, where)})
			}
			if t.Max != nil && m.Value > *t.Max+epsilon {
				out = append(out, Violation{Kind: KindThreshold, Metric: m.Name,
					Want: "≤ " + report.FormatNumber(m.Unit, *t.Max), Got: describe(m),
					Explanation: fmt.Sprintf("%s is above the maximum set at %s", m.Name, where)})
			}
		}
		if !matched {
			*notes = append(*notes, fmt.Sprintf("threshold %s (%s:%d) not evaluated: no such metric in this run", t.Pattern, cfg.File, t.Line))
		}
	}
	return out
}

// epsilon absorbs the rounding of reported values.
const epsilon = 1e-9

// describe formats a metric's value with its counts.
func describe(m score.Metric) string {
	s := report.FormatValue(m)
	if n := report.FormatN(m); n != "" {
		s += " (" + n + ")"
	}
	return s
}

// regressions compares every directed metric of the current run with the
// baseline's.
func regressions(cfg *Config, base, cur *report.Summary, notes *[]string) []Violation {
	baseBy := map[string]score.Metric{}
	for _, m := range base.Metrics {
		baseBy[m.Name] = m
	}
	var out []Violation
	var gone []string
	seen := map[string]bool{}
	for _, m := range cur.Metrics {
		seen[m.Name] = true
		b, ok := baseBy[m.Name]
		if !ok || m.Better == "" {
			continue
		}
		tol, ignore, source := cfg.rule(m.Name)
		if ignore {
			continue
		}
		worse := b.Value - m.Value
		if m.Better == score.LowerIsBetter {
			worse = -worse
		}
		if worse <= tol+epsilon {
			continue
		}
		direction := "fell"
		if m.Better == score.LowerIsBetter {
			direction = "rose"
		}
		expl := fmt.Sprintf("%s %s from %s to %s, by %s; tolerance %s (%s)", m.Name, direction, describe(b), describe(m),
			amount(m.Unit, worse), amount(m.Unit, tol), source)
		if m.Paired {
			expl += "; the flipped cases are listed below"
		}
		want := "≥ " + report.FormatNumber(m.Unit, b.Value-tol)
		if m.Better == score.LowerIsBetter {
			want = "≤ " + report.FormatNumber(m.Unit, b.Value+tol)
		}
		out = append(out, Violation{Kind: KindRegression, Metric: m.Name, Want: want, Got: describe(m), Explanation: expl})
	}
	for _, m := range base.Metrics {
		if !seen[m.Name] {
			gone = append(gone, m.Name)
		}
	}
	if len(gone) > 0 {
		*notes = append(*notes, "metrics in the baseline but not in this run (not compared): "+strings.Join(gone, ", "))
	}
	return out
}

// amount formats a difference: rates in percentage points.
func amount(unit string, d float64) string {
	if unit == score.UnitRate {
		return fmt.Sprintf("%.1f points", 100*math.Abs(d))
	}
	return report.FormatNumber(unit, math.Abs(d))
}

// improvements returns a violation for each non-measure scorer the
// baseline case b failed that r now passes.
func improvements(r *report.CaseRecord, b *caseOutcome) []Violation {
	if r.Error != "" {
		return nil
	}
	var out []Violation
	for _, res := range r.Scores {
		passed, known := b.pass[res.Scorer]
		if res.Measure || !res.Pass || !known || passed {
			continue
		}
		out = append(out, Violation{Kind: KindStale, Metric: res.Scorer, Case: r.Key, Want: "fail (as in the baseline)", Got: "pass",
			Explanation: "failed in the baseline and passes now: update the baseline on purpose (make baseline) so later changes are judged from here"})
	}
	return out
}

// flips returns a violation for each scorer r fails (or lacks) that the
// baseline case b passed.
func flips(r *report.CaseRecord, b *caseOutcome) []Violation {
	var out []Violation
	results := map[string]*score.Result{}
	for i := range r.Scores {
		results[r.Scores[i].Scorer] = &r.Scores[i]
	}
	for _, name := range b.scorers {
		if !b.pass[name] {
			continue
		}
		res := results[name]
		switch {
		case res != nil && res.Pass && r.Error == "":
			continue
		case res == nil && r.Error == "":
			out = append(out, Violation{Kind: KindFlip, Metric: name, Case: r.Key, Want: "pass", Got: "not scored",
				Explanation: fmt.Sprintf("the %s scorer passed this case in the baseline but did not apply to it now", name)})
			continue
		}
		var failing []string
		if r.Error != "" {
			failing = append(failing, "the case did not run: "+r.Error)
		}
		if res != nil {
			for _, c := range res.Checks {
				if !c.Pass {
					s := fmt.Sprintf("%s: expected %s, got %s", c.Name, c.Expected, c.Got)
					if c.Reason != "" {
						s += " (" + c.Reason + ")"
					}
					failing = append(failing, s)
				}
			}
		}
		got := "fail"
		if r.Error != "" {
			got = "error"
		}
		out = append(out, Violation{Kind: KindFlip, Metric: name, Case: r.Key, Want: "pass", Got: got,
			Explanation: "passed in the baseline; now " + strings.Join(failing, "; ")})
	}
	return out
}
