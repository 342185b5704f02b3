package compare

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/eval/stats"
)

func repeat(v bool, n int) []bool {
	out := make([]bool, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// One effect, one sign: the headline's before and after are the
// case-averaged rates the effect is the difference of, and its interval
// the one that inverts the test (it said "9.1% → 4.8% (+81.8 pp)", pooled
// rates falling beside a rising effect).
func TestHeadlineFiguresAreTheEffectsRates(t *testing.T) {
	var a, b [][]bool
	for range 10 {
		a = append(a, []bool{false, false})
		b = append(b, []bool{true, true})
	}
	a = append(a, []bool{true, true})
	b = append(b, []bool{false, true})
	res, err := Compare(sampledRun("a", a...), sampledRun("b", b...))
	if err != nil {
		t.Fatal(err)
	}
	r := row(t, res, "routing.accuracy")
	want := (10.0 - 0.5) / 11
	if abs(r.Effect-want) > 1e-12 || abs(r.MeanB-r.MeanA-r.Effect) > 1e-12 || !(r.Lo < want && want < r.Hi) || r.Lo <= 0 || !r.Significant() {
		t.Errorf("effect %v [%v, %v] (%v → %v) significant %v, want %v", r.Effect, r.Lo, r.Hi, r.MeanA, r.MeanB, r.Significant(), want)
	}
	h := strings.Join(res.Headline(), "\n")
	if !strings.Contains(h, fmt.Sprintf("routing.accuracy 9.1%% → 95.5%% (+86.4 pp [%+.1f, %+.1f], p = ", 100*r.Lo, 100*r.Hi)) {
		t.Errorf("headline %q", h)
	}
	if !strings.Contains(h, "Cases: 10 rose, 1 fell, of 11 both reports hold") {
		t.Errorf("headline %q", h)
	}
	var buf bytes.Buffer
	if err := Write(&buf, res, Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "Cases whose pass rate changed (1 fell, 10 rose)") || !strings.Contains(buf.String(), "case-averaged") {
		t.Errorf("output:\n%s", buf.String())
	}
}

// Small n said out loud: three cases print their n and "too few cases to
// test", never a bare +100 pp.
func TestTooFewCases(t *testing.T) {
	f, p := []bool{false}, []bool{true}
	res, err := Compare(sampledRun("a", f, f, f), sampledRun("b", p, p, p))
	if err != nil {
		t.Fatal(err)
	}
	r := row(t, res, "routing.accuracy")
	if delta(r) != "n=3: too few cases to test" || pValue(r) != "untested" || r.Significant() {
		t.Errorf("delta %q p %q significant %v", delta(r), pValue(r), r.Significant())
	}
	if strings.Contains(strings.Join(res.Headline(), "\n"), "+100") {
		t.Errorf("headline %q", res.Headline())
	}
}

// Rows are significant only after adjustment: a raw p under 0.05 that
// Holm lifts above it is "~"; BH, less strict, may keep it.
func TestSignificantOnlyAfterAdjustment(t *testing.T) {
	mk := func(p float64) Row { return Row{Paired: true, Pairs: 20, Worse: 0, Better: 10, P: p, Exact: true} }
	res := &Result{Rows: []Row{mk(0.02), mk(0.03), mk(0.04)}}
	res.SetAdjustment(stats.Holm)
	for i, want := range []float64{0.06, 0.06, 0.06} {
		if r := res.Rows[i]; abs(r.PAdj-want) > 1e-12 || r.Significant() {
			t.Errorf("holm row %d: p %v adj %v significant %v", i, r.P, r.PAdj, r.Significant())
		}
	}
	res.SetAdjustment(stats.BH)
	for i := range res.Rows {
		if r := res.Rows[i]; abs(r.PAdj-0.04) > 1e-12 || !r.Significant() {
			t.Errorf("bh row %d: adj %v significant %v", i, r.PAdj, r.Significant())
		}
	}
	if res.Family != 3 {
		t.Errorf("family %d", res.Family)
	}
}

func abs(x float64) float64 { return max(x, -x) }
