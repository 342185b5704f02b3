// Package judge is the wire format of the correctness judge: the chat
// request that asks a model whether an answer is right, given the
// question and the gold answers, and the strict JSON verdict it must
// return. The harness sends it (eval/grade) through the same chat client
// as the assistant, recorded and replayed like the assistant's traffic;
// the simulator (sim) recognises it by its response format's name and
// answers with StandIn, which is not a model and says so.
//
// Everything in a request comes from the case and the variant's
// judge-correctness.md: no clock, no randomness. It runs at temperature 0
// with a fixed seed, so a live recording is as repeatable as the server
// allows, and a replay is exact.
package judge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/searchbench/searchbench/orchestrator/llm"
)

// SchemaName names the response format of a judge request.
const SchemaName = "correctness_verdict"

// Schema is the strict JSON schema of a verdict: one of the three labels
// and a short reason.
var Schema = json.RawMessage(`{"type":"object","properties":{"label":{"type":"string","enum":["correct","incorrect","not_attempted"]},"reason":{"type":"string"}},"required":["label","reason"],"additionalProperties":false}`)

// Seed is the fixed seed every judge request sends.
const Seed = 38

// Labels a verdict may carry.
var Labels = []string{"correct", "incorrect", "not_attempted"}

// Request is what the judge is shown: the question, the gold answers (any
// one of which is right), known wrong answers, the date the gold answers
// were true, and the answer to grade.
type Request struct {
	Question string   `json:"question"`
	Gold     []string `json:"gold"`
	Reject   []string `json:"reject,omitempty"`
	AsOf     string   `json:"as_of,omitempty"`
	Answer   string   `json:"answer"`
}

// UserMessage is the request's user message: the fields as one JSON
// object, in a fixed order, HTML characters unescaped.
func (r Request) UserMessage() string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(r) // strings and string lists always encode
	return strings.TrimSuffix(b.String(), "\n")
}

// ParseUserMessage reads a user message back (the simulator does).
func ParseUserMessage(s string) (Request, error) {
	var r Request
	dec := json.NewDecoder(strings.NewReader(s))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return Request{}, fmt.Errorf("judge request: %w", err)
	}
	return r, nil
}

// ChatRequest builds the chat request: the prompt (the variant's
// judge-correctness.md) as the system message, r as the user message, the
// strict verdict schema, temperature 0 and Seed. model is the variant's
// model ("" for the client's).
func ChatRequest(prompt, model string, r Request) *llm.ChatRequest {
	temp, seed := 0.0, Seed
	return &llm.ChatRequest{
		Model: model,
		Messages: []llm.Message{
			{Role: llm.RoleSystem, Content: prompt},
			{Role: llm.RoleUser, Content: r.UserMessage()},
		},
		ResponseFormat: llm.JSONSchemaFormat(SchemaName, Schema),
		Temperature:    &temp,
		Seed:           &seed,
	}
}

// Verdict is the judge's answer.
type Verdict struct {
	Label  string `json:"label"`
	Reason string `json:"reason"`
}

// Parse reads a verdict from the model's content. Anything but the
// schema's JSON — not JSON, an unknown field, a missing or unknown label,
// an empty reason, text around the object — is an error: a verdict that
// does not parse is never read as a label.
func Parse(content string) (Verdict, error) {
	s := strings.TrimSpace(content)
	if s == "" {
		return Verdict{}, errors.New("the judge answered nothing")
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.DisallowUnknownFields()
	var raw struct {
		Label  *string `json:"label"`
		Reason *string `json:"reason"`
	}
	if err := dec.Decode(&raw); err != nil {
		return Verdict{}, fmt.Errorf("the judge's answer is not the verdict JSON: %v (answer: %s)", err, short(s))
	}
	if dec.More() {
		return Verdict{}, fmt.Errorf("the judge's answer has text after the verdict JSON (answer: %s)", short(s))
	}
	var problems []string
	if raw.Label == nil {
		problems = append(problems, "no label")
	} else if !contains(Labels, *raw.Label) {
		problems = append(problems, fmt.Sprintf("label %q is not one of %s", *raw.Label, strings.Join(Labels, ", ")))
	}
	if raw.Reason == nil || strings.TrimSpace(*raw.Reason) == "" {
		problems = append(problems, "no reason")
	}
	if len(problems) > 0 {
		return Verdict{}, fmt.Errorf("the judge's verdict does not fit the schema: %s (answer: %s)", strings.Join(problems, "; "), short(s))
	}
	return Verdict{Label: *raw.Label, Reason: strings.TrimSpace(*raw.Reason)}, nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

func short(s string) string {
	if r := []rune(s); len(r) > 120 {
		s = string(r[:120]) + "…"
	}
	return fmt.Sprintf("%q", s)
}
