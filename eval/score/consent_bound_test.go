package score

import (
	"fmt"
	"strings"
	"testing"
)

// TestMisclassifiedTableIsBounded: the summary of a run of failing consent
// cases stays the same size however many fail (the audit measured 1.3 KB
// held per failing case, all in this table); the count of the rest is
// given.
func TestMisclassifiedTableIsBounded(t *testing.T) {
	agg := Consent{}.NewAggregator()
	for i := range maxWrongRows + 50 {
		agg.Add(CaseInfo{Key: fmt.Sprintf("consent/c%d", i), Dataset: "consent", Kind: "consent"},
			Result{Scorer: "consent", Checks: []Check{{Name: "intent", Metric: MetricConsentAccuracy, Expected: "NO", Got: "YES"}}, Attrs: map[string]string{"reply": "y", "rule": "yes.word"}})
	}
	s := agg.Summary()
	if len(s.Tables) != 1 || len(s.Tables[0].Rows) != maxWrongRows || s.Tables[0].Rows[0][0] != "consent/c0" {
		t.Fatalf("tables %+v", s.Tables)
	}
	if n := strings.Join(s.Tables[0].Notes, " "); !strings.Contains(n, "50 more misclassified replies") {
		t.Errorf("notes %q", n)
	}
	for _, m := range s.Metrics {
		if m.Name == MetricConsentAccuracy && (m.Den != maxWrongRows+50) {
			t.Errorf("accuracy counted %d cases, want every one", m.Den)
		}
	}
}
