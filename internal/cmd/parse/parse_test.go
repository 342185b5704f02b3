package parse_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/internal/cmd/root"
	"github.com/searchbench/searchbench/internal/cmdutil"
)

type result struct {
	Strategy string   `json:"strategy"`
	Tried    []string `json:"tried"`
	Field    string   `json:"field"`
	Calls    []struct {
		Name      string            `json:"name"`
		Arguments map[string]string `json:"arguments"`
	} `json:"calls"`
	Done     bool `json:"done"`
	Findings []struct {
		Kind string `json:"kind"`
	} `json:"findings"`
}

func TestParse(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		stdin    string
		strategy string
		tried    string
		field    string
		calls    string // name(arg=value) joined by ", "
		findings string
	}{
		{
			name:  "raw text on stdin, default chain",
			args:  []string{"parse"},
			stdin: "Thought: t\nAction: web_search\nAction Input: {\"query\": \"q\"}\n",
			// Raw text is content; reasoning is empty, so content is read.
			strategy: "react", tried: "react", field: "content", calls: "web_search(query=q)",
		},
		{
			// GPT-OSS's usual layout: react finds nothing in reasoning, so
			// content is read before the fallback strategy runs.
			name:     "default reads content when reasoning has no call",
			args:     []string{"parse", "testdata/split.yaml"},
			strategy: "react", tried: "react", field: "content", calls: "web_search(query=latest Go release)",
		},
		{
			name:     "config file",
			args:     []string{"parse", "--config", "../../../testdata/demo/config/executor.yaml", "testdata/split.yaml"},
			strategy: "react", tried: "react", field: "content", calls: "web_search(query=latest Go release)",
		},
		{
			// The seed's literal rule reads content only when reasoning is
			// empty, so the calls in content are missed.
			name:     "seed's literal field rule",
			args:     []string{"parse", "--config", "testdata/literal.yaml", "testdata/split.yaml"},
			strategy: "", tried: "react,fuzzy", field: "reasoning",
		},
		{
			name:     "--strategy alone has no fallback",
			args:     []string{"parse", "--strategy", "markers", "-"},
			stdin:    `{"reasoning": "", "content": "[TOOL:exec|command=ls | wc -l][DONE]"}`,
			strategy: "markers", tried: "markers", field: "content", calls: "exec(command=ls | wc -l)",
		},
		{
			name:     "--strategy with --fallback",
			args:     []string{"parse", "--strategy", "markers", "--fallback", "fuzzy"},
			stdin:    `{"content": "I would search for 'x'."}`,
			strategy: "fuzzy", tried: "markers,fuzzy", field: "content", calls: "web_search(query=x)",
		},
		{
			name:     "guided_json reads content, fenced object, findings",
			args:     []string{"parse", "--strategy", "guided_json", "testdata/guided.txt"},
			strategy: "guided_json", tried: "guided_json", field: "content", calls: "web_fetch(url=https://x.org/?a=1&b=2)",
		},
		{
			name:     "unknown tool is a finding",
			args:     []string{"parse", "-s", "react"},
			stdin:    "Action: rm\nAction Input: {\"path\": \"/\"}",
			strategy: "react", tried: "react", field: "content", calls: "rm(path=/)", findings: "unknown_tool",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			io, out, errOut := cmdutil.Test(tt.stdin)
			if code := root.Main(context.Background(), tt.args, io); code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var r result
			if err := json.Unmarshal(out.Bytes(), &r); err != nil {
				t.Fatalf("output is not JSON: %v\n%s", err, out)
			}
			var calls, findings []string
			for _, c := range r.Calls {
				var kv []string
				for k, v := range c.Arguments {
					kv = append(kv, k+"="+v)
				}
				calls = append(calls, c.Name+"("+strings.Join(kv, ",")+")")
			}
			for _, f := range r.Findings {
				findings = append(findings, f.Kind)
			}
			got := []string{r.Strategy, strings.Join(r.Tried, ","), r.Field, strings.Join(calls, ", "), strings.Join(findings, ",")}
			want := []string{tt.strategy, tt.tried, tt.field, tt.calls, tt.findings}
			if strings.Join(got, " | ") != strings.Join(want, " | ") {
				t.Errorf("got  %q\nwant %q\n%s", got, want, out)
			}
			if strings.Contains(out.String(), `\u0026`) {
				t.Error("output escapes & in URLs")
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"unknown strategy", []string{"parse", "--strategy", "regex"}, []string{`unknown strategy "regex"`}},
		{"same fallback", []string{"parse", "--strategy", "react", "--fallback", "react"}, []string{"is also the primary strategy"}},
		{"bad config lists every problem", []string{"parse", "--config", "testdata/bad-config.yaml"}, []string{
			"testdata/bad-config.yaml:4:3: unknown key parser.colour",
			`testdata/bad-config.yaml:2:13: parser.strategy: unknown strategy "regex"`,
		}},
		{"missing config", []string{"parse", "--config", "testdata/nope.yaml"}, []string{"executor config: open testdata/nope.yaml"}},
		{"missing input", []string{"parse", "testdata/nope.txt"}, []string{"reading input"}},
		{"two inputs", []string{"parse", "a", "b"}, []string{"accepts at most 1 arg"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			io, out, errOut := cmdutil.Test("")
			if code := root.Main(context.Background(), tt.args, io); code != cmdutil.ExitUsage {
				t.Errorf("exit %d; want %d", code, cmdutil.ExitUsage)
			}
			if out.Len() != 0 {
				t.Errorf("stdout: %s", out)
			}
			for _, w := range tt.want {
				if !strings.Contains(errOut.String(), w) {
					t.Errorf("stderr lacks %q:\n%s", w, errOut)
				}
			}
		})
	}
}
