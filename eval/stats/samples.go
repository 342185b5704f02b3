package stats

import (
	"math"
	"math/big"
	"math/rand/v2"
)

// Statistics of repeated samples (record --samples N): several draws of the
// same case are not independent trials, so every figure here treats the
// case, not the draw, as the unit.

// PassAtK is the unbiased estimator of pass@k from n samples of which c
// passed (Chen et al. 2021, "Evaluating Large Language Models Trained on
// Code"): the probability that at least one of k samples drawn without
// replacement passes, 1 − C(n−c, k)/C(n, k). It is computed exactly in
// rationals and rounded once. k must be in 1..n and c in 0..n.
func PassAtK(n, c, k int) float64 {
	if !validNCK(n, c, k) {
		return math.NaN()
	}
	r := new(big.Rat).SetFrac(binom(n-c, k), binom(n, k))
	r.Sub(big.NewRat(1, 1), r)
	f, _ := r.Float64()
	return f
}

// PassHatK is the unbiased estimator of pass^k from n samples of which c
// passed (Yao et al. 2024, "τ-bench"): the probability that all of k
// samples drawn without replacement pass, C(c, k)/C(n, k). It says whether
// the assistant is reliable, where pass@k says whether it is sometimes
// right. k must be in 1..n and c in 0..n.
func PassHatK(n, c, k int) float64 {
	if !validNCK(n, c, k) {
		return math.NaN()
	}
	f, _ := new(big.Rat).SetFrac(binom(c, k), binom(n, k)).Float64()
	return f
}

func validNCK(n, c, k int) bool { return n >= 1 && k >= 1 && k <= n && c >= 0 && c <= n }

// binom is C(n, k) exactly; 0 when k > n.
func binom(n, k int) *big.Int {
	if k < 0 || k > n {
		return big.NewInt(0)
	}
	return new(big.Int).Binomial(int64(n), int64(k))
}

// Cluster is one case's samples for one metric: Pass of N passed.
type Cluster struct{ Pass, N int }

// ClusterInterval returns a 95% interval for the pooled pass rate
// Σpass/ΣN of clusters (one per case) that respects clustering by case: the
// Wilson score interval at the effective sample size, with a Student t
// quantile on n − 1 degrees of freedom (Korn & Graubard 1998, "Confidence
// intervals for proportions with small expected number of positive counts
// estimated from survey data"). The effective size is p(1−p) over the
// variance of the pooled rate estimated from the cases (a ratio estimator),
// kept between the number of cases and the number of samples: the samples
// of one case, which share its difficulty, count as independent evidence
// only as far as the cases' spread says they are. When every sample passed
// (or every one failed) it is the Wilson interval over cases, as before. One case
// gives the Wilson interval over its samples; none gives (0, 1).
//
// It replaces a case-level percentile bootstrap that covered 91–92% at
// ten cases; TestClusterIntervalCoverage checks ≥ 93% from n = 10.
func ClusterInterval(cs []Cluster) (lo, hi float64) {
	n := len(cs)
	if n == 0 {
		return 0, 1
	}
	var pass, total float64
	for _, c := range cs {
		pass += float64(c.Pass)
		total += float64(c.N)
	}
	if total == 0 {
		return 0, 1
	}
	p := pass / total
	switch {
	case n == 1:
		return wilsonAt(p, total, z95)
	case pass == 0 || pass == total:
		return Wilson(int(pass/total)*n, n)
	}
	mean := total / float64(n)
	var v float64
	for _, c := range cs {
		r := float64(c.Pass) - p*float64(c.N)
		v += r * r
	}
	v /= mean * mean * float64(n) * float64(n-1)
	neff := total
	if v > 0 {
		neff = p * (1 - p) / v
	}
	neff = max(float64(n), min(total, neff))
	return wilsonAt(p, neff, tQuantile975(n-1))
}

