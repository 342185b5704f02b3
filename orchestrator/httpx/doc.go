// Package httpx is the one place where the orchestrator's provider clients
// (orchestrator/llm for Cerebras/vLLM chat, orchestrator/search for Tavily
// and Exa) meet HTTP: it encodes request bodies deterministically, sends
// them through one injectable http.RoundTripper (the harness records and
// replays through it), applies one retry policy, and turns every provider's
// error body into an *APIError.
//
// The retry policy (Policy) bounds attempts, backs off exponentially with
// injectable jitter, honours Retry-After and Cerebras' x-ratelimit-reset-*
// headers, retries 429, 5xx, connection resets, EOF and attempt timeouts,
// and never retries other 4xx. Its sleep is injectable: replays use NoSleep,
// so a recorded "429 then 200" replays instantly and identically. Every
// call reports its attempts (status and wait), on success and on failure.
//
// No SDK is involved, so there are no hidden retries, and no credential
// from a request header ever reaches an error message.
package httpx
