package gate

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/eval/stats"
)

// The per-case rules. What a case's change means depends on where its
// outcome comes from:
//
//   - A case that makes no model call (consent and parser cases) is
//     deterministic: its outcome is a function of the code, so any flip is
//     a real change (flips, improvements).
//   - An invariant (score.Declaration.Invariants: a valid envelope, the
//     phase routing, the search limits) is enforced by the app whatever the
//     model does: one failure of one sample is a bug.
//   - Everything else a model case is scored on is the model's behaviour,
//     one draw of it per sample. One sample on both sides is one draw
//     against one draw: its flip is a note, and the metric's paired test
//     over cases judges it. With several samples on either side the case is
//     judged on evidence: Fisher's exact test, one-sided, on the baseline's
//     passes against the run's, per case and scorer; the family of all such
//     tests is corrected with Tarone–Holm at half the gate's alpha.

// caseView is what the per-case rules keep of one side of a case.
type caseView struct {
	// model is set when the case called the model (its cost result counts
	// model calls): its outcomes are draws.
	model   bool
	samples int
	// behaviour is, per non-measure scorer with model-behaviour checks, how
	// many samples passed every such check of it.
	behaviour map[string]stats.Cluster
	// failures are, per non-measure scorer, its failing model-behaviour
	// checks sample by sample ("expected exa_only, got tavily_only"), for
	// explanations; only the run's side keeps them.
	failures map[string][]sampleFailure
}

// sampleFailure is what one sample failed of one scorer.
type sampleFailure struct {
	sample int
	text   string
}

// viewOf reads r's per-case view; failures only when keep is set.
func viewOf(r *report.CaseRecord, invariant map[string]bool, keep bool) caseView {
	v := caseView{samples: r.SampleCount(), behaviour: map[string]stats.Cluster{}}
	if keep {
		v.failures = map[string][]sampleFailure{}
	}
	r.EachSample(func(s report.SampleRecord) {
		for _, res := range s.Scores {
			if res.Measure {
				if res.Values["model_calls"] > 0 {
					v.model = true
				}
				continue
			}
			ok, any := true, false
			var texts []string
			for _, c := range res.Checks {
				if invariant[c.Metric] {
					continue
				}
				any = true
				if !c.Pass {
					ok = false
					if keep {
						// Expected and got say it; the reason repeats them.
						texts = append(texts, fmt.Sprintf("%s: expected %s, got %s", c.Name, c.Expected, c.Got))
					}
				}
			}
			if !any {
				continue
			}
			c := v.behaviour[res.Scorer]
			c.N++
			if ok && s.Error == "" {
				c.Pass++
			}
			v.behaviour[res.Scorer] = c
			if keep && len(texts) > 0 {
				v.failures[res.Scorer] = append(v.failures[res.Scorer], sampleFailure{s.Sample, strings.Join(texts, "; ")})
			}
		}
	})
	return v
}

func checkText(c score.Check) string {
	s := fmt.Sprintf("%s: expected %s, got %s", c.Name, c.Expected, c.Got)
	if c.Reason != "" {
		s += " (" + c.Reason + ")"
	}
	return s
}

// caseTest is one hypothesis of the per-case family: scorer's
// model-behaviour pass rate on case key, baseline against run.
type caseTest struct {
	key, scorer string
	base, now   stats.Cluster
	failures    []sampleFailure
	dir         stats.Direction
	p, minP     float64
}

// singleFlip is a model-behaviour flip of a case with one sample on both
// sides: a note, not a violation.
type singleFlip struct{ key, scorer string }

