package score

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/eval/parsing"
)

// Parser scores parser cases. On an output written under the configured
// primary strategy's prompt (config/executor.yaml), it checks that the
// configured chain extracted exactly the expected tool calls (check "calls",
// metric parser.exact): the executor's verdict. Outputs written under other
// prompts are measured only — no deployment feeds them to this chain. On
// every case it records, as values, how each strategy and primary→fallback
// chain fares, so the aggregator rebuilds the strategy table (measured next
// to the seed's claimed reliability) from results alone.
type Parser struct{}

// parserSpecs compiles every strategy's and chain's parser once.
var parserSpecs = sync.OnceValues(parsing.Specs)

// Name implements Scorer.
func (Parser) Name() string { return "parser" }

// Declare implements Scorer.
func (Parser) Declare() Declaration {
	return Declaration{Kinds: []string{dataset.KindParser}, Measure: true, Metrics: []string{
		"parser.exact",
		"parser.{strategy}.exact",
		"parser.{strategy}.false_extractions",
		"parser.{chain}.exact",
		"parser.{strategy}.no_call_false_extractions",
	}}
}

// Score implements Scorer.
func (p Parser) Score(in *Input) (Result, bool) {
	c := in.Case
	if c.Kind != dataset.KindParser || in.Parse == nil {
		return Result{}, false
	}
	specs, err := parserSpecs()
	if err != nil {
		return NewResult(p.Name(), Check{Name: "calls", Metric: "parser.exact", Reason: "building the parsers: " + err.Error()}), true
	}
	r := Result{Scorer: p.Name(), Pass: true, Measure: true}
	if c.Prompt == in.Parse.Primary {
		r = NewResult(p.Name(), callsCheck(c, in.Parse))
	}
	r.Values = map[string]float64{}
	r.Attrs = map[string]string{"prompt": c.Prompt}
	pc := parsing.FromDataset(c)
	for _, sp := range specs {
		if !sp.Applies(pc) {
			continue
		}
		t, _ := sp.Measure(pc)
		for k, v := range tallyValues(t) {
			r.Values[specKey(sp)+"."+k] = v
		}
	}
	return r, true
}

// specKey names a row uniquely in Values: a strategy is measured twice, on
// its own prompt's outputs and on every no-call output.
func specKey(sp parsing.Spec) string { return sp.Kind + ":" + sp.Name }

// callsCheck judges the configured chain's extraction.
func callsCheck(c *dataset.Case, po *ParseOutcome) Check {
	chain := po.Primary
	if po.Fallback != "" {
		chain += "→" + po.Fallback
	}
	chk := Check{Name: "calls (" + chain + ")", Metric: "parser.exact", Expected: listCalls(c.Expect), Got: listCalls(po.Calls)}
	chk.Pass = sameCalls(po.Calls, c.Expect)
	if chk.Pass {
		return chk
	}
	var why []string
	if po.Strategy == "" {
		why = append(why, "no strategy found a call")
	} else {
		why = append(why, fmt.Sprintf("extracted by %s from %s", po.Strategy, po.Field))
	}
	if len(po.Findings) > 0 {
		why = append(why, "findings: "+strings.Join(po.Findings, "; "))
	}
	chk.Reason = strings.Join(why, "; ")
	return chk
}

func tallyValues(t parsing.Tally) map[string]float64 {
	return map[string]float64{
		"cases": float64(t.Cases), "exact": float64(t.Exact), "matched": float64(t.Matched),
		"extracted": float64(t.Extracted), "expected": float64(t.Expected),
		"no_call": float64(t.NoCall), "false": float64(t.False),
	}
}

// NewAggregator implements Scorer.
func (Parser) NewAggregator() Aggregator {
	specs, _ := parserSpecs() // an error was reported by Score
	return &parserAgg{specs: specs, tallies: make([]parsing.Tally, len(specs))}
}

type parserAgg struct {
	Rates
	specs   []parsing.Spec
	tallies []parsing.Tally
}

func (a *parserAgg) Add(c CaseInfo, r Result) {
	a.Rates.Add(c, r)
	for i, sp := range a.specs {
		v := func(k string) int { return int(r.Values[specKey(sp)+"."+k]) }
		a.tallies[i].Add(parsing.Tally{
			Cases: v("cases"), Exact: v("exact"), Matched: v("matched"), Extracted: v("extracted"),
			Expected: v("expected"), NoCall: v("no_call"), False: v("false"),
		})
	}
}

