package gate

import (
	"fmt"
	"math"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/lib/problem"
	"github.com/searchbench/searchbench/orchestrator/prompts"
)

// Config is a parsed gates file.
type Config struct {
	File string
	// Thresholds are absolute bounds, in file order.
	Thresholds []Threshold
	// Tolerance is how much any metric may worsen against the baseline
	// before it is a regression, in the metric's unit (a rate: 0.02 is two
	// percentage points). The default is 0: any worsening is a regression.
	Tolerance float64
	// Overrides change the tolerance of, or ignore, some metrics.
	Overrides []Override
	// Flips makes a case that passed a scorer in the baseline and fails it
	// now a violation. On by default.
	Flips bool
	// Improvements makes the opposite flip — failed in the baseline, passes
	// now — a violation too: the baseline is out of date and must be updated on
	// purpose, so later regressions are measured from the new state (a
	// ratchet). Off by default.
	Improvements bool
	// Alpha is the family-wise error level of the gate's tests (regressions
	// alpha, default DefaultAlpha): the chance that a run of an unchanged
	// prompt, with fresh draws, fails on a test at all. Half of it goes to
	// the per-case tests of sampled cases (Fisher's exact test per case and
	// scorer, Tarone–Holm over them), half to the paired tests of the
	// metrics (sign-flip over cases, Tarone–Holm over them).
	Alpha float64
	// MinEffect is the smallest change of a sampled case's pass rate that
	// fails the gate once its test finds it (pass_rate_drop; default 0: a
	// significant change of any size). A significant change below it is a
	// note.
	MinEffect float64
	// The rules that close the holes a subset comparison would leave, each
	// on by default: a case new in the run that fails (NewFailures), a
	// baseline case inside the run's selection that the run lacks
	// (RemovedCases), a case whose content changed under the same id
	// (EditedCases), a dataset file whose sha256 differs
	// (ChangedDatasets), and a scorer or metric the baseline had that the
	// run no longer reports (Vanished).
	NewFailures, RemovedCases, EditedCases, ChangedDatasets, Vanished bool
	// Headline names the metrics the reports show first (at most
	// MaxHeadline); empty means the gated ones.
	Headline []string
	// Judges holds judge-based metrics to a calibration (judges.go); nil
	// when the file has no judges section.
	Judges *Judges
}

// DefaultAlpha is the default family-wise error level of a gate.
const DefaultAlpha = 0.05

// MaxHeadline bounds the headline table.
const MaxHeadline = 12

// Threshold bounds a metric (or every metric matching a "prefix.*"
// pattern). Min and/or Max are set.
type Threshold struct {
	Pattern  string
	Min, Max *float64
	// MinExact and MaxExact are the bounds exactly as written (0.3 is
	// 3/10, not the float64 nearest it), for exact comparisons.
	MinExact, MaxExact *big.Rat
	// AllowNoData makes a threshold whose metric has no data in the run a
	// note instead of a violation (no_data: pass).
	AllowNoData bool
	// Modes, when set, are the Phase 2 output modes the threshold applies
	// to (modes: [model]); a run in another mode notes it unchecked.
	Modes []string
	Line  int
}

// Override is a per-metric regression rule.
type Override struct {
	Pattern   string
	Tolerance float64
	Ignore    bool
	Line      int
}

// Problem is one thing wrong with a gates file.
type Problem = problem.Problem

// ConfigError lists every problem found in a gates file.
type ConfigError = problem.List

func newConfigError(ps []Problem) *ConfigError {
	return &ConfigError{What: "the gates file", Problems: ps}
}

// metricRE is a metric name: a scorer, then dot-separated parts (labels
// may be upper case, as in consent.accuracy.YES; a parser chain is
// primary>fallback; a dataset name may hold a hyphen, as in
// consent.dataset.consent-heldout); a pattern may end in ".*".
var metricRE = regexp.MustCompile(`^[a-z][a-z0-9_]*((\.[A-Za-z0-9_>-]+)+(\.\*)?|\.\*)$`)

