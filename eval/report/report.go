// Package report turns scored cases into reports: one JSON document that is
// the complete, deterministic record of a run, and renderings of it for a
// terminal, a pull request (Markdown) and CI test dashboards (JUnit XML).
//
// A run streams: Begin(meta), then Case(record) for each case in selection
// order as it finishes, then End(summary). Writers keep only what they must
// (a bounded list of failures to show), so a run of any size fits in a flat
// memory budget. The summary is computed by an Aggregate from the records
// alone, which is what lets merge re-compute the summary of joined shards
// and the gate re-aggregate a baseline over a subset of its cases; a
// Scanner reads a JSON report back the same streaming way.
package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/lib/jsonx"
	"github.com/searchbench/searchbench/orchestrator/answer"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// SchemaVersion is the version of the JSON report format. Readers refuse
// reports of another version.
const SchemaVersion = 1

// Tool is the name reports are written by.
const Tool = "searchbench"

// Meta describes a run: what was replayed, with which prompt variant and
// output mode.
type Meta struct {
	SchemaVersion int    `json:"schema_version"`
	Tool          string `json:"tool"`
	Variant       string `json:"variant"`
	// VariantHash is the content hash of the variant's prompts and settings
	// (prompts.Variant.Hash): two runs with the same hash sent the same
	// prompts.
	VariantHash string `json:"variant_hash,omitempty"`
	// JudgeHash is the hash of the variant's judge-correctness.md: the
	// gate holds a judge-based metric to the calibration of this judge.
	JudgeHash string `json:"judge_hash,omitempty"`
	Mode      string `json:"mode"`
	// Backend says where the replayed cassettes came from: "sim", "live",
	// or both joined by "+" (a mix). SimPolicies lists the simulator
	// policies that answered the "sim" ones.
	Backend     string   `json:"backend,omitempty"`
	SimPolicies []string `json:"sim_policies,omitempty"`
	// Models and BaseURLs say where the "live" ones were recorded: the
	// chat models asked for, and each service's base URL as
	// "service=URL" (credentials removed), each sorted. Comparing runs
	// recorded from different models or hosts is then flagged.
	Models   []string `json:"models,omitempty"`
	BaseURLs []string `json:"base_urls,omitempty"`
	// Datasets lists every dataset file loaded, whole-file case counts and
	// content hashes, so two reports can tell whether they ran the same data.
	Datasets []DatasetInfo `json:"datasets"`
	// Filter holds the --filter terms that selected the cases.
	Filter []string `json:"filter,omitempty"`
	// Shard is "k/n" for a sharded run; empty for a whole run.
	Shard string `json:"shard,omitempty"`
	// Shards lists the shards a merged report was joined from.
	Shards    []string `json:"shards,omitempty"`
	Cassettes string   `json:"cassettes,omitempty"`
	// StartedAt is set only when the run asked for timestamps; by default a
	// report holds no wall-clock time, so reruns are byte-identical.
	StartedAt string `json:"started_at,omitempty"`
	// Unplayable is set when cassettes of selected cases are stale or
	// missing: those cases cannot replay, so the run cannot judge the
	// change until they are re-recorded. Every output opens with its Line.
	Unplayable *Unplayable `json:"unplayable,omitempty"`
}

// Unplayable sums up the cassettes a run could not replay as recorded.
type Unplayable struct {
	// Stale cassettes were recorded before a variant file their requests
	// use changed (Changed lists those files); Missing ones do not exist
	// (a sample's file included).
	Stale   int `json:"stale"`
	Missing int `json:"missing"`
	// Unfinished ones belong to a recording that selected them and did
	// not finish them (killed, out of disk, interrupted).
	Unfinished int `json:"unfinished,omitempty"`
	// Of is how many cases the run selected (0 in a merged report: the
	// shards without such cassettes say nothing).
	Of      int      `json:"of"`
	Changed []string `json:"changed,omitempty"`
	// Cases are the first MaxUnplayableCases such cases.
	Cases []string `json:"cases"`
	// Command is the one command that re-records them all.
	Command string `json:"command"`
	// Line is the sentence every output opens with.
	Line string `json:"line"`
}

// MaxUnplayableCases bounds Unplayable.Cases.
const MaxUnplayableCases = 10

