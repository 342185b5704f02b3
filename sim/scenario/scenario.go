// Package scenario parses the data behind the loopback simulator (package
// sim): the corpus of web documents that the simulated Tavily and Exa search,
// and per prompt variant the scripts that make the simulated GPT-OSS model
// deviate from its default policy for chosen queries. The files themselves
// live in fixtures/ (data only).
//
// In the pipeline the simulator stands in for the live services when the
// harness records cassettes, so every shipped cassette is reproducible from
// this data alone. Both kinds of file are embedded and parsed strictly: an
// unknown key, an unknown fault or route, a duplicate URL or query is
// reported with its file:line, all problems at once.
//
// Corpus files (corpus/*.yaml):
//
//	topic: <free text>
//	documents:
//	  - url: https://…          # absolute http(s), unique across the corpus
//	    title: …
//	    content: …              # 2–4 sentences
//	    published: 2024-05-01T00:00:00Z   # optional, RFC 3339
//	    author: …               # optional
//
// Script files (scripts/<variant>.yaml):
//
//	extends: seed               # optional: inherit that variant's scripts
//	scripts:
//	  - query: Who is the current CEO of Microsoft?
//	    note: …                 # optional, why the script exists
//	    phase1: …               # optional Phase 1 answer body (header and consent question are added)
//	    decline: …              # optional reply after the user declines
//	    route: tavily_only      # optional route override (a misroute, say)
//	    calls:                  # optional explicit tool calls, in order
//	      - {round: 1, tool: tavily_search, query: microsoft ceo}
//	    verification: corrected # optional: confirmed (default) or corrected
//	    faults: [rate_limit]    # optional, from Faults
//
// Scripts are keyed by the query's normalized form (NormalizeQuery), so an
// override "?" or different spacing still finds them.
package scenario

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/searchbench/searchbench/fixtures"
	"github.com/searchbench/searchbench/lib/problem"
)

var files = fixtures.FS

// Document is one web page of the corpus.
type Document struct {
	URL       string
	Title     string
	Content   string
	Published string // RFC 3339, or "" when unknown
	Author    string
	File      string // where it was defined, for messages
	Line      int
}

// Problem is one thing wrong in a fixture file.
type Problem = problem.Problem

// Error lists every problem found in fixture files.
type Error = problem.List

func newError(ps []Problem) *Error { return &Error{What: "fixtures", Problems: ps} }

// ErrNoScripts is returned by Scripts for a variant that has no script file.
var ErrNoScripts = errors.New("no script file for this prompt variant")

var corpusOnce = sync.OnceValues(func() ([]Document, error) {
	names, err := fs.Glob(files, "corpus/*.yaml")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var docs []Document
	var problems []Problem
	seen := map[string]Document{}
	for _, name := range names {
		data, err := files.ReadFile(name)
		if err != nil {
			return nil, err
		}
		ds, err := ParseCorpus("fixtures/"+name, data)
		var fe *Error
		if errors.As(err, &fe) {
			problems = append(problems, fe.Problems...)
		} else if err != nil {
			return nil, err
		}
		for _, d := range ds {
			if prev, dup := seen[d.URL]; dup {
				problems = append(problems, Problem{File: d.File, Line: d.Line, Msg: fmt.Sprintf("url %s is also the url of the document at %s:%d", d.URL, prev.File, prev.Line)})
				continue
			}
			seen[d.URL] = d
			docs = append(docs, d)
		}
	}
	if len(problems) > 0 {
		return nil, newError(problems)
	}
	return docs, nil
})

// Corpus returns every document of the embedded corpus, in file order (files
// sorted by name). It is parsed once; callers must not modify the slice.
func Corpus() ([]Document, error) { return corpusOnce() }

