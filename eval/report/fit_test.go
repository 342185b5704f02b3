package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"

	"github.com/searchbench/searchbench/eval/report"
)

// RenderTableWidth fits a table and its notes to the width, wrapping the
// cells without losing a character, and leaves a table that fits alone.
func TestRenderTableFitsTheWidth(t *testing.T) {
	header := []string{"case", "check", "expected", "got", "reason"}
	rows := [][]string{
		{"routing/eu-ai-act-timeline", "routing: exa before tavily", "exa_search first", "tavily_search first",
			"the first tavily_search call (round 0, call 1) precedes the first exa_search call (round 1, call 2)"},
		{"consent-multilingual/ja-yes-1", "consent: intent", "YES", "NO", "reply \"はい、お願いします\" was classified NO by rule \"no.but-clause\""},
		{"flows/x", "(error)", "", "", "cassette miss: POST https://api.cerebras.ai/v1/chat/completions/a-very-long-path-that-has-no-spaces-at-all-in-it"},
	}
	notes := []string{"a note long enough to wrap: " + strings.Repeat("word ", 40)}
	words := func(s string) string { return strings.Join(strings.Fields(s), "") }
	for _, width := range []int{40, 60, 80, 100, 120} {
		var b bytes.Buffer
		if err := report.RenderTableWidth(&b, false, width, "T", header, rows, notes); err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(b.String(), "\n") {
			if w := runewidth.StringWidth(l); w > width {
				t.Errorf("width %d: line %d is %d wide:\n%s", width, i+1, w, b.String())
				break
			}
		}
		// Every cell keeps every character (only spaces and line breaks
		// differ).
		_, fitted := report.FitCells(header, rows, width)
		for i, r := range rows {
			for j, c := range r {
				if words(fitted[i][j]) != words(c) {
					t.Errorf("width %d: cell %q became %q", width, c, fitted[i][j])
				}
			}
		}
	}
	// A table that fits is not wrapped.
	var b bytes.Buffer
	small := [][]string{{"a", "b"}}
	if err := report.RenderTableWidth(&b, false, 100, "", []string{"x", "y"}, small, nil); err != nil || strings.Count(b.String(), "\n") != 5 {
		t.Errorf("a small table: %v\n%s", err, b.String())
	}
}