// Add merges o (another shard's) into u.
func (u *Unplayable) Add(o *Unplayable) {
	u.Stale += o.Stale
	u.Missing += o.Missing
	u.Unfinished += o.Unfinished
	u.Of = 0
	for _, f := range o.Changed {
		if !slices.Contains(u.Changed, f) {
			u.Changed = append(u.Changed, f)
		}
	}
	slices.Sort(u.Changed)
	u.Cases = append(u.Cases, o.Cases...)[:min(len(u.Cases)+len(o.Cases), MaxUnplayableCases)]
	if u.Command == "" {
		u.Command = o.Command
	}
	u.Line = u.Summary()
}

// Summary says what cannot replay and the command that fixes it.
func (u *Unplayable) Summary() string {
	return u.What() + "; re-record them with: " + u.Command
}

// Unjudged is the one line a gated run or merge prints in place of its
// violations when cassettes cannot replay: the run is no verdict, and the
// violations (their number; report.json lists them) follow from the cases
// that could not run.
func (u *Unplayable) Unjudged(violations int) string {
	n := u.Stale + u.Missing + u.Unfinished
	s := fmt.Sprintf("not judged: %d case(s) could not replay, so this run gives no verdict", n)
	if violations > 0 {
		s += fmt.Sprintf("; its %d gate violation(s) follow from them (report.json lists them)", violations)
	}
	return s + "; re-record, then gate again"
}

// What says what cannot replay.
func (u *Unplayable) What() string {
	var what []string
	if u.Stale > 0 {
		s := fmt.Sprintf("%d stale", u.Stale)
		if len(u.Changed) > 0 {
			s += fmt.Sprintf(" (%s changed since they were recorded)", strings.Join(u.Changed, ", "))
		}
		what = append(what, s)
	}
	if u.Missing > 0 {
		what = append(what, fmt.Sprintf("%d missing", u.Missing))
	}
	if u.Unfinished > 0 {
		what = append(what, fmt.Sprintf("%d left unfinished by a recording", u.Unfinished))
	}
	of := ""
	if u.Of > 0 {
		of = fmt.Sprintf(" of %d cases", u.Of)
	}
	return fmt.Sprintf("cassettes not replayable: %s%s", strings.Join(what, " and "), of)
}

// DatasetInfo identifies one dataset file of a run.
type DatasetInfo struct {
	Name   string `json:"name"`
	Path   string `json:"path"`
	Kind   string `json:"kind"`
	Cases  int    `json:"cases"`
	SHA256 string `json:"sha256"`
}

// CaseRecord is the report's record of one case: who it is, whether it
// passed, every scorer's result, and a compact view of its turns.
type CaseRecord struct {
	// Seq is the case's position in the whole (unsharded) selection, so
	// merged shards restore the canonical order.
	Seq int `json:"seq"`
	score.CaseInfo
	// Pass is true when the case has no Error and every non-measure result
	// passed (see Passed).
	Pass bool `json:"pass"`
	// Error is set when the case could not run to the end (a cassette miss,
	// an infrastructure failure after retries).
	Error  string         `json:"error,omitempty"`
	Scores []score.Result `json:"scores"`
	Turns  []TurnSummary  `json:"turns,omitempty"`
	// Trace is the case's evidence, written to traces.jsonl.gz rather than
	// report.json (see TraceWriter); nil in a report read back.
	Trace *CaseTrace `json:"-"`
	// Samples are samples 2..N of a case recorded with several samples
	// (record --samples N); the fields above are sample 1. PassRate is the
	// share of all N samples that passed as a whole, MetricRates the share
	// per metric (of the samples with an outcome for it). All three are
	// absent for a case with one sample.
	Samples     []SampleRecord     `json:"samples,omitempty"`
	PassRate    *float64           `json:"pass_rate,omitempty"`
	MetricRates map[string]float64 `json:"metric_rates,omitempty"`

	// line and traceLine are the record's JSON and its trace's, made
	// ahead by Encode; nil until then.
	line, traceLine []byte
}

// Encode renders r's JSON line and its trace line ahead of the writers,
// which then only copy them: a run encodes each record on the worker that
// made it, so the writers, which take the records in order on one
// goroutine, do not hold the workers back. r must not change afterwards.
func (r *CaseRecord) Encode() error {
	line, err := jsonx.Marshal(r)
	if err != nil {
		return fmt.Errorf("case %s: %w", r.Key, err)
	}
	tl, err := jsonx.Marshal(r.traceOrID())
	if err != nil {
		return fmt.Errorf("trace of case %s: %w", r.Key, err)
	}
	r.line, r.traceLine = line, tl
	return nil
}

