package score

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/eval/stats"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// Routing judges the route a routing case's Phase 2 turn took: the tools
// the model asked for against the case's label, and for tavily_plus_exa
// whether Exa was asked first, as the seed prescribes.
type Routing struct{}

// Metrics of the routing scorer.
const (
	MetricRoutingAccuracy = "routing.accuracy"
	MetricRoutingExaFirst = "routing.exa_first"
)

// Name implements Scorer.
func (Routing) Name() string { return "routing" }

// Declare implements Scorer.
func (Routing) Declare() Declaration {
	return Declaration{Kinds: []string{dataset.KindRouting}, Measure: false, Metrics: []string{
		MetricRoutingAccuracy,
		MetricRoutingExaFirst,
		"routing.f1.{route}",
		"routing.macro_f1",
		"routing.precision.{route}",
		"routing.recall.{route}",
	}}
}

// Score implements Scorer. It applies to routing cases.
func (Routing) Score(in *Input) (Result, bool) {
	if in.Case == nil || in.Case.Kind != dataset.KindRouting {
		return Result{}, false
	}
	label := in.Case.Label
	ts := sessionTurns(in)
	if len(ts) == 0 {
		return NewResult("routing", Check{Name: "route", Metric: MetricRoutingAccuracy,
			Expected: label, Got: "no turn", Reason: "the session recorded no turn"}), true
	}
	t := ts[0].T
	for _, r := range ts {
		if r.T.Phase == trace.Phase2 {
			t = r.T
			break
		}
	}
	got := orNone(t.Route)
	var reason string
	switch {
	case t.Error != "":
		reason = turnFailed(t)
	case t.Phase != trace.Phase2:
		reason = fmt.Sprintf("the turn ran %s, not Phase 2, so no tools were offered", t.Phase)
	default:
		reason = fmt.Sprintf("the model chose %s; %s", got, describeCalls(t.ToolCalls))
	}
	checks := []Check{passFail("route", MetricRoutingAccuracy, got == label, label, got, reason)}

	if label == trace.RouteTavilyPlusExa && got == trace.RouteTavilyPlusExa {
		checks = append(checks, exaFirstCheck(t.ToolCalls))
	}
	return NewResult("routing", checks...), true
}

// exaFirstCheck checks that the first Exa call precedes the first Tavily
// call, by round and then by position in the round.
func exaFirstCheck(calls []trace.ToolCall) Check {
	c := Check{Name: "exa before tavily", Metric: MetricRoutingExaFirst, Expected: "exa_search first"}
	exa, tav := firstCall(calls, trace.ToolExa), firstCall(calls, trace.ToolTavily)
	if exa < 0 || tav < 0 {
		c.Got, c.Reason = "inconsistent trace", "the turn's route is tavily_plus_exa but its tool calls lack one of the tools; "+describeCalls(calls)
		return c
	}
	e, v := calls[exa], calls[tav]
	c.Pass = e.Round < v.Round || (e.Round == v.Round && exa < tav)
	if c.Pass {
		c.Got = "exa_search first"
		return c
	}
	c.Got = "tavily_search first"
	c.Reason = fmt.Sprintf("the first tavily_search call (round %d, call %d) precedes the first exa_search call (round %d, call %d); the seed asks for Exa first on mixed queries",
		v.Round, tav+1, e.Round, exa+1)
	return c
}

// firstCall returns the index of the first call to tool, or -1.
func firstCall(calls []trace.ToolCall, tool string) int {
	return slices.IndexFunc(calls, func(c trace.ToolCall) bool { return c.Tool == tool })
}

// NewAggregator implements Scorer.
func (Routing) NewAggregator() Aggregator { return &routingAgg{confusion: map[[2]string]int{}} }

type routingAgg struct {
	Rates
	confusion map[[2]string]int // {expected, got} → samples
	// The samples of one case arrive together: cur counts the current
	// case's, per label, until the next case flushes them into the
	// per-label moments, so a sampled run's precision, recall and F1 get
	// intervals over cases (its samples are not independent draws), in
	// constant memory.
	curKey     string
	curSamples int
	sampled    bool // some case had several samples
	cur        map[string]*labelCounts
	prec       map[string]*stats.Moments
	rec        map[string]*stats.Moments
	f1         map[string]*stats.Moments
}

// labelCounts are one case's samples of one label.
type labelCounts struct{ tp, fp, fn int }

func (a *routingAgg) Add(c CaseInfo, r Result) {
	a.Rates.Add(c, r)
	if c.Key != a.curKey {
		a.flush()
		a.curKey = c.Key
	}
	a.curSamples++
	for _, ch := range r.Checks {
		if ch.Name != "route" {
			continue
		}
		a.confusion[[2]string{ch.Expected, ch.Got}]++
		if a.cur == nil {
			a.cur = map[string]*labelCounts{}
		}
		count := func(l string) *labelCounts {
			if a.cur[l] == nil {
				a.cur[l] = &labelCounts{}
			}
			return a.cur[l]
		}
		if ch.Expected == ch.Got {
			count(ch.Expected).tp++
		} else {
			count(ch.Got).fp++
			count(ch.Expected).fn++
		}
	}
}

