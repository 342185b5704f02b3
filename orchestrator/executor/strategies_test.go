package executor

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// args is shorthand for a call's arguments in tables.
type args = map[string]any

func call(name string, a args) Call { return Call{Name: name, Arguments: a} }

// sameCalls compares calls through JSON, so json.Number and string forms of
// the same arguments compare as they would on the wire.
func sameCalls(t *testing.T, got, want []Call) {
	t.Helper()
	if len(got) == 0 && len(want) == 0 {
		return
	}
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Errorf("calls\n got %s\nwant %s", g, w)
	}
}

func kinds(fs []Finding) []string {
	var k []string
	for _, f := range fs {
		k = append(k, f.Kind)
	}
	return k
}

func TestParseReact(t *testing.T) {
	tests := []struct {
		name     string
		text     string
		want     []Call
		done     bool
		matched  bool
		findings []string
	}{
		{
			name:    "seed format",
			text:    "Thought: search first.\nAction: web_search\nAction Input: {\"query\": \"Rust async patterns best practices 2026\"}\n",
			want:    []Call{call("web_search", args{"query": "Rust async patterns best practices 2026"})},
			matched: true,
		},
		{
			name:    "done",
			text:    "Thought: finished.\nAction: done\nAction Input: {}",
			done:    true,
			matched: true,
		},
		{
			name: "several steps with injected results and observations",
			text: "Thought: a\nAction: web_search\nAction Input: {\"query\": \"q\"}\n\n[Tool results will be injected here]\n\n" +
				"Observation: found it\nThought: b\nAction: web_fetch\nAction Input: {\"url\": \"https://x.org\"}\nThought: c\nAction: done\nAction Input: {}\n",
			// One action per step: the first is the call, the imagined
			// rest of the run is dropped with a finding each.
			want:     []Call{call("web_search", args{"query": "q"})},
			matched:  true,
			findings: []string{FindingDropped, FindingDropped},
		},
		{
			name:    "JSON spanning lines",
			text:    "Action: write\nAction Input: {\n  \"path\": \"a.md\",\n  \"content\": \"# A\\n\\nb\"\n}\nThought: next",
			want:    []Call{call("write", args{"path": "a.md", "content": "# A\n\nb"})},
			matched: true,
		},
		{
			name:    "fence on the next line",
			text:    "Action: web_fetch\nAction Input:\n```json\n{\"url\": \"https://go.dev\"}\n```\n",
			want:    []Call{call("web_fetch", args{"url": "https://go.dev"})},
			matched: true,
		},
		{
			name:    "fence on the same line",
			text:    "Action: web_search\nAction Input: ```json {\"query\": \"x\"} ```",
			want:    []Call{call("web_search", args{"query": "x"})},
			matched: true,
		},
		{
			name:    "markdown bold labels and backticked name",
			text:    "**Thought:** t\n**Action:** `web_search`\n**Action Input:** {\"query\": \"x\"}",
			want:    []Call{call("web_search", args{"query": "x"})},
			matched: true,
		},
		{
			name:     "wrong case labels and tool, CRLF",
			text:     "ACTION: Web_Search\r\naction input: {\"Query\": \"x\"}\r\n",
			want:     []Call{call("Web_Search", args{"Query": "x"})}, // normalised later, in finish
			matched:  true,
			findings: nil,
		},
		{
			name:     "plain text input for a one-argument tool",
			text:     "Action: web_search\nAction Input: \"Rust 1.85 release notes\"",
			want:     []Call{call("web_search", args{"query": "Rust 1.85 release notes"})},
			matched:  true,
			findings: []string{FindingNonJSONInput},
		},
		{
			name:     "plain text input for write is malformed",
			text:     "Action: write\nAction Input: notes.md",
			matched:  true,
			findings: []string{FindingMalformed},
		},
		{
			// CrewAI's test_valid_action_parsing_with_incomplete_json.
			name:     "unterminated JSON: the missing brace is added",
			text:     "Action: web_search\nAction Input: {\"query\": \"x\"\nObservation: none",
			want:     []Call{call("web_search", args{"query": "x"})},
			matched:  true,
			findings: []string{FindingRepaired},
		},
		{
			name:     "an unterminated string is not repaired",
			text:     "Action: web_search\nAction Input: {\"query\": \"x\nObservation: none",
			matched:  true,
			findings: []string{FindingMalformed},
		},
		{
			name:     "action without input",
			text:     "Action: web_search\nThought: hmm",
			matched:  true,
			findings: []string{FindingMalformed},
		},
		{
			name:     "input without action",
			text:     "Action Input: {\"query\": \"x\"}",
			matched:  true,
			findings: []string{FindingMalformed},
		},
		{
			name:    "trailing text after the JSON",
			text:    "Action: read\nAction Input: {\"path\": \"a.txt\"}  (the notes)",
			want:    []Call{call("read", args{"path": "a.txt"})},
			matched: true,
		},
		{
			name: "prose mentioning actions is not a call",
			text: "I will take the Action: web_search approach.\nThe Action Input: would be a query.",
		},
		{
			name: "inline function-call syntax is not the format",
			text: "Action: web_search(query=\"x\")",
		},
		{name: "empty", text: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseReact(tt.text)
			sameCalls(t, got.calls, tt.want)
			if got.done != tt.done || got.matched != tt.matched {
				t.Errorf("done, matched = %v, %v; want %v, %v", got.done, got.matched, tt.done, tt.matched)
			}
			if k := kinds(got.findings); !reflect.DeepEqual(k, tt.findings) {
				t.Errorf("findings %v (%+v); want %v", k, got.findings, tt.findings)
			}
		})
	}
}

