package compare

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/report/reporttest"
	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/lib/golden"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// routingRun builds a run of variant with one exa_only routing case per
// entry of right: true routes it correctly, false misroutes to Tavily.
func routingRun(variant string, right []bool) report.Source {
	ok := reporttest.OKMessage()
	var recs []*report.CaseRecord
	for i, r := range right {
		tool := trace.ToolTavily
		if r {
			tool = trace.ToolExa
		}
		recs = append(recs, reporttest.Routing(i, fmt.Sprintf("q%02d", i), "exa_only", ok, tool))
	}
	return report.Bytes(variant+".json", reporttest.JSON(reporttest.Meta(variant), recs))
}

// outcomes returns n outcomes: the first pass cases true.
func pattern(specs ...[2]int) (a, b []bool) {
	// Each spec {count, kind}: kind 0 both pass, 1 A pass B fail, 2 A fail
	// B pass, 3 both fail.
	for _, s := range specs {
		for range s[0] {
			a = append(a, s[1] == 0 || s[1] == 1)
			b = append(b, s[1] == 0 || s[1] == 2)
		}
	}
	return a, b
}

func row(t *testing.T, r *Result, metric string) Row {
	t.Helper()
	for _, x := range r.Rows {
		if x.Metric == metric {
			return x
		}
	}
	t.Fatalf("no row %s", metric)
	return Row{}
}

func TestMcNemarRows(t *testing.T) {
	tests := []struct {
		name          string
		specs         [][2]int
		worse, better int
		p             float64
		delta         string
	}{
		{"ten regressions, one fix", [][2]int{{5, 0}, {10, 1}, {1, 2}}, 10, 1, 0.01171875, "-56.2 pp"},
		{"balanced flips", [][2]int{{5, 0}, {3, 1}, {3, 2}}, 3, 3, 1, "~"},
		{"no change", [][2]int{{4, 0}, {2, 3}}, 0, 0, 1, "~"},
		{"six fixes", [][2]int{{6, 2}}, 0, 6, 0.03125, "+100.0 pp"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := pattern(tt.specs...)
			r, err := Compare(routingRun("seed", a), routingRun("routing-examples", b))
			if err != nil {
				t.Fatal(err)
			}
			x := row(t, r, "routing.accuracy")
			if !x.Paired || x.Worse != tt.worse || x.Better != tt.better || x.Pairs != len(a) {
				t.Errorf("row = %+v", x)
			}
			if d := x.P - tt.p; d > 1e-12 || d < -1e-12 {
				t.Errorf("p = %v, want %v", x.P, tt.p)
			}
			if got := delta(x); got != tt.delta {
				t.Errorf("delta = %q, want %q", got, tt.delta)
			}
			if got := delta(row(t, r, "cost.tokens")); got != "0.0%" {
				t.Errorf("cost delta = %q", got)
			}
			if got := pValue(row(t, r, "cost.tokens")); got != "–" {
				t.Errorf("unpaired p = %q", got)
			}
			if len(r.Flips) != tt.worse+tt.better {
				t.Errorf("flips = %d, want %d", len(r.Flips), tt.worse+tt.better)
			}
		})
	}
}

func TestFlips(t *testing.T) {
	a, b := pattern([2]int{1, 0}, [2]int{1, 1}, [2]int{1, 2})
	r, err := Compare(routingRun("seed", a), routingRun("seed", b))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Flips) != 2 {
		t.Fatalf("flips = %+v", r.Flips)
	}
	f := r.Flips[0]
	if f.Case != "routing/q01" || !f.ToFail || len(f.Checks) != 1 {
		t.Fatalf("flip = %+v", f)
	}
	want := CheckChange{Check: "routing: route", A: "pass: exa_only", B: "fail: tavily_only"}
	if f.Checks[0] != want {
		t.Errorf("change = %+v, want %+v", f.Checks[0], want)
	}
	if r.Flips[1].ToFail || r.Flips[1].Case != "routing/q02" {
		t.Errorf("second flip = %+v", r.Flips[1])
	}
}

