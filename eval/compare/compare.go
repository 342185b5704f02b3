// Package compare puts two reports side by side, benchstat style: for every
// metric the value in A and in B, the change, and — for pass rates of
// per-case outcomes — the p-value of an exact McNemar test on the cases
// both reports hold, with "~" in place of the change when it is not
// significant. Then it names the cases that flipped between A and B and
// the checks that changed. A comparison informs; it is not a verdict.
package compare

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/eval/stats"
)

// Alpha is the significance level below which a paired change is shown,
// compared with the p-value after adjustment across the metrics tested.
const Alpha = stats.Alpha

// Row compares one metric.
type Row struct {
	Metric string
	// A and B are the metric in each report's summary, over the cases both
	// hold and the samples both have of each (like with like); nil when
	// absent.
	A, B *score.Metric
	// Paired rows test a per-case pass rate over the Pairs cases where both
	// reports have an outcome: Worse cases fell, Better rose. MeanA and
	// MeanB are the case-averaged rates over those pairs, and Effect their
	// difference (the mean per-case change B − A): the figures the headline
	// and the effect column show. SamplesA and SamplesB count the samples
	// behind them.
	Paired             bool
	Pairs              int
	SamplesA, SamplesB int
	Worse, Better      int
	MeanA, MeanB       float64
	// P is the two-sided p-value of the exact paired test: McNemar's with
	// one sample per case, else the sign-flip test on the per-case rate
	// differences (Exact false when it was a seeded Monte Carlo of Draws).
	// PAdj is P adjusted across the comparison's family (Result.Adjust):
	// the testable paired rows (stats.Testable). Significance is judged on
	// PAdj.
	P, PAdj float64
	Exact   bool
	Draws   int
	// Effect, with Lo and Hi the interval that inverts the same test at the
	// level the row was judged at (Level: 0.05, or the corrected level of
	// its step in the adjustment), so the interval excludes 0 exactly when
	// the row is significant.
	Effect, Lo, Hi, Level float64
	// MDE is the smallest change Pairs cases detect with 80% power at the
	// row's level, for a design fixed in advance: DesignDiscordance of the
	// cases changing outcome (stats.MinDetectable), not the observed one.
	MDE float64
	// Sampled rows compare runs with several samples per case.
	Sampled            bool
	PassHatA, PassHatB *PassHat // pass^N of each run over the pairs, when sampled

	rates []stats.RatePair // the pairs, for the interval
}

// PassHat is pass^k over the cases of a row with its 95% interval.
type PassHat struct {
	K             int
	Value, Lo, Hi float64
}

// DesignDiscordance is the share of cases a comparison's design assumes
// change outcome between the runs, for the mde column: a figure fixed
// before the data are seen (searchbench power shows others).
const DesignDiscordance = 0.10

// Significant reports whether a paired row's change is significant after
// adjustment for the number of metrics tested.
func (r Row) Significant() bool { return r.Paired && !r.TooFew() && r.PAdj < Alpha }

// TooFew reports whether a paired row has too few cases to test
// (fewer than stats.MinCases).
func (r Row) TooFew() bool { return r.Paired && r.Pairs < stats.MinCases }

// Testable reports whether enough of the row's cases changed for the test
// to reach Alpha at all: only those rows form the adjusted family.
func (r Row) Testable() bool { return r.Paired && !r.TooFew() && stats.Testable(r.Worse+r.Better) }

// Changed reports whether the row's figures differ between A and B: a
// paired row when some case moved, another when its values differ.
func (r Row) Changed() bool {
	if r.Paired {
		return r.Worse+r.Better > 0
	}
	if r.A == nil || r.B == nil {
		return r.A != r.B
	}
	return report.FormatValue(*r.A) != report.FormatValue(*r.B)
}

// CheckChange is a check whose outcome differs between A and B.
type CheckChange struct {
	Check string // "scorer: check name"
	// A and B describe the check in each report ("pass: tavily_only",
	// "fail: exa_only", "absent").
	A, B string
}

// Flip is a case that passed in one report and failed in the other.
type Flip struct {
	Case   string
	Seq    int
	ToFail bool // pass → fail (a regression); otherwise fail → pass
	Checks []CheckChange
}

// RateChange is a case whose pass rate (over its samples) differs between
// two sampled runs.
type RateChange struct {
	Case   string
	Seq    int
	A, B   stats.Cluster // samples passed of samples run, whole case
	Checks []CheckChange // checks whose outcome in sample 1 differs
}

// FlakyPair is a case flaky in A, B or both: each sample's result on each
// side (nil where the case was not flaky there).
type FlakyPair struct {
	Case string
	Seq  int
	A, B []string
}

// Result is a comparison of report A with report B.
type Result struct {
	NameA, NameB string
	A, B         report.Meta
	CasesA       int
	CasesB       int
	Shared       int
	Rows         []Row
	Flips        []Flip
	// Sampled is set when either report has cases with several samples:
	// the rows test per-case pass rates, and RateChanges replaces Flips.
	Sampled                  bool
	MaxSamplesA, MaxSamplesB int
	RateChanges              []RateChange
	// Flaky lists the cases whose samples ended differently in A or B.
	Flaky []FlakyPair
	// Warnings say what the comparison cannot tell: above all, that two
	// simulator recordings differ only by the simulator's scripts.
	Warnings []string
	// Adjustment is the multiple-comparison correction applied to the
	// paired rows (stats.Holm unless SetAdjustment chose another).
	Adjustment stats.Adjustment
	// Family is how many rows were adjusted together.
	Family int
	// Subset is set when A and B hold different cases and the comparison
	// was allowed (CompareOptions.AllowSubset): every metric is then
	// re-aggregated over the Shared cases.
	Subset *SubsetError
	// Truncated counts the shared cases whose sample counts differ: each is
	// compared on the samples both reports have.
	Truncated int
}

