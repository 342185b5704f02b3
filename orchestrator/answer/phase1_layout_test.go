package answer

import (
	"fmt"
	"strings"
	"testing"
)

// TestPhase1BlankLinesAfterHeader pins the limit of blank lines between the
// Phase 1 header and the answer: one is allowed, two are a finding on the
// line after the header. (Mutation testing found that disabling this
// finding left the whole suite green.)
func TestPhase1BlankLinesAfterHeader(t *testing.T) {
	msg := func(blank int) string {
		return Phase1Header + "\n" + strings.Repeat("\n", blank) + "Satya Nadella is the CEO of Microsoft.\n\n" + ConsentQuestion
	}
	count := func(fs []Finding) (n int, f Finding) {
		for _, x := range fs {
			if x.Code == "layout.blank_lines" && strings.Contains(x.Message, "after the header") {
				n++
				f = x
			}
		}
		return n, f
	}
	for blank, want := range map[int]int{0: 0, 1: 0, 2: 1, 3: 1} {
		n, f := count(CheckPhase1(msg(blank)))
		if n != want {
			t.Errorf("%d blank line(s) after the header: %d findings, want %d", blank, n, want)
			continue
		}
		if n == 1 {
			wantMsg := fmt.Sprintf("%d blank lines after the header, at most 1", blank)
			if f.Message != wantMsg || f.Location != "line 2" {
				t.Errorf("%d blank lines: finding %q at %q, want %q at line 2", blank, f.Message, f.Location, wantMsg)
			}
			if f.Severity != Violation {
				t.Errorf("severity %s, want violation", f.Severity)
			}
		}
	}
}
