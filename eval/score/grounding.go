package score

import (
	"github.com/searchbench/searchbench/eval/dataset"

	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/pmezard/go-difflib/difflib"
	"golang.org/x/text/unicode/norm"

	"github.com/searchbench/searchbench/eval/stats"
	"github.com/searchbench/searchbench/lib/quantity"
	"github.com/searchbench/searchbench/lib/textdiff"
	"github.com/searchbench/searchbench/orchestrator/answer"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// Grounding judges whether a successful Phase 2 answer came from its own
// turn's search results, as the trace recorded them (trace.Retrieved: the
// canonical URL, title, date and snippet the model was shown):
//
//   - sources_retrieved: every source URL was returned by a search call of
//     the same turn (compared after RFC 3986 normalisation, without
//     fragments and tracking parameters: sameSourceKey);
//   - titles: each retrieved source's title is the retrieved title
//     (normalised; a shortened title such as one without the site suffix
//     passes, another result's title or an unrelated one fails);
//   - published: a source's published date is the retrieved one, when the
//     provider gave a date;
//   - claims: each year, percentage, number and capitalised multi-word name
//     of a bullet appears in the retrieved text (title and snippet) of a
//     source the bullet cites; numbers, amounts, measurements, percentages,
//     days and weeks are compared as values, in any notation (numbers.go).
//     The unsupported share is a measure; a case fails only in the clear
//     cases: a value no cited snippet holds, or holds with another unit,
//     period, scale or currency, or on the other side of a threshold the
//     bullet says was met; an unsupported year; or a token the bullet's
//     sources lack that an uncited result of the same turn has (the bullet
//     cites the wrong source). Each finding names the bullet, the claim's
//     words, the cited source and the closest value it holds;
//   - independence (a measure): bullets whose cited, retrieved sources span
//     at least answer.MinDomains registrable domains.
//
// It is deterministic and needs no cassette: everything comes from the trace.
type Grounding struct{}

// Metrics of the grounding scorer.
const (
	MetricGroundingSources      = "grounding.sources_retrieved"
	MetricGroundingSourcesClean = "grounding.sources_retrieved.clean"
	MetricGroundingTitles       = "grounding.titles"
	MetricGroundingPublished    = "grounding.published"
	MetricGroundingClaims       = "grounding.claims"
	MetricGroundingClaimTokens  = "grounding.claims.supported"
	MetricGroundingIndependence = "grounding.independence"
)

// GroundingMetrics lists every metric the grounding scorer reports.
var GroundingMetrics = []string{
	MetricGroundingSources, MetricGroundingSourcesClean, MetricGroundingTitles, MetricGroundingPublished,
	MetricGroundingClaims, MetricGroundingClaimTokens, MetricGroundingIndependence,
}

// KnownFailureTag marks dataset cases that script a model failure on
// purpose; grounding.sources_retrieved.clean leaves them out.
const KnownFailureTag = "known-failure"

func init() {
	metricNotes[MetricGroundingSources] = "successful Phase 2 answers whose every source URL was returned by a search of the same turn (contract URL canonicalisation)"
	metricNotes[MetricGroundingTitles] = "successful answers whose retrieved sources carry their retrieved title (normalised; a shortened title passes)"
	metricNotes[MetricGroundingPublished] = "successful answers with a source date and a provider date to compare: the calendar dates agree"
	metricNotes[MetricGroundingClaims] = "successful answers with no clear unsupported claim: a number, amount, measurement, percentage, day or week no cited snippet holds in any notation (or holds with another unit, period, scale or currency, or on the other side of a threshold the bullet says was met), a year absent from the cited sources, or a token found only in an uncited result"
}

// Name implements Scorer.
func (Grounding) Name() string { return "grounding" }

// Declare implements Scorer.
func (Grounding) Declare() Declaration {
	return Declaration{Kinds: []string{dataset.KindRouting, dataset.KindFlows}, Measure: false, Metrics: []string{
		MetricGroundingSources,
		MetricGroundingSourcesClean,
		MetricGroundingTitles,
		MetricGroundingPublished,
		MetricGroundingClaims,
		MetricGroundingClaimTokens,
		MetricGroundingIndependence,
	}}
}

// Score implements Scorer. It applies to routing and flows cases with at
// least one successful final answer (error code NONE).
func (Grounding) Score(in *Input) (Result, bool) {
	var checks []Check
	v := map[string]float64{}
	var unsupported []string
	answers := 0
	for _, r := range phase2Turns(in) {
		t := r.T
		if t.Error != "" {
			continue
		}
		env := in.CheckPhase2(t.Output).Envelope
		if env == nil || env.Error.Code != answer.CodeNone || !recordsRetrieval(t) {
			continue
		}
		answers++
		g := groundTurn(t, env)
		name := func(what string) string { return checkName(in, r.N, what) }
		checks = append(checks, g.sourcesCheck(name("sources retrieved")), g.titlesCheck(name("source titles")))
		if c, ok := g.publishedCheck(name("published dates")); ok {
			checks = append(checks, c)
		}
		checks = append(checks, g.claimsCheck(name("claims")))
		v["bullets"] += float64(len(env.Data.Bullets))
		v["independent"] += float64(g.independent)
		v["tokens"] += float64(g.tokens)
		v["supported"] += float64(g.supported)
		for _, b := range g.bullets {
			if len(b.unsupported) > 0 {
				unsupported = append(unsupported, fmt.Sprintf("%s: %s", name(fmt.Sprintf("bullet %d", b.n)), tokenList(b.unsupported)))
			}
		}
	}
	if answers == 0 {
		return Result{}, false
	}
	v["answers"] = float64(answers)
	res := NewResult("grounding", checks...)
	res.Values = v
	if len(unsupported) > 0 {
		res.Attrs = map[string]string{"unsupported": strings.Join(unsupported, "; ")}
	}
	return res, true
}

// recordsRetrieval reports whether t's trace says what its searches
// returned: a search that returned results but recorded none of them comes
// from a trace written before traces kept results (or hand-built without
// them), and cannot be judged. A turn whose searches found nothing is
// judged: every source it cites is then unretrieved.
func recordsRetrieval(t *trace.Turn) bool {
	for _, c := range t.ToolCalls {
		if c.Status == trace.CallOK && c.Results > 0 && len(c.Retrieved) == 0 {
			return false
		}
	}
	return true
}

// grounded is what groundTurn learns about one answer.
type grounded struct {
	env       *answer.Envelope
	retrieved []trace.Retrieved            // every result of the turn's successful calls, in order
	byURL     map[string][]trace.Retrieved // by sameSourceKey
	sources   map[string]answer.Source     // by id
	// missing are the sources whose URL no search of the turn returned.
	missing []answer.Source

	norm map[string]string // normText of the texts compared, memoised
	// srcVals are the values of each retrieved result, memoised (valuesOf).
	srcVals map[string]srcValues
	// normResult is normText(resultText(r)) by r's title and snippet,
	// memoised without building the text to look it up.
	normResult map[[2]string]string

	bullets               []bulletGrounding
	tokens, supported     int
	independent           int
	titleProblems         []string
	titleDiffs            []string
	dateProblems          []string
	datesCompared         int
	claimViolations       []string
	claimViolationBullets []int
}

type bulletGrounding struct {
	n           int // 1-based
	tokens      []claimToken
	unsupported []claimToken
}

// groundTurn compares env with what t retrieved.
func groundTurn(t *trace.Turn, env *answer.Envelope) *grounded {
	g := &grounded{env: env, byURL: map[string][]trace.Retrieved{}, sources: map[string]answer.Source{}}
	for _, c := range t.ToolCalls {
		if c.Status != trace.CallOK {
			continue
		}
		for _, r := range c.Retrieved {
			g.retrieved = append(g.retrieved, r)
			k := sameSourceKey(r.URL)
			g.byURL[k] = append(g.byURL[k], r)
		}
	}
	for _, s := range env.Data.Sources {
		g.sources[s.ID] = s
		if len(g.lookup(s.URL)) == 0 {
			g.missing = append(g.missing, s)
		}
	}
	g.compareTitles()
	g.compareDates()
	g.compareClaims()
	return g
}

// lookup returns the results of the turn whose URL is u's, compared as
// sameSourceKey says (RFC 3986 normalisation, no fragment, no tracking
// parameters).
func (g *grounded) lookup(u string) []trace.Retrieved {
	return g.byURL[sameSourceKey(u)]
}

func (g *grounded) sourcesCheck(name string) Check {
	c := Check{Name: name, Metric: MetricGroundingSources, Pass: len(g.missing) == 0,
		Expected: "every source URL returned by a search of this turn",
		Got:      fmt.Sprintf("%d of %d sources retrieved", len(g.env.Data.Sources)-len(g.missing), len(g.env.Data.Sources))}
	if c.Pass {
		return c
	}
	var reasons, rows []string
	for _, s := range g.missing {
		closest := g.closestURL(s.URL)
		reasons = append(reasons, fmt.Sprintf("source %s %s was never retrieved (closest retrieved URL: %s)", s.ID, s.URL, orNone(closest)))
		rows = append(rows, fmt.Sprintf("source %s: %s", s.ID, s.URL), "  closest retrieved: "+orNone(closest))
		for _, b := range g.citing(s.ID) {
			rows = append(rows, fmt.Sprintf("  cited by bullet %d: %s", b, g.env.Data.Bullets[b-1].Text))
		}
	}
	rows = append(rows, "retrieved in this turn:")
	for _, r := range g.retrieved {
		rows = append(rows, "  "+r.URL)
	}
	c.Reason = strings.Join(reasons, "; ")
	c.Diff = strings.Join(rows, "\n")
	return c
}

// closestURL is the retrieved URL most similar to u: on the same
// registrable domain when there is one, then by difflib's similarity ratio
// over characters; "" when nothing was retrieved.
func (g *grounded) closestURL(u string) string {
	best, bestR := "", -1.0
	a := strings.Split(u, "")
	dom, _ := answer.RegistrableDomain(u)
	for _, r := range g.retrieved {
		x := difflib.NewMatcher(a, strings.Split(r.URL, "")).Ratio()
		if d, err := answer.RegistrableDomain(r.URL); err == nil && dom != "" && d == dom {
			x++ // the same site beats any other
		}
		if x > bestR {
			best, bestR = r.URL, x
		}
	}
	return best
}

// citing returns the 1-based numbers of the bullets citing source id.
func (g *grounded) citing(id string) []int {
	var out []int
	for i, b := range g.env.Data.Bullets {
		if slices.Contains(b.SourceIDs, id) {
			out = append(out, i+1)
		}
	}
	return out
}

func (g *grounded) compareTitles() {
	for _, s := range g.env.Data.Sources {
		rs := g.lookup(s.URL)
		if len(rs) == 0 {
			continue
		}
		ns := normTitle(s.Title)
		ok := false
		for _, r := range rs {
			nr := normTitle(r.Title)
			if ns == nr || (ns != "" && strings.Contains(nr, ns) && utf8.RuneCountInString(ns)*2 >= utf8.RuneCountInString(nr)) || (nr != "" && strings.Contains(ns, nr)) || sameBareTitle(s.Title, r.Title) {
				ok = true
				break
			}
		}
		if ok {
			continue
		}
		msg := fmt.Sprintf("source %s title %q is not the retrieved title %q", s.ID, s.Title, rs[0].Title)
		for _, o := range g.retrieved {
			if o.URL != rs[0].URL && normTitle(o.Title) == ns {
				msg += " (it is the title of another result: " + o.URL + ")"
				break
			}
		}
		g.titleProblems = append(g.titleProblems, msg)
		d := fmt.Sprintf("source %s: %s\n", s.ID, s.URL)
		if m := textdiff.CompareNamed("retrieved", "answer", rs[0].Title, s.Title); m != nil {
			d += m.Diff
		}
		g.titleDiffs = append(g.titleDiffs, strings.TrimRight(d, "\n"))
	}
}

// acronymSupported reports whether a name holding an acronym is supported
// by text: every word is in text, an acronym also counting when text spells
// it out: "EU AI Act" is supported by "European Union … (AI Act)". Only a word of two to six capitals is an
// acronym; its expansion is consecutive capitalised words whose initials
// spell it, with "of", "and", "for", "the" allowed between them.
func acronymSupported(name, text string) bool {
	hay := normText(text)
	var words []string
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) }) {
		words = append(words, w)
	}
	acronyms := 0
	for _, w := range strings.Fields(name) {
		acr := isAcronym(w)
		if acr {
			acronyms++
		}
		if hasWord(hay, normText(w)) || acr && spelledOut(w, words) {
			continue
		}
		return false
	}
	// Without an acronym the name is compared whole (containsResult):
	// words found apart do not make "Rob Pike" out of "Rob" and "Pike".
	return acronyms > 0
}