// Load parses a gates file. Every metric name and pattern must be in the
// scorers' declared catalogue (not merely in some run's output): a name
// that is not is a typo, reported with the nearest valid name and every
// other problem as a *ConfigError. A gate typo never makes a gate vacuous.
func Load(file string, data []byte, scorers []score.Scorer) (*Config, error) {
	l := &loader{cfg: &Config{File: file, Alpha: DefaultAlpha, Flips: true, NewFailures: true, RemovedCases: true,
		EditedCases: true, ChangedDatasets: true, Vanished: true}, scorers: score.Names(scorers), cat: score.NewCatalogue(scorers)}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, newConfigError([]Problem{problem.YAMLSyntax(file, data, err)})
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return l.cfg, nil // an empty file gates nothing but flips
	}
	root := doc.Content[0]
	for _, kv := range l.mapping(root, "the gates file", "thresholds", "regressions", "headline", "judges") {
		switch kv.key.Value {
		case "judges":
			l.judges(kv.val)
		case "thresholds":
			l.thresholds(kv.val)
		case "regressions":
			l.regressions(kv.val)
		case "headline":
			l.headline(kv.val)
		}
	}
	if len(l.problems) == 0 {
		if why := l.cfg.vacuous(l.cat); why != "" {
			l.problems = append(l.problems, Problem{File: file, Line: root.Line, Col: root.Column, Msg: why})
		}
	}
	if len(l.problems) > 0 {
		slices.SortStableFunc(l.problems, func(a, b Problem) int {
			if a.Line != b.Line {
				return a.Line - b.Line
			}
			return a.Col - b.Col
		})
		return nil, newConfigError(l.problems)
	}
	return l.cfg, nil
}

type loader struct {
	cfg      *Config
	scorers  []string
	cat      *score.Catalogue
	problems []Problem
}

type pair struct{ key, val *yaml.Node }

func (l *loader) addf(n *yaml.Node, format string, args ...any) {
	l.problems = append(l.problems, Problem{File: l.cfg.File, Line: n.Line, Col: n.Column, Msg: fmt.Sprintf(format, args...)})
}

// mapping returns the pairs of a mapping node, reporting a non-mapping,
// duplicate keys and keys not in allowed (when allowed is non-empty).
func (l *loader) mapping(n *yaml.Node, what string, allowed ...string) []pair {
	if n.Kind != yaml.MappingNode {
		l.addf(n, "%s must be a mapping", what)
		return nil
	}
	var out []pair
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch {
		case seen[k.Value]:
			l.addf(k, "%s: duplicate key %q", what, k.Value)
			continue
		case len(allowed) > 0 && !slices.Contains(allowed, k.Value):
			l.addf(k, "%s: unknown key %q (want %s)", what, k.Value, strings.Join(allowed, ", "))
			continue
		}
		seen[k.Value] = true
		out = append(out, pair{k, v})
	}
	return out
}

func (l *loader) number(n *yaml.Node, what string) (float64, bool) {
	var f float64
	if n.Kind != yaml.ScalarNode || (n.Tag != "!!int" && n.Tag != "!!float") {
		l.addf(n, "%s must be a number, got %q", what, n.Value)
		return 0, false
	}
	if err := n.Decode(&f); err != nil {
		l.addf(n, "%s: %v", what, err)
		return 0, false
	}
	return f, true
}

func (l *loader) boolean(n *yaml.Node, what string) (bool, bool) {
	var b bool
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
		l.addf(n, "%s must be true or false, got %q", what, n.Value)
		return false, false
	}
	_ = n.Decode(&b)
	return b, true
}

