package score

import (
	"github.com/searchbench/searchbench/eval/dataset"

	"github.com/searchbench/searchbench/orchestrator/answer"
)

// Evidence measures how well successful Phase 2 answers are backed: how
// many bullets cite sources on at least two independent registrable
// domains (eTLD+1 of the sources' URLs). It never fails a case.
type Evidence struct{}

// Metrics of the evidence scorer.
const (
	MetricEvidenceBackedShare = "evidence.backed_share"
	MetricEvidenceBullets     = "evidence.bullets"
)

// Name implements Scorer.
func (Evidence) Name() string { return "evidence" }

// Declare implements Scorer.
func (Evidence) Declare() Declaration {
	return Declaration{Kinds: []string{dataset.KindRouting, dataset.KindFlows}, Measure: true, Metrics: []string{
		MetricEvidenceBackedShare,
		MetricEvidenceBullets,
	}}
}

// Score implements Scorer. It applies to cases with at least one
// successful final envelope (error code NONE).
func (Evidence) Score(in *Input) (Result, bool) {
	var answers, bullets, backed int
	for _, r := range phase2Turns(in) {
		if r.T.Error != "" {
			continue
		}
		env := in.CheckPhase2(r.T.Output).Envelope
		if env == nil || env.Error.Code != answer.CodeNone {
			continue
		}
		answers++
		b, k := backedBullets(env)
		bullets += b
		backed += k
	}
	if answers == 0 {
		return Result{}, false
	}
	return Result{Scorer: "evidence", Pass: true, Measure: true, Values: map[string]float64{
		"answers": float64(answers), "bullets": float64(bullets), "backed": float64(backed),
	}}, true
}

// backedBullets counts env's bullets and those whose cited sources span at
// least answer.MinDomains distinct registrable domains. A source whose URL
// has no registrable domain (an IP, a bad URL) backs nothing.
func backedBullets(env *answer.Envelope) (bullets, backed int) {
	domains := map[string]string{}
	for _, s := range env.Data.Sources {
		if d, err := answer.RegistrableDomain(s.URL); err == nil {
			domains[s.ID] = d
		}
	}
	for _, b := range env.Data.Bullets {
		seen := map[string]bool{}
		for _, id := range b.SourceIDs {
			if d, ok := domains[id]; ok {
				seen[d] = true
			}
		}
		if len(seen) >= answer.MinDomains {
			backed++
		}
	}
	return len(env.Data.Bullets), backed
}

// NewAggregator implements Scorer.
func (Evidence) NewAggregator() Aggregator { return &evidenceAgg{} }

type evidenceAgg struct {
	answers, bullets, backed float64
	added                    bool
}

func (a *evidenceAgg) Add(_ CaseInfo, r Result) {
	a.added = true
	a.answers += r.Values["answers"]
	a.bullets += r.Values["bullets"]
	a.backed += r.Values["backed"]
}

func (a *evidenceAgg) Summary() Summary {
	if !a.added {
		return Summary{}
	}
	share := Metric{Name: MetricEvidenceBackedShare, Unit: UnitRate, Better: HigherIsBetter,
		Num: int(a.backed), Den: int(a.bullets),
		Note: "Σ bullets backed by ≥ 2 registrable domains / Σ bullets, over successful final answers; bullets of one answer are not independent, so no interval"}
	if a.bullets > 0 {
		share.Value = a.backed / a.bullets
	}
	per := Metric{Name: MetricEvidenceBullets, Unit: UnitCount, Den: int(a.answers),
		Note: "mean bullets per successful final answer"}
	if a.answers > 0 {
		per.Value = a.bullets / a.answers
	}
	return Summary{Metrics: []Metric{share, per}}
}
