package dataset

import (
	"errors"
	"strings"
	"testing"
)

func TestParseAnswer(t *testing.T) {
	src := `kind: routing
cases:
  - id: one
    query: What is the capital of Australia?
    label: tavily_only
    answer: Canberra
  - id: aliases
    query: Who is the CEO of Microsoft?
    label: tavily_only
    answer: [Satya Nadella, Nadella]
  - id: full
    query: How many qubits does IBM's Condor have?
    label: tavily_only
    answer:
      accept: ["1,121 qubits"]
      reject: ["433 qubits"]
      as_of: 2025-01-01
  - id: none
    query: What are the main categories of AI alignment research?
    label: exa_only
`
	ds, err := Parse("routing.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	c := ds.Cases
	if g := c[0].Answer; g == nil || strings.Join(g.Accept, "|") != "Canberra" || g.Line != 6 {
		t.Errorf("one: %+v", g)
	}
	if g := c[1].Answer; g == nil || strings.Join(g.Accept, "|") != "Satya Nadella|Nadella" {
		t.Errorf("aliases: %+v", g)
	}
	if g := c[2].Answer; g == nil || g.Accept[0] != "1,121 qubits" || g.Reject[0] != "433 qubits" || g.AsOf != "2025-01-01" {
		t.Errorf("full: %+v", g)
	}
	if c[3].Answer != nil {
		t.Errorf("none: %+v", c[3].Answer)
	}
	// A gold answer is part of what a case tests; where it sits is not.
	moved := strings.Replace(src, "    answer: Canberra\n", "    answer:  Canberra   # the capital\n", 1)
	ds2, _ := Parse("routing.yaml", []byte(moved))
	if ds2.Cases[0].Hash() != c[0].Hash() {
		t.Error("a comment beside the answer changed the case's hash")
	}
	edited, _ := Parse("routing.yaml", []byte(strings.Replace(src, "answer: Canberra", "answer: Sydney", 1)))
	if edited.Cases[0].Hash() == c[0].Hash() {
		t.Error("a changed answer kept the case's hash")
	}
	if c[3].Hash() == "" || c[3].Hash() != ds2.Cases[3].Hash() {
		t.Error("a case without an answer changed its hash")
	}
}

// TestParseAnswerProblems: every problem of an answer, with file:line:col.
func TestParseAnswerProblems(t *testing.T) {
	src := `kind: flows
cases:
  - id: a
    answer: []
    turns:
      - user: q
        expect: {phase: phase1}
  - id: b
    answer: {accept: [x], reject: [X], as_of: June 2025, source: y}
    turns:
      - user: q
        expect: {phase: phase1}
  - id: c
    answer: {reject: [x]}
    turns:
      - user: q
        expect: {phase: phase1}
  - id: d
    answer: [x, {y: z}, ""]
    turns:
      - user: q
        expect: {phase: phase1}
  - id: e.judge
    turns:
      - user: q
        expect: {phase: phase1}
`
	_, err := Parse("flows.yaml", []byte(src))
	var de *Error
	if !errors.As(err, &de) {
		t.Fatalf("err = %v", err)
	}
	for _, want := range []string{
		`flows.yaml:4:13: case "a": answer is empty`,
		`flows.yaml:9:58: case "b": unknown key "source" in answer (allowed: accept, reject, as_of)`,
		`flows.yaml:9:35: case "b": answer.reject: "X" is also an accepted answer`,
		`flows.yaml:9:47: case "b": answer.as_of: "June 2025" is not a date (YYYY-MM-DD)`,
		`flows.yaml:14:13: case "c": missing field "accept" in answer`,
		`flows.yaml:19:17: case "d": answer entry must be a string`,
		`flows.yaml:19:25: case "d": answer entry is empty`,
		`flows.yaml:23:9: case "e.judge": id "e.judge" ends in .judge`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	// Consent and parser cases have no answer.
	_, err = Parse("consent.yaml", []byte("kind: consent\ncases:\n  - {id: a, reply: yes, label: YES, answer: x}\n"))
	if err == nil || !strings.Contains(err.Error(), `unknown key "answer"`) {
		t.Errorf("consent answer: %v", err)
	}
}