// SetAdjustment adjusts the p-values of the testable paired rows across
// their family with a (Holm, Benjamini–Hochberg or none); the other paired
// rows keep their raw p-value. Each paired row's interval is then the one
// that inverts its test at the level its decision was made at
// (stats.Levels), so a row is significant exactly when its interval
// excludes 0.
func (r *Result) SetAdjustment(a stats.Adjustment) {
	r.Adjustment = a
	var idx []int
	var ps []float64
	for i := range r.Rows {
		r.Rows[i].PAdj = r.Rows[i].P
		r.Rows[i].Level = Alpha
		if r.Rows[i].Testable() {
			idx = append(idx, i)
			ps = append(ps, r.Rows[i].P)
		}
	}
	levels := stats.Levels(ps, a, Alpha)
	for k, p := range stats.Adjust(ps, a) {
		r.Rows[idx[k]].PAdj = p
		r.Rows[idx[k]].Level = levels[k]
	}
	for i := range r.Rows {
		row := &r.Rows[i]
		if !row.Paired {
			continue
		}
		row.Lo, row.Hi = stats.SignFlipInterval(row.rates, row.Level)
		row.MDE, _ = stats.MinDetectable(row.Pairs, DesignDiscordance, row.Level, 0.8)
	}
	r.Family = len(idx)
}

// CompareOptions configure CompareWith.
type CompareOptions struct {
	// AllowSubset compares reports whose case sets differ, on the cases
	// both hold, instead of refusing with a *SubsetError.
	AllowSubset bool
	// Scorers re-aggregate the shared cases of a subset; nil means
	// score.All().
	Scorers []score.Scorer
}

// SubsetError refuses to compare reports that hold different cases: their
// metrics would set one set of cases against another.
type SubsetError struct {
	NameA, NameB   string
	CasesA, CasesB int
	Shared         int
	// OnlyA and OnlyB are the first few case keys only one report holds;
	// NOnlyA and NOnlyB count them all.
	OnlyA, OnlyB   []string
	NOnlyA, NOnlyB int
	FilterA        []string // the --filter terms of each run, if any
	FilterB        []string
}

// maxListed is how many case keys a subset message lists.
const maxListed = 3

func listCut(keys []string, n int) string {
	if n == 0 {
		return ""
	}
	s := " (" + strings.Join(keys, ", ")
	if n > len(keys) {
		s += fmt.Sprintf(", … and %d more", n-len(keys))
	}
	return s + ")"
}

// Difference says how the case sets differ: "570 only in A (…), 0 only
// in B, 1 in both".
func (e *SubsetError) Difference() string {
	return fmt.Sprintf("%d case(s) only in A%s, %d only in B%s, %d in both",
		e.NOnlyA, listCut(e.OnlyA, e.NOnlyA), e.NOnlyB, listCut(e.OnlyB, e.NOnlyB), e.Shared)
}

func (e *SubsetError) Error() string {
	s := fmt.Sprintf("A (%s, %d cases) and B (%s, %d cases) hold different cases: %s", e.NameA, e.CasesA, e.NameB, e.CasesB, e.Difference())
	var filtered []string
	if len(e.FilterA) > 0 {
		filtered = append(filtered, "A was filtered with --filter "+strings.Join(e.FilterA, " --filter "))
	}
	if len(e.FilterB) > 0 {
		filtered = append(filtered, "B was filtered with --filter "+strings.Join(e.FilterB, " --filter "))
	}
	if len(filtered) > 0 {
		s += "; " + strings.Join(filtered, "; ")
	}
	return s + fmt.Sprintf(". Their metrics would set one set of cases against another: run both on the same cases, or compare the %d shared case(s) with --allow-subset", e.Shared)
}

// warnings are what a reader must know before trusting the comparison.
func warnings(a, b report.Meta) []string {
	var out []string
	sim := func(m report.Meta) bool { return slices.Contains(strings.Split(m.Backend, "+"), "sim") }
	if sim(a) && sim(b) {
		pa, pb := strings.Join(a.SimPolicies, ", "), strings.Join(b.SimPolicies, ", ")
		w := fmt.Sprintf("both runs replay simulator recordings (policy %s in A, %s in B). The simulator does not read prompts: "+
			"the differences below reflect its scripts, not the model. Record from the live services (record --backend live) to measure a prompt.", pa, pb)
		if pa == pb && a.VariantHash != b.VariantHash {
			w += fmt.Sprintf(" Both were played by the same policy (%s), so no prompt change between them can show here.", pa)
		}
		out = append(out, w)
	}
	backendsOf := func(m report.Meta) []string { return strings.Split(m.Backend, "+") }
	union := append(backendsOf(a), backendsOf(b)...)
	if a.Backend != b.Backend && slices.Contains(union, "sim") && slices.Contains(union, "live") {
		out = append(out, fmt.Sprintf("A replays %s recordings and B %s ones: the simulator plays scripts and the live services a real model, "+
			"so the differences below mix the two. Record both sides from the same backend to compare prompts.", backendName(a), backendName(b)))
	}
	if len(a.Models) > 0 && len(b.Models) > 0 && !slices.Equal(a.Models, b.Models) {
		out = append(out, fmt.Sprintf("the live recordings asked for different models (%s in A, %s in B): the differences below include the change of model.",
			strings.Join(a.Models, ", "), strings.Join(b.Models, ", ")))
	}
	if len(a.BaseURLs) > 0 && len(b.BaseURLs) > 0 && !slices.Equal(a.BaseURLs, b.BaseURLs) {
		out = append(out, fmt.Sprintf("the live recordings came from different base URLs (%s in A, %s in B): another host may serve another model, version or settings.",
			strings.Join(a.BaseURLs, ", "), strings.Join(b.BaseURLs, ", ")))
	}
	if a.VariantHash != "" && a.VariantHash == b.VariantHash && a.Mode == b.Mode {
		out = append(out, fmt.Sprintf("A and B have the same variant hash (%s): the same prompts and settings.", a.VariantHash))
	}
	return out
}