// modelCase applies the per-case rules to a shared case that called the
// model (in the run or the baseline) and ran to the end.
func (e *evaluation) modelCase(r *report.CaseRecord, b *baseCase) {
	if e.cfg.Flips {
		e.invariantFlips(r, b)
	}
	now := viewOf(r, e.invariant, true)
	sampled := now.samples > 1 || b.samples > 1
	for _, s := range slices.Sorted(maps.Keys(b.view.behaviour)) {
		bc := b.view.behaviour[s]
		nc, ok := now.behaviour[s]
		if !ok {
			continue // the scorer did not judge the run: vanished says so
		}
		if !sampled {
			switch {
			case bc.Pass == 1 && nc.Pass == 0 && e.cfg.Flips:
				e.singleFlips = append(e.singleFlips, singleFlip{r.Key, s})
			case bc.Pass == 0 && nc.Pass == 1 && e.cfg.Improvements:
				e.singleImproved = append(e.singleImproved, singleFlip{r.Key, s})
			}
			continue
		}
		if e.cfg.Flips {
			e.caseTests = append(e.caseTests, caseTest{key: r.Key, scorer: s, base: bc, now: nc, failures: now.failures[s], dir: stats.Worse})
		}
		if e.cfg.Improvements {
			e.caseTests = append(e.caseTests, caseTest{key: r.Key, scorer: s, base: bc, now: nc, dir: stats.Better})
		}
	}
}

// invariantFlips reports each invariant metric the baseline case passed
// in every sample and the run fails in some.
func (e *evaluation) invariantFlips(r *report.CaseRecord, b *baseCase) {
	now := r.MetricClusters()
	for _, m := range slices.Sorted(maps.Keys(now)) {
		if !e.invariant[m] {
			continue
		}
		bc, ok := b.clusters[m]
		nc := now[m]
		if !ok || bc.Pass < bc.N || nc.Pass == nc.N {
			continue
		}
		var texts []string
		r.EachSample(func(s report.SampleRecord) {
			for _, res := range s.Scores {
				for _, c := range res.Checks {
					if c.Metric == m && !c.Pass {
						texts = append(texts, fmt.Sprintf("sample %d: %s", s.Sample, checkText(c)))
					}
				}
			}
		})
		if nc.N == 1 {
			texts[0] = strings.TrimPrefix(texts[0], "sample 1: ")
		}
		got := "fail"
		if nc.N > 1 {
			got = fmt.Sprintf("fails %d of %d samples", nc.N-nc.Pass, nc.N)
		}
		e.add(Violation{Kind: KindFlip, Metric: m, Case: r.Key, Want: "pass", Got: got,
			Explanation: fmt.Sprintf("%s is an invariant the app enforces whatever the model does, so one failure is a bug, not a draw: it passed in the baseline; now %s",
				m, strings.Join(texts, "; ")),
			Next: "fix the code or the prompt: a broken invariant is never a trade-off to accept"})
	}
}

// judgeCases runs the per-case family: Fisher's exact test for each
// hypothesis, then Tarone–Holm over those that fail the gate when
// rejected (the falls, and the rises when improvements fail), and
// separately over the rises that are only listed.
func (e *evaluation) judgeCases() {
	if len(e.caseTests) == 0 {
		return
	}
	level := e.cfg.Alpha / 2
	var gating, listed []int
	for i := range e.caseTests {
		t := &e.caseTests[i]
		t.p, t.minP = stats.Fisher(t.base.Pass, t.base.N, t.now.Pass, t.now.N, t.dir)
		if t.dir == stats.Worse || e.improvementsFail {
			gating = append(gating, i)
		} else {
			listed = append(listed, i)
		}
	}
	for fi, family := range [][]int{gating, listed} {
		if len(family) == 0 {
			continue
		}
		ts := make([]stats.DiscreteTest, len(family))
		for j, i := range family {
			ts[j] = stats.DiscreteTest{P: e.caseTests[i].p, MinP: e.caseTests[i].minP}
		}
		decisions := stats.TaroneHolm(ts, level)
		testable := 0
		for _, d := range decisions {
			if d.Testable {
				testable++
			}
		}
		for j, i := range family {
			d := decisions[j]
			if !d.Reject {
				continue
			}
			e.caseVerdict(e.caseTests[i], d, len(family), testable, level)
		}
		if fi == 0 {
			e.caseFamily = familySummary{hypotheses: len(family), testable: testable, level: level}
		}
	}
}

// familySummary describes the per-case family for the notes.
type familySummary struct {
	hypotheses, testable int
	level                float64
}

