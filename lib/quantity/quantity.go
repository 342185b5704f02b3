// Package quantity reads the values written in text — numbers with their
// scale, currency, unit or percent sign, numbers in words, and calendar
// dates — so that two texts can be compared by what they say rather than
// by how they spell it: "1.2 million", "1,200,000" and "1.2M" are one
// number; "€3bn" is three billion euros; "3,5 %" is 3.5 percent; "twenty
// five" is 25; "25 bp" is 0.25 percentage points; "5 km" is 5,000 metres;
// "2 August 2024", "August 2nd, 2024", "2. August 2024", "2 de agosto de
// 2024" and "2024-08-02" are one day; "2024-W12" is an ISO week.
//
// Find returns every value of a text with its span; Parse reads a text that
// is one value. Each value keeps the precision it was written with (Tol:
// half a unit of its last written digit, scaled), so a comparison can say
// whether "1.2 million" agrees with 1,234,567 (it does, to its precision)
// or "527" with 523 (it does not).
//
// A value also keeps what a comparison of two writings needs: the numeral
// as written before its scale or unit (Numeral: "30" in "NOK 30bn"), the
// period of a rate ("$500 a month"), a fraction in words ("two thirds",
// "one in five", which compare with percentages), the two readings of an
// ambiguous numeric date (03/04/2021) until a source's locale resolves them
// (Resolve, OrderOfHost, OrderOfText), and exchange rates a text states
// (FindRates). CompareClaim compares a claim with its source at the
// claim's own precision.
//
// Month names come from github.com/goodsign/monday's locale tables (the
// Latin, Cyrillic and Greek ones), units and their conversions from
// github.com/bcicen/go-units; number words are English, scale words
// English, German, French, Italian, Spanish and Dutch.
package quantity

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Kind is what a value is.
type Kind uint8

// Kinds of value.
const (
	Number  Kind = iota + 1 // a plain number: 42, 1.2 million, twenty-five
	Percent                 // a percentage (Num in percent): 20%, 20 percent, 25 bp (0.25)
	Money                   // an amount of a currency (Currency): €3bn, 5 dollars
	Measure                 // a physical quantity in its base unit (Dim, Unit): 5 km is 5000 m
	Ordinal                 // a rank: 3rd, third
	Date                    // a calendar date, month, year, decade, century or ISO week (Date)
)

var kindNames = map[Kind]string{Number: "number", Percent: "percent", Money: "money", Measure: "measure", Ordinal: "ordinal", Date: "date"}

