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
	// Field is the message field that was read.
	Field    string    `json:"field"`
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

// Extract reads the source field, or the fallback field when the source is
// empty, runs the primary strategy on it and, when that recognises nothing,
// the fallback strategy. Every extracted call is checked (Check).
//
// The fallback field is chosen by emptiness alone, as the seed specifies: a
// non-empty reasoning is read even when the calls are in content.
func (p *Parser) Extract(m Message) Result {
	field := p.cfg.SourceField
	text := m.Field(field)
	if strings.TrimSpace(text) == "" && p.cfg.FallbackField != "" {
		field = p.cfg.FallbackField
		text = m.Field(field)
	}
	res := Result{Field: field, Tried: []string{}}
	for _, s := range []string{p.cfg.Strategy, p.cfg.FallbackStrategy} {
		if s == "" {
			continue
		}
		res.Tried = append(res.Tried, s)
		out := p.run(s, text)
		if out.matched {
			res.Strategy = s
			res.Calls, res.Done, res.Findings = out.calls, out.done, out.findings
			break
		}
	}
	finish(&res)
	return res
}

// ParseText runs one strategy on text, without field selection or fallback,
// and checks the calls it extracts.
func (p *Parser) ParseText(strategy, text string) (Result, error) {
	if err := checkStrategy(strategy); err != nil {
		return Result{}, err
	}
	res := Result{Tried: []string{strategy}}
	if out := p.run(strategy, text); out.matched {
		res.Strategy = strategy
		res.Calls, res.Done, res.Findings = out.calls, out.done, out.findings
	}
	finish(&res)
	return res, nil
}

func (p *Parser) run(strategy, text string) parsed {
	switch strategy {
	case GuidedJSON:
		return parseGuided(text, p.schema)
	case ReAct:
		return parseReact(text)
	case Markers:
		return parseMarkers(text)
	case Fuzzy:
		return parseFuzzy(text)
	}
	return parsed{}
}

// finish normalises and checks the calls, and makes the slices non-nil so
// the JSON shows [] rather than null.
func finish(res *Result) {
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
