package gate

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/lib/problem"
)

// AcceptFile is the file a change commits to accept named regressions.
const AcceptFile = "gates.accept.yaml"

// Accepted regressions. A change that trades one case for many (a prompt
// that routes 16 cases better and one worse) is not forced to weaken the
// gate for everyone: it names the regressions it accepts, each with its
// reason, in a file it commits, where a reviewer reads them. An acceptance
// is tied to the baseline it was written against (its fingerprint): once
// the baseline is regenerated the regression is part of it, and the
// acceptance has expired.

// Acceptance is one accepted regression.
type Acceptance struct {
	// Case is the case key (dataset/id); Scorer the violation's scorer or
	// metric; From and To the change accepted, as the violation shows it
	// ("5/5" → "1/5", "pass" → "fail").
	Case, Scorer, From, To string
	Reason                 string
	Line                   int
}

// Acceptances is a parsed accept file.
type Acceptances struct {
	File string
	// Baseline is the fingerprint (report.Fingerprint) of the baseline the
	// acceptances were written against.
	Baseline string
	Entries  []Acceptance
}

// acceptable are the kinds of violation a change may accept: a case's
// behaviour. An invariant broken, a threshold or a vanished check is never
// a trade-off.
var acceptable = []string{KindRateDrop, KindFlip, KindNewFailure}

// LoadAcceptances parses an accept file, reporting every problem with its
// line.
func LoadAcceptances(file string, data []byte) (*Acceptances, error) {
	a := &Acceptances{File: file}
	var ps []Problem
	addf := func(n *yaml.Node, format string, args ...any) {
		ps = append(ps, Problem{File: file, Line: n.Line, Col: n.Column, Msg: fmt.Sprintf(format, args...)})
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &problem.List{What: "the accept file", Problems: []Problem{problem.YAMLSyntax(file, data, err)}}
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, &problem.List{What: "the accept file", Problems: []Problem{{File: file, Line: 1, Msg: "empty: delete the file when nothing is accepted"}}}
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		addf(root, "the accept file must be a mapping with baseline and accept")
		return nil, &problem.List{What: "the accept file", Problems: ps}
	}
	seenKey := map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if seenKey[k.Value] {
			addf(k, "duplicate key %q", k.Value)
			continue
		}
		seenKey[k.Value] = true
		switch k.Value {
		case "baseline":
			if v.Kind != yaml.ScalarNode || v.Value == "" {
				addf(v, "baseline must be the fingerprint of the baseline the acceptances were written against (searchbench accept writes it)")
				continue
			}
			a.Baseline = v.Value
		case "accept":
			if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
				addf(v, "accept must be a list of accepted regressions, each with case, scorer, from, to and reason")
				continue
			}
			for _, e := range v.Content {
				if x, ok := acceptance(e, addf); ok {
					a.Entries = append(a.Entries, x)
				}
			}
		default:
			addf(k, "unknown key %q (want baseline, accept)", k.Value)
		}
	}
	if !seenKey["baseline"] {
		addf(root, "missing baseline: the fingerprint of the baseline the acceptances were written against (searchbench accept writes it)")
	}
	if !seenKey["accept"] {
		addf(root, "missing accept: the list of accepted regressions")
	}
	seen := map[string]int{}
	for _, x := range a.Entries {
		key := x.Case + "\x00" + x.Scorer
		if l, dup := seen[key]; dup {
			ps = append(ps, Problem{File: file, Line: x.Line, Msg: fmt.Sprintf("%s (%s) is accepted twice (first at line %d)", x.Case, x.Scorer, l)})
		}
		seen[key] = x.Line
	}
	if len(ps) > 0 {
		slices.SortStableFunc(ps, func(x, y Problem) int { return x.Line - y.Line })
		return nil, &problem.List{What: "the accept file", Problems: ps}
	}
	return a, nil
}

