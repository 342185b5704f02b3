package score

import (
	"fmt"
	"maps"
	"slices"

	"github.com/searchbench/searchbench/eval/dataset"
)

// Consent judges how a consent reply was read (YES, NO, SEARCH_NOW or
// NEW_QUERY) against the case's label, by issue 37's three figures: right
// (a rule, or the model, decided as labelled), deferred (the rules left it
// to the model and no model was asked: a run reads consent replies with the
// rules alone) and confidently wrong; a decline read as YES or SEARCH_NOW
// is counted apart. A case passes unless it is wrong: a deferral costs a
// model call, a wrong verdict misroutes the turn. It keeps the reply and
// the rule that decided so wrong readings can be listed.
type Consent struct{}

// MetricConsentAccuracy is the share of replies not read confidently
// wrong (right or deferred); per-label shares are MetricConsentAccuracy +
// "." + label.
const MetricConsentAccuracy = "consent.accuracy"

// MetricConsentDataset + "." + a dataset's name is MetricConsentAccuracy on
// that file alone, so that a held-out set is reported beside the set the
// lexicon is tuned on.
const MetricConsentDataset = "consent.dataset"

// The three figures, over all consent cases and, + "." + a dataset's name,
// per file: right, deferred to the model, confidently wrong, and the share
// of declines (label NO) read as a search.
const (
	MetricConsentRight    = "consent.right"
	MetricConsentDeferred = "consent.deferred"
	MetricConsentWrong    = "consent.wrong"
	MetricConsentDeclines = "consent.declines_as_search"
)

// Name implements Scorer.
func (Consent) Name() string { return "consent" }

// Declare implements Scorer.
func (Consent) Declare() Declaration {
	return Declaration{Kinds: []string{dataset.KindConsent}, Measure: false, Metrics: []string{
		MetricConsentAccuracy,
		MetricConsentAccuracy + ".{intent}",
		MetricConsentDataset + ".{dataset}",
		MetricConsentRight, MetricConsentRight + ".{dataset}",
		MetricConsentDeferred, MetricConsentDeferred + ".{dataset}",
		MetricConsentWrong, MetricConsentWrong + ".{dataset}",
		MetricConsentDeclines, MetricConsentDeclines + ".{dataset}",
	}}
}

// Score implements Scorer. It applies to consent cases.
func (Consent) Score(in *Input) (Result, bool) {
	if in.Case == nil || in.Case.Kind != dataset.KindConsent {
		return Result{}, false
	}
	label := in.Case.Label
	ts := sessionTurns(in)
	if len(ts) == 0 {
		r := NewResult("consent", Check{Name: "intent", Metric: MetricConsentAccuracy, Expected: label,
			Got: "no turn", Reason: "the session recorded no turn"})
		r.Attrs = map[string]string{"reply": in.Case.Reply}
		return r, true
	}
	t := ts[0].T
	got := orNone(t.Intent)
	deferred := t.ConsentDeferred != "" && t.IntentBy != "model"
	var r Result
	if deferred {
		r = NewResult("consent", passFail("intent", MetricConsentAccuracy, true, label, "deferred",
			fmt.Sprintf("reply %q was left to the model by rule %q: %s", t.Input, t.IntentRule, t.ConsentDeferred)))
	} else {
		r = NewResult("consent", passFail("intent", MetricConsentAccuracy, got == label, label, got,
			fmt.Sprintf("reply %q was classified %s by rule %q", t.Input, got, t.IntentRule)))
	}
	r.Attrs = map[string]string{"reply": t.Input, "rule": t.IntentRule}
	if deferred {
		r.Attrs["deferred"] = t.ConsentDeferred
	}
	if t.IntentBy == "model" {
		// Only the model's decisions are marked: a result without "by" is
		// the rules', as every result was before the model fallback.
		r.Attrs["by"] = "model"
	}
	if !deferred && label == "NO" && (got == "YES" || got == "SEARCH_NOW") {
		r.Attrs["decline_as_search"] = "true"
	}
	return r, true
}

// NewAggregator implements Scorer.
func (Consent) NewAggregator() Aggregator { return &consentAgg{} }

type consentAgg struct {
	Rates
	by       map[string][2]int // deciding path (rule, model) → {correct, total}
	labels   map[string][2]int // label → {not wrong, total}
	datasets map[string][2]int // dataset → {not wrong, total}
	figs     map[string]*consentFigures
	wrong    [][]string // the first maxWrongRows misclassified replies
	more     int        // misclassified replies beyond them
}

// consentFigures are the three figures of one set of replies ("" for all).
type consentFigures struct {
	n, right, deferred, wrong, declines, declinesAsSearch int
}

// maxWrongRows bounds the misclassified-replies table: the summary stays
// the same size however many cases fail (each case, failing or not, is in
// the report's cases).
const maxWrongRows = 100

