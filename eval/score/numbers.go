package score

import (
	"fmt"
	"math"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/searchbench/searchbench/lib/memo"
	"github.com/searchbench/searchbench/lib/quantity"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// A claim's numbers and dates are read as values (lib/quantity), so that
// "175B" is "175 billion", "$4.2bn" is "US$4.2 billion", "41,2 Prozent"
// is "41.2%", "two thirds" is 67%, "50 basis points" is "0.5 percentage
// points", "26.2 miles" is "42.195 kilometres", "2024-W36" is "week 36 of
// 2024" and a UK page's "03/09/2024" is "3 September 2024"; each must
// agree with a value of a snippet the bullet cites.
//
// Tolerance: a claim may round what its source says to the precision it
// writes, and no further (quantity.CompareClaim): "1.2 million" covers
// 1,150,000 to 1,250,000; "527" covers 526.5 to 527.5, so not 523. A
// percentage only matches a percentage or a fraction, money money of the
// same currency (or of another at a rate the snippet itself gives), a
// measure one of the same dimension; a plain number matches the figure of
// an amount or a measure ("30 billion" and "NOK 30bn").
//
// A numeric date that reads both ways (03/09/2024) is read in the cited
// source's order: its country domain's (.uk, .de, .au: day first; .us,
// .gov: month first), else its language's (German, French …: day first),
// else either way.
//
// Years standing alone are year tokens (compareClaims). Dates of a month,
// a year or longer, numbers written in words ("two", "half") and times in
// words ("ten years ago") support a claim's tokens when they agree, and are
// no finding when they do not.

// claimValue is a value of a bullet, with what the check needs to report
// it.
type claimValue struct {
	quantity.Value
	words string // the claim's words around the value
	soft  bool   // supported when it agrees; never a finding
	// dir is +1 when the bullet says a threshold was met, reached or
	// exceeded at the value ("the 50% target was met", "at least 50%"),
	// -1 when it says the value stayed below it; said is how it said so.
	dir  int
	said string
}

// Reading values (quantity.Find) was a quarter of a replay's CPU: the same
// bullets and snippets come back in every sample of a case, and the same
// snippets across the cases that searched for them. Both readings are pure
// functions of their text (a snippet's of its URL too), so they are kept
// per process, within a bound; what is kept is shared and never modified
// (withMarks marks a copy).
var (
	claimMemo = memo.New[string, []claimValue](2048)
	srcMemo   = memo.New[string, srcValues](2048)
)

// claimValues reads the values of a bullet's text.
func claimValues(text string) []claimValue { return claimMemo.Do(text, readClaimValues) }

func readClaimValues(text string) []claimValue {
	var out []claimValue
	for _, v := range quantity.Find(text) {
		if v.Kind == quantity.Number && v.YearLike && isYear(v.Text) {
			continue // a year: a year token
		}
		c := claimValue{Value: v, words: claimWords(text, v.Start, v.End)}
		switch v.Kind {
		case quantity.Date:
			c.soft = v.Date.Prec != quantity.PrecDay && v.Date.Prec != quantity.PrecWeek
		case quantity.Number, quantity.Ordinal:
			c.soft = v.Words && v.Scale == ""
		case quantity.Measure:
			c.soft = v.Words && v.Dim == "time" // "ten years ago", "two weeks later"
		}
		if v.Kind != quantity.Date && !v.Approx {
			c.dir, c.said = threshold(text, v)
			// A threshold said to be met is a bound: "crossed 50%" holds
			// for 62%.
			if c.Bound == quantity.Exact && c.dir > 0 {
				c.Bound = quantity.AtLeast
			} else if c.Bound == quantity.Exact && c.dir < 0 {
				c.Bound = quantity.AtMost
			}
		}
		out = append(out, c)
	}
	return out
}

// claimWords are the words of text around the span [s, e): its sentence,
// cut to about 80 characters around the value.
func claimWords(text string, s, e int) string {
	start, end := 0, len(text)
	for _, sep := range []string{". ", "; ", "! ", "? "} {
		if i := strings.LastIndex(text[:s], sep); i >= 0 && i+len(sep) > start {
			start = i + len(sep)
		}
		if i := strings.Index(text[e:], sep); i >= 0 && e+i+1 < end {
			end = e + i + 1
		}
	}
	const room = 40
	pre, post := "", ""
	if s-start > room {
		start, pre = wordStart(text, s-room), "…"
	}
	if end-e > room {
		end, post = wordEndBefore(text, e+room), "…"
	}
	return pre + strings.TrimSpace(text[start:end]) + post
}

// wordStart moves i forward to the start of a word; wordEndBefore moves it
// back to the end of one (both stay on rune boundaries).
func wordStart(text string, i int) int {
	for i < len(text) && !utf8.RuneStart(text[i]) {
		i++
	}
	if j := strings.IndexByte(text[i:], ' '); j >= 0 {
		return i + j + 1
	}
	return i
}

func wordEndBefore(text string, i int) int {
	for i > 0 && i < len(text) && !utf8.RuneStart(text[i]) {
		i--
	}
	if j := strings.LastIndexByte(text[:i], ' '); j >= 0 {
		return j
	}
	return i
}

// Threshold words: what the bullet says about a value as a threshold.
var (
	thresholdBeforeRE = regexp.MustCompile(`(?i)(?:\b(not|never|failed to|fail to|did not|didn't|does not|doesn't)\s+)?\b(at least|no less than|above|over|more than|higher than|greater than|beyond|upwards of|exceed(?:ed|s|ing)?|cross(?:ed|es|ing)?|surpass(?:ed|es|ing)?|top(?:ped|s)?|hit(?:s|ting)?|reach(?:ed|es|ing)?|meet(?:s|ing)?|met|achiev(?:e|ed|es|ing)|pass(?:ed|es|ing)?|below|under|beneath|less than|fewer than|lower than|short of|at most|no more than|miss(?:ed|es|ing)?)\s+(?:(?:the|its|a|an|their|his|her|target|threshold|goal|mark|level|of|bar|benchmark)\s+){0,3}$`)
	thresholdAfterRE  = regexp.MustCompile(`(?i)^\s*(?:(?:[a-z-]+\s+){0,2}?(?:target|threshold|goal|mark|level|bar|benchmark|quorum)\s+)?(?:(?:was|were|is|are|has been|had been|have been)\s+)?(not\s+)?(met|reached|hit|exceeded|crossed|achieved|surpassed|passed|topped|missed)\b`)
)

// thresholdVerbs are the verbs of a threshold met (their participle);
// downWords say a value stayed below one.
var (
	thresholdVerbs = map[string]string{"exceed": "exceeded", "cross": "crossed", "surpass": "surpassed", "top": "topped", "hit": "hit",
		"reach": "reached", "meet": "met", "met": "met", "achiev": "achieved", "pass": "passed", "miss": "missed"}
	downWords = map[string]bool{"below": true, "under": true, "beneath": true, "less than": true, "fewer than": true, "lower than": true,
		"short of": true, "at most": true, "no more than": true, "missed": true}
)

// threshold reads what text says of v as a threshold: +1 met, reached or
// exceeded ("crossed the 50% threshold", "the 50% target was met", "at
// least 50%"), -1 stayed below ("below 2%", "fell short of the 50%
// target", "the target was not met"), and how it said so.
func threshold(text string, v quantity.Value) (int, string) {
	before := text[max(0, v.Start-60):v.Start]
	if m := thresholdBeforeRE.FindStringSubmatch(before); m != nil {
		return thresholdDir(strings.ToLower(m[1]) != "", strings.ToLower(m[2]))
	}
	if m := thresholdAfterRE.FindStringSubmatch(quantity.After(text, v.End)); m != nil {
		return thresholdDir(m[1] != "", strings.ToLower(m[2]))
	}
	switch v.Bound {
	case quantity.AtLeast:
		return 1, "it is at least"
	case quantity.AtMost:
		return -1, "it is at most"
	}
	return 0, ""
}

func thresholdDir(negated bool, word string) (int, string) {
	dir, said := 1, "it is "+word
	for stem, part := range thresholdVerbs {
		if strings.HasPrefix(word, stem) {
			said = "was " + part
			if negated {
				said = "was not " + part
			}
			break
		}
	}
	if downWords[word] || strings.HasPrefix(word, "miss") {
		dir = -1
	}
	if negated {
		dir = -dir
	}
	return dir, said
}

// srcValues are the values of one retrieved result (title and snippet, as
// the model saw them) and the exchange rates it states.
type srcValues struct {
	text  string
	vals  []srcValue
	rates []quantity.Rate
	// marked says whether vals carry their threshold marks (withMarks).
	marked bool
}

// withMarks is sv with each value's threshold marks, read once: only a
// claim of a threshold needs them.
func (g *grounded) withMarks(r trace.Retrieved) srcValues {
	sv := g.valuesOf(r)
	if sv.marked {
		return sv
	}
	sv.vals = slices.Clone(sv.vals) // sv.vals may be srcMemo's
	for i := range sv.vals {
		v := &sv.vals[i]
		if v.Kind != quantity.Date {
			v.dir, _ = threshold(sv.text, v.Value)
			v.target = targetAfterRE.MatchString(quantity.After(sv.text, v.End)) || targetBeforeRE.MatchString(sv.text[max(0, v.Start-30):v.Start])
		}
	}
	sv.marked = true
	g.srcVals[r.URL+"\x00"+r.Title+"\x00"+r.Snippet] = sv
	return sv
}

// srcValue is a value of a retrieved result, and what the result says of
// it as a threshold: the target itself ("the 50% target", "short of the
// 50% quorum"), and whether it says it was met (dir +1) or not (-1).
type srcValue struct {
	quantity.Value
	target bool
	dir    int
}

// A target named as one: "the 2% medium-term target", "a threshold of
// 50%", "the 50% needed".
var (
	targetAfterRE  = regexp.MustCompile(`(?i)^\s*(?:[a-z-]+\s+){0,2}?(?:target|threshold|goal|benchmark|quorum|limit|ceiling|cap|hurdle|minimum|maximum|needed|required)\b`)
	targetBeforeRE = regexp.MustCompile(`(?i)\b(?:target|threshold|goal|benchmark|quorum|limit|ceiling|cap|hurdle|minimum|maximum)\s+(?:of\s+)?$`)
)

// valuesOf reads r's values once per turn, resolving ambiguous numeric
// dates by r's site or language.
func (g *grounded) valuesOf(r trace.Retrieved) srcValues {
	k := r.URL + "\x00" + r.Title + "\x00" + r.Snippet
	if sv, ok := g.srcVals[k]; ok {
		return sv
	}
	sv := srcMemo.Do(k, func(string) srcValues { return readValues(r) })
	if g.srcVals == nil {
		g.srcVals = map[string]srcValues{}
	}
	g.srcVals[k] = sv
	return sv
}

// readValues reads the values of r's title and snippet.
func readValues(r trace.Retrieved) srcValues {
	text := resultText(r)
	found := quantity.Find(text)
	order, ordered := quantity.EitherOrder, false
	sv := srcValues{text: text, rates: quantity.RatesOf(text, found)}
	for _, v := range found {
		if v.Kind == quantity.Date && v.Date.AltMonth != 0 && !ordered {
			if u, err := url.Parse(r.URL); err == nil {
				order = quantity.OrderOfHost(u.Hostname())
			}
			if order == quantity.EitherOrder {
				order = quantity.OrderOfText(text)
			}
			ordered = true
		}
		sv.vals = append(sv.vals, srcValue{Value: quantity.Resolve(v, order)})
	}
	return sv
}

// candidates are r's values a claim may be compared with: each value, and
// an amount converted at a rate r states.
func (sv srcValues) candidates(c claimValue) []srcValue {
	out := sv.vals
	if c.Kind != quantity.Money || len(sv.rates) == 0 {
		return out
	}
	out = append([]srcValue(nil), out...)
	for _, v := range sv.vals {
		for _, rt := range sv.rates {
			if w, ok := rt.Convert(v.Value); ok && w.Currency == c.Currency && v.Currency != c.Currency {
				out = append(out, srcValue{Value: w, target: v.target, dir: v.dir})
			}
		}
	}
	return out
}

// agreement compares claim c with a source value s: at the claim's
// precision, and by their figures when one of them is a plain number and
// the other an amount or a measure. It returns the two values compared.
func agreement(c claimValue, s quantity.Value) (quantity.Agreement, quantity.Value, quantity.Value) {
	cv := c.Value
	a := quantity.CompareClaim(cv, s)
	if a == quantity.Incomparable && !cv.Fraction && !s.Fraction {
		switch {
		case cv.Kind == quantity.Number && (s.Kind == quantity.Money || s.Kind == quantity.Measure):
			s = s.Figure()
			a = quantity.CompareClaim(cv, s)
		case s.Kind == quantity.Number && !s.YearLike && (cv.Kind == quantity.Money || cv.Kind == quantity.Measure):
			cv = cv.Figure()
			a = quantity.CompareClaim(cv, s)
		}
	}
	// A bound's number written without it ("100 countries" for "more
	// than 100 countries") is the number the source gives.
	if a == quantity.Finer && s.Bound != quantity.Exact && s.Kind != quantity.Date {
		exact := s
		exact.Bound = quantity.Exact
		if supports(quantity.CompareClaim(cv, exact)) {
			a = quantity.Agree
		}
	}
	return a, cv, s
}

func supports(a quantity.Agreement) bool { return a == quantity.Agree || a == quantity.Coarser }

// wrongSide reports whether source value s, which agrees with the claim's
// value cv at its precision, lies on the other side of the threshold the
// claim says was met (dir +1: s below it) or not reached (dir -1: above).
func wrongSide(dir int, cv, s quantity.Value) bool {
	s = s.As(cv)
	eps := 1e-9 * math.Max(math.Abs(cv.Num), 1)
	switch {
	case dir > 0:
		return s.Hi < cv.Num-eps && s.Bound != quantity.AtLeast
	case dir < 0:
		return s.Num > cv.Num+eps && s.Bound != quantity.AtMost
	}
	return false
}

// citedValue is a source value a claim was compared with, and where it is.
type citedValue struct {
	r trace.Retrieved
	v quantity.Value
}

// valueKind names a value's kind in a finding.
func valueKind(v quantity.Value) string {
	switch v.Kind {
	case quantity.Percent:
		return "percentage"
	case quantity.Money:
		return "amount"
	case quantity.Measure:
		return "measurement"
	case quantity.Date:
		return "date"
	}
	return "number"
}

// shown is a value as a finding quotes it: as written, with its period.
func shown(v quantity.Value) string {
	switch {
	case strings.HasPrefix(v.PerText, "/"):
		return v.Text + v.PerText
	case v.PerText != "":
		return v.Text + " " + v.PerText
	}
	return v.Text
}

// slip names how a claim's value differs from a cited one written with
// the same figures: a unit, a currency, a rate's period or a scale
// changed without converting. "" when it is none of these.
func slip(c claimValue, s quantity.Value) string {
	same := func(a, b float64) bool { return a == b || math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), 1) }
	switch {
	case c.Kind == quantity.Measure && s.Kind == quantity.Measure && same(c.Numeral, s.Numeral) && c.Numeral != 0 &&
		!strings.EqualFold(c.UnitText, s.UnitText) && c.Per == s.Per:
		return "a unit changed, not converted"
	case c.Kind == quantity.Money && s.Kind == quantity.Money && c.Currency != s.Currency && same(c.Num, s.Num):
		return "a currency changed, not converted"
	case c.Per != "" && s.Per != "" && c.Per != s.Per:
		cv, sv := c.Value, s
		cv.Per, sv.Per = "", ""
		if supports(quantity.CompareClaim(cv, sv)) {
			return fmt.Sprintf("a rate per %s written as per %s", s.Per, c.Per)
		}
	case c.Kind == s.Kind && c.Kind != quantity.Date && same(c.Numeral, s.Numeral) && c.Numeral != 0 && !same(c.Num, s.Num) &&
		!strings.EqualFold(c.Scale, s.Scale) && c.Currency == s.Currency && c.Dim == s.Dim && strings.EqualFold(c.UnitText, s.UnitText):
		return "a scale changed"
	}
	return ""
}

