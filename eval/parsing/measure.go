package parsing

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/searchbench/searchbench/orchestrator/executor"
)

// Row kinds.
const (
	KindStrategy = "strategy" // one strategy alone, on the outputs produced under its own prompt
	KindChain    = "chain"    // primary→fallback, on the outputs produced under the primary's prompt
	KindNoCall   = "no_call"  // one strategy alone, on every output that holds no call, whatever the prompt
	// KindSeedFieldRule is a strategy or chain under the seed's literal
	// field rule (fallback_field read only when source_field is empty), on
	// its own prompt's outputs: the rule the default replaced, kept for
	// comparison.
	KindSeedFieldRule = "seed_field_rule"
	// KindForm is one strategy alone on the outputs of one written form
	// (a "form:" tag of the dataset), whatever the prompt.
	KindForm = "form"
)

// FormTags are the dataset tags of the tool-call forms written by others
// (datasets/parser.yaml's header), in the order the forms table shows them.
// A "form:" tag not listed here is an error (see Measure), never a form the
// table silently leaves out.
var FormTags = []string{"form:harmony", "form:react-json", "form:action-next-line", "form:python-dict", "form:final-answer-first", "form:llamaindex",
	"form:loose-react", "form:hermes", "form:qwen3-xml", "form:mistral", "form:llama3-json", "form:pythonic", "form:granite", "form:internlm", "form:deepseek-v3", "form:final-answer",
	"form:tool-reply", "form:harmony-stripped", "form:vllm-required", "form:chat-completion", "form:narration",
	"form:kimi-k2", "form:glm45", "form:seed-oss", "form:minimax-m2",
	"form:phi4-mini-json", "form:jamba", "form:minimax", "form:xlam", "form:step3", "form:longcat", "form:olmo3", "form:apertus"}

// Proportion is K out of N with its Wilson score 95% interval, rounded to
// four decimals. Rate, Low and High are 0 when N is 0.
type Proportion struct {
	K    int     `json:"k"`
	N    int     `json:"n"`
	Rate float64 `json:"rate"`
	Low  float64 `json:"low"`
	High float64 `json:"high"`
}

// Failure is a case a row got wrong, and why.
type Failure struct {
	Case   string `json:"case"`
	Reason string `json:"reason"`
}

// Row is the measurement of one strategy or chain on one set of cases.
type Row struct {
	Name     string `json:"name"` // "react", "react→fuzzy"
	Kind     string `json:"kind"`
	Strategy string `json:"strategy"`
	Fallback string `json:"fallback,omitempty"`
	// Fields says which message field is read: "content", or
	// "reasoning, else content" (content only when reasoning is empty).
	Fields string `json:"fields"`
	// Scope says which cases the row is measured on.
	Scope string `json:"scope"`
	Cases int    `json:"cases"`
	// Recommended marks the seed's recommended configuration (react→fuzzy).
	Recommended bool `json:"recommended,omitempty"`
	// Form is the form tag a "form" row is measured on.
	Form string `json:"form,omitempty"`

	// Exact: cases whose extracted call list equals the expected one, in
	// order, names and arguments.
	Exact Proportion `json:"exact"`
	// Precision: extracted calls that match an expected call (name and
	// arguments), over extracted calls.
	Precision Proportion `json:"precision"`
	// Recall: expected calls that were extracted, over expected calls.
	Recall Proportion `json:"recall"`
	// FalseExtractions: cases expecting no call where at least one call
	// was extracted, over cases expecting no call.
	FalseExtractions Proportion `json:"false_extractions"`

	// Failures lists, in dataset order, the cases whose calls were not
	// exactly the expected ones.
	Failures []Failure `json:"failures"`
}

// Report is the whole measurement, rows in a fixed order: the four
// strategies, the twelve chains (primary in seed order, then fallback), then
// the four strategies on the no-call cases.
type Report struct {
	Cases int   `json:"cases"`
	Rows  []Row `json:"rows"`
}

// claimed is the seed's "Choosing a Strategy" table.
var claimed = map[string]string{
	executor.GuidedJSON: "Very High",
	executor.ReAct:      "High",
	executor.Markers:    "Low-Medium",
	executor.Fuzzy:      "Medium",
}

// Claimed returns the reliability the seed claims for a strategy ("" for
// an unknown one), for a side-by-side column.
func Claimed(strategy string) string { return claimed[strategy] }

// Spec is one row of the measurement: a strategy alone or a
// primary→fallback chain, and the cases it is measured on.
type Spec struct {
	Name     string // "react", "react→fuzzy"
	Kind     string
	Strategy string
	Fallback string
	Fields   string
	Scope    string
	// Recommended marks the seed's recommended configuration.
	Recommended bool
	// Form is the form tag a KindForm row is measured on.
	Form string

	parser *executor.Parser
	in     func(Case) bool
}

// StrategiesOrder lists the strategies in the order the rows use.
func StrategiesOrder() []string { return slices.Clone(executor.Strategies) }

