package stats

import (
	"math"
	"math/big"
	"slices"
)

// Per-case tests of a sampled case, and the correction that keeps their
// family honest. A case recorded with several samples is judged on its own:
// did its pass rate fall (or rise) between the baseline's samples and the
// run's by more than the draws of an unchanged model explain? That is
// Fisher's exact test on the 2×2 table of passes and failures, one-sided.
// A gate asks it of every case and scorer at once, so the family needs a
// correction; and because the test is discrete, most hypotheses cannot
// reach significance at all (a case that passed every sample on both sides
// has a smallest possible p of 1). Tarone's correction counts only the
// hypotheses that could reject, which keeps five samples' power on a clean
// break (5/5 → 0/5, p = 1/252) where Holm over every case would have none.

// Direction is the alternative a one-sided test looks for.
type Direction int

// Worse: the run (B) passes less often than the baseline (A). Better: more.
const (
	Worse Direction = iota
	Better
)

// Fisher returns the one-sided p-value of Fisher's exact test that B's
// pass rate is lower (Worse) or higher (Better) than A's, from A's passA of
// nA samples and B's passB of nB, and the smallest p-value the test could
// give with the same margins (the table's total passes), which Tarone's
// correction needs. Conditional on the total passes T, B's passes are
// hypergeometric: P(X = x) = C(nA, T−x)·C(nB, x)/C(nA+nB, T). p is the tail
// P(X ≤ passB) (Worse) or P(X ≥ passB) (Better), summed exactly in integers
// and rounded once, so it equals scipy.stats.fisher_exact's one-sided p.
// Counts outside 0…n, or n < 1 on either side, give (1, 1).
func Fisher(passA, nA, passB, nB int, dir Direction) (p, minP float64) {
	if nA < 1 || nB < 1 || passA < 0 || passA > nA || passB < 0 || passB > nB {
		return 1, 1
	}
	t := passA + passB
	lo, hi := max(0, t-nA), min(nB, t) // the support of X
	if lo == hi {
		return 1, 1 // every table with these margins is this one
	}
	term := func(x int) *big.Int {
		c := new(big.Int).Binomial(int64(nA), int64(t-x))
		return c.Mul(c, new(big.Int).Binomial(int64(nB), int64(x)))
	}
	total := new(big.Int).Binomial(int64(nA+nB), int64(t))
	tail := new(big.Int)
	from, to, extreme := lo, passB, lo
	if dir == Better {
		from, to, extreme = passB, hi, hi
	}
	for x := from; x <= to; x++ {
		tail.Add(tail, term(x))
	}
	p, _ = new(big.Rat).SetFrac(tail, total).Float64()
	minP, _ = new(big.Rat).SetFrac(term(extreme), total).Float64()
	return math.Min(p, 1), minP
}

// DiscreteTest is one hypothesis of a family of discrete tests: its
// p-value and the smallest p-value its test could give (MinP; 1 when no
// outcome could reject anything).
type DiscreteTest struct{ P, MinP float64 }

// TaroneDecision is the verdict on one hypothesis of a family.
type TaroneDecision struct {
	// Reject is true when the hypothesis is rejected at the family's level.
	Reject bool
	// Testable is false when the test could not reject at the level it
	// was judged at whatever the data (its MinP is above it): it took no
	// part in the correction.
	Testable bool
	// Level is the per-test level the hypothesis was judged at, α/K, and
	// K the number of hypotheses the correction counted at that step.
	Level float64
	K     int
}

// TaroneHolm applies the step-down form of Tarone's correction for
// discrete tests (Tarone 1990, "A modified Bonferroni method for discrete
// data", Biometrics 46:1071; the step-down of Hommel & Krummenauer 1998,
// Biometrics 54:673) to a family, controlling the family-wise error at
// alpha.
//
// Tarone: with K the smallest k such that at most k hypotheses have a
// MinP ≤ alpha/k, reject those with p ≤ alpha/K. Only the hypotheses that
// could reject at alpha/K are counted, which is valid because whether a
// hypothesis could reject depends on its margins alone, not on the split
// the test judges. Step-down: order the p-values; at each step apply
// Tarone's rule to the hypotheses not yet rejected, reject the smallest if
// its p ≤ alpha/K, and stop at the first that is not. It rejects at least
// what Tarone's single step does, and with every MinP = 0 it is Holm's
// procedure.
//
// The decisions are in the order of ts.
func TaroneHolm(ts []DiscreteTest, alpha float64) []TaroneDecision {
	out := make([]TaroneDecision, len(ts))
	order := make([]int, len(ts))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case ts[a].P < ts[b].P:
			return -1
		case ts[a].P > ts[b].P:
			return 1
		}
		return 0
	})
	remaining := make([]float64, 0, len(ts)) // the MinP of hypotheses not yet rejected
	for _, i := range order {
		remaining = append(remaining, ts[i].MinP)
	}
	slices.Sort(remaining)
	stopped := false
	var level float64
	var k int
	for _, i := range order {
		if !stopped {
			k = taroneK(remaining, alpha)
			level = alpha / float64(k)
		}
		out[i] = TaroneDecision{Testable: ts[i].MinP <= level, Level: level, K: k}
		if stopped || ts[i].P > level {
			stopped = true
			continue
		}
		out[i].Reject = true
		// Remove this hypothesis's MinP from the remaining ones.
		j, _ := slices.BinarySearch(remaining, ts[i].MinP)
		remaining = slices.Delete(remaining, j, j+1)
	}
	return out
}

// taroneK is Tarone's K for the sorted MinPs mins: the smallest k ≥ 1 such
// that at most k of them are ≤ alpha/k.
func taroneK(mins []float64, alpha float64) int {
	for k := 1; ; k++ {
		// m(k): how many MinPs are ≤ alpha/k (mins is sorted).
		m, _ := slices.BinarySearchFunc(mins, alpha/float64(k), func(x, t float64) int {
			if x <= t {
				return -1
			}
			return 1
		})
		if m <= k {
			return k
		}
	}
}
