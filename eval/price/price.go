// Package price reads config/providers.yaml, the providers' rate limits and
// prices (each with its source and date), and turns what a case used
// (tokens, Tavily and Exa searches) into dollars. The recorder paces itself
// with the limits and budgets with the prices; the cost scorer reports the
// dollars of every case.
package price

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/searchbench/searchbench/config"
	"github.com/searchbench/searchbench/orchestrator/httpx"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// Providers is the content of config/providers.yaml.
type Providers struct {
	Limits map[string]Limit `yaml:"limits"`
	Prices Table            `yaml:"prices"`
}

// Limit is one provider's configured rate limits with their provenance.
type Limit struct {
	httpx.Limits `yaml:",inline"`
	// Hosts are the hosts the limits were published for (Cerebras' rates
	// are api.cerebras.ai's). A base URL on another host (a vLLM server, a
	// gateway, the simulator) is not held to them; none listed: any host.
	Hosts  []string `yaml:"hosts"`
	Source string   `yaml:"source"`
	Date   string   `yaml:"date"`
}

// AppliesTo reports whether l's rates describe the service at baseURL:
// its host is one of Hosts, or Hosts is empty.
func (l Limit) AppliesTo(baseURL string) bool {
	if len(l.Hosts) == 0 {
		return true
	}
	h := hostOf(baseURL)
	for _, x := range l.Hosts {
		if strings.EqualFold(x, h) {
			return true
		}
	}
	return false
}

// hostOf is the host of a base URL, without its port when the port is the
// scheme's default; "" when it does not parse.
func hostOf(baseURL string) string {
	u, err := url.Parse(baseURL)
	if err != nil {
		return ""
	}
	h := u.Hostname()
	if p := u.Port(); p != "" && !(u.Scheme == "https" && p == "443" || u.Scheme == "http" && p == "80") {
		h = net.JoinHostPort(h, p)
	}
	return strings.ToLower(h)
}

// Table is the price table.
type Table struct {
	DefaultModel string           `yaml:"default_model"`
	Models       map[string]Model `yaml:"models"`
	Tavily       *Tavily          `yaml:"tavily"`
	Exa          *Exa             `yaml:"exa"`
}

// Model prices a chat model's tokens, in dollars per million.
type Model struct {
	InputPerMillion  float64 `yaml:"input_per_million"`
	OutputPerMillion float64 `yaml:"output_per_million"`
	Source           string  `yaml:"source"`
	Date             string  `yaml:"date"`
}

// Tavily prices a search: credits by search depth, dollars per credit.
type Tavily struct {
	USDPerCredit float64            `yaml:"usd_per_credit"`
	Credits      map[string]float64 `yaml:"credits"`
	Source       string             `yaml:"source"`
	Date         string             `yaml:"date"`
}

// Exa prices a search by request type, plus each result beyond ten.
type Exa struct {
	PerRequest       map[string]float64 `yaml:"per_request"`
	PerResultAbove10 float64            `yaml:"per_result_above_10"`
	Source           string             `yaml:"source"`
	Date             string             `yaml:"date"`
}

// Providers the recorder paces, in the order they are listed.
var Lanes = []string{"chat", "tavily", "exa"}

// Default returns the embedded config/providers.yaml.
func Default() *Providers {
	p, err := Parse(config.ProvidersYAML, "config/providers.yaml (built in)")
	if err != nil {
		panic(err) // the shipped file is tested
	}
	return p
}

// LoadFile reads a providers file.
func LoadFile(path string) (*Providers, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(b, filepath.ToSlash(path))
}

func decodeStrict(data []byte, v any) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}

// Parse reads a providers file named name, reporting every problem found.
func Parse(data []byte, name string) (*Providers, error) {
	var p Providers
	if err := decodeStrict(data, &p); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var errs []string
	for _, lane := range sortedKeys(p.Limits) {
		l := p.Limits[lane]
		if !slices.Contains(Lanes, lane) {
			errs = append(errs, fmt.Sprintf("limits.%s: unknown provider (want %s)", lane, strings.Join(Lanes, ", ")))
		}
		for _, f := range []struct {
			k string
			v float64
		}{{"requests_per_second", l.RequestsPerSecond}, {"requests_per_minute", l.RequestsPerMinute}, {"tokens_per_minute", l.TokensPerMinute}} {
			if f.v < 0 || math.IsNaN(f.v) {
				errs = append(errs, fmt.Sprintf("limits.%s.%s: %v is negative", lane, f.k, f.v))
			}
		}
		if l.Concurrency < 0 || l.MaxConcurrency < 0 || (l.MaxConcurrency > 0 && l.MaxConcurrency < l.Concurrency) {
			errs = append(errs, fmt.Sprintf("limits.%s: concurrency %d, max_concurrency %d: want 0 ≤ concurrency ≤ max_concurrency", lane, l.Concurrency, l.MaxConcurrency))
		}
		if l.Source == "" || l.Date == "" {
			errs = append(errs, fmt.Sprintf("limits.%s: source and date are required (where the figures were published, when read)", lane))
		}
		for i, h := range l.Hosts {
			if h == "" || strings.ContainsAny(h, "/ ") || hostOf("https://"+h) != strings.ToLower(h) {
				errs = append(errs, fmt.Sprintf("limits.%s.hosts[%d]: %q is not a host name (want e.g. api.cerebras.ai)", lane, i, h))
			}
		}
	}
	errs = append(errs, p.Prices.check("prices", true)...)
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s: %d problem(s):\n  %s", name, len(errs), strings.Join(errs, "\n  "))
	}
	return &p, nil
}

