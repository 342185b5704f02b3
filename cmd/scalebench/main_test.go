package main

import (
	"io"
	"slices"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestPromptfooConfig(t *testing.T) {
	var cfg struct {
		Prompts   []string
		Providers []string
		Tests     []struct {
			Vars   map[string]string
			Assert []struct{ Type, Value string }
		}
	}
	if err := yaml.Unmarshal(PromptfooConfig(3), &cfg); err != nil {
		t.Fatal(err)
	}
	if len(cfg.Tests) != 3 || len(cfg.Prompts) != 1 || !slices.Equal(cfg.Providers, []string{"echo"}) {
		t.Fatalf("config %+v", cfg)
	}
	for _, tc := range cfg.Tests {
		var types []string
		for _, a := range tc.Assert {
			types = append(types, a.Type)
		}
		if !slices.Equal(types, []string{"contains", "not-contains", "regex"}) || tc.Vars["answer"] == "" {
			t.Fatalf("test %+v", tc)
		}
	}
}

func TestParseFlagsAddsThePromptfooSize(t *testing.T) {
	o, err := parseFlags([]string{"-sizes", "1000,10000"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(o.sizes, []int{1000, 5000, 10000}) {
		t.Fatalf("sizes %v", o.sizes)
	}
	if _, err := parseFlags([]string{"-sizes", "0"}, io.Discard); err == nil {
		t.Fatal("-sizes 0 accepted")
	}
}
