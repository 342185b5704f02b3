package dataset

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/searchbench/searchbench/lib/problem"
)

var idRE = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`)

// sampleSuffixRE matches ids that would collide with a sample cassette:
// sample k ≥ 2 of case X is X.s<k>.yaml (record --samples).
var sampleSuffixRE = regexp.MustCompile(`^(.+)\.s([0-9]+)$`)

// MaxIDLen bounds a case id (and a dataset name) in bytes, so that every
// file named after it fits the 255 bytes file systems allow in a name: the
// longest is the temporary a sample cassette is written through,
// ".<id>.s100.yaml.tmp-<10 digits>" (id + 26 bytes; record --samples is at
// most 100). 200 leaves room to spare.
const MaxIDLen = 200

// reservedName says why a dataset (a folder of cassettes named after it)
// may not be called name, or "".
func reservedName(name string) string {
	switch {
	case strings.HasPrefix(name, "."):
		return "starts with '.', which marks hidden files, locks and temporaries"
	case strings.HasPrefix(strings.ToLower(name), "recorded.json"):
		return "is recorded.json's name: its cassette folder would sit where the shelf keeps recorded.json"
	case len(name) > MaxIDLen:
		return fmt.Sprintf("is %d bytes long; at most %d fit every file named after it", len(name), MaxIDLen)
	}
	return ""
}

// LoadDir loads every *.yaml file in dir, sorted by name. Problems in all
// files are collected into one *Error.
func LoadDir(dir string) ([]*Dataset, error) {
	paths, err := datasetFiles(dir)
	if err != nil {
		return nil, err
	}
	return LoadFiles(paths...)
}

// datasetFiles lists the *.yaml files of dir, sorted by name; none is an
// error.
func datasetFiles(dir string) ([]string, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no *.yaml datasets in %s", dir)
	}
	sort.Strings(paths)
	return paths, nil
}

// LoadFiles loads the named dataset files. Problems in all of them are
// collected into one *Error; a file that cannot be read is also a problem.
func LoadFiles(paths ...string) ([]*Dataset, error) {
	var out []*Dataset
	var problems []Problem
	names := map[string]string{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			problems = append(problems, Problem{File: p, Msg: err.Error()})
			continue
		}
		ds, err := Parse(p, data)
		var de *Error
		if errors.As(err, &de) {
			problems = append(problems, de.Problems...)
		} else if err != nil {
			problems = append(problems, Problem{File: p, Msg: err.Error()})
		}
		if ds == nil {
			continue
		}
		if prev, dup := names[ds.Name]; dup {
			problems = append(problems, Problem{File: p, Msg: fmt.Sprintf("dataset name %q is also used by %s; cassettes would collide", ds.Name, prev)})
		}
		names[ds.Name] = p
		out = append(out, ds)
	}
	if len(problems) > 0 {
		return nil, newError(problems)
	}
	return out, nil
}

// Parse decodes one dataset file. The dataset's name is the file's base name
// without extension. It returns every problem found as an *Error.
func Parse(path string, data []byte) (*Dataset, error) {
	p := &parser{file: path}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, newError([]Problem{problem.YAMLSyntax(path, data, err)})
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, newError([]Problem{{File: path, Msg: "empty file"}})
	}
	ds := &Dataset{Path: path, Name: nameOf(path)}
	if why := reservedName(ds.Name); why != "" {
		p.problems = append(p.problems, Problem{File: path, Msg: fmt.Sprintf("dataset name %q (the file's name) %s; rename the file", ds.Name, why)})
	}
	if n := p.header(doc.Content[0], ds); n != nil {
		if n.Kind != yaml.SequenceNode {
			p.add(n, "", "cases must be a list")
		} else {
			seen := map[string]int{}
			for _, cn := range n.Content {
				c := p.parseCase(ds, cn)
				if c == nil {
					continue
				}
				if c.ID != "" {
					if line, dup := seen[c.ID]; dup {
						p.add(cn, c.ID, fmt.Sprintf("duplicate id (first used at line %d)", line))
					} else {
						seen[c.ID] = c.Line
					}
				}
				ds.Cases = append(ds.Cases, c)
			}
			if len(n.Content) == 0 {
				p.add(n, "", "no cases")
			}
		}
	}
	if len(p.problems) > 0 {
		return ds, newError(p.problems)
	}
	return ds, nil
}

// nameOf is a dataset's name: its file's base name without extension.
func nameOf(path string) string {
	return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
}

// header checks a file's root mapping, sets ds.Kind and returns the cases
// node (nil when missing).
func (p *parser) header(root *yaml.Node, ds *Dataset) *yaml.Node {
	fields := p.mapping(root, "", "dataset", []string{"kind", "description", "cases"}, []string{"kind", "cases"})
	if n := fields["kind"]; n != nil {
		ds.Kind = p.enum(n, "", "kind", Kinds)
	}
	return fields["cases"]
}

func (p *parser) parseCase(ds *Dataset, n *yaml.Node) *Case {
	allowed := []string{"id", "tags", "note"}
	required := []string{"id"}
	switch ds.Kind {
	case KindRouting:
		allowed = append(allowed, "query", "label", "answer")
		required = append(required, "query", "label")
	case KindConsent:
		allowed = append(allowed, "reply", "label", "previous")
		required = append(required, "reply", "label")
	case KindFlows:
		allowed = append(allowed, "turns", "mode", "repair", "answer")
		required = append(required, "turns")
	case KindParser:
		allowed = append(allowed, "prompt", "reasoning", "content", "expect")
		required = append(required, "prompt", "expect")
	default:
		// The kind is wrong or missing; that was reported already.
		return nil
	}
	// The id comes first so every later problem can name the case.
	id := ""
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == "id" && n.Content[i+1].Kind == yaml.ScalarNode {
				id = n.Content[i+1].Value
			}
		}
	}
	fields := p.mapping(n, id, "case", allowed, required)
	if fields == nil {
		return nil
	}
	c := &Case{ID: id, Dataset: ds.Name, Kind: ds.Kind, File: p.file, Line: n.Line}
	if f := fields["id"]; f != nil {
		c.ID = p.str(f, id, "id")
		if c.ID != "" && !idRE.MatchString(c.ID) {
			p.add(f, id, fmt.Sprintf("id %q must match %s", c.ID, idRE))
		}
		if len(c.ID) > MaxIDLen {
			p.add(f, id, fmt.Sprintf("id is %d bytes long; at most %d fit the names of its cassettes (<id>.s<k>.yaml and the temporaries they are written through)", len(c.ID), MaxIDLen))
		}
		if strings.HasSuffix(c.ID, judgeSuffix) {
			p.add(f, id, fmt.Sprintf("id %q ends in %s, which names the judge's cassette of case %q (<case>%s.yaml); choose another id", c.ID, judgeSuffix, strings.TrimSuffix(c.ID, judgeSuffix), judgeSuffix))
		}
		if m := sampleSuffixRE.FindStringSubmatch(c.ID); m != nil {
			p.add(f, id, fmt.Sprintf("id %q ends in .s%s, which names the cassette of sample %s of case %q (<case>.s<k>.yaml); choose another id", c.ID, m[2], m[2], m[1]))
		}
	}
	if f := fields["tags"]; f != nil {
		c.Tags = p.strList(f, id, "tags")
	}
	if f := fields["note"]; f != nil {
		c.Note = p.str(f, id, "note")
	}
	if f := fields["answer"]; f != nil {
		c.Answer = p.gold(f, id)
	}
	switch ds.Kind {
	case KindRouting:
		if f := fields["query"]; f != nil {
			c.Query = p.nonEmpty(f, id, "query")
		}
		if f := fields["label"]; f != nil {
			c.Label = p.enum(f, id, "label", RouteLabels)
		}
	case KindConsent:
		if f := fields["reply"]; f != nil {
			c.Reply = p.nonEmpty(f, id, "reply")
		}
		if f := fields["label"]; f != nil {
			c.Label = p.enum(f, id, "label", ConsentLabels)
		}
		if f := fields["previous"]; f != nil {
			c.Previous = p.nonEmpty(f, id, "previous")
		}
	case KindFlows:
		if f := fields["mode"]; f != nil {
			c.Mode = p.enum(f, id, "mode", Modes)
		}
		if f := fields["repair"]; f != nil {
			c.Repair = p.boolean(f, id, "repair")
		}
		if f := fields["turns"]; f != nil {
			c.Turns = p.turns(f, id)
		}
	case KindParser:
		if f := fields["prompt"]; f != nil {
			c.Prompt = p.enum(f, id, "prompt", Strategies)
		}
		if f := fields["reasoning"]; f != nil {
			c.Reasoning = p.str(f, id, "reasoning")
		}
		if f := fields["content"]; f != nil {
			c.Content = p.str(f, id, "content")
		}
		if fields["reasoning"] == nil && fields["content"] == nil {
			p.add(n, id, "missing field: a parser case needs reasoning or content (or both)")
		}
		if f := fields["expect"]; f != nil {
			c.Expect = p.calls(f, id)
		}
	}
	return c
}

// judgeSuffix ends the name of a case's judge cassette: <case>.judge.yaml.
const judgeSuffix = ".judge"

// gold reads a case's answer: one accepted answer, a list of them, or a
// mapping {accept, reject, as_of}.
func (p *parser) gold(n *yaml.Node, id string) *Gold {
	g := &Gold{Line: n.Line}
	switch n.Kind {
	case yaml.ScalarNode:
		if s := p.nonEmpty(n, id, "answer"); s != "" {
			g.Accept = []string{s}
		}
	case yaml.SequenceNode:
		g.Accept = p.answers(n, id, "answer")
	case yaml.MappingNode:
		fields := p.mapping(n, id, "answer", []string{"accept", "reject", "as_of"}, []string{"accept"})
		if f := fields["accept"]; f != nil {
			if f.Kind == yaml.ScalarNode {
				if s := p.nonEmpty(f, id, "answer.accept"); s != "" {
					g.Accept = []string{s}
				}
			} else {
				g.Accept = p.answers(f, id, "answer.accept")
			}
		}
		if f := fields["reject"]; f != nil {
			if f.Kind == yaml.ScalarNode {
				if s := p.nonEmpty(f, id, "answer.reject"); s != "" {
					g.Reject = []string{s}
				}
			} else {
				g.Reject = p.answers(f, id, "answer.reject")
			}
			for _, r := range g.Reject {
				for _, a := range g.Accept {
					if strings.EqualFold(strings.TrimSpace(r), strings.TrimSpace(a)) {
						p.add(f, id, fmt.Sprintf("answer.reject: %q is also an accepted answer", r))
					}
				}
			}
		}
		if f := fields["as_of"]; f != nil {
			g.AsOf = p.str(f, id, "answer.as_of")
			if _, err := time.Parse("2006-01-02", g.AsOf); f.Kind == yaml.ScalarNode && err != nil {
				p.add(f, id, fmt.Sprintf("answer.as_of: %q is not a date (YYYY-MM-DD)", g.AsOf))
			}
		}
	default:
		p.add(n, id, "answer must be an accepted answer, a list of them, or a mapping {accept, reject, as_of}")
	}
	return g
}

// answers reads a list of answers, each a non-empty string.
func (p *parser) answers(n *yaml.Node, id, field string) []string {
	if n.Kind != yaml.SequenceNode {
		p.add(n, id, field+" must be a list of answers")
		return nil
	}
	if len(n.Content) == 0 {
		p.add(n, id, field+" is empty")
	}
	var out []string
	for _, e := range n.Content {
		if e.Kind != yaml.ScalarNode {
			p.add(e, id, field+" entry must be a string")
			continue
		}
		if s := p.nonEmpty(e, id, field+" entry"); strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return out
}

func (p *parser) turns(n *yaml.Node, id string) []Turn {
	if n.Kind != yaml.SequenceNode {
		p.add(n, id, "turns must be a list")
		return nil
	}
	if len(n.Content) == 0 {
		p.add(n, id, "turns is empty")
	}
	var out []Turn
	for i, tn := range n.Content {
		where := fmt.Sprintf("turn %d", i+1)
		fields := p.mapping(tn, id, where, []string{"user", "expect"}, []string{"user", "expect"})
		if fields == nil {
			continue
		}
		t := Turn{Line: tn.Line}
		if f := fields["user"]; f != nil {
			t.User = p.nonEmpty(f, id, where+": user")
		}
		if f := fields["expect"]; f != nil {
			t.Expect = p.expect(f, id, where)
		}
		out = append(out, t)
	}
	return out
}

func (p *parser) expect(n *yaml.Node, id, where string) Expect {
	keys := []string{"phase", "intent", "override", "route", "verification", "error", "output", "refused_calls", "retries", "scope"}
	fields := p.mapping(n, id, where+": expect", keys, []string{"phase"})
	var e Expect
	if fields == nil {
		return e
	}
	at := where + ": expect."
	if f := fields["phase"]; f != nil {
		e.Phase = p.enum(f, id, at+"phase", Phases)
	}
	if f := fields["intent"]; f != nil {
		e.Intent = p.enum(f, id, at+"intent", ConsentLabels)
	}
	if f := fields["override"]; f != nil {
		b := p.boolean(f, id, at+"override")
		e.Override = &b
	}
	if f := fields["route"]; f != nil {
		e.Route = p.enum(f, id, at+"route", Routes)
	}
	if f := fields["verification"]; f != nil {
		e.Verification = p.enum(f, id, at+"verification", Verifications)
	}
	if f := fields["error"]; f != nil {
		e.Error = p.enum(f, id, at+"error", ErrorCodes)
	}
	if f := fields["output"]; f != nil {
		e.Output = p.enum(f, id, at+"output", Outputs)
	}
	if f := fields["refused_calls"]; f != nil {
		v := p.integer(f, id, at+"refused_calls")
		e.RefusedCalls = &v
	}
	if f := fields["retries"]; f != nil {
		v := p.integer(f, id, at+"retries")
		e.Retries = &v
	}
	if f := fields["scope"]; f != nil {
		e.Scope = p.nonEmpty(f, id, at+"scope")
	}
	if e.Phase != "phase2" && (e.Route != "" || e.Verification != "" || e.Error != "" || e.Output != "" || e.Scope != "") {
		p.add(n, id, where+": route, verification, error, output and scope are Phase 2 expectations, but phase is "+strconv.Quote(e.Phase))
	}
	return e
}

func (p *parser) calls(n *yaml.Node, id string) []Call {
	if n.Kind != yaml.SequenceNode {
		p.add(n, id, "expect must be a list of calls ([] for none)")
		return nil
	}
	out := []Call{}
	for i, cn := range n.Content {
		where := fmt.Sprintf("expect[%d]", i)
		fields := p.mapping(cn, id, where, []string{"name", "arguments"}, []string{"name", "arguments"})
		if fields == nil {
			continue
		}
		var c Call
		if f := fields["name"]; f != nil {
			c.Name = p.nonEmpty(f, id, where+".name")
		}
		if f := fields["arguments"]; f != nil {
			if f.Kind != yaml.MappingNode {
				p.add(f, id, where+".arguments must be a mapping")
			} else {
				var args map[string]any
				if err := f.Decode(&args); err != nil {
					p.add(f, id, where+".arguments: "+err.Error())
				}
				if args == nil {
					args = map[string]any{}
				}
				c.Arguments = args
			}
		}
		out = append(out, c)
	}
	return out
}

// parser collects problems while walking one file's YAML nodes.
type parser struct {
	file     string
	problems []Problem
}

func (p *parser) add(n *yaml.Node, id, msg string) {
	pr := Problem{File: p.file, Case: id, Msg: msg}
	if n != nil {
		pr.Line, pr.Col = n.Line, n.Column
	}
	p.problems = append(p.problems, pr)
}

// mapping checks that n is a mapping with only allowed keys, each once, and
// all required keys. It returns the value node of each key present.
func (p *parser) mapping(n *yaml.Node, id, what string, allowed, required []string) map[string]*yaml.Node {
	if n.Kind != yaml.MappingNode {
		p.add(n, id, what+" must be a mapping")
		return nil
	}
	out := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch {
		case !slices.Contains(allowed, k.Value):
			p.add(k, id, fmt.Sprintf("unknown key %q in %s (allowed: %s)", k.Value, what, strings.Join(allowed, ", ")))
		case out[k.Value] != nil:
			p.add(k, id, fmt.Sprintf("key %q repeated in %s", k.Value, what))
		default:
			out[k.Value] = v
		}
	}
	for _, r := range required {
		if out[r] == nil {
			p.add(n, id, fmt.Sprintf("missing field %q in %s", r, what))
		}
	}
	return out
}

func (p *parser) str(n *yaml.Node, id, field string) string {
	if n.Kind != yaml.ScalarNode {
		p.add(n, id, field+" must be a string")
		return ""
	}
	return n.Value
}

func (p *parser) nonEmpty(n *yaml.Node, id, field string) string {
	s := p.str(n, id, field)
	if n.Kind == yaml.ScalarNode && strings.TrimSpace(s) == "" {
		p.add(n, id, field+" is empty")
	}
	return s
}

func (p *parser) enum(n *yaml.Node, id, field string, values []string) string {
	s := p.str(n, id, field)
	if n.Kind == yaml.ScalarNode && !slices.Contains(values, s) {
		what := fmt.Sprintf("unknown %s %q", field, s)
		if strings.ContainsAny(field, ".: ") {
			what = fmt.Sprintf("%s: unknown value %q", field, s)
		}
		p.add(n, id, fmt.Sprintf("%s (want one of: %s)", what, strings.Join(values, ", ")))
		return ""
	}
	return s
}

func (p *parser) strList(n *yaml.Node, id, field string) []string {
	if n.Kind != yaml.SequenceNode {
		p.add(n, id, field+" must be a list of strings")
		return nil
	}
	var out []string
	for _, e := range n.Content {
		if s := p.nonEmpty(e, id, field+" entry"); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func (p *parser) boolean(n *yaml.Node, id, field string) bool {
	var b bool
	if n.Kind != yaml.ScalarNode || n.Decode(&b) != nil {
		p.add(n, id, field+" must be true or false")
	}
	return b
}

func (p *parser) integer(n *yaml.Node, id, field string) int {
	var v int
	if n.Kind != yaml.ScalarNode || n.Decode(&v) != nil || v < 0 {
		p.add(n, id, field+" must be a whole number ≥ 0")
	}
	return v
}
