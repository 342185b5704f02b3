package executor

import (
	"errors"
	"strings"
	"testing"
)

func TestShippedConfigIsTheSeedsRecommendation(t *testing.T) {
	cfg, err := LoadConfig("../../testdata/demo/config/executor.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if cfg != DefaultConfig() {
		t.Errorf("config/executor.yaml = %+v; want DefaultConfig %+v", cfg, DefaultConfig())
	}
}

func TestLoadConfigGuided(t *testing.T) {
	cfg, err := LoadConfig("testdata/config/guided.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := Config{
		Parser: ParserConfig{Strategy: GuidedJSON, SourceField: FieldContent, GuidedJSONSchemaPath: "testdata/config/schema.json"},
		Tools:  ToolsConfig{Workspace: "testdata", EnableBrowser: true},
	}
	if cfg != want {
		t.Errorf("got %+v\nwant %+v", cfg, want)
	}
	p, err := New(cfg.Parser)
	if err != nil {
		t.Fatal(err)
	}
	if c, err := p.Constraint(ModeGuidedJSON); err != nil || len(c.Extra["guided_json"]) == 0 {
		t.Errorf("Constraint = %+v, %v", c, err)
	}
}

func TestLoadConfigReportsEveryProblem(t *testing.T) {
	_, err := LoadConfig("testdata/config/bad.yaml")
	var ce *ConfigError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v; want *ConfigError", err)
	}
	want := []string{
		`testdata/config/bad.yaml:7:3: unknown key parser.retries`,
		`testdata/config/bad.yaml:9:16: tools.enable_exec: want true or false`,
		`testdata/config/bad.yaml:10:3: unknown key tools.sandbox`,
		`testdata/config/bad.yaml:11:1: unknown key "logging"`,
		`testdata/config/bad.yaml:2:13: parser.strategy: unknown strategy "regex"`,
		`testdata/config/bad.yaml:3:22: parser.fallback_strategy: unknown strategy "regex"`,
		`testdata/config/bad.yaml:4:17: parser.source_field: unknown field "body"`,
		`testdata/config/bad.yaml:6:28: parser.guided_json_schema_path: stat testdata/config/missing.json: no such file`,
	}
	if len(ce.Problems) != len(want) {
		t.Errorf("%d problems; want %d:\n%s", len(ce.Problems), len(want), err)
	}
	for i, w := range want {
		if i >= len(ce.Problems) || !strings.HasPrefix(ce.Problems[i], w) {
			t.Errorf("problem %d does not start with %q:\n%s", i, w, err)
		}
	}
}

func TestDecodeConfig(t *testing.T) {
	tests := []struct {
		name, yaml, wantErr string
	}{
		{"empty", "", "x.yaml: empty"},
		{"not a mapping", "- a\n", "x.yaml:1:1: want a mapping"},
		{"no parser", "tools: {}\n", "x.yaml:1:1: missing parser: section"},
		{"parser not a mapping", "parser: react\n", "x.yaml:1:9: parser: want a mapping"},
		{"missing strategy and source", "parser:\n  fallback_field: content\n", "x.yaml:1:1: parser.strategy: missing"},
		{"same fallback", "parser:\n  strategy: react\n  fallback_strategy: react\n  source_field: reasoning\n", `x.yaml:3:22: parser.fallback_strategy: "react" is also the primary strategy`},
		{"same field", "parser:\n  strategy: react\n  source_field: content\n  fallback_field: content\n", `x.yaml:4:19: parser.fallback_field: "content" is also the source field`},
		{"value not a string", "parser:\n  strategy: [react]\n  source_field: content\n", "x.yaml:2:13: parser.strategy: want a string"},
		{"yaml syntax", "parser:\n  strategy: \"react\n", "x.yaml: yaml: line"},
		{"duplicate key", "parser:\n  strategy: react\n  strategy: fuzzy\n  source_field: content\n", "x.yaml:3:3: duplicate key parser.strategy (first at line 2)"},
		{"duplicate section", "parser:\n  strategy: react\n  source_field: content\nparser: {}\n", "x.yaml:4:1: duplicate key \"parser\" (first at line 1)"},
		{"minimal", "parser:\n  strategy: markers\n  source_field: content\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeConfig([]byte(tt.yaml), "x.yaml")
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("err = %v; want it to contain %q", err, tt.wantErr)
			}
		})
	}
}

func TestParserConfigValidate(t *testing.T) {
	if err := (ParserConfig{Strategy: "x", SourceField: "y"}).Validate(); err == nil ||
		!strings.Contains(err.Error(), "parser.strategy: unknown strategy") || !strings.Contains(err.Error(), "parser.source_field: unknown field") {
		t.Errorf("Validate = %v", err)
	}
	for _, s := range Strategies {
		cfg, err := DefaultConfigFor(s)
		if err != nil {
			t.Fatal(err)
		}
		if err := cfg.Parser.Validate(); err != nil {
			t.Errorf("DefaultConfigFor(%s): %v", s, err)
		}
	}
	if _, err := New(ParserConfig{Strategy: GuidedJSON, SourceField: FieldContent, GuidedJSONSchemaPath: "testdata/nope.json"}); err == nil {
		t.Error("New with a missing schema file succeeded")
	}
}
