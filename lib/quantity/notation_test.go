package quantity

import (
	"math"
	"testing"
)

// TestFindNotations: the notations issue 39 compares across: scale words
// of other languages, tonnes and their multiples, a lower-case m before a
// counted noun, vulgar and worded fractions, compound measures.
func TestFindNotations(t *testing.T) {
	tests := []struct {
		text     string
		kind     Kind
		num, tol float64
		numeral  float64
		fraction bool
	}{
		{"2,5 Milliarden", Number, 2.5e9, 0.05e9, 2.5, false},
		{"1,8 Millionen", Number, 1.8e6, 0.05e6, 1.8, false},
		{"3 miliardi", Number, 3e9, 0.5e9, 3, false},
		{"2500 millones", Number, 2.5e9, 0.5e6, 2500, false},
		{"5 Mt", Measure, 5e12, 0.5e12, 5, false},
		{"5 million tonnes", Measure, 5e12, 0.5e12, 5, false},
		{"8.5 Gt", Measure, 8.5e15, 0.05e15, 8.5, false},
		{"575 tonnes", Measure, 575e6, 0.5e6, 575, false},
		{"150 kilos", Measure, 150e3, 500, 150, false},
		{"1/2 percentage point", Percent, 0.5, 0, 0.5, true},
		{"4-3/4 percent", Percent, 4.75, 0, 4.75, false},
		{"one in five", Number, 0.2, 0, 0.2, true},
		{"nine out of ten", Number, 0.9, 0, 0.9, true},
		{"two thirds", Number, 2.0 / 3, 0, 2.0 / 3, true},
		{"77 feet 3.5 inches", Measure, 77*0.3048 + 3.5*0.0254, 0.05 * 0.0254, 77, false},
		{"NOK 30bn", Money, 30e9, 0.5e9, 30, false},
		{"118 lb", Measure, 118 * 453.59237, 0.5 * 453.59237, 118, false},
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-6*math.Max(1, math.Abs(b)) }
	for _, tt := range tests {
		vs := Find(tt.text)
		if len(vs) != 1 {
			t.Errorf("Find(%q) = %v, want one value", tt.text, vs)
			continue
		}
		v := vs[0]
		if v.Kind != tt.kind || !near(v.Num, tt.num) || !near(v.Tol, tt.tol) || !near(v.Numeral, tt.numeral) || v.Fraction != tt.fraction || v.Text != tt.text {
			t.Errorf("Find(%q) = %v (%q, numeral %g, fraction %v), want %v %g ±%g numeral %g fraction %v",
				tt.text, v, v.Text, v.Numeral, v.Fraction, tt.kind, tt.num, tt.tol, tt.numeral, tt.fraction)
		}
	}
	// Not millions, not fractions, not dates.
	for text, want := range map[string]string{
		"2.2m barrels a day": "number 2200000 ±50000 per day",
		"10m tall":           "measure 10 m ±0.5",
		"the 100m hurdles":   "measure 100 m ±0.5",
		"24/7":               "number 24 ±0.5",
		"3/4/2024":           "date 2024-03-04 or 2024-04-03",
		"in 2024 3/4 of it":  "number 2024 ±0.5",
	} {
		if vs := Find(text); len(vs) == 0 || vs[0].String() != want {
			t.Errorf("Find(%q) = %v, want first %s", text, vs, want)
		}
	}
}

// TestFindPeriods: a rate's period follows its value, directly or after its
// noun; a time that is no period ("a year earlier") is none.
func TestFindPeriods(t *testing.T) {
	for text, want := range map[string]string{
		"$500 a month":                      "month",
		"$15.49/mo":                         "month",
		"€99/yr":                            "year",
		"2.2 million barrels per day":       "day",
		"37.5 hours a week":                 "week",
		"$5bn annually":                     "year",
		"40 hours each week":                "week",
		"12% higher than a year earlier":    "",
		"it rose 5% a year later":           "",
		"15 hours of free childcare a week": "",
	} {
		vs := Find(text)
		if len(vs) == 0 || vs[0].Per != want {
			t.Errorf("Find(%q) = %v, want the period %q", text, vs, want)
		}
	}
}

func TestYearlessWeeksAndMonths(t *testing.T) {
	for text, want := range map[string]string{
		"KW 36":            "W36",
		"calendar week 12": "W12",
		"June 30":          "--06-30",
		"30 juin":          "--06-30",
		"7 juillet":        "--07-07",
		"Dec 5":            "--12-05",
	} {
		vs := Find(text)
		if len(vs) != 1 || vs[0].Kind != Date || vs[0].Date.String() != want {
			t.Errorf("Find(%q) = %v, want the date %s", text, vs, want)
		}
	}
	for _, text := range []string{"week 2 of the trial", "the Mars 2 lander", "10 mars"} {
		for _, v := range Find(text) {
			if v.Kind == Date {
				t.Errorf("Find(%q) read the date %v", text, v)
			}
		}
	}
}

