package orchestrator

import (
	"context"
	"fmt"

	"github.com/searchbench/searchbench/orchestrator/executor"
	"github.com/searchbench/searchbench/orchestrator/search"
)

// Dispatcher returns an executor dispatcher wired to these clients:
// web_search is a Tavily search whose results come back in the seed-001 text
// format (at most maxResults, never more than 5), and web_fetch is Tavily
// /extract. read and write stay inside cfg.Workspace; exec and browser stay
// refused unless cfg enables them and the caller wires them.
func (c Clients) Dispatcher(cfg executor.ToolsConfig, maxResults int) *executor.Dispatcher {
	if maxResults <= 0 || maxResults > DefaultMaxResults {
		maxResults = DefaultMaxResults
	}
	return &executor.Dispatcher{
		Tools: cfg,
		Search: func(ctx context.Context, query string) (string, error) {
			resp, err := c.Tavily.Search(ctx, search.TavilyRequest{Query: query, MaxResults: maxResults})
			if err != nil {
				return "", err
			}
			results := resp.Results()
			if len(results) > maxResults {
				results = results[:maxResults]
			}
			return search.Format(query, results, maxResults), nil
		},
		Fetch: func(ctx context.Context, url string) (string, error) {
			resp, err := c.Tavily.Extract(ctx, search.ExtractRequest{URLs: []string{url}})
			if err != nil {
				return "", err
			}
			for _, r := range resp.Results {
				return r.RawContent, nil
			}
			for _, f := range resp.FailedResults {
				return "", fmt.Errorf("tavily could not extract %s: %s", f.URL, f.Error)
			}
			return "", fmt.Errorf("tavily returned nothing for %s", url)
		},
	}
}