// metricName checks a metric name or pattern.
func (l *loader) metricName(k *yaml.Node) bool {
	name := k.Value
	if !metricRE.MatchString(name) {
		l.addf(k, "metric %q: want scorer.metric[.label] in lower case, optionally ending in .* (e.g. routing.accuracy, routing.recall.*)", name)
		return false
	}
	scorer, _, _ := strings.Cut(name, ".")
	if !slices.Contains(l.scorers, scorer) {
		l.addf(k, "metric %q: no scorer %q (scorers: %s)", name, scorer, strings.Join(l.scorers, ", "))
		return false
	}
	if prefix, ok := strings.CutSuffix(name, ".*"); ok {
		if !l.cat.HasPrefix(prefix) {
			l.addf(k, "pattern %q matches no metric the scorers declare (nearest: %s)", name, l.cat.Nearest(prefix))
			return false
		}
		return true
	}
	if !l.cat.Has(name) {
		l.addf(k, "unknown metric %q: the scorers declare no such metric (did you mean %s?)", name, l.cat.Nearest(name))
		return false
	}
	return true
}

func (l *loader) headline(n *yaml.Node) {
	if n.Kind != yaml.SequenceNode {
		l.addf(n, "headline must be a list of metric names")
		return
	}
	if len(n.Content) > MaxHeadline {
		l.addf(n, "headline: %d metrics, at most %d fit a headline", len(n.Content), MaxHeadline)
	}
	for _, m := range n.Content {
		if m.Kind != yaml.ScalarNode {
			l.addf(m, "headline: want a metric name")
			continue
		}
		if strings.HasSuffix(m.Value, ".*") {
			l.addf(m, "headline: %q: name metrics one by one, not a pattern", m.Value)
			continue
		}
		if l.metricName(m) {
			l.cfg.Headline = append(l.cfg.Headline, m.Value)
		}
	}
}

func (l *loader) thresholds(n *yaml.Node) {
	for _, kv := range l.mapping(n, "thresholds") {
		ok := l.metricName(kv.key)
		t := Threshold{Pattern: kv.key.Value, Line: kv.key.Line}
		set, before := false, len(l.problems)
		for _, b := range l.mapping(kv.val, "threshold "+strconv.Quote(t.Pattern), "min", "max", "no_data", "modes") {
			if b.key.Value == "modes" {
				if !l.modes(b.val, &t) {
					ok = false
				}
				continue
			}
			if b.key.Value == "no_data" {
				switch b.val.Value {
				case "fail":
				case "pass":
					t.AllowNoData = true
				default:
					l.addf(b.val, "no_data must be fail or pass, got %q", b.val.Value)
					ok = false
				}
				continue
			}
			set = true
			v, isNum := l.number(b.val, b.key.Value)
			if !isNum {
				ok = false
				continue
			}
			exact, okRat := new(big.Rat).SetString(b.val.Value)
			if !okRat {
				exact = new(big.Rat).SetFloat64(v)
			}
			if exact == nil {
				l.addf(b.val, "%s must be a finite number, got %q", b.key.Value, b.val.Value)
				ok = false
				continue
			}
			if msg := l.outOfRange(t.Pattern, b.key.Value, v); msg != "" {
				l.addf(b.val, "threshold %q: %s", t.Pattern, msg)
				ok = false
				continue
			}
			if b.key.Value == "min" {
				t.Min, t.MinExact = &v, exact
			} else {
				t.Max, t.MaxExact = &v, exact
			}
		}
		switch {
		case kv.val.Kind == yaml.MappingNode && !set && len(l.problems) == before:
			l.addf(kv.val, "threshold %q: set min, max or both", t.Pattern)
			ok = false
		case t.Min != nil && t.Max != nil && *t.Min > *t.Max:
			l.addf(kv.val, "threshold %q: min %g is above max %g", t.Pattern, *t.Min, *t.Max)
			ok = false
		}
		if ok && set {
			l.cfg.Thresholds = append(l.cfg.Thresholds, t)
		}
	}
}