func TestParseMarkers(t *testing.T) {
	tests := []struct {
		name     string
		text     string
		want     []Call
		done     bool
		matched  bool
		findings []string
	}{
		{
			name: "seed example",
			text: "I'll search.\n[TOOL:web_search|query=AI news 2026]\n[TOOL:web_fetch|url=https://example.com/ai-news]\n" +
				"[TOOL:write|path=ai-summary.md|content=Summary of AI news...]\n[DONE]",
			want: []Call{
				call("web_search", args{"query": "AI news 2026"}),
				call("web_fetch", args{"url": "https://example.com/ai-news"}),
				call("write", args{"path": "ai-summary.md", "content": "Summary of AI news..."}),
			},
			done: true, matched: true,
		},
		{
			name: "values containing =",
			text: "[TOOL:web_fetch|url=https://x.org/?a=1&b=2][TOOL:write|path=.env|content=A=B]",
			want: []Call{
				call("web_fetch", args{"url": "https://x.org/?a=1&b=2"}),
				call("write", args{"path": ".env", "content": "A=B"}),
			},
			matched: true,
		},
		{
			name:    "pipe inside a command",
			text:    "[TOOL:exec|command=ls -la | grep go]",
			want:    []Call{call("exec", args{"command": "ls -la | grep go"})},
			matched: true,
		},
		{
			name:    "pipe and key-like text inside content",
			text:    "[TOOL:write|path=t.md|content=a | b | x=y]",
			want:    []Call{call("write", args{"path": "t.md", "content": "a | b | x=y"})},
			matched: true,
		},
		{
			name:    "unknown argument on a search stays separate",
			text:    "[TOOL:web_search|query=q|max_results=5]",
			want:    []Call{call("web_search", args{"query": "q", "max_results": "5"})},
			matched: true,
		},
		{
			name:    "spaces, case and quotes",
			text:    `[ tool : WEB_SEARCH | query = "rust traits" ] [done]`,
			want:    []Call{call("WEB_SEARCH", args{"query": "rust traits"})},
			done:    true,
			matched: true,
		},
		{
			name:    "multi-line value",
			text:    "[TOOL:write|path=n.md|content=# N\n- a\n- b]",
			want:    []Call{call("write", args{"path": "n.md", "content": "# N\n- a\n- b"})},
			matched: true,
		},
		{
			name:    "value cut at the first ]",
			text:    "[TOOL:write|path=l.md|content=See [docs](https://go.dev)]",
			want:    []Call{call("write", args{"path": "l.md", "content": "See [docs"})},
			matched: true,
		},
		{
			name:     "no arg=value pairs",
			text:     "[TOOL:browser|screenshot]",
			matched:  true,
			findings: []string{FindingMalformed},
		},
		{name: "done alone", text: "All set. [DONE]", done: true, matched: true},
		{name: "marker without arguments is not matched", text: "[TOOL:web_search]"},
		{name: "prose", text: "No tool needed; the answer is 4."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseMarkers(tt.text)
			sameCalls(t, got.calls, tt.want)
			if got.done != tt.done || got.matched != tt.matched {
				t.Errorf("done, matched = %v, %v; want %v, %v", got.done, got.matched, tt.done, tt.matched)
			}
			if k := kinds(got.findings); !reflect.DeepEqual(k, tt.findings) {
				t.Errorf("findings %v; want %v", k, tt.findings)
			}
		})
	}
}