// hasWord reports whether w occurs in hay as a whole word.
func hasWord(hay, w string) bool {
	for i := 0; ; {
		j := strings.Index(hay[i:], w)
		if j < 0 {
			return false
		}
		j += i
		before, _ := utf8.DecodeLastRuneInString(hay[:j])
		after, _ := utf8.DecodeRuneInString(hay[j+len(w):])
		if (j == 0 || !unicode.IsLetter(before) && !unicode.IsNumber(before)) && (j+len(w) == len(hay) || !unicode.IsLetter(after) && !unicode.IsNumber(after)) {
			return true
		}
		i = j + 1
	}
}

func isAcronym(w string) bool {
	n := utf8.RuneCountInString(w)
	if n < 2 || n > 6 {
		return false
	}
	for _, r := range w {
		if !unicode.IsUpper(r) {
			return false
		}
	}
	return true
}

// acronymJoiners may stand between the words of an expansion.
var acronymJoiners = map[string]bool{"of": true, "and": true, "for": true, "the": true, "on": true, "de": true}

// spelledOut reports whether words hold acr's expansion.
func spelledOut(acr string, words []string) bool {
	letters := []rune(acr)
	for start := range words {
		j, k := 0, start
		for k < len(words) && j < len(letters) {
			r, _ := utf8.DecodeRuneInString(words[k])
			switch {
			case unicode.IsUpper(r) && r == letters[j]:
				j++
			case j > 0 && acronymJoiners[words[k]]:
			default:
				k = len(words) // no match from start
				continue
			}
			k++
		}
		if j == len(letters) {
			return true
		}
	}
	return false
}

