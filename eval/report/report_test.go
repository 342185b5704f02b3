package report_test

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/report/reporttest"
	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/lib/golden"
	"github.com/searchbench/searchbench/lib/textdiff"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// render writes the fixed run through w.
func render(t *testing.T, mk func(*bytes.Buffer) report.Writer) []byte {
	t.Helper()
	meta, recs := reporttest.Run()
	var buf bytes.Buffer
	w := mk(&buf)
	if err := report.Write(w, &report.Report{Meta: meta, Cases: recs, Summary: reporttest.Summary(recs)}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

var writers = []struct {
	name string
	mk   func(*bytes.Buffer) report.Writer
}{
	{"run.json", func(b *bytes.Buffer) report.Writer { return report.NewJSON(b) }},
	{"run.txt", func(b *bytes.Buffer) report.Writer {
		return report.NewTerminal(b, report.TextOptions{JSONPath: "reports/latest/report.json", Verbose: true})
	}},
	{"run.md", func(b *bytes.Buffer) report.Writer { return report.NewMarkdown(b, report.TextOptions{}) }},
	{"run.xml", func(b *bytes.Buffer) report.Writer { return report.NewJUnit(b) }},
	{"run-2-failures.txt", func(b *bytes.Buffer) report.Writer {
		return report.NewTerminal(b, report.TextOptions{MaxFailures: 2, JSONPath: "reports/latest/report.json", Verbose: true})
	}},
}

func TestGolden(t *testing.T) {
	for _, w := range writers {
		t.Run(w.name, func(t *testing.T) {
			first := render(t, w.mk)
			golden.Check(t, filepath.Join("testdata", w.name), first)
			if second := render(t, w.mk); !bytes.Equal(first, second) {
				t.Errorf("two renderings of the same run differ")
			}
		})
	}
}

func TestTruncatedFailures(t *testing.T) {
	out := string(render(t, writers[4].mk))
	if !strings.Contains(out, "more failing check(s) not shown; every check is in reports/latest/report.json") {
		t.Errorf("truncated report does not say where the rest is:\n%s", out)
	}
}

func TestJSONRoundTrip(t *testing.T) {
	meta, recs := reporttest.Run()
	data := reporttest.JSON(meta, recs)
	rep, err := report.ReadAll("run.json", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Cases) != len(recs) {
		t.Fatalf("read %d cases, want %d", len(rep.Cases), len(recs))
	}
	var again bytes.Buffer
	if err := report.Write(report.NewJSON(&again), rep); err != nil {
		t.Fatal(err)
	}
	if m := textdiff.Compare(string(data), again.String()); m != nil {
		t.Errorf("read-then-written report differs: %s\n%s", m, m.Diff)
	}
	// Re-aggregating the records read back gives the same summary bytes.
	rep.Summary = reporttest.Summary(rep.Cases)
	again.Reset()
	if err := report.Write(report.NewJSON(&again), rep); err != nil {
		t.Fatal(err)
	}
	if m := textdiff.Compare(string(data), again.String()); m != nil {
		t.Errorf("re-aggregated report differs: %s\n%s", m, m.Diff)
	}
}

func TestScannerErrors(t *testing.T) {
	meta, recs := reporttest.Run()
	good := string(reporttest.JSON(meta, recs))
	tests := []struct {
		name, data, want string
	}{
		{"empty", "", `want "{"`},
		{"not a report", `{"foo": 1}`, `want key "meta"`},
		{"other version", strings.Replace(good, `"schema_version":1`, `"schema_version":99`, 1), "schema_version 99"},
		{"truncated cases", good[:len(good)/2], "run.json: byte"},
		{"no summary", good[:strings.Index(good, `"summary"`)], `want key "summary"`},
		{"trailing data", good + "{}", "data after the end"},
		{"bad case", strings.Replace(good, `"seq":3`, `"seq":"three"`, 1), "case after case routing/alignment-since-2018"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := report.ReadAll("run.json", strings.NewReader(tt.data))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestCaseRecord(t *testing.T) {
	c := &dataset.Case{Dataset: "routing", ID: "x", Kind: "routing"}
	pass := score.Result{Scorer: "routing", Pass: true}
	fail := score.Result{Scorer: "routing", Pass: false}
	measure := score.Result{Scorer: "cost", Pass: true, Measure: true}
	failedTurn := &trace.Session{Turns: []trace.Turn{{Phase: "phase1"}, {Phase: "phase2", Error: "cassette miss"}}}
	tests := []struct {
		name      string
		sess      *trace.Session
		results   []score.Result
		runErr    error
		pass      bool
		wantError string
	}{
		{"all pass", nil, []score.Result{pass, measure}, nil, true, ""},
		{"a failure", nil, []score.Result{pass, fail}, nil, false, ""},
		{"run error", nil, []score.Result{pass}, errors.New("boom"), false, "boom"},
		{"turn error", failedTurn, []score.Result{pass}, nil, false, "turn 2: cassette miss"},
		{"no results", nil, nil, nil, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := report.NewCaseRecord(3, &score.Input{Case: c, Session: tt.sess}, tt.results, tt.runErr)
			if r.Pass != tt.pass || r.Error != tt.wantError || r.Seq != 3 || r.Key != "routing/x" {
				t.Errorf("record = %+v, want pass %v error %q", r, tt.pass, tt.wantError)
			}
			if r.Scores == nil {
				t.Errorf("Scores is nil; JSON would say null")
			}
		})
	}
}

func TestSummarize(t *testing.T) {
	s := &trace.Session{Turns: []trace.Turn{
		{Input: "what is x", Phase: trace.Phase1},
		{Input: "yes", Phase: trace.Phase2, Intent: "YES", Route: trace.RouteTavilyOnly, Output: reporttest.OKMessage(),
			ToolCalls: []trace.ToolCall{{Tool: trace.ToolTavily, Status: trace.CallOK}, {Tool: trace.ToolTavily, Status: trace.CallError},
				{Tool: trace.ToolTavily, Status: trace.CallLimited}}},
	}}
	got := report.Summarize(s)
	want := []report.TurnSummary{
		{Input: "what is x", Phase: "phase1"},
		{Input: "yes", Phase: "phase2", Intent: "YES", Route: "tavily_only", Sent: 2, Refused: 1, ErrorCode: "NONE"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d turns", len(got))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("turn %d = %+v, want %+v", i+1, got[i], want[i])
		}
	}
	if report.Summarize(nil) != nil {
		t.Errorf("Summarize(nil) != nil")
	}
}

func TestAggregateCountsAndOrder(t *testing.T) {
	_, recs := reporttest.Run()
	a := report.NewAggregate(score.All())
	for _, r := range recs {
		a.Add(r)
	}
	// A result from a scorer this build does not know is still counted.
	a.Add(&report.CaseRecord{CaseInfo: score.CaseInfo{Key: "p/1"}, Pass: true, Scores: []score.Result{
		{Scorer: "zz_new", Pass: true, Checks: []score.Check{{Name: "c", Metric: "zz_new.rate", Pass: true}}}}})
	a.AddSection(score.Summary{Metrics: []score.Metric{{Name: "parser.extra", Value: 1.0 / 3, Unit: score.UnitScore}}})
	s := a.Summary()
	if s.Cases != 11 || s.Passed != 6 || s.Failed != 4 || s.Errors != 1 {
		t.Errorf("counts = %d cases %d passed %d failed %d errors", s.Cases, s.Passed, s.Failed, s.Errors)
	}
	order := map[string]int{}
	for i, sc := range score.All() {
		order[sc.Name()] = i
	}
	order["zz_new"], order["parser"] = 100, 101
	last, lastName := -1, ""
	for _, m := range s.Metrics {
		prefix, _, _ := strings.Cut(m.Name, ".")
		o := order[prefix]
		if o < last || (o == last && m.Name < lastName) {
			t.Errorf("metric %s out of order after %s", m.Name, lastName)
		}
		last, lastName = o, m.Name
	}
	if got := s.Metrics[len(s.Metrics)-1]; got.Name != "parser.extra" || got.Value != 0.333333 {
		t.Errorf("extra section metric = %+v (want last, rounded to 6 places)", got)
	}
}

func TestJUnitValidatesAgainstTheJUnit10Schema(t *testing.T) {
	for _, name := range []string{"run.xml"} {
		reporttest.ValidateJUnit(t, filepath.Join("testdata", name))
	}
}
