package stats

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Alpha is the significance level of every paired test the harness
// reports, compared with p-values after adjustment for multiplicity.
const Alpha = 0.05

// MinCases is the fewest paired cases (with an outcome on both sides) a
// rate is tested on. Below it no two-sided paired test at Alpha can reject:
// with n cases the smallest sign-flip p-value is 2/2^n, 0.0625 at n = 5.
// A row with fewer cases says so ("too few cases to test") instead of
// printing a bare change.
const MinCases = 6

// Testable reports whether a paired sign-flip test with this many non-zero
// per-case differences can reach p < Alpha at all: its smallest p-value is
// 2/2^k. A family of tests is adjusted over its testable members only.
// That is valid: given the sizes of the differences (which decide who is
// testable), their signs are still fair coins under the null hypothesis,
// so the family is fixed before the signs are looked at (Tarone's
// argument for discrete tests).
func Testable(nonZero int) bool { return nonZero >= MinCases }

// Adjustment is a multiple-comparison correction of a family of p-values.
type Adjustment string

// The corrections: Holm's step-down (family-wise error, the default),
// Benjamini–Hochberg (false discovery rate), and none.
const (
	Holm Adjustment = "holm"
	BH   Adjustment = "bh"
	None Adjustment = "none"
)

// ParseAdjustment reads a correction's name (holm, bh, none).
func ParseAdjustment(s string) (Adjustment, error) {
	switch a := Adjustment(s); a {
	case Holm, BH, None:
		return a, nil
	}
	return "", fmt.Errorf("unknown p-value adjustment %q (want holm, bh or none)", s)
}

// Describe names the correction for a table note.
func (a Adjustment) Describe() string {
	switch a {
	case Holm:
		return "Holm's step-down adjustment (family-wise error ≤ 5%)"
	case BH:
		return "Benjamini–Hochberg adjustment (false discovery rate ≤ 5%)"
	}
	return "no adjustment for multiple comparisons"
}

// Adjust returns the p-values ps adjusted across their family as R's
// p.adjust does (method "holm", "BH" or "none"). The result is in the
// order of ps; ps is not modified.
func Adjust(ps []float64, a Adjustment) []float64 {
	m := len(ps)
	out := slices.Clone(ps)
	if m == 0 || a == None {
		return out
	}
	idx := make([]int, m)
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(x, y int) int {
		switch {
		case ps[x] < ps[y]:
			return -1
		case ps[x] > ps[y]:
			return 1
		}
		return 0
	})
	switch a {
	case Holm:
		// p_(i) ← max over j ≤ i of min(1, (m − j + 1)·p_(j)).
		run := 0.0
		for rank, i := range idx {
			v := min(1, float64(m-rank)*ps[i])
			run = max(run, v)
			out[i] = run
		}
	case BH:
		// p_(i) ← min over j ≥ i of min(1, m/j·p_(j)).
		run := 1.0
		for rank := m - 1; rank >= 0; rank-- {
			i := idx[rank]
			v := min(1, float64(m)/float64(rank+1)*ps[i])
			run = min(run, v)
			out[i] = run
		}
	}
	return out
}

// PValue writes a p-value as a statistician does: "p = 0.004", and
// "p < 0.001" below that (never "p=<0.001").
func PValue(p float64) string {
	if p < 0.001 {
		return "p < 0.001"
	}
	return fmt.Sprintf("p = %.3f", p)
}

// Signed writes a change with its sign and prec decimals, as a statistician
// does: "+2.5", "-40.0", and "0.0" for a change that rounds to zero, never
// "-0.0" or "+0.0".
func Signed(x float64, prec int) string {
	s := strconv.FormatFloat(x, 'f', prec, 64)
	digits := strings.TrimLeft(s, "+-")
	if strings.Trim(digits, "0.") == "" {
		return digits
	}
	if x > 0 && !strings.HasPrefix(s, "+") {
		return "+" + s
	}
	return s
}

// Level writes a significance level with three significant digits: 0.05,
// 0.025, 0.00833.
func Level(a float64) string { return strconv.FormatFloat(a, 'g', 3, 64) }

// Levels returns, for each p-value of a family adjusted with a at the
// family level alpha, the per-test level its decision was made at: the
// test is significant after adjustment (Adjust's value below alpha)
// exactly when its raw p is below its level. An interval that inverts the
// test at that level therefore excludes the null exactly when the adjusted
// p-value is significant. With Holm a rejected test's level is alpha/(m−j)
// at its step j, and every other test's the level Holm stopped at; with
// Benjamini–Hochberg every test's level is alpha·R/m for R rejections
// (alpha/m when none: the false-coverage-statement adjustment of
// Benjamini & Yekutieli 2005); with none, alpha.
func Levels(ps []float64, a Adjustment, alpha float64) []float64 {
	m := len(ps)
	out := make([]float64, m)
	if m == 0 {
		return out
	}
	if a == None {
		for i := range out {
			out[i] = alpha
		}
		return out
	}
	idx := make([]int, m)
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(x, y int) int {
		switch {
		case ps[x] < ps[y]:
			return -1
		case ps[x] > ps[y]:
			return 1
		}
		return 0
	})
	switch a {
	case Holm:
		stop := alpha / float64(m)
		stopped := false
		for j, i := range idx {
			if !stopped {
				stop = alpha / float64(m-j)
				if ps[i] >= stop {
					stopped = true
				}
			}
			out[i] = stop
		}
	case BH:
		k := 0
		for j, i := range idx {
			if ps[i] < alpha*float64(j+1)/float64(m) {
				k = j + 1
			}
		}
		level := alpha * float64(max(k, 1)) / float64(m)
		for i := range out {
			out[i] = level
		}
	}
	return out
}
