// Package executor turns what GPT-OSS writes into tool calls, and runs the
// ones the harness allows.
//
// The executor sends the model one of four system prompts (Prompt), one per
// parser strategy, and reads the calls back out of the model's reasoning or
// content field (Parser.Extract):
//
//   - guided_json: decoding is constrained by a JSON schema (GuidedConstraint)
//     and the {reasoning, tool_calls, done} object is validated against it;
//   - react: Thought / Action / Action Input blocks;
//   - markers: [TOOL:name|arg=value|…] markers ended by [DONE];
//   - fuzzy: natural-language intents ("I would search for 'X'").
//
// A primary strategy runs first; when it recognises nothing, the fallback
// strategy runs. Every extracted call is checked against the canonical tools
// (Check) and problems travel with the result as Findings, never as panics.
// Dispatcher sends web_search and web_fetch to injected search functions,
// confines read and write to a workspace folder, and refuses exec and
// browser unless they are enabled.
//
// The strategies, prompts, schema and regular expressions come from
// seeds/002-executor-parser-strategies.txt; eval/parsing measures how
// reliable each one is on datasets/parser.yaml.
package executor
