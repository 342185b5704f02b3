package score

import (
	"fmt"
	"maps"
	"slices"

	"github.com/searchbench/searchbench/eval/dataset"
)

// Consent judges how a consent reply was classified (YES, NO, SEARCH_NOW or
// NEW_QUERY) against the case's label, and keeps the reply and the rule
// that decided so misclassifications can be listed.
type Consent struct{}

// MetricConsentAccuracy is the share of replies classified as labelled;
// per-label recall is reported as MetricConsentAccuracy + "." + label.
const MetricConsentAccuracy = "consent.accuracy"

// MetricConsentDataset + "." + a dataset's name is the accuracy on that
// file alone, so that a held-out set (datasets/consent-heldout.yaml) is
// reported beside the set the lexicon is tuned on.
const MetricConsentDataset = "consent.dataset"

// Name implements Scorer.
func (Consent) Name() string { return "consent" }

// Declare implements Scorer.
func (Consent) Declare() Declaration {
	return Declaration{Kinds: []string{dataset.KindConsent}, Measure: false, Metrics: []string{
		MetricConsentAccuracy,
		MetricConsentAccuracy + ".{intent}",
		MetricConsentDataset + ".{dataset}",
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
	r := NewResult("consent", passFail("intent", MetricConsentAccuracy, got == label, label, got,
		fmt.Sprintf("reply %q was classified %s by rule %q", t.Input, got, t.IntentRule)))
	r.Attrs = map[string]string{"reply": t.Input, "rule": t.IntentRule}
	if t.IntentBy == "model" {
		// Only the model's decisions are marked: a result without "by" is
		// the rules', as every result was before the model fallback.
		r.Attrs["by"] = "model"
	}
	return r, true
}

// NewAggregator implements Scorer.
func (Consent) NewAggregator() Aggregator { return &consentAgg{} }

type consentAgg struct {
	Rates
	by       map[string][2]int // deciding path (rule, model) → {correct, total}
	labels   map[string][2]int // label → {correct, total}
	datasets map[string][2]int // dataset → {correct, total}
	wrong    [][]string        // the first maxWrongRows misclassified replies
	more     int               // misclassified replies beyond them
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
	}
	for _, ch := range r.Checks {
		if ch.Name != "intent" {
			continue
		}
		by := orRule(r.Attrs["by"])
		n, d, b := a.labels[ch.Expected], a.datasets[c.Dataset], a.by[by]
		n[1]++
		d[1]++
		b[1]++
		if ch.Pass {
			n[0]++
			d[0]++
			b[0]++
		} else if len(a.wrong) < maxWrongRows {
			a.wrong = append(a.wrong, []string{c.Key, r.Attrs["reply"], ch.Expected, ch.Got, r.Attrs["rule"]})
		} else {
			a.more++
		}
		a.labels[ch.Expected], a.datasets[c.Dataset], a.by[by] = n, d, b
	}
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
		m.Note = "recall: the share of replies labelled " + l + " classified " + l
		s.Metrics = append(s.Metrics, m)
	}
	for _, ds := range slices.Sorted(maps.Keys(a.datasets)) {
		n := a.datasets[ds]
		m := RateMetric(MetricConsentDataset+"."+ds, n[0], n[1], false)
		m.Note = "accuracy on datasets/" + ds + ".yaml alone"
		s.Metrics = append(s.Metrics, m)
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
