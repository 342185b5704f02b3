// Package trace records what one turn of the assistant did: which phase ran
// and why, every model request and tool call, and the text the user saw.
//
// A trace is the only thing the evaluation harness scores. Everything in it is
// derived from the conversation and the (recorded) HTTP traffic, never from
// the wall clock, so a replay produces the same trace byte for byte.
package trace

// Phases a turn can run.
const (
	Phase1  = "phase1"  // immediate answer from internal knowledge, no tools offered
	Phase2  = "phase2"  // search-backed answer, tools offered
	Decline = "decline" // the user declined a search: acknowledge, internal knowledge only, no tools
)

// Routes observed from the search calls a Phase 2 turn made.
const (
	RouteNone          = "none"
	RouteTavilyOnly    = "tavily_only"
	RouteExaOnly       = "exa_only"
	RouteTavilyPlusExa = "tavily_plus_exa"
)

// Tool names offered to the model in Phase 2.
const (
	ToolTavily = "tavily_search"
	ToolExa    = "exa_search"
)

// Tool call statuses.
const (
	CallOK      = "ok"           // sent, results returned
	CallLimited = "limit"        // refused: the tool's query limit was reached; nothing sent
	CallInvalid = "invalid_args" // refused: arguments did not decode or had no query
	CallUnknown = "unknown_tool" // refused: the model named a tool that was not offered
	CallError   = "error"        // sent, the provider answered with an error
)

// Output modes of Phase 2.
const (
	ModeModel      = "model"      // the model writes verification line, markdown and JSON
	ModeStructured = "structured" // the model returns the envelope; the app prints the rest
)

// Session is a whole conversation: the turns in order.
type Session struct {
	Variant string `json:"variant"`
	Mode    string `json:"mode"`
	Turns   []Turn `json:"turns"`
}

// Turn is one user message and everything the assistant did to answer it.
type Turn struct {
	Index int    `json:"index"`
	Input string `json:"input"` // the user's text as typed

	// AwaitingConsent is true when the turn followed a Phase 1 answer, so the
	// input was first classified as a consent reply.
	AwaitingConsent bool   `json:"awaiting_consent"`
	Intent          string `json:"intent,omitempty"`      // YES, NO, SEARCH_NOW or NEW_QUERY when AwaitingConsent
	IntentRule      string `json:"intent_rule,omitempty"` // the consent rule that decided Intent
	// ConsentScope is the limit a scoped assent put on the search ("only
	// official sources"), as typed.
	ConsentScope string `json:"consent_scope,omitempty"`
	// IntentBy says what decided Intent: "rule" (the consent rules) or
	// "model" (the chat model, asked about a reply the rules could not
	// place); "" when not awaiting consent. IntentReason is the model's
	// short reason, or why its verdict could not be used.
	IntentBy     string `json:"intent_by,omitempty"`
	IntentReason string `json:"intent_reason,omitempty"`
	// ConsentCall is the classification request sent to the model for a
	// reply the rules could not place (IntentBy "model"), kept apart from
	// ModelCalls, which hold the requests of the turn's phase.
	ConsentCall *ModelCall `json:"consent_call,omitempty"`
	// ConsentDeferred says why the consent rules left the reply to the
	// model (their defer.* rule, or no clause deciding); "" when they
	// decided it. IntentRule keeps the rule that deferred it.
	ConsentDeferred string `json:"consent_deferred,omitempty"`
	// ScopeInstruction is the system message every Phase 2 request of the
	// turn carried because the consent put a condition on the search
	// (ConsentScope); "" when there was none.
	ScopeInstruction string `json:"scope_instruction,omitempty"`
	Override         bool   `json:"override"` // a leading or trailing '?' forced Phase 2
	Phase            string `json:"phase"`
	Query            string `json:"query"` // the question this turn answers (for YES, the earlier query)

	// Phase1Skipped is set on a Phase 2 turn that no Phase 1 answer preceded
	// (an override or a system request), so the only right verification
	// sentence is the "skipped" one.
	Phase1Skipped bool `json:"phase1_skipped,omitempty"`

	Mode         string      `json:"mode,omitempty"` // Phase 2 output mode
	ToolsOffered []string    `json:"tools_offered"`  // empty in Phase 1 and Decline
	Route        string      `json:"route,omitempty"`
	ToolCalls    []ToolCall  `json:"tool_calls,omitempty"`
	ModelCalls   []ModelCall `json:"model_calls"`

	// RawOutput is the model's final answer as it came back (model mode), or
	// the envelope JSON it returned (structured mode).
	RawOutput string `json:"raw_output"`
	// Output is the text the user saw.
	Output string `json:"output"`
	// Replaced is set when the orchestrator did not pass the model's output
	// through: "repaired" (markdown re-rendered from a valid envelope) or
	// "schema_violation" (the contract was broken and the failure form shown).
	Replaced string `json:"replaced,omitempty"`
	// Reason explains Replaced, or why the turn ended without an answer.
	Reason string `json:"reason,omitempty"`

	Usage   Usage   `json:"usage"`
	Latency Latency `json:"latency"`

	// Error is set when the turn could not finish (an infrastructure
	// failure after retries, a cassette miss). Output is then empty.
	Error string `json:"error,omitempty"`
}

