package executor

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// GPT-OSS writes its tool calls in the harmony format. A server that parses
// harmony turns them into tool_calls; one that does not (a raw completion, a
// misconfigured vLLM) passes them through as text:
//
//	<|start|>assistant<|channel|>commentary to=functions.web_search <|constrain|>json<|message|>{"query":"…"}<|call|>
//
// The recipient (to=…) may also stand in the role part
// (<|start|>assistant to=functions.web_search<|channel|>commentary json<|message|>…),
// <|start|>assistant may be missing (it ends the prompt, not the output),
// <|constrain|> is optional, and the message ends at <|call|>, <|end|>,
// <|return|>, the next <|start|> or the end of the text. A message with no
// recipient (analysis, final) is no call. Every strategy recognises these
// calls first: it is the model's own format.
// The message body runs to the next special token (<|…), whatever it is.
var harmonyRe = regexp.MustCompile(`(?:<\|start\|>([^<]*))?<\|channel\|>([^<]*?)(?:<\|constrain\|>([^<]*))?<\|message\|>((?:[^<]|<[^|])*)`)

// harmonyToRe finds the recipient in one part of a header (the role part
// or the channel part): everything after "to=" in that part, so that a tool
// name with a space ("to=functions.Web Search") is read whole; a trailing
// content type ("json", "code") that lost its <|constrain|> is no part of it.
var harmonyToRe = regexp.MustCompile(`(?:^|\s)to=(.*)$`)

// recipientOf returns the recipient named in one header part, "" when none.
func recipientOf(part string) string {
	m := harmonyToRe.FindStringSubmatch(strings.TrimSpace(part))
	if m == nil {
		return ""
	}
	to := strings.TrimSpace(m[1])
	for _, suffix := range []string{" json", " code"} {
		to = strings.TrimSpace(strings.TrimSuffix(to, suffix))
	}
	return to
}

// Forms a strategy reports in Result.Form: which written form of a call it
// recognised.
const (
	FormHarmony    = "harmony"     // GPT-OSS's native <|channel|>… to=functions.NAME <|message|>{…}<|call|>
	FormGuided     = "guided_json" // the {reasoning, tool_calls, done} object
	FormReact      = "react"       // Action: / Action Input: lines
	FormReactJSON  = "react_json"  // a {"action": …, "action_input": …} blob (LangChain's ReAct-JSON)
	FormPythonDict = "python_dict" // react with a single-quoted Python dict as Action Input
	FormMarkers    = "markers"     // [TOOL:name|arg=value]
	FormFuzzy      = "fuzzy"       // natural-language intent
)

// FindingHarmony notes a call found in the raw harmony format: the server
// did not parse GPT-OSS's own tool-call format, which is worth fixing there.
const FindingHarmony = "harmony"

// parseHarmony extracts every harmony message addressed to a recipient.
// A message a tool wrote (its role a tool's name, "functions.x" or
// "browser.search") or addressed to the assistant (to=assistant) is a tool
// reply, never a call: the harmony format is recognised, and no call is
// extracted from it. Without the <|message|> token, the forms a server or
// gateway leaves when it strips the special tokens are read
// (parseHarmonyStripped).
func parseHarmony(text string, strategy string) parsed {
	if !strings.Contains(text, "<|message|>") {
		return parseHarmonyStripped(text, strategy)
	}
	var out parsed
	for _, m := range harmonyRe.FindAllStringSubmatch(text, -1) {
		role := strings.Fields(m[1])
		to := recipientOf(m[1])
		if to == "" {
			to = recipientOf(m[2])
		}
		if to == "" {
			continue // analysis or final: no call
		}
		out.matched = true
		if to == "assistant" || len(role) > 0 && role[0] != "assistant" {
			// A tool's reply to the assistant, not the assistant's call.
			out.findings = append(out.findings, Finding{Kind: FindingToolReply, Strategy: strategy,
				Message: fmt.Sprintf("a harmony message from %s to %s is a tool's reply, not a call", firstOr(role, "a tool"), to)})
			continue
		}
		c, ok := harmonyCall(to, m[4])
		if !ok {
			out.findings = append(out.findings, Finding{Kind: FindingMalformed, Strategy: strategy,
				Message: fmt.Sprintf("harmony call to %s: the message is not a JSON object; no call extracted", to)})
			continue
		}
		out.calls = append(out.calls, c)
	}
	if out.matched {
		out.form = FormHarmony
		out.findings = append(out.findings, Finding{Kind: FindingHarmony, Strategy: strategy,
			Message: "calls in GPT-OSS's raw harmony format: the server did not parse them into tool_calls"})
	}
	return out
}

