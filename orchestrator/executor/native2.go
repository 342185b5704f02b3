package executor

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// More open models' own call formats, from vLLM's tool parsers and their
// tests (tests/tool_parsers/test_*_tool_parser.py; datasets/parser.yaml
// names the file and commit of each case):
//
//	kimi_k2     <|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{…}<|tool_call_end|>…<|tool_calls_section_end|>
//	glm45       <tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value>…</tool_call>   (GLM-4.5, glm4_moe)
//	seed_oss    <seed:tool_call><function=NAME><parameter=K>V</parameter></function></seed:tool_call>
//	minimax_m2  <minimax:tool_call><invoke name="NAME"><parameter name="K">V</parameter></invoke></minimax:tool_call>
//
// and two shapes a GPT-OSS server hands back whole:
//
//	vllm_required    [{"name": …, "parameters": {…}}, …]: vLLM's output under
//	                 tool_choice "required", a JSON list decoded to its schema
//	chat_completion  a whole chat completion response whose call sits in
//	                 choices[0].message.tool_calls
const (
	FormKimiK2         = "kimi_k2"
	FormGLM45          = "glm45"
	FormSeedOSS        = "seed_oss"
	FormMiniMaxM2      = "minimax_m2"
	FormVLLMRequired   = "vllm_required"
	FormChatCompletion = "chat_completion"
)

var (
	kimiCallRe    = regexp.MustCompile(`(?s)<\|tool_call_begin\|>\s*(.*?)\s*<\|tool_call_argument_begin\|>(.*?)(?:<\|tool_call_end\|>|<\|tool_calls_section_end\|>|$)`)
	kimiIDRe      = regexp.MustCompile(`^(?:functions\.)?([\w.\-]+):\d+$`)
	glmCallRe     = regexp.MustCompile(`(?s)<tool_call>\s*([A-Za-z_][\w.\-]*)\s*((?:<arg_key>.*?)?)</tool_call>`)
	glmArgRe      = regexp.MustCompile(`(?s)<arg_key>(.*?)</arg_key>\s*<arg_value>(.*?)</arg_value>`)
	seedThinkRe   = regexp.MustCompile(`(?s)<seed:think>.*?</seed:think>`)
	seedBlockRe   = regexp.MustCompile(`(?s)<seed:tool_call>(.*?)(?:</seed:tool_call>|$)`)
	minimaxRe     = regexp.MustCompile(`(?s)<minimax:tool_call>(.*?)(?:</minimax:tool_call>|$)`)
	invokeRe      = regexp.MustCompile(`(?s)<invoke\s+name="([^"]+)"\s*>(.*?)(?:</invoke>|$)`)
	invokeParamRe = regexp.MustCompile(`(?s)<parameter\s+name="([^"]+)"\s*>(.*?)</parameter>`)
)

// readKimiK2 reads Kimi K2's calls. A call id that is not NAME:INDEX names
// no call (vLLM drops it too); arguments that are not a JSON object are a
// malformed attempt.
func readKimiK2(text string) (bool, []Call, []string) {
	if !strings.Contains(text, "<|tool_call_begin|>") {
		return false, nil, nil
	}
	var calls []Call
	var problems []string
	for _, m := range kimiCallRe.FindAllStringSubmatch(text, -1) {
		id := kimiIDRe.FindStringSubmatch(strings.TrimSpace(m[1]))
		if id == nil {
			problems = append(problems, fmt.Sprintf("call id %q is not NAME:INDEX", strings.TrimSpace(m[1])))
			continue
		}
		v, _, err := decodeValue(strings.TrimSpace(m[2]))
		args, isObj := v.(map[string]any)
		if err != nil || !isObj {
			problems = append(problems, fmt.Sprintf("%s: the arguments are not a JSON object", id[1]))
			continue
		}
		calls = append(calls, Call{Name: id[1], Arguments: args})
	}
	return true, calls, problems
}

// readGLM45 reads GLM-4.5's calls: the name on the line after <tool_call>,
// then key/value pairs. A block without its closing tag is no call (vLLM's
// test_extract_tool_calls_incomplete_tool_call). Values are strings.
func readGLM45(text string) (bool, []Call, []string) {
	if !strings.Contains(text, "<tool_call>") {
		return false, nil, nil
	}
	ms := glmCallRe.FindAllStringSubmatch(text, -1)
	if len(ms) == 0 {
		return false, nil, nil // hermes, qwen3_xml or granite
	}
	var calls []Call
	for _, m := range ms {
		args := map[string]any{}
		for _, a := range glmArgRe.FindAllStringSubmatch(m[2], -1) {
			args[strings.TrimSpace(a[1])] = strings.TrimSpace(a[2])
		}
		calls = append(calls, Call{Name: m[1], Arguments: args})
	}
	return true, calls, nil
}