func TestOrders(t *testing.T) {
	for host, want := range map[string]Order{
		"www.gov.uk": DayFirst, "www.abc.net.au": DayFirst, "www.lemonde.fr": DayFirst, "ec.europa.eu": DayFirst,
		"www.census.gov": MonthFirst, "www.nasa.gov": MonthFirst, "example.us:8080": MonthFirst,
		"www.reuters.com": EitherOrder, "en.wikipedia.org": EitherOrder,
	} {
		if got := OrderOfHost(host); got != want {
			t.Errorf("OrderOfHost(%q) = %v, want %v", host, got, want)
		}
	}
	for text, want := range map[string]Order{
		"Die Regierung hat den Entwurf für den Haushalt beschlossen.": DayFirst,
		"Le gouvernement a présenté le budget dans la soirée.":        DayFirst,
		"The government presented the budget in the evening.":         EitherOrder,
	} {
		if got := OrderOfText(text); got != want {
			t.Errorf("OrderOfText(%q) = %v, want %v", text, got, want)
		}
	}
	v, _ := Parse("03/09/2024")
	for o, want := range map[Order]string{DayFirst: "2024-09-03", MonthFirst: "2024-03-09", EitherOrder: "2024-03-09 or 2024-09-03"} {
		if got := Resolve(v, o).Date.String(); got != want {
			t.Errorf("Resolve(03/09/2024, %v) = %s, want %s", o, got, want)
		}
	}
}

func TestFindRates(t *testing.T) {
	for text, want := range map[string]Rate{
		"(€1 = $1.09 at the time of writing)":        {From: "EUR", To: "USD", Factor: 1.09},
		"the krone traded at NOK 10.5 to the dollar": {From: "USD", To: "NOK", Factor: 10.5},
		"The yen traded at ¥150 to the dollar":       {From: "USD", To: "JPY", Factor: 150},
		"at $1.27 per pound":                         {From: "GBP", To: "USD", Factor: 1.27},
	} {
		rs := FindRates(text)
		if len(rs) != 1 || rs[0].From != want.From || rs[0].To != want.To || math.Abs(rs[0].Factor-want.Factor) > 1e-9 {
			t.Errorf("FindRates(%q) = %+v, want %+v", text, rs, want)
		}
	}
	if rs := FindRates("It raised €500 million and $20 million."); len(rs) != 0 {
		t.Errorf("two amounts read as a rate: %+v", rs)
	}
	r := Rate{From: "EUR", To: "USD", Factor: 1.09}
	eur, _ := Parse("€500 million")
	usd, ok := r.Convert(eur)
	if !ok || usd.Currency != "USD" || math.Abs(usd.Num-545e6) > 1 {
		t.Errorf("Convert(€500 million) = %v, %v", usd, ok)
	}
	back, ok := r.Convert(usd)
	if !ok || back.Currency != "EUR" || math.Abs(back.Num-500e6) > 1 {
		t.Errorf("Convert back = %v, %v", back, ok)
	}
}

// TestCompareClaim: a claim agrees with its source at the claim's
// precision, in any notation of the same value.
func TestCompareClaim(t *testing.T) {
	one := func(s string) Value {
		vs := Find(s)
		if len(vs) != 1 {
			t.Fatalf("Find(%q) = %v, want one value", s, vs)
		}
		return vs[0]
	}
	tests := []struct {
		claim, source string
		want          Agreement
	}{
		{"1.2 million", "1,234,567", Agree},
		{"1,234,567", "1.2 million", Disagree}, // the claim says more than its source
		{"527", "523", Disagree},
		{"$4.2bn", "US$4.2 billion", Agree},
		{"€2.5bn", "2,5 Milliarden Euro", Agree},
		{"41.2 percent", "41,2 Prozent", Agree},
		{"67%", "two thirds", Agree},
		{"two thirds", "67%", Agree},
		{"50%", "half", Agree},
		{"20%", "one in five", Agree},
		{"0.5 percentage points", "50 basis points", Agree},
		{"50 basis points", "1/2 percentage point", Agree},
		{"26.2 miles", "42.195 kilometres", Agree},
		{"29,032 feet", "8,848.86 metres", Agree},
		{"about 440,000 pounds", "199 tonnes", Agree},
		{"about 1,000 people", "1,400 people", Disagree}, // rounded by a twentieth at most
		{"4,200 feet", "1,280 m", Agree},
		{"5 Mt", "5 million tonnes", Agree},
		{"118 lb", "118 kg", Disagree},
		{"$500 a month", "$6,000 a year", Agree},
		{"$500 a week", "$500 a month", Disagree},
		{"2024-W36", "week 36 of 2024", Agree},
		{"KW 36", "2024-W36", Agree},
		{"KW 36", "3 September 2024", Coarser},
		{"week 36 of 2024", "3 September 2024", Coarser},
		{"3 September 2024", "2024-W36", Finer},
	}
	for _, tt := range tests {
		if got := CompareClaim(one(tt.claim), one(tt.source)); got != tt.want {
			t.Errorf("CompareClaim(%q, %q) = %v, want %v", tt.claim, tt.source, got, tt.want)
		}
	}
	// Figure: the plain number an amount or a measure writes.
	if f := one("NOK 30bn").Figure(); f.Kind != Number || f.Num != 30e9 {
		t.Errorf("Figure(NOK 30bn) = %v", f)
	}
	if f := one("5 million tonnes").Figure(); f.Kind != Number || math.Abs(f.Num-5e6) > 1e-6 || math.Abs(f.Tol-0.5e6) > 1e-6 {
		t.Errorf("Figure(5 million tonnes) = %v", f)
	}
}
