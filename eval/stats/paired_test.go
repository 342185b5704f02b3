package stats

import (
	"bufio"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/lib/testenv"
)

func floats(t *testing.T, where, s string) []float64 {
	t.Helper()
	var out []float64
	for _, f := range strings.Split(s, ",") {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		out = append(out, x)
	}
	return out
}

// TestPairedAgainstR checks the sign-flip test (SignFlipRates, through
// every path: int64 dynamic programme, big-integer enumeration when the
// common denominator overflows), the mean effect, Newcombe's interval, the
// Holm and Benjamini–Hochberg adjustments and the exact McNemar power
// and the cases needed / minimum detectable effect that power prints,
// against testdata/paired.tsv, which R computed (testdata/paired.R: brute
// force over all 2^n sign assignments, p.adjust, dmultinom and binom.test,
// and a vectorised pbinom/dbinom power for the searches)
// on 240 generated paired datasets: n = 1 to 16, one sample per case, five,
// ragged and very unequal sample counts (1 to 43, and coprime ones whose
// common denominator overflows int64), all pass, all fail and exact ties.
func TestPairedAgainstR(t *testing.T) {
	f, err := os.Open("testdata/paired.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	kinds := map[string]int{}
	overflowed := 0
	for line := 1; sc.Scan(); line++ {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		where := fmt.Sprintf("paired.tsv:%d", line)
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) != 3 {
			t.Fatalf("%s: want 3 fields", where)
		}
		kinds[fs[0]]++
		switch fs[0] {
		case "dataset":
			var ps []RatePair
			for _, a := range strings.Split(fs[1], ",") {
				var p RatePair
				if _, err := fmt.Sscanf(a, "%d/%d:%d/%d", &p.PassA, &p.NA, &p.PassB, &p.NB); err != nil {
					t.Fatalf("%s: %q: %v", where, a, err)
				}
				ps = append(ps, p)
			}
			want := floats(t, where, fs[2])
			if _, ok := RateDifferences(ps); !ok {
				overflowed++
			}
			p, exact, _ := SignFlipRates(ps)
			if !exact || math.Abs(p-want[0]) > 1e-12 {
				t.Errorf("%s: sign-flip p = %.17g (exact %v), R says %.17g", where, p, exact, want[0])
			}
			if m := MeanDifference(ps); math.Abs(m-want[1]) > 1e-12 {
				t.Errorf("%s: mean difference %.17g, R says %.17g", where, m, want[1])
			}
			lo, hi := PairedInterval(ps)
			if math.Abs(lo-want[2]) > 1e-12 || math.Abs(hi-want[3]) > 1e-12 {
				t.Errorf("%s: interval [%.17g, %.17g], R says [%.17g, %.17g]", where, lo, hi, want[2], want[3])
			}
		case "holm", "bh":
			in, want := floats(t, where, fs[1]), floats(t, where, fs[2])
			a := Holm
			if fs[0] == "bh" {
				a = BH
			}
			got := Adjust(in, a)
			for i := range want {
				if math.Abs(got[i]-want[i]) > 1e-12 {
					t.Errorf("%s: %s adjusted %v, R says %v", where, fs[0], got, want)
					break
				}
			}
		case "power":
			args, want := floats(t, where, fs[1]), floats(t, where, fs[2])
			if got := McNemarPower(int(args[0]), args[1], args[2], Alpha); math.Abs(got-want[0]) > 1e-9 {
				t.Errorf("%s: power(n=%v, p10=%v, p01=%v) = %.17g, R says %.17g", where, args[0], args[1], args[2], got, want[0])
			}
		case "casesfor":
			args, want := floats(t, where, fs[1]), floats(t, where, fs[2])
			if n, ok := CasesFor(args[0], args[1], Alpha, 0.8, 1_000_000); !ok || n != int(want[0]) {
				t.Errorf("%s: CasesFor(%v, psi %v) = %d (%v), R says %v", where, args[0], args[1], n, ok, want[0])
			}
		case "mde":
			args, want := floats(t, where, fs[1]), floats(t, where, fs[2])
			if d, _ := MinDetectable(int(args[0]), args[1], Alpha, 0.8); math.Abs(d-want[0]) > 1e-12 {
				t.Errorf("%s: MinDetectable(%v, psi %v) = %v, R says %v", where, args[0], args[1], d, want[0])
			}
		case "tq":
			df, _ := strconv.Atoi(fs[1])
			want := floats(t, where, fs[2])
			if got := tQuantile975(df); math.Abs(got-want[0]) > 2e-4 {
				t.Errorf("%s: tQuantile975(%d) = %v, R's qt says %v", where, df, got, want[0])
			}
		default:
			t.Fatalf("%s: unknown kind %q", where, fs[0])
		}
	}
	if kinds["dataset"] < 200 || kinds["holm"] < 15 || kinds["bh"] < 15 || kinds["power"] < 30 || kinds["casesfor"] < 8 || kinds["mde"] < 7 || kinds["tq"] < 40 || overflowed == 0 {
		t.Fatalf("reference table too small: %v, %d datasets overflow int64", kinds, overflowed)
	}
	t.Logf("%v; %d datasets whose common denominator overflows int64", kinds, overflowed)
}