// FindingToolReply notes a tool's reply, written in a call's format, that
// was not read as a call.
const FindingToolReply = "tool_reply"

func firstOr(ws []string, def string) string {
	if len(ws) == 0 {
		return def
	}
	return ws[0]
}

// harmonyCall reads a recipient and a message body into a call: the
// "functions." namespace dropped (a dotted name past it kept:
// "functions.patient.get_report" is "patient.get_report"), the body one
// JSON object. A name with "json" glued to it ("web_searchjson", llama.cpp
// PR 15158) is read as the canonical tool it ends with.
func harmonyCall(to, body string) (Call, bool) {
	name := to
	if ns, fn, ok := strings.Cut(name, "."); ok && ns == "functions" {
		name = fn
	}
	if base, ok := strings.CutSuffix(name, "json"); ok {
		if _, known := toolArgs[base]; known {
			name = base
		}
	}
	dec := json.NewDecoder(strings.NewReader(strings.TrimSpace(body)))
	dec.UseNumber()
	var args map[string]any
	if err := dec.Decode(&args); err != nil || args == nil {
		return Call{}, false
	}
	return Call{Name: name, Arguments: args}, true
}

// harmonyStrippedRe finds a harmony call whose special tokens a server
// stripped ("commentary to=functions.web_search json{…}", llama.cpp PR
// 15158) or a gateway flattened ("assistantcommentary to=functions.web_search
// {…}<|call|>", vLLM issue 32587): a channel word, possibly glued to the
// role, then the recipient, an optional content type, and a JSON object.
// The recipient runs to the content type or the brace, spaces included.
var harmonyStrippedRe = regexp.MustCompile(`(?m)(?:^|[\s>])(?:assistant)?(?:commentary|analysis)[ \t]+to=(functions\.[^\n{<]*?)[ \t]*(?:<\|constrain\|>)?[ \t]*(?:json|code)?[ \t]*\{`)

// parseHarmonyStripped reads the harmony calls whose special tokens were
// stripped or flattened (harmonyStrippedRe); each body is the JSON object
// that starts at the brace.
func parseHarmonyStripped(text, strategy string) parsed {
	var out parsed
	for _, loc := range harmonyStrippedRe.FindAllStringSubmatchIndex(text, -1) {
		out.matched = true
		to := strings.TrimSpace(text[loc[2]:loc[3]])
		v, _, err := decodeValue(text[loc[1]-1:])
		obj, isObj := v.(map[string]any)
		if err != nil || !isObj {
			out.findings = append(out.findings, Finding{Kind: FindingMalformed, Strategy: strategy,
				Message: fmt.Sprintf("harmony call to %s with its tokens stripped: the message is not a JSON object; no call extracted", to)})
			continue
		}
		c, _ := harmonyCall(to, "{}")
		c.Arguments = obj
		out.calls = append(out.calls, c)
	}
	if out.matched {
		out.form = FormHarmony
		out.findings = append(out.findings, Finding{Kind: FindingHarmony, Strategy: strategy,
			Message: "calls in GPT-OSS's harmony format with its special tokens stripped: the server did not parse them into tool_calls"})
	}
	return out
}