// siteSeparators are the separators before a site name in a page title:
// "Title | Site", "Title - Site", "Title — Site", "Title :: Site".
var siteSeparators = []string{" | ", " - ", " — ", " – ", " :: "}

// bareTitle is title without its site suffix: the text before the last
// separator, when there is one and text on both sides of it.
func bareTitle(title string) string {
	t := strings.TrimSpace(title)
	cut := -1
	for _, sep := range siteSeparators {
		if k := strings.LastIndex(t, sep); k > 0 && k+len(sep) < len(t) && k > cut {
			cut = k
		}
	}
	if cut < 0 {
		return t
	}
	return strings.TrimSpace(t[:cut])
}

// sameBareTitle reports whether two titles are the same once either or
// both lose their site suffix, whatever the separator.
func sameBareTitle(a, b string) bool {
	na, nb := normTitle(a), normTitle(b)
	ba, bb := normTitle(bareTitle(a)), normTitle(bareTitle(b))
	return ba != "" && (ba == nb || na == bb || ba == bb)
}

func (g *grounded) titlesCheck(name string) Check {
	c := Check{Name: name, Metric: MetricGroundingTitles, Pass: len(g.titleProblems) == 0,
		Expected: "each retrieved source with its retrieved title"}
	if c.Pass {
		c.Got = "titles match"
		return c
	}
	c.Got = fmt.Sprintf("%d title(s) differ", len(g.titleProblems))
	c.Reason = strings.Join(g.titleProblems, "; ")
	c.Diff = strings.Join(g.titleDiffs, "\n")
	return c
}