// ParseCorpus decodes one corpus file. name is used in problems.
func ParseCorpus(name string, data []byte) ([]Document, error) {
	p := &parser{file: name}
	root := p.document(data)
	if root == nil {
		return nil, p.err()
	}
	fields := p.mapping(root, "corpus file", []string{"topic", "documents"}, []string{"documents"})
	var docs []Document
	if n := fields["documents"]; n != nil {
		if n.Kind != yaml.SequenceNode {
			p.add(n, "documents must be a list")
		} else {
			for _, dn := range n.Content {
				if d, ok := p.doc(dn); ok {
					docs = append(docs, d)
				}
			}
		}
	}
	return docs, p.err()
}

func (p *parser) doc(n *yaml.Node) (Document, bool) {
	f := p.mapping(n, "document", []string{"url", "title", "content", "published", "author"}, []string{"url", "title", "content"})
	if f == nil {
		return Document{}, false
	}
	d := Document{File: p.file, Line: n.Line}
	before := len(p.problems)
	d.URL = p.nonEmpty(f["url"], "url")
	d.Title = p.nonEmpty(f["title"], "title")
	d.Content = p.nonEmpty(f["content"], "content")
	d.Author = p.str(f["author"], "author")
	d.Published = p.str(f["published"], "published")
	if u, err := url.Parse(d.URL); d.URL != "" && (err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "") {
		p.add(f["url"], fmt.Sprintf("url %q is not an absolute http(s) URL", d.URL))
	}
	if strings.ContainsAny(d.Title, "\n\r") {
		p.add(f["title"], "title contains a line break")
	}
	if d.Published != "" {
		if _, err := time.Parse(time.RFC3339, d.Published); err != nil {
			p.add(f["published"], fmt.Sprintf("published %q is not an RFC 3339 timestamp", d.Published))
		}
	}
	return d, len(p.problems) == before
}

// Routes a script may force.
const (
	RouteTavilyOnly    = "tavily_only"
	RouteExaOnly       = "exa_only"
	RouteTavilyPlusExa = "tavily_plus_exa"
)

// Tools a scripted call may name.
const (
	ToolTavily = "tavily_search"
	ToolExa    = "exa_search"
)

// Verification choices of a script when a Phase 1 answer exists.
const (
	VerifyConfirmed = "confirmed"
	VerifyCorrected = "corrected"
)

// Fault is one scripted failure of the simulated services.
type Fault string

