// Package parsing measures how reliably each executor strategy, and each
// primary→fallback chain, extracts tool calls from raw GPT-OSS outputs.
//
// It reads datasets/parser.yaml (cases: a message as produced under one
// strategy's prompt, and the calls a correct parser extracts), runs the
// executor's parsers on every case and returns rows of numbers with the
// failing case ids. The harness renders the rows in its tables and JSON
// report next to the seed's claimed reliability (Claimed).
package parsing

import (
	"fmt"
	"os"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/searchbench/searchbench/orchestrator/executor"
)

// Case is one raw model output and the calls expected from it.
type Case struct {
	ID        string          `json:"id"`
	Prompt    string          `json:"prompt"` // the strategy whose system prompt produced the output
	Reasoning string          `json:"reasoning,omitempty"`
	Content   string          `json:"content,omitempty"`
	Expect    []executor.Call `json:"expect"`
	Tags      []string        `json:"tags,omitempty"`
	Note      string          `json:"note,omitempty"`
	Line      int             `json:"-"` // where the case starts in its file
}

// Message is the case's output as the executor reads it.
func (c Case) Message() executor.Message {
	return executor.Message{Reasoning: c.Reasoning, Content: c.Content}
}

// HasTag reports whether the case carries tag.
func (c Case) HasTag(tag string) bool {
	for _, t := range c.Tags {
		if t == tag {
			return true
		}
	}
	return false
}

var idRe = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// Load reads a parser dataset file (see Decode).
func Load(name string) ([]Case, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("parser dataset: %w", err)
	}
	return Decode(data, name)
}

// DatasetError lists every problem found in a dataset, one per line, each
// prefixed with file:line:col.
type DatasetError struct {
	Problems []string
}

func (e *DatasetError) Error() string { return strings.Join(e.Problems, "\n") }

var caseKeys = []string{"id", "prompt", "reasoning", "content", "expect", "tags", "note"}

// Decode decodes a parser dataset (kind: parser) from data; name is used in
// messages. Every problem is reported with its position: unknown keys, a
// missing or malformed id, a duplicate id, an unknown prompt, expected calls
// without a name or with arguments that are not a mapping.
func Decode(data []byte, name string) ([]Case, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &DatasetError{Problems: []string{fmt.Sprintf("%s: %v", name, err)}}
	}
	at := func(n *yaml.Node) string { return fmt.Sprintf("%s:%d:%d", name, n.Line, n.Column) }
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, &DatasetError{Problems: []string{name + ": want a mapping with kind: parser and cases:"}}
	}
	root := doc.Content[0]
	var errs []string
	var casesNode *yaml.Node
	kind := ""
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "kind":
			kind = v.Value
			if v.Value != "parser" {
				errs = append(errs, fmt.Sprintf("%s: kind is %q, want parser", at(v), v.Value))
			}
		case "cases":
			casesNode = v
		default:
			errs = append(errs, fmt.Sprintf("%s: unknown key %q (want kind, cases)", at(k), k.Value))
		}
	}
	if kind == "" {
		errs = append(errs, at(root)+": missing kind: parser")
	}
	if casesNode == nil || casesNode.Kind != yaml.SequenceNode {
		errs = append(errs, at(root)+": missing cases: list")
		return nil, &DatasetError{Problems: errs}
	}
	var cases []Case
	seen := map[string]int{}
	for _, n := range casesNode.Content {
		c, ps := decodeCase(n, at)
		errs = append(errs, ps...)
		if c.ID != "" {
			if line, dup := seen[c.ID]; dup {
				errs = append(errs, fmt.Sprintf("%s: duplicate id %q (first at line %d)", at(n), c.ID, line))
			}
			seen[c.ID] = n.Line
		}
		cases = append(cases, c)
	}
	if len(errs) > 0 {
		return nil, &DatasetError{Problems: errs}
	}
	return cases, nil
}

func decodeCase(n *yaml.Node, at func(*yaml.Node) string) (Case, []string) {
	c := Case{Line: n.Line}
	if n.Kind != yaml.MappingNode {
		return c, []string{at(n) + ": case: want a mapping"}
	}
	var errs []string
	str := func(v *yaml.Node, key string) string {
		if v.Kind != yaml.ScalarNode {
			errs = append(errs, fmt.Sprintf("%s: %s: want a string", at(v), key))
			return ""
		}
		if v.Tag == "!!null" {
			return ""
		}
		return v.Value
	}
	hasExpect := false
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "id":
			c.ID = str(v, "id")
			if !idRe.MatchString(c.ID) {
				errs = append(errs, fmt.Sprintf("%s: id %q: want [a-z0-9][a-z0-9-]*", at(v), c.ID))
			}
		case "prompt":
			c.Prompt = str(v, "prompt")
			if _, err := executor.Prompt(c.Prompt); err != nil {
				errs = append(errs, fmt.Sprintf("%s: prompt: %v", at(v), err))
			}
		case "reasoning":
			c.Reasoning = str(v, "reasoning")
		case "content":
			c.Content = str(v, "content")
		case "note":
			c.Note = str(v, "note")
		case "tags":
			if err := v.Decode(&c.Tags); err != nil {
				errs = append(errs, fmt.Sprintf("%s: tags: want a list of strings", at(v)))
			}
		case "expect":
			hasExpect = true
			calls, ps := decodeExpect(v, at)
			c.Expect = calls
			errs = append(errs, ps...)
		default:
			errs = append(errs, fmt.Sprintf("%s: unknown key %q (want one of %s)", at(k), k.Value, strings.Join(caseKeys, ", ")))
		}
	}
	label := c.ID
	if label == "" {
		label = "case"
	}
	if c.ID == "" {
		errs = append(errs, at(n)+": case: missing id")
	}
	if c.Prompt == "" {
		errs = append(errs, fmt.Sprintf("%s: %s: missing prompt", at(n), label))
	}
	if !hasExpect {
		errs = append(errs, fmt.Sprintf("%s: %s: missing expect (use [] for no call)", at(n), label))
	}
	if c.Expect == nil {
		c.Expect = []executor.Call{}
	}
	return c, errs
}

func decodeExpect(v *yaml.Node, at func(*yaml.Node) string) ([]executor.Call, []string) {
	if v.Kind != yaml.SequenceNode {
		return nil, []string{at(v) + ": expect: want a list of calls ([] for none)"}
	}
	var errs []string
	calls := []executor.Call{}
	for _, cn := range v.Content {
		if cn.Kind != yaml.MappingNode {
			errs = append(errs, at(cn)+": expect: want a mapping with name and arguments")
			continue
		}
		call := executor.Call{Arguments: map[string]any{}}
		for i := 0; i+1 < len(cn.Content); i += 2 {
			k, val := cn.Content[i], cn.Content[i+1]
			switch k.Value {
			case "name":
				if val.Kind != yaml.ScalarNode || val.Value == "" {
					errs = append(errs, at(val)+": expect: name: want a tool name")
				}
				call.Name = val.Value
			case "arguments":
				var args map[string]any
				if val.Kind != yaml.MappingNode || val.Decode(&args) != nil {
					errs = append(errs, at(val)+": expect: arguments: want a mapping")
				}
				if args != nil {
					call.Arguments = args
				}
			default:
				errs = append(errs, fmt.Sprintf("%s: expect: unknown key %q (want name, arguments)", at(k), k.Value))
			}
		}
		if call.Name == "" {
			errs = append(errs, at(cn)+": expect: missing name")
		}
		calls = append(calls, call)
	}
	return calls, errs
}
