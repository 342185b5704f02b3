package llm

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDecodeFastTakesRecordedResponses: the fast path must answer for the
// usual recorded responses, or it speeds nothing up.
func TestDecodeFastTakesRecordedResponses(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "responses", "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no recorded responses: %v", err)
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := decodeFast(b); !ok {
			t.Errorf("%s: left to the general path", filepath.Base(p))
		}
	}
}
