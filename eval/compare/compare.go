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
	// A and B are the metric in each report's summary; nil when absent.
	A, B *score.Metric
	// Paired rows have a McNemar test over Pairs cases: Worse passed in A
	// and failed in B, Better the reverse. P is its p-value (unset when
	// not paired).
	Paired        bool
	Pairs         int
	Worse, Better int
	P             float64
	// PAdj is P adjusted across the comparison's family (Result.Adjust):
	// the testable paired rows (stats.Testable). A row outside the family
	// keeps its P. Significance is judged on PAdj.
	PAdj float64
	// Effect is the paired effect every figure of the row uses: the mean
	// over the Pairs cases of the per-case pass-rate difference B − A (for
	// one sample per case, (Better − Worse)/Pairs). MDE is the smallest
	// change Pairs cases detect with 80% power at Alpha (stats.PairedMDE).
	MDE float64
	// Sampled rows compare runs with several samples per case: Worse and
	// Better count the cases whose pass rate fell or rose, P is the exact
	// paired sign-flip test on the per-case pass-rate differences
	// (stats.SignFlip; Exact false when it was a seeded Monte Carlo), and
	// Effect (set for every paired row) is their mean.
	Sampled            bool
	Exact              bool
	Draws              int      // Monte Carlo draws when not Exact
	Effect, Lo, Hi     float64  // Lo, Hi: a 95% interval for Effect (stats.PairedInterval)
	PassHatA, PassHatB *float64 // pass^N of each run (N: Result.MaxSamples), when it has it
}

// Significant reports whether a paired row's change is significant after
// adjustment for the number of metrics tested.
func (r Row) Significant() bool { return r.Paired && !r.TooFew() && r.PAdj < Alpha }

// TooFew reports whether a paired row has too few cases to test
// (fewer than stats.MinCases).
func (r Row) TooFew() bool { return r.Paired && r.Pairs < stats.MinCases }

// Testable reports whether enough of the row's cases changed for the test
// to reach Alpha at all: only those rows form the adjusted family.
func (r Row) Testable() bool { return r.Paired && !r.TooFew() && stats.Testable(r.Worse+r.Better) }

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
}

