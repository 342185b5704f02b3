package stats

import (
	"math"
	"sync"
)

// Power of the paired test. The unit is the case: n cases are compared in
// two runs; a case is discordant when its outcome differs between them,
// which happens with probability psi; of the discordant cases a share
// (psi + delta) / (2·psi) moves up and the rest down, so delta is the
// change in the pass rate. The test is the exact two-sided McNemar test at
// alpha (the sign-flip test on one sample per case), and power is computed
// exactly: a sum over the binomial number of discordant cases and over how
// they split, not a normal approximation.

// MeanDifference is the mean over cases of the pass-rate difference B − A:
// the effect every paired figure reports (each case weighs the same). No
// pairs give 0.
func MeanDifference(ps []RatePair) float64 {
	if len(ps) == 0 {
		return 0
	}
	var s float64
	for _, p := range ps {
		s += Ratio(p.PassB, p.NB) - Ratio(p.PassA, p.NA)
	}
	return s / float64(len(ps))
}

// logBinomPMF is log P(X = k) for X ~ Binomial(n, p).
func logBinomPMF(n, k int, p float64) float64 {
	switch {
	case p <= 0:
		if k == 0 {
			return 0
		}
		return math.Inf(-1)
	case p >= 1:
		if k == n {
			return 0
		}
		return math.Inf(-1)
	}
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c + float64(k)*math.Log(p) + float64(n-k)*math.Log1p(-p)
}

// criticalTable returns, for every number of discordant cases d in 0..n,
// the largest k such that a split min(b, c) = k is significant at alpha
// (exact McNemar p < alpha), or −1 when no split of d is. k never falls as
// d grows, so the table costs O(n) McNemar tests; tables are kept per
// alpha and extended as larger n are asked for (the prefix of a larger
// table is the smaller one).
func criticalTable(n int, alpha float64) []int {
	critMu.Lock()
	defer critMu.Unlock()
	t := critCache[alpha]
	if len(t) > n {
		return t[:n+1]
	}
	k := -1
	if len(t) > 0 {
		k = t[len(t)-1]
	}
	for d := len(t); d <= n; d++ {
		for 2*(k+1) <= d && McNemar(k+1, d-k-1) < alpha {
			k++
		}
		t = append(t, k)
	}
	if len(critCache) > 16 {
		clear(critCache)
	}
	critCache[alpha] = t
	return t[: n+1 : n+1]
}

var (
	critMu    sync.Mutex
	critCache = map[float64][]int{}
)

// McNemarPower is the exact power of the two-sided exact McNemar test at
// alpha with n cases, when a case passes in A and fails in B with
// probability p10 and the reverse with probability p01.
func McNemarPower(n int, p10, p01, alpha float64) float64 {
	return mcnemarPower(n, p10, p01, criticalTable(n, alpha))
}

func mcnemarPower(n int, p10, p01 float64, crit []int) float64 {
	psi := p10 + p01
	if n <= 0 || psi <= 0 {
		return 0
	}
	q := p01 / psi
	// Only d within 12 standard deviations of its mean carries weight
	// (the rest is below 1e-30 of the total).
	mean, sd := float64(n)*psi, math.Sqrt(float64(n)*psi*(1-psi))
	dlo, dhi := max(0, int(mean-12*sd-1)), min(n, int(mean+12*sd+1))
	lq, lnq := math.Log(q), math.Log1p(-q)
	var power float64
	for d := dlo; d <= dhi; d++ {
		k := crit[d]
		if k < 0 {
			continue
		}
		pd := math.Exp(logBinomPMF(n, d, psi))
		if pd < 1e-300 {
			continue
		}
		// Both tails of Binomial(d, q) up to k, term by term in logs:
		// log C(d, j+1) = log C(d, j) + log((d−j)/(j+1)).
		var rej, lc float64
		for j := 0; j <= k; j++ {
			if j > 0 {
				lc += math.Log(float64(d-j+1) / float64(j))
			}
			if q > 0 {
				rej += math.Exp(lc + float64(j)*lq + float64(d-j)*lnq) // j moved up
			} else if j == 0 {
				rej++
			}
			if d-j != j {
				if q < 1 {
					rej += math.Exp(lc + float64(d-j)*lq + float64(j)*lnq) // j moved down
				} else if j == 0 {
					rej++
				}
			}
		}
		power += pd * min(rej, 1)
	}
	return min(power, 1)
}

// PowerAt is McNemarPower for a change of delta in the pass rate when a
// share psi of cases is discordant (psi ≥ |delta|; a smaller psi is
// raised to |delta|).
func PowerAt(n int, delta, psi, alpha float64) float64 {
	return powerAt(n, delta, psi, criticalTable(n, alpha))
}

func powerAt(n int, delta, psi float64, crit []int) float64 {
	d := math.Abs(delta)
	psi = min(max(psi, d), 1)
	return mcnemarPower(n, (psi-d)/2, (psi+d)/2, crit)
}

// mdeStep is the resolution of MinDetectable: a tenth of a point.
const mdeStep = 0.001

// MinDetectable is the minimum detectable effect: the smallest change of
// the pass rate (to mdeStep, by bisection: power grows with the change)
// that n cases detect with at least the given power at alpha, when a share
// psi of cases changes outcome (raised to the change itself where smaller;
// psi = 0 assumes every case that changes moves the same way). ok is false
// when no change up to 100 points is detectable (too few cases).
func MinDetectable(n int, psi, alpha, power float64) (delta float64, ok bool) {
	crit := criticalTable(n, alpha)
	const steps = 1000 // 1/mdeStep
	if powerAt(n, 1, psi, crit) < power {
		return 1, false
	}
	lo, hi := 0, steps // power(lo) < target ≤ power(hi)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if powerAt(n, float64(mid)*mdeStep, psi, crit) >= power {
			hi = mid
		} else {
			lo = mid
		}
	}
	return float64(hi) * mdeStep, true
}

