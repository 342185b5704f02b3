package quantity

import (
	"math"
	"strings"
	"testing"
)

func TestFindNumbers(t *testing.T) {
	tests := []struct {
		text     string
		kind     Kind
		num, tol float64
		extra    string // currency, unit or "" to skip
	}{
		{"1.2 million", Number, 1.2e6, 5e4, ""},
		{"1,200,000", Number, 1.2e6, 0.5, ""},
		{"1.2M users", Number, 1.2e6, 5e4, ""},
		{"175B parameters", Number, 175e9, 0.5e9, ""},
		{"10k", Number, 1e4, 500, ""},
		{"€3bn", Money, 3e9, 0.5e9, "EUR"},
		{"$3m", Money, 3e6, 0.5e6, "USD"},
		{"US$ 5.2 billion", Money, 5.2e9, 0.05e9, "USD"},
		{"3 billion euros", Money, 3e9, 0.5e9, "EUR"},
		{"5,2 Mio. €", Money, 5.2e6, 0.05e6, "EUR"},
		{"3,5 %", Percent, 3.5, 0.05, ""},
		{"20 percent", Percent, 20, 0.5, ""},
		{"25 basis points", Percent, 0.25, 0.005, ""},
		{"25 bp", Percent, 0.25, 0.005, ""},
		{"1.234,5", Number, 1234.5, 0.05, ""},
		{"1.234.567", Number, 1234567, 0.5, ""},
		{"1\u202f234", Number, 1234, 0.5, ""},
		{"twenty-five", Number, 25, 0.5, ""},
		{"one hundred and five", Number, 105, 0.5, ""},
		{"two and a half million", Number, 2.5e6, 0, ""},
		{"three quarters", Number, 0.75, 0, ""},
		{"a dozen", Number, 12, 0.5, ""},
		{"5 km", Measure, 5000, 500, "m"},
		{"5km", Measure, 5000, 500, "m"},
		{"about 384,400 km", Measure, 384400e3, 500, "m"},
		{"100 °C", Measure, 373.15, 0.5, "K"},
		{"212 °F", Measure, 373.15, 0.5 * 5 / 9, "K"},
		{"373.15 K", Measure, 373.15, 0.005, "K"},
		{"3.99 degrees", Measure, 3.99, 0.005, "°"},
		{"7 ml", Measure, 0.007, 0.0005, "l"},
		{"3rd", Ordinal, 3, 0, ""},
		{"the fifteenth", Ordinal, 15, 0, ""},
	}
	for _, tt := range tests {
		vs := Find(tt.text)
		if len(vs) != 1 {
			t.Errorf("Find(%q) = %v, want one value", tt.text, vs)
			continue
		}
		v := vs[0]
		near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
		if v.Kind != tt.kind || !near(v.Num, tt.num) || !near(v.Tol, tt.tol) {
			t.Errorf("Find(%q) = %v, want %v %g ±%g", tt.text, v, tt.kind, tt.num, tt.tol)
		}
		switch tt.kind {
		case Money:
			if v.Currency != tt.extra {
				t.Errorf("Find(%q): currency %q, want %q", tt.text, v.Currency, tt.extra)
			}
		case Measure:
			if v.Unit != tt.extra {
				t.Errorf("Find(%q): unit %q, want %q", tt.text, v.Unit, tt.extra)
			}
		}
		if v.Text != tt.text[v.Start:v.End] {
			t.Errorf("Find(%q): Text %q is not text[%d:%d]", tt.text, v.Text, v.Start, v.End)
		}
	}
}

func TestFindNotNumbers(t *testing.T) {
	// Versions, names with digits, glued letters and codes with a
	// leading zero are no values.
	for _, text := range []string{"v1.2.3", "A100", "H2O", "07xxx", "1,2,3", "the GPT-4o model", "start with 07", "call 0800", "agent 007"} {
		for _, v := range Find(text) {
			if v.Kind != Date {
				t.Errorf("Find(%q) read %v", text, v)
			}
		}
	}
}

func TestFindDates(t *testing.T) {
	tests := []struct{ text, want string }{
		{"2024-08-02", "2024-08-02"},
		{"2 August 2024", "2024-08-02"},
		{"August 2nd, 2024", "2024-08-02"},
		{"2. August 2024", "2024-08-02"},
		{"2 de agosto de 2024", "2024-08-02"},
		{"le 2 août 2024", "2024-08-02"},
		{"2 agosto 2024", "2024-08-02"},
		{"2 augustus 2024", "2024-08-02"},
		{"January 14 , 2018", "2018-01-14"},
		{"2.8.2024", "2024-08-02"},
		{"25/12/2021", "2021-12-25"},
		{"03/04/2021", "2021-03-04 or 2021-04-03"},
		{"December 1972", "1972-12"},
		{"2024-W12", "2024-W12"},
		{"week 12 of 2024", "2024-W12"},
		{"KW 12/2024", "2024-W12"},
		{"the 1990s", "1990s"},
		{"the 16th century", "1500–1599"},
		{"480 BC", "-480"},
		{"25 December", "--12-25"},
	}
	for _, tt := range tests {
		vs := Find(tt.text)
		if len(vs) != 1 || vs[0].Kind != Date || vs[0].Date.String() != tt.want {
			t.Errorf("Find(%q) = %v, want the date %s", tt.text, vs, tt.want)
		}
	}
	// Words that are also abbreviated month names make no date alone.
	for _, text := range []string{"5 out of 10", "2 mar", "3 set"} {
		for _, v := range Find(text) {
			if v.Kind == Date {
				t.Errorf("Find(%q) read the date %v", text, v)
			}
		}
	}
}

