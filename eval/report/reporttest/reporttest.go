// Package reporttest builds small, realistic runs for tests of the report
// writers, the gate, compare and merge: hand-built traces scored by the
// real scorers, so the records have the shape a real run gives them.
package reporttest

import (
	"bytes"
	"strings"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/orchestrator/answer"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// Meta returns the meta of a whole run of variant in model mode over the
// routing and consent datasets.
func Meta(variant string) report.Meta {
	return report.Meta{
		SchemaVersion: report.SchemaVersion, Tool: report.Tool, Variant: variant, Mode: trace.ModeModel,
		Datasets: []report.DatasetInfo{
			{Name: "routing", Path: "datasets/routing.yaml", Kind: dataset.KindRouting, Cases: 6, SHA256: strings.Repeat("a", 64)},
			{Name: "consent", Path: "datasets/consent.yaml", Kind: dataset.KindConsent, Cases: 4, SHA256: strings.Repeat("b", 64)},
		},
		Cassettes: "cassettes/" + variant,
	}
}

var (
	sources = []answer.Source{
		{ID: "s1", Domain: "go.dev", Title: "Go release history", URL: "https://go.dev/doc/devel/release"},
		{ID: "s2", Domain: "wikipedia.org", Title: "Go (programming language)", URL: "https://en.wikipedia.org/wiki/Go_(programming_language)"},
	}
	bullets = []answer.Bullet{
		{Text: "Go 1.0 was released in March 2012.", SourceIDs: []string{"s1", "s2"}},
		{Text: "Generics arrived in Go 1.18.", SourceIDs: []string{"s1", "s2"}},
		{Text: "A new minor release ships about every six months.", SourceIDs: []string{"s1"}},
	}
)

// OKMessage is a valid Phase 2 message for a system-requested search.
func OKMessage() string {
	return answer.FormatPhase2(answer.VerificationSkipped, answer.Success(bullets, sources))
}

// DriftMessage is OKMessage with a trailing space after the first bullet.
func DriftMessage() string {
	return strings.Replace(OKMessage(), "March 2012.\n", "March 2012. \n", 1)
}

func score1(seq int, c *dataset.Case, s *trace.Session, runErr error) *report.CaseRecord {
	in := &score.Input{Case: c, Session: s}
	var results []score.Result
	for _, sc := range score.All() {
		if r, ok := sc.Score(in); ok {
			results = append(results, r)
		}
	}
	return report.NewCaseRecord(seq, in, results, runErr)
}

// Routing returns a scored routing case labelled label whose Phase 2 turn
// called tools in order (one per round) and printed msg.
func Routing(seq int, id, label, msg string, tools ...string) *report.CaseRecord {
	c := &dataset.Case{ID: id, Dataset: "routing", Kind: dataset.KindRouting, Label: label, Query: "query " + id}
	var calls []trace.ToolCall
	var latency float64
	for i, tool := range tools {
		calls = append(calls, trace.ToolCall{Round: i, ID: "call_" + id, Tool: tool, Query: "q", Requested: 5, Sent: 5,
			Results: 3, Status: trace.CallOK, Attempts: 1, LatencyMS: 412.5})
		latency += 412.5
	}
	t := trace.Turn{Input: "query " + id, Phase: trace.Phase2, Query: "query " + id, Phase1Skipped: true, Mode: trace.ModeModel,
		ToolsOffered: []string{trace.ToolTavily, trace.ToolExa}, Route: trace.RouteOf(calls), ToolCalls: calls,
		ModelCalls: []trace.ModelCall{
			{Round: 0, Attempts: 1, Usage: trace.Usage{PromptTokens: 900, CompletionTokens: 60, TotalTokens: 960}, LatencyMS: 800},
			{Round: 1, Attempts: 1, Usage: trace.Usage{PromptTokens: 1500, CompletionTokens: 240, TotalTokens: 1740}, LatencyMS: 1300.25},
		},
		RawOutput: msg, Output: msg,
		Usage:   trace.Usage{PromptTokens: 2400, CompletionTokens: 300, TotalTokens: 2700},
		Latency: trace.Latency{ModelMS: 2100.25, SearchMS: latency}}
	return score1(seq, c, &trace.Session{Variant: "seed", Mode: trace.ModeModel, Turns: []trace.Turn{t}}, nil)
}

// Consent returns a scored consent case: reply labelled label, classified
// got by rule.
func Consent(seq int, id, label, reply, got, rule string) *report.CaseRecord {
	c := &dataset.Case{ID: id, Dataset: "consent", Kind: dataset.KindConsent, Label: label, Reply: reply}
	t := trace.Turn{Input: reply, AwaitingConsent: true, Intent: got, IntentRule: rule, Phase: trace.Phase2}
	if got == "NO" {
		t.Phase = trace.Decline
	}
	return score1(seq, c, &trace.Session{Turns: []trace.Turn{t}}, nil)
}

// Errored returns a routing case whose turn failed with msg.
func Errored(seq int, id, label, msg string) *report.CaseRecord {
	c := &dataset.Case{ID: id, Dataset: "routing", Kind: dataset.KindRouting, Label: label, Query: "query " + id}
	t := trace.Turn{Input: "query " + id, Phase: trace.Phase2, Phase1Skipped: true, Mode: trace.ModeModel, Error: msg}
	return score1(seq, c, &trace.Session{Turns: []trace.Turn{t}}, nil)
}

// Run returns a small fixed run of variant "seed": routing cases that pass,
// misroute, call Tavily before Exa, drift from render_markdown and fail to
// run; consent cases right and wrong.
func Run() (report.Meta, []*report.CaseRecord) {
	ok := OKMessage()
	exa, tav := trace.ToolExa, trace.ToolTavily
	return Meta("seed"), []*report.CaseRecord{
		Routing(0, "ceo-microsoft", "tavily_only", ok, tav),
		Routing(1, "alignment-themes", "exa_only", ok, tav),
		Routing(2, "alignment-since-2018", "tavily_plus_exa", ok, exa, tav),
		Routing(3, "eu-ai-act-timeline", "tavily_plus_exa", ok, tav, exa),
		Routing(4, "iphone-year", "tavily_only", DriftMessage(), tav),
		Errored(5, "ubi-arguments", "exa_only", "cassette miss: POST https://api.cerebras.ai/v1/chat/completions (body hash 3f2a…)"),
		Consent(6, "yes-please", "YES", "yes please", "YES", "yes.phrase"),
		Consent(7, "yes-but", "YES", "yes but <no> sources & stuff", "NO", "no.but-clause"),
		Consent(8, "no-thanks", "NO", "no thanks", "NO", "no.phrase"),
		Consent(9, "confirm", "SEARCH_NOW", "can you confirm that?", "SEARCH_NOW", "search-now.confirm"),
	}
}

// Summary aggregates recs with every scorer.
func Summary(recs []*report.CaseRecord) report.Summary {
	a := report.NewAggregate(score.All())
	for _, r := range recs {
		a.Add(r)
	}
	return a.Summary()
}

// JSON returns the JSON report of meta and recs, with the summary computed
// from recs.
func JSON(meta report.Meta, recs []*report.CaseRecord) []byte {
	var buf bytes.Buffer
	if err := report.Write(report.NewJSON(&buf), &report.Report{Meta: meta, Cases: recs, Summary: Summary(recs)}); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// Sampled makes first a case with several samples: each record of more,
// built like first for the same case, becomes its next sample.
func Sampled(first *report.CaseRecord, more ...*report.CaseRecord) *report.CaseRecord {
	var ss []report.SampleRecord
	for i, m := range more {
		ss = append(ss, report.SampleRecord{Sample: i + 2, Pass: m.Pass, Error: m.Error, Scores: m.Scores, Turns: m.Turns, Trace: m.Trace})
	}
	first.SetSamples(ss)
	return first
}

// RoutingSamples returns an exa_only routing case with one sample per
// entry of right: true routes it to Exa (right), false to Tavily.
func RoutingSamples(seq int, id string, right ...bool) *report.CaseRecord {
	var recs []*report.CaseRecord
	for _, r := range right {
		tool := trace.ToolTavily
		if r {
			tool = trace.ToolExa
		}
		recs = append(recs, Routing(seq, id, "exa_only", OKMessage(), tool))
	}
	return Sampled(recs[0], recs[1:]...)
}