// backendName says where a run's recordings came from, for a warning.
func backendName(m report.Meta) string {
	switch m.Backend {
	case "sim":
		return "simulator"
	case "live":
		return "live"
	case "":
		return "unknown"
	}
	return "a mix of live and simulator"
}

// caseState is what is kept of a case of A: its per-sample outcomes per
// metric and its checks' states, for pairing with B.
type caseState struct {
	pass bool
	// wholes[k] is whether sample k+1 passed as a whole; outcomes[k] its
	// per-metric outcomes.
	wholes   []bool
	outcomes []map[string]bool
	checks   map[string]string
	order    []string
}

func stateOf(r *report.CaseRecord) *caseState {
	s := &caseState{pass: r.Pass, checks: map[string]string{}}
	r.EachSample(func(x report.SampleRecord) {
		s.wholes = append(s.wholes, x.Pass)
		o := map[string]bool{}
		for _, res := range x.Scores {
			for m, ok := range res.Outcomes() {
				o[m] = ok
			}
		}
		s.outcomes = append(s.outcomes, o)
	})
	for _, res := range r.Scores {
		for _, c := range res.Checks {
			k := res.Scorer + ": " + c.Name
			state := "fail: " + c.Got
			if c.Pass {
				state = "pass: " + c.Got
			}
			if _, dup := s.checks[k]; !dup {
				s.order = append(s.order, k)
			}
			s.checks[k] = state
		}
	}
	if r.Error != "" {
		s.checks["(error)"] = "error: " + r.Error
		s.order = append([]string{"(error)"}, s.order...)
	}
	return s
}

// clusters is, per metric, the outcomes of the first k samples of s.
func (s *caseState) clusters(k int) map[string]stats.Cluster {
	out := map[string]stats.Cluster{}
	for _, o := range s.outcomes[:min(k, len(s.outcomes))] {
		for m, ok := range o {
			c := out[m]
			c.N++
			if ok {
				c.Pass++
			}
			out[m] = c
		}
	}
	return out
}

// whole is how many of the first k samples of s passed as a whole.
func (s *caseState) whole(k int) stats.Cluster {
	c := stats.Cluster{N: min(k, len(s.wholes))}
	for _, ok := range s.wholes[:c.N] {
		if ok {
			c.Pass++
		}
	}
	return c
}

// Compare is CompareWith with default options: reports holding different
// cases are refused with a *SubsetError.
func Compare(a, b report.Source) (*Result, error) { return CompareWith(a, b, CompareOptions{}) }

