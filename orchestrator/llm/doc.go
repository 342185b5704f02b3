// Package llm is the orchestrator's chat client for GPT-OSS-120B behind any
// OpenAI-compatible chat completions endpoint: Cerebras by default, vLLM or
// the loopback simulator by configuration. Every request goes through
// orchestrator/httpx, so it uses the project's one retry policy and one
// injectable transport (the harness records and replays through it), and
// request bodies are byte-for-byte deterministic (fixed field order, Extra
// keys sorted, no ids or timestamps).
//
// Configuration from the environment (ConfigFromEnv):
//
//	SEARCHBENCH_LLM_BASE_URL  base URL, default https://api.cerebras.ai/v1
//	                          (vLLM: http://host:8000/v1)
//	SEARCHBENCH_LLM_MODEL     model, default gpt-oss-120b
//	                          (vLLM's default name is openai/gpt-oss-120b)
//	CEREBRAS_API_KEY          Bearer key; OPENAI_API_KEY is the fallback
//	                          (a vLLM server without auth accepts any value)
//
// Responses are decoded tolerantly: GPT-OSS reasoning is read from
// "reasoning", falling back to "reasoning_content"; content may be null or
// empty; Cerebras' time_info gives the provider-reported latency.
// Streaming is not supported: the orchestrator needs whole messages.
package llm
