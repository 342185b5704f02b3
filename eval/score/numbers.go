package score

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// A claim's numbers and dates are read as values, so that "175B" is
// "175 billion", "20 percent" is "20%" and "1,200" is "1200", and each must
// be found in a snippet the bullet cites.
//
// Tolerance: a claim may round what its source says to the precision it
// writes, and no further: a number matches a cited one within half a unit
// of its own last written digit ("1.2 million" covers 1,150,000 to
// 1,250,000; "527" covers 526.5 to 527.5, so not 523). A percentage only
// matches a percentage, and a plain number a plain number.
//
// Years standing alone are year tokens (compareClaims), and the day and
// year of a full date are checked as the date (fullDates), not as numbers.

// quantity is a number read from text.
type quantity struct {
	Text       string  // as written: "1.2 million", "20%"
	Value, Tol float64 // the value, and the tolerance its precision gives
	Percent    bool
	start, end int
}

// quantityRe is a numeral with thousands separators and decimals, then an
// optional scale or percent sign. The scale words are English; a suffix
// letter (175B, 3.5M, 10k) must follow the digits directly, and a lower-case
// m or b is a unit (10m is ten metres), not a scale.
var quantityRe = regexp.MustCompile(`(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:\s?(%|(?i:per ?cent)\b)|\s(?i:(thousand|million|billion|trillion|mn|bn))\b|([kKMBT])\b)?`)

var scales = map[string]float64{
	"thousand": 1e3, "k": 1e3,
	"million": 1e6, "mn": 1e6, "m": 1e6,
	"billion": 1e9, "bn": 1e9, "b": 1e9,
	"trillion": 1e12, "t": 1e12,
}

// quantities returns the numbers of text outside the spans in skip (the
// full dates), and outside other numbers' context: a numeral glued to
// letters before it ("v1", "COVID-19" keeps 19) is read, one inside a word
// ("A100") is not.
func quantities(text string, skip [][2]int) []quantity {
	var out []quantity
outer:
	for _, m := range quantityRe.FindAllStringSubmatchIndex(text, -1) {
		start, end := m[0], m[1]
		for _, s := range skip {
			if start < s[1] && end > s[0] {
				continue outer
			}
		}
		if start > 0 {
			prev := rune(text[start-1])
			if prev == '.' || prev == ',' || unicode.IsDigit(prev) {
				continue // the tail of a version or a malformed number
			}
			if unicode.IsLetter(prev) {
				continue // part of a name: A100, H2O
			}
		}
		intPart := strings.ReplaceAll(text[m[2]:m[3]], ",", "")
		frac := ""
		if m[4] >= 0 {
			frac = text[m[4]:m[5]]
		}
		if end < len(text) && text[end] == '.' && end+1 < len(text) && isDigit(text[end+1]) {
			continue // 1.2.3: a version, not a quantity
		}
		v, err := strconv.ParseFloat(intPart+frac, 64)
		if err != nil {
			continue
		}
		decimals := 0
		if frac != "" {
			decimals = len(frac) - 1
		}
		tol := 0.5 * math.Pow(10, -float64(decimals))
		q := quantity{Text: text[start:end], start: start, end: end}
		switch {
		case m[6] >= 0:
			q.Percent = true
		case m[8] >= 0:
			f := scales[strings.ToLower(text[m[8]:m[9]])]
			v, tol = v*f, tol*f
		case m[10] >= 0:
			f := scales[strings.ToLower(text[m[10]:m[11]])]
			v, tol = v*f, tol*f
		default:
			if frac == "" && isYear(intPart) && !strings.Contains(text[m[2]:m[3]], ",") {
				continue // a year: a year token
			}
		}
		q.Value, q.Tol = v, tol
		out = append(out, q)
	}
	return out
}

// matches reports whether the claim's quantity c is the source's s, within
// c's tolerance (and a relative 1e-9 for floating point).
func (c quantity) matches(s quantity) bool {
	if c.Percent != s.Percent {
		return false
	}
	return math.Abs(c.Value-s.Value) <= c.Tol+1e-9*math.Max(math.Abs(c.Value), 1)
}

// calDate is a full calendar date read from text.
type calDate struct {
	Text       string
	Y, M, D    int
	start, end int
}

func (d calDate) String() string {
	if d.Y == 0 {
		return fmt.Sprintf("--%02d-%02d", d.M, d.D) // ISO 8601's day and month without a year
	}
	return fmt.Sprintf("%04d-%02d-%02d", d.Y, d.M, d.D)
}

// sameDay reports whether a claim's date d is the source's date s: the
// same day and month, and the same year unless the claim gives none.
func (d calDate) sameDay(s calDate) bool {
	return d.M == s.M && d.D == s.D && (d.Y == 0 || d.Y == s.Y)
}

