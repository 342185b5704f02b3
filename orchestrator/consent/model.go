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
