package stats

import (
	"bufio"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestCohensKappaReference compares CohensKappa with statsmodels'
// cohens_kappa on the tables of testdata/kappa.py (its output is
// testdata/kappa.tsv).
func TestCohensKappaReference(t *testing.T) {
	f, err := os.Open("testdata/kappa.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	n := 0
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		var table [][]int
		for _, row := range strings.Split(cols[0], ";") {
			var r []int
			for _, c := range strings.Split(row, ",") {
				x, _ := strconv.Atoi(c)
				r = append(r, x)
			}
			table = append(table, r)
		}
		want := make([]float64, 4)
		for i := range want {
			want[i], _ = strconv.ParseFloat(cols[i+1], 64)
		}
		got := CohensKappa(table)
		for i, g := range []float64{got.Kappa, got.SE, got.Lo, got.Hi} {
			if math.Abs(g-want[i]) > 1e-9 {
				t.Errorf("table %s: field %d = %.12g, statsmodels says %.12g", cols[0], i, g, want[i])
			}
		}
		n++
	}
	if n < 5 {
		t.Fatalf("read %d reference tables", n)
	}
}

func TestCohensKappaDegenerate(t *testing.T) {
	if k := CohensKappa([][]int{{0, 0}, {0, 0}}); !math.IsNaN(k.Kappa) {
		t.Errorf("empty table: κ = %v, want NaN", k.Kappa)
	}
	// Both raters always said the same one label: chance agreement is 1.
	if k := CohensKappa([][]int{{7, 0}, {0, 0}}); !math.IsNaN(k.Kappa) {
		t.Errorf("one label only: κ = %v, want NaN", k.Kappa)
	}
}