func acceptance(n *yaml.Node, addf func(*yaml.Node, string, ...any)) (Acceptance, bool) {
	x := Acceptance{Line: n.Line}
	if n.Kind != yaml.MappingNode {
		addf(n, "an acceptance must be a mapping with case, scorer, from, to and reason")
		return x, false
	}
	fields := map[string]*string{"case": &x.Case, "scorer": &x.Scorer, "from": &x.From, "to": &x.To, "reason": &x.Reason}
	ok := true
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		p, known := fields[k.Value]
		if !known {
			addf(k, "unknown key %q (want case, scorer, from, to, reason)", k.Value)
			ok = false
			continue
		}
		if v.Kind != yaml.ScalarNode {
			addf(v, "%s must be text", k.Value)
			ok = false
			continue
		}
		*p = strings.TrimSpace(v.Value)
	}
	for _, f := range []string{"case", "scorer", "from", "to", "reason"} {
		if *fields[f] == "" {
			addf(n, "acceptance is missing %s", f)
			ok = false
		}
	}
	if ok && !strings.Contains(x.Case, "/") {
		addf(n, "case %q: want the case key dataset/id (routing/e-rag-patterns)", x.Case)
		ok = false
	}
	if ok && len(strings.Fields(x.Reason)) < 3 {
		addf(n, "reason %q: say in a sentence why the regression is accepted, for the reviewer", x.Reason)
		ok = false
	}
	return x, ok
}

// AcceptError lists acceptances that name no case of the run, or match
// no violation of it: a stale acceptance would otherwise hide a future
// regression of the same case.
type AcceptError struct {
	File     string
	Problems []string
}

func (e *AcceptError) Error() string {
	return fmt.Sprintf("%s does not match this run:\n  %s", e.File, strings.Join(e.Problems, "\n  "))
}

// applyAcceptances moves the violations acc accepts to v.Accepted. It
// returns an *AcceptError for entries whose case the run and the baseline
// do not hold, or that match no violation. A partial run (a shard, a
// filter) leaves the entries whose case it did not select to the run that
// selects it, with a note.
func (e *evaluation) applyAcceptances(acc *Acceptances, baselineID string, partial bool, inRun map[string]bool, known func(string) bool) error {
	if acc == nil {
		return nil
	}
	if acc.Baseline != baselineID {
		e.note("%s: its %d acceptance(s) were written against baseline %s, and this gate's baseline is %s (another output mode's, or one regenerated since, which holds what they accepted): they accept nothing here",
			acc.File, len(acc.Entries), acc.Baseline, baselineID)
		return nil
	}
	var problems []string
	used := make([]bool, len(e.v.Violations))
	for _, x := range acc.Entries {
		where := fmt.Sprintf("%s:%d: %s (%s, %s → %s)", acc.File, x.Line, x.Case, x.Scorer, x.From, x.To)
		if !known(x.Case) {
			problems = append(problems, where+": no such case in this run or its baseline")
			continue
		}
		if partial && !inRun[x.Case] {
			e.note("%s: not judged here: this run's selection (a shard or a filter) leaves the case out", where)
			continue
		}
		found := -1
		for i, v := range e.v.Violations {
			if v.Case == x.Case && v.Metric == x.Scorer {
				found = i
				break
			}
		}
		switch {
		case found < 0:
			problems = append(problems, where+": matches no violation of this run (a stale acceptance: the case no longer regresses, so delete the entry)")
		case !slices.Contains(acceptable, e.v.Violations[found].Kind):
			problems = append(problems, fmt.Sprintf("%s: the violation is a %s, which cannot be accepted (only a case's behaviour: %s)", where, e.v.Violations[found].Kind, strings.Join(acceptable, ", ")))
		case e.cfg != nil && e.invariant[x.Scorer]:
			problems = append(problems, where+": "+x.Scorer+" is an invariant the app enforces; a broken invariant is a bug, never a trade-off")
		case e.v.Violations[found].Want != x.From || e.v.Violations[found].Got != x.To:
			v := e.v.Violations[found]
			problems = append(problems, fmt.Sprintf("%s: the run shows %s → %s, not the change accepted; review it and update the entry", where, v.Want, v.Got))
		default:
			used[found] = true
			a := e.v.Violations[found]
			a.Explanation += " — accepted at " + fmt.Sprintf("%s:%d", acc.File, x.Line) + ": " + x.Reason
			a.Next = ""
			e.v.Accepted = append(e.v.Accepted, report.Accepted{Violation: a, Reason: x.Reason, At: fmt.Sprintf("%s:%d", acc.File, x.Line)})
		}
	}
	if len(problems) > 0 {
		return &AcceptError{File: acc.File, Problems: problems}
	}
	kept := e.v.Violations[:0]
	for i, v := range e.v.Violations {
		if !used[i] {
			kept = append(kept, v)
		}
	}
	e.v.Violations = kept
	return nil
}