// CompareWith reads report A whole (its per-case outcomes, not its traces)
// and streams report B against it. Like is compared with like: a case is
// compared on the samples both reports have of it (the first min(nA, nB)),
// and when the counts differ anywhere every metric is re-aggregated over
// those samples (two more passes), which Result.Truncated says. Reports
// that hold different cases are refused with a *SubsetError naming the
// difference, unless opt.AllowSubset: both are then re-aggregated over the
// cases they share, and Result.Subset says so.
func CompareWith(a, b report.Source, opt CompareOptions) (*Result, error) {
	res := &Result{NameA: a.Name, NameB: b.Name}
	states := map[string]*caseState{}
	var orderA []string
	var sumA, sumB *report.Summary
	err := report.Scan(a, func(m report.Meta) error { res.A = m; return nil },
		func(r *report.CaseRecord) error {
			states[r.Key] = stateOf(r)
			orderA = append(orderA, r.Key)
			res.CasesA++
			res.MaxSamplesA = max(res.MaxSamplesA, r.SampleCount())
			return nil
		}, func(s *report.Summary) { sumA = s })
	if err != nil {
		return nil, err
	}
	type pairCount struct {
		worse, better      int
		samplesA, samplesB int
		rates              []stats.RatePair
		sampled            bool // some pair has several samples
	}
	pairs := map[string]*pairCount{}
	var flips []Flip
	var rateChanges []RateChange
	sub := &SubsetError{NameA: a.Name, NameB: b.Name}
	common := map[string]int{} // shared case → samples compared
	truncated := 0
	err = report.Scan(b, func(m report.Meta) error { res.B = m; return nil },
		func(r *report.CaseRecord) error {
			res.CasesB++
			res.MaxSamplesB = max(res.MaxSamplesB, r.SampleCount())
			sa, ok := states[r.Key]
			if !ok {
				if sub.NOnlyB++; len(sub.OnlyB) < maxListed {
					sub.OnlyB = append(sub.OnlyB, r.Key)
				}
				return nil
			}
			res.Shared++
			sb := stateOf(r)
			k := min(len(sa.wholes), len(sb.wholes))
			common[r.Key] = k
			if len(sa.wholes) != len(sb.wholes) {
				truncated++
			}
			ca, cb := sa.clusters(k), sb.clusters(k)
			for m, y := range cb {
				x, both := ca[m]
				if !both || x.N == 0 || y.N == 0 {
					continue
				}
				pc := pairs[m]
				if pc == nil {
					pc = &pairCount{}
					pairs[m] = pc
				}
				pc.sampled = pc.sampled || x.N > 1 || y.N > 1
				pc.samplesA += x.N
				pc.samplesB += y.N
				pc.rates = append(pc.rates, stats.RatePair{PassA: x.Pass, NA: x.N, PassB: y.Pass, NB: y.N})
				ra, rb := stats.Ratio(x.Pass, x.N), stats.Ratio(y.Pass, y.N)
				switch {
				case ra > rb:
					pc.worse++
				case ra < rb:
					pc.better++
				}
			}
			wa, wb := sa.whole(k), sb.whole(k)
			if wa.Pass != wb.Pass {
				rateChanges = append(rateChanges, RateChange{Case: r.Key, Seq: r.Seq, A: wa, B: wb, Checks: changes(sa, sb)})
			}
			if sa.pass != sb.pass {
				flips = append(flips, Flip{Case: r.Key, Seq: r.Seq, ToFail: sa.pass, Checks: changes(sa, sb)})
			}
			return nil
		}, func(s *report.Summary) { sumB = s })
	if err != nil {
		return nil, err
	}
	if res.Shared != res.CasesA || res.Shared != res.CasesB {
		for _, k := range orderA {
			if _, ok := common[k]; !ok {
				if sub.NOnlyA++; len(sub.OnlyA) < maxListed {
					sub.OnlyA = append(sub.OnlyA, k)
				}
			}
		}
		sub.CasesA, sub.CasesB, sub.Shared = res.CasesA, res.CasesB, res.Shared
		sub.FilterA, sub.FilterB = res.A.Filter, res.B.Filter
		if !opt.AllowSubset {
			return nil, sub
		}
		res.Subset = sub
	}
	res.Truncated = truncated
	if res.Subset != nil || truncated > 0 {
		if sumA, err = sharedSummary(a, common, opt.Scorers); err != nil {
			return nil, err
		}
		if sumB, err = sharedSummary(b, common, opt.Scorers); err != nil {
			return nil, err
		}
	}

	res.Sampled = res.MaxSamplesA > 1 || res.MaxSamplesB > 1
	if res.Sampled {
		res.RateChanges = rateChanges
	} else {
		// One sample per case: a flip is a change of the case's outcome.
		res.Flips = flips
	}
	res.Flaky = flakyPairs(sumA, sumB)

	// Rows: A's metrics in order, then those only B has.
	byB := map[string]*score.Metric{}
	for i := range sumB.Metrics {
		byB[sumB.Metrics[i].Name] = &sumB.Metrics[i]
	}
	seen := map[string]bool{}
	add := func(ma, mb *score.Metric) {
		name := ma
		if name == nil {
			name = mb
		}
		row := Row{Metric: name.Name, A: ma, B: mb}
		if ma != nil && mb != nil && ma.Paired && mb.Paired {
			if pc := pairs[name.Name]; pc != nil && len(pc.rates) > 0 {
				row.Paired, row.Pairs, row.Worse, row.Better = true, len(pc.rates), pc.worse, pc.better
				row.SamplesA, row.SamplesB = pc.samplesA, pc.samplesB
				row.rates = pc.rates
				row.Effect = stats.MeanDifference(pc.rates)
				row.MeanA, row.MeanB = caseMeans(pc.rates)
				row.Sampled = pc.sampled
				if pc.sampled {
					row.P, row.Exact, row.Draws = stats.SignFlipRates(pc.rates)
					row.PassHatA, row.PassHatB = passHats(pc.rates)
				} else {
					row.P, row.Exact = stats.McNemar(pc.worse, pc.better), true
				}
			}
		}
		res.Rows = append(res.Rows, row)
	}
	for i := range sumA.Metrics {
		m := &sumA.Metrics[i]
		seen[m.Name] = true
		add(m, byB[m.Name])
	}
	for i := range sumB.Metrics {
		if m := &sumB.Metrics[i]; !seen[m.Name] {
			add(nil, m)
		}
	}
	slices.SortStableFunc(res.Flips, func(x, y Flip) int { return x.Seq - y.Seq })
	slices.SortStableFunc(res.RateChanges, func(x, y RateChange) int { return x.Seq - y.Seq })
	if truncated > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("A has up to %d sample(s) per case and B up to %d: like is compared with like, each of the %d case(s) whose counts differ on the samples both have (the first min of the two), and every figure below is over those samples",
			res.MaxSamplesA, res.MaxSamplesB, truncated))
	}
	res.Warnings = append(warnings(res.A, res.B), res.Warnings...)
	res.SetAdjustment(stats.Holm)
	return res, nil
}

// caseMeans are the case-averaged rates of A and B over pairs.
func caseMeans(ps []stats.RatePair) (a, b float64) {
	for _, p := range ps {
		a += stats.Ratio(p.PassA, p.NA)
		b += stats.Ratio(p.PassB, p.NB)
	}
	n := float64(len(ps))
	return a / n, b / n
}

