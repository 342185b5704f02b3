package report_test

import (
	"bytes"
	"testing"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/report/reporttest"
)

// FuzzScanner feeds arbitrary bytes to the report reader: it must never
// panic, and whatever it accepts must survive a write-and-read round trip
// unchanged.
func FuzzScanner(f *testing.F) {
	meta, recs := reporttest.Run()
	f.Add(reporttest.JSON(meta, recs))
	f.Add(reporttest.JSON(meta, nil))
	f.Add([]byte(`{"meta":{"schema_version":1},"cases":[],"summary":{"cases":0,"passed":0,"failed":0,"errors":0,"metrics":[]}}`))
	f.Add([]byte(`{"meta":{"schema_version":1},"cases":[{"seq":1,"key":"a/b","scores":[{"scorer":"x","pass":false,"checks":[{"name":"n","metric":"x.m"}]}]}],"summary":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rep, err := report.ReadAll("fuzz.json", bytes.NewReader(data))
		if err != nil {
			return
		}
		var first bytes.Buffer
		if err := report.Write(report.NewJSON(&first), rep); err != nil {
			return // e.g. a value JSON cannot encode back; reading must still not panic
		}
		rep2, err := report.ReadAll("again.json", bytes.NewReader(first.Bytes()))
		if err != nil {
			t.Fatalf("re-reading a written report: %v\n%s", err, first.Bytes())
		}
		var second bytes.Buffer
		if err := report.Write(report.NewJSON(&second), rep2); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first.Bytes(), second.Bytes()) {
			t.Fatalf("round trip not stable:\n%s\n%s", first.Bytes(), second.Bytes())
		}
		// The text writers must handle anything the reader accepts.
		for _, w := range []report.Writer{report.NewTerminal(&bytes.Buffer{}, report.TextOptions{}),
			report.NewMarkdown(&bytes.Buffer{}, report.TextOptions{}), report.NewJUnit(&bytes.Buffer{})} {
			if err := report.Write(w, rep2); err != nil {
				t.Fatalf("%T: %v", w, err)
			}
		}
	})
}
