package quantity

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// numeralRE finds a run of digits with the separators a numeral may hold:
// thousands commas, dots, apostrophes and narrow or no-break spaces, and a
// decimal point or comma. readNumeral decides what the separators mean.
var numeralRE = regexp.MustCompile(`\d(?:[\d,.'’\x{00A0}\x{202F}\x{2009}]*\d)?`)

// readNumeral reads a numeral: "1,234" and "1.234.567" are thousands,
// "1,5" and "1.5" decimals, "1.234,5" and "1,234.5" both; "1 234" with a
// narrow or no-break space groups thousands. It returns the value and how
// many decimals were written; ok is false for what is no number ("1.2.3",
// "1,2,3").
func readNumeral(s string) (v float64, decimals int, ok bool) {
	s = strings.NewReplacer("\u00a0", "_", "\u202f", "_", "\u2009", "_", "'", "_", "’", "_").Replace(s)
	lastDot, lastComma := strings.LastIndexByte(s, '.'), strings.LastIndexByte(s, ',')
	dec := byte(0)
	switch {
	case lastDot >= 0 && lastComma >= 0:
		dec = '.'
		if lastComma > lastDot {
			dec = ','
		}
	case lastComma >= 0:
		// Commas alone: thousands when every group after the first has
		// three digits, else one comma is a decimal comma.
		if groupsOf3(s, ',') {
			dec = 0
		} else if strings.Count(s, ",") == 1 {
			dec = ','
		} else {
			return 0, 0, false
		}
	case lastDot >= 0:
		if strings.Count(s, ".") == 1 {
			dec = '.'
		} else if groupsOf3(s, '.') {
			dec = 0
		} else {
			return 0, 0, false
		}
	}
	intPart, frac := s, ""
	if dec != 0 {
		i := strings.LastIndexByte(s, dec)
		intPart, frac = s[:i], s[i+1:]
		if strings.ContainsAny(frac, ".,_") {
			return 0, 0, false
		}
	}
	// The integer part's separators must group thousands.
	for _, sep := range []byte{'.', ',', '_'} {
		if strings.IndexByte(intPart, sep) >= 0 && !groupsOf3(intPart, sep) {
			return 0, 0, false
		}
	}
	intPart = strings.NewReplacer(".", "", ",", "", "_", "").Replace(intPart)
	if strings.ContainsAny(intPart, ".,_") || intPart == "" {
		return 0, 0, false
	}
	str := intPart
	if frac != "" {
		str += "." + frac
	}
	f, err := strconv.ParseFloat(str, 64)
	if err != nil {
		return 0, 0, false
	}
	return f, len(frac), true
}

// groupsOf3 reports whether sep splits s into a first group of one to
// three digits and further groups of exactly three.
func groupsOf3(s string, sep byte) bool {
	parts := strings.Split(s, string(sep))
	if len(parts) < 2 || len(parts[0]) < 1 || len(parts[0]) > 3 {
		return false
	}
	for _, p := range parts[1:] {
		if len(p) != 3 || strings.ContainsAny(p, ".,_") {
			return false
		}
	}
	return strings.IndexAny(parts[0], ".,_") < 0
}

// scaleWords are the scale words and letters a numeral may carry, folded
// to lower case (letters glued to the digits are matched case-sensitively
// in gluedScales).
var scaleWords = map[string]float64{
	"hundred": 1e2, "thousand": 1e3, "thousands": 1e3, "k": 1e3,
	"lakh": 1e5, "lakhs": 1e5, "crore": 1e7, "crores": 1e7,
	"million": 1e6, "millions": 1e6, "mn": 1e6, "mio": 1e6, "mio.": 1e6, "mln": 1e6, "mill.": 1e6,
	"billion": 1e9, "billions": 1e9, "bn": 1e9, "bln": 1e9, "milliard": 1e9, "milliards": 1e9, "mrd": 1e9, "mrd.": 1e9, "md": 1e9,
	"trillion": 1e12, "trillions": 1e12, "tn": 1e12, "trn": 1e12,
	// German, Italian, Spanish, Dutch.
	"tausend": 1e3, "tsd": 1e3, "tsd.": 1e3, "millionen": 1e6, "milliarde": 1e9, "milliarden": 1e9, "billionen": 1e12,
	"milione": 1e6, "milioni": 1e6, "miliardo": 1e9, "miliardi": 1e9,
	"millón": 1e6, "millones": 1e6, "mil millones": 1e9, "miljoen": 1e6, "miljoenen": 1e6, "miljard": 1e9, "miljarden": 1e9,
}