// The closed set of faults. Phase 1 faults change Phase 1 replies; tool-use
// faults change the model's tool calls; answer faults change the final
// Phase 2 reply; transport faults change HTTP answers. Faults that only
// concern printed markdown (md_*) have no effect in structured mode, where
// the app prints the markdown.
const (
	FaultPhase1NamesTool          Fault = "phase1_names_tool"          // Phase 1 answer names "Tavily"
	FaultPhase1StraightApostrophe Fault = "phase1_straight_apostrophe" // consent question with "haven't"
	FaultPhase1CoT                Fault = "phase1_cot"                 // chain of thought inside Phase 1 content
	FaultFourthQuery              Fault = "fourth_query"               // asks one tool a fourth time (the app refuses it)
	FaultOrderMiss                Fault = "order_miss"                 // tavily_plus_exa asking Tavily before Exa
	FaultMDTrailingSpace          Fault = "md_trailing_space"          // printed markdown: trailing space on a bullet
	FaultMDSmartQuotes            Fault = "md_smart_quotes"            // printed markdown: typographic quotes
	FaultMDReorderSources         Fault = "md_reorder_sources"         // printed markdown: first two sources swapped
	FaultOverlongBullet           Fault = "overlong_bullet"            // a bullet over 18 words, in JSON and markdown
	FaultWrongVerification        Fault = "wrong_verification"         // the wrong verification sentence
	FaultInvalidJSON              Fault = "invalid_json"               // the JSON envelope is cut short
	FaultSchemaInvalid            Fault = "schema_invalid"             // valid JSON citing a source that does not exist
	FaultNullContent              Fault = "null_content"               // content null, finish_reason stop
	FaultEmptyLength              Fault = "empty_length"               // content "", finish_reason length
	FaultCoTInContent             Fault = "cot_in_content"             // chain of thought before the Phase 2 answer
	FaultRateLimit                Fault = "rate_limit"                 // 429 the first time the first Phase 2 request arrives
	FaultExaNoCredits             Fault = "exa_no_credits"             // Exa 402 NO_MORE_CREDITS for this query's searches
	FaultExaOverloaded            Fault = "exa_overloaded"             // Exa 503 the first time each of this query's searches arrives
	FaultExaDown                  Fault = "exa_down"                   // Exa 503 every time: the retries run out
	FaultNoResults                Fault = "no_results"                 // Tavily and Exa find nothing for this query's searches

	// Grounding faults: a well-formed answer that does not match what the
	// turn retrieved (the grounding scorer catches them).
	FaultCiteUnretrieved Fault = "cite_unretrieved" // a source URL no search returned (same site, invented path)
	FaultSwapCitations   Fault = "swap_citations"   // the first two bullets cite each other's source
	FaultWrongYear       Fault = "wrong_year"       // a year in a bullet changed to one no result mentions
	FaultBorrowTitle     Fault = "borrow_title"     // the first source carries the second source's title

	// Tavily error bodies ({"detail":{"error":…}}, as tavily-python reads
	// them) for this query's Tavily searches.
	FaultTavilyRateLimited Fault = "tavily_rate_limited" // 429 the first time each search arrives (retried)
	FaultTavilyPlanLimit   Fault = "tavily_plan_limit"   // 432: the plan's usage limit (not retried)
	FaultTavilyPaygoLimit  Fault = "tavily_paygo_limit"  // 433: the pay-as-you-go limit (not retried)
	FaultTavilyServerError Fault = "tavily_server_error" // 500 the first time each search arrives (retried)
)

// Faults lists every fault, in documentation order.
var Faults = []Fault{
	FaultPhase1NamesTool, FaultPhase1StraightApostrophe, FaultPhase1CoT,
	FaultFourthQuery, FaultOrderMiss,
	FaultMDTrailingSpace, FaultMDSmartQuotes, FaultMDReorderSources, FaultOverlongBullet,
	FaultWrongVerification, FaultInvalidJSON, FaultSchemaInvalid, FaultNullContent,
	FaultEmptyLength, FaultCoTInContent,
	FaultRateLimit, FaultExaNoCredits, FaultExaOverloaded, FaultExaDown, FaultNoResults,
	FaultCiteUnretrieved, FaultSwapCitations, FaultWrongYear, FaultBorrowTitle,
	FaultTavilyRateLimited, FaultTavilyPlanLimit, FaultTavilyPaygoLimit, FaultTavilyServerError,
}

// Call is one scripted tool call.
type Call struct {
	Round int    // 1-based model round that asks for it
	Tool  string // ToolTavily or ToolExa
	Query string
}

// Script is the scripted behaviour for one query.
type Script struct {
	Query        string
	Note         string
	Phase1       string // Phase 1 answer body; "" = the default
	Decline      string // reply after a decline; "" = the default
	Route        string // "" = the policy's route
	Calls        []Call // explicit calls; nil = the policy's calls for the route
	Verification string // "" or VerifyConfirmed: confirmed; VerifyCorrected
	Faults       []Fault
	File         string
	Line         int
}

// Has reports whether s (which may be nil) carries fault f.
func (s *Script) Has(f Fault) bool {
	return s != nil && slices.Contains(s.Faults, f)
}

// ScriptSet is the scripts of one prompt variant, inherited ones included.
type ScriptSet struct {
	Variant string
	Extends string    // the policy whose scripts (and routing rules) it inherits; "" for none
	Scripts []*Script // own scripts first, then inherited ones not overridden
	byKey   map[string]*Script
}

// Lookup returns the script for query (compared by NormalizeQuery), or nil.
func (s *ScriptSet) Lookup(query string) *Script {
	if s == nil {
		return nil
	}
	return s.byKey[NormalizeQuery(query)]
}

