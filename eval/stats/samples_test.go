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

// TestAgainstR checks SignFlip (on integers, and on per-case pass rates
// through RateDifferences), McNemar, PassAtK and PassHatK against the values
// R computed independently (testdata/reference.R: brute-force enumeration
// of every sign assignment, binom.test and choose()), committed in
// testdata/reference.tsv.
func TestAgainstR(t *testing.T) {
	f, err := os.Open("testdata/reference.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	kinds := map[string]int{}
	for line := 1; sc.Scan(); line++ {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) != 3 {
			t.Fatalf("reference.tsv:%d: want 3 fields", line)
		}
		want, err := strconv.ParseFloat(fs[2], 64)
		if err != nil {
			t.Fatalf("reference.tsv:%d: %v", line, err)
		}
		var args []int64
		var pairs []RatePair
		for _, a := range strings.Split(fs[1], ",") {
			if fs[0] == "signflip-rates" {
				var p RatePair
				if _, err := fmt.Sscanf(a, "%d/%d:%d/%d", &p.PassA, &p.NA, &p.PassB, &p.NB); err != nil {
					t.Fatalf("reference.tsv:%d: %q: %v", line, a, err)
				}
				pairs = append(pairs, p)
				continue
			}
			x, err := strconv.ParseInt(a, 10, 64)
			if err != nil {
				t.Fatalf("reference.tsv:%d: %v", line, err)
			}
			args = append(args, x)
		}
		var got float64
		switch fs[0] {
		case "signflip", "signflip-rates":
			if pairs != nil {
				args, _ = RateDifferences(pairs)
			}
			var exact bool
			got, exact = SignFlip(args)
			if !exact {
				t.Errorf("reference.tsv:%d: SignFlip(%v) not exact", line, args)
			}
		case "mcnemar":
			got = McNemar(int(args[0]), int(args[1]))
		case "pass@k":
			got = PassAtK(int(args[0]), int(args[1]), int(args[2]))
		case "pass^k":
			got = PassHatK(int(args[0]), int(args[1]), int(args[2]))
		default:
			t.Fatalf("reference.tsv:%d: unknown kind %q", line, fs[0])
		}
		kinds[fs[0]]++
		if !near(got, want, 1e-12) {
			t.Errorf("reference.tsv:%d: %s(%s) = %.17g, R says %.17g", line, fs[0], fs[1], got, want)
		}
	}
	if kinds["signflip"] < 8 || kinds["signflip-rates"] < 3 || kinds["mcnemar"] < 8 || kinds["pass@k"] < 50 || kinds["pass^k"] < 50 {
		t.Fatalf("reference table too small: %v", kinds)
	}
}

// With one sample per case every difference is −1, 0 or +1, and the
// sign-flip test is the exact sign test: McNemar's, which a one-sample
// comparison reports. The two must agree.
func TestSignFlipIsMcNemarOnBinaryPairs(t *testing.T) {
	for b := 0; b <= 12; b++ {
		for c := 0; c <= 12; c++ {
			var d []int64
			for range b {
				d = append(d, -1)
			}
			for range c {
				d = append(d, 1)
			}
			d = append(d, 0, 0)
			p, exact := SignFlip(d)
			if !exact || p != McNemar(b, c) {
				t.Errorf("SignFlip(b=%d, c=%d) = %v (exact %v), McNemar = %v", b, c, p, exact, McNemar(b, c))
			}
		}
	}
}