// distance ranks how far a cited value is from a claim's, for "closest
// cited": comparable values first, then by relative difference.
func distance(c claimValue, s quantity.Value) float64 {
	a, cv, sv := agreement(c, s)
	if a == quantity.Incomparable {
		return math.Inf(1)
	}
	if cv.Kind == quantity.Date || sv.Kind == quantity.Date {
		return math.Abs(float64(dayOf(cv) - dayOf(sv)))
	}
	sv = sv.As(cv)
	return math.Abs(cv.Num-sv.Num) / math.Max(math.Abs(cv.Num), 1e-9)
}

// dayOf is a rough day number of a date (or a year-like number), to rank
// nearby dates.
func dayOf(v quantity.Value) int {
	d := v.Date
	if v.Kind != quantity.Date {
		return int(v.Num) * 366
	}
	return d.Year*372 + d.Month*31 + d.Day + d.Week*7
}

// closestYear is the cited date or year-like number nearest to year y.
func (g *grounded) closestYear(cited []trace.Retrieved, y int) (citedValue, bool) {
	var best citedValue
	bestD := math.Inf(1)
	for _, r := range cited {
		for _, v := range g.valuesOf(r).vals {
			yy := 0
			switch {
			case v.Kind == quantity.Date && v.Date.Year != 0:
				yy = v.Date.Year
			case v.Kind == quantity.Number && v.YearLike:
				yy = int(v.Num)
			default:
				continue
			}
			if d := math.Abs(float64(yy - y)); d < bestD {
				best, bestD = citedValue{r, v.Value}, d
			}
		}
	}
	return best, !math.IsInf(bestD, 1)
}

// quoteSnippet shortens a snippet for a message.
func quoteSnippet(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 160 {
		s = string(r[:160]) + "…"
	}
	return strconv.Quote(s)
}