// modes reads a threshold's modes: a list of Phase 2 output modes.
func (l *loader) modes(n *yaml.Node, t *Threshold) bool {
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		l.addf(n, "threshold %q: modes must be a list of output modes (%s)", t.Pattern, strings.Join(prompts.Modes, ", "))
		return false
	}
	ok := true
	for _, m := range n.Content {
		if m.Kind != yaml.ScalarNode || !slices.Contains(prompts.Modes, m.Value) {
			l.addf(m, "threshold %q: unknown mode %q (modes: %s)", t.Pattern, m.Value, strings.Join(prompts.Modes, ", "))
			ok = false
			continue
		}
		t.Modes = append(t.Modes, m.Value)
	}
	return ok
}

func (l *loader) regressions(n *yaml.Node) {
	rules := map[string]*bool{"flips": &l.cfg.Flips, "improvements": &l.cfg.Improvements,
		"new_failures": &l.cfg.NewFailures, "removed_cases": &l.cfg.RemovedCases, "edited_cases": &l.cfg.EditedCases,
		"changed_datasets": &l.cfg.ChangedDatasets, "vanished": &l.cfg.Vanished}
	for _, kv := range l.mapping(n, "regressions", "tolerance", "metrics", "flips", "improvements", "pass_rate_drop", "alpha",
		"new_failures", "removed_cases", "edited_cases", "changed_datasets", "vanished") {
		if p, isRule := rules[kv.key.Value]; isRule {
			if b, ok := l.boolean(kv.val, kv.key.Value); ok {
				*p = b
			}
			continue
		}
		switch kv.key.Value {
		case "pass_rate_drop":
			if v, ok := l.number(kv.val, "pass_rate_drop"); ok {
				if v < 0 || v >= 1 {
					l.addf(kv.val, "pass_rate_drop (the smallest significant change of a sampled case's pass rate that fails) must be a fraction in [0, 1) (0.2: 20 points), got %g", v)
				} else {
					l.cfg.MinEffect = v
				}
			}
		case "alpha":
			if v, ok := l.number(kv.val, "alpha"); ok {
				if v <= 0 || v > 0.2 {
					l.addf(kv.val, "alpha (the family-wise error level of the gate's tests) must be in (0, 0.2] (0.05: an unchanged prompt fails one run in twenty at most), got %g", v)
				} else {
					l.cfg.Alpha = v
				}
			}
		case "tolerance":
			if v, ok := l.number(kv.val, "tolerance"); ok {
				if v < 0 {
					l.addf(kv.val, "tolerance must not be negative")
				}
				l.cfg.Tolerance = v
			}
		case "metrics":
			for _, m := range l.mapping(kv.val, "regressions.metrics") {
				ok := l.metricName(m.key)
				o := Override{Pattern: m.key.Value, Line: m.key.Line}
				set := false
				for _, f := range l.mapping(m.val, "regression rule "+strconv.Quote(o.Pattern), "tolerance", "ignore") {
					set = true
					if f.key.Value == "tolerance" {
						v, isNum := l.number(f.val, "tolerance")
						if isNum && v < 0 {
							l.addf(f.val, "tolerance must not be negative")
							isNum = false
						}
						ok = ok && isNum
						o.Tolerance = v
					} else {
						b, isBool := l.boolean(f.val, "ignore")
						ok = ok && isBool
						o.Ignore = b
					}
				}
				if m.val.Kind == yaml.MappingNode && !set && len(m.val.Content) == 0 {
					l.addf(m.val, "regression rule %q: set tolerance or ignore", o.Pattern)
					ok = false
				}
				if ok {
					l.cfg.Overrides = append(l.cfg.Overrides, o)
				}
			}
		}
	}
}

// match reports whether metric matches pattern: equal, or pattern is
// "prefix.*" and metric starts with "prefix.".
func match(pattern, metric string) bool {
	if p, ok := strings.CutSuffix(pattern, ".*"); ok {
		return strings.HasPrefix(metric, p+".")
	}
	return pattern == metric
}

