package compare

import (
	"math/rand/v2"
	"testing"

	"github.com/searchbench/searchbench/eval/stats"
)

// An interval and its p-value never disagree: on synthetic comparisons at
// several numbers of cases, samples and effects, under each adjustment, a
// row is significant exactly when its interval excludes 0 (compare once
// printed "p<0.001" beside "+12.0 pp [-2.8, +27.8]").
func TestIntervalAgreesWithP(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 1))
	checked, sig := 0, 0
	ns, trials := []int{6, 10, 20, 40, 68, 105}, 4
	if testing.Short() {
		ns, trials = []int{6, 20, 68}, 2
	}
	for _, n := range ns {
		for _, samples := range []int{1, 5} {
			for trial := range trials {
				res := &Result{}
				for m := range 6 {
					shift := []float64{0, 0.05, 0.1, 0.2, 0.35, -0.15}[(m+trial)%6]
					var ps []stats.RatePair
					worse, better := 0, 0
					for range n {
						pa := rng.Float64()
						pb := min(1, max(0, pa+shift))
						p := stats.RatePair{PassA: draws(rng, samples, pa), NA: samples, PassB: draws(rng, samples, pb), NB: samples}
						ps = append(ps, p)
						switch ra, rb := stats.Ratio(p.PassA, p.NA), stats.Ratio(p.PassB, p.NB); {
						case ra > rb:
							worse++
						case rb > ra:
							better++
						}
					}
					row := Row{Paired: true, Pairs: n, Worse: worse, Better: better, rates: ps, Effect: stats.MeanDifference(ps), Exact: true}
					if samples == 1 {
						row.P = stats.McNemar(worse, better)
					} else {
						row.P, row.Exact, row.Draws = stats.SignFlipRates(ps)
					}
					res.Rows = append(res.Rows, row)
				}
				for _, a := range []stats.Adjustment{stats.Holm, stats.BH, stats.None} {
					res.SetAdjustment(a)
					for _, r := range res.Rows {
						if r.TooFew() {
							continue
						}
						checked++
						excludes := r.Lo > 0 || r.Hi < 0
						if r.Significant() {
							sig++
						}
						if r.Significant() != excludes {
							t.Errorf("n %d, %d samples, %s: p %v adjusted %v (significant %v) but interval [%v, %v] at level %v",
								n, samples, a, r.P, r.PAdj, r.Significant(), r.Lo, r.Hi, r.Level)
						}
						if !(r.Lo <= r.Effect && r.Effect <= r.Hi) {
							t.Errorf("n %d: effect %v outside its interval [%v, %v]", n, r.Effect, r.Lo, r.Hi)
						}
					}
				}
			}
		}
	}
	if checked < 100 || sig < checked/5 || sig > checked*4/5 {
		t.Errorf("%d rows checked, %d significant: the synthetic set does not exercise both outcomes", checked, sig)
	}
}

func draws(rng *rand.Rand, n int, p float64) int {
	k := 0
	for range n {
		if rng.Float64() < p {
			k++
		}
	}
	return k
}
