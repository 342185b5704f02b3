// Package dataset loads the labelled YAML datasets the harness replays:
// routing queries, consent replies, multi-turn flows and raw model outputs for
// the tool-call parsers.
//
// Loading is strict. Every problem in a file — an unknown key, an unknown
// label, a duplicate id, a missing field, an empty query — is reported with
// its file:line, all of them at once, and nothing runs until they are fixed.
//
// LoadDir holds every case in memory; a Catalog (OpenDir) validates the
// files one case at a time and streams the cases again when they run, so
// a run's memory does not grow with the datasets.
package dataset

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/searchbench/searchbench/lib/problem"
)

// Kinds of dataset. A file names its kind in its top-level `kind:` key.
const (
	KindRouting = "routing"
	KindConsent = "consent"
	KindFlows   = "flows"
	KindParser  = "parser"
)

// Kinds lists the dataset kinds in the order the harness runs them.
var Kinds = []string{KindRouting, KindConsent, KindFlows, KindParser}

// Labels and expectation values each kind accepts.
var (
	RouteLabels   = []string{"tavily_only", "exa_only", "tavily_plus_exa"}
	ConsentLabels = []string{"YES", "NO", "SEARCH_NOW", "NEW_QUERY"}
	Phases        = []string{"phase1", "phase2", "decline"}
	Routes        = []string{"none", "tavily_only", "exa_only", "tavily_plus_exa"}
	Verifications = []string{"confirmed", "corrected", "skipped"}
	ErrorCodes    = []string{"NONE", "SCHEMA_VIOLATION", "INSUFFICIENT_EVIDENCE"}
	Outputs       = []string{"passed", "repaired", "schema_violation"}
	Modes         = []string{"model", "structured"}
	Strategies    = []string{"guided_json", "react", "markers", "fuzzy"}
)

// Dataset is one loaded file.
type Dataset struct {
	Name  string // file name without extension, e.g. "routing"; cassettes live under it
	Path  string
	Kind  string
	Cases []*Case // nil in a Catalog, which streams them

	// Count is the number of cases, and SHA256 the file's hash (hex); set
	// by OpenFiles and OpenDir.
	Count  int
	SHA256 string
}

// Case is one labelled example. Which fields are set depends on Kind.
type Case struct {
	ID      string
	Dataset string // the Dataset's Name
	Kind    string
	File    string
	Line    int
	Tags    []string
	Note    string

	// Label is the expected answer of a one-step case: the route of a
	// routing case, the intent of a consent case.
	Label string

	Query string // routing: the user's question
	Reply string // consent: the user's reply to the Phase 1 question
	// Previous is, for consent, the query the Phase 1 question was about
	// ("" when the case does not say): the classifier reads the reply's
	// language with it.
	Previous string

	// Flows.
	Turns  []Turn
	Mode   string // Phase 2 output mode for the whole flow ("" = the run's default)
	Repair bool   // re-render markdown from a valid envelope instead of failing

	// Answer is the case's gold answer (routing and flows), or nil: what
	// the correctness scorers grade the answers to the case's question
	// against (for a flow, its first question).
	Answer *Gold

	// Parser.
	Prompt    string // the strategy whose system prompt produced the output
	Reasoning string
	Content   string
	Expect    []Call
}

// Gold is a case's gold answer.
type Gold struct {
	// Accept are the accepted answers: aliases, or the several answers the
	// question allows.
	Accept []string
	// Reject are known wrong answers.
	Reject []string
	// AsOf is the date (YYYY-MM-DD) the answer was true, for facts that
	// change.
	AsOf string
	Line int // where answer: is in the file
}

// Turn is one user message of a flow and what must happen.
type Turn struct {
	User   string
	Line   int
	Expect Expect
}

// Expect holds the expectations for one flow turn. Empty fields are not checked.
type Expect struct {
	Phase        string // phase1 | phase2 | decline
	Intent       string // YES | NO | SEARCH_NOW | NEW_QUERY
	Override     *bool
	Route        string // none | tavily_only | exa_only | tavily_plus_exa
	Verification string // confirmed | corrected | skipped
	Error        string // NONE | SCHEMA_VIOLATION | INSUFFICIENT_EVIDENCE
	Output       string // passed | repaired | schema_violation
	RefusedCalls *int   // tool calls refused by the per-tool query limit
	Retries      *int   // HTTP retries across the turn's requests
	// Scope is the condition the consent put on the search, which every
	// Phase 2 request must carry as an instruction (trace
	// ScopeInstruction) — "" for none expected.
	Scope string `json:",omitempty"`
}

// Call is an expected tool call of a parser case.
type Call struct {
	Name      string
	Arguments map[string]any
}

// HasTag reports whether c carries tag.
func (c *Case) HasTag(tag string) bool {
	for _, t := range c.Tags {
		if t == tag {
			return true
		}
	}
	return false
}

// Key is the case's identity across datasets: "dataset/id".
func (c *Case) Key() string { return c.Dataset + "/" + c.ID }

// Problem is one thing wrong with a dataset file.
type Problem = problem.Problem

// Error lists every problem found while loading datasets.
type Error = problem.List

func newError(ps []Problem) *Error {
	return &Error{What: "datasets", Hint: "fix them before running", Problems: ps}
}

// Hash identifies the case's content: a sha256 (16 hex digits) of
// everything that defines it — id, kind, tags, note, label, inputs and
// expectations — but not where it sits (file, line), so moving a case or
// editing a comment keeps its hash and changing what it tests does not.
func (c *Case) Hash() string {
	type turn struct {
		User   string
		Expect Expect
	}
	v := struct {
		ID, Kind, Note, Label, Query, Reply, Mode, Prompt, Reasoning, Content string
		Previous                                                              string `json:",omitempty"`
		Tags                                                                  []string
		Repair                                                                bool
		Turns                                                                 []turn
		Expect                                                                []Call
		// Left out when nil, so a case without a gold answer keeps the
		// hash it had before answers existed.
		Answer *Gold `json:",omitempty"`
	}{c.ID, c.Kind, c.Note, c.Label, c.Query, c.Reply, c.Mode, c.Prompt, c.Reasoning, c.Content, c.Previous, c.Tags, c.Repair, nil, c.Expect, nil}
	if c.Answer != nil {
		g := *c.Answer
		g.Line = 0 // where it sits does not count
		v.Answer = &g
	}
	for _, t := range c.Turns {
		v.Turns = append(v.Turns, turn{t.User, t.Expect})
	}
	b, err := json.Marshal(v) // map keys sorted: deterministic
	if err != nil {
		// Arguments JSON cannot carry (a YAML .nan): Go syntax is just as
		// deterministic, with map keys printed sorted.
		b = fmt.Appendf(nil, "%#v", v)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}