// CasesFor is the smallest number of cases (at most maxCases) whose exact
// McNemar test detects a change of delta with at least the given power at
// alpha when a share psi of cases is discordant, found by doubling then
// bisection. (The power of an exact test is not quite monotone in n — it
// saw-tooths by a point or two — so a few smaller n may also just reach
// it.) ok is false when maxCases are not enough.
func CasesFor(delta, psi, alpha, power float64, maxCases int) (n int, ok bool) {
	reach := func(n int) bool { return PowerAt(n, delta, psi, alpha) >= power }
	hi := 1
	for !reach(hi) {
		if hi >= maxCases {
			return maxCases, false
		}
		hi = min(2*hi, maxCases)
	}
	lo := hi / 2 // reach(lo) false, or lo = 0
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if reach(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, true
}

// PairedMDE is MinDetectable for the pairs of a comparison: psi is the
// mean absolute per-case change observed (for one sample per case, the
// share of cases that flipped). With samples this treats a case's change
// of rate as a share of a discordant case, an approximation. It returns 1
// when no change is detectable.
func PairedMDE(ps []RatePair, alpha, power float64) float64 {
	if len(ps) == 0 {
		return 1
	}
	var psi float64
	for _, p := range ps {
		psi += math.Abs(Ratio(p.PassB, p.NB) - Ratio(p.PassA, p.NA))
	}
	psi /= float64(len(ps))
	d, _ := MinDetectable(len(ps), psi, alpha, power)
	return d
}

// PairedInterval is a 95% interval for MeanDifference(ps), the mean over
// cases of the pass-rate difference B − A: Newcombe's hybrid score
// interval for paired proportions with continuity correction (Newcombe
// 1998, "Improved confidence intervals for the difference between binomial
// proportions based on paired data", method 11). It combines the
// continuity-corrected Wilson intervals of each run's rate through the
// correlation φ of the two runs' outcomes across cases. With one sample per
// case it is exactly Newcombe's; with samples each case's rate is a
// fractional outcome in [0, 1] (its Wilson interval is then conservative,
// since such a mean varies at most as a binomial one) and φ is Pearson's
// correlation over cases (for 0/1 outcomes, Newcombe's φ). The case is the
// unit throughout. Method 10 (no correction) covers only 92% at n = 10 in
// our simulation; method 11 covers at least 95% (TestPairedIntervalCoverage).
// No pairs give (−1, 1).
func PairedInterval(ps []RatePair) (lo, hi float64) {
	n := len(ps)
	if n == 0 {
		return -1, 1
	}
	a := make([]float64, n)
	b := make([]float64, n)
	var sa, sb float64
	for i, p := range ps {
		a[i], b[i] = Ratio(p.PassA, p.NA), Ratio(p.PassB, p.NB)
		sa += a[i]
		sb += b[i]
	}
	pa, pb := sa/float64(n), sb/float64(n)
	// cov·n is Newcombe's AD − BC and va·vb·n² his (A+B)(C+D)(A+C)(B+D).
	var cov, va, vb float64
	for i := range a {
		cov += (a[i] - pa) * (b[i] - pb)
		va += (a[i] - pa) * (a[i] - pa)
		vb += (b[i] - pb) * (b[i] - pb)
	}
	phi := 0.0
	if va > 0 && vb > 0 {
		// φ* = max(AD − BC − N/2, 0)/√… when AD > BC.
		if cov > 0 {
			phi = max(cov-0.5, 0) / math.Sqrt(va*vb)
		} else {
			phi = cov / math.Sqrt(va*vb)
		}
	}
	la, ua := WilsonCC(pa, n)
	lb, ub := WilsonCC(pb, n)
	d := pb - pa
	// Newcombe's δ and ε, for θ = B − A.
	delta := math.Sqrt(max(0, (pb-lb)*(pb-lb)-2*phi*(pb-lb)*(ua-pa)+(ua-pa)*(ua-pa)))
	eps := math.Sqrt(max(0, (ub-pb)*(ub-pb)-2*phi*(ub-pb)*(pa-la)+(pa-la)*(pa-la)))
	return max(-1, d-delta), min(1, d+eps)
}

// WilsonCC is the continuity-corrected Wilson score 95% interval for a
// proportion p observed over n trials (Newcombe 1998, "Two-sided
// confidence intervals for the single proportion", method 4); p need not
// be a multiple of 1/n.
func WilsonCC(p float64, n int) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	nf := float64(n)
	z := float64(z95)
	z2 := float64(z * z)
	lo = float64(2*nf*p+z2-1-z*math.Sqrt(max(0, float64(z2-2-1/nf+4*p*float64(nf*(1-p)+1))))) / float64(2*(nf+z2))
	hi = float64(2*nf*p+z2+1+z*math.Sqrt(max(0, float64(z2+2-1/nf+4*p*float64(nf*(1-p)-1))))) / float64(2*(nf+z2))
	if p <= 0 {
		lo = 0
	}
	if p >= 1 {
		hi = 1
	}
	return max(0, lo), min(1, hi)
}