// passHats are pass^k of each side over the pairs, k the most samples
// every pair has on that side (nil below 2), each with the Wilson interval
// over cases (a case's estimate is a fraction in [0, 1], for which the
// interval of a binomial mean is conservative).
func passHats(ps []stats.RatePair) (a, b *PassHat) {
	side := func(pass, n func(stats.RatePair) int) *PassHat {
		k := 0
		for i, p := range ps {
			if i == 0 || n(p) < k {
				k = n(p)
			}
		}
		if k < 2 {
			return nil
		}
		var sum float64
		for _, p := range ps {
			sum += stats.PassHatK(n(p), pass(p), k)
		}
		v := sum / float64(len(ps))
		lo, hi := stats.WilsonMean(v, len(ps))
		return &PassHat{K: k, Value: v, Lo: lo, Hi: hi}
	}
	return side(func(p stats.RatePair) int { return p.PassA }, func(p stats.RatePair) int { return p.NA }),
		side(func(p stats.RatePair) int { return p.PassB }, func(p stats.RatePair) int { return p.NB })
}

// sharedSummary re-aggregates the cases of src that the other report
// holds (a key of common), each on its first common[key] samples.
func sharedSummary(src report.Source, common map[string]int, scorers []score.Scorer) (*report.Summary, error) {
	if scorers == nil {
		scorers = score.All()
	}
	agg := report.NewAggregate(scorers)
	err := report.Scan(src, nil, func(r *report.CaseRecord) error {
		k, ok := common[r.Key]
		if !ok {
			return nil
		}
		if r.SampleCount() > k {
			r.Samples = r.Samples[:k-1]
		}
		agg.Add(r)
		return nil
	}, nil)
	if err != nil {
		return nil, err
	}
	s := agg.Summary()
	return &s, nil
}

// flakyPairs joins the flaky cases of both summaries, in case order.
func flakyPairs(a, b *report.Summary) []FlakyPair {
	byCase := map[string]*FlakyPair{}
	var out []*FlakyPair
	add := func(s *report.Summary, side func(*FlakyPair, []string)) {
		if s.Samples == nil {
			return
		}
		for _, f := range s.Samples.Flaky {
			p := byCase[f.Case]
			if p == nil {
				p = &FlakyPair{Case: f.Case, Seq: f.Seq}
				byCase[f.Case] = p
				out = append(out, p)
			}
			side(p, f.Results)
		}
	}
	add(a, func(p *FlakyPair, r []string) { p.A = r })
	add(b, func(p *FlakyPair, r []string) { p.B = r })
	slices.SortStableFunc(out, func(x, y *FlakyPair) int { return x.Seq - y.Seq })
	res := make([]FlakyPair, len(out))
	for i, p := range out {
		res[i] = *p
	}
	return res
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// changes lists the checks whose state differs between A and B, in A's
// order then B's.
func changes(a, b *caseState) []CheckChange {
	var out []CheckChange
	for _, k := range a.order {
		sb, ok := b.checks[k]
		if !ok {
			sb = "absent"
		}
		if passState(a.checks[k]) != passState(sb) {
			out = append(out, CheckChange{Check: k, A: a.checks[k], B: sb})
		}
	}
	for _, k := range b.order {
		if _, ok := a.checks[k]; !ok && passState(b.checks[k]) != "pass" {
			out = append(out, CheckChange{Check: k, A: "absent", B: b.checks[k]})
		}
	}
	return out
}

func passState(s string) string {
	state, _, _ := strings.Cut(s, ":")
	return state
}

// Options configure Write.
type Options struct {
	// Markdown selects GitHub Markdown.
	Markdown bool
	// Verbose shows every metric row; without it only the paired rows
	// that changed significantly are shown and the rest counted.
	Verbose bool
	// Width is the width the terminal tables and notes fit (0:
	// report.DefaultWidth). Negative (--wide) lifts the limit and shows
	// every column: the counts beside each rate, the pairs, mde and pass^N
	// columns that a fitted table leaves to --wide.
	Width int
}

// fits reports whether a table shows every column: with --wide, in
// Markdown, or when its cells fit the width unwrapped.
func (o Options) fits(header []string, rows [][]string) bool {
	return o.Width < 0 || o.Markdown || report.TableWidth(header, rows) <= o.width()
}

// width is the width the terminal tables fit.
func (o Options) width() int {
	if o.Width == 0 {
		return report.DefaultWidth
	}
	return o.Width
}

// maxHeadlineChanges is how many significant changes the headline names.
const maxHeadlineChanges = 5

// costMetrics are the cost metrics the headline states, when present.
var costMetrics = []string{"cost.usd", "cost.tokens", "cost.latency.p95"}

// Headline is the comparison in three lines: the metrics that changed
// significantly (after adjustment), the cases that changed, and the change
// in cost. Every figure of a paired metric is the case-averaged one its
// effect is the difference of.
func (r *Result) Headline() []string {
	var sig []string
	paired := 0
	for _, row := range r.Rows {
		if !row.Paired {
			continue
		}
		paired++
		if row.Significant() {
			sig = append(sig, fmt.Sprintf("%s %s → %s (%s, %s)", row.Metric, pct(row.MeanA), pct(row.MeanB), effectCell(row), pText(row)))
		}
	}
	lines := []string{}
	if r.Subset != nil {
		lines = append(lines, fmt.Sprintf("Subset: only the %d cases both reports hold are compared, every metric re-aggregated over them (--allow-subset; %s)",
			r.Shared, r.Subset.Difference()))
	}
	if len(sig) > maxHeadlineChanges {
		// A long list is cut: the metrics table has every row.
		sig = append(sig[:maxHeadlineChanges], fmt.Sprintf("and %d more (in the table below)", len(sig)-maxHeadlineChanges))
	}
	if len(sig) == 0 {
		lines = append(lines, fmt.Sprintf("Significant changes: none (no paired metric of %d changed with adjusted p < %.2f; %s)", paired, Alpha, r.adjustment()))
	} else {
		lines = append(lines, "Significant changes: "+strings.Join(sig, "; "))
	}
	rose, fell := 0, 0
	if r.Sampled {
		for _, c := range r.RateChanges {
			if stats.Ratio(c.B.Pass, c.B.N) < stats.Ratio(c.A.Pass, c.A.N) {
				fell++
			} else {
				rose++
			}
		}
		lines = append(lines, fmt.Sprintf("Cases: %d rose, %d fell, of %d both reports hold (any change of a case's pass rate over the samples both have; the gate counts only the changes its per-case test finds)",
			rose, fell, r.Shared))
	} else {
		for _, f := range r.Flips {
			if f.ToFail {
				fell++
			} else {
				rose++
			}
		}
		lines = append(lines, fmt.Sprintf("Cases: %d fixed (fail→pass), %d broken (pass→fail), of %d both reports hold", rose, fell, r.Shared))
	}
	var cost []string
	for _, name := range costMetrics {
		for _, row := range r.Rows {
			if row.Metric == name && row.A != nil && row.B != nil && row.A.Unit == score.UnitUSD {
				// The dollar change itself and relative to A.
				d := "0.0%"
				if abs, rel := usdDelta(row); row.B.Value != row.A.Value {
					d = strings.Trim(abs+", "+rel, ", ")
				}
				cost = append(cost, fmt.Sprintf("dollars %s → %s (%s)", report.FormatValue(*row.A), report.FormatValue(*row.B), d))
			} else if row.Metric == name && row.A != nil && row.B != nil {
				cost = append(cost, fmt.Sprintf("%s %s → %s (%s)", strings.TrimPrefix(name, "cost."), report.FormatValue(*row.A), report.FormatValue(*row.B), delta(row)))
			}
		}
	}
	if len(cost) == 0 {
		lines = append(lines, "Cost: no cost metrics in both reports")
	} else {
		lines = append(lines, "Cost per case (untested): "+strings.Join(cost, ", "))
	}
	return lines
}

// Next is the comparison's last line: what to do with it.
func (r *Result) Next() string {
	var worse, better []string
	for _, row := range r.Rows {
		if !row.Significant() {
			continue
		}
		if row.Effect < 0 {
			worse = append(worse, row.Metric)
		} else {
			better = append(better, row.Metric)
		}
	}
	b := r.B.Variant
	if b == "" {
		b = r.NameB
	}
	switch {
	case len(worse) > 0:
		return fmt.Sprintf("Next: B is worse on %s: read the cases that fell above and B's report.html; fix the prompt, or accept a reviewed trade-off (searchbench accept) in its pull request",
			cut(worse))
	case len(better) > 0:
		return fmt.Sprintf("Next: B is better on %s and worse on none: to ship %s, copy its prompt files over the ones it changes, run make pr-update and open a pull request (its gate judges it against the base)",
			cut(better), b)
	}
	return "Next: no metric changed beyond what the draws explain; to see smaller changes, record more samples (record --samples 10) or more cases (searchbench power says how many)"
}

// cut names up to three items and counts the rest.
func cut(items []string) string {
	if len(items) <= 3 {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:3], ", "), len(items)-3)
}

