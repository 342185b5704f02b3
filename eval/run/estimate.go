package run

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/searchbench/searchbench/eval/price"
)

// Lanes of traffic, as the pacer and the price table name them.
const (
	LaneChat   = "chat"
	LaneTavily = "tavily"
	LaneExa    = "exa"
)

// LaneOf names the provider a request goes to by its shape, whatever the
// base URLs (one gateway may front all three): the chat completions path,
// else Exa's x-api-key header or host, else Tavily.
func LaneOf(u *url.URL, h http.Header) string {
	switch {
	case strings.HasSuffix(u.Path, "/chat/completions"):
		return LaneChat
	case h.Get("X-Api-Key") != "" || strings.Contains(u.Host, "exa."):
		return LaneExa
	}
	return LaneTavily
}

// RouteRequest is LaneOf for a request (the pacer's Route).
func RouteRequest(r *http.Request) string { return LaneOf(r.URL, r.Header) }

// Estimate is what recording one case is expected to take.
type Estimate struct {
	Requests map[string]int // by lane
	Usage    price.Usage
	USD      float64
	// From says where the figures come from: a cassette path, "mean of N
	// recorded cases of <dataset>", or "default".
	From string
	// Unpriced is set when the model has no price: USD then prices the
	// searches alone.
	Unpriced bool
}

// Tokens is the model tokens expected.
func (e Estimate) Tokens() int { return e.Usage.Tokens() }

// RequestCount is the requests expected, all lanes.
func (e Estimate) RequestCount() int {
	n := 0
	for _, v := range e.Requests {
		n += v
	}
	return n
}

// defaultEstimate stands for a case nothing is known about: a Phase 2 turn
// of the shipped seed cassettes (two model calls of about 1,300 prompt and
// 450 completion tokens, one Tavily search).
var defaultEstimate = Estimate{
	Requests: map[string]int{LaneChat: 2, LaneTavily: 1},
	Usage:    price.Usage{PromptTokens: 2600, CompletionTokens: 900, TavilySearches: 1},
	From:     "default",
}

// EstimateItems estimates each item's recording from its newest cassette
// on the first of shelves that has one (this variant's, then the shipped
// seed recordings); a case no shelf holds gets the mean of its dataset's
// estimated cases, else defaultEstimate. Each estimate is priced with table
// for model and multiplied by samples (≥ 1); a model with no price leaves
// its tokens unpriced (Estimate.Unpriced).
func EstimateItems(items []Item, shelves []Shelf, table price.Table, model string, samples int) ([]Estimate, error) {
	samples = max(samples, 1)
	out := make([]Estimate, len(items))
	known := make([]bool, len(items))
	type acc struct {
		e Estimate
		n int
	}
	byDataset := map[string]*acc{}
	for i, it := range items {
		for _, sh := range shelves {
			path := sh.SamplePath(it.Case, 1)
			e, ok, err := estimateCassette(path)
			if err != nil {
				return nil, err
			}
			if ok {
				out[i], known[i] = e, true
				a := byDataset[it.Case.Dataset]
				if a == nil {
					a = &acc{e: Estimate{Requests: map[string]int{}}}
					byDataset[it.Case.Dataset] = a
				}
				a.e.Usage = a.e.Usage.Add(e.Usage)
				for k, v := range e.Requests {
					a.e.Requests[k] += v
				}
				a.n++
				break
			}
		}
	}
	for i, it := range items {
		if !known[i] {
			if a := byDataset[it.Case.Dataset]; a != nil {
				out[i] = meanEstimate(a.e, a.n, fmt.Sprintf("mean of %d recorded cases of %s", a.n, it.Case.Dataset))
			} else {
				out[i] = defaultEstimate
			}
		}
		e := &out[i]
		e.Usage.Model = model
		if samples > 1 {
			e.Usage = price.Usage{Model: model, PromptTokens: e.Usage.PromptTokens * samples, CompletionTokens: e.Usage.CompletionTokens * samples,
				TavilySearches: e.Usage.TavilySearches * samples, ExaSearches: e.Usage.ExaSearches * samples}
			req := map[string]int{}
			for k, v := range e.Requests {
				req[k] = v * samples
			}
			e.Requests = req
		}
		usd, err := table.USD(e.Usage)
		var unpriced *price.UnpricedError
		if err != nil && !errors.As(err, &unpriced) {
			return nil, err
		}
		e.USD, e.Unpriced = usd, unpriced != nil
	}
	return out, nil
}

func meanEstimate(sum Estimate, n int, from string) Estimate {
	div := func(v int) int { return (v + n/2) / n }
	e := Estimate{Requests: map[string]int{}, From: from}
	for k, v := range sum.Requests {
		e.Requests[k] = div(v)
	}
	e.Usage = price.Usage{PromptTokens: div(sum.Usage.PromptTokens), CompletionTokens: div(sum.Usage.CompletionTokens),
		TavilySearches: div(sum.Usage.TavilySearches), ExaSearches: div(sum.Usage.ExaSearches)}
	return e
}

// estimateCassette counts a cassette's requests by lane and the tokens and
// searches its answered requests used.
func estimateCassette(path string) (Estimate, bool, error) {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return Estimate{}, false, nil
	}
	if err != nil {
		return Estimate{}, false, err
	}
	var c struct {
		Interactions []struct {
			Request struct {
				URL     string              `yaml:"url"`
				Headers map[string][]string `yaml:"headers"`
			} `yaml:"request"`
			Response struct {
				Body string `yaml:"body"`
				Code int    `yaml:"code"`
			} `yaml:"response"`
		} `yaml:"interactions"`
	}
	if err := yaml.Unmarshal(b, &c); err != nil {
		return Estimate{}, false, fmt.Errorf("estimating from %s: %w", path, err)
	}
	e := Estimate{Requests: map[string]int{}, From: path}
	for _, in := range c.Interactions {
		u, err := url.Parse(in.Request.URL)
		if err != nil {
			continue
		}
		lane := LaneOf(u, http.Header(in.Request.Headers))
		e.Requests[lane]++
		if in.Response.Code < 200 || in.Response.Code > 299 {
			continue
		}
		switch lane {
		case LaneChat:
			var r struct {
				Usage struct {
					PromptTokens     int `json:"prompt_tokens"`
					CompletionTokens int `json:"completion_tokens"`
				} `json:"usage"`
			}
			if json.Unmarshal([]byte(in.Response.Body), &r) == nil {
				e.Usage.PromptTokens += r.Usage.PromptTokens
				e.Usage.CompletionTokens += r.Usage.CompletionTokens
			}
		case LaneTavily:
			e.Usage.TavilySearches++
		case LaneExa:
			e.Usage.ExaSearches++
		}
	}
	return e, true, nil
}