// Specs returns the rows in their fixed order: the four strategies, the
// twelve chains (primary in seed order, then fallback), the four strategies
// on the no-call cases, the strategies that read reasoning and the seed's
// recommended chain under the seed's literal field rule, then each form
// under each strategy. Parsers are compiled once here.
func Specs() ([]Spec, error) {
	var specs []Spec
	add := func(kind, primary, fallback, rule, scope string, in func(Case) bool) (*Spec, error) {
		cfg, err := executor.DefaultConfigFor(primary)
		if err != nil {
			return nil, err
		}
		cfg.Parser.FallbackStrategy = fallback
		if rule != "" {
			cfg.Parser.FieldRule = rule
		}
		p, err := executor.New(cfg.Parser)
		if err != nil {
			return nil, fmt.Errorf("measuring %s: %w", primary, err)
		}
		sp := Spec{Name: primary, Kind: kind, Strategy: primary, Fallback: fallback, Fields: fields(cfg.Parser), Scope: scope, parser: p, in: in}
		if fallback != "" {
			sp.Name += "→" + fallback
			sp.Recommended = kind == KindChain && cfg.Parser == executor.DefaultConfig().Parser
		}
		specs = append(specs, sp)
		return &specs[len(specs)-1], nil
	}
	for _, s := range executor.Strategies {
		if _, err := add(KindStrategy, s, "", "", "prompt="+s, promptIs(s)); err != nil {
			return nil, err
		}
	}
	for _, p := range executor.Strategies {
		for _, f := range executor.Strategies {
			if f != p {
				if _, err := add(KindChain, p, f, "", "prompt="+p, promptIs(p)); err != nil {
					return nil, err
				}
			}
		}
	}
	for _, s := range executor.Strategies {
		if _, err := add(KindNoCall, s, "", "", "expect=[] (all prompts)", func(c Case) bool { return len(c.Expect) == 0 }); err != nil {
			return nil, err
		}
	}
	seed := executor.DefaultConfig().Parser
	for _, pf := range [][2]string{{executor.ReAct, ""}, {executor.Markers, ""}, {executor.Fuzzy, ""}, {seed.Strategy, seed.FallbackStrategy}} {
		sp, err := add(KindSeedFieldRule, pf[0], pf[1], executor.FieldRuleEmpty, "prompt="+pf[0], promptIs(pf[0]))
		if err != nil {
			return nil, err
		}
		sp.Name += " (seed field rule)"
	}
	for _, tag := range FormTags {
		for _, s := range executor.Strategies {
			sp, err := add(KindForm, s, "", "", "tag="+tag, func(c Case) bool { return slices.Contains(c.Tags, tag) })
			if err != nil {
				return nil, err
			}
			sp.Name, sp.Form = tag+" / "+s, tag
		}
	}
	return specs, nil
}

// Applies reports whether the row is measured on c.
func (sp Spec) Applies(c Case) bool { return sp.in(c) }

// Tally is what cases contribute to a row. A case's own tally has Cases 1.
type Tally struct {
	Cases     int `json:"cases"`
	Exact     int `json:"exact"`     // cases whose calls are exactly the expected ones
	Matched   int `json:"matched"`   // extracted calls that match a distinct expected call
	Extracted int `json:"extracted"` // calls extracted
	Expected  int `json:"expected"`  // calls expected
	NoCall    int `json:"no_call"`   // cases expecting no call
	False     int `json:"false"`     // cases expecting no call where a call was extracted
}

// Add adds o to t.
func (t *Tally) Add(o Tally) {
	t.Cases += o.Cases
	t.Exact += o.Exact
	t.Matched += o.Matched
	t.Extracted += o.Extracted
	t.Expected += o.Expected
	t.NoCall += o.NoCall
	t.False += o.False
}

// Measure runs the row's parser on one case. The reason is empty when the
// extracted calls are exactly the expected ones.
func (sp Spec) Measure(c Case) (Tally, string) {
	res := sp.parser.Extract(c.Message())
	t := Tally{Cases: 1, Matched: matched(res.Calls, c.Expect), Extracted: len(res.Calls), Expected: len(c.Expect)}
	if len(c.Expect) == 0 {
		t.NoCall = 1
		if len(res.Calls) > 0 {
			t.False = 1
		}
	}
	if sameCalls(res.Calls, c.Expect) {
		t.Exact = 1
		return t, ""
	}
	return t, reason(c, res)
}

// Row returns the row of sp for a total tally.
func (sp Spec) Row(t Tally, failures []Failure) Row {
	if failures == nil {
		failures = []Failure{}
	}
	return Row{
		Name: sp.Name, Kind: sp.Kind, Strategy: sp.Strategy, Fallback: sp.Fallback,
		Fields: sp.Fields, Scope: sp.Scope, Cases: t.Cases, Recommended: sp.Recommended, Form: sp.Form,
		Exact:            Wilson(t.Exact, t.Cases),
		Precision:        Wilson(t.Matched, t.Extracted),
		Recall:           Wilson(t.Matched, t.Expected),
		FalseExtractions: Wilson(t.False, t.NoCall),
		Failures:         failures,
	}
}

