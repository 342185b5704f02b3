package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/jstemmer/go-junit-report/v2/junit"
)

// JUnitWriter writes a JUnit XML report for CI dashboards: one testsuite per
// dataset and one testcase per case and (non-measure) scorer, named
// "<id> [<scorer>]". A failing testcase's message is its first failing
// check; its text lists every failing check with expected, got, reason and
// diff. A case that could not run reports its scorers' testcases as
// <error> (or one "<id> [run]" testcase when it has no results).
//
// XML needs each suite's counts before its testcases, so the writer keeps
// the testcases (names and failure texts, not traces) until End.
type JUnitWriter struct {
	w      io.Writer
	meta   Meta
	suites []*junit.Testsuite
	index  map[string]*junit.Testsuite
}

// NewJUnit returns a JUnitWriter writing to w.
func NewJUnit(w io.Writer) *JUnitWriter {
	return &JUnitWriter{w: w, index: map[string]*junit.Testsuite{}}
}

// Begin implements Writer.
func (j *JUnitWriter) Begin(m Meta) error {
	j.meta = m
	return nil
}

// Case implements Writer.
func (j *JUnitWriter) Case(rec *CaseRecord) error {
	suite := j.index[rec.Dataset]
	if suite == nil {
		suite = &junit.Testsuite{Name: rec.Dataset, ID: len(j.suites), Time: "0"}
		suite.AddProperty("variant", j.meta.Variant)
		suite.AddProperty("mode", j.meta.Mode)
		j.index[rec.Dataset] = suite
		j.suites = append(j.suites, suite)
	}
	n := 0
	for _, r := range rec.Scores {
		if r.Measure {
			continue
		}
		n++
		tc := junit.Testcase{Name: fmt.Sprintf("%s [%s]", rec.ID, r.Scorer), Classname: rec.Dataset}
		var failing []string
		first := ""
		for _, c := range r.Checks {
			if c.Pass {
				continue
			}
			if first == "" {
				first = fmt.Sprintf("%s: expected %s, got %s", c.Name, c.Expected, c.Got)
			}
			failing = append(failing, checkText(c.Name, c.Expected, c.Got, c.Reason, c.Diff))
		}
		switch {
		case rec.Error != "":
			tc.Error = &junit.Result{Message: xmlSafe(rec.Error), Type: "error",
				Data: xmlSafe(strings.Join(append([]string{rec.Error}, failing...), "\n\n"))}
		case !r.Pass:
			tc.Failure = &junit.Result{Message: xmlSafe(first), Type: "failure",
				Data: xmlSafe(strings.Join(failing, "\n\n"))}
		}
		suite.AddTestcase(tc)
	}
	if n == 0 && rec.Error != "" {
		suite.AddTestcase(junit.Testcase{Name: rec.ID + " [run]", Classname: rec.Dataset,
			Error: &junit.Result{Message: xmlSafe(rec.Error), Type: "error", Data: xmlSafe(rec.Error)}})
	}
	return nil
}

// End implements Writer.
func (j *JUnitWriter) End(Summary) error {
	ts := junit.Testsuites{Name: "searchbench"}
	for _, s := range j.suites {
		ts.AddSuite(*s)
	}
	return ts.WriteXML(j.w)
}

func checkText(name, expected, got, reason, diff string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n  expected: %s\n  got:      %s", name, expected, got)
	if reason != "" {
		fmt.Fprintf(&b, "\n  reason:   %s", reason)
	}
	if diff != "" {
		fmt.Fprintf(&b, "\n  diff:\n%s", strings.TrimRight(diff, "\n"))
	}
	return b.String()
}

// xmlSafe replaces characters XML 1.0 cannot carry. Diffs already show
// invisible characters in visible notation; this catches the rest.
func xmlSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == 0x09 || r == 0x0A || r == 0x0D,
			r >= 0x20 && r <= 0xD7FF,
			r >= 0xE000 && r <= 0xFFFD,
			r >= 0x10000 && r <= 0x10FFFF:
			return r
		}
		return '\uFFFD'
	}, s)
}

var _ Writer = (*JUnitWriter)(nil)
