package executor

import (
	"fmt"
	"os"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Config is config/executor.yaml.
type Config struct {
	Parser ParserConfig `json:"parser"`
	Tools  ToolsConfig  `json:"tools"`
}

// ParserConfig chooses how tool calls are extracted (the seed's parser block).
type ParserConfig struct {
	Strategy         string `json:"strategy"`
	FallbackStrategy string `json:"fallback_strategy,omitempty"` // "" for none
	SourceField      string `json:"source_field"`
	FallbackField    string `json:"fallback_field,omitempty"` // read when the source field yields nothing (see FieldRule); "" for none
	// FieldRule says when the fallback field is read: FieldRuleNoMatch ("",
	// the default) when a strategy finds nothing in the source field,
	// FieldRuleEmpty (the seed's literal rule) only when it is empty.
	FieldRule string `json:"field_rule,omitempty"`
	// GuidedJSONSchemaPath is relative to the working directory (the
	// repository root, as in the seed); "" means the embedded seed schema.
	GuidedJSONSchemaPath string `json:"guided_json_schema_path,omitempty"`
}

// Field rules (ParserConfig.FieldRule).
const (
	FieldRuleNoMatch = "no_match" // read fallback_field when the strategy finds nothing in source_field (default)
	FieldRuleEmpty   = "empty"    // the seed's literal rule: read fallback_field only when source_field is empty
)

// ToolsConfig says what Dispatcher may run. The zero value refuses read,
// write, exec and browser.
type ToolsConfig struct {
	Workspace     string `json:"workspace,omitempty"` // folder read and write are confined to; "" refuses both
	EnableExec    bool   `json:"enable_exec"`
	EnableBrowser bool   `json:"enable_browser"`
}

// DefaultConfig is the seed's recommended configuration: react, falling
// back to fuzzy, reading reasoning and falling back to content, with the
// working field rule (FieldRuleNoMatch) instead of the seed's literal one.
func DefaultConfig() Config {
	return Config{Parser: ParserConfig{
		Strategy:         ReAct,
		FallbackStrategy: Fuzzy,
		SourceField:      FieldReasoning,
		FallbackField:    FieldContent,
		FieldRule:        FieldRuleNoMatch,
	}}
}

// DefaultConfigFor is the seed's configuration for one strategy used alone:
// guided_json reads content only ("guided decoding puts structured output in
// content"), the others read reasoning and fall back to content. No
// fallback strategy.
func DefaultConfigFor(strategy string) (Config, error) {
	if err := checkStrategy(strategy); err != nil {
		return Config{}, err
	}
	if strategy == GuidedJSON {
		return Config{Parser: ParserConfig{Strategy: GuidedJSON, SourceField: FieldContent}}, nil
	}
	return Config{Parser: ParserConfig{Strategy: strategy, SourceField: FieldReasoning, FallbackField: FieldContent, FieldRule: FieldRuleNoMatch}}, nil
}

// ConfigError lists every problem found in a configuration, one per line,
// each prefixed with file:line:col when it came from a file.
type ConfigError struct {
	Problems []string
}

func (e *ConfigError) Error() string { return strings.Join(e.Problems, "\n") }

// problem is a validation problem tied to the config key it is about.
type problem struct {
	key, msg string
}

// Validate checks the parser configuration without reference to a file.
func (c ParserConfig) Validate() error {
	ps := c.problems()
	if len(ps) == 0 {
		return nil
	}
	e := &ConfigError{}
	for _, p := range ps {
		e.Problems = append(e.Problems, "parser."+p.key+": "+p.msg)
	}
	return e
}

func (c ParserConfig) problems() []problem {
	var ps []problem
	fields := FieldReasoning + ", " + FieldContent
	switch {
	case c.Strategy == "":
		ps = append(ps, problem{"strategy", "missing; want one of " + strings.Join(Strategies, ", ")})
	case checkStrategy(c.Strategy) != nil:
		ps = append(ps, problem{"strategy", checkStrategy(c.Strategy).Error()})
	}
	switch {
	case c.FallbackStrategy == "":
	case checkStrategy(c.FallbackStrategy) != nil:
		ps = append(ps, problem{"fallback_strategy", checkStrategy(c.FallbackStrategy).Error()})
	case c.FallbackStrategy == c.Strategy:
		ps = append(ps, problem{"fallback_strategy", fmt.Sprintf("%q is also the primary strategy", c.FallbackStrategy)})
	}
	switch c.SourceField {
	case FieldReasoning, FieldContent:
	case "":
		ps = append(ps, problem{"source_field", "missing; want one of " + fields})
	default:
		ps = append(ps, problem{"source_field", fmt.Sprintf("unknown field %q (want one of %s)", c.SourceField, fields)})
	}
	switch c.FallbackField {
	case "":
	case FieldReasoning, FieldContent:
		if c.FallbackField == c.SourceField {
			ps = append(ps, problem{"fallback_field", fmt.Sprintf("%q is also the source field", c.FallbackField)})
		}
	default:
		ps = append(ps, problem{"fallback_field", fmt.Sprintf("unknown field %q (want one of %s)", c.FallbackField, fields)})
	}
	switch c.FieldRule {
	case "", FieldRuleNoMatch, FieldRuleEmpty:
	default:
		ps = append(ps, problem{"field_rule", fmt.Sprintf("unknown rule %q (want %s or %s)", c.FieldRule, FieldRuleNoMatch, FieldRuleEmpty)})
	}
	return ps
}

// LoadConfig reads and validates a configuration file (see DecodeConfig).
func LoadConfig(name string) (Config, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return Config{}, fmt.Errorf("executor config: %w", err)
	}
	return DecodeConfig(data, name)
}