// Measure runs every row over cases. It is deterministic: the same cases
// give the same report.
func Measure(cases []Case) (Report, error) {
	specs, err := Specs()
	if err != nil {
		return Report{}, err
	}
	for _, c := range cases {
		for _, t := range c.Tags {
			if strings.HasPrefix(t, "form:") && !slices.Contains(FormTags, t) {
				return Report{}, fmt.Errorf("case %s: tag %q is not a known form (parsing.FormTags: %s)", c.ID, t, strings.Join(FormTags, ", "))
			}
		}
	}
	rep := Report{Cases: len(cases)}
	for _, sp := range specs {
		var total Tally
		var failures []Failure
		for _, c := range cases {
			if !sp.Applies(c) {
				continue
			}
			t, why := sp.Measure(c)
			total.Add(t)
			if why != "" {
				failures = append(failures, Failure{Case: c.ID, Reason: why})
			}
		}
		rep.Rows = append(rep.Rows, sp.Row(total, failures))
	}
	return rep, nil
}

func promptIs(s string) func(Case) bool { return func(c Case) bool { return c.Prompt == s } }

func fields(c executor.ParserConfig) string {
	switch {
	case c.FallbackField == "":
		return c.SourceField
	case c.FieldRule == executor.FieldRuleEmpty:
		return c.SourceField + ", else " + c.FallbackField + " (when empty)"
	}
	return c.SourceField + ", then " + c.FallbackField
}

// Wilson returns k out of n with its Wilson score 95% interval.
func Wilson(k, n int) Proportion {
	p := Proportion{K: k, N: n}
	if n == 0 {
		return p
	}
	const z = 1.959963984540054
	nf := float64(n)
	ph := float64(k) / nf
	den := 1 + z*z/nf
	center := (ph + z*z/(2*nf)) / den
	half := z * math.Sqrt(ph*(1-ph)/nf+z*z/(4*nf*nf)) / den
	p.Rate = round4(ph)
	p.Low = round4(math.Max(0, center-half))
	p.High = round4(math.Min(1, center+half))
	return p
}

// round4 keeps four decimals, so reports are byte-identical across
// platforms (arm64 may fuse multiply-adds and differ in the last bits).
func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

// canonical reduces a call to comparable form: arguments through JSON, so
// a YAML int and a JSON number, or a map and its decoded twin, compare equal.
func canonical(c executor.Call) (string, any) {
	b, err := json.Marshal(c.Arguments)
	if err != nil {
		return c.Name, fmt.Sprint(c.Arguments)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return c.Name, string(b)
	}
	if v == nil {
		v = map[string]any{}
	}
	return c.Name, v
}

func equalCall(a, b executor.Call) bool {
	an, av := canonical(a)
	bn, bv := canonical(b)
	return an == bn && reflect.DeepEqual(av, bv)
}

func sameCalls(got, want []executor.Call) bool {
	return slices.EqualFunc(got, want, equalCall)
}

// matched counts the extracted calls that match a distinct expected call.
func matched(got, want []executor.Call) int {
	used := make([]bool, len(want))
	n := 0
	for _, g := range got {
		for i, w := range want {
			if !used[i] && equalCall(g, w) {
				used[i] = true
				n++
				break
			}
		}
	}
	return n
}

// reason explains a failure: what was wanted, what came out, which field
// was read and which strategy matched, and the findings that mattered.
func reason(c Case, res executor.Result) string {
	var b strings.Builder
	read := res.Field
	if res.Strategy == "" && len(res.Read) > 1 {
		read = strings.Join(res.Read, " then ")
	}
	fmt.Fprintf(&b, "want %s; got %s; read %s", listCalls(c.Expect), listCalls(res.Calls), read)
	switch {
	case res.Strategy == "":
		fmt.Fprintf(&b, ", nothing matched (tried %s)", strings.Join(res.Tried, ", "))
	case res.Strategy != res.Tried[0]:
		fmt.Fprintf(&b, ", matched by %s after %s found nothing", res.Strategy, res.Tried[0])
	default:
		fmt.Fprintf(&b, ", matched by %s", res.Strategy)
	}
	var kinds []string
	for _, f := range res.Findings {
		if f.Kind != executor.FindingNormalized && !slices.Contains(kinds, f.Kind) {
			kinds = append(kinds, f.Kind)
		}
	}
	if len(kinds) > 0 {
		fmt.Fprintf(&b, "; findings: %s", strings.Join(kinds, ", "))
	}
	other := executor.FieldContent
	if res.Field == executor.FieldContent {
		other = executor.FieldReasoning
	}
	if len(c.Expect) > 0 && strings.TrimSpace(c.Message().Field(other)) != "" && !slices.Contains(res.Read, other) {
		fmt.Fprintf(&b, "; %s (not read) is non-empty", other)
	}
	return b.String()
}

func listCalls(cs []executor.Call) string {
	if len(cs) == 0 {
		return "none"
	}
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = c.String()
	}
	return strings.Join(s, ", ")
}