// rule returns the regression rule for metric: an exact override beats the
// longest matching pattern, which beats the default tolerance.
func (c *Config) rule(metric string) (tolerance float64, ignore bool, source string) {
	best := -1
	for i, o := range c.Overrides {
		if !match(o.Pattern, metric) {
			continue
		}
		if o.Pattern == metric {
			best = i
			break
		}
		if best < 0 || len(o.Pattern) > len(c.Overrides[best].Pattern) {
			best = i
		}
	}
	if best < 0 {
		return c.Tolerance, false, "default"
	}
	o := c.Overrides[best]
	return o.Tolerance, o.Ignore, fmt.Sprintf("%s:%d", c.File, o.Line)
}

// Bounded reports whether every metric pattern may name lies in [0, 1]
// (pass rates and scores such as F1); the others (tokens, counts,
// milliseconds) are only known to be ≥ 0.
func Bounded(pattern string) bool {
	prefix, wild := strings.CutSuffix(pattern, ".*")
	for _, u := range unbounded {
		if wild {
			if strings.HasPrefix(u+".", prefix+".") || strings.HasPrefix(u, prefix+".") {
				return false
			}
			continue
		}
		if pattern == u || strings.HasPrefix(pattern, u+".") {
			return false
		}
	}
	return true
}

// unbounded are the declared metrics (and families) that are means or
// percentiles of counts, tokens, dollars or milliseconds: every other declared
// metric is a rate or a score in [0, 1].
var unbounded = []string{"cost.tokens", "cost.usd", "cost.latency", "cost.model_calls", "cost.search_calls", "limits.refused", "evidence.bullets"}

// outOfRange says why a threshold bound can never be checked usefully: it
// lies outside its metric's range, or every value in the range meets it.
func (l *loader) outOfRange(pattern, which string, v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Sprintf("%s must be a finite number", which)
	}
	if Bounded(pattern) {
		switch {
		case v < 0 || v > 1:
			return fmt.Sprintf("%s %g is outside the metric's range [0, 1] (rates are fractions: 0.95 is 95%%)", which, v)
		case which == "min" && v == 0:
			return "min 0 is met by every value in [0, 1]: the threshold cannot fail"
		case which == "max" && v == 1:
			return "max 1 is met by every value in [0, 1]: the threshold cannot fail"
		}
		return ""
	}
	switch {
	case which == "max" && v < 0:
		return fmt.Sprintf("max %g is below 0, the least value of a mean or percentile of counts: every run would fail", v)
	case which == "min" && v <= 0:
		return fmt.Sprintf("min %g is met by every value (the metric is never negative): the threshold cannot fail", v)
	}
	return ""
}

// vacuous says why no possible run could fail under c ("" when one can):
// no threshold, every per-case rule off, and no pass rate or score whose
// regression rule could fire (each ignored or with a tolerance of 1 or
// more, the whole range).
func (c *Config) vacuous(cat *score.Catalogue) string {
	if len(c.Thresholds) > 0 || c.Judges != nil || c.Flips || c.Improvements || c.NewFailures || c.RemovedCases || c.EditedCases || c.ChangedDatasets || c.Vanished {
		return ""
	}
	for _, name := range cat.Expand() {
		if !Bounded(name) {
			continue
		}
		if tol, ignore, _ := c.rule(name); !ignore && tol < 1 {
			return ""
		}
	}
	return "this gates file cannot fail: it has no threshold, every per-case rule (flips, improvements, new_failures, removed_cases, edited_cases, changed_datasets, vanished) is off, and no pass rate or score can regress (each is ignored or has a tolerance of 1 or more, its whole range); a gate that cannot fail is not a gate"
}

// Off lists the rules c switches off, each with where ("default" or the
// file): every output says so, so a reader knows what was not checked.
func (c *Config) Off() []string {
	var out []string
	for _, r := range []struct {
		name string
		on   bool
	}{{"flips", c.Flips}, {"improvements", c.Improvements}, {"new_failures", c.NewFailures}, {"removed_cases", c.RemovedCases},
		{"edited_cases", c.EditedCases}, {"changed_datasets", c.ChangedDatasets}, {"vanished", c.Vanished}} {
		if !r.on {
			out = append(out, r.name)
		}
	}
	return out
}
