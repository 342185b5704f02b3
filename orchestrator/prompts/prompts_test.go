package prompts

import (
	"strings"
	"testing"
)

func TestLoad(t *testing.T) {
	if got := Variants(); len(got) < 2 || got[0] != "routing-examples" || got[1] != "seed" {
		t.Fatalf("Variants() = %v", got)
	}
	seed, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"phase1": "I haven’t searched the web yet. Would you like me to look this up and confirm with sources? (y/n)",
		"phase2": "Verification: Phase 1 was skipped (override '?'); this answer is fully search-based.",
	} {
		text := map[string]string{"phase1": seed.Phase1, "phase2": seed.Phase2}[name]
		if !strings.Contains(text, want) {
			t.Errorf("seed %s lacks %q", name, want)
		}
	}
	if strings.Contains(seed.Phase1, "Tavily") || strings.Contains(seed.Phase1, "Exa ") {
		t.Error("Phase 1 prompt names a search tool")
	}
	v, err := Load("routing-examples")
	if err != nil {
		t.Fatal(err)
	}
	if v.Phase1 != seed.Phase1 || v.Decline != seed.Decline || string(v.Tools) != string(seed.Tools) {
		t.Error("routing-examples should inherit phase1, decline and tools from seed")
	}
	if v.Phase2 == seed.Phase2 || !strings.Contains(v.Phase2, "ROUTING PROCEDURE") {
		t.Error("routing-examples should override phase2")
	}
	if _, err := Load("nope"); err == nil || !strings.Contains(err.Error(), "seed") {
		t.Errorf("unknown variant error = %v", err)
	}
}
