package executor

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Canonical tool names. The prompts, the guided schema and the dispatcher
// all use exactly these.
const (
	ToolWebSearch = "web_search"
	ToolWebFetch  = "web_fetch"
	ToolRead      = "read"
	ToolWrite     = "write"
	ToolExec      = "exec"
	ToolBrowser   = "browser"
)

// Tools lists the canonical tool names in the seed's order.
var Tools = []string{ToolWebSearch, ToolWebFetch, ToolRead, ToolWrite, ToolExec, ToolBrowser}

// BrowserActions are the actions the browser tool accepts.
var BrowserActions = []string{"navigate", "screenshot", "snapshot"}

// arg describes one argument of a tool. Every argument in the seed is a string.
type arg struct {
	name     string
	required bool
	emptyOK  bool // an empty value is meaningful (an empty file)
}

// toolArgs holds each tool's arguments, in the order the seed lists them.
var toolArgs = map[string][]arg{
	ToolWebSearch: {{name: "query", required: true}},
	ToolWebFetch:  {{name: "url", required: true}},
	ToolRead:      {{name: "path", required: true}},
	ToolWrite:     {{name: "path", required: true}, {name: "content", required: true, emptyOK: true}},
	ToolExec:      {{name: "command", required: true}},
	// url is needed by navigate only; screenshot and snapshot act on the
	// current page.
	ToolBrowser: {{name: "action", required: true}, {name: "url"}},
}

// Call is one tool call extracted from a model output.
type Call struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

// String renders the call compactly, arguments sorted by name:
// web_search(query="rust async").
func (c Call) String() string {
	var b strings.Builder
	b.WriteString(c.Name)
	b.WriteByte('(')
	keys := make([]string, 0, len(c.Arguments))
	for k := range c.Arguments {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		v, err := json.Marshal(c.Arguments[k])
		if err != nil {
			v = []byte(fmt.Sprintf("%q", fmt.Sprint(c.Arguments[k])))
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.Write(v)
	}
	b.WriteByte(')')
	return b.String()
}

// Finding kinds. Those marked "blocks dispatch" make Dispatcher refuse the call.
const (
	FindingUnknownTool     = "unknown_tool"     // the name is not a canonical tool (blocks dispatch)
	FindingMissingArgument = "missing_argument" // a required argument is absent or empty (blocks dispatch)
	FindingWrongType       = "wrong_type"       // an argument is not a string (blocks dispatch)
	FindingInvalidValue    = "invalid_value"    // e.g. a browser action outside navigate|screenshot|snapshot (blocks dispatch)
	FindingUnknownArgument = "unknown_argument" // an argument the tool does not take; ignored by dispatch
	FindingNormalized      = "normalized"       // a tool or argument name was case-folded to the canonical one
	FindingMalformed       = "malformed"        // the model attempted a call that could not be decoded; no call extracted
	FindingSchema          = "schema"           // the guided_json object violates the schema
	FindingNonJSONInput    = "non_json_input"   // a react Action Input was plain text, taken as the tool's one argument
)

// Finding is a problem noticed while extracting or checking calls. Findings
// are data: they travel with the result and never stop extraction.
type Finding struct {
	Kind string `json:"kind"`
	// Call is the 1-based position of the call in Result.Calls the finding is
	// about, or 0 when it is about the output as a whole.
	Call     int    `json:"call,omitempty"`
	Strategy string `json:"strategy,omitempty"`
	Message  string `json:"message"`
}

// Blocking reports whether a finding of this kind makes the call unfit to run.
func (f Finding) Blocking() bool {
	switch f.Kind {
	case FindingUnknownTool, FindingMissingArgument, FindingWrongType, FindingInvalidValue:
		return true
	}
	return false
}

// normalize case-folds a near-miss tool name (Web_Search, WEB-SEARCH) and
// argument names (Query) to the canonical ones, reporting each change.
func normalize(c Call) (Call, []Finding) {
	var fs []Finding
	if _, ok := toolArgs[c.Name]; !ok {
		folded := strings.NewReplacer("-", "_", " ", "_").Replace(strings.ToLower(strings.TrimSpace(c.Name)))
		if _, ok := toolArgs[folded]; ok {
			fs = append(fs, Finding{Kind: FindingNormalized, Message: fmt.Sprintf("tool name %q read as %q", c.Name, folded)})
			c.Name = folded
		}
	}
	args, ok := toolArgs[c.Name]
	if !ok || len(c.Arguments) == 0 {
		return c, fs
	}
	var out map[string]any
	for _, k := range sortedKeys(c.Arguments) {
		want := k
		if !hasArg(args, k) {
			if l := strings.ToLower(k); hasArg(args, l) {
				if _, taken := c.Arguments[l]; !taken {
					want = l
				}
			}
		}
		if want != k && out == nil {
			out = make(map[string]any, len(c.Arguments))
			for kk, vv := range c.Arguments {
				out[kk] = vv
			}
		}
		if want != k {
			delete(out, k)
			out[want] = c.Arguments[k]
			fs = append(fs, Finding{Kind: FindingNormalized, Message: fmt.Sprintf("%s argument %q read as %q", c.Name, k, want)})
		}
	}
	if out != nil {
		c.Arguments = out
	}
	return c, fs
}

func hasArg(args []arg, name string) bool {
	for _, a := range args {
		if a.name == name {
			return true
		}
	}
	return false
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Check validates one call against the canonical tools: a known name,
// required arguments present and non-empty strings, no unknown arguments,
// and a known browser action. The findings' Call field is left 0.
func Check(c Call) []Finding {
	args, ok := toolArgs[c.Name]
	if !ok {
		return []Finding{{Kind: FindingUnknownTool, Message: fmt.Sprintf("unknown tool %q (tools: %s)", c.Name, strings.Join(Tools, ", "))}}
	}
	var fs []Finding
	for _, a := range args {
		v, present := c.Arguments[a.name]
		if !present || v == nil {
			if a.required {
				fs = append(fs, Finding{Kind: FindingMissingArgument, Message: fmt.Sprintf("%s: missing required argument %q", c.Name, a.name)})
			}
			continue
		}
		s, isString := v.(string)
		switch {
		case !isString:
			fs = append(fs, Finding{Kind: FindingWrongType, Message: fmt.Sprintf("%s: argument %q is %s, want string", c.Name, a.name, jsonType(v))})
		case a.required && !a.emptyOK && strings.TrimSpace(s) == "":
			fs = append(fs, Finding{Kind: FindingMissingArgument, Message: fmt.Sprintf("%s: required argument %q is empty", c.Name, a.name)})
		}
	}
	if c.Name == ToolBrowser {
		action, _ := c.Arguments["action"].(string)
		switch {
		case action != "" && !slices.Contains(BrowserActions, action):
			fs = append(fs, Finding{Kind: FindingInvalidValue, Message: fmt.Sprintf("browser: action %q is not one of %s", action, strings.Join(BrowserActions, "|"))})
		case action == "navigate":
			if u, _ := c.Arguments["url"].(string); strings.TrimSpace(u) == "" {
				fs = append(fs, Finding{Kind: FindingMissingArgument, Message: `browser: action "navigate" needs argument "url"`})
			}
		}
	}
	for _, k := range sortedKeys(c.Arguments) {
		if !hasArg(args, k) {
			fs = append(fs, Finding{Kind: FindingUnknownArgument, Message: fmt.Sprintf("%s: unknown argument %q", c.Name, k)})
		}
	}
	return fs
}

// jsonType names the JSON type of a decoded value, for messages.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number, float64, int, int64:
		return "a number"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}