func (a *parserAgg) Summary() Summary {
	s := Summary{Metrics: a.Metrics()}
	tbl := Table{
		Title:  "Tool-call parsers: measured vs the seed's claimed reliability",
		Header: []string{"strategy / chain", "seed's claim", "measured on", "cases", "exact calls", "precision", "recall", "false extractions"},
	}
	pct := func(p parsing.Proportion) string {
		if p.N == 0 {
			return "–"
		}
		return fmt.Sprintf("%.0f%% (%d/%d) [%.0f–%.0f]", 100*p.Rate, p.K, p.N, 100*p.Low, 100*p.High)
	}
	forms := Table{
		Title:  "Tool-call forms written by others: exact calls per strategy",
		Header: append([]string{"form", "cases"}, parsing.StrategiesOrder()...),
	}
	formRow := map[string][]string{}
	for i, sp := range a.specs {
		t := a.tallies[i]
		if t.Cases == 0 {
			continue
		}
		row := sp.Row(t, nil)
		if sp.Kind == parsing.KindForm {
			r := formRow[sp.Form]
			if r == nil {
				r = []string{strings.TrimPrefix(sp.Form, "form:"), fmt.Sprint(t.Cases)}
				forms.Rows = append(forms.Rows, nil) // placeholder, filled below in order
			}
			formRow[sp.Form] = append(r, fmt.Sprintf("%d/%d", row.Exact.K, row.Exact.N))
			continue
		}
		name := row.Name
		if row.Recommended {
			name += " (seed's recommendation)"
		}
		claim := ""
		if row.Kind == parsing.KindStrategy {
			claim = parsing.Claimed(row.Strategy)
		}
		tbl.Rows = append(tbl.Rows, []string{name, claim, row.Scope, fmt.Sprint(row.Cases), pct(row.Exact), pct(row.Precision), pct(row.Recall), pct(row.FalseExtractions)})
		if row.Kind == parsing.KindNoCall {
			s.Metrics = append(s.Metrics, falseMetric("parser."+row.Strategy+".no_call_false_extractions", row.FalseExtractions))
		}
		if row.Kind != parsing.KindStrategy && !row.Recommended {
			continue
		}
		key := "parser." + strings.ReplaceAll(row.Name, "→", ">")
		if row.Kind == parsing.KindStrategy {
			s.Metrics = append(s.Metrics,
				RateMetric(key+".exact", row.Exact.K, row.Exact.N, false),
				falseMetric(key+".false_extractions", row.FalseExtractions))
		} else {
			s.Metrics = append(s.Metrics, RateMetric(key+".exact", row.Exact.K, row.Exact.N, false))
		}
	}
	tbl.Notes = []string{
		"A strategy is measured on the outputs written under its own prompt; a chain on the outputs written under its primary's prompt; \"expect=[]\" rows on every output that holds no call.",
		"exact calls: the extracted list equals the expected one (names and arguments, in order). Precision and recall count calls; false extractions count no-call outputs where something was extracted. Brackets: Wilson 95% interval.",
	}
	if len(tbl.Rows) > 0 {
		s.Tables = append(s.Tables, tbl)
	}
	forms.Rows = forms.Rows[:0]
	for _, tag := range parsing.FormTags {
		if r := formRow[tag]; r != nil {
			forms.Rows = append(forms.Rows, r)
		}
	}
	if len(forms.Rows) > 0 {
		forms.Notes = []string{
			"Each strategy alone (its default fields) on every output of the form, whatever the prompt. Sources of the forms: datasets/parser.yaml's header.",
		}
		s.Tables = append(s.Tables, forms)
	}
	return s
}

// falseMetric is a rate where lower is better.
func falseMetric(name string, p parsing.Proportion) Metric {
	m := RateMetric(name, p.K, p.N, false)
	m.Better = LowerIsBetter
	return m
}

// sameCalls compares call lists by name and arguments; arguments compare
// through JSON, so a YAML integer and a JSON number are equal.
func sameCalls(got, want []dataset.Call) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i].Name != want[i].Name || !reflect.DeepEqual(jsonValue(got[i].Arguments), jsonValue(want[i].Arguments)) {
			return false
		}
	}
	return true
}

func jsonValue(v map[string]any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	var out any
	if json.Unmarshal(b, &out) != nil || out == nil {
		return map[string]any{}
	}
	return out
}

func listCalls(cs []dataset.Call) string {
	if len(cs) == 0 {
		return "none"
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		b, _ := json.Marshal(c.Arguments)
		parts[i] = c.Name + string(b)
	}
	return strings.Join(parts, ", ")
}
