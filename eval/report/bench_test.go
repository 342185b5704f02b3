package report_test

import (
	"fmt"
	"io"
	"runtime"
	"testing"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/report/reporttest"
	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// BenchmarkRun10k scores 10,000 routing cases and streams them through
// every writer, as a large run does; it reports the peak live heap.
func BenchmarkRun10k(b *testing.B) {
	msg, drift := reporttest.OKMessage(), reporttest.DriftMessage()
	for b.Loop() {
		agg := report.NewAggregate(score.All())
		page, err := report.NewHTML(io.Discard, report.HTMLOptions{})
		if err != nil {
			b.Fatal(err)
		}
		w := report.Multi(report.NewJSON(io.Discard), report.NewTerminal(io.Discard, report.TextOptions{}),
			report.NewMarkdown(io.Discard, report.TextOptions{}), report.NewJUnit(io.Discard), page, report.NewTraces(io.Discard, nil))
		meta := reporttest.Meta("seed")
		if err := w.Begin(meta); err != nil {
			b.Fatal(err)
		}
		var peak uint64
		for i := range 10000 {
			m := msg
			if i%7 == 0 {
				m = drift
			}
			rec := reporttest.Routing(i, fmt.Sprintf("q%05d", i), "tavily_plus_exa", m, trace.ToolExa, trace.ToolTavily)
			agg.Add(rec)
			if err := w.Case(rec); err != nil {
				b.Fatal(err)
			}
			if i%1000 == 999 {
				var ms runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapAlloc)
			}
		}
		if err := w.End(agg.Summary()); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	}
}