func TestCompare(t *testing.T) {
	one := func(s string) Value {
		v, ok := Parse(s)
		if !ok {
			t.Fatalf("Parse(%q) failed: %v", s, Find(s))
		}
		return v
	}
	tests := []struct {
		a, b string
		want Agreement
	}{
		{"1.2 million", "1,234,567", Agree}, // the first's precision covers it
		{"527", "523", Disagree},
		{"eight", "8", Agree},
		{"20%", "20 percent", Agree},
		{"20%", "20", Incomparable},
		{"€3bn", "3 billion euros", Agree},
		{"€3bn", "$3bn", Incomparable},
		{"100 °C", "373.15 K", Agree},
		{"5 km", "5000 m", Agree},
		{"11.3", "10–12", Finer},
		{"10–12", "11.3", Coarser},
		{"14 December 1972", "December 1972", Finer},
		{"1972", "14 December 1972", Coarser},
		{"1984", "March 30, 1990", Disagree},
		{"03/04/2021", "4 March 2021", Agree},
		{"03/04/2021", "3 April 2021", Agree},
		{"2024-W12", "20 March 2024", Coarser},
		{"2024-W12", "1 April 2024", Disagree},
		{"1524", "the 16th century", Finer},
		{"25 December", "25 December 2021", Agree},
		{"14th", "14", Agree},
	}
	for _, tt := range tests {
		if got := Compare(one(tt.a), one(tt.b)); got != tt.want {
			t.Errorf("Compare(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestParseWholeText(t *testing.T) {
	if v, ok := Parse("about 775 rooms"); ok {
		t.Errorf("Parse read %v from a text with a word besides the value", v)
	}
	if v, ok := Parse("approximately 3.99 degrees"); !ok || !v.Approx {
		t.Errorf("Parse(approximately 3.99 degrees) = %v, %v; want an approximate value", v, ok)
	}
	if v, ok := Parse("over 1,100"); !ok || v.Bound != AtLeast {
		t.Errorf("Parse(over 1,100) = %v, %v; want a lower bound", v, ok)
	}
	if _, ok := Parse("1984 and 1990"); ok {
		t.Error("Parse read two values as one")
	}
}

// FuzzFind checks that Find never panics and returns ordered,
// non-overlapping values whose Text is their span.
func FuzzFind(f *testing.F) {
	for _, s := range []string{"1.2 million", "€3bn", "3,5 %", "2 August 2024", "2024-W12", "twenty-five", "10–12 years",
		"between 3 and 4", "1.2.3", "½", "-5 °C", "US$", "1,2,3", "the 1990's", "week 53 of 2020", "29/02/2023", "a a a", "9999999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		vs := Find(s)
		end := 0
		for _, v := range vs {
			if v.Start < end || v.End > len(s) || v.Start > v.End {
				t.Fatalf("Find(%q): bad span %d–%d after %d: %v", s, v.Start, v.End, end, vs)
			}
			if v.Text != s[v.Start:v.End] {
				t.Fatalf("Find(%q): Text %q is not its span %q", s, v.Text, s[v.Start:v.End])
			}
			if math.IsNaN(v.Num) || math.IsNaN(v.Tol) || v.Tol < 0 {
				t.Fatalf("Find(%q): %v", s, v)
			}
			end = v.End
		}
		for _, v := range vs {
			_ = Compare(v, v)
			if v.Kind != Date && !strings.Contains(v.String(), v.Kind.String()) {
				t.Fatalf("String of %v", v)
			}
		}
	})
}

func TestAfter(t *testing.T) {
	long := strings.Repeat("word ", 100) // 500 bytes
	for _, tc := range []struct {
		name, text string
		i          int
		want       string
	}{
		{"short text: all of the rest", "5% target was met.", 2, " target was met."},
		{"at the end", "5%", 2, ""},
		{"cut at the next space", "5%" + long, 2, long[:259]}, // "… word" ends at 259
		{"a word is never cut", "5%" + strings.Repeat("x", 300) + " tail", 2, strings.Repeat("x", 300)},
		{"no space after the reach", "5%" + strings.Repeat("x", 300), 2, strings.Repeat("x", 300)},
	} {
		if got := After(tc.text, tc.i); got != tc.want {
			t.Errorf("%s: After = %q (%d bytes), want %q (%d bytes)", tc.name, got, len(got), tc.want, len(tc.want))
		}
	}
	// The phrase after a value in a long text reads as in the whole text.
	text := "The 50% target was met " + long
	vs := Find(text)
	if len(vs) == 0 {
		t.Fatalf("Find(%q) found nothing", text[:30])
	}
	if got := After(text, vs[0].End); !strings.HasPrefix(got, " target was met ") || len(got) > 260 {
		t.Errorf("After = %q", got)
	}
}
