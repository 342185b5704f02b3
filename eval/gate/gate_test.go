package gate

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/report/reporttest"
	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/internal/demo"
	"github.com/searchbench/searchbench/lib/golden"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

func mustLoad(t *testing.T, yaml string) *Config {
	t.Helper()
	cfg, err := Load("gates.yaml", []byte(yaml), score.All())
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestLoadErrors(t *testing.T) {
	data := `thresholds:
  routing.accuracy: {min: 0.9}
  routng.accuracy: {min: 0.9}
  Routing.Accuracy: {min: 0.5}
  schema.final: {min: high}
  schema.raw: {min: 0.9, max: 0.5}
  flow.phase: {minimum: 1}
  routing.accuracy: {max: 1}
regressions:
  tolerance: -1
  flips: yes please
  metrics:
    cost.tokens: {tolerance: 100, ignor: true}
    cost.latency.*: {}
  extra: 1
colour: red
`
	_, err := Load("gates.yaml", []byte(data), score.All())
	var ce *ConfigError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want *ConfigError", err)
	}
	want := []string{
		`gates.yaml:3:3: metric "routng.accuracy": no scorer "routng"`,
		`gates.yaml:4:3: metric "Routing.Accuracy": want scorer.metric`,
		`gates.yaml:5:23: min must be a number, got "high"`,
		`gates.yaml:6:15: threshold "schema.raw": min 0.9 is above max 0.5`,
		`gates.yaml:7:16: threshold "flow.phase": unknown key "minimum" (want min, max, no_data, modes)`,
		`gates.yaml:8:3: thresholds: duplicate key "routing.accuracy"`,
		`gates.yaml:10:14: tolerance must not be negative`,
		`gates.yaml:11:10: flips must be true or false, got "yes please"`,
		`gates.yaml:13:35: regression rule "cost.tokens": unknown key "ignor" (want tolerance, ignore)`,
		`gates.yaml:14:21: regression rule "cost.latency.*": set tolerance or ignore`,
		`gates.yaml:15:3: regressions: unknown key "extra" (want tolerance, metrics, flips, improvements, pass_rate_drop, alpha, new_failures, removed_cases, edited_cases, changed_datasets, vanished)`,
		`gates.yaml:16:1: the gates file: unknown key "colour" (want thresholds, regressions, headline, judges)`,
	}
	msg := err.Error()
	for i, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("error does not contain %q", w)
		}
		if i < len(ce.Problems) && !strings.HasPrefix(w, ce.Problems[i].String()[:12]) {
			t.Errorf("problem %d is %q, want it in file order (%q)", i, ce.Problems[i], w)
		}
	}
	if len(ce.Problems) != len(want) {
		t.Errorf("got %d problems, want %d:\n%s", len(ce.Problems), len(want), msg)
	}
}

func TestLoadInvalidYAML(t *testing.T) {
	_, err := Load("gates.yaml", []byte("thresholds:\n  a: [\n"), score.All())
	if err == nil || !strings.Contains(err.Error(), "gates.yaml:") || !strings.Contains(err.Error(), "invalid YAML") {
		t.Errorf("err = %v", err)
	}
}

func TestLoadShipped(t *testing.T) {
	data, err := os.ReadFile("../../testdata/demo/gates.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Load("gates.yaml", data, score.All()); err != nil {
		t.Fatalf("the shipped gates.yaml does not load: %v", err)
	}
}

func TestRule(t *testing.T) {
	cfg := mustLoad(t, `regressions:
  tolerance: 0.01
  metrics:
    cost.*: {ignore: true}
    cost.tokens.*: {tolerance: 50}
    cost.tokens.prompt: {tolerance: 100}
`)
	tests := []struct {
		metric string
		tol    float64
		ignore bool
	}{
		{"routing.accuracy", 0.01, false},
		{"cost.latency.p95", 0, true},
		{"cost.tokens.completion", 50, false},
		{"cost.tokens.prompt", 100, false},
		{"cost.tokens", 0, true},
	}
	for _, tt := range tests {
		tol, ignore, _ := cfg.rule(tt.metric)
		if tol != tt.tol || ignore != tt.ignore {
			t.Errorf("rule(%s) = %v, %v; want %v, %v", tt.metric, tol, ignore, tt.tol, tt.ignore)
		}
	}
}

// run returns the JSON report of recs with the fixture meta.
func run(variant string, recs ...*report.CaseRecord) []byte {
	return reporttest.JSON(reporttest.Meta(variant), recs)
}

// filtered returns the JSON report of a run of seed selected by filter.
func filtered(filter []string, recs ...*report.CaseRecord) []byte {
	m := reporttest.Meta("seed")
	m.Filter = filter
	return reporttest.JSON(m, recs)
}

