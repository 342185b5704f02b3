package score

import (
	"math"
	"testing"
)

func TestQuantities(t *testing.T) {
	for _, tt := range []struct {
		text    string
		value   float64
		tol     float64
		percent bool
	}{
		{"1,234,567 people", 1234567, 0.5, false},
		{"3.14 units", 3.14, 0.005, false},
		{"175B parameters", 175e9, 0.5e9, false},
		{"1.2 million documents", 1.2e6, 0.05e6, false},
		{"20 percent", 20, 0.5, true},
		{"20 per cent", 20, 0.5, true},
		{"12.5%", 12.5, 0.05, true},
		{"10k stars", 1e4, 0.5e3, false},
		{"3 bn euros", 3e9, 0.5e9, false},
		{"330 m tall", 330, 0.5, false},
		{"10m tall", 10, 0.5, false}, // a lower-case m is metres
	} {
		qs := quantities(tt.text, nil)
		if len(qs) != 1 {
			t.Errorf("%q: %d quantities (%+v)", tt.text, len(qs), qs)
			continue
		}
		q := qs[0]
		if math.Abs(q.Value-tt.value) > 1e-6*tt.value || math.Abs(q.Tol-tt.tol) > 1e-6*math.Max(tt.tol, 1) || q.Percent != tt.percent {
			t.Errorf("%q: got %v ±%v percent=%v, want %v ±%v percent=%v", tt.text, q.Value, q.Tol, q.Percent, tt.value, tt.tol, tt.percent)
		}
	}
	// Years, versions and names are not quantities.
	for _, text := range []string{"in 2024", "Go 1.21.3", "an A100 GPU"} {
		if qs := quantities(text, nil); len(qs) != 0 {
			t.Errorf("%q: quantities %+v", text, qs)
		}
	}
}

func TestFullDates(t *testing.T) {
	for text, want := range map[string]string{
		"on 2 August 2024":       "2024-08-02",
		"on August 2, 2024":      "2024-08-02",
		"on Aug 2nd 2024":        "2024-08-02",
		"le 2 août 2024":         "2024-08-02",
		"am 2. August 2024":      "2024-08-02",
		"el 2 de agosto de 2024": "2024-08-02",
		"il 2 agosto 2024":       "2024-08-02",
		"op 2 augustus 2024":     "2024-08-02",
		"em 2 de agosto de 2024": "2024-08-02",
		"released 2024-08-02":    "2024-08-02",
		"on 21 März 2024":        "2024-03-21",
	} {
		ds := fullDates(text)
		if len(ds) != 1 || ds[0].String() != want {
			t.Errorf("%q: %v, want %s", text, ds, want)
		}
	}
	for text, want := range map[string]string{"on 25 December": "--12-25", "December 25 at noon": "--12-25"} {
		if ds := fullDates(text); len(ds) != 1 || ds[0].String() != want {
			t.Errorf("%q: %v, want %s", text, ds, want)
		}
	}
	for _, text := range []string{"in August 2024", "Kubernetes 1, 2015", "on 32 May 2024"} {
		if ds := fullDates(text); len(ds) != 0 {
			t.Errorf("%q: dates %v", text, ds)
		}
	}
}

// FuzzValues: reading numbers and dates never panics, spans stay inside
// the text, and the URL key is idempotent.
func FuzzValues(f *testing.F) {
	f.Add("GPT-3 has 175B parameters, 1,200,000 documents and 20 percent on 2 August 2024.")
	f.Add("HTTP://EUR-Lex.europa.eu:443/a/./b/../c%7e?utm_source=x#f")
	f.Fuzz(func(t *testing.T, s string) {
		ds := fullDates(s)
		for _, d := range ds {
			if d.start < 0 || d.end > len(s) || s[d.start:d.end] != d.Text || d.M < 1 || d.M > 12 {
				t.Fatalf("date %+v of %q", d, s)
			}
		}
		for _, q := range quantities(s, dateSpans(ds)) {
			if s[q.start:q.end] != q.Text || q.Tol <= 0 {
				t.Fatalf("quantity %+v of %q", q, s)
			}
		}
		if k := sameSourceKey(s); sameSourceKey(k) != k {
			t.Fatalf("sameSourceKey not idempotent on %q: %q then %q", s, k, sameSourceKey(k))
		}
	})
}
