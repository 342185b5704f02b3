// Package score judges what the assistant did on one case — from the case's
// labels and the turn traces alone — and aggregates the judgements into
// metrics and tables.
//
// A Scorer looks at one case and returns a Result made of named Checks. Each
// check counts toward one metric (its Metric name): a case's outcome for a
// metric is the AND of its checks for that metric, and the metric is the share
// of applicable cases whose outcome is a pass. Because outcomes are per case,
// two runs can be compared pair-wise (exact McNemar test) and a case that
// flipped from pass to fail can be named.
//
// Scorer-specific aggregates (a confusion matrix, per-label F1, token means)
// are computed by the scorer's Aggregator from the Results alone, so a report
// can be re-aggregated without re-running: merging shards, or restricting a
// baseline to the cases of the current run.
package score

import (
	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/eval/grade"
	"github.com/searchbench/searchbench/orchestrator/answer"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// Input is what a scorer sees for one case.
type Input struct {
	Case *dataset.Case
	// Session is the orchestrator's trace for routing and flows cases, and a
	// single classification turn for consent cases. Nil for parser cases.
	Session *trace.Session
	// Parse is the tool-call extraction of a parser case. Nil otherwise.
	Parse *ParseOutcome

	// Judged holds the judge's verdicts on the graded answers the rules
	// could not decide (see GradedAnswers), by Graded.Key; the run asks the
	// judge (recorded and replayed) before scoring. Nil: no judge verdicts
	// (a --rules-only run, or nothing deferred).
	Judged map[string]grade.Verdict
	// JudgeStandIn says the judge's verdicts come from the simulator's
	// stand-in, not a model.
	JudgeStandIn bool

	// phase2 memoizes CheckPhase2: several scorers and the report's turn
	// summary read the same messages of a case.
	phase2 map[string]*answer.Phase2Report
	// verdicts memoizes Verdict.
	verdicts map[string]grade.Verdict
	// rules memoizes RulesVerdict.
	rules map[string]grade.Verdict
}

// CheckPhase2 returns answer.CheckPhase2(msg), parsing each distinct
// message once per case. The report is shared: callers must not modify it.
// An Input is used by one goroutine at a time.
func (in *Input) CheckPhase2(msg string) answer.Phase2Report {
	if rep, ok := in.phase2[msg]; ok {
		return *rep
	}
	rep := answer.CheckPhase2(msg)
	if in.phase2 == nil {
		in.phase2 = make(map[string]*answer.Phase2Report, 2)
	}
	in.phase2[msg] = &rep
	return rep
}

// ParseOutcome is what the configured executor chain extracted from a parser
// case's raw output.
type ParseOutcome struct {
	// Primary and Fallback are the configured strategies (config/executor.yaml).
	Primary, Fallback string
	Strategy          string // the strategy that produced the calls ("" when none did)
	Field             string // the field the calls were read from: reasoning or content
	Calls             []dataset.Call
	Findings          []string // validation findings: unknown tool, missing argument …
}

// Scorer judges one aspect of a case. Adding a scorer is one new file.
type Scorer interface {
	// Name is the scorer's stable name, the prefix of its metrics.
	Name() string
	// Declare says what the scorer may apply to and report (see
	// Declaration); it is the same for every call.
	Declare() Declaration
	// Score judges in. It returns false when the scorer does not apply to
	// the case (a consent scorer on a routing case).
	Score(in *Input) (Result, bool)
	// NewAggregator returns an empty aggregator for this scorer's results.
	NewAggregator() Aggregator
}

// Aggregator accumulates one scorer's results as cases finish, so a run
// never holds every case in memory.
type Aggregator interface {
	Add(c CaseInfo, r Result)
	// Summary returns the metrics and tables. It may be called once, after
	// the last Add.
	Summary() Summary
}

// CaseInfo identifies a case in aggregates and reports.
type CaseInfo struct {
	Key     string   `json:"key"` // dataset/id
	Dataset string   `json:"dataset"`
	ID      string   `json:"id"`
	Kind    string   `json:"kind"`
	Label   string   `json:"label,omitempty"`
	Tags    []string `json:"tags,omitempty"`
	// Hash identifies the case's content (see dataset.Case.Hash), so the
	// gate tells an edited case from an unchanged one under the same id.
	Hash string `json:"hash,omitempty"`
}

// InfoOf returns the CaseInfo of c.
func InfoOf(c *dataset.Case) CaseInfo {
	return CaseInfo{Key: c.Key(), Dataset: c.Dataset, ID: c.ID, Kind: c.Kind, Label: c.Label, Tags: c.Tags, Hash: c.Hash()}
}

// Result is one scorer's judgement of one case.
type Result struct {
	Scorer string `json:"scorer"`
	// Pass is true when every check passed. Measures (see Measure) always pass.
	Pass bool `json:"pass"`
	// Measure marks a scorer that only measures (cost): it never fails a
	// case and takes no part in regression gates on cases.
	Measure bool    `json:"measure,omitempty"`
	Checks  []Check `json:"checks,omitempty"`
	// Values are per-case numbers for aggregates (tokens, latency, counts).
	// encoding/json writes map keys sorted, so reports stay deterministic.
	Values map[string]float64 `json:"values,omitempty"`
	// Attrs are per-case strings for aggregate tables (the consent reply and
	// the rule that classified it), so tables too come from Results alone.
	Attrs map[string]string `json:"attrs,omitempty"`
}

// Check is one thing a scorer verified.
type Check struct {
	// Name says what was checked and where, e.g. "route" or "turn 2: phase".
	Name string `json:"name"`
	// Metric is the metric this check counts toward, e.g. "routing.accuracy".
	Metric   string `json:"metric"`
	Pass     bool   `json:"pass"`
	Expected string `json:"expected,omitempty"`
	Got      string `json:"got,omitempty"`
	// Reason explains a failure in a sentence.
	Reason string `json:"reason,omitempty"`
	// Diff shows a byte mismatch: the first differing offset and the lines
	// around it with invisible characters made visible.
	Diff string `json:"diff,omitempty"`
}

// NewResult returns a Result for scorer from checks, with Pass computed.
func NewResult(scorer string, checks ...Check) Result {
	r := Result{Scorer: scorer, Pass: true, Checks: checks}
	for _, c := range checks {
		if !c.Pass {
			r.Pass = false
		}
	}
	return r
}

// Outcomes returns the case's outcome per metric: the AND of its checks
// counting toward that metric.
func (r Result) Outcomes() map[string]bool {
	out := make(map[string]bool, len(r.Checks))
	for _, c := range r.Checks {
		prev, seen := out[c.Metric]
		out[c.Metric] = c.Pass && (!seen || prev)
	}
	return out
}

// Summary is what an Aggregator reports.
type Summary struct {
	Metrics []Metric `json:"metrics"`
	Tables  []Table  `json:"tables,omitempty"`
}

// Units of metrics.
const (
	UnitRate   = "rate"   // a proportion in [0, 1]; Num/Den and a Wilson interval are set
	UnitTokens = "tokens" // mean tokens per case
	UnitMS     = "ms"     // milliseconds
	UnitCount  = "count"  // mean count per case
	UnitScore  = "score"  // a number in [0, 1] that is not a proportion of cases (F1)
)

// Directions in which a metric improves.
const (
	HigherIsBetter = "higher"
	LowerIsBetter  = "lower"
)

// Metric is one aggregate number.
type Metric struct {
	Name   string  `json:"name"`
	Value  float64 `json:"value"`
	Unit   string  `json:"unit"`
	Better string  `json:"better,omitempty"`
	// Rates: Num of Den applicable cases passed, with a Wilson 95% interval.
	Num int     `json:"num,omitempty"`
	Den int     `json:"den,omitempty"`
	Lo  float64 `json:"ci_low,omitempty"`
	Hi  float64 `json:"ci_high,omitempty"`
	// Cases is set when the interval counts cases rather than the Den
	// samples (a sampled run: the samples of a case are not independent).
	Cases int `json:"cases,omitempty"`
	// Paired is true when the metric is the pass rate of per-case outcomes
	// of the same name, so two runs can be compared case by case.
	Paired bool `json:"paired,omitempty"`
	// Note says how the number was computed when that is not obvious.
	Note string `json:"note,omitempty"`
	// CaseKeys names the cases a count is made of, when they must be
	// listed with it (the confirmations of a wrong Phase 1 answer): a gate
	// violation of the metric names them.
	CaseKeys []string `json:"case_keys,omitempty"`
}

// Table is an extra table an aggregator reports (a confusion matrix, …).
type Table struct {
	Title  string     `json:"title"`
	Header []string   `json:"header"`
	Rows   [][]string `json:"rows"`
	Notes  []string   `json:"notes,omitempty"`
}