// traceOrID is r's trace, or one with only its seq and key when the case
// left none.
func (r *CaseRecord) traceOrID() *CaseTrace {
	if r.Trace == nil {
		return &CaseTrace{Seq: r.Seq, Key: r.Key}
	}
	return r.Trace
}

// Passed reports whether r passes: no error and every non-measure result
// passed.
func (r *CaseRecord) Passed() bool {
	if r.Error != "" {
		return false
	}
	for _, s := range r.Scores {
		if !s.Measure && !s.Pass {
			return false
		}
	}
	return true
}

// TurnSummary is a compact view of one recorded turn.
type TurnSummary struct {
	Input    string `json:"input"`
	Phase    string `json:"phase"`
	Intent   string `json:"intent,omitempty"`
	Override bool   `json:"override,omitempty"`
	Route    string `json:"route,omitempty"`
	// Sent counts tool calls that reached a provider (status ok or error);
	// Refused those the app refused (limit, invalid arguments, unknown tool).
	Sent    int `json:"calls_sent,omitempty"`
	Refused int `json:"calls_refused,omitempty"`
	// ErrorCode is error.code of the final envelope of a Phase 2 turn.
	ErrorCode string `json:"error_code,omitempty"`
	Replaced  string `json:"replaced,omitempty"`
	Error     string `json:"error,omitempty"`
}

// Summarize returns the compact view of every turn of s.
func Summarize(s *trace.Session) []TurnSummary { return summarize(s, answer.CheckPhase2) }

// summarize is Summarize with the Phase 2 checker to use: a case's scorers
// have usually parsed the same final outputs already.
func summarize(s *trace.Session, check func(string) answer.Phase2Report) []TurnSummary {
	if s == nil {
		return nil
	}
	out := make([]TurnSummary, len(s.Turns))
	for i, t := range s.Turns {
		ts := TurnSummary{Input: t.Input, Phase: t.Phase, Intent: t.Intent, Override: t.Override,
			Route: t.Route, Replaced: t.Replaced, Error: t.Error}
		for _, c := range t.ToolCalls {
			if c.Status == trace.CallOK || c.Status == trace.CallError {
				ts.Sent++
			} else {
				ts.Refused++
			}
		}
		if t.Phase == trace.Phase2 && t.Error == "" {
			if env := check(t.Output).Envelope; env != nil {
				ts.ErrorCode = env.Error.Code
			}
		}
		out[i] = ts
	}
	return out
}

// NewCaseRecord builds the record of a finished case from what its scorers
// saw (in.Case must be set) and what they found. runErr is the error that
// stopped the case, if any; failing that, the first turn that did not finish
// makes the case an error too.
func NewCaseRecord(seq int, in *score.Input, results []score.Result, runErr error) *CaseRecord {
	sess := in.Session
	rec := &CaseRecord{Seq: seq, CaseInfo: score.InfoOf(in.Case), Scores: results, Turns: summarize(sess, in.CheckPhase2),
		Trace: TraceOf(seq, in)}
	if rec.Scores == nil {
		rec.Scores = []score.Result{}
	}
	switch {
	case runErr != nil:
		rec.Error = runErr.Error()
	case sess != nil:
		for i, t := range sess.Turns {
			if t.Error != "" {
				rec.Error = fmt.Sprintf("turn %d: %s", i+1, t.Error)
				break
			}
		}
	}
	rec.Pass = rec.Passed()
	return rec
}

// Writer writes one run's report as it happens.
type Writer interface {
	// Begin starts the report.
	Begin(Meta) error
	// Case adds one case, in selection order.
	Case(*CaseRecord) error
	// End finishes the report with the run's summary.
	End(Summary) error
}

// Multi returns a Writer that writes to every w in turn, stopping at the
// first error.
func Multi(ws ...Writer) Writer { return multi(ws) }

type multi []Writer

func (m multi) Begin(meta Meta) error {
	for _, w := range m {
		if err := w.Begin(meta); err != nil {
			return err
		}
	}
	return nil
}

func (m multi) Case(r *CaseRecord) error {
	for _, w := range m {
		if err := w.Case(r); err != nil {
			return err
		}
	}
	return nil
}

func (m multi) End(s Summary) error {
	for _, w := range m {
		if err := w.End(s); err != nil {
			return err
		}
	}
	return nil
}
