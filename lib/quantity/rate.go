package quantity

import (
	"math"
	"regexp"
	"strings"
)

// Periods of rates, by the words that name them.
var periodWords = map[string]string{
	"hour": "hour", "day": "day", "week": "week", "month": "month", "quarter": "quarter", "year": "year", "annum": "year",
}

// periodAbbrevs name periods after a slash: "/yr", "/mo", "/d".
var periodAbbrevs = map[string]string{
	"h": "hour", "hr": "hour", "hour": "hour", "d": "day", "day": "day", "wk": "week", "week": "week",
	"mo": "month", "mth": "month", "month": "month", "q": "quarter", "qtr": "quarter", "quarter": "quarter",
	"y": "year", "yr": "year", "year": "year", "a": "year", "annum": "year",
}

// periodAdverbs follow a value as its period: "$5bn annually".
var periodAdverbs = map[string]string{
	"hourly": "hour", "daily": "day", "weekly": "week", "monthly": "month", "quarterly": "quarter",
	"annually": "year", "yearly": "year", "p.a.": "year",
}

var (
	slashPeriodRE = regexp.MustCompile(`^\s*/\s*([a-z]+)\b`)
	wordPeriodRE  = regexp.MustCompile(`^\s+(?:per|a|an|each|every)\s+([a-z]+)\b`)
	adverbRE      = regexp.MustCompile(`^\s+(hourly|daily|weekly|monthly|quarterly|annually|yearly|p\.a\.)`)
	// notPeriodRE after "a year", "a month": a time, not a rate ("a year
	// earlier", "a month later").
	notPeriodRE = regexp.MustCompile(`^\s*(?:ago|earlier|later|before|after|on|from|since|or so|and a half)\b`)
	// wordRunRE is one word a value's noun may put between it and its
	// period: "2.2 million barrels per day".
	wordRunRE = regexp.MustCompile(`^\s+([A-Za-z][A-Za-z-]*)`)
)

// perStop are words that end the search for a period: what follows them
// is no longer the value's noun ("12% higher than a year earlier").
var perStop = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`than in of for over within from to the and or by on at after before since with
		more less was were is are be been being that which who as per a an each every this its their his her our up down`) {
		perStop[w] = true
	}
}

// readPer sets v's period when a rate's period follows it, directly or
// after up to two words of its noun: "$500 a month", "$15.49/mo", "2.2
// million barrels per day", "37.5 hours a week", "$5bn annually".
func readPer(text string, v *Value) {
	// A period is a few words away at most: read a window, not the rest of
	// a long text once per value.
	end := min(len(text), v.End+80)
	rest := strings.ToLower(text[v.End:end])
	for words := 0; words <= 2; words++ {
		if per, phrase, ok := periodAt(rest); ok {
			v.Per, v.PerText = per, phrase
			return
		}
		m := wordRunRE.FindStringSubmatchIndex(rest)
		if m == nil || perStop[rest[m[2]:m[3]]] {
			return
		}
		rest = rest[m[1]:]
	}
}

// periodAt reads a period at the start of s (lower case).
func periodAt(s string) (per, phrase string, ok bool) {
	if m := slashPeriodRE.FindStringSubmatchIndex(s); m != nil {
		if p, ok := periodAbbrevs[s[m[2]:m[3]]]; ok {
			return p, strings.TrimSpace(s[:m[1]]), true
		}
	}
	if m := wordPeriodRE.FindStringSubmatchIndex(s); m != nil {
		if p, ok := periodWords[s[m[2]:m[3]]]; ok && !notPeriodRE.MatchString(s[m[1]:]) {
			return p, strings.TrimSpace(s[:m[1]]), true
		}
	}
	if m := adverbRE.FindStringSubmatchIndex(s); m != nil {
		return periodAdverbs[s[m[2]:m[3]]], strings.TrimSpace(s[:m[1]]), true
	}
	return "", "", false
}

// Rate is an exchange rate a text states: one From is Factor To ("€1 =
// $1.09": EUR, USD, 1.09; "¥150 to the dollar": USD, JPY, 150).
type Rate struct {
	From, To string
	Factor   float64
	Text     string // as written
}

// rateBases name the currency a rate is quoted against: "to the dollar",
// "per euro".
var rateBases = map[string]string{
	"dollar": "USD", "us dollar": "USD", "greenback": "USD", "euro": "EUR", "pound": "GBP", "pound sterling": "GBP",
	"yen": "JPY", "yuan": "CNY", "renminbi": "CNY", "franc": "CHF", "swiss franc": "CHF", "rupee": "INR",
	"rouble": "RUB", "ruble": "RUB", "won": "KRW",
}

var (
	rateJoinRE = regexp.MustCompile(`^\s*(?:=|≈|equals|is worth|buys|was worth|is equal to)\s*$`)
	rateBaseRE = regexp.MustCompile(`^\s+(?:to the|per|against the|for one|for each|for every|a|to one)\s+([A-Za-z$€£¥]+(?: [a-z]+)?)`)
)

// FindRates returns the exchange rates text states: two amounts of
// different currencies joined by "=" ("€1 = $1.09"), or an amount quoted
// against a currency ("NOK 10.5 to the dollar", "$1.09 per euro").
func FindRates(text string) []Rate {
	return RatesOf(text, Find(text))
}

// RatesOf is FindRates on the values Find already read from text.
func RatesOf(text string, vs []Value) []Rate {
	var out []Rate
	for i, v := range vs {
		if v.Kind != Money || v.Num <= 0 || v.Range() {
			continue
		}
		if i+1 < len(vs) && vs[i+1].Kind == Money && vs[i+1].Currency != v.Currency && vs[i+1].Num > 0 && rateJoinRE.MatchString(text[v.End:vs[i+1].Start]) {
			w := vs[i+1]
			out = append(out, Rate{From: v.Currency, To: w.Currency, Factor: w.Num / v.Num, Text: text[v.Start:w.End]})
			continue
		}
		if m := rateBaseRE.FindStringSubmatchIndex(After(text, v.End)); m != nil {
			base := baseCurrency(text[v.End+m[2] : v.End+m[3]])
			if base != "" && base != v.Currency {
				out = append(out, Rate{From: base, To: v.Currency, Factor: v.Num, Text: text[v.Start : v.End+m[1]]})
			}
		}
	}
	return out
}

// baseCurrency reads the currency a rate is quoted against: a name
// ("dollar", "pound sterling"), an ISO code or a symbol.
func baseCurrency(s string) string {
	low := strings.ToLower(s)
	if c, ok := rateBases[low]; ok {
		return c
	}
	first, _, _ := strings.Cut(s, " ")
	if c, ok := rateBases[strings.ToLower(first)]; ok {
		return c
	}
	if currencyCodes[first] {
		return first
	}
	for _, c := range currencySymbols {
		if first == c.sym {
			return c.code
		}
	}
	return ""
}

// Convert expresses a money value of one of r's currencies in the other.
// The result is marked as converted, so CompareClaim holds a claim to its
// precision.
func (r Rate) Convert(v Value) (Value, bool) {
	if v.Kind != Money || r.Factor <= 0 || math.IsInf(r.Factor, 0) {
		return Value{}, false
	}
	f := 0.0
	switch v.Currency {
	case r.From:
		v.Currency, f = r.To, r.Factor
	case r.To:
		v.Currency, f = r.From, 1/r.Factor
	default:
		return Value{}, false
	}
	v.Num, v.Hi, v.Tol = v.Num*f, v.Hi*f, v.Tol*f
	v.converted = true
	return v, true
}
