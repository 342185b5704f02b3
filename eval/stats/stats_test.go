package stats

import (
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestMcNemar(t *testing.T) {
	tests := []struct {
		b, c int
		want float64
	}{
		{10, 1, 0.01171875}, // 2 * 12/2048
		{1, 10, 0.01171875},
		{5, 5, 1},
		{0, 0, 1},
		{0, 1, 1},
		{0, 6, 0.03125},     // 2/64
		{0, 5, 0.0625},      // 2/32
		{3, 12, 0.03515625}, // 2*(1+15+105+455)/32768
	}
	for _, tt := range tests {
		got := McNemar(tt.b, tt.c)
		if !near(got, tt.want, 1e-12) {
			t.Errorf("McNemar(%d, %d) = %v, want %v", tt.b, tt.c, got, tt.want)
		}
	}
}

func TestMcNemarLarge(t *testing.T) {
	// A 10,000-case run must not take long nor lose precision.
	p := McNemar(4900, 5100)
	if p <= 0 || p >= 1 {
		t.Fatalf("McNemar(4900, 5100) = %v, want in (0, 1)", p)
	}
	if p2 := McNemar(5100, 4900); p2 != p {
		t.Errorf("not symmetric: %v vs %v", p, p2)
	}
}

func TestWilson(t *testing.T) {
	tests := []struct {
		k, n   int
		lo, hi float64
	}{
		{0, 0, 0, 1},
		{0, 10, 0, 0.27753},
		{10, 10, 0.72247, 1},
		{5, 10, 0.23659, 0.76341},
		{81, 263, 0.25529, 0.36621},
	}
	for _, tt := range tests {
		lo, hi := Wilson(tt.k, tt.n)
		if !near(lo, tt.lo, 5e-5) || !near(hi, tt.hi, 5e-5) {
			t.Errorf("Wilson(%d, %d) = (%.5f, %.5f), want (%.5f, %.5f)", tt.k, tt.n, lo, hi, tt.lo, tt.hi)
		}
	}
}

func TestPRF(t *testing.T) {
	tests := []struct {
		tp, fp, fn int
		p, r, f    float64
	}{
		{0, 0, 0, 0, 0, 0},
		{5, 0, 0, 1, 1, 1},
		{3, 1, 2, 0.75, 0.6, 2 * 0.75 * 0.6 / 1.35},
		{0, 3, 2, 0, 0, 0},
	}
	for _, tt := range tests {
		p, r, f := PRF(tt.tp, tt.fp, tt.fn)
		if !near(p, tt.p, 1e-12) || !near(r, tt.r, 1e-12) || !near(f, tt.f, 1e-12) {
			t.Errorf("PRF(%d,%d,%d) = %v %v %v, want %v %v %v", tt.tp, tt.fp, tt.fn, p, r, f, tt.p, tt.r, tt.f)
		}
	}
}

func TestPercentile(t *testing.T) {
	xs := []float64{15, 20, 35, 40, 50}
	tests := []struct {
		p    float64
		want float64
	}{
		{5, 15}, {30, 20}, {40, 20}, {50, 35}, {95, 50}, {100, 50}, {0, 15},
	}
	for _, tt := range tests {
		if got := Percentile(xs, tt.p); got != tt.want {
			t.Errorf("Percentile(%v, %v) = %v, want %v", xs, tt.p, got, tt.want)
		}
	}
	if got := Percentile(nil, 50); got != 0 {
		t.Errorf("Percentile(nil) = %v", got)
	}
	unsorted := []float64{3, 1, 2}
	if got := Percentile(unsorted, 50); got != 2 || unsorted[0] != 3 {
		t.Errorf("Percentile sorted its input or got %v", got)
	}
}

func TestRoundAndMean(t *testing.T) {
	if got := Round(1670.0000000000002, 3); got != 1670 {
		t.Errorf("Round = %v", got)
	}
	if got := Round(-0.0000001, 6); math.Signbit(got) {
		t.Errorf("Round gave negative zero")
	}
	if got := Mean([]float64{1, 2, 3, 4}); got != 2.5 {
		t.Errorf("Mean = %v", got)
	}
	if got := Mean(nil); got != 0 {
		t.Errorf("Mean(nil) = %v", got)
	}
}

// Changes print with their sign, and a zero (however it was reached) with
// none.
func TestSigned(t *testing.T) {
	for _, tt := range []struct {
		x    float64
		prec int
		want string
	}{
		{0, 1, "0.0"},
		{math.Copysign(0, -1), 1, "0.0"},
		{-0.04, 1, "0.0"},
		{0.04, 1, "0.0"},
		{-0.05000001, 1, "-0.1"},
		{2.5, 1, "+2.5"},
		{-40, 1, "-40.0"},
		{-100 * 0.0, 1, "0.0"},
		{0.0004, 3, "0.000"},
		{-1.25, 2, "-1.25"},
		{math.Inf(1), 1, "+Inf"},
	} {
		if got := Signed(tt.x, tt.prec); got != tt.want {
			t.Errorf("Signed(%v, %d) = %q, want %q", tt.x, tt.prec, got, tt.want)
		}
	}
}