func (g *grounded) compareDates() {
	for _, s := range g.env.Data.Sources {
		if strings.TrimSpace(s.Published) == "" {
			continue
		}
		got, ok := calendarDates(s.Published)
		if !ok {
			continue // the contract's RFC 3339 rule reports it
		}
		var provider string
		for _, r := range g.lookup(s.URL) {
			if r.Published != "" {
				provider = r.Published
				break
			}
		}
		want, ok := calendarDates(provider)
		if !ok {
			continue // no date from the provider, or none we can read
		}
		g.datesCompared++
		if !overlap(got, want) {
			g.dateProblems = append(g.dateProblems, fmt.Sprintf("source %s published %s, but the provider dated %s %s", s.ID, s.Published, s.URL, provider))
		}
	}
}

// publishedCheck applies when at least one source date could be compared.
func (g *grounded) publishedCheck(name string) (Check, bool) {
	if g.datesCompared == 0 {
		return Check{}, false
	}
	c := Check{Name: name, Metric: MetricGroundingPublished, Pass: len(g.dateProblems) == 0,
		Expected: "published dates as the provider gave them",
		Got:      fmt.Sprintf("%d of %d dates agree", g.datesCompared-len(g.dateProblems), g.datesCompared)}
	c.Reason = strings.Join(g.dateProblems, "; ")
	return c, true
}

// dateLayouts are the forms providers write dates in: RFC 3339 (Exa,
// with or without fractions), RFC 1123 (Tavily news), a bare date.
var dateLayouts = []string{time.RFC3339Nano, time.RFC1123Z, time.RFC1123, "2006-01-02T15:04:05", "2006-01-02"}

// calendarDates reads a timestamp and returns its calendar date as written
// and in UTC (they differ near midnight), so that two timestamps of the
// same moment written in different offsets agree.
func calendarDates(s string) ([2]string, bool) {
	s = strings.TrimSpace(s)
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return [2]string{t.Format(time.DateOnly), t.UTC().Format(time.DateOnly)}, true
		}
	}
	return [2]string{}, false
}

func overlap(a, b [2]string) bool {
	return a[0] == b[0] || a[0] == b[1] || a[1] == b[0] || a[1] == b[1]
}

// Kinds of claim tokens.
const (
	tokYear    = "year"
	tokPercent = "percentage"
	tokNumber  = "number"
	tokName    = "name"
)

type claimToken struct {
	Text, Kind string
}