func TestSubsetPairs(t *testing.T) {
	// B covers only some of A's cases, and those are the ones A passes:
	// A's whole-run accuracy (50%) against B's (100%) would be a change of
	// cases, not of behaviour.
	a, _ := pattern([2]int{3, 0}, [2]int{3, 3})
	_, err := Compare(routingRun("seed", a), routingRun("seed", a[:3]))
	var se *SubsetError
	if !errors.As(err, &se) || se.NOnlyA != 3 || se.NOnlyB != 0 || se.Shared != 3 {
		t.Fatalf("different case sets: %v, want a *SubsetError", err)
	}
	for _, want := range []string{"3 case(s) only in A (routing/q03, routing/q04, routing/q05), 0 only in B, 3 in both", "--allow-subset"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	// Long lists are cut with a count; cases only in B are named too.
	_, err = Compare(routingRun("seed", append(a, a...)), routingRun("seed", a[:1]))
	if err == nil || !strings.Contains(err.Error(), "11 case(s) only in A (routing/q01, routing/q02, routing/q03, … and 8 more), 0 only in B, 1 in both") {
		t.Errorf("cut list: %v", err)
	}
	_, err = Compare(routingRun("seed", a[:2]), routingRun("seed", a))
	if err == nil || !strings.Contains(err.Error(), "0 case(s) only in A, 4 only in B (routing/q02, routing/q03, routing/q04, … and 1 more), 2 in both") {
		t.Errorf("only in B: %v", err)
	}

	// Allowed, the shared cases are compared, re-aggregated on both sides.
	r, err := CompareWith(routingRun("seed", a), routingRun("seed", a[:3]), CompareOptions{AllowSubset: true})
	if err != nil {
		t.Fatal(err)
	}
	x := row(t, r, "routing.accuracy")
	if x.Pairs != 3 || r.Shared != 3 || x.A.Value != 1 || x.B.Value != 1 || x.A.Den != 3 {
		t.Errorf("pairs = %d, shared = %d, A %+v, B %+v: want both re-aggregated over the 3 shared cases", x.Pairs, r.Shared, x.A, x.B)
	}
	if h := r.Headline(); !strings.HasPrefix(h[0], "Subset: only the 3 cases both reports hold are compared, every metric re-aggregated over them (--allow-subset; 3 case(s) only in A") {
		t.Errorf("headline %q", h)
	}
}

func TestUnreadable(t *testing.T) {
	a, _ := pattern([2]int{2, 0})
	_, err := Compare(routingRun("seed", a), report.Bytes("b.json", []byte("not json")))
	if err == nil || !strings.Contains(err.Error(), "b.json") {
		t.Errorf("err = %v", err)
	}
}

func TestWriteGolden(t *testing.T) {
	a, b := pattern([2]int{5, 0}, [2]int{10, 1}, [2]int{1, 2}, [2]int{1, 3})
	r, err := Compare(routingRun("seed", a), routingRun("routing-examples", b))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		opt  Options
	}{
		{"compare.txt", Options{}},
		{"compare-verbose.txt", Options{Verbose: true}},
		{"compare-wide.txt", Options{Verbose: true, Width: -1}},
		{"compare.md", Options{Markdown: true}},
	} {
		var buf strings.Builder
		if err := Write(&buf, r, tc.opt); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		golden.Check(t, filepath.Join("testdata", tc.name), []byte(out))
		if tc.opt.Verbose != strings.Contains(out, "│ untested") {
			t.Errorf("%s: verbose %v, but untested rows shown: %v", tc.name, tc.opt.Verbose, !tc.opt.Verbose)
		}
		if !strings.Contains(out, "Cases: 1 fixed (fail→pass), 10 broken (pass→fail), of 17 both reports hold") {
			t.Errorf("%s: no headline of the flips:\n%s", tc.name, out)
		}
		// Under the table: one line of what the columns are and where to
		// read more, one of what is not shown; the full explanation with -v.
		short := "A, B: case-averaged rates; effect: B − A; p: Holm-adjusted. How to read it: docs/statistics.md"
		full := "effect: their mean per-case change, its"
		if tc.opt.Verbose {
			if strings.Contains(out, short) || !strings.Contains(out, full) || strings.Contains(out, "not shown:") {
				t.Errorf("%s: -v does not explain in full:\n%s", tc.name, out)
			}
			continue
		}
		var notes []string
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "A, B: ") || strings.Contains(l, "not shown: ") || strings.HasPrefix(l, "    ") {
				notes = append(notes, l)
			}
		}
		prefix := "  "
		if tc.opt.Markdown {
			prefix = "- "
		}
		want := []string{prefix + short, prefix + "not shown: 22 unchanged, 0 not significant, 5 untested figures that changed; -v shows every row"}
		if strings.Join(notes, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: notes\n%s\nwant\n%s", tc.name, strings.Join(notes, "\n"), strings.Join(want, "\n"))
		}
		for _, n := range notes {
			if len([]rune(n)) > report.DefaultWidth {
				t.Errorf("%s: note wider than %d columns: %q", tc.name, report.DefaultWidth, n)
			}
		}
	}
}