func (t *Table) check(at string, full bool) []string {
	var errs []string
	if full && t.DefaultModel == "" {
		errs = append(errs, at+".default_model: required")
	}
	if full && t.DefaultModel != "" {
		if _, ok := t.Models[t.DefaultModel]; !ok {
			errs = append(errs, fmt.Sprintf("%s.default_model: %q has no price under %s.models", at, t.DefaultModel, at))
		}
	}
	for _, m := range sortedKeys(t.Models) {
		p := t.Models[m]
		if p.InputPerMillion < 0 || p.OutputPerMillion < 0 {
			errs = append(errs, fmt.Sprintf("%s.models.%s: negative price", at, m))
		}
		if p.Source == "" || p.Date == "" {
			errs = append(errs, fmt.Sprintf("%s.models.%s: source and date are required", at, m))
		}
	}
	if t.Tavily != nil {
		if t.Tavily.USDPerCredit < 0 {
			errs = append(errs, at+".tavily.usd_per_credit: negative")
		}
		if _, ok := t.Tavily.Credits["basic"]; !ok {
			errs = append(errs, at+".tavily.credits: basic (the depth the orchestrator uses) is required")
		}
		if t.Tavily.Source == "" || t.Tavily.Date == "" {
			errs = append(errs, at+".tavily: source and date are required")
		}
	} else if full {
		errs = append(errs, at+".tavily: required")
	}
	if t.Exa != nil {
		if _, ok := t.Exa.PerRequest["auto"]; !ok {
			errs = append(errs, at+".exa.per_request: auto (the type the orchestrator uses) is required")
		}
		if t.Exa.Source == "" || t.Exa.Date == "" {
			errs = append(errs, at+".exa: source and date are required")
		}
	} else if full {
		errs = append(errs, at+".exa: required")
	}
	return errs
}

// Overlay returns t with the entries of o put over it: a variant's
// prices.yaml names only what it changes.
func (t Table) Overlay(o Table) Table {
	out := t
	if o.DefaultModel != "" {
		out.DefaultModel = o.DefaultModel
	}
	if len(o.Models) > 0 {
		out.Models = map[string]Model{}
		for k, v := range t.Models {
			out.Models[k] = v
		}
		for k, v := range o.Models {
			out.Models[k] = v
		}
	}
	if o.Tavily != nil {
		out.Tavily = o.Tavily
	}
	if o.Exa != nil {
		out.Exa = o.Exa
	}
	return out
}

// VariantFile is the optional file in a variant's folder overriding prices.
const VariantFile = "prices.yaml"

// LoadOverlay reads a variant's prices.yaml (same shape as the prices
// section) and returns base with it laid over; a missing file gives base.
func LoadOverlay(base Table, path string) (Table, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return base, nil
	}
	if err != nil {
		return base, err
	}
	var o Table
	if err := decodeStrict(b, &o); err != nil {
		return base, fmt.Errorf("%s: %w", filepath.ToSlash(path), err)
	}
	if errs := o.check("prices", false); len(errs) > 0 {
		return base, fmt.Errorf("%s: %d problem(s):\n  %s", filepath.ToSlash(path), len(errs), strings.Join(errs, "\n  "))
	}
	out := base.Overlay(o)
	if _, ok := out.Models[out.DefaultModel]; !ok {
		return base, fmt.Errorf("%s: default_model %q has no price", filepath.ToSlash(path), out.DefaultModel)
	}
	return out, nil
}

// Usage is what a case (or a request) used, in the units prices are set in.
type Usage struct {
	Model            string // "" : the table's default model
	PromptTokens     int
	CompletionTokens int
	TavilySearches   int // at basic depth
	ExaSearches      int // of type auto, ≤ 10 results
}