// adjustment names the correction and its family, for notes.
func (r *Result) adjustment() string {
	a := r.Adjustment
	if a == "" {
		a = stats.Holm
	}
	if a == stats.None {
		return "p-values not adjusted for the number of metrics tested"
	}
	return fmt.Sprintf("p adjusted by %s across the %d testable paired metric(s)", a.Describe(), r.Family)
}

// MetricsTable is the metrics side by side, every row: metric, A, B,
// effect with its interval, p, cases, samples, mde.
func (r *Result) MetricsTable() score.Table {
	rows := make([][]string, len(r.Rows))
	for i, row := range r.Rows {
		rows[i] = []string{row.Metric, sideCell(row, true, true), sideCell(row, false, true), effectCell(row), pValue(row), pairsCell(row), mdeCell(row)}
	}
	return score.Table{Title: "Metrics", Header: wideHeader, Rows: rows, Notes: []string{r.footnote()}}
}

var (
	metricsHeader = []string{"metric", "A", "B", "effect [CI]", "p", "cases (−/+)"}
	wideHeader    = []string{"metric", "A", "B", "effect [CI]", "p", "cases (−/+)", "mde"}
)

// shortNote is the line under the default metrics table: what the
// columns are, and where the full explanation is (footnote, with -v).
func (r *Result) shortNote() string {
	adj := "not adjusted"
	switch r.Adjustment {
	case "", stats.Holm:
		adj = "Holm-adjusted"
	case stats.BH:
		adj = "BH-adjusted"
	}
	return fmt.Sprintf("A, B: case-averaged rates; effect: B − A; p: %s. How to read it: docs/statistics.md", adj)
}

// footnote is the full explanation under the metrics table (-v, and the
// HTML comparison's table).
func (r *Result) footnote() string {
	test := "McNemar's exact test"
	if r.Sampled {
		test = "the exact sign-flip test on per-case rates (McNemar's with one sample)"
	}
	return fmt.Sprintf("A, B: case-averaged rates over the cases both hold; effect: their mean per-case change, its interval the one that inverts the test at the row's level; p: %s, %s. How to read it: docs/statistics.md",
		test, r.adjustment())
}

