package main

import (
	"io"
	"slices"
	"strings"
	"testing"
	"time"

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

// The promptfoo target is met only against a measurement of this run: the
// published figure is shown for reference and never reads "yes".
func TestPromptfooTargetNeedsAMeasurement(t *testing.T) {
	for _, tc := range []struct {
		name            string
		sb, pf, pfWrite time.Duration
		met             string
		want            []string
	}{
		{"not run", time.Second, 0, 0, "not measured", []string{"promptfoo not run", "34.3× the figure published", "34.3 s for 5,000 cases)"}},
		{"measured, short", 2 * time.Second, 12 * time.Second, 18 * time.Second, "**no**", []string{"6.0× (searchbench 2.00 s; promptfoo 12.0 s, --no-write)", "9.0× against promptfoo writing its results"}},
		{"measured, met", time.Second, 12 * time.Second, 0, "yes", []string{"12.0×"}},
		{"measured, just short", 1201 * time.Millisecond, 12 * time.Second, 0, "**no**", []string{"9.9× (searchbench 1.20 s"}},
		{"searchbench missing", 0, 12 * time.Second, 0, "**no**", []string{"not timed"}},
	} {
		what, got, met := promptfooTarget(5000, tc.sb, tc.pf, tc.pfWrite)
		if met != tc.met || what != "≥ 10× promptfoo's wall per case at 5,000 cases" {
			t.Errorf("%s: met %q (want %q), what %q", tc.name, met, tc.met, what)
		}
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", tc.name, got, w)
			}
		}
	}
}