// flush adds the current case's per-label counts to the moments.
func (a *routingAgg) flush() {
	a.sampled = a.sampled || a.curSamples > 1
	a.curSamples = 0
	if len(a.cur) == 0 {
		return
	}
	if a.prec == nil {
		a.prec, a.rec, a.f1 = map[string]*stats.Moments{}, map[string]*stats.Moments{}, map[string]*stats.Moments{}
	}
	add := func(m map[string]*stats.Moments, l string, c stats.Cluster) {
		if m[l] == nil {
			m[l] = &stats.Moments{}
		}
		m[l].Add(c)
	}
	for l, c := range a.cur {
		add(a.prec, l, stats.Cluster{Pass: c.tp, N: c.tp + c.fp})
		add(a.rec, l, stats.Cluster{Pass: c.tp, N: c.tp + c.fn})
		// F1 = 2TP / (2TP + FP + FN): a ratio of sums over cases too.
		add(a.f1, l, stats.Cluster{Pass: 2 * c.tp, N: 2*c.tp + c.fp + c.fn})
	}
	clear(a.cur)
}

// clustered replaces m's Wilson interval over samples with the interval
// over cases of moments, when some case had several samples.
func (a *routingAgg) clustered(m Metric, mo *stats.Moments) Metric {
	if mo == nil || !a.sampled {
		return m
	}
	m.Lo, m.Hi = mo.Interval()
	m.Cases = mo.Cases()
	return m
}

func (a *routingAgg) Summary() Summary {
	a.flush()
	s := Summary{Metrics: a.Metrics()}
	if len(a.confusion) == 0 {
		return s
	}
	// Rows: every route label, then any other expected value seen; columns:
	// none, every route label, then anything else the model produced.
	rows := slices.Clone(dataset.RouteLabels)
	cols := append([]string{trace.RouteNone}, dataset.RouteLabels...)
	for k := range a.confusion {
		if !slices.Contains(rows, k[0]) {
			rows = append(rows, k[0])
		}
		if !slices.Contains(cols, k[1]) {
			cols = append(cols, k[1])
		}
	}
	slices.Sort(rows[len(dataset.RouteLabels):])
	slices.Sort(cols[len(dataset.RouteLabels)+1:])

	matrix := Table{Title: "Routing confusion matrix", Header: append([]string{"expected \\ got"}, cols...),
		Notes: []string{"Rows are the labelled routes, columns the routes taken; the diagonal is correct."}}
	for _, r := range rows {
		row := []string{r}
		for _, c := range cols {
			row = append(row, strconv.Itoa(a.confusion[[2]string{r, c}]))
		}
		matrix.Rows = append(matrix.Rows, row)
	}

	prf := Table{Title: "Routing per label", Header: []string{"label", "support", "precision", "recall", "F1"}}
	var f1s []float64
	for _, l := range dataset.RouteLabels {
		var tp, fp, fn int
		for k, n := range a.confusion {
			switch {
			case k[0] == l && k[1] == l:
				tp += n
			case k[1] == l:
				fp += n
			case k[0] == l:
				fn += n
			}
		}
		if tp+fp+fn == 0 {
			continue // neither labelled nor predicted: nothing to say
		}
		// A precision or recall with nothing to divide by is undefined: it
		// is left out (and shown as –) rather than reported as 0.
		p, rc, f1 := stats.PRF(tp, fp, fn)
		row := []string{l, strconv.Itoa(tp + fn), "–", "–", fmt.Sprintf("%.3f", f1)}
		if tp+fp > 0 {
			s.Metrics = append(s.Metrics, a.clustered(RateMetric("routing.precision."+l, tp, tp+fp, false), a.prec[l]))
			row[2] = fmt.Sprintf("%.3f", p)
		}
		if tp+fn > 0 {
			s.Metrics = append(s.Metrics, a.clustered(RateMetric("routing.recall."+l, tp, tp+fn, false), a.rec[l]))
			row[3] = fmt.Sprintf("%.3f", rc)
		}
		s.Metrics = append(s.Metrics, a.clustered(Metric{Name: "routing.f1." + l, Value: f1, Unit: UnitScore, Better: HigherIsBetter}, a.f1[l]))
		// Macro-F1 averages the labels the cases carry. A label that is
		// only predicted has F1 0 by definition, so one stray prediction
		// would halve the macro figure of a one-label subset (1.000 →
		// 0.496 for one case in 60); its cost already shows in that
		// label's precision and the true label's recall.
		if tp+fn > 0 {
			f1s = append(f1s, f1)
		}
		prf.Rows = append(prf.Rows, row)
	}
	if len(f1s) > 0 {
		s.Metrics = append(s.Metrics, Metric{Name: "routing.macro_f1", Value: stats.Mean(f1s), Unit: UnitScore,
			Better: HigherIsBetter, Note: fmt.Sprintf("unweighted mean of per-label F1 over the %d route labels some case carries", len(f1s))})
		prf.Notes = append(prf.Notes, fmt.Sprintf("macro-F1 %.3f over %d label(s); precision counts every case routed to the label, recall every case labelled with it", stats.Mean(f1s), len(f1s)))
	}
	slices.SortFunc(s.Metrics, func(x, y Metric) int { return cmp.Compare(x.Name, y.Name) })
	s.Tables = []Table{matrix, prf}
	return s
}
