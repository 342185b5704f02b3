package consent

import "encoding/json"

// The model fallback: a reply the rules cannot place (Decision.Unplaced) is
// sent by the session to the chat model as a small classification request
// with this system prompt and a strict JSON schema response format named
// ModelSchemaName. The simulator (sim) recognises the request by
// that name and answers it from its policy.

// ModelSchemaName names the response format of a classification request.
const ModelSchemaName = "consent_intent"

// ModelSchema is the strict JSON schema of the model's verdict: one of
// YES, NO, NEW_QUERY and a short reason.
var ModelSchema = json.RawMessage(`{"type":"object","properties":{"intent":{"type":"string","enum":["YES","NO","NEW_QUERY"]},"reason":{"type":"string"}},"required":["intent","reason"],"additionalProperties":false}`)

// ModelPrompt is the system prompt of a classification request; the reply
// is the user message. It restates seed 000's consent rules.
const ModelPrompt = `You classify one user reply for a web-search assistant. The assistant answered a question from memory and asked: "Would you like me to search the web and confirm this with sources? (y/n)". The reply may be in any language or script.
Answer with JSON: intent and a short reason (one sentence, English).
- YES: the reply accepts the search, or asks to check, verify or add sources to the previous answer.
- NO: the reply declines the search.
- NEW_QUERY: anything else, such as a new question or a different topic.`

// ModelVerdict is the model's answer to a classification request.
type ModelVerdict struct {
	Intent Intent `json:"intent"`
	Reason string `json:"reason"`
}

// StandInVerdict is the simulator's policy for a classification request
// (sim answers every one with it): it reads no language, so a reply the
// rules could not place gets seed 000's reading of "something else", a new
// query. It never looks at a label, and gives the same answer to every
// reply, so a figure "with the model" measured with it equals the rules'
// own; what the live model adds is unmeasured without one.
func StandInVerdict() ModelVerdict {
	return ModelVerdict{
		Intent: NewQuery,
		Reason: "The stand-in reads no language: a reply that is neither a clear yes nor a clear no is a new query (seed 000).",
	}
}