// wilsonAt is the Wilson score interval for proportion p over nf
// (effective) trials with quantile z.
func wilsonAt(p, nf, z float64) (lo, hi float64) {
	z2 := float64(z * z)
	den := float64(1 + z2/nf)
	center := float64(p+z2/(2*nf)) / den
	half := z * math.Sqrt(float64(p*(1-p)/nf)+float64(z2/(4*nf*nf))) / den
	return max(0, center-half), min(1, center+half)
}

// tQuantile975 is the 97.5th percentile of Student's t with df degrees of
// freedom: R's qt(0.975, df) for df < 10, then the Cornish–Fisher
// expansion in 1/df about the normal quantile (Abramowitz & Stegun 26.7.5),
// within 2e-4 of qt from df = 10 on (TestTQuantileAgainstR).
func tQuantile975(df int) float64 {
	if df < 1 {
		df = 1
	}
	if df < len(t975) {
		return t975[df]
	}
	z := float64(z95)
	d := float64(df)
	z3, z5, z7 := z*z*z, math.Pow(z, 5), math.Pow(z, 7)
	return z + (z3+z)/(4*d) + (5*z5+16*z3+3*z)/(96*d*d) + (3*z7+19*z5+17*z3-15*z)/(384*d*d*d)
}

// t975 is qt(0.975, df) for df = 1…9, from R 4.2.2 (index 0 unused).
var t975 = []float64{0, 12.7062047361747, 4.30265272974946, 3.18244630528371, 2.77644510519779,
	2.57058183563631, 2.44691185114497, 2.36462425159278, 2.30600413520417, 2.2621571627982}

// SignFlipExactWork bounds the exact sign-flip count: the number of cases
// times the sum of the absolute integer differences (the size of the
// dynamic programme). Beyond it SignFlip draws seeded random sign
// assignments: SignFlipDraws of them, fewer for very many cases (never
// fewer than signFlipMinDraws), so a run of any size compares in well
// under a second.
const (
	SignFlipExactWork = 50_000_000
	SignFlipDraws     = 200_000
	signFlipMinDraws  = 10_000
	signFlipMCWork    = 100_000_000
	signFlipSeed      = 0x51637f11
)

// SignFlip returns the two-sided p-value of the paired sign-flip
// (permutation) test of H0: the per-case differences d are symmetric about
// zero, with the statistic |Σd|. Under H0 every assignment of signs to the
// |d_i| is equally likely; p is the share of the 2^n assignments whose
// |Σ±d_i| is at least the observed |Σd|. Zero differences take no part.
//
// The differences are integers (per-case pass-rate differences scaled to a
// common denominator, see RateDifferences), so the null distribution of the
// sum is counted exactly, in integers, by dynamic programming over the
// cases: the complete enumeration of all 2^n sign assignments without
// listing them. exact is false when that would exceed SignFlipExactWork; p
// is then (1 + hits)/(1 + draws) from a seeded Monte Carlo, which never
// reports an impossible p of 0.
func SignFlip(d []int64) (p float64, exact bool) { return SignFlipTail(d, TwoSided) }

// Tail is the alternative of a sign-flip test: two-sided (|Σ| at least the
// observed), or one-sided, Lower (Σ at most the observed: B worse than A
// for differences B − A of pass rates) or Upper (at least the observed).
type Tail int

// The tails of a sign-flip test.
const (
	TwoSided Tail = iota
	Lower
	Upper
)

// hit reports whether a sign assignment's sum reaches the observed sum obs
// (signed) in the tail's direction.
func (t Tail) hit(sum, obs int64) bool {
	switch t {
	case Lower:
		return sum <= obs
	case Upper:
		return sum >= obs
	}
	if obs < 0 {
		obs = -obs
	}
	return sum >= obs || -sum >= obs
}