func (k Kind) String() string {
	if n, ok := kindNames[k]; ok {
		return n
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Bound says how a value bounds the quantity it describes.
type Bound int8

// Bounds.
const (
	Exact   Bound = 0
	AtLeast Bound = 1  // "over 1,100", "more than 5", "at least 3"
	AtMost  Bound = -1 // "under 10", "up to 7 ml", "less than 2"
)

// Value is one value read from text.
type Value struct {
	Kind Kind
	// Text is the value as written, Start and End its byte span.
	Text       string
	Start, End int

	// Num is the value: the number (Number, Ordinal), the percentage
	// (Percent), the amount (Money) or the amount in the base unit
	// (Measure). Tol is half a unit of its last written digit, in the
	// same unit: "1.2 million" is 1,200,000 ± 50,000. Hi is the upper end
	// of a range ("10–12 years", "between 5 and 7"), else equal to Num.
	Num, Tol, Hi float64
	// Approx marks a value written as approximate ("about", "around",
	// "roughly", "c.", "~"); Bound one written as a bound.
	Approx bool
	Bound  Bound
	// YearLike marks a plain whole number from 1000 to 2099 written
	// without separators: it may be a year ("in 1984").
	YearLike bool

	Currency string // ISO 4217 code of a Money value
	Dim      string // dimension of a Measure: length, mass, time, temperature, volume, energy, power, pressure, data, angle
	Unit     string // the base unit a Measure is expressed in: m, g, s, K, l, J, W, Pa, B, °
	// Scale is the scale word or letter as written ("million", "bn"),
	// UnitText the unit or currency as written: for messages.
	Scale, UnitText string

	// Numeral is the number as written, before its scale, unit or percent
	// factor: 30 in "NOK 30bn", 118 in "118 lb", 50 in "50 bp".
	Numeral float64
	// Fraction marks a ratio written as one ("two thirds", "one in five",
	// "1/2"): Num is the ratio, which compares with a percentage.
	Fraction bool
	// Words marks a number written in words ("twenty-five", "half").
	Words bool
	// Per is the period of a rate ("month" in "$500 a month", "/yr",
	// "annually"): hour, day, week, month, quarter or year; PerText is
	// as written.
	Per, PerText string
	// zeros counts the trailing zeros of a whole numeral ("4,200": 2): such
	// a number may be rounded to them.
	zeros int
	// converted marks a value converted at a rate (Rate.Convert).
	converted bool
	// figure and figureTol are a Measure's number and tolerance before its
	// unit's conversion, scaled: 5e6 for "5 million tonnes".
	figure, figureTol float64

	Date DateValue // a Date value
}

// Figure is v as the plain number its digits and scale write, without a
// currency or unit: "NOK 30bn" is 3e10, "5 million tonnes" 5e6, "118 lb"
// 118. A percentage or a date is returned as it is.
func (v Value) Figure() Value {
	switch v.Kind {
	case Money:
		v.Kind, v.Currency, v.UnitText, v.converted = Number, "", "", false
	case Measure:
		if v.figure == 0 && v.Num != 0 {
			return v // a compound measure ("6 feet 2 inches") has no one figure
		}
		f := v.figure / v.Num
		v.Kind, v.Num, v.Hi, v.Tol, v.Dim, v.Unit, v.UnitText = Number, v.figure, v.Hi*f, v.figureTol, "", "", ""
		if v.Num == 0 {
			v.Hi = 0
		}
	}
	return v
}

// Range reports whether the value is a range.
func (v Value) Range() bool { return v.Hi != v.Num }

// String shows the value as read: "1.2e+06 ± 5e+04", "3 EUR ×1e9",
// "2024-08-02".
func (v Value) String() string {
	var b strings.Builder
	b.WriteString(v.Kind.String() + " ")
	switch v.Kind {
	case Date:
		b.WriteString(v.Date.String())
	default:
		b.WriteString(formatNum(v.Num))
		if v.Range() {
			b.WriteString("–" + formatNum(v.Hi))
		}
		switch v.Kind {
		case Percent:
			b.WriteString("%")
		case Money:
			b.WriteString(" " + v.Currency)
		case Measure:
			b.WriteString(" " + v.Unit)
		}
		if v.Tol > 0 {
			b.WriteString(" ±" + formatNum(v.Tol))
		}
		if v.Per != "" {
			b.WriteString(" per " + v.Per)
		}
	}
	switch v.Bound {
	case AtLeast:
		b.WriteString(" (at least)")
	case AtMost:
		b.WriteString(" (at most)")
	}
	if v.Approx {
		b.WriteString(" (approx.)")
	}
	return b.String()
}

func formatNum(f float64) string { return strconv.FormatFloat(f, 'g', 10, 64) }

// Find returns the values written in text, in order of position, without
// overlaps: dates first, then numbers with their currency, scale, unit or
// percent sign, then numbers in words.
func Find(text string) []Value {
	var out []Value
	taken := func(s, e int) bool {
		for _, v := range out {
			if s < v.End && e > v.Start {
				return true
			}
		}
		return false
	}
	add := func(vs []Value) {
		for _, v := range vs {
			if !taken(v.Start, v.End) {
				out = append(out, v)
			}
		}
	}
	add(findDates(text))
	add(findNumerals(text, taken))
	add(findWords(text, taken))
	slices.SortFunc(out, func(a, b Value) int { return a.Start - b.Start })
	for i := range out {
		markApprox(text, &out[i])
		if out[i].Kind != Date {
			readPer(text, &out[i])
		}
	}
	return out
}

// Parse reads text as one value: Find must find exactly one value in it,
// and nothing but punctuation, approximation and bound words and the
// words of wordsAround may surround it ("about 775 rooms" is one value).
func Parse(text string) (Value, bool) {
	vs := Find(text)
	if len(vs) != 1 {
		return Value{}, false
	}
	v := vs[0]
	rest := strings.Fields(strings.Map(func(r rune) rune {
		if isPunct(r) {
			return ' '
		}
		return r
	}, text[:v.Start]+" "+text[v.End:]))
	for _, w := range rest {
		if !fillerWords[strings.ToLower(w)] {
			return Value{}, false
		}
	}
	return v, true
}

// fillerWords may surround a value that Parse reads as the whole text.
var fillerWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`about around approximately approx roughly nearly almost some circa c ca
		over under more than less fewer at least most up to above below exactly just only
		in on the a an of by since from year years`) {
		fillerWords[w] = true
	}
}