// ToolCall is one search the model asked for in Phase 2.
type ToolCall struct {
	Round int    `json:"round"` // index of the model call that asked for it
	ID    string `json:"id"`    // the model's tool_call id
	Tool  string `json:"tool"`  // tavily_search or exa_search (or whatever the model named)
	Query string `json:"query"`
	// Requested is the result count the model asked for (0 when it did not
	// say); Sent is what the app sent after clamping to the per-query limit.
	Requested int      `json:"requested_results"`
	Sent      int      `json:"sent_results"`
	Results   int      `json:"results"` // how many came back
	URLs      []string `json:"urls,omitempty"`
	// Retrieved is what the model was shown of each result, in order, so a
	// scorer can compare an answer with its evidence without the cassette.
	Retrieved []Retrieved `json:"retrieved,omitempty"`
	Status    string      `json:"status"`
	Error     string      `json:"error,omitempty"`
	Attempts  int         `json:"attempts"` // HTTP attempts, retries included
	// LatencyMS is the provider-reported search time (Tavily response_time,
	// Exa searchTime), so it is the same on every replay.
	LatencyMS float64 `json:"latency_ms"`
	// LatencySource is "round_trip" when the provider reported no time (an
	// Exa body shaped as its OpenAPI spec, without searchTime) and
	// LatencyMS is the client's HTTP round trip instead: the recorded
	// durations in a replay. Empty: provider-reported.
	LatencySource string `json:"latency_source,omitempty"`
}

// Retrieved is one search result as the model saw it in the seed-001 text
// format: the title line (host or "(untitled)" when the provider gave
// none), the snippet whitespace-collapsed and cut to 300 characters, and
// the URL canonicalised by the output contract's rules (the raw URL when it
// has no canonical form), so it compares directly with an answer's sources.
type Retrieved struct {
	URL       string `json:"url"`
	Title     string `json:"title"`
	Published string `json:"published,omitempty"` // as the provider wrote it
	Snippet   string `json:"snippet,omitempty"`
}

// ModelCall is one chat completion request and what came back.
type ModelCall struct {
	Round        int             `json:"round"`
	ToolsOffered []string        `json:"tools_offered"`
	FinishReason string          `json:"finish_reason"`
	Content      string          `json:"content"`
	Reasoning    string          `json:"reasoning,omitempty"`
	ToolCalls    []RequestedCall `json:"tool_calls,omitempty"`
	Usage        Usage           `json:"usage"`
	Attempts     int             `json:"attempts"`           // HTTP attempts, retries included
	Statuses     []int           `json:"statuses,omitempty"` // HTTP status of each attempt (0: no response)
	LatencyMS    float64         `json:"latency_ms"`         // provider-reported time_info.total_time
	Error        string          `json:"error,omitempty"`
}

// RequestedCall is a tool call exactly as the model wrote it.
type RequestedCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Usage counts model tokens.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// Add returns the sum of u and v.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		PromptTokens:     u.PromptTokens + v.PromptTokens,
		CompletionTokens: u.CompletionTokens + v.CompletionTokens,
		TotalTokens:      u.TotalTokens + v.TotalTokens,
	}
}

// Latency sums provider-reported times, in milliseconds.
type Latency struct {
	ModelMS  float64 `json:"model_ms"`
	SearchMS float64 `json:"search_ms"`
}

// RouteOf names the route taken by a set of tool calls: the tools that were
// actually asked for, whether or not the limit refused some of them.
func RouteOf(calls []ToolCall) string {
	var tavily, exa bool
	for _, c := range calls {
		switch c.Tool {
		case ToolTavily:
			tavily = true
		case ToolExa:
			exa = true
		}
	}
	switch {
	case tavily && exa:
		return RouteTavilyPlusExa
	case tavily:
		return RouteTavilyOnly
	case exa:
		return RouteExaOnly
	}
	return RouteNone
}
