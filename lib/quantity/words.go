package quantity

import (
	"math"
	"regexp"
	"strings"
)

var (
	smallWords = map[string]float64{
		"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
		"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
		"seventeen": 17, "eighteen": 18, "nineteen": 19, "dozen": 12,
	}
	tensWords = map[string]float64{
		"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
	}
	bigWords = map[string]float64{"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
	// ordinalWords are ordinals and the denominators of fractions
	// ("three fifths"); a plural is a denominator only.
	ordinalWords = map[string]float64{
		"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
		"ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14,
		"fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19,
		"twentieth": 20, "thirtieth": 30, "fortieth": 40, "fiftieth": 50, "sixtieth": 60, "seventieth": 70,
		"eightieth": 80, "ninetieth": 90, "hundredth": 100, "thousandth": 1000, "millionth": 1e6,
	}
	fractionWords = map[string]float64{
		"half": 2, "halves": 2, "quarter": 4, "quarters": 4, "thirds": 3, "fourths": 4, "fifths": 5, "sixths": 6,
		"sevenths": 7, "eighths": 8, "ninths": 9, "tenths": 10,
	}
)

var wordRE = regexp.MustCompile(`[A-Za-z]+(?:-[A-Za-z]+)*`)

// wordTok is one word of a run of number words.
type wordTok struct {
	w          string
	start, end int
}

// findWords reads numbers written in English words: "twenty-five",
// "one hundred and five", "two and a half million", "three quarters",
// "the fifteenth".
func findWords(text string, taken func(s, e int) bool) []Value {
	var toks []wordTok
	for _, m := range wordRE.FindAllStringIndex(text, -1) {
		// Hyphenated numbers are read part by part.
		s := m[0]
		for _, part := range strings.Split(text[m[0]:m[1]], "-") {
			toks = append(toks, wordTok{strings.ToLower(part), s, s + len(part)})
			s += len(part) + 1
		}
	}
	var out []Value
	for i := 0; i < len(toks); {
		v, n := readWords(text, toks[i:])
		if n == 0 || taken(v.Start, v.End) {
			i++
			continue
		}
		out = append(out, v)
		i += n
	}
	return out
}

func isNumberWord(w string) bool {
	_, a := smallWords[w]
	_, b := tensWords[w]
	_, c := bigWords[w]
	_, d := ordinalWords[w]
	_, e := fractionWords[w]
	return a || b || c || d || e || w == "hundred"
}

// readWords reads the number that starts at toks[0], returning it and how
// many tokens it used (0: none starts there).
func readWords(text string, toks []wordTok) (Value, int) {
	first := toks[0].w
	// "a" counts as one before a scale or a fraction: "a hundred", "a half".
	if first == "a" || first == "an" {
		if len(toks) < 2 || !adjacent(text, toks[0], toks[1]) {
			return Value{}, 0
		}
		if n := toks[1].w; n != "hundred" && bigWords[n] == 0 && n != "dozen" && n != "half" && n != "quarter" && n != "third" {
			return Value{}, 0
		}
	} else if !isNumberWord(first) || fractionWords[first] > 0 && first != "half" {
		return Value{}, 0
	}
	var total, current float64
	lastScale := 1.0
	used, any := 0, false
	ordinal, fraction := false, false
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if i > 0 && !adjacent(text, toks[i-1], t) {
			break
		}
		w := t.w
		switch {
		case (w == "a" || w == "an") && i+1 < len(toks) && !ordinal:
			current += 1
			lastScale = 1
		case w == "and" && any && i+1 < len(toks) && (isNumberWord(toks[i+1].w) || toks[i+1].w == "a"):
			// "one hundred and five", "two and a half": the next words add.
			if toks[i+1].w == "a" || toks[i+1].w == "half" {
				total += current
				current = 0
			}
		case smallWords[w] > 0 || w == "zero":
			if w == "dozen" {
				current = math.Max(current, 1) * 12
			} else {
				current += smallWords[w]
			}
			lastScale = 1
		case tensWords[w] > 0:
			current += tensWords[w]
			lastScale = 1
		case w == "hundred":
			current = math.Max(current, 1) * 100
			lastScale = 100
		case bigWords[w] > 0:
			f := bigWords[w]
			if current == 0 {
				current = 1
			}
			total = (total + current) * f
			current = 0
			lastScale = f
		case fractionWords[w] > 0:
			// "two thirds", "a half", "three quarters"; "and a half" adds.
			current = math.Max(current, 1) / fractionWords[w]
			fraction = true
			lastScale = 1 / fractionWords[w]
		case ordinalWords[w] > 0:
			if current == 1 && i > 0 && (toks[i-1].w == "one" || toks[i-1].w == "a") && isDenominator(w) {
				// "one third", "a fifth": a fraction
				current = 1 / ordinalWords[w]
				fraction = true
			} else {
				current += ordinalWords[w]
				ordinal = true
			}
			lastScale = 1
		default:
			i = len(toks)
			continue
		}
		if w != "and" {
			used = i + 1
			any = true
		}
		if ordinal {
			used = i + 1
			break
		}
	}
	if used == 0 {
		return Value{}, 0
	}
	// A trailing "and" or "a" is not part of the number.
	for used > 0 && (toks[used-1].w == "and" || toks[used-1].w == "a" || toks[used-1].w == "an") {
		used--
	}
	if used == 0 {
		return Value{}, 0
	}
	// A lone "one" is a pronoun more often than a number ("the one who");
	// it still reads, but a lone "a" never does.
	val := total + current
	v := Value{Kind: Number, Start: toks[0].start, End: toks[used-1].end, Num: val, Hi: val, Numeral: val, Tol: 0.5 * lastScale, Words: true, Fraction: fraction}
	if fraction {
		v.Tol = 0
	}
	// "one in five", "nine out of ten": a ratio.
	if !fraction && !ordinal && val >= 1 && val == math.Trunc(val) {
		if m := oneInRE.FindStringSubmatchIndex(After(text, v.End)); m != nil {
			var den Value
			n := 0
			if dt := wordToks(text, v.End+m[2]); len(dt) > 0 {
				den, n = readWords(text, dt)
			}
			if n > 0 && den.Kind == Number && !den.Fraction && den.Num > val && den.Num <= 1000 && den.Start == v.End+m[2] {
				v.Num, v.Hi, v.Numeral, v.Tol, v.Fraction, v.End = val/den.Num, val/den.Num, val/den.Num, 0, true, den.End
				v.Text = text[v.Start:v.End]
				for used < len(toks) && toks[used].start < v.End {
					used++
				}
				return v, used
			}
		}
	}
	if ordinal {
		v.Kind, v.Tol = Ordinal, 0
		v = century(text, v)
		return v, used
	}
	// A scale word right after ("two and a half million") scales it.
	if w, n := scaleAfter(text, v.End); n > 0 {
		f := scaleWords[strings.ToLower(w)]
		v.Num, v.Hi, v.Tol, v.Scale, v.End = v.Num*f, v.Hi*f, v.Tol*f, w, v.End+n
		for used < len(toks) && toks[used].start < v.End {
			used++
		}
	}
	p := v.End
	switch {
	case readPercent(text, p, &v):
	case readCurrencyAfter(text, p, &v):
	case readUnit(text, p, &v):
	}
	v.Text = text[v.Start:v.End]
	for used < len(toks) && toks[used].start < v.End {
		used++
	}
	return v, used
}

// oneInRE joins the two numbers of a ratio in words: "one in five", "nine
// out of ten".
var oneInRE = regexp.MustCompile(`^\s+(?:in|out of)\s+([a-z])`)

// wordToks splits text from p into the words readWords reads.
func wordToks(text string, p int) []wordTok {
	var toks []wordTok
	for _, m := range wordRE.FindAllStringIndex(text[p:], 8) {
		s := p + m[0]
		for _, part := range strings.Split(text[p+m[0]:p+m[1]], "-") {
			toks = append(toks, wordTok{strings.ToLower(part), s, s + len(part)})
			s += len(part) + 1
		}
	}
	return toks
}

func isDenominator(w string) bool {
	switch w {
	case "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth":
		return true
	}
	return false
}

// adjacent reports whether only spaces or one hyphen separate a and b.
func adjacent(text string, a, b wordTok) bool {
	gap := text[a.end:b.start]
	return gap == "-" || strings.TrimSpace(gap) == "" && len(gap) <= 3
}