// SignFlipTail is SignFlip with the alternative t: the one-sided p-values
// are the share of sign assignments whose Σ is at most (Lower) or at least
// (Upper) the observed Σd.
func SignFlipTail(d []int64, t Tail) (p float64, exact bool) {
	var abs []int64
	var total, obs int64
	for _, x := range d {
		if x == 0 {
			continue
		}
		obs += x
		if x < 0 {
			x = -x
		}
		abs = append(abs, x)
		total += x
	}
	if len(abs) == 0 {
		return 1, true
	}
	if total > SignFlipExactWork/int64(len(abs)) {
		return signFlipMC(abs, obs, t), false
	}
	// count[s] = number of subsets of abs with sum s. Flipping subset S to
	// negative gives the sum total − 2·sum(S). Counts fit in a uint64 up to
	// 63 non-zero differences; past that they are big.Ints.
	var hits, all *big.Int
	if len(abs) <= 63 {
		count := make([]uint64, total+1)
		count[0] = 1
		var reach int64
		for _, a := range abs {
			for s := reach; s >= 0; s-- {
				count[s+a] += count[s]
			}
			reach += a
		}
		var h uint64
		for s, c := range count {
			if t.hit(total-2*int64(s), obs) {
				h += c
			}
		}
		hits, all = new(big.Int).SetUint64(h), new(big.Int).Lsh(big.NewInt(1), uint(len(abs)))
	} else {
		count := make([]*big.Int, total+1)
		count[0] = big.NewInt(1)
		var reach int64
		for _, a := range abs {
			for s := reach; s >= 0; s-- {
				if count[s] == nil {
					continue
				}
				if count[s+a] == nil {
					count[s+a] = new(big.Int)
				}
				count[s+a].Add(count[s+a], count[s])
			}
			reach += a
		}
		hits = new(big.Int)
		for s, c := range count {
			if c != nil && t.hit(total-2*int64(s), obs) {
				hits.Add(hits, c)
			}
		}
		all = new(big.Int).Lsh(big.NewInt(1), uint(len(abs)))
	}
	f, _ := new(big.Rat).SetFrac(hits, all).Float64()
	return math.Min(f, 1), true
}

// signFlipDraws is how many random sign assignments the Monte Carlo of n
// non-zero differences draws.
func signFlipDraws(n int) int {
	return max(signFlipMinDraws, min(SignFlipDraws, signFlipMCWork/max(n, 1)))
}

func signFlipMC(abs []int64, obs int64, t Tail) float64 {
	rng := rand.New(rand.NewPCG(signFlipSeed, uint64(len(abs))))
	draws := signFlipDraws(len(abs))
	hits := 0
	for range draws {
		if t.hit(randomSigns(rng, abs), obs) {
			hits++
		}
	}
	return float64(1+hits) / float64(1+draws)
}

// RatePair is one case's samples in two runs: A passed PassA of NA samples,
// B PassB of NB.
type RatePair struct{ PassA, NA, PassB, NB int }

// RateDifferences scales the per-case pass-rate differences B − A to
// integers over their least common denominator, for SignFlip. The scale
// does not change the test, which depends only on the ratios. ok is false
// when the scaled differences or their sum would not fit an int64 (per-case
// sample counts spanning 1..43 already have a common denominator above
// 9·10^18); SignFlipRates then tests them without scaling.
func RateDifferences(ps []RatePair) (d []int64, ok bool) {
	l, _, ok := rateScale(ps)
	if !ok {
		return nil, false
	}
	li := l.Int64()
	out := make([]int64, len(ps))
	for i, p := range ps {
		out[i] = int64(p.PassB)*(li/int64(max(p.NB, 1))) - int64(p.PassA)*(li/int64(max(p.NA, 1)))
	}
	return out, true
}

// rateScale returns the common denominator of ps and Σ|scaled difference|,
// exactly, and whether both fit an int64.
func rateScale(ps []RatePair) (l, sum *big.Int, ok bool) {
	l = big.NewInt(1)
	var g, t big.Int
	for _, p := range ps {
		for _, n := range []int{p.NA, p.NB} {
			t.SetInt64(int64(max(n, 1)))
			g.GCD(nil, nil, l, &t)
			l.Mul(l, t.Quo(&t, &g))
		}
	}
	sum = new(big.Int)
	for _, d := range bigDifferences(ps, l) {
		sum.Add(sum, new(big.Int).Abs(d))
	}
	return l, sum, l.IsInt64() && sum.IsInt64()
}

