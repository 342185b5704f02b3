package quantity

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/goodsign/monday"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// Precision is how much of a date was written.
type Precision uint8

// Precisions, finest first.
const (
	PrecDay Precision = iota + 1
	PrecWeek
	PrecMonth
	PrecYear
	PrecDecade
	PrecCentury
)

var precNames = [...]string{"", "day", "week", "month", "year", "decade", "century"}

func (p Precision) String() string {
	if int(p) < len(precNames) {
		return precNames[p]
	}
	return "precision(" + strconv.Itoa(int(p)) + ")"
}

// DateValue is a date of some precision. Year is 0 for a day and month
// written without a year ("25 December"); years BC are negative. A
// numeric date whose day and month could be read either way (03/04/2021)
// keeps the other reading in AltMonth and AltDay.
type DateValue struct {
	Year, Month, Day int
	Week             int // ISO week of Year (PrecWeek)
	Prec             Precision
	AltMonth, AltDay int
}

func (d DateValue) String() string {
	switch d.Prec {
	case PrecDay:
		if d.Year == 0 {
			return fmt.Sprintf("--%02d-%02d", d.Month, d.Day)
		}
		s := fmt.Sprintf("%04d-%02d-%02d", d.Year, d.Month, d.Day)
		if d.AltMonth != 0 {
			s += fmt.Sprintf(" or %04d-%02d-%02d", d.Year, d.AltMonth, d.AltDay)
		}
		return s
	case PrecWeek:
		return fmt.Sprintf("%04d-W%02d", d.Year, d.Week)
	case PrecMonth:
		return fmt.Sprintf("%04d-%02d", d.Year, d.Month)
	case PrecYear:
		return strconv.Itoa(d.Year)
	case PrecDecade:
		return fmt.Sprintf("%ds", d.Year)
	case PrecCentury:
		return fmt.Sprintf("%d–%d", d.Year, d.Year+99)
	}
	return "?"
}

// span is the interval of days a date covers, as days since 1 January
// year 1 (proleptic Gregorian), inclusive.
func (d DateValue) span() (lo, hi int64) {
	day := func(y, m, dd int) int64 {
		return time.Date(y, time.Month(m), dd, 12, 0, 0, 0, time.UTC).Unix() / 86400
	}
	switch d.Prec {
	case PrecDay:
		x := day(d.Year, d.Month, d.Day)
		return x, x
	case PrecWeek:
		// ISO week 1 holds 4 January; weeks start on Monday.
		jan4 := time.Date(d.Year, 1, 4, 12, 0, 0, 0, time.UTC)
		monday := jan4.AddDate(0, 0, -((int(jan4.Weekday())+6)%7)+(d.Week-1)*7)
		x := monday.Unix() / 86400
		return x, x + 6
	case PrecMonth:
		return day(d.Year, d.Month, 1), day(d.Year, d.Month+1, 1) - 1
	case PrecYear:
		return day(d.Year, 1, 1), day(d.Year+1, 1, 1) - 1
	case PrecDecade:
		return day(d.Year, 1, 1), day(d.Year+10, 1, 1) - 1
	case PrecCentury:
		return day(d.Year, 1, 1), day(d.Year+100, 1, 1) - 1
	}
	return 0, 0
}

// asDate reads a value as a date: a Date, or a year-like number.
func asDate(v Value) (DateValue, bool) {
	switch {
	case v.Kind == Date:
		return v.Date, true
	case v.Kind == Number && v.YearLike:
		return DateValue{Year: int(v.Num), Prec: PrecYear}, true
	}
	return DateValue{}, false
}

func compareDates(a, b DateValue) Agreement {
	if a.Year == 0 || b.Year == 0 {
		// A day and month without a year compare on those alone.
		if a.Prec != PrecDay || b.Prec != PrecDay {
			return Incomparable
		}
		if sameDayMonth(a, b) {
			return Agree
		}
		return Disagree
	}
	best := Incomparable
	for _, x := range a.readings() {
		for _, y := range b.readings() {
			r := compareSpans(x, y)
			if r == Agree {
				return Agree
			}
			if best == Incomparable || best == Disagree && r != Incomparable {
				best = r
			}
		}
	}
	return best
}

func sameDayMonth(a, b DateValue) bool {
	for _, x := range a.readings() {
		for _, y := range b.readings() {
			if x.Month == y.Month && x.Day == y.Day {
				return true
			}
		}
	}
	return false
}

// readings are a date's possible readings: one, or two for an ambiguous
// numeric date.
func (d DateValue) readings() []DateValue {
	if d.AltMonth == 0 {
		return []DateValue{d}
	}
	alt := d
	alt.Month, alt.Day, alt.AltMonth, alt.AltDay = d.AltMonth, d.AltDay, 0, 0
	d.AltMonth, d.AltDay = 0, 0
	return []DateValue{d, alt}
}

