package executor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

// Message fields a strategy can read.
const (
	FieldReasoning = "reasoning" // GPT-OSS's reasoning (vLLM: reasoning or reasoning_content)
	FieldContent   = "content"
)

// Message is the part of a model response the executor reads.
type Message struct {
	Reasoning string `json:"reasoning"`
	Content   string `json:"content"`
}

// Field returns the named field's text.
func (m Message) Field(name string) string {
	if name == FieldReasoning {
		return m.Reasoning
	}
	return m.Content
}

// Result is what extraction made of one message.
type Result struct {
	// Strategy is the strategy that recognised the output, "" when none did.
	Strategy string `json:"strategy"`
	// Tried lists the strategies run, primary first.
	Tried []string `json:"tried"`
	// Read lists the message fields read, in order (not serialised: Field
	// says where the calls came from).
	Read []string `json:"-"`
	// Field is the message field that was read: the one the calls came
	// from, or the first one read when nothing matched.
	Field string `json:"field"`
	// Form is the written form the strategy recognised (Form*): "harmony"
	// when the calls were in GPT-OSS's raw format, "react_json" for a
	// LangChain blob, and so on; "" when nothing matched.
	Form     string    `json:"form,omitempty"`
	Calls    []Call    `json:"calls"`
	Done     bool      `json:"done"` // the model said it is finished (Action: done, [DONE], "done": true)
	Findings []Finding `json:"findings"`
}

// Parser extracts tool calls with a configured primary and fallback strategy.
// It is safe for concurrent use.
type Parser struct {
	cfg        ParserConfig
	schema     *jsonschema.Schema
	schemaJSON []byte
}

// New returns a Parser for cfg. The guided schema is read and compiled here,
// once: the embedded seed schema when cfg.GuidedJSONSchemaPath is empty.
func New(cfg ParserConfig) (*Parser, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	p := &Parser{cfg: cfg}
	if cfg.GuidedJSONSchemaPath == "" {
		sch, err := seedCompiled()
		if err != nil {
			return nil, err
		}
		p.schema, p.schemaJSON = sch, seedSchema
		return p, nil
	}
	data, err := os.ReadFile(cfg.GuidedJSONSchemaPath)
	if err != nil {
		return nil, fmt.Errorf("guided_json_schema_path: %w", err)
	}
	sch, err := compileSchema(cfg.GuidedJSONSchemaPath, data)
	if err != nil {
		return nil, err
	}
	p.schema, p.schemaJSON = sch, data
	return p, nil
}

// Config returns the parser's configuration.
func (p *Parser) Config() ParserConfig { return p.cfg }

// Constraint builds the guided-decoding request fields for the parser's
// schema (see GuidedConstraint).
func (p *Parser) Constraint(mode string) (Constraint, error) {
	return constraint(mode, p.schemaJSON)
}

// Extract runs the primary strategy and, when it recognises nothing, the
// fallback strategy, over the message fields the field rule names, and
// checks every extracted call (Check).
//
// Under FieldRuleNoMatch (the default) each strategy reads the source field
// and, when it finds nothing there, the fallback field, before the fallback
// strategy runs: GPT-OSS's usual layout, reasoning in reasoning and the
// Action block in content, is read. Under FieldRuleEmpty, the seed's
// literal rule, the fallback field is read only when the source field is
// empty, and a non-empty reasoning hides the calls in content.
func (p *Parser) Extract(m Message) Result {
	fields := p.fields(m)
	res := Result{Field: fields[0], Tried: []string{}, Read: fields}
	// Whether the message is an answer matters to the fuzzy strategy only,
	// and reading it costs a scan of both fields: it is read when needed.
	var isAns, known bool
	answer := func() bool {
		if !known {
			isAns, known = isAnswer(m.Reasoning) || isAnswer(m.Content), true
		}
		return isAns
	}
	for _, s := range []string{p.cfg.Strategy, p.cfg.FallbackStrategy} {
		if s == "" {
			continue
		}
		res.Tried = append(res.Tried, s)
		for _, f := range fields {
			out := p.run(s, m.Field(f), answer)
			if out.matched {
				res.Strategy, res.Field, res.Form = s, f, out.form
				res.Calls, res.Done, res.Findings = out.calls, out.done, out.findings
				finish(&res)
				return res
			}
		}
	}
	finish(&res)
	return res
}

// fields lists the message fields Extract reads, in order, by the field
// rule. An empty field is never read unless nothing else can be.
func (p *Parser) fields(m Message) []string {
	src, fb := p.cfg.SourceField, p.cfg.FallbackField
	srcEmpty := strings.TrimSpace(m.Field(src)) == ""
	switch {
	case fb == "":
		return []string{src}
	case srcEmpty:
		return []string{fb}
	case p.cfg.FieldRule == FieldRuleEmpty || strings.TrimSpace(m.Field(fb)) == "":
		return []string{src}
	}
	return []string{src, fb}
}