// bigDifferences is RateDifferences in big integers over the scale l.
func bigDifferences(ps []RatePair, l *big.Int) []*big.Int {
	out := make([]*big.Int, len(ps))
	for i, p := range ps {
		b := new(big.Int).Quo(l, big.NewInt(int64(max(p.NB, 1))))
		b.Mul(b, big.NewInt(int64(p.PassB)))
		a := new(big.Int).Quo(l, big.NewInt(int64(max(p.NA, 1))))
		a.Mul(a, big.NewInt(int64(p.PassA)))
		out[i] = b.Sub(b, a)
	}
	return out
}

// SignFlipBigExactMax is the most non-zero differences SignFlipRates
// enumerates one by one (2^n sums in big integers) when they cannot be
// scaled into int64s.
const SignFlipBigExactMax = 20

// SignFlipRates is SignFlip on per-case pass-rate differences. It is exact
// whenever it can be: on the integers RateDifferences scales them to; when
// those overflow, by listing all 2^n sign assignments in big integers for
// up to SignFlipBigExactMax non-zero differences. Past that it is a seeded
// Monte Carlo on the fractions (exact false; its standard error is
// MonteCarloSE(p, draws)). It never overflows.
func SignFlipRates(ps []RatePair) (p float64, exact bool, draws int) {
	return SignFlipRatesTail(ps, TwoSided)
}

// SignFlipRatesTail is SignFlipRates with the alternative t (SignFlipTail).
func SignFlipRatesTail(ps []RatePair, t Tail) (p float64, exact bool, draws int) {
	l, sum, fits := rateScale(ps)
	var nz []*big.Int
	for _, d := range bigDifferences(ps, l) {
		if d.Sign() != 0 {
			nz = append(nz, d)
		}
	}
	if fits && (len(nz) == 0 || sum.Int64() <= SignFlipExactWork/int64(len(nz)) || len(nz) > SignFlipBigExactMax) {
		d, _ := RateDifferences(ps)
		p, exact = SignFlipTail(d, t)
		if !exact {
			draws = signFlipDraws(len(nz))
		}
		return p, exact, draws
	}
	if len(nz) <= SignFlipBigExactMax {
		return signFlipBigExact(nz, t), true, 0
	}
	// Monte Carlo on the fractions, in float64: relative rounding (~1e-16
	// of the sum) is far below the Monte Carlo error it is reported with.
	vals := make([]float64, len(nz))
	lf, _ := new(big.Float).SetInt(l).Float64()
	for i, d := range nz {
		f, _ := new(big.Float).SetInt(d).Float64()
		vals[i] = f / lf
	}
	draws = signFlipDraws(len(vals))
	return signFlipMCFloat(vals, t, draws), false, draws
}

// MonteCarloSE is the standard error of a Monte Carlo p-value from draws
// random assignments.
func MonteCarloSE(p float64, draws int) float64 {
	if draws <= 0 {
		return 0
	}
	return math.Sqrt(p * (1 - p) / float64(draws))
}

func nonZero(d []int64) int {
	n := 0
	for _, x := range d {
		if x != 0 {
			n++
		}
	}
	return n
}