// SetAdjustment adjusts the p-values of the testable paired rows across
// their family with a (Holm, Benjamini–Hochberg or none); the other paired
// rows keep their raw p-value.
func (r *Result) SetAdjustment(a stats.Adjustment) {
	r.Adjustment = a
	var idx []int
	var ps []float64
	for i := range r.Rows {
		r.Rows[i].PAdj = r.Rows[i].P
		if r.Rows[i].Testable() {
			idx = append(idx, i)
			ps = append(ps, r.Rows[i].P)
		}
	}
	for k, p := range stats.Adjust(ps, a) {
		r.Rows[idx[k]].PAdj = p
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

// caseState is what is kept of a case of A: its per-metric outcomes and
// its checks' states, for pairing with B.
type caseState struct {
	pass     bool
	whole    stats.Cluster            // samples passed as a whole, of all
	clusters map[string]stats.Cluster // per metric, over samples
	outcomes map[string]bool
	checks   map[string]string
	order    []string
}

func stateOf(r *report.CaseRecord) *caseState {
	s := &caseState{pass: r.Pass, outcomes: map[string]bool{}, checks: map[string]string{}, clusters: r.MetricClusters()}
	r.EachSample(func(x report.SampleRecord) {
		s.whole.N++
		if x.Pass {
			s.whole.Pass++
		}
	})
	for _, res := range r.Scores {
		for m, ok := range res.Outcomes() {
			s.outcomes[m] = ok
		}
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

// Compare is CompareWith with default options: reports holding different
// cases are refused with a *SubsetError.
func Compare(a, b report.Source) (*Result, error) { return CompareWith(a, b, CompareOptions{}) }

// CompareWith reads report A whole (its per-case outcomes, not its traces)
// and streams report B against it. Reports that hold different cases are
// refused with a *SubsetError naming the difference, unless
// opt.AllowSubset: both are then re-aggregated over the cases they share
// (two more passes), and Result.Subset says so.
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
			return nil
		}, func(s *report.Summary) { sumA = s })
	if err != nil {
		return nil, err
	}
	type pairCount struct {
		n, worse, better int
		rates            []stats.RatePair
		sampled          bool // some pair has several samples on a side
	}
	pairs := map[string]*pairCount{}
	var flips []Flip
	var rateChanges []RateChange
	sub := &SubsetError{NameA: a.Name, NameB: b.Name}
	inB := map[string]bool{}
	err = report.Scan(b, func(m report.Meta) error { res.B = m; return nil },
		func(r *report.CaseRecord) error {
			res.CasesB++
			inB[r.Key] = true
			sa, ok := states[r.Key]
			if !ok {
				if sub.NOnlyB++; len(sub.OnlyB) < maxListed {
					sub.OnlyB = append(sub.OnlyB, r.Key)
				}
				return nil
			}
			res.Shared++
			sb := stateOf(r)
			res.MaxSamplesA = max(res.MaxSamplesA, sa.whole.N)
			res.MaxSamplesB = max(res.MaxSamplesB, sb.whole.N)
			if sa.whole.N > 1 || sb.whole.N > 1 {
				// Sampled: pair the metric's pass rates over the samples
				// wherever both runs have an outcome in some sample.
				for m, cb := range sb.clusters {
					ca, both := sa.clusters[m]
					if !both || ca.N == 0 || cb.N == 0 {
						continue
					}
					pc := pairs[m]
					if pc == nil {
						pc = &pairCount{}
						pairs[m] = pc
					}
					pc.n++
					pc.sampled = true
					pc.rates = append(pc.rates, stats.RatePair{PassA: ca.Pass, NA: ca.N, PassB: cb.Pass, NB: cb.N})
					ra, rb := stats.Ratio(ca.Pass, ca.N), stats.Ratio(cb.Pass, cb.N)
					switch {
					case ra > rb:
						pc.worse++
					case ra < rb:
						pc.better++
					}
				}
			} else {
				for m, okB := range sb.outcomes {
					okA, both := sa.outcomes[m]
					if !both {
						continue
					}
					pc := pairs[m]
					if pc == nil {
						pc = &pairCount{}
						pairs[m] = pc
					}
					pc.n++
					pc.rates = append(pc.rates, stats.RatePair{PassA: b2i(okA), NA: 1, PassB: b2i(okB), NB: 1})
					switch {
					case okA && !okB:
						pc.worse++
					case !okA && okB:
						pc.better++
					}
				}
			}
			// Every case whose pass rate changed, one-sample ones too: in a
			// sampled comparison they take the place of flips.
			if stats.Ratio(sa.whole.Pass, sa.whole.N) != stats.Ratio(sb.whole.Pass, sb.whole.N) {
				rateChanges = append(rateChanges, RateChange{Case: r.Key, Seq: r.Seq, A: sa.whole, B: sb.whole, Checks: changes(sa, sb)})
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
			if !inB[k] {
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
		if sumA, err = sharedSummary(a, inB, opt.Scorers); err != nil {
			return nil, err
		}
		if sumB, err = sharedSummary(b, states, opt.Scorers); err != nil {
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
	passHat := func(s *report.Summary, n int) map[string]*float64 {
		out := map[string]*float64{}
		if s.Samples == nil {
			return out
		}
		for _, m := range s.Samples.Metrics {
			if len(m.PassHatK) == n && n > 1 {
				out[m.Name] = &m.PassHatK[n-1]
			}
		}
		return out
	}
	hatA, hatB := passHat(sumA, res.MaxSamplesA), passHat(sumB, res.MaxSamplesB)
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
			if pc := pairs[name.Name]; pc != nil && pc.n > 0 {
				row.Paired, row.Pairs, row.Worse, row.Better = true, pc.n, pc.worse, pc.better
				row.Effect = stats.MeanDifference(pc.rates)
				row.Lo, row.Hi = stats.PairedInterval(pc.rates)
				row.MDE = stats.PairedMDE(pc.rates, Alpha, 0.8)
				if res.Sampled {
					row.Sampled = pc.sampled
					row.P, row.Exact, row.Draws = stats.SignFlipRates(pc.rates)
					row.PassHatA, row.PassHatB = hatA[name.Name], hatB[name.Name]
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
	if res.Sampled && res.MaxSamplesA != res.MaxSamplesB {
		res.Warnings = append(res.Warnings, fmt.Sprintf("A has up to %d sample(s) per case and B up to %d: a case's pass rate is measured more finely on one side; the sign-flip test still pairs them case by case", res.MaxSamplesA, res.MaxSamplesB))
	}
	res.Warnings = append(warnings(res.A, res.B), res.Warnings...)
	res.SetAdjustment(stats.Holm)
	return res, nil
}

// sharedSummary re-aggregates the cases of src that the other report
// holds (a key of in).
func sharedSummary[V any](src report.Source, in map[string]V, scorers []score.Scorer) (*report.Summary, error) {
	if scorers == nil {
		scorers = score.All()
	}
	agg := report.NewAggregate(scorers)
	err := report.Scan(src, nil, func(r *report.CaseRecord) error {
		if _, ok := in[r.Key]; ok {
			agg.Add(r)
		}
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
	// Verbose shows every metric row; without it the rows with no
	// significant change ("~") are left out and counted.
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
// in cost. Every figure is the paired per-case one of the table.
func (r *Result) Headline() []string {
	var sig []string
	paired := 0
	for _, row := range r.Rows {
		if !row.Paired {
			continue
		}
		paired++
		if row.Significant() {
			sig = append(sig, fmt.Sprintf("%s %s → %s (%s, %s)", row.Metric, report.FormatValue(*row.A), report.FormatValue(*row.B), delta(row), pValue(row)))
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
	if r.Sampled {
		fell := 0
		for _, c := range r.RateChanges {
			if stats.Ratio(c.B.Pass, c.B.N) < stats.Ratio(c.A.Pass, c.A.N) {
				fell++
			}
		}
		lines = append(lines, fmt.Sprintf("Cases: %d rose, %d fell (pass rate over their samples), of %d both reports hold", len(r.RateChanges)-fell, fell, r.Shared))
	} else {
		broken := 0
		for _, f := range r.Flips {
			if f.ToFail {
				broken++
			}
		}
		lines = append(lines, fmt.Sprintf("Cases: %d fixed (fail→pass), %d broken (pass→fail), of %d both reports hold", len(r.Flips)-broken, broken, r.Shared))
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
		lines = append(lines, "Cost per case: "+strings.Join(cost, ", "))
	}
	return lines
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

// MetricsTable is the metrics side by side (metric, A, B, delta, p,
// pairs, mde), every row.
func (r *Result) MetricsTable() score.Table {
	rows := make([][]string, len(r.Rows))
	for i, row := range r.Rows {
		rows[i] = []string{row.Metric, cell(row.A), cell(row.B), delta(row), pValue(row), pairsCell(row), mdeCell(row)}
	}
	return score.Table{Title: "Metrics", Header: metricsHeader, Rows: rows, Notes: r.notes()}
}

var metricsHeader = []string{"metric", "A", "B", "delta", "p", "pairs", "mde"}

// notes explain the metrics table.
func (r *Result) notes() []string {
	test := fmt.Sprintf("p: exact McNemar test on the %d cases both reports hold, per metric over the cases where both have an outcome", r.Shared)
	if r.Sampled {
		test = sampledNote(r)
	}
	return []string{
		test + "; " + r.adjustment() + " (the raw p in brackets); a metric enough of whose cases changed to reach p < 0.05 is testable",
		fmt.Sprintf("delta: the paired effect, the mean over the paired cases of the per-case change B − A, shown when the adjusted p < %.2f; ~ means not significant; "+
			"A and B are each report's own rate over all its cases%s, so their difference can differ from delta", Alpha, pooled(r)),
		fmt.Sprintf("a paired metric over fewer than %d cases is too few cases to test (no test at %.2f could find a change); – in p means no test applies: "+
			"the metric is a mean or a figure derived from several rates (F1, precision, recall), untested", stats.MinCases, Alpha),
		"mde: the smallest change of the rate this many cases detect with 80% power at 0.05 (exact McNemar power, given the share of cases that changed)",
	}
}

func pooled(r *Result) string {
	if r.Sampled {
		return " (pooled over samples)"
	}
	return ""
}

// Write prints the comparison: a headline (significant changes, cases
// fixed and broken, cost), the metrics table (metric, A, B, delta, p,
// pairs; the "~" rows only with opt.Verbose), then the flipped cases.
func Write(w io.Writer, r *Result, opt Options) error {
	markdown := opt.Markdown
	var err error
	printf := func(format string, args ...any) {
		if err == nil {
			_, err = fmt.Fprintf(w, format, args...)
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
	} else {
		for _, l := range report.WrapText("A: "+describe(r.NameA, r.A, r.CasesA), opt.width(), "   ") {
			printf("%s\n", l)
		}
		for _, l := range report.WrapText("B: "+describe(r.NameB, r.B, r.CasesB), opt.width(), "   ") {
			printf("%s\n", l)
		}
		printf("\n")
		for _, w := range r.Warnings {
			for _, l := range report.WrapText("warning: "+w, opt.width(), "  ") {
				printf("%s\n", l)
			}
			printf("\n")
		}
	}
	if markdown {
		printf("#### Headline\n\n")
		for _, l := range r.Headline() {
			printf("- %s\n", report.EscapeMarkdown(l))
		}
		printf("\n")
	} else {
		for _, l := range r.Headline() {
			for _, l := range report.WrapText(l, opt.width(), "  ") {
				printf("%s\n", l)
			}
		}
		printf("\n")
	}
	var rows [][]string
	hidden := 0
	for _, row := range r.Rows {
		d := delta(row)
		if d == "~" && !opt.Verbose {
			hidden++
			continue
		}
		rows = append(rows, []string{row.Metric, cell(row.A), cell(row.B), d, pValue(row), pairsCell(row), mdeCell(row)})
	}
	notes := r.notes()
	header := metricsHeader
	if !opt.fits(header, rows) {
		// Too wide: the values alone, the pairs and mde left to --wide.
		for i, row := range rows {
			rows[i] = []string{row[0], narrow(row[1]), narrow(row[2]), row[3], row[4]}
		}
		header = metricsHeader[:5]
		notes = notes[:len(notes)-1] // mde is a --wide column
		notes = append(notes, "--wide adds the counts behind each rate and the pairs and mde (smallest detectable change) columns")
	}
	if hidden > 0 {
		notes = append(notes, fmt.Sprintf("%d metric(s) with no significant change (~) not shown; -v shows every row", hidden))
	}
	if e := report.RenderTableWidth(w, markdown, opt.width(), "Metrics", header, rows, notes); e != nil && err == nil {
		err = e
	}
	if r.Sampled {
		if e := writeSamples(w, r, opt); e != nil && err == nil {
			err = e
		}
		return err
	}
	if len(r.Flips) == 0 {
		printf("\nNo case flipped between A and B.\n")
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
		if len(f.Checks) == 0 {
			frows = append(frows, []string{f.Case, dir, "", "", ""})
		}
		for i, c := range f.Checks {
			cs, d := f.Case, dir
			if i > 0 {
				cs, d = "", ""
			}
			frows = append(frows, []string{cs, d, c.Check, c.A, c.B})
		}
	}
	printf("\n")
	title := fmt.Sprintf("Flipped cases (%d pass→fail, %d fail→pass)", toFail, len(r.Flips)-toFail)
	header = []string{"case", "change", "check", "A", "B"}
	if !opt.fits(header, frows) {
		// Too wide: each case's changed checks in one cell, a line each.
		frows = frows[:0]
		for _, f := range r.Flips {
			dir := "fail→pass"
			if f.ToFail {
				dir = "pass→fail"
			}
			frows = append(frows, []string{f.Case, dir, checkLines(f.Checks)})
		}
		header = []string{"case", "change", "check: A → B"}
	}
	if e := report.RenderTableWidth(w, markdown, opt.width(), title, header, frows, nil); e != nil && err == nil {
		err = e
	}
	return err
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
	s := "p" + pfmt(r.PAdj)
	if r.PAdj != r.P {
		s += " [p" + pfmt(r.P) + "]"
	}
	if !r.Exact {
		s += fmt.Sprintf(" (Monte Carlo ±%.3f)", stats.MonteCarloSE(r.P, r.Draws))
	}
	return s
}

// pfmt is "=0.012" or "<0.001".
func pfmt(p float64) string {
	if p < 0.001 {
		return "<0.001"
	}
	return fmt.Sprintf("=%.3f", p)
}

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
	if r.MDE >= 1 {
		return "none"
	}
	return fmt.Sprintf("±%.1f pp", 100*r.MDE)
}
