package report

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/jstemmer/go-junit-report/v2/junit"

	"github.com/searchbench/searchbench/eval/score"
)

// JUnitWriter writes a JUnit XML report for CI dashboards: one testsuite per
// dataset and one testcase per case and non-measure scorer that may judge a
// case of its kind, named "<id> [<scorer>]" — the same names whether the
// case ran, errored (every testcase <error>) or a scorer did not apply to
// it this time (<skipped>), so CI history tools never see tests come and
// go. A failing testcase's message is its first failing check; its text
// lists every failing check with expected, got, reason and diff. In a gated
// report, see SetGate.
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

	gate     *Gate
	violated map[string]map[string]bool // case → scorer ("*": every one) with a violation
	rateDrop map[string]string          // case \x00 scorer → message \x00 explanation of a rate_drop violation
	known    map[string]bool
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
	if u := m.Unplayable; u != nil {
		// The first testcase of the document: what cannot replay and the
		// command that re-records it, before any case's outcome.
		j.add(j.suite("cassettes"), junit.Testcase{Name: "replayable", Classname: "cassettes",
			Failure: &junit.Result{Message: xmlSafe(u.Summary()), Type: "cassettes", Data: xmlSafe(strings.Join(u.Cases, "\n"))}})
	}
	return j.err
}

// SetGate implements GateSetter. A gated report means the gate: a failing
// testcase is a <failure> only when the verdict holds a violation for it
// (a flip, a new failure, an edited case); one that failed in the baseline
// too is <skipped> as a known failure. A "gate" suite holds the verdict.
func (j *JUnitWriter) SetGate(g *Gate) {
	j.gate = g
	j.violated = map[string]map[string]bool{}
	j.rateDrop = nil
	j.known = map[string]bool{}
	if g == nil {
		return
	}
	for _, k := range g.Known {
		j.known[k] = true
	}
	for _, v := range g.Violations {
		if v.Case == "" {
			continue
		}
		m := j.violated[v.Case]
		if m == nil {
			m = map[string]bool{}
			j.violated[v.Case] = m
		}
		switch v.Kind {
		case "rate_drop":
			// A sampled case's pass rate fell: the testcase fails even
			// when its first sample passed.
			m[v.Metric] = true
			if j.rateDrop == nil {
				j.rateDrop = map[string]string{}
			}
			j.rateDrop[v.Case+"\x00"+v.Metric] = fmt.Sprintf("pass rate fell: %s, got %s", v.Want, v.Got) + "\x00" + v.Explanation
		case "flip", "improved", "stale": // "stale": an improvement, in reports written before the rename
			m[v.Metric] = true
		default: // new_failure, edited, removed: the whole case
			m["*"] = true
		}
	}
}

// scorersFor returns the non-measure scorers that may judge a case of
// kind, in report order: every case gets the same testcases whether it
// ran, errored, or a scorer did not apply to it this time.
func scorersFor(kind string) []string {
	var out []string
	for _, s := range score.All() {
		d := s.Declare()
		if !d.Measure && slices.Contains(d.Kinds, kind) {
			out = append(out, s.Name())
		}
	}
	return out
}

// Case implements Writer.
func (j *JUnitWriter) Case(rec *CaseRecord) error {
	if j.err != nil {
		return j.err
	}
	suite := j.suite(rec.Dataset)
	results := map[string]*score.Result{}
	names := scorersFor(rec.Kind)
	for i := range rec.Scores {
		r := &rec.Scores[i]
		if r.Measure {
			continue
		}
		results[r.Scorer] = r
		if !slices.Contains(names, r.Scorer) {
			names = append(names, r.Scorer) // a scorer this build does not know
		}
	}
	for _, name := range names {
		tc := junit.Testcase{Name: fmt.Sprintf("%s [%s]", rec.ID, name), Classname: rec.Dataset}
		r := results[name]
		var failing []string
		first := ""
		if r != nil {
			for _, c := range r.Checks {
				if c.Pass {
					continue
				}
				if first == "" {
					first = fmt.Sprintf("%s: expected %s, got %s", c.Name, c.Expected, c.Got)
				}
				failing = append(failing, checkText(c.Name, c.Expected, c.Got, c.Reason, c.Diff))
			}
		}
		drop, dropped := j.rateDrop[rec.Key+"\x00"+name]
		switch {
		case dropped:
			msg, data, _ := strings.Cut(drop, "\x00")
			tc.Failure = &junit.Result{Message: xmlSafe(msg), Type: "failure", Data: xmlSafe(data)}
		case rec.Error != "":
			tc.Error = &junit.Result{Message: xmlSafe(firstLine(rec.Error)), Type: "error",
				Data: xmlSafe(strings.Join(append([]string{rec.Error}, failing...), "\n\n"))}
		case r == nil:
			tc.Skipped = &junit.Result{Message: "not applicable: the " + name + " scorer did not apply to this case in this run"}
		case r.Pass:
		case j.gate != nil && !j.violated[rec.Key][name] && !j.violated[rec.Key]["*"]:
			why := "allowed by the gate (" + j.gate.Gates + "): not a regression"
			if j.known[rec.Key] {
				why = "known failure: failed in the baseline too, not a regression"
			}
			tc.Skipped = &junit.Result{Message: xmlSafe(why + "; " + first), Data: xmlSafe(strings.Join(failing, "\n\n"))}
		default:
			tc.Failure = &junit.Result{Message: xmlSafe(first), Type: "failure",
				Data: xmlSafe(strings.Join(failing, "\n\n"))}
		}
		j.add(suite, tc)
	}
	if j.err != nil {
		return fmt.Errorf("junit: case %s: %w", rec.Key, j.err)
	}
	return nil
}

func (j *JUnitWriter) suite(name string) *junitSuite {
	suite := j.index[name]
	if suite == nil {
		suite = &junitSuite{Testsuite: junit.Testsuite{Name: name, ID: len(j.suites), Time: "0"}}
		suite.AddProperty("variant", j.meta.Variant)
		suite.AddProperty("mode", j.meta.Mode)
		j.index[name] = suite
		j.suites = append(j.suites, suite)
	}
	return suite
}

func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
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
	if g := j.gate; g != nil {
		// The verdict as a testcase of its own: a CI dashboard shows the
		// gate's failure even when it is a threshold, not a case.
		tc := junit.Testcase{Name: "verdict", Classname: "gate"}
		if !g.Pass() {
			var lines []string
			for _, v := range g.Violations {
				lines = append(lines, fmt.Sprintf("%s %s %s: want %s, got %s — %s", v.Kind, v.Metric, v.Case, v.Want, v.Got, v.Explanation))
			}
			tc.Failure = &junit.Result{Message: xmlSafe(g.Line), Type: "gate", Data: xmlSafe(strings.Join(lines, "\n"))}
		}
		j.add(j.suite("gate"), tc)
		if j.err != nil {
			return j.err
		}
	}
	// The document without testcases, then each suite's testcases spliced
	// in before its closing tag (every suite has properties, so its
	// closing tag is on a line of its own).
	ts := junit.Testsuites{Name: "searchbench"}
	for _, s := range j.suites {
		ts.AddSuite(s.Testsuite)
	}
	// The junit-10 schema (Jenkins xUnit) has no skipped count on
	// <testsuites>; each <testsuite> carries its own.
	ts.Skipped = 0
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