// The tokens claimTokens extracts are those of these regular expressions
// (FindAll, leftmost first), matched by hand: scanning every bullet of
// every case with the regexp package was most of the scorer's time.
// TestClaimTokensMatchRegexps and FuzzClaimTokens check the two agree.
//
//	percentage: \d+(?:[.,]\d+)?\s?(?:%|per ?cent\b)
//	number:     \d[\d,]*(?:\.\d+)?
//	year:       ^(1[5-9]\d\d|20\d\d)$
//	word:       [\p{L}][\p{L}\p{N}'’.&-]*

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// digitsEnd returns the end of the run of ASCII digits from s[i].
func digitsEnd(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

// percentAt returns the end of the percentage starting at s[i], or -1.
// A shorter run of leading digits never matches where the whole run does
// not (a digit follows it), so only the optional decimal part is tried
// both ways.
func percentAt(s string, i int) int {
	if i >= len(s) || !isDigit(s[i]) {
		return -1
	}
	j := digitsEnd(s, i)
	if j+1 < len(s) && (s[j] == '.' || s[j] == ',') && isDigit(s[j+1]) {
		if e := percentSuffix(s, digitsEnd(s, j+1)); e >= 0 {
			return e
		}
	}
	return percentSuffix(s, j)
}

// percentSuffix matches \s?(?:%|per ?cent\b) at s[i]. Without the optional
// space the next byte would be a space, which starts neither alternative.
func percentSuffix(s string, i int) int {
	if i < len(s) && isRESpace(s[i]) {
		i++
	}
	switch {
	case i < len(s) && s[i] == '%':
		return i + 1
	case strings.HasPrefix(s[i:], "per cent") && !isWordByte(s, i+8):
		return i + 8
	case strings.HasPrefix(s[i:], "percent") && !isWordByte(s, i+7):
		return i + 7
	}
	return -1
}

// isRESpace is the regexp package's \s: [\t\n\f\r ].
func isRESpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// isWordByte reports whether s[i] is an ASCII word character, as \b sees
// it ([0-9A-Za-z_]); false past the end.
func isWordByte(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	c := s[i]
	return isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

// numberAt returns the end of the number starting at s[i] (a digit).
func numberAt(s string, i int) int {
	j := i + 1
	for j < len(s) && (isDigit(s[j]) || s[j] == ',') {
		j++
	}
	if j+1 < len(s) && s[j] == '.' && isDigit(s[j+1]) {
		return digitsEnd(s, j+1)
	}
	return j
}

func isYear(m string) bool {
	return len(m) == 4 && isDigit(m[2]) && isDigit(m[3]) &&
		(m[0] == '1' && m[1] >= '5' && m[1] <= '9' || m[0] == '2' && m[1] == '0')
}

// wordEnd returns the end of the word starting at s[i], or -1 when s[i]
// starts no word (is not a letter). Invalid UTF-8 decodes to U+FFFD,
// which, as for the regexp package, is no letter and ends a word.
func wordEnd(s string, i int) int {
	r, size := utf8.DecodeRuneInString(s[i:])
	if !unicode.IsLetter(r) {
		return -1
	}
	for i += size; i < len(s); i += size {
		r, size = utf8.DecodeRuneInString(s[i:])
		if !unicode.IsLetter(r) && !unicode.IsNumber(r) && !strings.ContainsRune("'’.&-", r) {
			break
		}
	}
	return i
}

// nameStop are capitalised words that start sentences or join names
// without being part of one.
var nameStop = map[string]bool{"The": true, "A": true, "An": true, "In": true, "On": true, "At": true, "By": true, "For": true, "It": true, "Its": true, "This": true, "That": true, "These": true, "Those": true, "As": true, "Since": true, "After": true, "Before": true, "When": true, "While": true, "From": true, "With": true, "And": true, "But": true, "Or": true, "Of": true, "To": true, "He": true, "She": true, "They": true, "We": true, "His": true, "Her": true, "Their": true, "Our": true, "Some": true, "Most": true, "Many": true}

// claimTokens extracts the checkable tokens of a bullet: percentages,
// years, other numbers of two or more digits, and runs of two or more
// capitalised words (a name), each once, in order.
func claimTokens(text string) []claimToken {
	var out []claimToken
	seen := map[string]bool{}
	add := func(t claimToken) {
		if !seen[t.Text] {
			seen[t.Text] = true
			out = append(out, t)
		}
	}
	rest := text
	for i := 0; i < len(text); {
		e := percentAt(text, i)
		if e < 0 {
			i++
			continue
		}
		m := text[i:e]
		add(claimToken{m, tokPercent})
		rest = strings.Replace(rest, m, " ", 1)
		i = e
	}
	for i := 0; i < len(rest); {
		if !isDigit(rest[i]) {
			i++
			continue
		}
		e := numberAt(rest, i)
		m := strings.TrimRight(rest[i:e], ",.")
		i = e
		switch {
		case isYear(m):
			add(claimToken{m, tokYear})
		case len(strings.Trim(m, ",.")) >= 2:
			add(claimToken{m, tokNumber})
		}
	}
	var run []string
	flush := func() {
		for len(run) > 0 && nameStop[run[0]] {
			run = run[1:]
		}
		if len(run) >= 2 {
			add(claimToken{strings.Join(run, " "), tokName})
		}
		run = run[:0]
	}
	lastEnd := 0
	for i := 0; i < len(text); {
		end := wordEnd(text, i)
		if end < 0 {
			_, size := utf8.DecodeRuneInString(text[i:])
			i += size
			continue
		}
		loc := [2]int{i, end}
		i = end
		w := strings.TrimRight(text[loc[0]:loc[1]], ".’'")
		r, _ := utf8.DecodeRuneInString(w)
		// Only spaces may separate the words of a name: "Isar, Emsland"
		// is two names.
		if strings.TrimSpace(text[lastEnd:loc[0]]) != "" {
			flush() // a no-op on an empty run
		}
		lastEnd = loc[1]
		if unicode.IsUpper(r) {
			run = append(run, w)
			if strings.HasSuffix(text[loc[0]:loc[1]], ".") && !isInitial(w) {
				flush()
			}
			continue
		}
		flush()
	}
	flush()
	return out
}

// isInitial reports an initial such as "J" in "J. Smith".
func isInitial(w string) bool { return utf8.RuneCountInString(w) == 1 }

// normText folds text for containment: NFKC, case, typographic quotes and
// dashes, whitespace runs.
func normText(s string) string {
	if f, ok := foldASCII(s, false); ok {
		return f
	}
	s = norm.NFKC.String(s)
	s = typographic.Replace(s)
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// typographic folds typographic quotes, dashes and no-break spaces.
var typographic = strings.NewReplacer("’", "'", "‘", "'", "“", `"`, "”", `"`, "–", "-", "—", "-", "\u00a0", " ")

// normTitle is normText without punctuation, so "Title | Site" and
// "Title - Site" compare on their words.
func normTitle(s string) string {
	if f, ok := foldASCII(s, true); ok {
		return f
	}
	s = normText(s)
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) }), " ")
}

// foldASCII is normText (words true: normTitle) for a string of ASCII
// alone, in one pass: NFKC and the typographic folds leave ASCII as it is,
// so folding is lower-casing and collapsing whitespace (for a title, any
// byte but a letter or digit) to single spaces. ok is false for any other
// string.
func foldASCII(s string, words bool) (string, bool) {
	var b strings.Builder
	gap := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return "", false
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		sep := c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
		if words {
			sep = !('a' <= c && c <= 'z' || '0' <= c && c <= '9')
		}
		if sep {
			gap = true
			continue
		}
		if b.Len() == 0 {
			b.Grow(len(s) - i)
		} else if gap {
			b.WriteByte(' ')
		}
		gap = false
		b.WriteByte(c)
	}
	return b.String(), true
}

// contains reports whether token t occurs in text (both folded by
// normText). Numbers and years must stand alone: "2019" is not in "20190".
func contains(text string, t claimToken) bool {
	return containsNorm(normText(text), normText(t.Text), t.Kind)
}

// containsNorm is contains on texts already folded by normText.
func containsNorm(hay, needle, kind string) bool {
	for i := 0; ; {
		j := strings.Index(hay[i:], needle)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(needle)
		if kind == tokName || (!digitAt(hay, j-1) && !digitAt(hay, end)) {
			return true
		}
		i = j + 1
	}
}

func digitAt(s string, i int) bool { return i >= 0 && i < len(s) && s[i] >= '0' && s[i] <= '9' }

func resultText(r trace.Retrieved) string { return r.Title + "\n" + r.Snippet }

