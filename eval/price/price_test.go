package price

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDefaultParses(t *testing.T) {
	p := Default()
	for _, lane := range Lanes {
		l := p.Limits[lane]
		if l.RequestRate() <= 0 || l.Source == "" || l.Date == "" {
			t.Errorf("lane %s: %+v", lane, l)
		}
	}
	if p.Prices.DefaultModel != "gpt-oss-120b" {
		t.Errorf("default model %q", p.Prices.DefaultModel)
	}
}

// TestUSD: the flows/yes-after-phase1 case of reports/baseline.json used
// 2,940 prompt and 899 completion tokens and one Tavily search. By hand:
// 2940 × 0.35/1e6 + 899 × 0.75/1e6 + 1 credit × $0.008 = $0.00970325.
func TestUSD(t *testing.T) {
	tab := Default().Prices
	got, err := tab.USD(Usage{PromptTokens: 2940, CompletionTokens: 899, TavilySearches: 1})
	if err != nil || math.Abs(got-0.00970325) > 1e-12 {
		t.Errorf("got %v, %v; want 0.00970325", got, err)
	}
	got, _ = tab.USD(Usage{ExaSearches: 3})
	if math.Abs(got-0.021) > 1e-12 {
		t.Errorf("3 Exa searches: %v, want 0.021", got)
	}
	if _, err := tab.USD(Usage{Model: "llama-9000", PromptTokens: 1}); err == nil || !strings.Contains(err.Error(), `"llama-9000"`) {
		t.Errorf("unknown model: %v", err)
	}
}

func TestParseListsEveryProblem(t *testing.T) {
	bad := `
limits:
  chat: {requests_per_minute: -1, source: x, date: y}
  bing: {requests_per_minute: 1}
prices:
  default_model: nope
  models:
    m: {input_per_million: 1, output_per_million: 1}
  tavily: {usd_per_credit: 0.01, credits: {advanced: 2}, source: s, date: d}
`
	_, err := Parse([]byte(bad), "bad.yaml")
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"bad.yaml", "limits.bing: unknown provider", "limits.bing: source and date are required",
		"limits.chat.requests_per_minute: -1 is negative", `default_model: "nope" has no price`, "prices.models.m: source and date",
		"tavily.credits: basic", "prices.exa: required"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if _, err := Parse([]byte("limits:\n  chat: {rpm: 3}\n"), "typo.yaml"); err == nil || !strings.Contains(err.Error(), "rpm") {
		t.Errorf("unknown key: %v", err)
	}
}

func TestVariantOverlay(t *testing.T) {
	dir := t.TempDir()
	base := Default().Prices
	same, err := LoadOverlay(base, filepath.Join(dir, VariantFile))
	if err != nil || same.Models["gpt-oss-120b"] != base.Models["gpt-oss-120b"] {
		t.Fatalf("missing file: %v", err)
	}
	os.WriteFile(filepath.Join(dir, VariantFile), []byte(`
default_model: big
models:
  big: {input_per_million: 10, output_per_million: 30, source: "a contract", date: "2026-11-25"}
`), 0o644)
	got, err := LoadOverlay(base, filepath.Join(dir, VariantFile))
	if err != nil {
		t.Fatal(err)
	}
	usd, _ := got.USD(Usage{PromptTokens: 1e6, TavilySearches: 1})
	if math.Abs(usd-10.008) > 1e-9 {
		t.Errorf("overlaid price %v, want 10.008", usd)
	}
	if _, ok := got.Models["gpt-oss-120b"]; !ok {
		t.Error("overlay dropped the base's models")
	}
}

// TestLookup: a provider prefix is dropped when the full name has no price
// (vLLM serves gpt-oss as openai/gpt-oss-120b); an unknown model is an
// *UnpricedError whose fix names it.
func TestLookup(t *testing.T) {
	tab := Default().Prices
	for _, tc := range []struct{ model, as string }{
		{"", "gpt-oss-120b"}, {"gpt-oss-120b", "gpt-oss-120b"}, {"openai/gpt-oss-120b", "gpt-oss-120b"}, {"a/b/gpt-oss-120b", "gpt-oss-120b"},
		{"openai/", ""}, {"llama-9000", ""}, {"openai/llama-9000", ""},
	} {
		_, as, ok := tab.Lookup(tc.model)
		if as != tc.as || ok != (tc.as != "") {
			t.Errorf("Lookup(%q) = %q, %v; want %q", tc.model, as, ok, tc.as)
		}
	}
	plain, _ := tab.USD(Usage{PromptTokens: 1000, CompletionTokens: 100})
	prefixed, err := tab.USD(Usage{Model: "openai/gpt-oss-120b", PromptTokens: 1000, CompletionTokens: 100})
	if err != nil || prefixed != plain || plain == 0 {
		t.Errorf("openai/gpt-oss-120b priced %v (%v), gpt-oss-120b %v", prefixed, err, plain)
	}
	usd, err := tab.USD(Usage{Model: "acme/x", PromptTokens: 1000, TavilySearches: 1})
	var up *UnpricedError
	if !errors.As(err, &up) || up.Model != "acme/x" || !strings.Contains(up.Fix(), `add "acme/x" under prices.models`) || math.Abs(usd-0.008) > 1e-12 {
		t.Errorf("unpriced model: %v, %v (want the search's $0.008 and an UnpricedError)", usd, err)
	}
}

// TestLimitsHoldAtTheirHosts: the shipped limits name the providers' own
// hosts; a base URL elsewhere keeps only the concurrency bounds.
func TestLimitsHoldAtTheirHosts(t *testing.T) {
	p := Default()
	plans := p.PaceLimits(map[string]string{
		"chat":   "https://api.cerebras.ai/v1",
		"tavily": "http://127.0.0.1:8089/tavily",
		"exa":    "https://API.EXA.AI:443",
	})
	if c := plans["chat"]; !c.Published || c.Limits.RequestsPerMinute != 5 || c.Host != "api.cerebras.ai" {
		t.Errorf("chat at api.cerebras.ai: %+v", c)
	}
	if tv := plans["tavily"]; tv.Published || tv.Limits.RequestRate() != 0 || tv.Limits.Concurrency != 4 || tv.Host != "127.0.0.1:8089" {
		t.Errorf("tavily at 127.0.0.1:8089: %+v, want concurrency only", tv)
	}
	if e := plans["exa"]; !e.Published || e.Limits.RequestsPerSecond != 10 {
		t.Errorf("exa at API.EXA.AI:443: %+v", e)
	}
	_, err := Parse([]byte(strings.Replace(string(mustRead(t)), "hosts: [api.exa.ai]", "hosts: [\"https://api.exa.ai/\"]", 1)), "p.yaml")
	if err == nil || !strings.Contains(err.Error(), `limits.exa.hosts[0]: "https://api.exa.ai/" is not a host name`) {
		t.Errorf("a URL for a host: %v", err)
	}
}

func mustRead(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "config", "providers.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