// Agreement is how two values compare.
type Agreement int8

// Agreements, from the first value's side.
const (
	Incomparable Agreement = iota // different kinds, currencies, dimensions or date precisions
	Agree                         // the same value to the precision either is written with
	Disagree                      // the same kind, different values
	Coarser                       // the first is less precise and covers the second ("1990s" and "1994")
	Finer                         // the first is more precise and lies within the second ("1994" and "1990s")
)

func (a Agreement) String() string {
	return [...]string{"incomparable", "agree", "disagree", "coarser", "finer"}[a]
}

// Compare says whether a and b are the same value. Numbers compare within
// the tolerance of the less precise of the two; a range agrees with a
// value inside it; a percentage only compares with a percentage, money
// with money of the same currency, a measure with one of the same
// dimension, a date with a date (a year-like number counts as a year).
func Compare(a, b Value) Agreement {
	if a.Kind == Date || b.Kind == Date {
		da, oka := asDate(a)
		db, okb := asDate(b)
		if !oka || !okb {
			return Incomparable
		}
		return compareDates(da, db)
	}
	a, b = fractionAsPercent(a, b), b.As(a)
	if !comparableKinds(a, b) {
		return Incomparable
	}
	tol := math.Max(a.Tol, b.Tol) + 1e-9*math.Max(math.Abs(a.Num), 1)
	// A bound covers every value on its side: "more than 220 million" is
	// coarser than 230 million and disagrees with 200 million.
	if r, ok := bounded(a, b, tol); ok {
		return r
	}
	if r, ok := bounded(b, a, tol); ok {
		return flip(r)
	}
	// Ranges: a value agrees with a range that holds it.
	if a.Num-tol <= b.Hi && b.Num <= a.Hi+tol {
		switch {
		case a.Range() && !b.Range():
			return Coarser
		case b.Range() && !a.Range():
			return Finer
		}
		return Agree
	}
	return Disagree
}

// CompareClaim compares a claim's value with a value of the source it
// cites, at the claim's precision: the source's value must lie within half
// a unit of the claim's last written digit ("1.2 million" agrees with
// 1,234,567; "1,234,567" does not agree with "1.2 million", which says
// less). Two exceptions widen it: an approximate whole number ("about
// 440,000") or one converted from another unit or period ("4,200 feet" for
// 1,280 m) may be rounded to its trailing zeros, by up to 5%; and a claim converted
// from another unit, or a fraction in words ("two thirds" for 66.7%), is
// held to the source's precision when that is coarser. Dates compare as
// Compare does.
func CompareClaim(claim, source Value) Agreement {
	if claim.Kind == Date || source.Kind == Date {
		return Compare(claim, source)
	}
	converted := claim.Kind == Measure && source.Kind == Measure && !strings.EqualFold(claim.UnitText, source.UnitText) ||
		claim.Per != "" && source.Per != "" && claim.Per != source.Per || source.converted
	if (claim.Approx || converted) && claim.zeros > 0 && claim.Tol > 0 {
		// Rounded to its zeros, but never by more than a twentieth.
		claim.Tol = math.Max(claim.Tol, math.Min(claim.Tol*math.Pow(10, float64(claim.zeros)), 0.05*math.Abs(claim.Num)))
	}
	if !converted && !claim.Fraction {
		source.Tol = 0
	}
	return Compare(claim, source)
}

// As is v in ref's terms, as Compare compares them: a fraction as a
// percentage when ref is one ("two thirds" is 66.67%), a rate over ref's
// period ("$6,000 a year" is $500 a month).
func (v Value) As(ref Value) Value {
	return samePeriod(fractionAsPercent(v, ref), ref.Per)
}

