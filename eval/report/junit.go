package report

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"os"
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
// XML needs each suite's counts before its testcases, so each testcase is
// encoded as its case arrives and spilled to a temporary file per suite;
// End writes the suites' headers and copies their testcases after them. A
// run of any size keeps only the counts in memory.
type JUnitWriter struct {
	w      io.Writer
	meta   Meta
	suites []*junitSuite
	index  map[string]*junitSuite
	err    error
}

// junitSuite is a testsuite's header and counts, and where its encoded
// testcases wait for End.
type junitSuite struct {
	junit.Testsuite // Testcases stays empty
	spill           *os.File
	buf             *bufio.Writer
	removed         bool // the spill file is already unlinked
}

// NewJUnit returns a JUnitWriter writing to w.
func NewJUnit(w io.Writer) *JUnitWriter {
	return &JUnitWriter{w: w, index: map[string]*junitSuite{}}
}

// Begin implements Writer.
func (j *JUnitWriter) Begin(m Meta) error {
	j.meta = m
	return nil
}

// Case implements Writer.
func (j *JUnitWriter) Case(rec *CaseRecord) error {
	if j.err != nil {
		return j.err
	}
	suite := j.index[rec.Dataset]
	if suite == nil {
		suite = &junitSuite{Testsuite: junit.Testsuite{Name: rec.Dataset, ID: len(j.suites), Time: "0"}}
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
		j.add(suite, tc)
	}
	if n == 0 && rec.Error != "" {
		j.add(suite, junit.Testcase{Name: rec.ID + " [run]", Classname: rec.Dataset,
			Error: &junit.Result{Message: xmlSafe(rec.Error), Type: "error", Data: xmlSafe(rec.Error)}})
	}
	if j.err != nil {
		return fmt.Errorf("junit: case %s: %w", rec.Key, j.err)
	}
	return nil
}

// add counts tc as Testsuite.AddTestcase does and spills its XML: a new
// line, then the element indented as it is at its depth in the document.
func (j *JUnitWriter) add(s *junitSuite, tc junit.Testcase) {
	s.Tests++
	if tc.Error != nil {
		s.Errors++
	}
	if tc.Failure != nil {
		s.Failures++
	}
	if tc.Skipped != nil {
		s.Skipped++
	}
	if j.err != nil {
		return
	}
	if s.spill == nil {
		f, err := os.CreateTemp("", "searchbench-junit-*.xml")
		if err != nil {
			j.err = err
			return
		}
		// Unlinked at once where the system allows it, so an interrupted
		// run leaves nothing behind; End removes it otherwise.
		s.spill, s.buf, s.removed = f, bufio.NewWriterSize(f, 64<<10), os.Remove(f.Name()) == nil
	}
	s.buf.WriteByte('\n')
	enc := xml.NewEncoder(s.buf)
	enc.Indent("\t\t", "\t")
	if err := enc.EncodeElement(tc, xml.StartElement{Name: xml.Name{Local: "testcase"}}); err != nil {
		j.err = err
		return
	}
	j.err = enc.Flush()
}

// End implements Writer.
func (j *JUnitWriter) End(Summary) error {
	defer j.cleanup()
	if j.err != nil {
		return j.err
	}
	// The document without testcases, then each suite's testcases spliced
	// in before its closing tag (every suite has properties, so its
	// closing tag is on a line of its own).
	ts := junit.Testsuites{Name: "searchbench"}
	for _, s := range j.suites {
		ts.AddSuite(s.Testsuite)
	}
	var skel bytes.Buffer
	if err := ts.WriteXML(&skel); err != nil {
		return err
	}
	const closing = "\n\t</testsuite>"
	parts := strings.Split(skel.String(), closing)
	if len(parts) != len(j.suites)+1 {
		return fmt.Errorf("junit: %d suites but %d closing tags", len(j.suites), len(parts)-1)
	}
	for i, s := range j.suites {
		if _, err := io.WriteString(j.w, parts[i]); err != nil {
			return err
		}
		if s.spill != nil {
			if err := s.buf.Flush(); err != nil {
				return err
			}
			if _, err := s.spill.Seek(0, io.SeekStart); err != nil {
				return err
			}
			if _, err := io.Copy(j.w, s.spill); err != nil {
				return err
			}
		}
		if _, err := io.WriteString(j.w, closing); err != nil {
			return err
		}
	}
	_, err := io.WriteString(j.w, parts[len(parts)-1])
	return err
}

func (j *JUnitWriter) cleanup() {
	for _, s := range j.suites {
		if s.spill != nil {
			s.spill.Close()
			if !s.removed {
				os.Remove(s.spill.Name())
			}
			s.spill = nil
		}
	}
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