// signFlipBigExact counts, over all 2^n sign assignments of the non-zero
// big-integer differences d, those whose Σ reaches the observed Σd in the
// tail t, walking them in Gray-code order (one addition per assignment).
func signFlipBigExact(d []*big.Int, t Tail) float64 {
	if len(d) == 0 {
		return 1
	}
	obs := new(big.Int)
	for _, x := range d {
		obs.Add(obs, x)
	}
	absObs := new(big.Int).Abs(obs)
	// Start with every sign positive on |d_i|.
	abs := make([]*big.Int, len(d))
	s := new(big.Int)
	for i, x := range d {
		abs[i] = new(big.Int).Abs(x)
		s.Add(s, abs[i])
	}
	neg := make([]bool, len(d))
	var hits uint64
	var a big.Int
	count := func() {
		var ok bool
		switch t {
		case Lower:
			ok = s.Cmp(obs) <= 0
		case Upper:
			ok = s.Cmp(obs) >= 0
		default:
			ok = a.Abs(s).Cmp(absObs) >= 0
		}
		if ok {
			hits++
		}
	}
	count()
	two := new(big.Int)
	for k := uint64(1); k < 1<<uint(len(d)); k++ {
		i := bits0(k) // the bit Gray code k flips
		two.Lsh(abs[i], 1)
		if neg[i] {
			s.Add(s, two)
		} else {
			s.Sub(s, two)
		}
		neg[i] = !neg[i]
		count()
	}
	f, _ := new(big.Rat).SetFrac(new(big.Int).SetUint64(hits), new(big.Int).Lsh(big.NewInt(1), uint(len(d)))).Float64()
	return math.Min(f, 1)
}

// bits0 is the number of trailing zero bits of k > 0.
func bits0(k uint64) int {
	n := 0
	for k&1 == 0 {
		k >>= 1
		n++
	}
	return n
}

// signFlipMCFloat is the seeded Monte Carlo of the sign-flip test on
// non-zero differences vals in float64, in the tail t.
func signFlipMCFloat(vals []float64, t Tail, draws int) float64 {
	rng := rand.New(rand.NewPCG(signFlipSeed, uint64(len(vals))))
	abs := make([]float64, len(vals))
	var total, obs float64
	for i, v := range vals {
		abs[i] = math.Abs(v)
		total += abs[i]
		obs += v
	}
	tol := 1e-12 * total // sums equal to the observed one count as reaching it
	hits := 0
	for range draws {
		s := randomSigns(rng, abs)
		var ok bool
		switch t {
		case Lower:
			ok = s <= obs+tol
		case Upper:
			ok = s >= obs-tol
		default:
			ok = math.Abs(s) >= math.Abs(obs)-tol
		}
		if ok {
			hits++
		}
	}
	return float64(1+hits) / float64(1+draws)
}

// randomSigns is one draw of the sign-flip distribution: the sum of abs,
// each with a sign from one random bit (64 bits a draw of rng).
func randomSigns[T int64 | float64](rng *rand.Rand, abs []T) T {
	var s T
	var bits uint64
	for i, a := range abs {
		if i%64 == 0 {
			bits = rng.Uint64()
		}
		if bits&1 == 1 {
			s += a
		} else {
			s -= a
		}
		bits >>= 1
	}
	return s
}

// Moments accumulates clusters (one per case) in constant memory, for
// ClusterInterval over a stream: the sums that interval needs.
type Moments struct {
	n                        int
	pass, total              float64
	pass2, passTotal, total2 float64
}

// Add counts one case's cluster; clusters with N = 0 take no part.
func (m *Moments) Add(c Cluster) {
	if c.N == 0 {
		return
	}
	p, n := float64(c.Pass), float64(c.N)
	m.n++
	m.pass += p
	m.total += n
	m.pass2 += p * p
	m.passTotal += p * n
	m.total2 += n * n
}

// Cases is how many clusters (cases) were added.
func (m *Moments) Cases() int { return m.n }

// Interval is ClusterInterval over the clusters added.
func (m *Moments) Interval() (lo, hi float64) {
	n := m.n
	if n == 0 || m.total == 0 {
		return 0, 1
	}
	p := m.pass / m.total
	switch {
	case n == 1:
		return wilsonAt(p, m.total, z95)
	case m.pass == 0 || m.pass == m.total:
		return Wilson(int(m.pass/m.total)*n, n)
	}
	mean := m.total / float64(n)
	// Σ(pass_i − p·N_i)², expanded.
	v := m.pass2 - 2*p*m.passTotal + p*p*m.total2
	v /= mean * mean * float64(n) * float64(n-1)
	neff := m.total
	if v > 0 {
		neff = p * (1 - p) / v
	}
	neff = max(float64(n), min(m.total, neff))
	return wilsonAt(p, neff, tQuantile975(n-1))
}