// fractionAsPercent reads a fraction a as a percentage when b is one: "two
// thirds" is 66.67%.
func fractionAsPercent(a, b Value) Value {
	if a.Kind == Number && a.Fraction && b.Kind == Percent {
		a.Kind, a.Num, a.Hi, a.Tol = Percent, a.Num*100, a.Hi*100, a.Tol*100
	}
	return a
}

// perYear is how many of each period a year holds.
var perYear = map[string]float64{"hour": 8766, "day": 365.25, "week": 365.25 / 7, "month": 12, "quarter": 4, "year": 1}

// samePeriod converts a rate v to the period per ("$6,000 a year" is $500
// a month); a value without a period, or with per's, is left as it is.
func samePeriod(v Value, per string) Value {
	if v.Per == "" || per == "" || v.Per == per {
		return v
	}
	f := perYear[v.Per] / perYear[per]
	v.Num, v.Hi, v.Tol, v.Per = v.Num*f, v.Hi*f, v.Tol*f, per
	return v
}

// bounded compares a bound a with b; ok is false when a is no bound.
func bounded(a, b Value, tol float64) (Agreement, bool) {
	switch {
	case a.Bound == AtLeast && b.Bound == Exact:
		if b.Hi >= a.Num-tol {
			return Coarser, true
		}
		return Disagree, true
	case a.Bound == AtMost && b.Bound == Exact:
		if b.Num <= a.Hi+tol {
			return Coarser, true
		}
		return Disagree, true
	}
	return Incomparable, false
}

func flip(r Agreement) Agreement {
	switch r {
	case Coarser:
		return Finer
	case Finer:
		return Coarser
	}
	return r
}

func comparableKinds(a, b Value) bool {
	if a.Kind != b.Kind {
		// A bare number compares with an ordinal (the 14th season, 14).
		return (a.Kind == Number && b.Kind == Ordinal) || (a.Kind == Ordinal && b.Kind == Number)
	}
	switch a.Kind {
	case Money:
		return a.Currency == b.Currency
	case Measure:
		return a.Dim == b.Dim
	}
	return true
}

// markApprox sets Approx and Bound from the words just before v.
func markApprox(text string, v *Value) {
	before := strings.ToLower(text[max(0, v.Start-24):v.Start])
	before = strings.TrimRight(before, " \t\u00a0")
	for _, p := range approxWords {
		if strings.HasSuffix(before, p) && wordStart(before, len(before)-len(p)) {
			v.Approx = true
			return
		}
	}
	for p, b := range boundWords {
		if strings.HasSuffix(before, p) && wordStart(before, len(before)-len(p)) {
			v.Bound = b
			return
		}
	}
}

var approxWords = []string{"late", "early", "mid", "mid-", "about", "around", "approximately", "approx.", "roughly", "nearly", "almost", "circa", "c.", "ca.", "~", "≈", "some"}

var boundWords = map[string]Bound{
	"over": AtLeast, "more than": AtLeast, "at least": AtLeast, "above": AtLeast, "upwards of": AtLeast, ">": AtLeast, "≥": AtLeast,
	"under": AtMost, "less than": AtMost, "fewer than": AtMost, "at most": AtMost, "up to": AtMost, "below": AtMost, "<": AtMost, "≤": AtMost,
}

// wordStart reports whether s[i:] starts a word (or a symbol).
func wordStart(s string, i int) bool {
	if i <= 0 {
		return true
	}
	r := s[i-1]
	return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
}

func isPunct(r rune) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		return false
	case r < 128:
		return true
	}
	return strings.ContainsRune("–—‘’“”«»…·•", r)
}

// reach is how far after a value a phrase about it is read ("… target was
// met", "to the dollar", "in five"): a phrase starting farther away is
// not about the value.
const reach = 256

// After is the text after byte i that a phrase about the value ending at i
// can reach: at most 256 bytes, carried on to the next ASCII space so that
// a word is never cut (a `\b` at its end reads as in the whole text). A
// regular expression anchored at its start then costs the phrase, not the
// rest of the text: Go's backtracker clears memory in proportion to the
// length of its input.
func After(text string, i int) string {
	end := i + reach
	if end >= len(text) {
		return text[i:]
	}
	for end < len(text) {
		switch text[end] {
		case ' ', '\t', '\n', '\r', '\f', '\v':
			return text[i:end]
		}
		end++
	}
	return text[i:]
}
