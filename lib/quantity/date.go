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
		if d.Year == 0 {
			return fmt.Sprintf("W%02d", d.Week) // a calendar week without its year: "KW 36"
		}
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
		if a.Prec == PrecWeek || b.Prec == PrecWeek {
			return compareWeeks(a, b)
		}
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

// compareWeeks compares dates one of which is a calendar week without its
// year ("KW 36") on the week number alone: with another week, or with a
// day of a known year (which the week then covers).
func compareWeeks(a, b DateValue) Agreement {
	week := func(d DateValue) (int, bool) {
		switch {
		case d.Prec == PrecWeek:
			return d.Week, true
		case d.Prec == PrecDay && d.Year != 0 && d.AltMonth == 0:
			_, w := time.Date(d.Year, time.Month(d.Month), d.Day, 12, 0, 0, 0, time.UTC).ISOWeek()
			return w, true
		}
		return 0, false
	}
	wa, oka := week(a)
	wb, okb := week(b)
	switch {
	case !oka || !okb:
		return Incomparable
	case wa != wb:
		return Disagree
	case a.Prec == PrecWeek && b.Prec == PrecDay:
		return Coarser
	case a.Prec == PrecDay && b.Prec == PrecWeek:
		return Finer
	}
	return Agree
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

// riskyMonth reports whether a month word is an abbreviation or a word of
// English that a day and month without a year must not be read from ("5
// out of 10", "2 mar", "the Mars 2 lander"). A capitalised month name or
// English abbreviation is a month ("June 30", "Dec 5", "30 Juni"), and so
// is a lower-case name of four letters or more ("30 juin").
func riskyMonth(word string) bool {
	w := foldWord(strings.TrimSuffix(word, "."))
	if unicode.IsUpper([]rune(word)[0]) && (len(w) >= 4 && (!englishWordMonths[w] || w == "march") || englishAbbrevs[w]) {
		return false
	}
	return len(w) <= 3 || englishWordMonths[w]
}

// englishWordMonths are month names of four letters or more that are also
// English words ("mart", "rugs"), or abbreviations: no date lower-case.
var englishWordMonths = map[string]bool{"march": true, "marts": true, "mars": true, "mart": true, "mayo": true, "rugs": true, "sept": true}

// englishAbbrevs are the English month abbreviations, a date when
// capitalised ("Dec 5").
var englishAbbrevs = map[string]bool{"jan": true, "feb": true, "mar": true, "apr": true, "may": true, "jun": true, "jul": true,
	"aug": true, "sep": true, "oct": true, "nov": true, "dec": true}

const monthRE = `(\p{L}{3,12}\.?)`

var (
	isoDateRE = regexp.MustCompile(`\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b`)
	isoWeekRE = regexp.MustCompile(`\b(\d{4})-?W(\d{2})(?:-?[1-7])?\b`)
	weekRE    = regexp.MustCompile(`(?i)\b(?:calendar\s+|iso\s+)?(?:week|kw|cw|wk)\.?\s*(\d{1,2})\s*(?:of\s+|in\s+|,\s*|/\s*)?(\d{4})\b`)
	// A calendar week without its year, named as one: "KW 36", "calendar
	// week 36" (a bare "week 2" may be any week: of a trial, a season).
	yearlessWeekRE = regexp.MustCompile(`(?i)\b(?:(?:calendar|iso)\s+week|kw|cw)\.?\s*(\d{1,2})\b`)
	numDateRE      = regexp.MustCompile(`\b(\d{1,2})([./-])(\d{1,2})([./-])(\d{4})\b`)
	dmyRE          = regexp.MustCompile(`(?i)\b(\d{1,2})(?:st|nd|rd|th|er|\.|º)?\s*(?:of\s+|de\s+)?` + monthRE + `\s*,?\s+(?:de\s+|del\s+|of\s+)?(\d{4})\b`)
	mdyRE          = regexp.MustCompile(`(?i)` + monthRE + `\s+(\d{1,2})(?:st|nd|rd|th)?\s*,?\s+(\d{4})\b`)
	myRE           = regexp.MustCompile(`(?i)` + monthRE + `,?\s+(?:de\s+|of\s+)?(\d{4})\b`)
	dmRE           = regexp.MustCompile(`(?i)\b(\d{1,2})(?:st|nd|rd|th|er|\.|º)?\s+(?:of\s+|de\s+)?` + monthRE)
	mdRE           = regexp.MustCompile(`(?i)` + monthRE + `\s+(\d{1,2})(?:st|nd|rd|th)?\b`)
)

// findDates returns the dates of text: ISO dates and weeks, numeric
// dates, and dates with month names, finest first so that "2 August 2024"
// is one day, not a day and a month.
func findDates(text string) []Value {
	if !strings.ContainsAny(text, "0123456789") {
		return nil // every date form has digits
	}
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
	// The regular expressions are most of Find's time: each runs only on
	// a text with what it needs.
	lower := strings.ToLower(text)
	weeks := strings.Contains(lower, "week") || strings.Contains(lower, "kw") || strings.Contains(lower, "cw") || strings.Contains(lower, "wk")
	months := hasMonthWord(text)
	all := func(re *regexp.Regexp, ok bool) [][]int {
		if !ok {
			return nil
		}
		return re.FindAllStringSubmatchIndex(text, -1)
	}
	for _, m := range all(isoWeekRE, strings.Contains(text, "W")) {
		add(m[0], m[1], DateValue{Year: atoi(sub(m, 1)), Week: atoi(sub(m, 2)), Prec: PrecWeek})
	}
	for _, m := range all(weekRE, weeks) {
		add(m[0], m[1], DateValue{Year: atoi(sub(m, 2)), Week: atoi(sub(m, 1)), Prec: PrecWeek})
	}
	for _, m := range all(yearlessWeekRE, weeks) {
		add(m[0], m[1], DateValue{Week: atoi(sub(m, 1)), Prec: PrecWeek})
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
	for _, m := range all(dmyRE, months) {
		if mo := month(sub(m, 2)); mo > 0 && wordAt(m, 2) {
			add(m[0], m[1], DateValue{Year: atoi(sub(m, 3)), Month: mo, Day: atoi(sub(m, 1)), Prec: PrecDay})
		}
	}
	for _, m := range all(mdyRE, months) {
		if mo := month(sub(m, 1)); mo > 0 && wordAt(m, 1) {
			add(m[0], m[1], DateValue{Year: atoi(sub(m, 3)), Month: mo, Day: atoi(sub(m, 2)), Prec: PrecDay})
		}
	}
	for _, m := range all(myRE, months) {
		if mo := month(sub(m, 1)); mo > 0 && wordAt(m, 1) && (!riskyMonth(sub(m, 1)) || unicode.IsUpper([]rune(sub(m, 1))[0])) {
			add(m[0], m[1], DateValue{Year: atoi(sub(m, 2)), Month: mo, Prec: PrecMonth})
		}
	}
	for _, m := range all(dmRE, months) {
		if mo := month(sub(m, 2)); mo > 0 && wordAt(m, 2) && !riskyMonth(sub(m, 2)) && endsWord(text, m[5]) {
			add(m[0], m[1], DateValue{Month: mo, Day: atoi(sub(m, 1)), Prec: PrecDay})
		}
	}
	for _, m := range all(mdRE, months) {
		if mo := month(sub(m, 1)); mo > 0 && wordAt(m, 1) && !riskyMonth(sub(m, 1)) && endsWord(text, m[3]) {
			add(m[0], m[1], DateValue{Month: mo, Day: atoi(sub(m, 2)), Prec: PrecDay})
		}
	}
	return out
}

// hasMonthWord reports whether text has a word that is a month name, as
// the month regular expressions read one.
func hasMonthWord(text string) bool {
	start := -1
	for i, r := range text + " " {
		if unicode.IsLetter(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && i-start >= 3 && month(text[start:i]) > 0 {
			return true
		}
		start = -1
	}
	return false
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
	return d.Year == 0 && (d.Prec == PrecDay || d.Prec == PrecWeek) || d.Year >= 1 && d.Year <= 9999
}

func daysIn(year, month int) int {
	if year == 0 {
		year = 2000 // a day and month alone may be 29 February
	}
	return time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// Order is the order of day and month in a numeric date such as 03/09/2024.
type Order int8

// Orders.
const (
	EitherOrder Order = iota // not known: both readings stand
	DayFirst                 // 3 September 2024: most of the world
	MonthFirst               // March 9, 2024: the United States
)

func (o Order) String() string {
	return [...]string{"either order", "day first", "month first"}[o]
}

// Resolve keeps the reading of an ambiguous numeric date that the order o
// gives; any other value, or EitherOrder, is returned as it is.
func Resolve(v Value, o Order) Value {
	if v.Kind != Date || v.Date.AltMonth == 0 || o == EitherOrder {
		return v
	}
	// findDates reads month first and keeps the day-first reading as the
	// alternative.
	if o == DayFirst {
		v.Date.Month, v.Date.Day = v.Date.AltMonth, v.Date.AltDay
	}
	v.Date.AltMonth, v.Date.AltDay = 0, 0
	return v
}

// monthFirstTLDs are the top-level domains of sites that write the month
// first: the United States' own (.us, and .gov, .mil and .edu, which are
// American). Country domains of other countries write the day first.
var monthFirstTLDs = map[string]bool{"us": true, "gov": true, "mil": true, "edu": true}

// dayFirstTLDs are the country domains of countries that write the day
// first (nearly all but the United States), and .eu.
var dayFirstTLDs = map[string]bool{}

func init() {
	for _, t := range strings.Fields(`uk ie au nz in za eu de fr es it nl be at ch pt br ar cl co pe uy ve ec bo py mx
		pl cz sk hu si hr rs ba me mk al bg ro md ua by ru lt lv ee fi se no dk is gr cy mt tr il eg ma tn dz
		ng ke gh tz ug et sg my id th vn pk bd lk np ae sa qa kw om bh jo lb`) {
		dayFirstTLDs[t] = true
	}
}

// OrderOfHost is the date order of a site, by its top-level domain:
// "www.gov.uk" and "www.lemonde.fr" write the day first, "www.census.gov"
// the month; a generic domain (.com, .org) says nothing.
func OrderOfHost(host string) Order {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.Contains(host[i:], "]") {
		host = host[:i]
	}
	tld := host[strings.LastIndexByte(host, '.')+1:]
	switch {
	case monthFirstTLDs[tld]:
		return MonthFirst
	case dayFirstTLDs[tld]:
		return DayFirst
	}
	return EitherOrder
}

// languageWords are frequent words of languages whose countries write the
// day first; englishWords those of English, which is written both ways.
var (
	languageWords = map[string]bool{}
	englishWords  = map[string]bool{}
)

func init() {
	for _, w := range strings.Fields(`der die das und ist nicht mit von den im für auf dem des zu eine einen bei wurde hat
		le la les des et est du une pour dans au sur avec qui été par
		el los las del y es en una por para con que fue se
		il della di che è per gli delle dei nel alla sono
		het een van en op voor niet met zijn werd
		os do da em uma não foi com`) {
		languageWords[w] = true
	}
	for _, w := range strings.Fields(`the and of is to in for with on that was by it as at from are has have be this which`) {
		englishWords[w] = true
	}
}

// OrderOfText guesses the date order of a text by its language: a text in
// German, French, Spanish, Italian, Dutch or Portuguese writes the day
// first; an English one may be either.
func OrderOfText(text string) Order {
	other, english := 0, 0
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) }) {
		switch {
		case englishWords[w]:
			english++
		case languageWords[w]:
			other++
		}
	}
	if other >= 2 && other > english {
		return DayFirst
	}
	return EitherOrder
}