func TestSignFlipMonteCarlo(t *testing.T) {
	d := []int64{3, -2, 4, 1, -1, 5, 2, 2, -3, 1, 4, 2}
	exactP, _ := SignFlip(d)
	abs := make([]int64, len(d))
	var obs int64
	for i, x := range d {
		obs += x
		abs[i] = max(x, -x)
	}
	mc := signFlipMC(abs, obs, TwoSided)
	se := math.Sqrt(exactP * (1 - exactP) / float64(signFlipDraws(len(abs))))
	if math.Abs(mc-exactP) > 4*se {
		t.Errorf("Monte Carlo p = %v, exact %v (4 SE = %v)", mc, exactP, 4*se)
	}
	if again := signFlipMC(abs, obs, TwoSided); again != mc {
		t.Errorf("Monte Carlo not deterministic: %v then %v", mc, again)
	}
	// Past the limit SignFlip switches to Monte Carlo and says so.
	big := []int64{SignFlipExactWork, 1, 2}
	if _, exact := SignFlip(big); exact {
		t.Error("SignFlip over the limit claims exactness")
	}
	if signFlipDraws(10) != SignFlipDraws || signFlipDraws(1_000_000) != signFlipMinDraws {
		t.Errorf("draws: %d for 10 cases, %d for a million", signFlipDraws(10), signFlipDraws(1_000_000))
	}
}

// Past 63 non-zero differences the counts are big integers: the two paths
// agree where both apply, and a long run of +1s gives the exact tail.
func TestSignFlipManyCases(t *testing.T) {
	var d []int64
	for i := range 80 {
		d = append(d, int64(1+i%3))
	}
	d[0], d[1] = -2, -3
	p, exact := SignFlip(d)
	if !exact || p <= 0 || p > 1e-12 {
		t.Errorf("80 mostly positive differences: p = %v (exact %v)", p, exact)
	}
	// 70 differences, 40 of +1 and 30 of −1: the sign test, McNemar(30, 40).
	var e []int64
	for i := range 70 {
		if i < 40 {
			e = append(e, 1)
		} else {
			e = append(e, -1)
		}
	}
	if p, _ := SignFlip(e); math.Abs(p-McNemar(30, 40)) > 1e-15 {
		t.Errorf("70 ±1 differences: p = %v, McNemar %v", p, McNemar(30, 40))
	}
}

func TestRateDifferences(t *testing.T) {
	got, _ := RateDifferences([]RatePair{{PassA: 1, NA: 2, PassB: 2, NB: 3}, {PassA: 5, NA: 5, PassB: 0, NB: 1}, {PassA: 0, NA: 0, PassB: 0, NB: 0}})
	// lcm(2, 3, 5, 1) = 30: 2/3−1/2 = 1/6 → 5; 0−1 → −30.
	want := []int64{5, -30, 0}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("RateDifferences = %v, want %v", got, want)
		}
	}
}

func TestPassKEdges(t *testing.T) {
	if !math.IsNaN(PassAtK(5, 2, 6)) || !math.IsNaN(PassHatK(0, 0, 1)) || !math.IsNaN(PassHatK(3, 4, 1)) {
		t.Error("k > n, n = 0 or c > n must be NaN")
	}
	// pass@1 and pass^1 are both the plain pass rate.
	for n := 1; n <= 7; n++ {
		for c := 0; c <= n; c++ {
			r := float64(c) / float64(n)
			if !near(PassAtK(n, c, 1), r, 1e-15) || !near(PassHatK(n, c, 1), r, 1e-15) {
				t.Errorf("n=%d c=%d: pass@1 %v pass^1 %v, want %v", n, c, PassAtK(n, c, 1), PassHatK(n, c, 1), r)
			}
		}
	}
}

