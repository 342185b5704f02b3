package price

import (
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