// ParseText runs one strategy on text, without field selection or fallback,
// and checks the calls it extracts.
func (p *Parser) ParseText(strategy, text string) (Result, error) {
	if err := checkStrategy(strategy); err != nil {
		return Result{}, err
	}
	res := Result{Tried: []string{strategy}}
	if out := p.run(strategy, text, func() bool { return isAnswer(text) }); out.matched {
		res.Strategy, res.Form = strategy, out.form
		res.Calls, res.Done, res.Findings = out.calls, out.done, out.findings
	}
	finish(&res)
	return res, nil
}

// run runs one strategy. Calls in GPT-OSS's raw harmony format are
// recognised first, whatever the strategy: it is the model's own format;
// then the other open models' formats (parseNative).
//
// answer says whether the message is an answer (isAnswer, in either
// field): the fuzzy patterns never read calls into one.
func (p *Parser) run(strategy, text string, answer func() bool) parsed {
	if h := parseHarmony(text, strategy); h.matched {
		return h
	}
	if n := parseNative(text, strategy); n.matched {
		return n
	}
	switch strategy {
	case GuidedJSON:
		return parseGuided(text, p.schema)
	case ReAct:
		return parseReact(text)
	case Markers:
		return parseMarkers(text)
	case Fuzzy:
		if answer() {
			return parsed{}
		}
		return parseFuzzy(text)
	}
	return parsed{}
}

// finish normalises and checks the calls, and makes the slices non-nil so
// the JSON shows [] rather than null.
func finish(res *Result) {
	kept := res.Calls[:0]
	for _, c := range res.Calls {
		if isFinalAnswer(c.Name) {
			// smolagents' and others' way to end: the answer, not a tool
			// to run.
			res.Done = true
			res.Findings = append(res.Findings, Finding{Kind: FindingFinalAnswer, Strategy: res.Strategy,
				Message: fmt.Sprintf("%q gives the final answer: no call", c.Name)})
			continue
		}
		kept = append(kept, c)
	}
	res.Calls = kept
	if res.Calls == nil {
		res.Calls = []Call{}
	}
	if res.Findings == nil {
		res.Findings = []Finding{}
	}
	for i, c := range res.Calls {
		if c.Arguments == nil {
			c.Arguments = map[string]any{}
		}
		c, fs := normalize(c)
		res.Calls[i] = c
		for _, f := range append(fs, Check(c)...) {
			f.Call = i + 1
			res.Findings = append(res.Findings, f)
		}
	}
}

// FindingFinalAnswer notes a "call" of final_answer read as the answer.
const FindingFinalAnswer = "final_answer"

// isFinalAnswer reports a tool name that agent frameworks use to end with
// the answer (smolagents' final_answer; "Final Answer"), never a tool.
func isFinalAnswer(name string) bool {
	n := strings.NewReplacer(" ", "_", "-", "_").Replace(strings.ToLower(strings.TrimSpace(name)))
	return n == "final_answer" || n == "finalanswer"
}

// messageKeys are the keys a message object may have; any other key means
// the input is not a message but raw model output (a guided JSON object has
// tool_calls, a ReAct block read as YAML has Thought and Action).
var messageKeys = map[string]bool{"role": true, "reasoning": true, "reasoning_content": true, "content": true}

// DecodeMessage reads a model output given either as raw text (taken as the
// content field) or as a JSON or YAML object with reasoning and/or content
// (vLLM's reasoning_content is read when reasoning is absent). A chat
// completion response ({"choices":[{"message":…}]}) gives its first message.
func DecodeMessage(data []byte) Message {
	raw := Message{Content: string(data)}
	trimmed := bytes.TrimSpace(data)
	var obj map[string]any
	if len(trimmed) > 0 && trimmed[0] == '{' {
		if json.Unmarshal(trimmed, &obj) != nil {
			return raw
		}
	} else if yaml.Unmarshal(trimmed, &obj) != nil {
		return raw
	}
	if choices, ok := obj["choices"].([]any); ok && len(choices) > 0 {
		// A response message also has role, tool_calls, refusal…: read
		// only the text fields.
		first, _ := choices[0].(map[string]any)
		msg, _ := first["message"].(map[string]any)
		if msg == nil {
			return raw
		}
		if tcs, _ := msg["tool_calls"].([]any); len(tcs) > 0 {
			// The calls are in tool_calls: the whole response is read
			// (readChatCompletion), not its text fields alone.
			return raw
		}
		var m Message
		m.Content, _ = msg["content"].(string)
		if r, ok := msg["reasoning"].(string); ok {
			m.Reasoning = r
		} else {
			m.Reasoning, _ = msg["reasoning_content"].(string)
		}
		return m
	}
	var m Message
	found := false
	for k, v := range obj {
		if !messageKeys[k] {
			return raw
		}
		s, isString := v.(string)
		if v != nil && !isString {
			return raw
		}
		switch k {
		case "reasoning":
			m.Reasoning, found = s, true
		case "reasoning_content":
			if _, has := obj["reasoning"]; !has {
				m.Reasoning, found = s, true
			}
		case "content":
			m.Content, found = s, true
		}
	}
	if !found {
		return raw
	}
	return m
}