// monthNames maps month names and their common abbreviations, in English,
// French, German, Spanish, Italian, Portuguese and Dutch (folded to lower
// case, without accents), to month numbers.
var monthNames = func() map[string]int {
	m := map[string]int{}
	lists := [][]string{
		{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"},
		{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"},
		{"janvier", "fevrier", "mars", "avril", "mai", "juin", "juillet", "aout", "septembre", "octobre", "novembre", "decembre"},
		{"januar", "februar", "marz", "april", "mai", "juni", "juli", "august", "september", "oktober", "november", "dezember"},
		{"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"},
		{"gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre", "novembre", "dicembre"},
		{"janeiro", "fevereiro", "marco", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"},
		{"januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober", "november", "december"},
	}
	for _, l := range lists {
		for i, n := range l {
			m[n] = i + 1
		}
	}
	m["sept"] = 9
	return m
}()

// unaccent folds the accented letters of the month names above.
var unaccent = strings.NewReplacer("é", "e", "è", "e", "û", "u", "ä", "a", "ç", "c", "É", "e", "Ä", "a")

const monthWord = `(\p{L}{3,10})\.?`

// Date forms: "2 August 2024", "2. August 2024", "2 de agosto de 2024",
// "August 2, 2024", "August 2nd 2024", and ISO "2024-08-02".
var (
	dmyRe = regexp.MustCompile(`(?i)\b(\d{1,2})(?:st|nd|rd|th|er|\.|º)?\s+(?:de\s+)?` + monthWord + `\s+(?:de\s+)?(\d{4})\b`)
	mdyRe = regexp.MustCompile(`(?i)\b` + monthWord + `\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`)
	isoRe = regexp.MustCompile(`\b(\d{4})-(\d{2})-(\d{2})\b`)
	// A day and month without a year: "on 25 December", "December 25".
	dmRe = regexp.MustCompile(`(?i)\b(\d{1,2})(?:st|nd|rd|th|er|\.|º)?\s+(?:de\s+)?` + monthWord)
	mdRe = regexp.MustCompile(`(?i)\b` + monthWord + `\s+(\d{1,2})(?:st|nd|rd|th)?\b`)
)

// fullDates returns the dates of text, in order of position: full dates
// (day, month and year), and a day and month without a year (Y is 0). A
// month word that is no month name is no date.
func fullDates(text string) []calDate {
	var out []calDate
	add := func(m []int, y, mo, d int) {
		if mo < 1 || mo > 12 || d < 1 || d > 31 {
			return
		}
		for _, o := range out {
			if m[0] < o.end && m[1] > o.start {
				return
			}
		}
		out = append(out, calDate{Text: text[m[0]:m[1]], Y: y, M: mo, D: d, start: m[0], end: m[1]})
	}
	atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }
	month := func(s string) int { return monthNames[unaccent.Replace(strings.ToLower(s))] }
	for _, m := range isoRe.FindAllStringSubmatchIndex(text, -1) {
		add(m, atoi(text[m[2]:m[3]]), atoi(text[m[4]:m[5]]), atoi(text[m[6]:m[7]]))
	}
	for _, m := range dmyRe.FindAllStringSubmatchIndex(text, -1) {
		add(m, atoi(text[m[6]:m[7]]), month(text[m[4]:m[5]]), atoi(text[m[2]:m[3]]))
	}
	for _, m := range mdyRe.FindAllStringSubmatchIndex(text, -1) {
		add(m, atoi(text[m[6]:m[7]]), month(text[m[2]:m[3]]), atoi(text[m[4]:m[5]]))
	}
	// Day and month alone (Y 0), once the full dates have their spans.
	for _, m := range dmRe.FindAllStringSubmatchIndex(text, -1) {
		add(m, 0, month(text[m[4]:m[5]]), atoi(text[m[2]:m[3]]))
	}
	for _, m := range mdRe.FindAllStringSubmatchIndex(text, -1) {
		add(m, 0, month(text[m[2]:m[3]]), atoi(text[m[4]:m[5]]))
	}
	slices.SortFunc(out, func(a, b calDate) int { return a.start - b.start })
	return out
}

// dateSpans are the spans of ds, for quantities to skip.
func dateSpans(ds []calDate) [][2]int {
	out := make([][2]int, len(ds))
	for i, d := range ds {
		out[i] = [2]int{d.start, d.end}
	}
	return out
}

// readQuantities reads text's numbers outside its full dates.
func readQuantities(text string) []quantity {
	return quantities(text, dateSpans(fullDates(text)))
}

// quoteSnippet shortens a snippet for a message.
func quoteSnippet(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 160 {
		s = string(r[:160]) + "…"
	}
	return strconv.Quote(s)
}
