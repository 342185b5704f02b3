package report_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/report/reporttest"
)

// TestRenderSideBySide: Render hands a Multi's writers the report on
// goroutines of their own; each output is the one it writes alone, and
// the gate reaches every writer that takes one.
func TestRenderSideBySide(t *testing.T) {
	meta, recs := reporttest.Run()
	src := report.Bytes("report.json", reporttest.JSON(meta, recs))
	g := &report.Gate{Verdict: report.VerdictPass, Line: "gate: PASS — 1 threshold checked"}

	alone := make([][]byte, len(writers))
	for i, w := range writers {
		var buf bytes.Buffer
		if err := report.Render(src, g, w.mk(&buf)); err != nil {
			t.Fatalf("%s: %v", w.name, err)
		}
		alone[i] = buf.Bytes()
	}
	bufs := make([]bytes.Buffer, len(writers))
	var ws []report.Writer
	for i, w := range writers {
		ws = append(ws, w.mk(&bufs[i]))
	}
	if err := report.Render(src, g, report.Multi(ws...)); err != nil {
		t.Fatal(err)
	}
	for i, w := range writers {
		if !bytes.Equal(bufs[i].Bytes(), alone[i]) {
			t.Errorf("%s: written beside the others, it differs from the output written alone", w.name)
		}
		if i == 0 && !bytes.Contains(alone[i], []byte(`"gate": {"verdict":"PASS"`)) {
			t.Errorf("%s: the gate did not reach the writer:\n%s", w.name, alone[i])
		}
	}
}

// failing fails at its nth call of Case (from 1), or at End when n is 0.
type failing struct {
	n, cases int
	ended    bool
}

func (f *failing) Begin(report.Meta) error { return nil }
func (f *failing) Case(r *report.CaseRecord) error {
	f.cases++
	if f.cases == f.n {
		return fmt.Errorf("disk full writing %s", r.Key)
	}
	return nil
}
func (f *failing) End(report.Summary) error {
	f.ended = true
	if f.n == 0 {
		return errors.New("disk full at the end")
	}
	return nil
}

// TestRenderSideBySideFails: an error from one writer ends the rendering
// with that error, whichever writer it came from and whenever it came.
func TestRenderSideBySideFails(t *testing.T) {
	meta, recs := reporttest.Run()
	src := report.Bytes("report.json", reporttest.JSON(meta, recs))
	for _, tc := range []struct {
		n    int
		want string
	}{
		{1, "disk full writing " + recs[0].Key},
		{len(recs), "disk full writing " + recs[len(recs)-1].Key},
		{0, "disk full at the end"},
	} {
		for pos := range 2 {
			var buf bytes.Buffer
			f := &failing{n: tc.n}
			ws := []report.Writer{report.NewJSON(&buf)}
			ws = append(ws[:pos], append([]report.Writer{f}, ws[pos:]...)...)
			err := report.Render(src, nil, report.Multi(ws...))
			if err == nil || err.Error() != tc.want {
				t.Errorf("failing at %d, writer %d: Render = %v, want %q", tc.n, pos, err, tc.want)
			}
			if tc.n != 0 && f.ended {
				t.Errorf("failing at %d, writer %d: a failed writer was ended", tc.n, pos)
			}
		}
	}
}

// TestEncodedRecordsWriteTheSameBytes: a record encoded ahead (on a
// run's worker) is written exactly as one the writers encode themselves.
func TestEncodedRecordsWriteTheSameBytes(t *testing.T) {
	write := func(encode bool) (js, traces []byte) {
		meta, recs := reporttest.Run()
		var jb, tb bytes.Buffer
		w := report.Multi(report.NewJSON(&jb), report.NewTraces(&tb, nil))
		if err := w.Begin(meta); err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if encode {
				if err := r.Encode(); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Case(r); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.End(reporttest.Summary(recs)); err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(&tb)
		if err != nil {
			t.Fatal(err)
		}
		var plain bytes.Buffer
		if _, err := plain.ReadFrom(zr); err != nil {
			t.Fatal(err)
		}
		return jb.Bytes(), plain.Bytes()
	}
	js, tr := write(false)
	ejs, etr := write(true)
	if !bytes.Equal(js, ejs) {
		t.Errorf("report.json differs when the records are encoded ahead:\n%s\n---\n%s", js, ejs)
	}
	if !bytes.Equal(tr, etr) {
		t.Errorf("traces differ when the records are encoded ahead:\n%s\n---\n%s", tr, etr)
	}
	if _, recs := reporttest.Run(); strings.Count(string(tr), "\n") != len(recs) {
		t.Errorf("%d trace lines, want one per case (%d)", strings.Count(string(tr), "\n"), len(recs))
	}
}