// NormalizeQuery is the key scripts are matched by: the query with
// override question marks and surrounding space trimmed, inner space
// collapsed, typographic apostrophes made straight, lower case.
func NormalizeQuery(q string) string {
	q = strings.Trim(q, "? \t\r\n\u00a0")
	q = strings.ReplaceAll(q, "\u2019", "'")
	return strings.ToLower(strings.Join(strings.Fields(q), " "))
}

type scriptFile struct {
	extends string
	set     *ScriptSet
}

var (
	scriptsMu    sync.Mutex
	scriptsCache = map[string]*ScriptSet{}
)

// ScriptNames lists the variants that have a scripts file, sorted: the
// simulator's policies.
func ScriptNames() []string {
	entries, _ := fs.ReadDir(files, "scripts")
	var out []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".yaml"); ok && !e.IsDir() {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// Scripts returns the scripts of a prompt variant from the embedded
// scripts/<variant>.yaml, with the scripts of the variant it extends. It is
// parsed once per variant. A variant without a file gives an error wrapping
// ErrNoScripts.
func Scripts(variant string) (*ScriptSet, error) {
	scriptsMu.Lock()
	defer scriptsMu.Unlock()
	return loadScripts(variant, nil)
}

func loadScripts(variant string, chain []string) (*ScriptSet, error) {
	if s, ok := scriptsCache[variant]; ok {
		return s, nil
	}
	if slices.Contains(chain, variant) {
		return nil, fmt.Errorf("scripts: variant %q extends itself (%s)", variant, strings.Join(append(chain, variant), " -> "))
	}
	name := path.Join("scripts", variant+".yaml")
	data, err := files.ReadFile(name)
	if err != nil || strings.ContainsAny(variant, "/\\") || variant == "" {
		return nil, fmt.Errorf("scripts for variant %q: %w", variant, ErrNoScripts)
	}
	sf, err := parseScriptFile(variant, "fixtures/"+name, data)
	if err != nil {
		return nil, err
	}
	sf.set.Extends = sf.extends
	if sf.extends != "" {
		base, err := loadScripts(sf.extends, append(chain, variant))
		if err != nil {
			return nil, fmt.Errorf("scripts for variant %q: extends %q: %w", variant, sf.extends, err)
		}
		for _, s := range base.Scripts {
			key := NormalizeQuery(s.Query)
			if _, own := sf.set.byKey[key]; !own {
				sf.set.byKey[key] = s
				sf.set.Scripts = append(sf.set.Scripts, s)
			}
		}
	}
	scriptsCache[variant] = sf.set
	return sf.set, nil
}

// ParseScripts decodes one script file of variant without resolving
// extends. name is used in problems.
func ParseScripts(variant, name string, data []byte) (*ScriptSet, error) {
	sf, err := parseScriptFile(variant, name, data)
	if err != nil {
		return nil, err
	}
	return sf.set, nil
}

func parseScriptFile(variant, name string, data []byte) (*scriptFile, error) {
	p := &parser{file: name}
	sf := &scriptFile{set: &ScriptSet{Variant: variant, byKey: map[string]*Script{}}}
	root := p.document(data)
	if root == nil {
		return nil, p.err()
	}
	fields := p.mapping(root, "script file", []string{"extends", "scripts"}, []string{"scripts"})
	if n := fields["extends"]; n != nil {
		sf.extends = p.nonEmpty(n, "extends")
	}
	if n := fields["scripts"]; n != nil {
		if n.Kind != yaml.SequenceNode {
			p.add(n, "scripts must be a list")
		} else {
			seen := map[string]int{}
			for _, sn := range n.Content {
				s, ok := p.script(sn)
				if s == nil || NormalizeQuery(s.Query) == "" {
					continue
				}
				// Duplicates are found among invalid scripts too.
				key := NormalizeQuery(s.Query)
				if prev, dup := seen[key]; dup {
					p.add(sn, fmt.Sprintf("query %q is also scripted at line %d", s.Query, prev))
					continue
				}
				seen[key] = s.Line
				if ok {
					sf.set.byKey[key] = s
					sf.set.Scripts = append(sf.set.Scripts, s)
				}
			}
		}
	}
	if err := p.err(); err != nil {
		return nil, err
	}
	return sf, nil
}

func (p *parser) script(n *yaml.Node) (*Script, bool) {
	keys := []string{"query", "note", "phase1", "decline", "route", "calls", "verification", "faults"}
	f := p.mapping(n, "script", keys, []string{"query"})
	if f == nil {
		return nil, false
	}
	before := len(p.problems)
	s := &Script{File: p.file, Line: n.Line}
	s.Query = p.nonEmpty(f["query"], "query")
	if strings.TrimSpace(s.Query) != "" && NormalizeQuery(s.Query) == "" {
		p.add(f["query"], "query has no words")
	}
	s.Note = p.str(f["note"], "note")
	s.Phase1 = p.str(f["phase1"], "phase1")
	s.Decline = p.str(f["decline"], "decline")
	s.Phase1 = strings.TrimRight(s.Phase1, "\n")
	s.Decline = strings.TrimRight(s.Decline, "\n")
	if rn := f["route"]; rn != nil {
		s.Route = p.enum(rn, "route", []string{RouteTavilyOnly, RouteExaOnly, RouteTavilyPlusExa})
	}
	if vn := f["verification"]; vn != nil {
		s.Verification = p.enum(vn, "verification", []string{VerifyConfirmed, VerifyCorrected})
	}
	if fn := f["faults"]; fn != nil {
		if fn.Kind != yaml.SequenceNode {
			p.add(fn, "faults must be a list")
		} else {
			for _, e := range fn.Content {
				names := make([]string, len(Faults))
				for i, x := range Faults {
					names[i] = string(x)
				}
				v := p.enum(e, "fault", names)
				if v == "" {
					continue
				}
				if slices.Contains(s.Faults, Fault(v)) {
					p.add(e, fmt.Sprintf("fault %q repeated", v))
					continue
				}
				s.Faults = append(s.Faults, Fault(v))
			}
		}
	}
	if cn := f["calls"]; cn != nil {
		s.Calls = p.calls(cn)
		if len(s.Calls) > 0 {
			derived := routeOfCalls(s.Calls)
			if s.Route != "" && derived != s.Route {
				p.add(cn, fmt.Sprintf("calls make the route %s but route is %s", derived, s.Route))
			}
			for _, x := range []Fault{FaultFourthQuery, FaultOrderMiss} {
				if slices.Contains(s.Faults, x) {
					p.add(cn, fmt.Sprintf("fault %s changes the policy's calls; with explicit calls, write them out instead", x))
				}
			}
		}
	}
	if slices.Contains(s.Faults, FaultOrderMiss) && s.Route != "" && s.Route != RouteTavilyPlusExa {
		p.add(f["faults"], "fault order_miss needs route tavily_plus_exa, but route is "+s.Route)
	}
	return s, len(p.problems) == before
}

func (p *parser) calls(n *yaml.Node) []Call {
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		p.add(n, "calls must be a non-empty list")
		return nil
	}
	var out []Call
	maxRound := 0
	rounds := map[int]bool{}
	for i, cn := range n.Content {
		where := fmt.Sprintf("calls[%d]", i)
		f := p.mapping(cn, where, []string{"round", "tool", "query"}, []string{"tool", "query"})
		if f == nil {
			continue
		}
		c := Call{Round: 1}
		if rn := f["round"]; rn != nil {
			v, err := strconv.Atoi(rn.Value)
			if rn.Kind != yaml.ScalarNode || err != nil || v < 1 || v > 4 {
				p.add(rn, where+".round must be a whole number from 1 to 4")
			} else {
				c.Round = v
			}
		}
		c.Tool = p.enum(f["tool"], where+".tool", []string{ToolTavily, ToolExa})
		c.Query = p.nonEmpty(f["query"], where+".query")
		if utf8.RuneCountInString(c.Query) > 400 {
			p.add(f["query"], where+".query is longer than 400 characters")
		}
		if len(out) > 0 && c.Round < out[len(out)-1].Round {
			p.add(cn, fmt.Sprintf("%s: round %d comes after round %d; list calls in round order", where, c.Round, out[len(out)-1].Round))
		}
		rounds[c.Round] = true
		maxRound = max(maxRound, c.Round)
		out = append(out, c)
	}
	for r := 1; r <= maxRound; r++ {
		if !rounds[r] {
			p.add(n, fmt.Sprintf("calls skip round %d", r))
		}
	}
	return out
}