func TestEvaluate(t *testing.T) {
	ok, drift := reporttest.OKMessage(), reporttest.DriftMessage()
	exa, tav := trace.ToolExa, trace.ToolTavily
	baseline := run("seed",
		reporttest.Routing(0, "a", "tavily_only", ok, tav),
		reporttest.Routing(1, "b", "exa_only", ok, exa),
		reporttest.Routing(2, "c", "exa_only", ok, tav), // already wrong in the baseline
		reporttest.Consent(3, "y", "YES", "yes", "YES", "yes.word"),
	)
	gates := `thresholds:
  routing.accuracy: {min: 0.3}
  cost.tokens: {max: 5000}
  consent.accuracy.*: {min: 0.5}
  flow.turns: {min: 1, no_data: pass}
regressions:
  metrics:
    cost.*: {ignore: true}
    routing.f1.*: {ignore: true}
    routing.macro_f1: {ignore: true}
    routing.precision.*: {ignore: true}
    routing.recall.*: {ignore: true}
`
	tests := []struct {
		name    string
		current []byte
		gates   string
		opt     Options
		pass    bool
		want    []string // substrings of the rendered verdict
		kinds   []string // violation kinds in order
		reagg   bool
		newCase []string
	}{
		{name: "same run passes", current: baseline, gates: gates, pass: true,
			want: []string{"gate: PASS — 3 thresholds checked, 1 without data; 4 of 4 cases compared with the baseline (20 metrics); 0 new, 0 removed, 1 known failure",
				"threshold flow.turns (gates.yaml:5) not evaluated: no data in this run (allowed: no_data: pass)"},
			kinds: nil},
		{name: "a flip and a regression of a deterministic case",
			current: run("seed",
				reporttest.Routing(0, "a", "tavily_only", ok, tav),
				reporttest.Routing(1, "b", "exa_only", ok, exa),
				reporttest.Routing(2, "c", "exa_only", ok, tav),
				reporttest.Consent(3, "y", "YES", "yes", "NO", "no.word")),
			gates: gates,
			kinds: []string{KindThreshold, KindRegression, KindRegression, KindRegression, KindRegression, KindRegression, KindRegression, KindRegression, KindFlip},
			want: []string{"consent.accuracy fell from 100.0% (1/1) to 0.0% (0/1), by 100.0 points; tolerance 0.0 points (default)",
				"consent.wrong rose from 0.0% (0/1) to 100.0% (1/1)",
				"consent/y", "intent: expected YES, got NO", "gate: FAIL (9 violations: 1 threshold, 7 regression, 1 flip; cases: consent/y)"}},
		{name: "one draw of one model case is a note, not a flip",
			current: run("seed",
				reporttest.Routing(0, "a", "tavily_only", ok, tav),
				reporttest.Routing(1, "b", "exa_only", ok, tav),
				reporttest.Routing(2, "c", "exa_only", ok, tav),
				reporttest.Consent(3, "y", "YES", "yes", "YES", "yes.word")),
			gates: gates, pass: true,
			want: []string{"1 one-sample case(s) fell on model behaviour: routing/b (routing)",
				"routing.accuracy: mean per-case pass rate fell by 33.3 points, but only 1 of 3 cases changed, too few for the test to find a change: not a regression"}},
		{name: "an improvement of a deterministic case makes the baseline out of date",
			current: run("seed",
				reporttest.Routing(0, "a", "tavily_only", ok, tav),
				reporttest.Routing(1, "b", "exa_only", ok, exa),
				reporttest.Routing(2, "c", "exa_only", ok, tav),
				reporttest.Consent(3, "y", "YES", "yes", "YES", "yes.word")),
			gates: gates + "  improvements: true\n",
			kinds: nil, pass: true},
		{name: "improvements pass without the ratchet",
			current: run("seed",
				reporttest.Routing(0, "a", "tavily_only", ok, tav),
				reporttest.Routing(1, "b", "exa_only", ok, exa),
				reporttest.Routing(2, "c", "exa_only", ok, exa),
				reporttest.Consent(3, "y", "YES", "yes", "YES", "yes.word")),
			gates: gates, pass: true},
		{name: "tolerance absorbs the drop",
			current: run("seed",
				reporttest.Routing(0, "a", "tavily_only", ok, tav),
				reporttest.Routing(1, "b", "exa_only", ok, tav),
				reporttest.Routing(2, "c", "exa_only", ok, tav),
				reporttest.Consent(3, "y", "YES", "yes", "YES", "yes.word")),
			gates: "regressions:\n  tolerance: 0.7\n  flips: false\n", pass: true},
		{name: "thresholds",
			current: run("seed",
				reporttest.Routing(0, "a", "tavily_only", ok, exa),
				reporttest.Consent(3, "y", "YES", "yes", "NO", "no.word")),
			gates: "thresholds:\n  routing.accuracy: {min: 0.5}\n  consent.accuracy.*: {min: 0.5}\n  cost.tokens: {max: 100}\n  flow.turns: {min: 1}\nregressions:\n  flips: false\n  removed_cases: false\n  metrics:\n    routing.*: {ignore: true}\n    consent.*: {ignore: true}\n    cost.*: {ignore: true}\n    schema.*: {ignore: true}\n    markdown.*: {ignore: true}\n    flow.*: {ignore: true}\n    limits.*: {ignore: true}\n    evidence.*: {ignore: true}\n",
			// consent.accuracy.* covers the per-label metrics, not consent.accuracy.
			kinds: []string{KindThreshold, KindThreshold, KindThreshold, KindNoData},
			reagg: true,
			want: []string{"routing.accuracy is below the minimum set at gates.yaml:2", "consent.accuracy.YES", "≤ 100.0",
				"the threshold at gates.yaml:5 cannot be checked: no case of this run produced flow.turns",
				"this run covers 2 of the baseline's 4 cases",
				"2 baseline case(s) inside this run's selection are missing (allowed: removed_cases is false)"}},
		{name: "filtered subset is re-aggregated, new cases listed",
			current: filtered([]string{"id:[acn]*"},
				reporttest.Routing(0, "a", "tavily_only", ok, tav),
				reporttest.Routing(2, "c", "exa_only", ok, tav),
				reporttest.Routing(7, "new", "tavily_only", ok, tav)),
			gates: gates, pass: true, reagg: true, newCase: []string{"routing/new"},
			want: []string{"this run covers 2 of the baseline's 4 cases (filter id:[acn]*); metrics are compared with both re-aggregated over the 2 shared cases",
				"2 baseline case(s) are outside this run's selection (filter id:[acn]*) and not compared", "new cases: routing/new",
				"gate: PASS — 2 thresholds checked, 2 without data; 2 of 3 cases compared with the baseline (11 metrics); 1 new, 0 removed, 1 known failure"}},
		{name: "a new case that fails is a new failure",
			current: filtered([]string{"id:[acn]*"},
				reporttest.Routing(0, "a", "tavily_only", ok, tav),
				reporttest.Routing(2, "c", "exa_only", ok, tav),
				reporttest.Routing(7, "new", "tavily_only", drift, tav)),
			gates: gates, reagg: true, newCase: []string{"routing/new"}, kinds: []string{KindNewFailure},
			want: []string{"routing/new", "new in this run and failing: raw markdown: expected printed = render_markdown = canonical"}},
		{name: "error case flips",
			current: run("seed",
				reporttest.Routing(0, "a", "tavily_only", ok, tav),
				reporttest.Routing(1, "b", "exa_only", ok, exa),
				reporttest.Errored(2, "c", "exa_only", "cassette miss"),
				reporttest.Consent(3, "y", "YES", "yes", "YES", "yes.word")),
			gates: "regressions:\n  tolerance: 1\n  metrics:\n    cost.*: {ignore: true}\n",
			// c failed routing in the baseline, so only its other scorers flip.
			kinds: []string{KindFlip, KindFlip, KindFlip, KindFlip},
			want:  []string{"the case did not run: turn 1: cassette miss", "error"}},
		{name: "variant mismatch allowed", current: run("routing-examples",
			reporttest.Routing(0, "a", "tavily_only", ok, tav),
			reporttest.Routing(1, "b", "exa_only", ok, exa),
			reporttest.Routing(2, "c", "exa_only", ok, tav),
			reporttest.Consent(3, "y", "YES", "yes", "YES", "yes.word")),
			gates: gates, opt: Options{AllowMismatch: true}, pass: true,
			want: []string{"baseline variant seed/mode model differs from this run's routing-examples/model (allowed)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := mustLoad(t, tt.gates)
			v, err := Evaluate(cfg, report.Bytes("current.json", tt.current), report.Bytes("baseline.json", baseline), tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			if err := WriteWidth(&b, v, false, -1); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			// Table cells wrap; search the unwrapped fields too.
			text := out
			for _, x := range v.Violations {
				text += "\n" + strings.Join([]string{x.Kind, x.Metric, x.Case, x.Want, x.Got, x.Explanation}, " | ")
			}
			if v.Pass() != tt.pass {
				t.Errorf("pass = %v, want %v\n%s", v.Pass(), tt.pass, out)
			}
			var kinds []string
			for _, x := range v.Violations {
				kinds = append(kinds, x.Kind)
				if x.Want == "" || x.Got == "" || x.Explanation == "" {
					t.Errorf("violation without want/got/explanation: %+v", x)
				}
			}
			if strings.Join(kinds, ",") != strings.Join(tt.kinds, ",") {
				t.Errorf("kinds = %v, want %v\n%s", kinds, tt.kinds, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("verdict does not mention %q:\n%s", w, out)
				}
			}
			if v.Reaggregated != tt.reagg {
				t.Errorf("reaggregated = %v, want %v", v.Reaggregated, tt.reagg)
			}
			if strings.Join(v.NewCases, ",") != strings.Join(tt.newCase, ",") {
				t.Errorf("new cases = %v, want %v", v.NewCases, tt.newCase)
			}
		})
	}
}

func TestEvaluateMismatch(t *testing.T) {
	ok := reporttest.OKMessage()
	base := run("seed", reporttest.Routing(0, "a", "tavily_only", ok, trace.ToolTavily))
	cur := run("routing-examples", reporttest.Routing(0, "a", "tavily_only", ok, trace.ToolTavily))
	_, err := Evaluate(mustLoad(t, ""), report.Bytes("current.json", cur), report.Bytes("baseline.json", base), Options{})
	if !IsMismatch(err) || !strings.Contains(err.Error(), `variant "seed"`) {
		t.Errorf("err = %v, want a variant mismatch", err)
	}
	_, err = Evaluate(mustLoad(t, ""), report.Bytes("current.json", []byte("{")), report.Bytes("baseline.json", base), Options{})
	if err == nil || !strings.Contains(err.Error(), "current.json") {
		t.Errorf("err = %v, want it to name the unreadable report", err)
	}
}

func TestEvaluateNoBaseline(t *testing.T) {
	meta, recs := reporttest.Run()
	cfg := mustLoad(t, "thresholds:\n  routing.accuracy: {min: 0.9}\n")
	v, err := Evaluate(cfg, report.Bytes("run.json", reporttest.JSON(meta, recs)), report.Source{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Violations) != 1 || v.Violations[0].Got != "66.7% (4/6)" {
		t.Errorf("violations = %+v", v.Violations)
	}
}

func TestWriteGolden(t *testing.T) {
	ok, drift := reporttest.OKMessage(), reporttest.DriftMessage()
	y, n := true, false
	exa := trace.ToolExa
	drifted := func(seq int, id string) *report.CaseRecord {
		// One of five samples prints markdown that is not its
		// render_markdown: an invariant broken.
		return reporttest.Sampled(reporttest.Routing(seq, id, "exa_only", ok, exa), reporttest.Routing(seq, id, "exa_only", drift, exa),
			reporttest.Routing(seq, id, "exa_only", ok, exa), reporttest.Routing(seq, id, "exa_only", ok, exa), reporttest.Routing(seq, id, "exa_only", ok, exa))
	}
	base := run("seed", reporttest.RoutingSamples(0, "a", y, y, y, y, y), reporttest.RoutingSamples(1, "b", y, y, y, y, y),
		reporttest.RoutingSamples(2, "c", y, y, y, n, y), reporttest.Consent(3, "yes", "YES", "yes", "YES", "yes.word"))
	cur := run("seed", reporttest.RoutingSamples(0, "a", n, n, n, n, n), drifted(1, "b"),
		reporttest.RoutingSamples(2, "c", y, n, y, y, y), reporttest.Consent(3, "yes", "YES", "yes", "NO", "no.word"))
	cfg := mustLoad(t, "thresholds:\n  routing.accuracy: {min: 0.9}\nregressions:\n  metrics:\n    cost.*: {ignore: true}\n    routing.precision.*: {ignore: true}\n    routing.recall.*: {ignore: true}\n    routing.f1.*: {ignore: true}\n    routing.macro_f1: {ignore: true}\n    consent.accuracy.*: {ignore: true}\n    consent.dataset.*: {ignore: true}\n")
	v, err := Evaluate(cfg, report.Bytes("current.json", cur), report.Bytes("baseline.json", base), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, md := range []bool{false, true} {
		name := "verdict.txt"
		if md {
			name = "verdict.md"
		}
		var b strings.Builder
		if err := Write(&b, v, md); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", name), []byte(b.String()))
	}
}

func readBaseline(t *testing.T) *report.Report {
	t.Helper()
	f, err := os.Open(filepath.Join(demo.Tree(t), "reports", "baseline.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := report.ReadAll("baseline.json", f)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// A change that shows as "0.0 points" is no regression to list, however
// tight the tolerance.
func TestNegligibleChangeIsNoRegression(t *testing.T) {
	rate := func(num, den int) score.Metric {
		return score.Metric{Name: "routing.accuracy", Unit: score.UnitRate, Value: float64(num) / float64(den), Num: num, Den: den}
	}
	if v, ok := regression(rate(4999, 5000), rate(49985, 50000), 0, "test"); ok {
		t.Errorf("a fall of 0.01 points is a regression: %+v", v)
	}
	if _, ok := regression(rate(50, 100), rate(49, 100), 0, "test"); !ok {
		t.Error("a fall of 1.0 point is not a regression")
	}
}