// containsResult is contains(resultText(r), t), with every text folded
// once per turn: a result is searched for each claim token of each bullet.
func (g *grounded) containsResult(r trace.Retrieved, t claimToken) bool {
	k := [2]string{r.Title, r.Snippet}
	f, ok := g.normResult[k]
	if !ok {
		if g.normResult == nil {
			g.normResult = map[[2]string]string{}
		}
		f = normText(resultText(r))
		g.normResult[k] = f
	}
	return containsNorm(f, g.folded(t.Text), t.Kind)
}

func (g *grounded) folded(s string) string {
	if f, ok := g.norm[s]; ok {
		return f
	}
	if g.norm == nil {
		g.norm = map[string]string{}
	}
	f := normText(s)
	g.norm[s] = f
	return f
}

func (g *grounded) compareClaims() {
	for i, b := range g.env.Data.Bullets {
		bg := bulletGrounding{n: i + 1, tokens: claimTokens(b.Text)}
		var cited []trace.Retrieved
		citedURL := map[string]bool{}
		domains := map[string]bool{}
		for _, id := range b.SourceIDs {
			s, ok := g.sources[id]
			if !ok {
				continue
			}
			rs := g.lookup(s.URL)
			cited = append(cited, rs...)
			if len(rs) > 0 {
				citedURL[rs[0].URL] = true
				if d, err := answer.RegistrableDomain(rs[0].URL); err == nil {
					domains[d] = true
				}
			}
		}
		if len(domains) >= answer.MinDomains {
			g.independent++
		}
		clear, valued := g.checkValues(b.Text, cited)
		for _, tok := range bg.tokens {
			g.tokens++
			if slices.ContainsFunc(cited, func(r trace.Retrieved) bool { return g.containsResult(r, tok) }) || valued.supports(tok) ||
				(tok.Kind == tokName && slices.ContainsFunc(cited, func(r trace.Retrieved) bool { return acronymSupported(tok.Text, resultText(r)) })) {
				g.supported++
				continue
			}
			bg.unsupported = append(bg.unsupported, tok)
			var elsewhere []string
			for _, r := range g.retrieved {
				if !citedURL[r.URL] && g.containsResult(r, tok) && !slices.Contains(elsewhere, r.URL) {
					elsewhere = append(elsewhere, r.URL)
				}
			}
			at := max(0, strings.Index(b.Text, tok.Text))
			words := " — claim: " + strconv.Quote(claimWords(b.Text, at, min(len(b.Text), at+len(tok.Text))))
			switch {
			case valued.reported(tok):
				// checkValues named it, with the snippet
			case len(elsewhere) > 0:
				clear = append(clear, fmt.Sprintf("%s %q is not in its cited sources but is in uncited %s", tok.Kind, tok.Text, strings.Join(elsewhere, ", "))+words)
			case tok.Kind == tokYear || tok.Kind == tokPercent:
				clear = append(clear, fmt.Sprintf("%s %q appears in no cited source", tok.Kind, tok.Text)+g.closestTo(tok, cited)+words)
			}
		}
		if len(clear) > 0 {
			g.claimViolations = append(g.claimViolations, fmt.Sprintf("bullet %d: %s", i+1, strings.Join(clear, "; ")))
			g.claimViolationBullets = append(g.claimViolationBullets, i)
		}
		g.bullets = append(g.bullets, bg)
	}
}

// closestTo names the cited value closest to an unsupported year or
// percentage token, with its source and snippet.
func (g *grounded) closestTo(tok claimToken, cited []trace.Retrieved) string {
	if len(cited) == 0 {
		return ""
	}
	var best citedValue
	found := false
	if y, err := strconv.Atoi(tok.Text); err == nil && tok.Kind == tokYear {
		best, found = g.closestYear(cited, y)
	} else if v, ok := quantity.Parse(tok.Text); ok {
		c := claimValue{Value: v}
		bestD := math.Inf(1)
		for _, r := range cited {
			for _, s := range g.valuesOf(r).vals {
				if d := distance(c, s.Value); d < bestD {
					best, bestD, found = citedValue{r, s.Value}, d, true
				}
			}
		}
	}
	if !found {
		return ": the cited snippets have no " + tok.Kind + ": " + g.citedSnippets(cited)
	}
	return fmt.Sprintf(" (closest cited: %q in %s, snippet %s)", best.v.Text, best.r.URL, quoteSnippet(best.r.Snippet))
}

// valueCheck is what checkValues found in one bullet: the numbers and
// dates of the claim, read as values, and which of them the cited snippets
// support.
type valueCheck struct {
	supported, unsupported []string // normText of the quantities' and dates' texts
}

// supports reports whether tok, a number or percentage token, is part of
// a quantity or date the cited sources support by value ("20 percent"
// against "20%", "175B" against "175 billion").
func (v valueCheck) supports(tok claimToken) bool {
	return v.covers(v.supported, tok)
}

// reported reports whether tok is part of a quantity or date checkValues
// already reported as unsupported.
func (v valueCheck) reported(tok claimToken) bool {
	return v.covers(v.unsupported, tok)
}

func (valueCheck) covers(texts []string, tok claimToken) bool {
	if tok.Kind != tokNumber && tok.Kind != tokPercent && tok.Kind != tokYear {
		return false
	}
	t := normText(tok.Text)
	for _, s := range texts {
		if containsNorm(s, t, tokNumber) || containsNorm(t, s, tokNumber) {
			return true
		}
	}
	return false
}

