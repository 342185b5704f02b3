package consent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// The model fallback: a reply the rules leave to the model
// (Decision.Unplaced) is sent by the session to the chat model as a small
// classification request. Its system prompt is the variant's consent.md
// (orchestrator/prompts: tuned like any prompt, hashed into the cassettes'
// staleness); its user message is ModelMessage, the previous query and the
// reply; its response format is the strict JSON schema ModelSchema, named
// ModelSchemaName, by which the simulator (sim) recognises the request.

// ModelSchemaName names the response format of a classification request.
const ModelSchemaName = "consent_intent"

// ModelSchema is the strict JSON schema of the model's verdict: the
// intent, the condition a consent put on the search ("" when none), and a
// short reason. Strict mode: every property required, no others.
var ModelSchema = json.RawMessage(`{"type":"object","properties":{"intent":{"type":"string","enum":["YES","SEARCH_NOW","NO","NEW_QUERY"]},"scope":{"type":"string"},"reason":{"type":"string"}},"required":["intent","scope","reason"],"additionalProperties":false}`)

// ModelMessage is the user message of a classification request: the query
// the consent question was about and the reply, each on its own line.
func ModelMessage(previous, reply string) string {
	if strings.TrimSpace(previous) == "" {
		previous = "(unknown)"
	}
	return "Previous question: " + previous + "\nReply: " + reply
}

// ModelVerdict is the model's answer to a classification request.
type ModelVerdict struct {
	Intent Intent `json:"intent"`
	Scope  string `json:"scope"`
	Reason string `json:"reason"`
}

// ParseVerdict reads the model's answer strictly: one JSON object with
// exactly intent, scope and reason, an intent of the schema's, and nothing
// after it. Any other answer is an error that says what was wrong, so that
// the session names it in the trace instead of guessing.
func ParseVerdict(content string) (ModelVerdict, error) {
	var v ModelVerdict
	if strings.TrimSpace(content) == "" {
		return v, errors.New("the model's verdict is empty")
	}
	dec := json.NewDecoder(strings.NewReader(content))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return v, fmt.Errorf("the model's verdict is not the schema's JSON: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return v, errors.New("the model's verdict has text after its JSON object")
	}
	var fields map[string]json.RawMessage
	_ = json.NewDecoder(bytes.NewReader([]byte(content))).Decode(&fields) // decoded above
	var missing []string
	for _, k := range []string{"intent", "scope", "reason"} {
		if _, ok := fields[k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return v, fmt.Errorf("the model's verdict lacks %s", strings.Join(missing, ", "))
	}
	switch v.Intent {
	case Yes, SearchNow, No, NewQuery:
	default:
		return v, fmt.Errorf("the model's verdict %q is not YES, SEARCH_NOW, NO or NEW_QUERY", v.Intent)
	}
	if v.Scope != "" && v.Intent != Yes && v.Intent != SearchNow {
		return v, fmt.Errorf("the model's verdict %s has a scope (%q): only a YES or SEARCH_NOW limits a search", v.Intent, v.Scope)
	}
	return v, nil
}

// ParseModelMessage reads a classification request's user message back
// into the previous query and the reply (ModelMessage's inverse); ok is
// false when content is not one.
func ParseModelMessage(content string) (previous, reply string, ok bool) {
	head, reply, found := strings.Cut(content, "\nReply: ")
	previous, isMsg := strings.CutPrefix(head, "Previous question: ")
	if !found || !isMsg {
		return "", "", false
	}
	if previous == "(unknown)" {
		previous = ""
	}
	return previous, reply, true
}

// StandInVerdict is the simulator's policy for a classification request
// (sim answers every one with it): the clause rules' reading of the reply
// (doc.go's steps 0–4, the reading before the precision rules deferred
// it), with its scope; a reply no clause decides is seed 000's "something
// else", a new query. It reads no label and knows no more than the rules,
// so a figure "with the model" measured with it is the clause rules' own;
// what the live model adds is unmeasured without one. It gives the same
// answer to the same reply, so a recording of it replays.
func StandInVerdict(reply string) ModelVerdict {
	v := classify(reply)
	out := ModelVerdict{Intent: v.intent}
	switch v.intent {
	case Yes, SearchNow:
		out.Scope = v.scope
		out.Reason = fmt.Sprintf("The stand-in reads the reply by the consent rules' clauses alone (rule %s): it accepts the search.", v.rule)
	case No:
		out.Reason = fmt.Sprintf("The stand-in reads the reply by the consent rules' clauses alone (rule %s): it declines the search.", v.rule)
	default:
		out.Intent = NewQuery
		out.Reason = "The stand-in reads no more than the consent rules' clauses: a reply they place nowhere is a new query (seed 000)."
	}
	return out
}
