package ask

import (
	"errors"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/orchestrator"
	"github.com/searchbench/searchbench/orchestrator/answer"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// TestShown: only a Phase 2 success loses its envelope on a terminal; a
// failure form keeps it (it holds the reason), and so does anything off a
// terminal.
func TestShown(t *testing.T) {
	ok := answer.FormatPhase2(answer.VerificationSkipped, answer.Success(
		[]answer.Bullet{{Text: "Go 1.0 was released in March 2012.", SourceIDs: []string{"s1"}}},
		[]answer.Source{{ID: "s1", Domain: "go.dev", Title: "Go release history", URL: "https://go.dev/doc/devel/release"}}))
	failed := answer.FormatPhase2(answer.VerificationSkipped, answer.SchemaViolation("bullets missing"))
	phase1 := answer.Phase1Header + "\nAn answer.\n\n" + answer.ConsentQuestion
	want := answer.Phase2Header + "\nVerification: " + answer.VerificationSkipped + "\n\n- Go 1.0 was released in March 2012.\n\nSources:\n1. Go release history (https://go.dev/doc/devel/release)"
	if got := shown(ok, false); got != want {
		t.Errorf("success on a terminal:\n%q\nwant\n%q", got, want)
	}
	for _, tc := range []struct {
		name, out string
		whole     bool
	}{{"success off a terminal", ok, true}, {"failure form", failed, false}, {"phase 1", phase1, false}} {
		if got := shown(tc.out, tc.whole); got != tc.out {
			t.Errorf("%s: shown changed it:\n%q", tc.name, got)
		}
	}
	if !strings.Contains(failed, "```json") {
		t.Fatal("the failure form has no envelope: the test proves nothing")
	}
}

func TestStatusText(t *testing.T) {
	for _, tc := range []struct {
		p    orchestrator.SearchProgress
		want string
	}{
		{orchestrator.SearchProgress{Tool: trace.ToolExa, Query: "alignment"}, `searching Exa… "alignment"`},
		{orchestrator.SearchProgress{Tool: trace.ToolExa, Done: true, Results: 2}, "searching Exa… 2 results"},
		{orchestrator.SearchProgress{Tool: trace.ToolTavily, Done: true, Results: 1}, "searching Tavily… 1 result"},
		{orchestrator.SearchProgress{Tool: trace.ToolTavily, Done: true, Err: errors.New("tavily: HTTP 432")}, "searching Tavily… failed: tavily: HTTP 432"},
	} {
		if got := statusText(tc.p); got != tc.want {
			t.Errorf("statusText(%+v) = %q, want %q", tc.p, got, tc.want)
		}
	}
}