// checkValues checks every number and date of a bullet's text against the
// cited results, as values (numbers.go): a number must agree with a value
// of a cited snippet within the claim's own precision, in any notation; a
// day or a week must be a date of a cited snippet. Each mismatch is a
// clear violation that names the claim's value and words, the cited
// source and the closest value it holds: a unit, currency, period or scale
// changed without converting, a rounding that crosses the threshold the
// bullet says was met, or a value the sources do not have.
func (g *grounded) checkValues(text string, cited []trace.Retrieved) ([]string, valueCheck) {
	var clear []string
	var v valueCheck
	if len(cited) == 0 {
		return nil, v // nothing retrieved to compare with: sources_retrieved fails
	}
	for _, c := range claimValues(text) {
		msg, ok := g.checkValue(c, cited)
		if ok {
			v.supported = append(v.supported, normText(c.Text))
			continue
		}
		if c.soft {
			continue
		}
		v.unsupported = append(v.unsupported, normText(c.Text))
		clear = append(clear, msg+" — claim: "+strconv.Quote(c.words))
	}
	return clear, v
}

// checkValue compares one claim value with the cited results' values; ok
// reports that one supports it, else msg says why not.
//
// A claim that a threshold was met or missed ("the 50% target was met") is
// held to its side of it: a cited value that rounds to the threshold but
// lies on the other side (49.6%) does not support it, and the snippet's
// mention of the target itself ("short of the 50% quorum") supports it
// only when the snippet says the same of it.
func (g *grounded) checkValue(c claimValue, cited []trace.Retrieved) (msg string, ok bool) {
	var flip, denied *citedValue
	var slipped []string
	best, bestD := citedValue{}, math.Inf(1)
	for _, r := range cited {
		sv := g.valuesOf(r)
		if c.dir != 0 {
			sv = g.withMarks(r)
		}
		for _, s := range sv.candidates(c) {
			a, cv, sv := agreement(c, s.Value)
			if supports(a) {
				switch {
				case c.dir != 0 && s.target && s.dir == -c.dir:
					if denied == nil {
						denied = &citedValue{r, s.Value}
					}
					continue
				case c.dir != 0 && s.target && s.dir != c.dir:
					continue // the target named, not said to be met
				case c.dir != 0 && wrongSide(c.dir, cv, sv):
					if flip == nil {
						flip = &citedValue{r, s.Value}
					}
					continue
				}
				return "", true
			}
			if d := distance(c, s.Value); d < bestD {
				best, bestD = citedValue{r, s.Value}, d
			}
			if why := slip(c, s.Value); why != "" {
				slipped = append(slipped, fmt.Sprintf("the snippet says %s; the bullet says %s (%s; source %s)", shown(s.Value), shown(c.Value), why, r.URL))
			}
		}
	}
	side := "below"
	if c.dir < 0 {
		side = "above"
	}
	switch {
	case flip != nil:
		return fmt.Sprintf("the snippet says %s, %s the %s the bullet says %s (source %s)", shown(flip.v), side, shown(c.Value), c.said, flip.r.URL), false
	case denied != nil:
		return fmt.Sprintf("the snippet says it is %s the %s; the bullet says it %s (source %s)", side, shown(denied.v), c.said, denied.r.URL), false
	case len(slipped) > 0:
		return slipped[0], false
	case c.Kind == quantity.Date:
		return g.dateFinding(c, cited, best, bestD), false
	}
	kind := valueKind(c.Value)
	msg = fmt.Sprintf("%s %q is not in its cited sources", kind, c.Text)
	elsewhere := g.uncitedWith(cited, c)
	if len(elsewhere) > 0 {
		msg += " but is in uncited " + strings.Join(elsewhere, ", ")
	}
	switch {
	case !math.IsInf(bestD, 1):
		msg += fmt.Sprintf(" (closest cited: %q in %s, snippet %s)", shown(best.v), best.r.URL, quoteSnippet(best.r.Snippet))
	case len(elsewhere) > 0:
		msg += " (the cited snippets have no " + kind + ")"
	default:
		msg += ": the cited snippets have no " + kind + ": " + g.citedSnippets(cited)
	}
	return msg, false
}

// dateFinding says why a claimed day or week is not a date of its cited
// sources: naming the cited dates of its year (or, without a year, of its
// month), else the closest cited date.
func (g *grounded) dateFinding(c claimValue, cited []trace.Retrieved, best citedValue, bestD float64) string {
	d := c.Date
	var near []string
	for _, r := range cited {
		for _, s := range g.valuesOf(r).vals {
			if s.Kind != quantity.Date {
				continue
			}
			if s.Date.Year == d.Year && d.Year != 0 || d.Year == 0 && d.Prec == quantity.PrecDay && s.Date.Month == d.Month {
				near = append(near, fmt.Sprintf("%s says %q (%s)", r.URL, s.Text, s.Date))
			}
		}
	}
	what := fmt.Sprintf("date %q (%s)", c.Text, d)
	switch {
	case len(near) > 0:
		return what + " is not the date of its cited sources: " + strings.Join(near, "; ")
	case !math.IsInf(bestD, 1):
		return fmt.Sprintf("%s is in no cited snippet (closest cited: %q in %s, snippet %s)", what, best.v.Text, best.r.URL, quoteSnippet(best.r.Snippet))
	}
	return what + " is in no cited snippet: " + g.citedSnippets(cited)
}

