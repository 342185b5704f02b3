package stats

import "math"

// Kappa is Cohen's κ for two raters' labels with its large-sample 95%
// interval.
type Kappa struct {
	Kappa float64 `json:"kappa"`
	// SE is the standard error under the alternative (Fleiss, Cohen and
	// Everitt 1969), the one statsmodels' cohens_kappa reports as
	// std_kappa; Lo and Hi are κ ∓ 1.96 SE.
	SE     float64 `json:"se"`
	Lo, Hi float64 `json:"-"`
	N      int     `json:"n"`
	// Observed and Expected are the agreement seen and the agreement
	// expected by chance from the two raters' label shares.
	Observed, Expected float64 `json:"-"`
}

// CohensKappa returns κ for a square contingency table: table[i][j] counts
// the items rater A labelled i and rater B labelled j. κ is 1 for perfect
// agreement and 0 for chance; when chance agreement is already perfect
// (both raters used one label) κ is NaN.
func CohensKappa(table [][]int) Kappa {
	k := len(table)
	n := 0
	for _, row := range table {
		for _, c := range row {
			n += c
		}
	}
	res := Kappa{N: n}
	if n == 0 {
		res.Kappa, res.SE, res.Lo, res.Hi = math.NaN(), math.NaN(), math.NaN(), math.NaN()
		return res
	}
	nf := float64(n)
	p := make([][]float64, k)
	row, col := make([]float64, k), make([]float64, k)
	for i := range table {
		p[i] = make([]float64, k)
		for j, c := range table[i] {
			p[i][j] = float64(c) / nf
			row[i] += p[i][j]
			col[j] += p[i][j]
		}
	}
	var po, pe float64
	for i := 0; i < k; i++ {
		po += p[i][i]
		pe += row[i] * col[i]
	}
	res.Observed, res.Expected = po, pe
	kappa := (po - pe) / (1 - pe)
	var a, b float64
	for i := 0; i < k; i++ {
		t := 1 - (row[i]+col[i])*(1-kappa)
		a += p[i][i] * t * t
		for j := 0; j < k; j++ {
			if i != j {
				s := col[i] + row[j]
				b += p[i][j] * s * s
			}
		}
	}
	b *= (1 - kappa) * (1 - kappa)
	c := kappa - pe*(1-kappa)
	v := (a + b - c*c) / ((1 - pe) * (1 - pe) * nf)
	res.Kappa = kappa
	res.SE = math.Sqrt(math.Max(v, 0))
	res.Lo, res.Hi = kappa-z95*res.SE, kappa+z95*res.SE
	return res
}
