package problem

import (
	"errors"
	"testing"

	yaml3 "go.yaml.in/yaml/v3"
)

func TestYAMLSyntaxLine(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		line, col int
	}{
		// A flow sequence left open on line 3: v3 says "line 2".
		{"unclosed flow sequence", "kind: routing\ncases:\n  - label: [tavily_only\n    id: x\n  - id: y\n", 4, 7},
		// A tab where indentation is expected.
		{"tab indentation", "kind: routing\ncases:\n\t- id: x\n", 3, 1},
		// A mapping value where none may be.
		{"bad mapping", "kind: routing\ncases:\n  - id: x\n    query: a: b\n", 4, 13},
		// A quote left open on line 4 runs to the next quote, on line 8:
		// the problem is where it opened.
		{"unclosed quote", "kind: routing\ncases:\n  - id: x\n    query: \"What year?\n    label: a\n  - id: y\n    label: b\n    query: the \"paper\" of 2017\n", 4, 12},
		// A quoted value over two lines, closed, then an unrelated error.
		{"multi-line quote, later error", "kind: routing\ncases:\n  - id: x\n    query: \"What\n      year?\"\n    label: [a\n  - id: y\n", 7, 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n yaml3.Node
			err := yaml3.Unmarshal([]byte(tt.src), &n)
			if err == nil {
				t.Fatal("v3 accepted the input")
			}
			p := YAMLSyntax("f.yaml", []byte(tt.src), err)
			if p.Line != tt.line || p.Col != tt.col {
				t.Errorf("YAMLSyntax = %s, want line %d col %d (v3 said %v)", p, tt.line, tt.col, err)
			}
			if testing.Verbose() {
				t.Log(p, " | v3:", err)
			}
		})
	}
	if p := YAMLSyntax("f.yaml", []byte("a: b\n"), errors.New("yaml: line 7: oops")); p.Line != 7 {
		t.Errorf("fallback to v3's line: %s", p)
	}
}
