package orchestrator

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/searchbench/searchbench/orchestrator/answer"
	"github.com/searchbench/searchbench/orchestrator/httpx"
	"github.com/searchbench/searchbench/orchestrator/llm"
	"github.com/searchbench/searchbench/orchestrator/search"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// maxQueryRunes is Tavily's query limit; longer queries are refused by the
// service with a 400, so the app refuses them first.
const maxQueryRunes = 400

// phase2 runs the search-backed answer: the tool loop, then the output
// contract. history is the conversation after the system prompt(s).
func (a *Assistant) phase2(ctx context.Context, t *trace.Turn, history []message) error {
	structured := a.opts.Mode == trace.ModeStructured
	t.Mode = a.opts.Mode
	t.ToolsOffered = toolNames(a.tools)
	msgs := []message{system(a.prompts.Phase2System(structured))}
	used := map[string]int{}
	if a.opts.AlwaysOn {
		block, err := a.alwaysOn(ctx, t, used)
		if err != nil {
			return err
		}
		msgs = append(msgs, system(search.SystemMessage(block)))
	}
	if len(history) > 0 && history[0].Role == "system" {
		// The scope instruction of a consent with a condition
		// (Session.scoped): kept on the trace as it was sent.
		t.ScopeInstruction = history[0].Content
	}
	msgs = append(msgs, history...)

	for round := 0; ; round++ {
		req := &llm.ChatRequest{Messages: msgs, Tools: a.tools, ToolChoice: "auto"}
		last := round == a.opts.MaxRounds-1
		if last {
			// The last request must produce the answer.
			req.ToolChoice = "none"
		}
		if structured {
			req.ResponseFormat = structuredFormat()
		}
		m, finish, err := a.chat(ctx, t, req)
		if err != nil {
			return err
		}
		if len(m.ToolCalls) == 0 || last {
			t.Route = trace.RouteOf(t.ToolCalls)
			if len(m.ToolCalls) > 0 {
				a.finish(t, "", fmt.Sprintf("model still asked for tools after %d rounds", a.opts.MaxRounds))
				return nil
			}
			a.finish(t, m.Content, noContentReason(m.Content, finish))
			return nil
		}
		reply := llm.Message{Role: "assistant", Content: m.Content, ToolCalls: m.ToolCalls}
		msgs = append(msgs, reply)
		for _, tc := range exaFirst(m.ToolCalls) {
			content := a.runTool(ctx, t, round, tc, used)
			msgs = append(msgs, llm.Message{Role: "tool", ToolCallID: tc.ID, Content: content})
		}
	}
}

func noContentReason(content, finish string) string {
	if strings.TrimSpace(content) != "" {
		return ""
	}
	return fmt.Sprintf("model returned no content (finish_reason=%s)", finish)
}

// exaFirst orders one model turn's calls so that Exa runs before Tavily (the
// seed's order for tavily_plus_exa: concepts first, then facts to anchor
// them). Other calls keep the model's order.
func exaFirst(calls []llm.ToolCall) []llm.ToolCall {
	out := append([]llm.ToolCall(nil), calls...)
	rank := func(c llm.ToolCall) int {
		switch c.Function.Name {
		case trace.ToolExa:
			return 0
		case trace.ToolTavily:
			return 1
		}
		return 2
	}
	sort.SliceStable(out, func(i, j int) bool { return rank(out[i]) < rank(out[j]) })
	return out
}

// toolArgs are the arguments of both search tools. Exa's count is
// num_results, Tavily's max_results; either is accepted for either tool.
type toolArgs struct {
	Query      string `json:"query"`
	MaxResults *int   `json:"max_results"`
	NumResults *int   `json:"num_results"`
}

// runTool executes one tool call under the app's limits and returns the
// tool message for the model. The call is recorded on t whatever happens.
func (a *Assistant) runTool(ctx context.Context, t *trace.Turn, round int, tc llm.ToolCall, used map[string]int) string {
	name := tc.Function.Name
	call := trace.ToolCall{Round: round, ID: tc.ID, Tool: name}
	defer func() { t.ToolCalls = append(t.ToolCalls, call) }()

	if name != trace.ToolTavily && name != trace.ToolExa {
		call.Status = trace.CallUnknown
		call.Error = "unknown tool"
		return fmt.Sprintf("Unknown tool %q. Available tools: %s, %s.", name, trace.ToolTavily, trace.ToolExa)
	}
	var args toolArgs
	if err := json.Unmarshal([]byte(tc.Function.Arguments), &args); err != nil {
		call.Status = trace.CallInvalid
		call.Error = "arguments are not a JSON object: " + err.Error()
		return "Search failed: the arguments were not valid JSON; send {\"query\": \"...\"}."
	}
	call.Query = args.Query
	switch {
	case args.MaxResults != nil:
		call.Requested = *args.MaxResults
	case args.NumResults != nil:
		call.Requested = *args.NumResults
	}
	if strings.TrimSpace(args.Query) == "" {
		call.Status = trace.CallInvalid
		call.Error = "empty query"
		return "Search failed: the query was empty."
	}
	if utf8.RuneCountInString(args.Query) > maxQueryRunes {
		call.Status = trace.CallInvalid
		call.Error = fmt.Sprintf("query longer than %d characters", maxQueryRunes)
		return fmt.Sprintf("Search failed: the query is longer than %d characters; shorten it.", maxQueryRunes)
	}
	if used[name] >= a.opts.QueryLimit {
		call.Status = trace.CallLimited
		return fmt.Sprintf("Limit reached: %s allows at most %d queries per answer. This call was not sent; answer with the evidence you have.", name, a.opts.QueryLimit)
	}
	used[name]++
	call.Sent = a.opts.MaxResults
	if call.Requested > 0 && call.Requested < call.Sent {
		call.Sent = call.Requested
	}

	a.progress(SearchProgress{Tool: name, Query: args.Query})
	results, attempts, latency, err := a.search(ctx, name, args.Query, call.Sent)
	call.Attempts = len(attempts)
	call.LatencyMS, call.LatencySource = latency.ms, latency.source
	t.Latency.SearchMS += latency.ms
	if err != nil {
		a.progress(SearchProgress{Tool: name, Query: args.Query, Done: true, Err: err})
		call.Status = trace.CallError
		call.Error = err.Error()
		// What the model reads is part of the next request: nothing
		// clock-derived (retry waits) may enter it, or a recording
		// could not replay.
		return "Search failed: " + httpx.StableText(err)
	}
	if len(results) > call.Sent {
		results = results[:call.Sent]
	}
	a.progress(SearchProgress{Tool: name, Query: args.Query, Done: true, Results: len(results)})
	call.Status = trace.CallOK
	call.Results = len(results)
	call.URLs, call.Retrieved = retrieved(results)
	return search.Format(args.Query, results, call.Sent)
}