// caseVerdict turns a rejected per-case hypothesis into a violation (or an
// improvement), or a note when the change is below pass_rate_drop.
func (e *evaluation) caseVerdict(t caseTest, d stats.TaroneDecision, family, testable int, level float64) {
	br, nr := stats.Ratio(t.base.Pass, t.base.N), stats.Ratio(t.now.Pass, t.now.N)
	change := nr - br
	test := fmt.Sprintf("Fisher's exact test, one-sided: %s ≤ %s (Tarone–Holm, α %s over %d of %d case × scorer tests)",
		stats.PValue(t.p), stats.Level(d.Level), stats.Level(level), d.K, family)
	if abs := max(change, -change); abs < e.cfg.MinEffect {
		e.note("%s (%s): pass rate %d/%d → %d/%d, significant (%s) but under pass_rate_drop (%.0f points)",
			t.key, t.scorer, t.base.Pass, t.base.N, t.now.Pass, t.now.N, test, 100*e.cfg.MinEffect)
		return
	}
	if t.dir == stats.Better {
		e.add(Violation{Kind: KindImproved, Metric: t.scorer, Case: t.key,
			Want: fmt.Sprintf("%d/%d", t.base.Pass, t.base.N), Got: fmt.Sprintf("%d/%d", t.now.Pass, t.now.N),
			Explanation: fmt.Sprintf("the %s pass rate rose from %d/%d to %d/%d samples (%s)", t.scorer, t.base.Pass, t.base.N, t.now.Pass, t.now.N, test)})
		return
	}
	expl := fmt.Sprintf("the %s pass rate fell from %d/%d to %d/%d samples, beyond the draws of an unchanged model: %s",
		t.scorer, t.base.Pass, t.base.N, t.now.Pass, t.now.N, test)
	if f := summariseFailures(t.failures); f != "" {
		expl += "; " + f
	}
	e.add(Violation{Kind: KindRateDrop, Metric: t.scorer, Case: t.key,
		Want: fmt.Sprintf("%d/%d", t.base.Pass, t.base.N), Got: fmt.Sprintf("%d/%d", t.now.Pass, t.now.N), Explanation: expl})
}

// summariseFailures groups the samples that failed the same way:
// "samples 1–4: route: expected exa_only, got tavily_plus_exa".
func summariseFailures(fs []sampleFailure) string {
	var parts []string
	for i := 0; i < len(fs); {
		j := i
		var nums []int
		for ; j < len(fs) && fs[j].text == fs[i].text; j++ {
			nums = append(nums, fs[j].sample)
		}
		parts = append(parts, samplesLabel(nums)+": "+fs[i].text)
		i = j
	}
	return strings.Join(parts, "; ")
}

// samplesLabel names a list of sample numbers: "sample 3", "samples 1–4",
// "samples 1, 3, 5".
func samplesLabel(nums []int) string {
	if len(nums) == 1 {
		return fmt.Sprintf("sample %d", nums[0])
	}
	run := true
	for i := 1; i < len(nums); i++ {
		run = run && nums[i] == nums[i-1]+1
	}
	if run {
		return fmt.Sprintf("samples %d–%d", nums[0], nums[len(nums)-1])
	}
	s := make([]string, len(nums))
	for i, n := range nums {
		s[i] = fmt.Sprint(n)
	}
	return "samples " + strings.Join(s, ", ")
}

// singleNotes sums up the model-behaviour flips of one-sample cases.
func (e *evaluation) singleNotes() {
	for _, x := range []struct {
		list []singleFlip
		what string
	}{{e.singleFlips, "fell"}, {e.singleImproved, "rose"}} {
		if len(x.list) == 0 {
			continue
		}
		names := make([]string, len(x.list))
		for i, f := range x.list {
			names[i] = f.key + " (" + f.scorer + ")"
		}
		e.note("%d one-sample case(s) %s on model behaviour: %s; one draw against one draw is not judged per case (record --samples to test each case), the paired test of each metric over cases judges them",
			len(x.list), x.what, sample(names))
	}
}