// Write prints the comparison: who A and B are and what to know before
// trusting it, a headline (significant changes, cases, cost), the metrics
// that changed significantly (every row with opt.Verbose), the cases that
// changed, and a next step.
func Write(w io.Writer, r *Result, opt Options) error {
	markdown := opt.Markdown
	var err error
	printf := func(format string, args ...any) {
		if err == nil {
			_, err = fmt.Fprintf(w, format, args...)
		}
	}
	lines := func(s, indent string) {
		if markdown {
			printf("%s\n", report.EscapeMarkdown(s))
			return
		}
		for _, l := range report.WrapText(s, opt.width(), indent) {
			printf("%s\n", l)
		}
	}
	describe := func(name string, m report.Meta, cases int) string {
		v := m.Variant
		if m.VariantHash != "" {
			v += " (hash " + m.VariantHash + ")"
		}
		s := fmt.Sprintf("%s — variant %s, mode %s, %d cases", name, v, m.Mode, cases)
		if m.Backend != "" {
			s += ", recorded from " + m.Backend
		}
		if len(m.Filter) > 0 {
			s += ", filter " + strings.Join(m.Filter, ",")
		}
		if m.Shard != "" {
			s += ", shard " + m.Shard
		}
		return s
	}
	if markdown {
		printf("### searchbench compare\n\n- A: %s\n- B: %s\n\n", report.EscapeMarkdown(describe(r.NameA, r.A, r.CasesA)),
			report.EscapeMarkdown(describe(r.NameB, r.B, r.CasesB)))
		for _, w := range r.Warnings {
			printf("> **Warning:** %s\n\n", report.EscapeMarkdown(w))
		}
		printf("#### Headline\n\n")
		for _, l := range r.Headline() {
			printf("- %s\n", report.EscapeMarkdown(l))
		}
		printf("\n")
	} else {
		lines("A: "+describe(r.NameA, r.A, r.CasesA), "   ")
		lines("B: "+describe(r.NameB, r.B, r.CasesB), "   ")
		printf("\n")
		for _, w := range r.Warnings {
			lines("warning: "+w, "  ")
		}
		if len(r.Warnings) > 0 {
			printf("\n")
		}
		for _, l := range r.Headline() {
			lines(l, "  ")
		}
		printf("\n")
	}
	var rows [][]string
	unchanged, noise, untested := 0, 0, 0
	wide := opt.Width < 0
	for _, row := range r.Rows {
		switch {
		case opt.Verbose:
		case !row.Changed():
			unchanged++
			continue
		case row.Paired && !row.Significant():
			noise++
			continue
		case !row.Paired:
			untested++
			continue
		}
		cells := []string{row.Metric, sideCell(row, true, wide), sideCell(row, false, wide), effectCell(row), pValue(row), pairsCell(row)}
		if wide {
			cells = append(cells, mdeCell(row))
		}
		rows = append(rows, cells)
	}
	header := metricsHeader
	if wide {
		header = wideHeader
	}
	title := fmt.Sprintf("Metrics that changed significantly (%d of %d)", len(rows), len(r.Rows))
	if opt.Verbose {
		title = fmt.Sprintf("Metrics (all %d)", len(r.Rows))
	}
	// One line says what the columns are, one what is not shown; -v
	// explains in full.
	notes := []string{r.shortNote()}
	if opt.Verbose {
		notes = []string{r.footnote()}
	}
	if !opt.Verbose && unchanged+noise+untested > 0 {
		notes = append(notes, fmt.Sprintf("not shown: %d unchanged, %d not significant, %d untested figures that changed; -v shows every row",
			unchanged, noise, untested))
	}
	if wide {
		notes = append(notes, fmt.Sprintf("mde: the smallest change the cases detect with 80%% power at the row's level, if %.0f%% of them change outcome (a design fixed in advance)", 100*DesignDiscordance))
	}
	if len(rows) == 0 {
		printf("%s: none\n", title)
		for _, n := range notes {
			lines("  "+n, "  ")
		}
	} else if e := report.RenderTableWidth(w, markdown, opt.width(), title, header, rows, notes); e != nil && err == nil {
		err = e
	}
	if r.Sampled {
		if e := writeSamples(w, r, opt); e != nil && err == nil {
			err = e
		}
	} else if e := writeFlips(w, r, opt); e != nil && err == nil {
		err = e
	}
	printf("\n")
	lines(r.Next(), "  ")
	return err
}

// writeFlips prints the cases whose outcome flipped (one sample per case).
func writeFlips(w io.Writer, r *Result, opt Options) error {
	if len(r.Flips) == 0 {
		_, err := fmt.Fprintf(w, "\nNo case flipped between A and B.\n")
		return err
	}
	var frows [][]string
	toFail := 0
	for _, f := range r.Flips {
		dir := "fail→pass"
		if f.ToFail {
			dir = "pass→fail"
			toFail++
		}
		frows = append(frows, []string{f.Case, dir, checkLines(f.Checks)})
	}
	if _, err := fmt.Fprintln(w); err != nil {
		return err
	}
	title := fmt.Sprintf("Flipped cases (%d pass→fail, %d fail→pass)", toFail, len(r.Flips)-toFail)
	return report.RenderTableWidth(w, opt.Markdown, opt.width(), title, []string{"case", "change", "check: A → B"}, frows, nil)
}

