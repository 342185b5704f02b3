// Package stats holds the few statistics the harness reports: Wilson score
// intervals for pass rates, the exact McNemar test for comparing two runs
// case by case, precision/recall/F1, and percentiles; and for runs with
// several samples per case (samples.go) pass@k and pass^k, case-level
// intervals and the exact paired sign-flip test; the paired effect, its
// Newcombe interval and exact power (power.go); and the adjustment of a
// family of p-values (adjust.go).
//
// Everything here is exact or closed-form, or, for the sign-flip Monte
// Carlo of very large runs, drawn from a generator with a fixed seed, so
// two runs over the same inputs print the same numbers.
package stats

import (
	"math"
	"math/big"
	"slices"
)

// z95 is the 97.5th percentile of the standard normal distribution.
const z95 = 1.959963984540054

// Wilson returns the Wilson score 95% interval for k successes in n trials.
// It stays inside [0, 1] and behaves at k = 0 and k = n, where the normal
// approximation collapses to a zero-width interval. n = 0 gives (0, 1).
func Wilson(k, n int) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	p := float64(k) / float64(n)
	nf := float64(n)
	z2 := float64(z95 * z95)
	// Explicit float64 conversions stop the compiler fusing multiply-adds
	// (allowed on arm64), so every platform prints the same digits.
	den := float64(1 + z2/nf)
	center := float64(p+z2/(2*nf)) / den
	half := z95 * math.Sqrt(float64(p*(1-p)/nf)+float64(z2/(4*nf*nf))) / den
	lo, hi = center-half, center+half
	if k == 0 || lo < 0 {
		lo = 0
	}
	if k == n || hi > 1 {
		hi = 1
	}
	return lo, hi
}

// McNemar returns the two-sided p-value of the exact McNemar test for paired
// binary outcomes, where b is the number of pairs that passed in A and failed
// in B and c the number that failed in A and passed in B. Under the null
// hypothesis the discordant pairs split as Binomial(b+c, 1/2); the p-value is
// twice the smaller tail, capped at 1. With no discordant pairs it is 1.
//
// The tail is summed exactly in integers and converted once, so the result is
// the correctly rounded float64 on every platform.
func McNemar(b, c int) float64 {
	n := b + c
	if n <= 0 {
		return 1
	}
	k := min(b, c)
	// C(n, i+1) = C(n, i)·(n−i)/(i+1): one multiply and one exact divide per term.
	tail := big.NewInt(1)
	coef := big.NewInt(1)
	var t big.Int
	for i := 0; i < k; i++ {
		coef.Mul(coef, t.SetInt64(int64(n-i)))
		coef.Quo(coef, t.SetInt64(int64(i+1)))
		tail.Add(tail, coef)
	}
	tail.Lsh(tail, 1) // two-sided
	total := new(big.Int).Lsh(big.NewInt(1), uint(n))
	if tail.Cmp(total) >= 0 {
		return 1
	}
	p, _ := new(big.Rat).SetFrac(tail, total).Float64()
	return p
}

// PRF returns precision, recall and F1 from true positives, false positives
// and false negatives. An undefined ratio (0/0) is 0, as in scikit-learn's
// zero_division=0.
func PRF(tp, fp, fn int) (precision, recall, f1 float64) {
	precision = Ratio(tp, tp+fp)
	recall = Ratio(tp, tp+fn)
	if precision+recall > 0 {
		f1 = 2 * precision * recall / (precision + recall)
	}
	return precision, recall, f1
}

// Ratio returns num/den, or 0 when den is 0.
func Ratio(num, den int) float64 {
	if den == 0 {
		return 0
	}
	return float64(num) / float64(den)
}

// Percentile returns the p-th percentile (0 ≤ p ≤ 100) of xs by the
// nearest-rank method: the smallest value such that at least p% of the
// values are less than or equal to it. The result is always one of the
// observed values, which keeps reported latencies real. xs is not modified;
// an empty xs gives 0.
func Percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	rank := int(math.Ceil(p / 100 * float64(len(s))))
	rank = max(1, min(rank, len(s)))
	return s[rank-1]
}

// Mean returns the arithmetic mean of xs, or 0 when xs is empty.
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}

// Round returns x rounded to the given number of decimal places. Reports
// round what they print so the digits do not depend on summation noise.
func Round(x float64, places int) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	scale := math.Pow10(places)
	r := math.Round(x*scale) / scale
	if r == 0 {
		return 0 // no negative zero in reports
	}
	return r
}

// WilsonMean is the Wilson score 95% interval for a mean p of n values in
// [0, 1] (a share of cases, or a mean of per-case fractions, for which the
// binomial variance it assumes is an upper bound, so it is conservative).
func WilsonMean(p float64, n int) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	return wilsonAt(p, float64(n), z95)
}