func compareSpans(a, b DateValue) Agreement {
	alo, ahi := a.span()
	blo, bhi := b.span()
	switch {
	case alo == blo && ahi == bhi:
		return Agree
	case ahi < blo || bhi < alo:
		return Disagree
	case alo <= blo && bhi <= ahi:
		return Coarser
	case blo <= alo && ahi <= bhi:
		return Finer
	}
	return Incomparable // overlapping weeks and months
}

// monthNames maps folded month names and abbreviations of the Latin,
// Cyrillic and Greek locales of monday (and a few common abbreviations) to
// month numbers. A name two locales give different months is left out
// ("listopad" is November in Polish, October in Croatian).
var monthNames = func() map[string]int {
	m := map[string]int{}
	bad := map[string]bool{}
	put := func(name string, month int) {
		n := foldWord(strings.TrimSuffix(name, "."))
		if n == "" || bad[n] {
			return
		}
		for _, r := range n {
			if !unicode.IsLetter(r) {
				return
			}
		}
		if prev, ok := m[n]; ok && prev != month {
			delete(m, n)
			bad[n] = true
			return
		}
		m[n] = month
	}
	for _, l := range monday.ListLocales() {
		long, short := monday.GetLongMonths(l), monday.GetShortMonths(l)
		if !alphabetic(long) {
			continue
		}
		for i := range long {
			put(long[i], i+1)
			if i < len(short) {
				put(short[i], i+1)
			}
		}
	}
	for i, n := range []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sept", "oct", "nov", "dec"} {
		put(n, i+1)
	}
	return m
}()

// alphabetic reports whether month names are written in letters (not the
// CJK or Thai forms, which carry no spaces around them).
func alphabetic(names []string) bool {
	if len(names) != 12 {
		return false
	}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" {
			return false
		}
		for _, r := range n {
			if !unicode.In(r, unicode.Latin, unicode.Cyrillic, unicode.Greek) && r != '.' {
				return false
			}
		}
	}
	return true
}

// folders hold the diacritic-stripping transformers: a transformer keeps
// state, so each goroutine takes its own.
var folders = sync.Pool{New: func() any { return transform.Chain(norm.NFKD, runes.Remove(runes.In(unicode.Mn)), norm.NFC) }}

func stripMarks(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			t := folders.Get().(transform.Transformer)
			out, _, err := transform.String(t, s)
			t.Reset()
			folders.Put(t)
			if err != nil {
				return s
			}
			return out
		}
	}
	return s
}

// foldWord lower-cases a word and strips its diacritics.
func foldWord(s string) string {
	return strings.ToLower(stripMarks(s))
}

func month(word string) int { return monthNames[foldWord(strings.TrimSuffix(word, "."))] }

// shortMonth reports whether a month word is an abbreviation or a word of
// English that a day and month without a year must not be read from ("5
// out of 10", "2 mar").
func riskyMonth(word string) bool {
	w := foldWord(strings.TrimSuffix(word, "."))
	return len(w) <= 4 || w == "march" || w == "marts" || w == "mars"
}

const monthRE = `(\p{L}{3,12}\.?)`

var (
	isoDateRE = regexp.MustCompile(`\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b`)
	isoWeekRE = regexp.MustCompile(`\b(\d{4})-?W(\d{2})(?:-?[1-7])?\b`)
	weekRE    = regexp.MustCompile(`(?i)\b(?:calendar\s+|iso\s+)?(?:week|kw|cw|wk)\.?\s*(\d{1,2})\s*(?:of\s+|in\s+|,\s*|/\s*)?(\d{4})\b`)
	numDateRE = regexp.MustCompile(`\b(\d{1,2})([./-])(\d{1,2})([./-])(\d{4})\b`)
	dmyRE     = regexp.MustCompile(`(?i)\b(\d{1,2})(?:st|nd|rd|th|er|\.|º)?\s*(?:of\s+|de\s+)?` + monthRE + `\s*,?\s+(?:de\s+|del\s+|of\s+)?(\d{4})\b`)
	mdyRE     = regexp.MustCompile(`(?i)` + monthRE + `\s+(\d{1,2})(?:st|nd|rd|th)?\s*,?\s+(\d{4})\b`)
	myRE      = regexp.MustCompile(`(?i)` + monthRE + `,?\s+(?:de\s+|of\s+)?(\d{4})\b`)
	dmRE      = regexp.MustCompile(`(?i)\b(\d{1,2})(?:st|nd|rd|th|er|\.|º)?\s+(?:of\s+|de\s+)?` + monthRE)
	mdRE      = regexp.MustCompile(`(?i)` + monthRE + `\s+(\d{1,2})(?:st|nd|rd|th)?\b`)
)