// TestSignFlipRatesOverflow: per-case sample counts 1..43 have a common
// denominator above 9·10^18; RateDifferences said so (it used to wrap
// around silently), and SignFlipRates still counts exactly, agreeing with
// a brute force over rationals written here.
func TestSignFlipRatesOverflow(t *testing.T) {
	var ps []RatePair
	counts := []int{23, 25, 27, 29, 31, 32, 37, 41, 43, 7, 11, 13, 17, 19}
	for i, n := range counts {
		ps = append(ps, RatePair{PassA: i % 3, NA: n, PassB: n / 2, NB: counts[len(counts)-1-i]})
	}
	if _, ok := RateDifferences(ps); ok {
		t.Fatal("RateDifferences fits int64; the test needs it not to")
	}
	p, exact, _ := SignFlipRates(ps)
	if !exact {
		t.Fatal("not exact")
	}
	// Brute force in float64 with a relative tie tolerance: the sums here
	// are far apart compared with rounding.
	var d []float64
	for _, x := range ps {
		d = append(d, Ratio(x.PassB, x.NB)-Ratio(x.PassA, x.NA))
	}
	var obs float64
	for _, x := range d {
		obs += x
	}
	hits := 0
	for mask := 0; mask < 1<<len(d); mask++ {
		var s float64
		for i, x := range d {
			if mask>>i&1 == 1 {
				s -= math.Abs(x)
			} else {
				s += math.Abs(x)
			}
		}
		if math.Abs(s) >= math.Abs(obs)-1e-9 {
			hits++
		}
	}
	if want := float64(hits) / float64(int(1)<<len(d)); p != want {
		t.Errorf("p = %v, brute force %v", p, want)
	}
	// Past SignFlipBigExactMax differences: a Monte Carlo with its draws.
	for i := 15; i <= 30; i++ {
		ps = append(ps, RatePair{PassA: 0, NA: i, PassB: i / 2, NB: 30 + i})
	}
	p, exact, draws := SignFlipRates(ps)
	if exact || draws < signFlipMinDraws || p <= 0 || p > 1 {
		t.Errorf("p %v exact %v draws %d", p, exact, draws)
	}
}

// TestPairedIntervalCoverage simulates paired runs from n = 10 up and
// checks that Newcombe's interval covers the true mean per-case change at
// least 93% of the time in every scenario: one sample per case (cells of
// the 2×2 table) and five samples per case from cases of varying
// difficulty. The figures are quoted in README (Statistics).
func TestPairedIntervalCoverage(t *testing.T) {
	testenv.Slow(t)
	rng := rand.New(rand.NewPCG(7, 11))
	const reps = 2000
	type scenario struct {
		name string
		draw func(n int) ([]RatePair, float64)
	}
	binary := func(pp, pf, fp float64) scenario { // P(pass,pass), P(pass,fail), P(fail,pass)
		return scenario{fmt.Sprintf("2x2 %.2f/%.2f/%.2f", pp, pf, fp), func(n int) ([]RatePair, float64) {
			ps := make([]RatePair, n)
			for i := range ps {
				switch u := rng.Float64(); {
				case u < pp:
					ps[i] = RatePair{1, 1, 1, 1}
				case u < pp+pf:
					ps[i] = RatePair{1, 1, 0, 1}
				case u < pp+pf+fp:
					ps[i] = RatePair{0, 1, 1, 1}
				default:
					ps[i] = RatePair{0, 1, 0, 1}
				}
			}
			return ps, fp - pf
		}}
	}
	sampled := func(shift float64) scenario {
		return scenario{fmt.Sprintf("5 samples, shift %+.2f", shift), func(n int) ([]RatePair, float64) {
			ps := make([]RatePair, n)
			for i := range ps {
				q := rng.Float64()
				qb := min(1, max(0, q+shift))
				ps[i] = RatePair{PassA: binomial(rng, 5, q), NA: 5, PassB: binomial(rng, 5, qb), NB: 5}
			}
			// The true mean change: E[clamp(q + shift)] − E[q], q uniform.
			return ps, clampedShift(shift)
		}}
	}
	scenarios := []scenario{binary(0.5, 0.1, 0.1), binary(0.2, 0.3, 0.05), binary(0.1, 0.1, 0.4), binary(0.7, 0, 0.15),
		binary(0.9, 0.05, 0.03), binary(0.3, 0.2, 0.2), sampled(0), sampled(0.2), sampled(-0.3)}
	worst := 1.0
	for _, n := range []int{10, 20, 50} {
		for _, sc := range scenarios {
			hit := 0
			for range reps {
				ps, truth := sc.draw(n)
				lo, hi := PairedInterval(ps)
				if lo <= truth+1e-12 && truth <= hi+1e-12 {
					hit++
				}
			}
			cov := float64(hit) / reps
			worst = min(worst, cov)
			if cov < 0.93 {
				t.Errorf("n=%d %s: coverage %.3f < 0.93", n, sc.name, cov)
			}
		}
	}
	t.Logf("worst coverage over %d scenarios × n = 10, 20, 50: %.3f (%d replicates each)", len(scenarios), worst, reps)
}

