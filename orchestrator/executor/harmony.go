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

// harmonyToRe finds the recipient in a header.
var harmonyToRe = regexp.MustCompile(`(?:^|\s)to=([^\s<]+)`)

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
func parseHarmony(text string, strategy string) parsed {
	if !strings.Contains(text, "<|message|>") {
		return parsed{}
	}
	var out parsed
	for _, m := range harmonyRe.FindAllStringSubmatch(text, -1) {
		header := m[1] + " " + m[2] + " " + m[3]
		to := harmonyToRe.FindStringSubmatch(header)
		if to == nil {
			continue // analysis or final: no call
		}
		out.matched = true
		name := to[1]
		if ns, fn, ok := strings.Cut(name, "."); ok && ns == "functions" {
			name = fn
		}
		body := strings.TrimSpace(m[4])
		dec := json.NewDecoder(strings.NewReader(body))
		dec.UseNumber()
		var args map[string]any
		if err := dec.Decode(&args); err != nil || args == nil {
			out.findings = append(out.findings, Finding{Kind: FindingMalformed, Strategy: strategy,
				Message: fmt.Sprintf("harmony call to %s: the message is not a JSON object; no call extracted", to[1])})
			continue
		}
		out.calls = append(out.calls, Call{Name: name, Arguments: args})
	}
	if out.matched {
		out.form = FormHarmony
		out.findings = append(out.findings, Finding{Kind: FindingHarmony, Strategy: strategy,
			Message: "calls in GPT-OSS's raw harmony format: the server did not parse them into tool_calls"})
	}
	return out
}
