package gate

import (
	"strings"
	"testing"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/report/reporttest"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// hashed is a run of variant seed whose prompts hash to h.
func hashed(h string, recs ...*report.CaseRecord) []byte {
	m := reporttest.Meta("seed")
	m.VariantHash = h
	return reporttest.JSON(m, recs)
}

// A prompt PR judged against its base: the changed hash is the change under
// review, improvements are listed whatever the improvements rule says, and
// flips still fail, naming the cases.
func TestEvaluateReference(t *testing.T) {
	ok := reporttest.OKMessage()
	exa, tav := trace.ToolExa, trace.ToolTavily
	y, n := true, false
	five := func(seq int, id string, pass bool) *report.CaseRecord {
		return reporttest.RoutingSamples(seq, id, pass, pass, pass, pass, pass)
	}
	base := hashed("1111", five(0, "a", y), five(1, "b", y), five(2, "c", n)) // c fails in the base
	ref := &report.Reference{Ref: "origin/main", Commit: "0123456789abcdef0123456789abcdef01234567", Path: "reports/baseline.json"}
	cfg := mustLoad(t, "regressions:\n  tolerance: 1\n  improvements: true\n")

	t.Run("without a reference the hash change is an input error", func(t *testing.T) {
		cur := hashed("2222", reporttest.Routing(0, "a", "tavily_only", ok, tav))
		_ = exa
		_, err := Evaluate(cfg, report.Bytes("cur.json", cur), report.Bytes("base.json", base), Options{})
		if !IsMismatch(err) {
			t.Fatalf("err = %v, want a variant-hash mismatch", err)
		}
	})

	t.Run("improved", func(t *testing.T) {
		cur := hashed("2222", five(0, "a", y), five(1, "b", y), five(2, "c", y))
		v, err := Evaluate(cfg, report.Bytes("cur.json", cur), report.Bytes("base.json", base), Options{Reference: ref})
		if err != nil {
			t.Fatal(err)
		}
		if !v.Pass() {
			t.Fatalf("an improvement failed a reference gate: %+v", v.Violations)
		}
		if len(v.Improved) != 1 || v.Improved[0].Case != "routing/c" || v.Improved[0].Kind != KindImproved {
			t.Errorf("improved = %+v, want routing/c", v.Improved)
		}
		if strings.Contains(v.Improved[0].Explanation, "make baseline") {
			t.Errorf("an improvement against a reference asks for a baseline update: %q", v.Improved[0].Explanation)
		}
		want := "prompts changed: seed@origin/main (hash 1111) vs seed (hash 2222)"
		if !strings.Contains(strings.Join(v.Notes, "\n"), want) {
			t.Errorf("notes %q lack %q", v.Notes, want)
		}
		for _, w := range []string{"gate: PASS", "compared with origin/main (commit 0123456789ab)", "1 improved"} {
			if !strings.Contains(v.Line, w) {
				t.Errorf("line %q lacks %q", v.Line, w)
			}
		}
	})

	t.Run("regressed", func(t *testing.T) {
		cur := hashed("2222", five(0, "a", n), five(1, "b", n), five(2, "c", n))
		v, err := Evaluate(cfg, report.Bytes("cur.json", cur), report.Bytes("base.json", base), Options{Reference: ref})
		if err != nil {
			t.Fatal(err)
		}
		if v.Pass() {
			t.Fatal("two broken cases passed a reference gate")
		}
		if !strings.HasPrefix(v.Line, "gate: FAIL (2 violations: 2 rate_drop; cases: routing/a, routing/b)") {
			t.Errorf("line = %q", v.Line)
		}
	})

	t.Run("a baseline file still ratchets improvements", func(t *testing.T) {
		cur := hashed("1111", five(0, "a", y), five(1, "b", y), five(2, "c", y))
		v, err := Evaluate(cfg, report.Bytes("cur.json", cur), report.Bytes("base.json", base), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if v.Pass() || v.Violations[0].Kind != KindImproved || !strings.Contains(v.Violations[0].Next, "make baseline") {
			t.Errorf("violations = %+v, want the improvement ratchet", v.Violations)
		}
	})

	t.Run("stale cassettes: a changed hash is allowed and noted", func(t *testing.T) {
		cur := hashed("2222", reporttest.Errored(0, "a", "tavily_only", "stale cassette"))
		_, _ = ok, exa
		v, err := Evaluate(cfg, report.Bytes("cur.json", cur), report.Bytes("base.json", base), Options{PromptsChanged: true})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(strings.Join(v.Notes, "\n"), "prompts changed: seed in the baseline (hash 1111) vs seed (hash 2222)") {
			t.Errorf("notes = %q", v.Notes)
		}
	})
}