// uncitedWith lists the retrieved results, not cited, with a value that
// supports c.
func (g *grounded) uncitedWith(cited []trace.Retrieved, c claimValue) []string {
	var out []string
	for _, r := range g.retrieved {
		if slices.ContainsFunc(cited, func(x trace.Retrieved) bool { return x.URL == r.URL }) || slices.Contains(out, r.URL) {
			continue
		}
		sv := g.valuesOf(r)
		if c.dir != 0 {
			sv = g.withMarks(r)
		}
		if slices.ContainsFunc(sv.candidates(c), func(s srcValue) bool {
			a, cv, sv := agreement(c, s.Value)
			return supports(a) && !(c.dir != 0 && (wrongSide(c.dir, cv, sv) || s.target && s.dir != c.dir))
		}) {
			out = append(out, r.URL)
		}
	}
	return out
}

// snippetOf quotes the snippet of the cited result at url.
func (g *grounded) snippetOf(cited []trace.Retrieved, url string) string {
	for _, r := range cited {
		if r.URL == url {
			return quoteSnippet(r.Snippet)
		}
	}
	return `""`
}

// citedSnippets names each distinct cited result with its snippet.
func (g *grounded) citedSnippets(cited []trace.Retrieved) string {
	var parts []string
	seen := map[string]bool{}
	for _, r := range cited {
		if seen[r.URL] {
			continue
		}
		seen[r.URL] = true
		parts = append(parts, r.URL+" "+quoteSnippet(r.Snippet))
	}
	return strings.Join(parts, "; ")
}

func (g *grounded) claimsCheck(name string) Check {
	c := Check{Name: name, Metric: MetricGroundingClaims, Pass: len(g.claimViolations) == 0,
		Expected: "each bullet's years, percentages, numbers and names in the retrieved text of a source it cites"}
	c.Got = fmt.Sprintf("%d of %d tokens supported", g.supported, g.tokens)
	if c.Pass {
		return c
	}
	c.Reason = strings.Join(g.claimViolations, "; ")
	var rows []string
	for _, i := range g.claimViolationBullets {
		b := g.env.Data.Bullets[i]
		rows = append(rows, fmt.Sprintf("bullet %d: %s", i+1, b.Text))
		rows = append(rows, "  unsupported: "+tokenList(g.bullets[i].unsupported))
		for _, id := range b.SourceIDs {
			s, ok := g.sources[id]
			if !ok {
				rows = append(rows, fmt.Sprintf("  cites %s: no such source", id))
				continue
			}
			rs := g.lookup(s.URL)
			if len(rs) == 0 {
				rows = append(rows, fmt.Sprintf("  cites %s %s: not retrieved in this turn", id, s.URL))
				continue
			}
			rows = append(rows, fmt.Sprintf("  cites %s %s", id, s.URL), "    retrieved title: "+rs[0].Title, "    retrieved text:  "+rs[0].Snippet)
		}
	}
	c.Diff = strings.Join(rows, "\n")
	return c
}

func tokenList(ts []claimToken) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = strconv.Quote(t.Text) + " (" + t.Kind + ")"
	}
	return strings.Join(parts, ", ")
}

// NewAggregator implements Scorer.
func (Grounding) NewAggregator() Aggregator { return &groundingAgg{} }

type groundingAgg struct {
	Rates
	added                                   bool
	bullets, independent, tokens, supported float64
	cleanNum, cleanDen                      int
}

func (a *groundingAgg) Add(c CaseInfo, r Result) {
	a.added = true
	a.Rates.Add(c, r)
	a.bullets += r.Values["bullets"]
	a.independent += r.Values["independent"]
	a.tokens += r.Values["tokens"]
	a.supported += r.Values["supported"]
	if !slices.Contains(c.Tags, KnownFailureTag) {
		if pass, ok := r.Outcomes()[MetricGroundingSources]; ok {
			a.cleanDen++
			if pass {
				a.cleanNum++
			}
		}
	}
}

func (a *groundingAgg) Summary() Summary {
	if !a.added {
		return Summary{}
	}
	ms := a.Rates.Metrics()
	clean := RateMetric(MetricGroundingSourcesClean, a.cleanNum, a.cleanDen, false)
	clean.Note = "grounding.sources_retrieved over the cases not tagged " + KnownFailureTag + " (those script ungrounded answers on purpose)"
	tokens := shareMetric(MetricGroundingClaimTokens, int(a.supported), int(a.tokens),
		"Σ supported / Σ claim tokens (years, percentages, numbers, names) of bullets in successful answers; tokens of one answer are not independent, so the interval is optimistic")
	indep := shareMetric(MetricGroundingIndependence, int(a.independent), int(a.bullets),
		"Σ bullets whose cited sources that the turn retrieved span ≥ 2 registrable domains / Σ bullets; bullets of one answer are not independent, so the interval is optimistic")
	if a.cleanDen > 0 {
		ms = append(ms, clean)
	}
	for _, m := range []Metric{tokens, indep} {
		if m.Den > 0 {
			ms = append(ms, m)
		}
	}
	slices.SortStableFunc(ms, func(x, y Metric) int { return strings.Compare(x.Name, y.Name) })
	return Summary{Metrics: ms}
}

// shareMetric is a rate over units that are not cases (bullets, tokens):
// not paired, with its Wilson interval and a note saying so.
func shareMetric(name string, num, den int, note string) Metric {
	lo, hi := stats.Wilson(num, den)
	return Metric{Name: name, Value: stats.Ratio(num, den), Unit: UnitRate, Better: HigherIsBetter,
		Num: num, Den: den, Lo: lo, Hi: hi, Note: note}
}
