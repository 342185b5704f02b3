package report_test

import (
	"bytes"
	"encoding/xml"
	"os"
	"testing"

	"github.com/jstemmer/go-junit-report/v2/junit"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/report/reporttest"
)

// TestJUnitStreams: the writer spills testcases to temporary files and
// leaves none behind, and its document reads back with the counts and
// testcases of every suite.
func TestJUnitStreams(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	meta, recs := reporttest.Run()
	var buf bytes.Buffer
	w := report.NewJUnit(&buf)
	if err := report.Write(w, &report.Report{Meta: meta, Cases: recs, Summary: reporttest.Summary(recs)}); err != nil {
		t.Fatal(err)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("%d temporary file(s) left behind", len(left))
	}
	var doc junit.Testsuites
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("not XML: %v\n%s", err, buf.Bytes())
	}
	total := 0
	for _, s := range doc.Suites {
		failures := 0
		for _, tc := range s.Testcases {
			if tc.Failure != nil {
				failures++
			}
		}
		if s.Tests != len(s.Testcases) || s.Failures != failures {
			t.Errorf("suite %s: header says %d tests, %d failures; holds %d, %d", s.Name, s.Tests, s.Failures, len(s.Testcases), failures)
		}
		total += s.Tests
	}
	if total == 0 || doc.Tests != total {
		t.Errorf("document says %d tests, suites hold %d", doc.Tests, total)
	}
}

// TestJUnitEmpty: a run without cases is a document without suites.
func TestJUnitEmpty(t *testing.T) {
	var buf bytes.Buffer
	if err := report.Write(report.NewJUnit(&buf), &report.Report{}); err != nil {
		t.Fatal(err)
	}
	if got, want := buf.String(), "<testsuites name=\"searchbench\"></testsuites>\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
