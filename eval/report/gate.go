package report

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// Gate is the verdict of a gated run, computed once (by package gate) and
// written into every output: report.json's "gate" section, the first line
// of report.md, the JUnit testcases' outcomes and stdout.
type Gate struct {
	// Verdict is "PASS" or "FAIL".
	Verdict string `json:"verdict"`
	// Line is the one-line verdict every output prints, with the counts of
	// what was compared and what could not be.
	Line string `json:"line"`
	// Gates is the gates file; Baseline the baseline report ("" without).
	Gates    string `json:"gates"`
	Baseline string `json:"baseline,omitempty"`
	// BaselineID is the baseline's Fingerprint: an acceptance written from
	// this verdict (searchbench accept) is tied to it.
	BaselineID string `json:"baseline_id,omitempty"`
	// Reference is set when the baseline was read from git (--baseline-ref):
	// the ref as given and the commit it named. The run is then a change
	// under review judged against its base: a prompt change is expected,
	// and improvements are listed (Improved), never violations.
	Reference *Reference `json:"reference,omitempty"`
	// Scope is GateScopeFull, or GateScopeCases for one shard: only the
	// per-case rules, the rest waits for the merged report.
	Scope  string     `json:"scope"`
	Counts GateCounts `json:"counts"`
	// Violations are the broken rules, in a stable order.
	Violations []Violation `json:"violations"`
	// Known are the failing cases that failed in the baseline too: not
	// violations, reported as known failures.
	Known []string `json:"known_failures,omitempty"`
	// Improved are the cases that failed a scorer in the baseline and pass
	// it now (for sampled cases: whose pass rate rose by pass_rate_drop),
	// when they are not violations (the improvements rule is off, or the
	// baseline is a reference).
	Improved []Violation `json:"improved,omitempty"`
	// NewCases are cases of the run the baseline does not have.
	NewCases []string `json:"new_cases,omitempty"`
	// Notes say what was compared and what could not be, and why that was
	// allowed.
	Notes []string `json:"notes,omitempty"`
	// Headline are the metrics the reports show first: gates.yaml's
	// headline list, or the gated metrics.
	Headline []string `json:"headline,omitempty"`
	// Reaggregated is set when metrics were compared over the cases the
	// run and the baseline share rather than over their own summaries.
	Reaggregated bool `json:"reaggregated,omitempty"`
	// Accepted are the violations the change accepts in its accept file
	// (gate.AcceptFile), each with its reason: not violations, and named in
	// the verdict line.
	Accepted []Accepted `json:"accepted,omitempty"`
	// Weakened says how the gates file of the change is weaker than its
	// base's (a rule off, a tolerance raised, a threshold lowered): named
	// in the verdict line, never only in a note.
	Weakened []string `json:"weakened,omitempty"`
}

// Accepted is a violation a change accepts, with the reason it gives and
// where (file:line).
type Accepted struct {
	Violation
	Reason string `json:"reason"`
	At     string `json:"at"`
}

// Fingerprint identifies a baseline report by its bytes: the first 12 hex
// digits of their SHA-256. An acceptance names the fingerprint of the
// baseline it was written against.
func Fingerprint(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:6])
}

// Reference names the git commit a baseline was read from.
type Reference struct {
	// Ref is the reference as given (origin/main, HEAD~1, a SHA); Commit
	// the full commit it resolved to; Path the file read at that commit.
	Ref    string `json:"ref"`
	Commit string `json:"commit"`
	Path   string `json:"path"`
}

// String is "REF (commit 0123456789ab)".
func (r *Reference) String() string {
	return fmt.Sprintf("%s (commit %s)", r.Ref, r.Commit[:min(len(r.Commit), 12)])
}

// Scopes of a gate.
const (
	GateScopeFull  = "full"
	GateScopeCases = "cases"
)

// Verdicts.
const (
	VerdictPass = "PASS"
	VerdictFail = "FAIL"
)

// Pass reports whether no rule was broken.
func (g *Gate) Pass() bool { return len(g.Violations) == 0 }

// GateCounts say what the gate compared.
type GateCounts struct {
	// Cases is the run's case count; BaselineCases the baseline's.
	Cases         int `json:"cases"`
	BaselineCases int `json:"baseline_cases"`
	// Compared cases are in both; New only in the run; Removed are
	// baseline cases inside the run's selection that the run lacks.
	Compared int `json:"compared"`
	New      int `json:"new"`
	Removed  int `json:"removed"`
	// Known counts failing cases that failed in the baseline too.
	Known int `json:"known_failures"`
	// Thresholds counts threshold rules evaluated; NoData those whose
	// metric had no data in the run.
	Thresholds int `json:"thresholds"`
	NoData     int `json:"thresholds_no_data"`
	// Metrics counts metrics compared with the baseline.
	Metrics int `json:"metrics_compared"`
}

// Violation is one broken rule.
type Violation struct {
	Kind string `json:"kind"`
	// Metric is the metric (threshold, regression), the scorer (flip), or
	// the dataset file (dataset).
	Metric string `json:"metric,omitempty"`
	// Case is the case key of a per-case rule.
	Case        string `json:"case,omitempty"`
	Want        string `json:"want"`
	Got         string `json:"got"`
	Explanation string `json:"explanation"`
	// Next is what to do about it, in a sentence.
	Next string `json:"next,omitempty"`
}

// GateSetter is implemented by writers that render a verdict. Render (and
// Multi) hand it the gate before Begin.
type GateSetter interface{ SetGate(*Gate) }

// SetGate implements GateSetter for every writer of m that does.
func (m multi) SetGate(g *Gate) {
	for _, w := range m {
		if s, ok := w.(GateSetter); ok {
			s.SetGate(g)
		}
	}
}

// Render streams the report src through w, handing g (nil for an ungated
// report) to w first. It is how a run, a merge and `searchbench gate`
// write their outputs once the verdict is known. The writers of a Multi
// render side by side, each on a goroutine of its own.
func Render(src Source, g *Gate, w Writer) error {
	if s, ok := w.(GateSetter); ok {
		s.SetGate(g)
	}
	if m, ok := w.(multi); ok && len(m) > 1 {
		c := newConcurrent(m)
		defer c.stop()
		w = c
	}
	var sum *Summary
	begun := false
	err := Scan(src, func(m Meta) error {
		begun = true
		return w.Begin(m)
	}, w.Case, func(s *Summary) { sum = s })
	if err != nil {
		return err
	}
	if !begun || sum == nil {
		return nil
	}
	return w.End(*sum)
}