// TestSourceWarnings: a simulator side against a live one, and live sides
// recorded from different models or base URLs, are each warned about; two
// live runs of one model and host are not.
func TestSourceWarnings(t *testing.T) {
	live := func(models, bases []string) report.Meta {
		m := reporttest.Meta("seed")
		m.Backend, m.SimPolicies, m.Models, m.BaseURLs = "live", nil, models, bases
		return m
	}
	sim := reporttest.Meta("seed")
	sim.Backend, sim.SimPolicies = "sim", []string{"seed"}
	mixed := live([]string{"gpt-oss-120b"}, []string{"chat=https://api.cerebras.ai/v1"})
	mixed.Backend = "live+sim"
	cerebras := []string{"chat=https://api.cerebras.ai/v1", "exa=https://api.exa.ai", "tavily=https://api.tavily.com"}
	vllm := []string{"chat=http://10.0.0.7:8000/v1", "exa=https://api.exa.ai", "tavily=https://api.tavily.com"}
	tests := []struct {
		name string
		a, b report.Meta
		want []string // substrings of the warnings, in order; none: no source warning
	}{
		{"sim against live", sim, live([]string{"gpt-oss-120b"}, cerebras), []string{"A replays simulator recordings and B live ones"}},
		{"live against sim", live([]string{"gpt-oss-120b"}, cerebras), sim, []string{"A replays live recordings and B simulator ones"}},
		{"a mix against sim", mixed, sim, []string{"A replays a mix of live and simulator recordings and B simulator ones"}},
		{"other model", live([]string{"gpt-oss-120b"}, cerebras), live([]string{"openai/gpt-oss-20b"}, cerebras),
			[]string{"different models (gpt-oss-120b in A, openai/gpt-oss-20b in B)"}},
		{"other host", live([]string{"gpt-oss-120b"}, cerebras), live([]string{"gpt-oss-120b"}, vllm),
			[]string{"different base URLs (chat=https://api.cerebras.ai/v1, exa=https://api.exa.ai, tavily=https://api.tavily.com in A, chat=http://10.0.0.7:8000/v1"}},
		{"same source", live([]string{"gpt-oss-120b"}, cerebras), live([]string{"gpt-oss-120b"}, cerebras), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.a.VariantHash, tt.b.VariantHash = "a", "b"
			ws := strings.Join(warnings(tt.a, tt.b), "\n")
			for _, w := range tt.want {
				if !strings.Contains(ws, w) {
					t.Errorf("warnings lack %q:\n%s", w, ws)
				}
			}
			if tt.want == nil && ws != "" {
				t.Errorf("unexpected warnings:\n%s", ws)
			}
			if tt.name == "other host" && strings.Contains(ws, "different models") {
				t.Errorf("same models warned about:\n%s", ws)
			}
		})
	}
}

// A headline naming many significant changes names the first few and
// counts the rest.
func TestHeadlineCutsALongList(t *testing.T) {
	r := &Result{}
	for i := range maxHeadlineChanges + 3 {
		m := score.Metric{Name: fmt.Sprintf("m%d", i), Unit: score.UnitRate, Value: 0.5, Num: 5, Den: 10, Paired: true}
		r.Rows = append(r.Rows, Row{Metric: m.Name, A: &m, B: &m, Paired: true, Pairs: 10, P: 0.01, PAdj: 0.01, Exact: true})
	}
	line := r.Headline()[0]
	if !strings.Contains(line, "m4 ") || strings.Contains(line, "m5 ") || !strings.HasSuffix(line, "; and 3 more (in the table below)") {
		t.Errorf("headline %q", line)
	}
}