var (
	parserKeys = []string{"strategy", "fallback_strategy", "source_field", "fallback_field", "field_rule", "guided_json_schema_path"}
	toolsKeys  = []string{"workspace", "enable_exec", "enable_browser"}
)

// DecodeConfig decodes config/executor.yaml from data; name is used in
// messages. It reports every problem found, each with file:line:col: unknown
// keys, values of the wrong shape, unknown strategies or fields, a missing
// schema file. Keys left out are empty: no fallback strategy, no fallback
// field, the embedded schema, tools refused.
func DecodeConfig(data []byte, name string) (Config, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return Config{}, &ConfigError{Problems: []string{fmt.Sprintf("%s: %v", name, err)}}
	}
	var cfg Config
	var errs []string
	at := func(n *yaml.Node) string { return fmt.Sprintf("%s:%d:%d", name, n.Line, n.Column) }
	if len(doc.Content) == 0 {
		return cfg, &ConfigError{Problems: []string{name + ": empty; want a parser: section"}}
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return cfg, &ConfigError{Problems: []string{at(root) + ": want a mapping with a parser: section"}}
	}
	// keyNode remembers where each parser key was, to place semantic problems.
	keyNode := map[string]*yaml.Node{}
	var parserNode *yaml.Node
	seen := map[string]int{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if line, dup := seen[k.Value]; dup {
			errs = append(errs, fmt.Sprintf("%s: duplicate key %q (first at line %d)", at(k), k.Value, line))
			continue
		}
		seen[k.Value] = k.Line
		switch k.Value {
		case "parser":
			parserNode = k
			errs = append(errs, decodeSection(v, k.Value, parserKeys, at, func(key string, n *yaml.Node) string {
				keyNode[key] = n
				s, msg := scalarString(n)
				switch key {
				case "strategy":
					cfg.Parser.Strategy = s
				case "fallback_strategy":
					cfg.Parser.FallbackStrategy = s
				case "source_field":
					cfg.Parser.SourceField = s
				case "fallback_field":
					cfg.Parser.FallbackField = s
				case "field_rule":
					cfg.Parser.FieldRule = s
				case "guided_json_schema_path":
					cfg.Parser.GuidedJSONSchemaPath = s
				}
				return msg
			})...)
		case "tools":
			errs = append(errs, decodeSection(v, k.Value, toolsKeys, at, func(key string, n *yaml.Node) string {
				switch key {
				case "workspace":
					s, msg := scalarString(n)
					cfg.Tools.Workspace = s
					return msg
				case "enable_exec":
					return scalarBool(n, &cfg.Tools.EnableExec)
				case "enable_browser":
					return scalarBool(n, &cfg.Tools.EnableBrowser)
				}
				return ""
			})...)
		default:
			errs = append(errs, fmt.Sprintf("%s: unknown key %q (want parser or tools)", at(k), k.Value))
		}
	}
	if parserNode == nil {
		errs = append(errs, at(root)+": missing parser: section")
	} else {
		for _, p := range cfg.Parser.problems() {
			n := keyNode[p.key]
			if n == nil {
				n = parserNode
			}
			errs = append(errs, fmt.Sprintf("%s: parser.%s: %s", at(n), p.key, p.msg))
		}
		if path := cfg.Parser.GuidedJSONSchemaPath; path != "" {
			if st, err := os.Stat(path); err != nil {
				errs = append(errs, fmt.Sprintf("%s: parser.guided_json_schema_path: %v", at(keyNode["guided_json_schema_path"]), err))
			} else if !st.Mode().IsRegular() {
				errs = append(errs, fmt.Sprintf("%s: parser.guided_json_schema_path: %s is not a regular file", at(keyNode["guided_json_schema_path"]), path))
			}
		}
	}
	if len(errs) > 0 {
		return cfg, &ConfigError{Problems: errs}
	}
	return cfg, nil
}

// decodeSection walks one mapping section, reporting unknown keys and
// handing each known key's value node to set, which returns a problem or "".
func decodeSection(v *yaml.Node, section string, keys []string, at func(*yaml.Node) string, set func(key string, val *yaml.Node) string) []string {
	if v.Kind != yaml.MappingNode {
		if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			return nil
		}
		return []string{fmt.Sprintf("%s: %s: want a mapping", at(v), section)}
	}
	var errs []string
	seen := map[string]int{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		if line, dup := seen[k.Value]; dup {
			errs = append(errs, fmt.Sprintf("%s: duplicate key %s.%s (first at line %d)", at(k), section, k.Value, line))
			continue
		}
		seen[k.Value] = k.Line
		known := false
		for _, want := range keys {
			if k.Value == want {
				known = true
			}
		}
		if !known {
			errs = append(errs, fmt.Sprintf("%s: unknown key %s.%s (want one of %s)", at(k), section, k.Value, strings.Join(keys, ", ")))
			continue
		}
		if msg := set(k.Value, val); msg != "" {
			errs = append(errs, fmt.Sprintf("%s: %s.%s: %s", at(val), section, k.Value, msg))
		}
	}
	return errs
}

func scalarString(n *yaml.Node) (string, string) {
	if n.Kind != yaml.ScalarNode {
		return "", "want a string"
	}
	if n.Tag == "!!null" {
		return "", ""
	}
	return n.Value, ""
}

func scalarBool(n *yaml.Node, dst *bool) string {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
		return "want true or false"
	}
	if err := n.Decode(dst); err != nil {
		return err.Error()
	}
	return ""
}