func (a *consentAgg) Add(c CaseInfo, r Result) {
	a.Rates.Add(c, r)
	if a.labels == nil {
		a.labels = map[string][2]int{}
		a.datasets = map[string][2]int{}
		a.by = map[string][2]int{}
		a.figs = map[string]*consentFigures{}
	}
	for _, ch := range r.Checks {
		if ch.Name != "intent" {
			continue
		}
		_, deferred := r.Attrs["deferred"]
		for _, set := range []string{"", c.Dataset} {
			f := a.figs[set]
			if f == nil {
				f = &consentFigures{}
				a.figs[set] = f
			}
			f.n++
			switch {
			case deferred:
				f.deferred++
			case ch.Pass:
				f.right++
			default:
				f.wrong++
			}
			if ch.Expected == "NO" {
				f.declines++
				if r.Attrs["decline_as_search"] != "" {
					f.declinesAsSearch++
				}
			}
		}
		n, d := a.labels[ch.Expected], a.datasets[c.Dataset]
		n[1]++
		d[1]++
		if ch.Pass {
			n[0]++
			d[0]++
		} else if len(a.wrong) < maxWrongRows {
			a.wrong = append(a.wrong, []string{c.Key, r.Attrs["reply"], ch.Expected, ch.Got, r.Attrs["rule"]})
		} else {
			a.more++
		}
		a.labels[ch.Expected], a.datasets[c.Dataset] = n, d
		if !deferred {
			by := orRule(r.Attrs["by"])
			b := a.by[by]
			b[1]++
			if ch.Pass {
				b[0]++
			}
			a.by[by] = b
		}
	}
}

// figureMetrics are the three figures of set ("" for all replies) as
// metrics: right (higher is better), deferred (a cost, with no better
// direction), wrong and declines read as search (lower is better).
func (a *consentAgg) figureMetrics(set string) []Metric {
	f := a.figs[set]
	if f == nil {
		return nil
	}
	suffix := ""
	if set != "" {
		suffix = "." + set
	}
	right := RateMetric(MetricConsentRight+suffix, f.right, f.n, false)
	right.Note = "replies a rule (or the model) read as labelled"
	deferred := RateMetric(MetricConsentDeferred+suffix, f.deferred, f.n, false)
	deferred.Better, deferred.Note = "", "replies the rules left to the model (rules alone: not asked)"
	wrong := RateMetric(MetricConsentWrong+suffix, f.wrong, f.n, false)
	wrong.Better, wrong.Note = LowerIsBetter, "replies read confidently wrong"
	declines := RateMetric(MetricConsentDeclines+suffix, f.declinesAsSearch, f.declines, false)
	declines.Better, declines.Note = LowerIsBetter, "declines (label NO) read as YES or SEARCH_NOW: searches the user refused"
	return []Metric{right, deferred, wrong, declines}
}

func (a *consentAgg) Summary() Summary {
	s := Summary{Metrics: a.Metrics()}
	labels := slices.Clone(dataset.ConsentLabels)
	for l := range a.labels {
		if !slices.Contains(labels, l) {
			labels = append(labels, l)
		}
	}
	slices.Sort(labels[len(dataset.ConsentLabels):])
	for _, l := range labels {
		n, ok := a.labels[l]
		if !ok {
			continue
		}
		m := RateMetric(MetricConsentAccuracy+"."+l, n[0], n[1], false)
		m.Note = "the share of replies labelled " + l + " not read confidently wrong"
		s.Metrics = append(s.Metrics, m)
	}
	for _, ds := range slices.Sorted(maps.Keys(a.datasets)) {
		n := a.datasets[ds]
		m := RateMetric(MetricConsentDataset+"."+ds, n[0], n[1], false)
		m.Note = "not read confidently wrong, datasets/" + ds + ".yaml alone"
		s.Metrics = append(s.Metrics, m)
	}
	if len(a.figs) > 0 {
		s.Metrics = append(s.Metrics, a.figureMetrics("")...)
		for _, ds := range slices.Sorted(maps.Keys(a.datasets)) {
			s.Metrics = append(s.Metrics, a.figureMetrics(ds)...)
		}
	}
	if a.by["model"][1] > 0 {
		// Which path decided: the rules, or the chat model asked about a
		// reply the rules could not place (orchestrator/consent, Unplaced).
		// Shown once the model decided any: until then every reply was the
		// rules', and the table would say nothing.
		t := Table{Title: "Consent replies by what decided them", Header: []string{"decided by", "replies", "right"}}
		for _, path := range []string{"rule", "model"} {
			n := a.by[path]
			t.Rows = append(t.Rows, []string{path, fmt.Sprint(n[1]), fmt.Sprint(n[0])})
		}
		s.Tables = append(s.Tables, t)
	}
	if len(a.wrong) > 0 {
		t := Table{
			Title:  "Misclassified consent replies",
			Header: []string{"case", "reply", "expected", "got", "rule"},
			Rows:   a.wrong,
		}
		if a.more > 0 {
			t.Notes = []string{fmt.Sprintf("%d more misclassified replies not listed; every case is in the report's cases", a.more)}
		}
		s.Tables = append(s.Tables, t)
	}
	return s
}

// orRule reads a result without "by" as decided by the rules.
func orRule(by string) string {
	if by == "" {
		return "rule"
	}
	return by
}