// gluedScales are the letters that scale a numeral they follow directly
// ("175B", "10k", "3.5M"); a lower-case m or b is a unit, unless money
// precedes ("$3m", "€2b").
var gluedScales = map[string]float64{"k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9, "bn": 1e9, "Bn": 1e9, "mn": 1e6, "T": 1e12, "tn": 1e12}

var moneyGlued = map[string]float64{"m": 1e6, "b": 1e9}

// notCounted are plural words after a glued m that are no count of
// millions: "the 100m hurdles" is a race.
var notCounted = map[string]bool{"hurdles": true, "relays": true, "sprints": true, "heats": true, "finals": true, "races": true}

// countedAfter reports whether a plural noun follows p after one space, so
// that a lower-case m glued to a number is millions, not metres: "2.2m
// barrels", "10m people" (but "10m tall", "the 100m hurdles").
func countedAfter(text string, p int) bool {
	if p >= len(text) || text[p] != ' ' {
		return false
	}
	q := p + 1
	for q < len(text) && text[q] >= 'a' && text[q] <= 'z' {
		q++
	}
	w := text[p+1 : q]
	if len(w) < 3 || q < len(text) && isWordByte(text[q]) || notCounted[w] {
		return false
	}
	switch w {
	case "people", "children", "adults", "men", "women", "residents", "users":
		return true
	}
	_, isUnit := unitAt(text, p)
	return strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && isUnit == 0
}

// currencySymbols come before (or after) an amount.
var currencySymbols = []struct{ sym, code string }{
	{"US$", "USD"}, {"C$", "CAD"}, {"CA$", "CAD"}, {"A$", "AUD"}, {"AU$", "AUD"}, {"NZ$", "NZD"}, {"HK$", "HKD"},
	{"S$", "SGD"}, {"R$", "BRL"}, {"$", "USD"}, {"€", "EUR"}, {"£", "GBP"}, {"¥", "JPY"}, {"₹", "INR"},
	{"₩", "KRW"}, {"₽", "RUB"}, {"₺", "TRY"}, {"₪", "ILS"}, {"₦", "NGN"}, {"₿", "BTC"},
}

// currencyCodes are ISO 4217 codes written before or after an amount.
var currencyCodes = map[string]bool{}

func init() {
	for _, c := range strings.Fields(`USD EUR GBP JPY CNY RMB CHF CAD AUD NZD INR RUB BRL KRW SEK NOK DKK PLN HKD SGD ZAR MXN TRY ILS NGN CZK HUF BTC`) {
		currencyCodes[c] = true
	}
}

// currencyWords name a currency after an amount ("3 billion euros").
var currencyWords = map[string]string{
	"dollar": "USD", "dollars": "USD", "us dollars": "USD", "u.s. dollars": "USD", "usd": "USD",
	"euro": "EUR", "euros": "EUR", "pounds sterling": "GBP", "pound sterling": "GBP", "sterling": "GBP",
	"yen": "JPY", "yuan": "CNY", "renminbi": "CNY", "rupee": "INR", "rupees": "INR",
	"swiss francs": "CHF", "swiss franc": "CHF", "francs": "CHF", "ruble": "RUB", "rubles": "RUB", "roubles": "RUB",
	"bitcoin": "BTC", "bitcoins": "BTC",
}

// percentWords follow a number that is a percentage; the factor turns it
// into percent (basis points are hundredths of a percent).
var percentWords = []struct {
	word   string
	factor float64
}{
	{"percentage points", 1}, {"percentage point", 1}, {"per cent", 1}, {"percent", 1}, {"pct", 1},
	{"basis points", 0.01}, {"basis point", 0.01}, {"bps", 0.01}, {"bp", 0.01}, {"pp", 1}, {"%", 1},
	{"prozent", 1}, {"pour cent", 1}, {"por ciento", 1}, {"per cento", 1}, {"procent", 1},
}

// findNumerals reads the numerals of text that no earlier value holds.
func findNumerals(text string, taken func(s, e int) bool) []Value {
	var out []Value
	locs := numeralRE.FindAllStringIndex(text, -1)
	for i := 0; i < len(locs); i++ {
		s, e := locs[i][0], locs[i][1]
		if taken(s, e) {
			continue
		}
		v, next, ok := readValue(text, s, e, locs[i+1:], taken)
		if !ok {
			continue
		}
		i += next
		// A compound length or mass: "77 feet 3.5 inches", "10 lb 4 oz".
		for (v.Dim == "length" || v.Dim == "mass") && !v.Range() && i+1 < len(locs) {
			s2, e2 := locs[i+1][0], locs[i+1][1]
			gap := text[v.End:s2]
			if g := strings.TrimSpace(gap); g != "" && g != "," && g != "and" || len(gap) > 5 || taken(s2, e2) {
				break
			}
			w, n, ok := readValue(text, s2, e2, locs[i+2:], taken)
			if !ok || w.Kind != Measure || w.Dim != v.Dim || w.Range() || w.Numeral <= 0 || v.Numeral <= 0 || w.Num/w.Numeral >= v.Num/v.Numeral {
				break
			}
			v.Num += w.Num
			v.Hi, v.Tol, v.End, v.zeros, v.figure = v.Num, w.Tol, w.End, 0, 0
			v.UnitText += " " + w.UnitText
			v.Text = text[v.Start:v.End]
			i += 1 + n
		}
		out = append(out, v)
	}
	return out
}

// vulgarFraction reads a fraction written with a slash at the numeral
// text[s:e]: "1/2", "3/4", and a whole number before one, "4-3/4" or "4
// 3/4" (the Federal Reserve's "4-3/4 to 5 percent"). The denominator is 2,
// 3, 4 or 8, and no date or further slash may follow ("3/4/2024" is a
// date, "24/7" no fraction). n is how many of the following numerals
// (rest) it took; ratio is false for a mixed number.
func vulgarFraction(text string, s, e int, rest [][]int) (val float64, end, n int, ratio, ok bool) {
	simple := func(s, e int, rest [][]int) (float64, int, bool) {
		if e-s != 1 || e >= len(text) || text[e] != '/' || len(rest) == 0 || rest[0][0] != e+1 || rest[0][1]-rest[0][0] != 1 {
			return 0, 0, false
		}
		if s > 0 && (text[s-1] == '/' || isDigit(text[s-1])) {
			return 0, 0, false
		}
		num, den := float64(text[s]-'0'), float64(text[rest[0][0]]-'0')
		end := rest[0][1]
		if num == 0 || num >= den || !strings.ContainsRune("2348", rune(text[rest[0][0]])) {
			return 0, 0, false
		}
		if end < len(text) && (text[end] == '/' || isDigit(text[end]) || (text[end] == '.' || text[end] == ',') && end+1 < len(text) && isDigit(text[end+1])) {
			return 0, 0, false
		}
		return num / den, end, true
	}
	if f, end, ok := simple(s, e, rest); ok {
		return f, end, 1, true, true
	}
	if e < len(text) && e-s <= 3 && (text[e] == '-' || text[e] == ' ') && len(rest) >= 2 && rest[0][0] == e+1 && !strings.ContainsAny(text[s:e], ".,'’\u00a0\u202f\u2009") {
		if f, end, ok := simple(rest[0][0], rest[0][1], rest[1:]); ok {
			w, _, okW := readNumeral(text[s:e])
			if okW {
				return w + f, end, 2, false, true
			}
		}
	}
	return 0, 0, 0, false, false
}

// readValue reads the value whose numeral is text[s:e]: its currency,
// sign, scale, unit or percent sign, a range it opens, an ordinal or
// decade suffix. next says how many of the following numerals (rest) the
// value took (the second end of a range).
func readValue(text string, s, e int, rest [][]int, taken func(s, e int) bool) (Value, int, bool) {
	// A numeral inside a word or a version is no value: A100, v1, 1.2.3.
	if s > 0 {
		r, _ := utf8.DecodeLastRuneInString(text[:s])
		if unicode.IsLetter(r) && !currencyBefore(text, s) || r == '.' && s > 1 && isDigit(text[s-2]) || r == '_' {
			return Value{}, 0, false
		}
	}
	if e < len(text) && (text[e] == '.' || text[e] == ',') && e+1 < len(text) && isDigit(text[e+1]) {
		return Value{}, 0, false
	}
	num, decimals, ok := readNumeral(text[s:e])
	if !ok {
		return Value{}, 0, false
	}
	// A run of digits with a leading zero is a code, not a quantity: the
	// "07" of a mobile number, "0800", "007".
	if e-s > 1 && text[s] == '0' && isDigit(text[s+1]) {
		return Value{}, 0, false
	}
	v := Value{Kind: Number, Start: s, End: e, Num: num, Numeral: num, Tol: 0.5 * math.Pow(10, -float64(decimals))}
	plain := !strings.ContainsAny(text[s:e], ".,'’\u00a0\u202f\u2009")
	if decimals == 0 {
		for n := int64(num); n >= 10 && n%10 == 0 && num < 1e15; n /= 10 {
			v.zeros++
		}
	}
	consumed := 0 // following numerals a fraction took
	if f, end, n, ratio, ok := vulgarFraction(text, s, e, rest); ok {
		v.Num, v.Numeral, v.Tol, v.Fraction, v.zeros = f, f, 0, ratio, 0
		e, consumed, plain, decimals = end, n, false, 1
		rest = rest[n:]
	}
	// Currency before: "$3", "US$ 5", "EUR 5", "€3bn".
	if code, start, ok := currencyPrefix(text, s); ok {
		v.Kind, v.Currency, v.Start, v.UnitText = Money, code, start, strings.TrimSpace(text[start:s])
	}
	// A sign right before the numeral (or the currency).
	if v.Start > 0 {
		r, size := utf8.DecodeLastRuneInString(text[:v.Start])
		if (r == '-' || r == '−') && (v.Start-size == 0 || !isWordByte(text[v.Start-size-1])) {
			v.Num, v.Numeral, v.Start = -v.Num, -v.Numeral, v.Start-size
		}
	}
	p := e
	// Glued suffixes: ordinals (3rd), decades (1990s), scale letters (175B).
	if suf, n := gluedLetters(text, p); n > 0 {
		low := strings.ToLower(suf)
		switch {
		case v.Kind == Number && plain && decimals == 0 && ordinalSuffix(num, low):
			v.Kind, v.End, v.Hi, v.Tol = Ordinal, p+n, v.Num, 0
			return century(text, v), 0, true
		case v.Kind == Number && plain && decimals == 0 && low == "s" && num >= 1000 && num < 2100 && int(num)%10 == 0:
			v.End = p + n
			return decade(text, v), 0, true
		case gluedScales[suf] > 0:
			f := gluedScales[suf]
			v.Num, v.Tol, v.Scale, p = v.Num*f, v.Tol*f, suf, p+n
		case v.Kind == Money && moneyGlued[suf] > 0:
			f := moneyGlued[suf]
			v.Num, v.Tol, v.Scale, p = v.Num*f, v.Tol*f, suf, p+n
		case v.Kind == Number && suf == "m" && countedAfter(text, p+n):
			v.Num, v.Tol, v.Scale, p = v.Num*1e6, v.Tol*1e6, suf, p+n
		}
	} else if n := apostropheS(text, p); n > 0 && v.Kind == Number && plain && num >= 1000 && num < 2100 && int(num)%10 == 0 {
		v.End = p + n
		return decade(text, v), 0, true
	}
	if v.Scale == "" {
		if w, n := scaleAfter(text, p); n > 0 {
			f := scaleWords[strings.ToLower(w)]
			v.Num, v.Tol, v.Scale, p = v.Num*f, v.Tol*f, w, p+n
		}
	}
	v.End = p
	taken2 := 0
	// A range: "10–12", "5 to 7 million", "between 3 and 4".
	if hi, n, ok := rangeEnd(text, v, rest, taken); ok {
		v.Hi, v.End, p, taken2 = hi.Num, hi.End, hi.End, n
		if hi.Scale != "" && v.Scale == "" {
			f := scaleWords[strings.ToLower(hi.Scale)]
			if f == 0 {
				f = gluedScales[hi.Scale]
			}
			if f > 0 {
				v.Num, v.Tol = v.Num*f, v.Tol*f
			}
		}
		v.Tol = math.Max(v.Tol, hi.Tol)
	} else {
		v.Hi = v.Num
	}
	taken2 += consumed
	// After: a percent sign or word, a currency, a unit, an era.
	switch {
	case v.Kind == Number && readPercent(text, p, &v):
	case v.Kind == Number && readCurrencyAfter(text, p, &v):
	case v.Kind == Number && readEra(text, p, &v, plain && decimals == 0):
		return v, taken2, true
	case v.Kind == Number && readUnit(text, p, &v):
	}
	// Letters glued to what was read make it something else: "07xxx",
	// "100A".
	if suf, n := gluedLetters(text, v.End); n > 0 && v.End > 0 && isDigit(text[v.End-1]) && suf != "" {
		return Value{}, 0, false
	}
	if v.Kind == Number && plain && decimals == 0 && v.Scale == "" && !v.Range() && num >= 1000 && num < 2100 {
		v.YearLike = true
	}
	v.Text = text[v.Start:v.End]
	return v, taken2, true
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || isDigit(b) || b >= 0x80
}

// currencyBefore reports whether a currency symbol or code ends at s
// (glued to the numeral): "US$5", "USD5".
func currencyBefore(text string, s int) bool {
	_, _, ok := currencyPrefix(text, s)
	return ok
}

// currencyPrefix finds a currency symbol or code right before s (one space
// allowed after a code or symbol) and returns its code and start.
func currencyPrefix(text string, s int) (string, int, bool) {
	head := text[:s]
	trimmed := strings.TrimRight(head, " \u00a0")
	if len(head)-len(trimmed) > 1 {
		return "", 0, false
	}
	for _, c := range currencySymbols {
		if strings.HasSuffix(trimmed, c.sym) {
			start := len(trimmed) - len(c.sym)
			// "US$" must not be the tail of a word ("XUS$").
			if start > 0 && isLetterByte(trimmed[start-1]) && c.sym[0] != '$' {
				continue
			}
			return c.code, start, true
		}
	}
	if len(trimmed) >= 3 {
		code := trimmed[len(trimmed)-3:]
		if currencyCodes[code] && (len(trimmed) == 3 || !isWordByte(trimmed[len(trimmed)-4])) {
			if code == "RMB" {
				code = "CNY"
			}
			return code, len(trimmed) - 3, true
		}
	}
	return "", 0, false
}

func isLetterByte(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// gluedLetters returns the letters right after p (none if a digit or
// letter run is not a whole word).
func gluedLetters(text string, p int) (string, int) {
	n := 0
	for p+n < len(text) && isLetterByte(text[p+n]) {
		n++
	}
	if n == 0 || p+n < len(text) && (isDigit(text[p+n]) || text[p+n] >= 0x80 && startsLetter(text[p+n:])) {
		return "", 0
	}
	return text[p : p+n], n
}

func startsLetter(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLetter(r)
}

// apostropheS is the length of "'s" or "’s" at p ("the 1990's").
func apostropheS(text string, p int) int {
	for _, a := range []string{"'s", "’s"} {
		if strings.HasPrefix(text[p:], a) && (p+len(a) == len(text) || !isWordByte(text[p+len(a)])) {
			return len(a)
		}
	}
	return 0
}

func ordinalSuffix(n float64, suf string) bool {
	i := int(n)
	want := "th"
	if i%100 < 11 || i%100 > 13 {
		switch i % 10 {
		case 1:
			want = "st"
		case 2:
			want = "nd"
		case 3:
			want = "rd"
		}
	}
	return suf == want || suf == "e" || suf == "er" || suf == "eme"
}

// wordAt returns the word (or phrase from list) at p after at most one
// space, case-insensitively, if it ends at a word boundary.
func phraseAt(text string, p int, phrase string) (int, bool) {
	q := p
	if q < len(text) && (text[q] == ' ' || strings.HasPrefix(text[q:], "\u00a0")) {
		if text[q] == ' ' {
			q++
		} else {
			q += len("\u00a0")
		}
	}
	if len(text)-q < len(phrase) || !strings.EqualFold(text[q:q+len(phrase)], phrase) {
		return 0, false
	}
	end := q + len(phrase)
	if isWordByte(phrase[len(phrase)-1]) && end < len(text) && isWordByte(text[end]) {
		return 0, false
	}
	return end - p, true
}

// scaleAfter finds a scale word after p: "1.2 million", "3 bn".
func scaleAfter(text string, p int) (string, int) {
	best, bestN := "", 0
	for w := range scaleWords {
		if w == "k" || w == "hundred" {
			continue // "5 k" is no scale; "five hundred" is read as words
		}
		if n, ok := phraseAt(text, p, w); ok && n > bestN {
			best, bestN = strings.TrimSpace(text[p+n-len(w):p+n]), n
		}
	}
	return best, bestN
}

// rangeEnd reads the upper end of a range that v opens: "10–12", "10 -
// 12" is not (a minus), "10-12" is, "5 to 7", and "between 3 and 4".
func rangeEnd(text string, v Value, rest [][]int, taken func(s, e int) bool) (Value, int, bool) {
	if len(rest) == 0 {
		return Value{}, 0, false
	}
	s2, e2 := rest[0][0], rest[0][1]
	if taken(s2, e2) {
		return Value{}, 0, false
	}
	gap := text[v.End:s2]
	between := strings.HasSuffix(strings.ToLower(strings.TrimRight(text[:v.Start], " ")), "between")
	switch strings.TrimSpace(gap) {
	case "–", "—", "to":
	case "-":
		if gap != "-" {
			return Value{}, 0, false
		}
	case "and":
		if !between {
			return Value{}, 0, false
		}
	default:
		return Value{}, 0, false
	}
	hiNum, decimals, ok := readNumeral(text[s2:e2])
	if !ok {
		return Value{}, 0, false
	}
	hi := Value{Num: hiNum, Tol: 0.5 * math.Pow(10, -float64(decimals)), End: e2}
	if hi.Num*scaleOf(v) < v.Num {
		return Value{}, 0, false // "45-42" is a score, not a range
	}
	p := e2
	if suf, n := gluedLetters(text, p); n > 0 && gluedScales[suf] > 0 {
		hi.Num, hi.Tol, hi.Scale, p = hi.Num*gluedScales[suf], hi.Tol*gluedScales[suf], suf, p+n
	} else if w, n := scaleAfter(text, p); n > 0 {
		f := scaleWords[strings.ToLower(w)]
		hi.Num, hi.Tol, hi.Scale, p = hi.Num*f, hi.Tol*f, w, p+n
	} else if v.Scale != "" {
		f := scaleOf(v)
		hi.Num, hi.Tol = hi.Num*f, hi.Tol*f
	}
	hi.End = p
	return hi, 1, true
}

func scaleOf(v Value) float64 {
	if v.Scale == "" {
		return 1
	}
	if f := scaleWords[strings.ToLower(v.Scale)]; f > 0 {
		return f
	}
	if f := gluedScales[v.Scale]; f > 0 {
		return f
	}
	return moneyGlued[v.Scale]
}

// readPercent reads a percent sign or word at p into v.
func readPercent(text string, p int, v *Value) bool {
	for _, pw := range percentWords {
		n, ok := phraseAt(text, p, pw.word)
		if !ok {
			continue
		}
		v.Kind, v.UnitText, v.End = Percent, strings.TrimSpace(text[p:p+n]), p+n
		v.Num, v.Hi, v.Tol = v.Num*pw.factor, v.Hi*pw.factor, v.Tol*pw.factor
		return true
	}
	return false
}

// readCurrencyAfter reads a currency written after an amount: "3,5 €",
// "5 billion euros", "10 USD".
func readCurrencyAfter(text string, p int, v *Value) bool {
	for _, c := range currencySymbols {
		if n, ok := phraseAt(text, p, c.sym); ok {
			v.Kind, v.Currency, v.UnitText, v.End = Money, c.code, c.sym, p+n
			return true
		}
	}
	best, bestN := "", 0
	for w, code := range currencyWords {
		if n, ok := phraseAt(text, p, w); ok && n > bestN {
			best, bestN = code, n
		}
	}
	for code := range currencyCodes {
		if n, ok := phraseAt(text, p, code); ok && n > bestN && text[p+n-3:p+n] == code {
			best, bestN = code, n
		}
	}
	if bestN == 0 {
		return false
	}
	if best == "RMB" {
		best = "CNY"
	}
	v.Kind, v.Currency, v.UnitText, v.End = Money, best, strings.TrimSpace(text[p:p+bestN]), p+bestN
	return true
}

// readEra reads "BC", "BCE", "AD" or "CE" after a whole number: a year.
func readEra(text string, p int, v *Value, whole bool) bool {
	if !whole || v.Range() || v.Scale != "" {
		return false
	}
	for _, era := range []string{"BCE", "BC", "B.C.", "CE", "AD", "A.D."} {
		n, ok := phraseAt(text, p, era)
		if !ok || text[p+n-len(era):p+n] != era {
			continue
		}
		y := int(v.Num)
		if strings.HasPrefix(era, "B") {
			y = -y
		}
		v.Kind, v.Date, v.End = Date, DateValue{Year: y, Prec: PrecYear}, p+n
		v.Text = text[v.Start:v.End]
		return true
	}
	// "AD 79": the era before the year.
	if strings.HasSuffix(strings.TrimRight(text[:v.Start], " "), "AD") {
		v.Kind, v.Date = Date, DateValue{Year: int(v.Num), Prec: PrecYear}
		v.Text = text[v.Start:v.End]
		return true
	}
	return false
}

// readUnit reads a unit of measurement at p into v, converting it to its
// dimension's base unit.
func readUnit(text string, p int, v *Value) bool {
	u, n := unitAt(text, p)
	if n == 0 {
		return false
	}
	v.Kind, v.Dim, v.Unit, v.UnitText, v.End = Measure, u.dim, u.base, strings.TrimSpace(text[p:p+n]), p+n
	v.figure, v.figureTol = v.Num, v.Tol
	lo, tol, hi := u.convert(v.Num), u.convert(v.Num+v.Tol), u.convert(v.Hi)
	v.Num, v.Tol, v.Hi = lo, math.Abs(tol-lo), hi
	return true
}

// century turns an ordinal followed by "century" into a Date of century
// precision: "16th century" is 1500–1599, as it is commonly read.
func century(text string, v Value) Value {
	for _, w := range []string{"century", "centuries", "c."} {
		n, ok := phraseAt(text, v.End, w)
		if !ok {
			if text[v.End:] != "" && text[v.End] == '-' {
				n, ok = phraseAt(text, v.End+1, w)
				n++
			}
		}
		if ok {
			c := int(v.Num)
			v.Kind, v.End = Date, v.End+n
			v.Date = DateValue{Year: (c - 1) * 100, Prec: PrecCentury}
			if bc, ok := phraseAt(text, v.End, "BC"); ok {
				v.Date.Year = -c * 100
				v.End += bc
			}
			break
		}
	}
	v.Text = text[v.Start:v.End]
	return v
}

// decade turns a year ending in 0 with an s into a decade: "1990s".
func decade(text string, v Value) Value {
	y := int(v.Num)
	v.Kind, v.Date = Date, DateValue{Year: y, Prec: PrecDecade}
	if y%100 == 0 {
		v.Date.Prec = PrecCentury // "the 1900s": the century
	}
	v.Text = text[v.Start:v.End]
	return v
}
