package run

import (
	"slices"
	"testing"

	"github.com/searchbench/searchbench/orchestrator/prompts"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// TestUsedFilesConsentPrompt: a session in which the model read a consent
// reply used the variant's consent.md, so an edit of it makes the
// cassette stale; a session whose consent the rules decided did not.
func TestUsedFilesConsentPrompt(t *testing.T) {
	phase1 := trace.Turn{Phase: trace.Phase1}
	byModel := trace.Turn{Phase: trace.Decline, AwaitingConsent: true, IntentBy: "model", ConsentCall: &trace.ModelCall{}}
	byRule := trace.Turn{Phase: trace.Decline, AwaitingConsent: true, IntentBy: "rule"}
	if got := UsedFiles(&trace.Session{Turns: []trace.Turn{phase1, byModel}}); !slices.Contains(got, prompts.ConsentFile) {
		t.Errorf("UsedFiles with a consent call = %v, want %s among them", got, prompts.ConsentFile)
	}
	if got := UsedFiles(&trace.Session{Turns: []trace.Turn{phase1, byRule}}); slices.Contains(got, prompts.ConsentFile) {
		t.Errorf("UsedFiles without a consent call = %v, want no %s", got, prompts.ConsentFile)
	}
}
