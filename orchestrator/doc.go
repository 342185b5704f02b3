// Package orchestrator is the two-phase web-search assistant under test.
//
// A Session holds one conversation. Each user message becomes one Turn:
//
//   - A new query goes to Phase 1: the model answers from its own knowledge
//     and asks whether to search. No tools are offered to the model at all.
//   - A leading or trailing '?' (after trimming) skips Phase 1: the query goes
//     straight to Phase 2.
//   - After a Phase 1 answer the next message is first read as a consent
//     reply (package consent): YES or SEARCH_NOW runs Phase 2 for the earlier
//     query; NO gets an acknowledgement from internal knowledge, no tools;
//     anything else is a new query and the flow restarts.
//
// Phase 2 offers the model two function tools, tavily_search and exa_search,
// and runs a bounded tool loop. The app, not the prompt, enforces the limits:
// at most 3 queries per tool (a further call is answered with a "Limit
// reached" tool message and not sent) and at most 5 results per query (the
// requested count is clamped). When one model turn asks for both tools, Exa
// runs before Tavily. Search results reach the model in the fixed text format
// of package search.
//
// The final answer follows the output contract of package answer. In model
// mode the model writes the whole Phase 2 message and the app checks it: a
// violation is replaced by the SCHEMA_VIOLATION form, or — with Repair — the
// markdown is re-rendered from a valid envelope. In structured mode the model
// returns the envelope under a strict json_schema response format and the app
// prints the header, verification line, canonical markdown and JSON.
//
// Every turn yields a trace.Turn: the harness scores from traces alone.
// Nothing in a trace comes from the wall clock, so a replay of recorded
// traffic reproduces it byte for byte.
//
// Request layout (the simulator in sim relies on it):
//
//	Phase 1:  [system: phase1 prompt, user: query]                       no tools
//	Decline:  [system: decline prompt, user: query, assistant: phase 1, user: reply]
//	Phase 2:  [system: phase2 prompt, (system: always-on results),
//	           user: query, (assistant: phase 1, user: reply)]            tools offered
//	          then per round: assistant (with tool_calls), one tool message per call.
package orchestrator