func binomial(rng *rand.Rand, n int, p float64) int {
	k := 0
	for range n {
		if rng.Float64() < p {
			k++
		}
	}
	return k
}

// clampedShift is E[min(1, max(0, q + s))] − E[q] for q uniform on [0, 1].
func clampedShift(s float64) float64 {
	if s >= 0 {
		// ∫0^{1−s} (q+s) dq + ∫_{1−s}^1 1 dq − 1/2
		return (1-s)*(1-s)/2 + s*(1-s) + s - 0.5
	}
	// ∫_{−s}^1 (q+s) dq − 1/2
	return (1+s)*(1+s)/2 - 0.5
}

// TestFamilyWiseError simulates compare's situation: 25 paired metrics,
// none of which changed (each case discordant with probability 0.2, either
// way alike, 60 cases). Unadjusted, some metric is "significant" in far
// more than 5% of comparisons; Holm keeps it at or under 5%. The figures
// are quoted in README (Statistics).
func TestFamilyWiseError(t *testing.T) {
	testenv.Slow(t)
	rng := rand.New(rand.NewPCG(3, 5))
	const reps, metrics, cases = 2000, 25, 60
	raw, holm, bh := 0, 0, 0
	for range reps {
		ps := make([]float64, 0, metrics)
		for range metrics {
			b, c := 0, 0
			for range cases {
				if u := rng.Float64(); u < 0.1 {
					b++
				} else if u < 0.2 {
					c++
				}
			}
			ps = append(ps, McNemar(b, c))
		}
		any := func(xs []float64) bool {
			for _, x := range xs {
				if x < Alpha {
					return true
				}
			}
			return false
		}
		if any(ps) {
			raw++
		}
		if any(Adjust(ps, Holm)) {
			holm++
		}
		if any(Adjust(ps, BH)) {
			bh++
		}
	}
	fr, fh, fb := float64(raw)/reps, float64(holm)/reps, float64(bh)/reps
	t.Logf("25 null metrics, 60 cases: P(any significant) unadjusted %.3f, Holm %.3f, BH %.3f (%d replicates)", fr, fh, fb, reps)
	if fr < 0.3 || fh > 0.05+3*math.Sqrt(0.05*0.95/reps) || fb > 0.05+3*math.Sqrt(0.05*0.95/reps) {
		t.Errorf("family-wise error: unadjusted %.3f, Holm %.3f, BH %.3f", fr, fh, fb)
	}
}

// TestClusterIntervalCoverage simulates runs of n = 10 to 40 cases with
// five (or 1 to 9) samples each, cases of the same or of spread difficulty,
// and checks that the per-run interval covers the pooled rate at least
// 93% of the time in every scenario. The case-level bootstrap it replaced
// covered 91–92% at n = 10.
func TestClusterIntervalCoverage(t *testing.T) {
	testenv.Slow(t)
	rng := rand.New(rand.NewPCG(1, 2))
	worst := 1.0
	const reps = 4000
	for _, n := range []int{10, 20, 40} {
		for _, mu := range []float64{0.3, 0.5, 0.8, 0.97} {
			for _, spread := range []float64{0, 0.3, 1} {
				for _, unequal := range []bool{false, true} {
					hit := 0
					for range reps {
						cs := make([]Cluster, n)
						for i := range cs {
							q := mu + spread*(rng.Float64()-0.5)*2*min(mu, 1-mu)
							m := 5
							if unequal {
								m = 1 + rng.IntN(9)
							}
							cs[i] = Cluster{Pass: binomial(rng, m, q), N: m}
						}
						if lo, hi := ClusterInterval(cs); lo <= mu && mu <= hi {
							hit++
						}
					}
					c := float64(hit) / reps
					worst = min(worst, c)
					if c < 0.93 {
						t.Errorf("n=%d rate %.2f spread %.1f unequal %v: coverage %.3f < 0.93", n, mu, spread, unequal, c)
					}
				}
			}
		}
	}
	t.Logf("worst coverage of the per-run interval, n = 10 to 40: %.3f (%d runs each)", worst, reps)
}
