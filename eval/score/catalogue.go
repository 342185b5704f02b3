package score

import (
	"slices"
	"strings"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/lib/problem"
)

// Declaration is what a scorer promises before it sees any case: the
// dataset kinds it may apply to, whether it only measures, and every metric
// it can report. The gate checks a gates file against the declared metrics
// (not against whatever one run happened to produce), and the JUnit report
// gives every case one testcase per scorer that may apply to its kind, so
// testcase names do not come and go between runs.
type Declaration struct {
	Kinds   []string
	Measure bool
	// Metrics are metric names; a segment in braces stands for any value
	// of a set (see Placeholders): "routing.recall.{route}".
	Metrics []string
	// Invariants are the metrics among Metrics that check what the app
	// enforces whatever the model does (a valid envelope, the phase
	// routing, the search limits): one failure of one case is a bug, not a
	// draw, so the gate judges them case by case even on one sample. The
	// other metrics of a case that calls the model measure its behaviour,
	// which varies from one draw to the next.
	Invariants []string
}

// Invariants returns the set of metrics ss declare as invariants.
func Invariants(ss []Scorer) map[string]bool {
	out := map[string]bool{}
	for _, s := range ss {
		for _, m := range s.Declare().Invariants {
			out[m] = true
		}
	}
	return out
}

// Placeholders are the sets a metric name segment in braces ranges over.
var Placeholders = map[string][]string{
	"{route}":    dataset.RouteLabels,
	"{intent}":   dataset.ConsentLabels,
	"{strategy}": dataset.Strategies,
	"{chain}":    chains(),
	// {dataset} is any dataset's name (a file's base name, no dots): the
	// names are known only when a run loads its files.
	"{dataset}": nil,
}

// chains returns every primary>fallback pair of distinct strategies, the
// way the parser scorer names a chain's metrics.
func chains() []string {
	var out []string
	for _, a := range dataset.Strategies {
		for _, b := range dataset.Strategies {
			if a != b {
				out = append(out, a+">"+b)
			}
		}
	}
	return out
}

// Catalogue is the metrics a set of scorers declares.
type Catalogue struct {
	names []string // declared names, placeholders kept
}

// NewCatalogue returns the catalogue of ss.
func NewCatalogue(ss []Scorer) *Catalogue {
	c := &Catalogue{}
	for _, s := range ss {
		c.names = append(c.names, s.Declare().Metrics...)
	}
	return c
}

// Has reports whether metric is a declared metric name.
func (c *Catalogue) Has(metric string) bool {
	for _, d := range c.names {
		if matchDeclared(d, metric) {
			return true
		}
	}
	return false
}

// HasPrefix reports whether some declared metric starts with prefix + ".":
// whether the pattern "prefix.*" can match anything.
func (c *Catalogue) HasPrefix(prefix string) bool {
	for _, n := range c.Expand() {
		if strings.HasPrefix(n, prefix+".") {
			return true
		}
	}
	return false
}

// Expand returns every concrete metric name, placeholders expanded, in
// declaration order.
func (c *Catalogue) Expand() []string {
	var out []string
	for _, d := range c.names {
		out = append(out, expand(d)...)
	}
	return out
}

// Nearest returns the declared name (placeholders expanded) closest to
// name by edit distance, for "did you mean" messages.
func (c *Catalogue) Nearest(name string) string {
	return problem.Nearest(name, c.Expand(), -1)
}

// matchDeclared reports whether metric is an instance of the declared
// name d, segment by segment. A placeholder segment matches one of its
// values; values such as chains hold no dots, so segments line up.
func matchDeclared(d, metric string) bool {
	ds, ms := strings.Split(d, "."), strings.Split(metric, ".")
	if len(ds) != len(ms) {
		return false
	}
	for i := range ds {
		if vals, ok := Placeholders[ds[i]]; ok {
			if vals == nil && ms[i] == "" || vals != nil && !slices.Contains(vals, ms[i]) {
				return false
			}
		} else if ds[i] != ms[i] {
			return false
		}
	}
	return true
}

func expand(d string) []string {
	out := []string{""}
	for i, seg := range strings.Split(d, ".") {
		vals, ok := Placeholders[seg]
		if !ok || vals == nil {
			vals = []string{seg} // an open set stays a placeholder
		}
		next := make([]string, 0, len(out)*len(vals))
		for _, p := range out {
			for _, v := range vals {
				if i > 0 {
					next = append(next, p+"."+v)
				} else {
					next = append(next, v)
				}
			}
		}
		out = next
	}
	return out
}
