package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/report/reporttest"
	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// Provenance names the simulator and its policy, or the live model and
// the host of the chat service it answered from (base URLs are kept as
// "service=URL"), and no date: the report keeps none.
func TestProvenance(t *testing.T) {
	live := report.Meta{Backend: "live", Models: []string{"gpt-oss-120b"},
		BaseURLs: []string{"chat=https://api.cerebras.ai/v1", "exa=https://api.exa.ai", "tavily=https://api.tavily.com"}}
	tests := []struct {
		name string
		meta report.Meta
		want string
	}{
		{"none", report.Meta{}, ""},
		{"sim", report.Meta{Backend: "sim", SimPolicies: []string{"seed"}}, "simulator, policy seed"},
		{"sim, no policy", report.Meta{Backend: "sim"}, "simulator"},
		{"live", live, "live: gpt-oss-120b via api.cerebras.ai"},
		{"live, self-hosted", report.Meta{Backend: "live", Models: []string{"acme/llama"},
			BaseURLs: []string{"chat=http://127.0.0.1:8000/v1", "exa=https://api.exa.ai", "tavily=https://api.tavily.com"}},
			"live: acme/llama via 127.0.0.1:8000"},
		{"live, bare URLs", report.Meta{Backend: "live", Models: []string{"m"}, BaseURLs: []string{"https://gw.example/v1"}},
			"live: m via gw.example"},
		{"live, no base URLs", report.Meta{Backend: "live", Models: []string{"m"}}, "live: m"},
		{"mix", report.Meta{Backend: "live+sim", SimPolicies: []string{"seed"}, Models: live.Models, BaseURLs: live.BaseURLs},
			"live: gpt-oss-120b via api.cerebras.ai and simulator, policy seed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := report.Provenance(tt.meta); got != tt.want {
				t.Errorf("Provenance = %q, want %q", got, tt.want)
			}
		})
	}
	// The run's first line opens with it.
	meta, recs := reporttest.Run()
	meta.Backend, meta.Models, meta.BaseURLs = live.Backend, live.Models, live.BaseURLs
	var buf bytes.Buffer
	if err := report.Write(report.NewTerminal(&buf, report.TextOptions{}), &report.Report{Meta: meta, Cases: recs, Summary: reporttest.Summary(recs)}); err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(buf.String(), "\n"); !strings.HasPrefix(first, "searchbench: live: gpt-oss-120b via api.cerebras.ai: 10 cases:") {
		t.Errorf("first line %q", first)
	}
}

// The failing cases tagged known-failure, which the simulator fails on
// purpose, are counted apart from the model's other failures and the
// app's own rules.
func TestFailedSplitKnownFailures(t *testing.T) {
	tag := func(r *report.CaseRecord) *report.CaseRecord {
		r.Tags = append(r.Tags, score.KnownFailureTag)
		return r
	}
	ok, tav := reporttest.OKMessage(), trace.ToolTavily
	recs := []*report.CaseRecord{
		tag(reporttest.Routing(0, "scripted-a", "exa_only", ok, tav)),
		tag(reporttest.Routing(1, "scripted-b", "exa_only", ok, tav)),
		reporttest.Routing(2, "misrouted", "exa_only", ok, tav),
		reporttest.Consent(3, "yes-but", "YES", "yes but", "NO", "no.but-clause"),
		tag(reporttest.Routing(4, "scripted-pass", "tavily_only", ok, tav)),
	}
	for _, tt := range []struct {
		name string
		meta func(*report.Meta)
		want string
	}{
		{"sim", func(m *report.Meta) { m.Backend, m.SimPolicies = "sim", []string{"seed"} },
			"Failing cases: 2 scripted to fail on purpose (tagged known-failure), 1 by the simulated model's other behaviour (policy seed), 1 by the app's own rules"},
		{"live", func(m *report.Meta) { m.Backend = "live" },
			"Failing cases: 2 tagged known-failure, 1 by the model's other behaviour, 1 by the app's own rules"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			meta := reporttest.Meta("seed")
			tt.meta(&meta)
			var buf bytes.Buffer
			if err := report.Write(report.NewTerminal(&buf, report.TextOptions{Width: -1}), &report.Report{Meta: meta, Cases: recs, Summary: reporttest.Summary(recs)}); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(buf.String(), tt.want+"\n") {
				t.Errorf("no line %q in\n%s", tt.want, buf.String())
			}
		})
	}
}