func TestParseFuzzy(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []Call
	}{
		{"seed search example", "I would search for 'Rust async patterns'", []Call{call("web_search", args{"query": "Rust async patterns"})}},
		{"seed fetch example", "I would fetch the page at https://example.com", []Call{call("web_fetch", args{"url": "https://example.com"})}},
		{"fetch trims sentence punctuation", "Then I'd retrieve the content from https://go.dev/doc/.", []Call{call("web_fetch", args{"url": "https://go.dev/doc/"})}},
		{"seed exec example", "I would run the command 'ls -la'", []Call{call("exec", args{"command": "ls -la"})}},
		{"read without at", "I would read the file /etc/hosts", []Call{call("read", args{"path": "/etc/hosts"})}},
		// The seed's read pattern takes "at" as the path in its own example:
		// no path (issue 37: a capture must be a real argument).
		{"seed read example", "I would read the file at /path/to/file", nil},
		// Issue 37: bare articles, pronouns and placeholders, code, and a
		// search promised on the user's answer are no calls.
		{"bare article path", "First, read the file the user passes in.", nil},
		{"pronoun query", "I'll search for its rules.", nil},
		{"placeholder query", "Let me look up the information.", nil},
		{"inside code", "```\nI would search for 'x'\n```", nil},
		{"condition on the user", "Once you tell me the country, I'll search for its tax rules.", nil},
		{"if you confirm", "If you confirm, I will search for 'EU AI Act timeline'.", nil},
		{"real query after them", "I'll search for the EU AI Act timeline.", []Call{call("web_search", args{"query": "the EU AI Act timeline"})}},
		// The seed's write pattern needs "to" right after the verb.
		{"seed write example", "I would write the results to /tmp/output.md", nil},
		{"save to", "I would save to notes.md.", []Call{call("write", args{"path": "notes.md"})}},
		{"look up on", "I would look up the population of Tokyo on Wikipedia", []Call{call("web_search", args{"query": "the population of Tokyo"})}},
		{"ordered by position", "Fetch https://a.org and then search for 'b'.", []Call{
			call("web_fetch", args{"url": "https://a.org"}),
			call("web_search", args{"query": "b"}),
		}},
		{"restated intent once", "I would search for 'x'. Yes, I would search for 'x'.", []Call{call("web_search", args{"query": "x"})}},
		{"no intent", "The capital of Australia is Canberra.", nil},
		{"search; is not an intent", "No need to search; it is 4.", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseFuzzy(tt.text)
			sameCalls(t, got.calls, tt.want)
			if got.matched != (len(tt.want) > 0) {
				t.Errorf("matched = %v", got.matched)
			}
		})
	}
}

func TestParseGuided(t *testing.T) {
	sch, err := seedCompiled()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		text     string
		want     []Call
		done     bool
		matched  bool
		findings []string
	}{
		{
			name:    "seed expected output",
			text:    `{"reasoning": "r", "tool_calls": [{"name": "web_search", "arguments": {"query": "Rust async patterns best practices 2026"}}], "done": false}`,
			want:    []Call{call("web_search", args{"query": "Rust async patterns best practices 2026"})},
			matched: true,
		},
		{
			name:    "done with no calls",
			text:    `{"reasoning": "r", "tool_calls": [], "done": true}`,
			done:    true,
			matched: true,
		},
		{
			name:    "fenced, after prose with braces",
			text:    "Plan {a}: {\"x\": 1}\n```json\n{\"reasoning\": \"r\", \"tool_calls\": [{\"name\": \"read\", \"arguments\": {\"path\": \"a\"}}], \"done\": false}\n```",
			want:    []Call{call("read", args{"path": "a"})},
			matched: true,
		},
		{
			name:     "missing done",
			text:     `{"reasoning": "r", "tool_calls": [{"name": "web_search", "arguments": {"query": "q"}}]}`,
			want:     []Call{call("web_search", args{"query": "q"})},
			matched:  true,
			findings: []string{FindingSchema},
		},
		{
			name:     "name outside the enum",
			text:     `{"reasoning": "r", "tool_calls": [{"name": "google", "arguments": {"query": "q"}}], "done": false}`,
			want:     []Call{call("google", args{"query": "q"})},
			matched:  true,
			findings: []string{FindingSchema},
		},
		{
			name:     "arguments as a JSON string",
			text:     `{"reasoning": "r", "tool_calls": [{"name": "web_fetch", "arguments": "{\"url\": \"https://x.org\"}"}], "done": false}`,
			want:     []Call{call("web_fetch", args{"url": "https://x.org"})},
			matched:  true,
			findings: []string{FindingSchema},
		},
		{
			name:     "item without a name",
			text:     `{"reasoning": "r", "tool_calls": [{"arguments": {}}], "done": false}`,
			matched:  true,
			findings: []string{FindingSchema, FindingMalformed},
		},
		{
			name:     "truncated",
			text:     `{"reasoning": "Search for the release date and the`,
			matched:  true,
			findings: []string{FindingMalformed},
		},
		{name: "other JSON", text: `{"answer": "Paris"}`},
		{name: "prose", text: "Paris is the capital of France."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseGuided(tt.text, sch)
			sameCalls(t, got.calls, tt.want)
			if got.done != tt.done || got.matched != tt.matched {
				t.Errorf("done, matched = %v, %v; want %v, %v", got.done, got.matched, tt.done, tt.matched)
			}
			if k := kinds(got.findings); !reflect.DeepEqual(k, tt.findings) {
				t.Errorf("findings %v (%+v); want %v", k, got.findings, tt.findings)
			}
		})
	}
}

func TestSchemaFindingsNameTheLocation(t *testing.T) {
	sch, err := seedCompiled()
	if err != nil {
		t.Fatal(err)
	}
	got := parseGuided(`{"reasoning": 1, "tool_calls": [{"name": "rm", "arguments": {}}], "done": "no"}`, sch)
	var msgs []string
	for _, f := range got.findings {
		msgs = append(msgs, f.Message)
	}
	joined := strings.Join(msgs, "\n")
	for _, want := range []string{"at /done:", "at /reasoning:", "at /tool_calls/0/name:"} {
		if !strings.Contains(joined, want) {
			t.Errorf("findings lack %q:\n%s", want, joined)
		}
	}
}