// progress tells opts.Progress, if set, of a search's step.
func (a *Assistant) progress(p SearchProgress) {
	if a.opts.Progress != nil {
		a.opts.Progress(p)
	}
}

// searchLatency is a search's time and, when it is not the provider's own
// timing, where it came from (trace.ToolCall.LatencySource).
type searchLatency struct {
	ms     float64
	source string
}

// search calls one provider. The error never holds a key: the clients
// redact them.
func (a *Assistant) search(ctx context.Context, tool, query string, n int) ([]search.Result, []httpx.Attempt, searchLatency, error) {
	switch tool {
	case trace.ToolExa:
		resp, err := a.clients.Exa.Search(ctx, search.ExaRequest{Query: query, NumResults: n})
		if err != nil {
			return nil, httpx.AttemptsOf(err), searchLatency{}, err
		}
		l := searchLatency{ms: resp.LatencyMS()}
		if src := resp.LatencySource(); src != search.LatencyProvider {
			l.source = src
		}
		return resp.Results(), resp.Attempts, l, nil
	default:
		resp, err := a.clients.Tavily.Search(ctx, search.TavilyRequest{Query: query, MaxResults: n})
		if err != nil {
			return nil, httpx.AttemptsOf(err), searchLatency{}, err
		}
		return resp.Results(), resp.Attempts, searchLatency{ms: resp.LatencyMS()}, nil
	}
}

// alwaysOn searches the query with Tavily before the first model request,
// as the seed-001 "always-on" mode does. The search counts toward Tavily's
// query limit and appears in the trace as round -1.
func (a *Assistant) alwaysOn(ctx context.Context, t *trace.Turn, used map[string]int) (string, error) {
	call := trace.ToolCall{Round: -1, ID: "always-on", Tool: trace.ToolTavily, Query: t.Query, Sent: a.opts.MaxResults}
	used[trace.ToolTavily]++
	a.progress(SearchProgress{Tool: trace.ToolTavily, Query: t.Query})
	results, attempts, latency, err := a.search(ctx, trace.ToolTavily, t.Query, call.Sent)
	call.Attempts, call.LatencyMS = len(attempts), latency.ms
	t.Latency.SearchMS += latency.ms
	if err != nil {
		a.progress(SearchProgress{Tool: trace.ToolTavily, Query: t.Query, Done: true, Err: err})
		call.Status, call.Error = trace.CallError, err.Error()
		t.ToolCalls = append(t.ToolCalls, call)
		return "", fmt.Errorf("always-on search: %w", err)
	}
	if len(results) > call.Sent {
		results = results[:call.Sent]
	}
	a.progress(SearchProgress{Tool: trace.ToolTavily, Query: t.Query, Done: true, Results: len(results)})
	call.Status, call.Results = trace.CallOK, len(results)
	call.URLs, call.Retrieved = retrieved(results)
	t.ToolCalls = append(t.ToolCalls, call)
	return search.Format(t.Query, results, call.Sent), nil
}

// retrieved lists the results' URLs as the provider sent them, and what the
// model was shown of each (search.Shown), with the URL canonicalised by the
// output contract so that a scorer compares it with an answer's sources.
func retrieved(results []search.Result) ([]string, []trace.Retrieved) {
	if len(results) == 0 {
		return nil, nil
	}
	urls := make([]string, len(results))
	out := make([]trace.Retrieved, len(results))
	for i, r := range results {
		urls[i] = r.URL
		sh := search.Shown(r)
		u := sh.URL
		if canon, err := answer.CanonicalURL(u); err == nil {
			u = canon
		}
		out[i] = trace.Retrieved{URL: u, Title: sh.Title, Published: strings.TrimSpace(sh.Published), Snippet: sh.Snippet}
	}
	return urls, out
}