func routeOfCalls(calls []Call) string {
	var t, e bool
	for _, c := range calls {
		t = t || c.Tool == ToolTavily
		e = e || c.Tool == ToolExa
	}
	switch {
	case t && e:
		return RouteTavilyPlusExa
	case e:
		return RouteExaOnly
	}
	return RouteTavilyOnly
}

// parser collects problems while walking one file's YAML nodes.
type parser struct {
	file     string
	problems []Problem
}

func (p *parser) add(n *yaml.Node, msg string) {
	pr := Problem{File: p.file, Msg: msg}
	if n != nil {
		pr.Line = n.Line
	}
	p.problems = append(p.problems, pr)
}

func (p *parser) err() error {
	if len(p.problems) == 0 {
		return nil
	}
	return newError(p.problems)
}

// document decodes data and returns its root node, or nil after reporting
// why there is none.
func (p *parser) document(data []byte) *yaml.Node {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		p.problems = append(p.problems, problem.YAMLSyntax(p.file, data, err))
		return nil
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		p.problems = append(p.problems, Problem{File: p.file, Msg: "empty file"})
		return nil
	}
	return doc.Content[0]
}

// mapping checks that n is a mapping with only allowed keys, each once, and
// every required key. It returns the value node of each key present, or nil
// when n is not a mapping.
func (p *parser) mapping(n *yaml.Node, what string, allowed, required []string) map[string]*yaml.Node {
	if n.Kind != yaml.MappingNode {
		p.add(n, what+" must be a mapping")
		return nil
	}
	out := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch {
		case !slices.Contains(allowed, k.Value):
			p.add(k, fmt.Sprintf("unknown key %q in %s (allowed: %s)", k.Value, what, strings.Join(allowed, ", ")))
		case out[k.Value] != nil:
			p.add(k, fmt.Sprintf("key %q repeated in %s", k.Value, what))
		default:
			out[k.Value] = v
		}
	}
	for _, r := range required {
		if out[r] == nil {
			p.add(n, fmt.Sprintf("missing key %q in %s", r, what))
		}
	}
	return out
}

// str returns a scalar's value; a nil node (absent key) gives "".
func (p *parser) str(n *yaml.Node, field string) string {
	if n == nil {
		return ""
	}
	if n.Kind != yaml.ScalarNode {
		p.add(n, field+" must be a string")
		return ""
	}
	return n.Value
}

func (p *parser) nonEmpty(n *yaml.Node, field string) string {
	if n == nil {
		return ""
	}
	s := p.str(n, field)
	if n.Kind == yaml.ScalarNode && strings.TrimFunc(s, unicode.IsSpace) == "" {
		p.add(n, field+" is empty")
	}
	return s
}

func (p *parser) enum(n *yaml.Node, field string, values []string) string {
	if n == nil {
		return ""
	}
	s := p.str(n, field)
	if n.Kind == yaml.ScalarNode && !slices.Contains(values, s) {
		p.add(n, fmt.Sprintf("unknown %s %q (want one of: %s)", field, s, strings.Join(values, ", ")))
		return ""
	}
	return s
}