// findDates returns the dates of text: ISO dates and weeks, numeric
// dates, and dates with month names, finest first so that "2 August 2024"
// is one day, not a day and a month.
func findDates(text string) []Value {
	var out []Value
	add := func(s, e int, d DateValue) {
		if !validDate(d) {
			return
		}
		for _, v := range out {
			if s < v.End && e > v.Start {
				return
			}
		}
		out = append(out, Value{Kind: Date, Text: text[s:e], Start: s, End: e, Date: d})
	}
	atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }
	sub := func(m []int, i int) string { return text[m[2*i]:m[2*i+1]] }
	// A month word must start a word.
	wordAt := func(m []int, i int) bool {
		s := m[2*i]
		if s == 0 {
			return true
		}
		r := []rune(text[:s])
		return !unicode.IsLetter(r[len(r)-1])
	}
	for _, m := range isoDateRE.FindAllStringSubmatchIndex(text, -1) {
		add(m[0], m[1], DateValue{Year: atoi(sub(m, 1)), Month: atoi(sub(m, 2)), Day: atoi(sub(m, 3)), Prec: PrecDay})
	}
	for _, m := range isoWeekRE.FindAllStringSubmatchIndex(text, -1) {
		add(m[0], m[1], DateValue{Year: atoi(sub(m, 1)), Week: atoi(sub(m, 2)), Prec: PrecWeek})
	}
	for _, m := range weekRE.FindAllStringSubmatchIndex(text, -1) {
		add(m[0], m[1], DateValue{Year: atoi(sub(m, 2)), Week: atoi(sub(m, 1)), Prec: PrecWeek})
	}
	for _, m := range numDateRE.FindAllStringSubmatchIndex(text, -1) {
		if sub(m, 2) != sub(m, 4) {
			continue
		}
		a, b, y := atoi(sub(m, 1)), atoi(sub(m, 3)), atoi(sub(m, 5))
		d := DateValue{Year: y, Prec: PrecDay}
		switch {
		case sub(m, 2) == ".":
			d.Day, d.Month = a, b // 2.8.2024: day first, as written where dots are used
		case a > 12:
			d.Day, d.Month = a, b
		case b > 12:
			d.Month, d.Day = a, b
		default:
			d.Month, d.Day = a, b // 03/04/2021: either
			if a != b {
				d.AltMonth, d.AltDay = b, a
			}
		}
		add(m[0], m[1], d)
	}
	for _, m := range dmyRE.FindAllStringSubmatchIndex(text, -1) {
		if mo := month(sub(m, 2)); mo > 0 && wordAt(m, 2) {
			add(m[0], m[1], DateValue{Year: atoi(sub(m, 3)), Month: mo, Day: atoi(sub(m, 1)), Prec: PrecDay})
		}
	}
	for _, m := range mdyRE.FindAllStringSubmatchIndex(text, -1) {
		if mo := month(sub(m, 1)); mo > 0 && wordAt(m, 1) {
			add(m[0], m[1], DateValue{Year: atoi(sub(m, 3)), Month: mo, Day: atoi(sub(m, 2)), Prec: PrecDay})
		}
	}
	for _, m := range myRE.FindAllStringSubmatchIndex(text, -1) {
		if mo := month(sub(m, 1)); mo > 0 && wordAt(m, 1) && (!riskyMonth(sub(m, 1)) || unicode.IsUpper([]rune(sub(m, 1))[0])) {
			add(m[0], m[1], DateValue{Year: atoi(sub(m, 2)), Month: mo, Prec: PrecMonth})
		}
	}
	for _, m := range dmRE.FindAllStringSubmatchIndex(text, -1) {
		if mo := month(sub(m, 2)); mo > 0 && wordAt(m, 2) && !riskyMonth(sub(m, 2)) && endsWord(text, m[5]) {
			add(m[0], m[1], DateValue{Month: mo, Day: atoi(sub(m, 1)), Prec: PrecDay})
		}
	}
	for _, m := range mdRE.FindAllStringSubmatchIndex(text, -1) {
		if mo := month(sub(m, 1)); mo > 0 && wordAt(m, 1) && !riskyMonth(sub(m, 1)) && endsWord(text, m[3]) {
			add(m[0], m[1], DateValue{Month: mo, Day: atoi(sub(m, 2)), Prec: PrecDay})
		}
	}
	return out
}

func endsWord(text string, e int) bool {
	if e >= len(text) {
		return true
	}
	r := []rune(text[e:])[0]
	return !unicode.IsLetter(r) && !unicode.IsDigit(r)
}

func validDate(d DateValue) bool {
	switch d.Prec {
	case PrecDay:
		if d.Month < 1 || d.Month > 12 || d.Day < 1 || d.Day > daysIn(d.Year, d.Month) {
			return false
		}
		if d.AltMonth != 0 && (d.AltMonth > 12 || d.AltDay > daysIn(d.Year, d.AltMonth)) {
			return false
		}
	case PrecWeek:
		if d.Week < 1 || d.Week > 53 {
			return false
		}
	case PrecMonth:
		if d.Month < 1 || d.Month > 12 {
			return false
		}
	}
	return d.Year == 0 && d.Prec == PrecDay || d.Year >= 1 && d.Year <= 9999
}

func daysIn(year, month int) int {
	if year == 0 {
		year = 2000 // a day and month alone may be 29 February
	}
	return time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}