// Lookup finds the price of model ("" : the default model). A name the
// table does not list is looked up again without its provider prefix, as
// a vLLM server names its model ("openai/gpt-oss-120b" prices as
// "gpt-oss-120b"). as is the name the price was found under.
func (t Table) Lookup(model string) (m Model, as string, ok bool) {
	if model == "" {
		model = t.DefaultModel
	}
	if m, ok := t.Models[model]; ok {
		return m, model, true
	}
	if i := strings.LastIndexByte(model, '/'); i >= 0 && i < len(model)-1 {
		bare := model[i+1:]
		if m, ok := t.Models[bare]; ok {
			return m, bare, true
		}
	}
	return Model{}, "", false
}

// UnpricedError is the error of pricing the tokens of a model the table
// has no price for.
type UnpricedError struct{ Model string }

func (e *UnpricedError) Error() string {
	return fmt.Sprintf("model %q has no price; %s", e.Model, e.Fix())
}

// Fix is the one line that prices the model.
func (e *UnpricedError) Fix() string {
	return fmt.Sprintf("add %q under prices.models in config/providers.yaml (or in the variant's %s)", e.Model, VariantFile)
}

// USD prices u. A model with no price (Lookup) is an *UnpricedError.
func (t Table) USD(u Usage) (float64, error) {
	usd, err := t.tokensUSD(u)
	return usd + t.SearchUSD(u), err
}

// tokensUSD prices u's model tokens.
func (t Table) tokensUSD(u Usage) (float64, error) {
	if u.PromptTokens == 0 && u.CompletionTokens == 0 {
		return 0, nil
	}
	m, _, ok := t.Lookup(u.Model)
	if !ok {
		model := u.Model
		if model == "" {
			model = t.DefaultModel
		}
		return 0, &UnpricedError{Model: model}
	}
	return float64(u.PromptTokens)*m.InputPerMillion/1e6 + float64(u.CompletionTokens)*m.OutputPerMillion/1e6, nil
}

// SearchUSD prices u's searches alone.
func (t Table) SearchUSD(u Usage) float64 {
	var usd float64
	if u.TavilySearches > 0 && t.Tavily != nil {
		usd += float64(u.TavilySearches) * t.Tavily.Credits["basic"] * t.Tavily.USDPerCredit
	}
	if u.ExaSearches > 0 && t.Exa != nil {
		usd += float64(u.ExaSearches) * t.Exa.PerRequest["auto"]
	}
	return usd
}

// LanePlan is where one lane's pacing starts: the limits, and why those.
type LanePlan struct {
	Limits httpx.Limits
	// Published is set when the configured rates apply (the base URL is
	// on a host they were published for); Host is the base URL's host.
	Published bool
	Host      string
}

// PaceLimits returns the limits the pacer starts from, by lane, for the
// services at bases (lane → base URL; a lane missing from it is at a host
// its limits apply to). A lane whose base URL is not on a host its limits
// were published for keeps only their concurrency: it is paced by the
// window of requests in flight until its headers or its 429s say more.
func (p *Providers) PaceLimits(bases map[string]string) map[string]LanePlan {
	out := map[string]LanePlan{}
	for _, lane := range Lanes {
		l := p.Limits[lane]
		base, ok := bases[lane]
		plan := LanePlan{Limits: l.Limits, Published: true, Host: hostOf(base)}
		if ok && !l.AppliesTo(base) {
			plan.Published = false
			plan.Limits = httpx.Limits{Concurrency: l.Concurrency, MaxConcurrency: l.MaxConcurrency}
		}
		out[lane] = plan
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// UsageOf sums what a session used: model tokens, and the searches sent
// (answered or failed; a search the tool limit refused was never sent).
func UsageOf(s *trace.Session) Usage {
	var u Usage
	if s == nil {
		return u
	}
	for _, t := range s.Turns {
		for _, m := range t.ModelCalls {
			u.PromptTokens += m.Usage.PromptTokens
			u.CompletionTokens += m.Usage.CompletionTokens
		}
		for _, c := range t.ToolCalls {
			if c.Status != trace.CallOK && c.Status != trace.CallError {
				continue
			}
			switch c.Tool {
			case trace.ToolTavily:
				u.TavilySearches++
			case trace.ToolExa:
				u.ExaSearches++
			}
		}
	}
	return u
}

// Add returns the sum of u and v (u's model).
func (u Usage) Add(v Usage) Usage {
	u.PromptTokens += v.PromptTokens
	u.CompletionTokens += v.CompletionTokens
	u.TavilySearches += v.TavilySearches
	u.ExaSearches += v.ExaSearches
	return u
}

// Tokens is the model tokens used.
func (u Usage) Tokens() int { return u.PromptTokens + u.CompletionTokens }
