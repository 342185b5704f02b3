package orchestrator

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/searchbench/searchbench/orchestrator/consent"
	"github.com/searchbench/searchbench/orchestrator/llm"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// askConsent sends a reply the rules could not place to the chat model as a
// small classification request (recorded and replayed like every request)
// and returns its intent. ok is false when the model gave no usable verdict:
// the caller then keeps the rules' reading, and t.IntentReason says why.
func (a *Assistant) askConsent(ctx context.Context, t *trace.Turn, reply string) (consent.Intent, bool) {
	req := &llm.ChatRequest{
		Messages:       []message{system(consent.ModelPrompt), user(reply)},
		ResponseFormat: llm.JSONSchemaFormat(consent.ModelSchemaName, consent.ModelSchema),
	}
	m, _, err := a.chat(ctx, t, req)
	if err != nil {
		t.IntentReason = "model gave no verdict: " + err.Error()
		return "", false
	}
	var v consent.ModelVerdict
	dec := json.NewDecoder(strings.NewReader(m.Content))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		t.IntentReason = fmt.Sprintf("model verdict is not the schema's JSON: %v", err)
		return "", false
	}
	switch in := v.Intent; in {
	case consent.Yes, consent.No, consent.NewQuery:
		t.IntentReason = v.Reason
		return in, true
	}
	t.IntentReason = fmt.Sprintf("model verdict %q is not YES, NO or NEW_QUERY", v.Intent)
	return "", false
}
