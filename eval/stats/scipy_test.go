package stats

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

func ints(t *testing.T, where, s string) []int {
	t.Helper()
	var out []int
	for _, f := range strings.Split(s, ",") {
		x, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		out = append(out, x)
	}
	return out
}

// ratePairs reads "pA/nA:pB/nB,…".
func ratePairs(t *testing.T, where, s string) []RatePair {
	t.Helper()
	var out []RatePair
	for _, f := range strings.Split(s, ",") {
		var p RatePair
		if _, err := fmt.Sscanf(f, "%d/%d:%d/%d", &p.PassA, &p.NA, &p.PassB, &p.NB); err != nil {
			t.Fatalf("%s: %q: %v", where, f, err)
		}
		out = append(out, p)
	}
	return out
}

// TestAgainstScipy checks the statistics issue 34 added against
// testdata/scipy.tsv, which scipy 1.10.1 and statsmodels 0.13.5 computed
// (testdata/scipy_ref.py): Fisher's one-sided exact test and the smallest
// p its margins allow, the sign-flip test two- and one-sided, the interval
// that inverts it (scipy's exact test on a grid of shifts), Tarone–Holm
// with every smallest p 0 against statsmodels' Holm, and the Wilson
// interval of a mean of fractions.
func TestAgainstScipy(t *testing.T) {
	f, err := os.Open("testdata/scipy.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	kinds := map[string]int{}
	close := func(got, want, tol float64) bool { return math.Abs(got-want) <= tol*max(1, math.Abs(want)) }
	for line := 1; sc.Scan(); line++ {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		where := fmt.Sprintf("scipy.tsv:%d", line)
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) != 3 {
			t.Fatalf("%s: want 3 fields", where)
		}
		kinds[fs[0]]++
		switch fs[0] {
		case "fisher":
			a, v := ints(t, where, fs[1]), floats(t, where, fs[2])
			pl, ml := Fisher(a[0], a[1], a[2], a[3], Worse)
			pg, mg := Fisher(a[0], a[1], a[2], a[3], Better)
			if !close(pl, v[0], 1e-12) || !close(ml, v[1], 1e-12) || !close(pg, v[2], 1e-12) || !close(mg, v[3], 1e-12) {
				t.Errorf("%s: Fisher(%v) = worse %v (min %v), better %v (min %v); scipy %v", where, a, pl, ml, pg, mg, v)
			}
		case "signflip":
			var d []int64
			for _, x := range ints(t, where, fs[1]) {
				d = append(d, int64(x))
			}
			v := floats(t, where, fs[2])
			p2, _ := SignFlipTail(d, TwoSided)
			pl, _ := SignFlipTail(d, Lower)
			pu, _ := SignFlipTail(d, Upper)
			if !close(p2, v[0], 1e-12) || !close(pl, v[1], 1e-12) || !close(pu, v[2], 1e-12) {
				t.Errorf("%s: SignFlipTail(%v) = %v, %v, %v; scipy %v", where, d, p2, pl, pu, v)
			}
		case "interval":
			args := strings.Fields(fs[1])
			ps := ratePairs(t, where, args[0])
			alpha, _ := strconv.ParseFloat(args[1], 64)
			v := floats(t, where, fs[2])
			lo, hi := SignFlipInterval(ps, alpha)
			if !close(lo, v[0], 1.001e-3) || !close(hi, v[1], 1.001e-3) {
				t.Errorf("%s: SignFlipInterval(%v, %v) = [%v, %v]; scipy's inversion [%v, %v]", where, ps, alpha, lo, hi, v[0], v[1])
			}
		case "holm":
			ps := floats(t, where, fs[1])
			want := ints(t, where, fs[2])
			ts := make([]DiscreteTest, len(ps))
			for i, p := range ps {
				ts[i] = DiscreteTest{P: p}
			}
			for i, d := range TaroneHolm(ts, 0.05) {
				if d.Reject != (want[i] == 1) {
					t.Errorf("%s: hypothesis %d (p %v): TaroneHolm rejects %v, statsmodels' Holm %v", where, i, ps[i], d.Reject, want[i] == 1)
				}
			}
		case "wilson":
			a, v := floats(t, where, fs[1]), floats(t, where, fs[2])
			lo, hi := WilsonMean(a[0]/a[1], int(a[1]))
			if !close(lo, v[0], 1e-9) || !close(hi, v[1], 1e-9) {
				t.Errorf("%s: WilsonMean(%v/%v) = [%v, %v]; statsmodels [%v, %v]", where, a[0], a[1], lo, hi, v[0], v[1])
			}
		default:
			t.Fatalf("%s: unknown kind %q", where, fs[0])
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"fisher", "signflip", "interval", "holm", "wilson"} {
		if kinds[k] == 0 {
			t.Errorf("scipy.tsv has no %s rows", k)
		}
	}
}