func TestClusterInterval(t *testing.T) {
	// One sample per case, all passing: the Wilson interval over cases.
	all := []Cluster{{5, 5}, {5, 5}, {5, 5}}
	lo, hi := ClusterInterval(all)
	wlo, whi := Wilson(3, 3)
	if lo != wlo || hi != whi {
		t.Errorf("all pass: (%v, %v), want Wilson (%v, %v)", lo, hi, wlo, whi)
	}
	if lo, hi := ClusterInterval(nil); lo != 0 || hi != 1 {
		t.Errorf("no cases: (%v, %v)", lo, hi)
	}
	// Clustering widens the interval: 20 cases each 5/5 or 0/5 carry the
	// evidence of 20 draws, not 100.
	var clustered, spread []Cluster
	for i := range 20 {
		if i%2 == 0 {
			clustered = append(clustered, Cluster{5, 5})
		} else {
			clustered = append(clustered, Cluster{0, 5})
		}
		spread = append(spread, Cluster{Pass: 2 + i%2, N: 5}) // same 50% mean
	}
	clo, chi := ClusterInterval(clustered)
	slo, shi := ClusterInterval(spread)
	if !(clo < 0.5 && chi > 0.5) || chi-clo <= shi-slo {
		t.Errorf("clustered (%v, %v) should contain 0.5 and be wider than spread (%v, %v)", clo, chi, slo, shi)
	}
	// 20 all-or-nothing cases are 20 units: the Wilson interval of a 50%
	// rate over 20 with t(19) = 2.093 is 0.5 ± 0.2066/1.219 … about ±0.2.
	if !near(chi-clo, 0.4, 0.03) {
		t.Errorf("clustered width %v, want about 0.4", chi-clo)
	}
	if lo2, hi2 := ClusterInterval(clustered); lo2 != clo || hi2 != chi {
		t.Error("ClusterInterval is not deterministic")
	}
}

func TestPairedIntervalEdges(t *testing.T) {
	var ps []RatePair
	for i := range 30 {
		ps = append(ps, RatePair{PassA: i % 3, NA: 5, PassB: 2 + i%4, NB: 5})
	}
	m := MeanDifference(ps)
	lo, hi := PairedInterval(ps)
	if !(lo < m && m < hi) || lo <= 0 {
		t.Errorf("mean %v interval (%v, %v): want a positive interval around the mean", m, lo, hi)
	}
	if lo, hi := PairedInterval(nil); lo != -1 || hi != 1 || MeanDifference(nil) != 0 {
		t.Error("no pairs")
	}
	// One case never gives a zero-width interval (the bootstrap did, half
	// the time).
	for _, p := range []RatePair{{1, 1, 1, 1}, {0, 1, 1, 1}, {3, 5, 3, 5}} {
		if lo, hi := PairedInterval([]RatePair{p}); hi-lo < 0.5 {
			t.Errorf("one case %v: interval (%v, %v)", p, lo, hi)
		}
	}
}

// BenchmarkSignFlip10k is the exact test of a 10,000-case comparison with
// five samples a side (differences in fifths).
func BenchmarkSignFlip10k(b *testing.B) {
	d := make([]int64, 10_000)
	for i := range d {
		d[i] = int64(i%11 - 5)
	}
	d[0] = 5
	for b.Loop() {
		SignFlip(d)
	}
}

// Moments gives ClusterInterval's interval from running sums.
func TestMomentsMatchClusterInterval(t *testing.T) {
	sets := [][]Cluster{
		{{3, 5}},
		{{5, 5}, {5, 5}, {5, 5}},
		{{0, 5}, {0, 3}},
		{{3, 5}, {4, 5}, {1, 5}, {5, 5}, {0, 5}, {2, 4}},
		{{1, 1}, {0, 1}, {1, 1}, {1, 1}},
		{{2, 3}, {0, 0}, {7, 10}, {1, 2}},
	}
	for _, cs := range sets {
		var m Moments
		var nonEmpty []Cluster
		for _, c := range cs {
			m.Add(c)
			if c.N > 0 {
				nonEmpty = append(nonEmpty, c)
			}
		}
		lo, hi := m.Interval()
		wlo, whi := ClusterInterval(nonEmpty)
		if math.Abs(lo-wlo) > 1e-12 || math.Abs(hi-whi) > 1e-12 {
			t.Errorf("%v: Moments [%v, %v], ClusterInterval [%v, %v]", cs, lo, hi, wlo, whi)
		}
	}
}
