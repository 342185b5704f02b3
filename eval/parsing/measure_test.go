package parsing

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"text/tabwriter"

	"github.com/searchbench/searchbench/lib/golden"
)

// shipped is the dataset the harness ships.
const shipped = "../../testdata/demo/datasets/parser.yaml"

// renderTable is the measurement as a plain text table, for the golden file
// (the harness has its own renderers).
func renderTable(rep Report) string {
	var b bytes.Buffer
	pct := func(p Proportion) string {
		if p.N == 0 {
			return "-"
		}
		return fmt.Sprintf("%3.0f%% [%2.0f–%3.0f] %d/%d", 100*p.Rate, 100*p.Low, 100*p.High, p.K, p.N)
	}
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "row\tkind\tscope\tfields\tclaimed\texact\tprecision\trecall\tfalse extractions\t")
	for _, r := range rep.Rows {
		name := r.Name
		if r.Recommended {
			name += " *"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", name, r.Kind, r.Scope, r.Fields, Claimed(r.Strategy),
			pct(r.Exact), pct(r.Precision), pct(r.Recall), pct(r.FalseExtractions))
	}
	tw.Flush()
	b.WriteString("\n* the seed's recommended configuration\n")
	for _, r := range rep.Rows {
		if len(r.Failures) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n%s (%s, %s): %d failing\n", r.Name, r.Kind, r.Scope, len(r.Failures))
		for _, f := range r.Failures {
			fmt.Fprintf(&b, "  %s: %s\n", f.Case, f.Reason)
		}
	}
	return b.String()
}

// measureShipped measures the shipped dataset.
func measureShipped(t *testing.T) Report {
	t.Helper()
	cases, err := Load(shipped)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Measure(cases)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestMeasureShippedDataset(t *testing.T) {
	rep := measureShipped(t)
	golden.Check(t, filepath.Join("testdata", "measured.golden"), []byte(renderTable(rep)))
	js, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "measured.json.golden"), append(js, '\n'))

	// Same input, same bytes.
	js2, _ := json.MarshalIndent(measureShipped(t), "", "  ")
	if !bytes.Equal(js, js2) {
		t.Error("Measure is not deterministic")
	}
}

// TestREADMEFormsTable: the README's table of forms written by others is
// the measurement, row for row.
func TestREADMEFormsTable(t *testing.T) {
	rep := measureShipped(t)
	readme, err := os.ReadFile("../../docs/assistant.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, tag := range FormTags {
		row := "| " + strings.TrimPrefix(tag, "form:") + " |"
		n := 0
		for _, r := range rep.Rows {
			if r.Kind == KindForm && r.Form == tag {
				n = r.Cases
				row += fmt.Sprintf(" %d/%d |", r.Exact.K, r.Exact.N)
			}
		}
		row = strings.Replace(row, " |", fmt.Sprintf(" | %d |", n), 1)
		if n == 0 {
			t.Errorf("form %s has no case in %s", tag, shipped)
		}
		if !strings.Contains(string(readme), "\n"+row+"\n") {
			t.Errorf("docs/assistant.md's forms table has no row %q", row)
		}
	}
}
