package stats

import "math"

// SignFlipIntervalWork bounds the size of one evaluation of the sign-flip
// distribution while an interval is inverted (cases times the sum of the
// shifted differences on the interval's lattice): about 8 ms each.
const SignFlipIntervalWork = 8_000_000

// SignFlipInterval returns the interval for the mean per-case difference
// B − A of ps that inverts the two-sided sign-flip test SignFlipRates
// reports: every shift δ such that testing the differences d_i − δ gives
// p ≥ alpha. So the interval excludes 0 exactly when the test's p at 0 is
// below alpha: an interval and its p-value never disagree. (A 95% interval
// is alpha = 0.05; a row judged at a corrected level alpha/k gets the
// interval at that level.)
//
// The shifts are searched on a lattice of 1/S (S a multiple of the pass
// rates' common denominator, about 1,000 for a few dozen cases, so a
// bound is within 0.1 points; coarser for very many cases, within
// SignFlipIntervalWork), and each bound is the lattice point the test
// still accepts, so rounding only widens the interval. The null
// distribution of each shifted sum is the exact sign-flip distribution,
// counted by dynamic programming in float64 probabilities. The decision at
// 0 is taken from SignFlipRates itself, so it agrees with the p-value the
// caller prints even where the lattice rounds. Fewer than 6 cases, or
// changes no test could find, give wide intervals, as they should: with n
// cases the smallest two-sided p is 2/2^n.
func SignFlipInterval(ps []RatePair, alpha float64) (lo, hi float64) {
	n := len(ps)
	if n == 0 {
		return -1, 1
	}
	d := make([]float64, n)
	var sum float64
	for i, p := range ps {
		d[i] = Ratio(p.PassB, p.NB) - Ratio(p.PassA, p.NA)
		sum += d[i]
	}
	mean := sum / float64(n)
	s := intervalScale(ps)
	D := make([]int64, n)
	for i, x := range d {
		D[i] = int64(math.Round(x * float64(s)))
	}
	accepts := func(j int64) bool { return shiftedSignFlip(D, j) >= alpha }
	center := int64(math.Round(mean * float64(s)))
	// The test accepts its own mean (the shifted sum is then about zero);
	// from there walk out to the first lattice point it rejects, which
	// exists within [−S, S] unless no split could reject.
	lowJ := bound(center, -s, accepts)
	highJ := bound(center, s, accepts)
	lo, hi = float64(lowJ)/float64(s), float64(highJ)/float64(s)
	// The decision at 0 is the exact test's.
	p0, _, _ := SignFlipRates(ps)
	switch {
	case p0 < alpha && lo <= 0 && hi >= 0:
		// The lattice rounded 0 into the interval: pull the bound nearer
		// the mean to just past 0.
		if mean > 0 {
			lo = math.Nextafter(0, 1)
		} else {
			hi = math.Nextafter(0, -1)
		}
	case p0 >= alpha && lo > 0:
		lo = 0
	case p0 >= alpha && hi < 0:
		hi = 0
	}
	return max(-1, lo), min(1, hi)
}

// bound walks from the accepted point c towards the limit (±S) and returns
// the last lattice point accepted before the first rejected one, by
// doubling steps and then bisection.
func bound(c, limit int64, accepts func(int64) bool) int64 {
	dir := int64(1)
	if limit < c {
		dir = -1
	}
	if !accepts(c) {
		return c
	}
	good := c
	step := int64(1)
	for {
		next := good + dir*step
		if (dir > 0 && next >= limit) || (dir < 0 && next <= limit) {
			if accepts(limit) {
				return limit
			}
			next = limit
			return bisect(good, next, accepts)
		}
		if !accepts(next) {
			return bisect(good, next, accepts)
		}
		good = next
		step *= 2
	}
}

// bisect returns the last accepted point between good (accepted) and bad
// (rejected).
func bisect(good, bad int64, accepts func(int64) bool) int64 {
	for abs64(bad-good) > 1 {
		mid := good + (bad-good)/2
		if accepts(mid) {
			good = mid
		} else {
			bad = mid
		}
	}
	return good
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// intervalScale is the lattice S of SignFlipInterval: a multiple of the
// common denominator of the pass rates near 1,000, smaller when the
// dynamic programme would exceed SignFlipIntervalWork (and when the
// denominator itself is too large, 1,000 with the differences rounded).
func intervalScale(ps []RatePair) int64 {
	n := int64(len(ps))
	limit := max(20, SignFlipIntervalWork/(2*n*n)) // n cases of at most 2S each
	target := min(int64(1000), limit)
	l, _, ok := rateScale(ps)
	if !ok || !l.IsInt64() || l.Int64() > limit {
		return target
	}
	li := l.Int64()
	return li * max(1, target/li)
}

// shiftedSignFlip is the two-sided sign-flip p-value of the integer
// differences D − j, in float64 probabilities.
func shiftedSignFlip(D []int64, j int64) float64 {
	var abs []int64
	var total, obs int64
	for _, x := range D {
		e := x - j
		if e == 0 {
			continue
		}
		obs += e
		abs = append(abs, abs64(e))
		total += abs64(e)
	}
	if len(abs) == 0 {
		return 1
	}
	obs = abs64(obs)
	prob := make([]float64, total+1)
	prob[0] = 1
	if len(abs) > 1000 {
		// Keep the counts finite: halve every term once per case beyond
		// 1000 up front (a common factor, so the ratio is unchanged).
		return shiftedSignFlipScaled(abs, total, obs)
	}
	var reach int64
	for _, a := range abs {
		for s := reach; s >= 0; s-- {
			if prob[s] != 0 {
				prob[s+a] += prob[s]
			}
		}
		reach += a
	}
	// prob holds counts of subsets (exact up to 2^53, then to float64's
	// precision, far finer than any level compared with); 2^n fits a
	// float64 for n ≤ 1023 cases, and beyond that Ldexp scales first.
	var hits float64
	for s, m := range prob {
		if sum := total - 2*int64(s); sum >= obs || -sum >= obs {
			hits += m
		}
	}
	return math.Min(math.Ldexp(hits, -len(abs)), 1)
}

// shiftedSignFlipScaled is the tail of shiftedSignFlip for more than 1000
// non-zero differences, in probabilities halved at each case.
func shiftedSignFlipScaled(abs []int64, total, obs int64) float64 {
	prob := make([]float64, total+1)
	prob[0] = 1
	var reach int64
	for _, a := range abs {
		for s := reach; s >= 0; s-- {
			prob[s+a] += prob[s]
		}
		reach += a
		for s := int64(0); s <= reach; s++ {
			prob[s] *= 0.5
		}
	}
	var p float64
	for s, m := range prob {
		if sum := total - 2*int64(s); sum >= obs || -sum >= obs {
			p += m
		}
	}
	return math.Min(p, 1)
}
