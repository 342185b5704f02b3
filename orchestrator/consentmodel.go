package orchestrator

import (
	"context"
	"fmt"

	"github.com/searchbench/searchbench/orchestrator/consent"
	"github.com/searchbench/searchbench/orchestrator/llm"
	"github.com/searchbench/searchbench/orchestrator/prompts"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// askConsent sends a reply the rules left to the model as a small
// classification request — the variant's consent.md as system prompt, the
// previous query and the reply as user message, the strict schema
// consent.ModelSchema as response format — recorded and replayed like every
// request, and returns the model's verdict. A request that fails, or an
// answer that is not the schema's JSON, is an error: the caller ends the
// turn with it, never guessing a reading in its place.
func (a *Assistant) askConsent(ctx context.Context, t *trace.Turn, previous, reply string) (consent.ModelVerdict, error) {
	sys := consentPrompt(a.prompts)
	req := &llm.ChatRequest{
		Messages:       []message{sys, user(consent.ModelMessage(previous, reply))},
		ResponseFormat: llm.JSONSchemaFormat(consent.ModelSchemaName, consent.ModelSchema),
	}
	m, _, err := a.chat(ctx, t, req)
	if err != nil {
		return consent.ModelVerdict{}, fmt.Errorf("consent model: %w", err)
	}
	v, err := consent.ParseVerdict(m.Content)
	if err != nil {
		return v, fmt.Errorf("consent model: %w", err)
	}
	return v, nil
}

// consentPrompt is the system message of a classification request: the
// variant's consent.md (seed's built-in one when the assistant has no
// prompt set, as in `classify` without a variant).
func consentPrompt(p *prompts.Set) message {
	if p == nil || p.Consent == "" {
		p = prompts.Builtin().Prompts
	}
	return system(p.Consent)
}

// ScopeInstruction is the system message Phase 2 gets when the user's
// consent put a condition on the search ("yes, but stick to government
// sources"): the model is to honour it in its searches and its answer. The
// trace keeps it (Turn.ScopeInstruction).
func ScopeInstruction(scope string) string {
	return fmt.Sprintf("The user agreed to this search on a condition. Honour it in your searches and in your answer, as far as the sources allow: %q", scope)
}