// readSeedOSS reads Seed-OSS's calls, after its thinking is removed: a
// call the model describes while it thinks is no call (vLLM's
// tool_call_unlimited_thinking_budget case).
func readSeedOSS(text string) (bool, []Call, []string) {
	if !strings.Contains(text, "<seed:tool_call>") {
		return false, nil, nil
	}
	text = seedThinkRe.ReplaceAllString(text, "")
	var calls []Call
	for _, b := range seedBlockRe.FindAllStringSubmatch(text, -1) {
		for _, f := range qwenFunctionRe.FindAllStringSubmatch(b[1], -1) {
			args := map[string]any{}
			for _, p := range qwenParamRe.FindAllStringSubmatch(f[2], -1) {
				args[p[1]] = strings.TrimSuffix(strings.TrimPrefix(p[2], "\n"), "\n")
			}
			calls = append(calls, Call{Name: f[1], Arguments: args})
		}
	}
	return true, calls, nil
}

// readMiniMaxM2 reads MiniMax-M2's invoke blocks. Values are strings.
func readMiniMaxM2(text string) (bool, []Call, []string) {
	if !strings.Contains(text, "<minimax:tool_call>") {
		return false, nil, nil
	}
	var calls []Call
	for _, b := range minimaxRe.FindAllStringSubmatch(text, -1) {
		for _, inv := range invokeRe.FindAllStringSubmatch(b[1], -1) {
			args := map[string]any{}
			for _, p := range invokeParamRe.FindAllStringSubmatch(inv[2], -1) {
				args[p[1]] = strings.TrimSpace(p[2])
			}
			calls = append(calls, Call{Name: inv[1], Arguments: args})
		}
	}
	return true, calls, nil
}

// readVLLMRequired reads the whole text as vLLM's output under
// tool_choice "required": a JSON list of {"name", "parameters"} objects
// (vllm/entrypoints/openai's tool-choice JSON schema), every item a call.
func readVLLMRequired(text string) (bool, []Call, []string) {
	s := strings.TrimSpace(text)
	if !strings.HasPrefix(s, "[") || !strings.HasSuffix(s, "]") {
		return false, nil, nil
	}
	v, n, err := decodeValue(s)
	items, isArr := v.([]any)
	if err != nil || n != len(s) || !isArr || len(items) == 0 {
		return false, nil, nil
	}
	for _, it := range items {
		obj, _ := it.(map[string]any)
		if _, ok := obj["parameters"]; !ok {
			return false, nil, nil // {"name", "arguments"} lists are hermes' or granite's
		}
	}
	calls, problems, ok := callList(v)
	if !ok {
		return false, nil, nil
	}
	return true, calls, problems
}

// readChatCompletion reads a whole chat completion response given as the
// text: the calls in choices[0].message.tool_calls, each one's arguments a
// JSON string. A response without tool calls is not this form.
func readChatCompletion(text string) (bool, []Call, []string) {
	s := strings.TrimSpace(text)
	if !strings.HasPrefix(s, "{") || !strings.Contains(s, `"choices"`) {
		return false, nil, nil
	}
	var resp struct {
		Choices []struct {
			Message struct {
				ToolCalls []struct {
					Function struct {
						Name      string          `json:"name"`
						Arguments json.RawMessage `json:"arguments"`
					} `json:"function"`
				} `json:"tool_calls"`
			} `json:"message"`
		} `json:"choices"`
	}
	if json.Unmarshal([]byte(s), &resp) != nil || len(resp.Choices) == 0 || len(resp.Choices[0].Message.ToolCalls) == 0 {
		return false, nil, nil
	}
	var calls []Call
	var problems []string
	for _, tc := range resp.Choices[0].Message.ToolCalls {
		raw := tc.Function.Arguments
		var str string
		if json.Unmarshal(raw, &str) == nil {
			raw = json.RawMessage(str) // the API's form: a JSON string holding the object
		}
		v, _, err := decodeValue(string(raw))
		args, isObj := v.(map[string]any)
		if err != nil || !isObj || tc.Function.Name == "" {
			problems = append(problems, fmt.Sprintf("%s: the arguments are not a JSON object", tc.Function.Name))
			continue
		}
		calls = append(calls, Call{Name: tc.Function.Name, Arguments: args})
	}
	return true, calls, problems
}
