// Package search holds the orchestrator's web search clients — Tavily for
// concrete facts, Exa for semantic and research queries — and the seed-001
// text the model sees: results normalised into Result, rendered by Format
// and wrapped in the always-on system message by SystemMessage.
//
// Both clients send every request through orchestrator/httpx (one retry
// policy, one injectable transport that the harness records and replays
// through, deterministic request bodies), validate requests before sending
// them, and decode responses tolerantly (Tavily response_time as a number
// or a string, images as strings or objects; Exa titles that are null).
// Each response carries its HTTP attempts and the provider-reported latency
// (LatencyMS), which traces use instead of the wall clock.
//
// Configuration from the environment:
//
//	TAVILY_API_KEY          Tavily key, sent as "Authorization: Bearer" (required)
//	TAVILY_BASE_URL         default https://api.tavily.com
//	EXA_API_KEY             Exa key, sent as "x-api-key" (required)
//	EXA_BASE_URL            default https://api.exa.ai
//	WEB_SEARCH_MAX_RESULTS  results shown per search by Format, 1–20, default 5
//
// Point the base URLs at a loopback simulator to run without the network.
package search