// pct writes a rate in percent.
func pct(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }

// sideCell is a row's A (a) or B figure: for a paired row the
// case-averaged rate (with its cases and samples when wide), else the
// summary's value.
func sideCell(r Row, a, wide bool) string {
	if r.Paired {
		v, n := r.MeanB, r.SamplesB
		if a {
			v, n = r.MeanA, r.SamplesA
		}
		if !wide {
			return pct(v)
		}
		if n != r.Pairs {
			return fmt.Sprintf("%s (%d cases, %d samples)", pct(v), r.Pairs, n)
		}
		return fmt.Sprintf("%s (%d cases)", pct(v), r.Pairs)
	}
	m := r.B
	if a {
		m = r.A
	}
	if m == nil {
		return "–"
	}
	s := report.FormatValue(*m)
	if wide && m.Unit == score.UnitRate {
		s += " (" + report.FormatN(*m) + ")"
	}
	return s
}

// effectCell is a paired row's effect with its interval, "untested" for
// a figure no test applies to, "–" when a side is missing.
func effectCell(r Row) string {
	switch {
	case r.A == nil || r.B == nil:
		return "–"
	case !r.Paired:
		return "untested"
	case r.TooFew():
		return fmt.Sprintf("n=%d: too few cases to test", r.Pairs)
	}
	conf := ""
	if r.Level != Alpha {
		conf = fmt.Sprintf(" (%s%% CI)", confidence(r.Level))
	}
	return fmt.Sprintf("%+.1f pp [%+.1f, %+.1f]%s", 100*r.Effect, 100*r.Lo, 100*r.Hi, conf)
}

// confidence writes 1 − level in percent: "95", "99.8".
func confidence(level float64) string {
	c := 100 * (1 - level)
	if c == math.Trunc(c) {
		return fmt.Sprintf("%.0f", c)
	}
	if s := fmt.Sprintf("%.1f", c); s != "100.0" {
		return s
	}
	return fmt.Sprintf("%.3f", c)
}

// narrow is a value cell without the counts of a rate: "77.9%" for
// "77.9% (265/340)".
func narrow(c string) string {
	v, _, _ := strings.Cut(c, " (")
	return v
}

func cell(m *score.Metric) string {
	if m == nil {
		return "–"
	}
	s := report.FormatValue(*m)
	if m.Unit == score.UnitRate {
		s += " (" + report.FormatN(*m) + ")"
	}
	return s
}

// delta formats the change: for a paired rate the paired per-case effect
// (in percentage points), "~" when it is not significant after adjustment,
// and "n=3: too few cases to test" below stats.MinCases; for the other
// metrics B − A, scores absolute, other units relative to A (absolute when
// A is 0); "–" when a side is missing.
func delta(r Row) string {
	if r.A == nil || r.B == nil {
		return "–"
	}
	if r.TooFew() {
		return fmt.Sprintf("n=%d: too few cases to test", r.Pairs)
	}
	if r.Paired {
		if !r.Significant() {
			return "~"
		}
		return fmt.Sprintf("%+.1f pp", 100*r.Effect)
	}
	d := r.B.Value - r.A.Value
	switch {
	case r.A.Unit == score.UnitRate:
		return fmt.Sprintf("%+.1f pp", 100*d)
	case r.A.Unit == score.UnitScore:
		return fmt.Sprintf("%+.3f", d)
	case r.A.Unit == score.UnitUSD && d != 0:
		abs, rel := usdDelta(r)
		if rel != "" {
			return abs + " (" + rel + ")"
		}
		return abs
	case d == 0:
		return "0.0%"
	case r.A.Value != 0:
		return fmt.Sprintf("%+.1f%%", 100*d/math.Abs(r.A.Value))
	}
	sign := "+"
	if d < 0 {
		sign = "−"
	}
	return sign + report.FormatNumber(r.A.Unit, math.Abs(d))
}

// usdDelta gives a dollar change itself ("−$0.0006") and relative to A
// ("−7.1%"; "" when A is 0).
func usdDelta(r Row) (abs, rel string) {
	d := r.B.Value - r.A.Value
	sign := "+"
	if d < 0 {
		sign = "−"
	}
	abs = sign + report.FormatUSD(math.Abs(d))
	if r.A.Value != 0 {
		rel = fmt.Sprintf("%s%.1f%%", sign, 100*math.Abs(d)/math.Abs(r.A.Value))
	}
	return abs, rel
}

// pValue is the adjusted p-value, with the raw one in brackets when the
// adjustment changed it.
func pValue(r Row) string {
	if !r.Paired {
		return "–"
	}
	if r.TooFew() {
		return "untested"
	}
	s := stats.PValue(r.PAdj)
	if r.PAdj != r.P {
		s += " (raw " + stats.PValue(r.P) + ")"
	}
	if !r.Exact {
		s += fmt.Sprintf(" (Monte Carlo ±%.3f)", stats.MonteCarloSE(r.P, r.Draws))
	}
	return s
}

// pText is the p-value for the headline: "p < 0.001".
func pText(r Row) string { return stats.PValue(r.PAdj) }

func pairsCell(r Row) string {
	if !r.Paired {
		return ""
	}
	return fmt.Sprintf("%d (−%d +%d)", r.Pairs, r.Worse, r.Better)
}

func mdeCell(r Row) string {
	if !r.Paired {
		return ""
	}
	if r.MDE >= 1 || r.MDE <= 0 {
		return "none"
	}
	return fmt.Sprintf("±%.1f pp", 100*r.MDE)
}
