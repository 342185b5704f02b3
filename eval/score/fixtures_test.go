package score

import (
	"strings"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/orchestrator/answer"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// Hand-built cases and traces shared by the scorer tests.

var (
	testSources = []answer.Source{
		{ID: "s1", Domain: "go.dev", Title: "Go release history", URL: "https://go.dev/doc/devel/release"},
		{ID: "s2", Domain: "wikipedia.org", Title: "Go (programming language)", URL: "https://en.wikipedia.org/wiki/Go_(programming_language)"},
		{ID: "s3", Domain: "go.dev", Title: "Go 1.18 is released", URL: "https://go.dev/blog/go1.18"},
	}
	testBullets = []answer.Bullet{
		{Text: "Go 1.0 was released in March 2012.", SourceIDs: []string{"s1", "s2"}},
		{Text: "Generics arrived in Go 1.18 in March 2022.", SourceIDs: []string{"s2", "s3"}},
		{Text: "Go ships a new minor release about every six months.", SourceIDs: []string{"s1", "s3"}}, // one domain
	}
	okEnv = answer.Success(testBullets, testSources)
)

// okMsg is a valid Phase 2 message with verification sentence v.
func okMsg(v string) string { return answer.FormatPhase2(v, okEnv) }

// driftMsg prints the markdown with a trailing space on the first bullet.
func driftMsg(v string) string {
	m := okMsg(v)
	return strings.Replace(m, "March 2012.\n", "March 2012. \n", 1)
}

func structuredRaw(v string, e answer.Envelope) string {
	return `{"verification":"` + v + `",` + strings.TrimPrefix(string(answer.Marshal(e)), "{")
}

const okPhase1 = answer.Phase1Header + "\nGo 1.0 shipped in 2012.\n\n" + answer.ConsentQuestion

func routingCase(label string) *dataset.Case {
	return &dataset.Case{ID: "r1", Dataset: "routing", Kind: dataset.KindRouting, Label: label, Query: "q"}
}

func consentCase(label, reply string) *dataset.Case {
	return &dataset.Case{ID: "c1", Dataset: "consent", Kind: dataset.KindConsent, Label: label, Reply: reply}
}

func flowCase(expects ...dataset.Expect) *dataset.Case {
	c := &dataset.Case{ID: "f1", Dataset: "flows", Kind: dataset.KindFlows}
	for _, e := range expects {
		c.Turns = append(c.Turns, dataset.Turn{User: "u", Expect: e})
	}
	return c
}

func call(round int, tool, status string) trace.ToolCall {
	tc := trace.ToolCall{Round: round, Tool: tool, Query: "q", Status: status, Sent: 5, Results: 5, Attempts: 1}
	if status != trace.CallOK && status != trace.CallError {
		tc.Sent, tc.Results, tc.Attempts = 0, 0, 0
	}
	return tc
}

// p2 is a model-mode Phase 2 turn whose raw and final outputs are msg.
func p2(msg string, calls ...trace.ToolCall) trace.Turn {
	return trace.Turn{Phase: trace.Phase2, Mode: trace.ModeModel, ToolsOffered: []string{trace.ToolTavily, trace.ToolExa},
		Route: trace.RouteOf(calls), ToolCalls: calls, RawOutput: msg, Output: msg,
		ModelCalls: []trace.ModelCall{{Round: 0, Attempts: 1, Usage: trace.Usage{PromptTokens: 100, CompletionTokens: 20, TotalTokens: 120}}}}
}

func p1() trace.Turn {
	return trace.Turn{Phase: trace.Phase1, Input: "when was go released", Output: okPhase1,
		ModelCalls: []trace.ModelCall{{Attempts: 1}}}
}

func session(ts ...trace.Turn) *trace.Session {
	for i := range ts {
		ts[i].Index = i
	}
	return &trace.Session{Variant: "seed", Mode: trace.ModeModel, Turns: ts}
}

func ptr[T any](v T) *T { return &v }

// checkByName returns the check named name, or nil.
func checkByName(r Result, name string) *Check {
	for i := range r.Checks {
		if r.Checks[i].Name == name {
			return &r.Checks[i]
		}
	}
	return nil
}

type flowExpect = dataset.Expect
