package run_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/report/reporttest"
	"github.com/searchbench/searchbench/lib/golden"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// idBreaks is what idBreaksJS finds: the case ids that wrap inside a word,
// and how many ids wrap at all.
type idBreaks struct {
	Bad     []string `json:"bad"`
	Wrapped int      `json:"wrapped"`
}

// idBreaksJS walks the case ids on screen (the case title, links to cases)
// character by character and reports every line break that does not follow
// a separator.
const idBreaksJS = `(() => {
	const out = {bad: [], wrapped: 0};
	const els = [...document.querySelectorAll("#case-title, a[href^='#case/']")].slice(0, 80);
	for (const e of els) {
		const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
		let prevTop = null, prev = "", wrapped = false;
		for (let n; (n = walker.nextNode());) {
			for (let i = 0; i < n.length; i++) {
				const r = document.createRange();
				r.setStart(n, i); r.setEnd(n, i + 1);
				const rs = r.getClientRects();
				if (!rs.length) continue;
				const top = Math.round(rs[0].top);
				if (prevTop !== null && top > prevTop + 2) {
					wrapped = true;
					if (!/[\/\-_.:]/.test(prev)) out.bad.push(JSON.stringify(e.textContent) + " after " + JSON.stringify(prev));
				}
				prevTop = top; prev = n.data[i];
			}
		}
		if (wrapped) out.wrapped++;
	}
	out.bad = out.bad.slice(0, 8);
	return out;
})()`

// checkOverview1280 checks the overview at 1280 px: nothing of the
// headline table (its n column included) lies under the tables beside it,
// and the page declares a strict Content-Security-Policy, under which its
// script ran.
func checkOverview1280(t *testing.T, bctx context.Context, page string, problems func() []string) {
	t.Helper()
	var overlaps []string
	var csp string
	var width int
	if err := chromedp.Run(bctx,
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate("file://"+page+"#"),
		chromedp.WaitVisible("table.heat", chromedp.ByQuery),
		chromedp.Evaluate(`document.documentElement.clientWidth`, &width),
		chromedp.Evaluate(`(() => {
			const cols = [...document.querySelectorAll(".glance > div")];
			if (cols.length !== 2) return ["the overview has " + cols.length + " columns at a glance, want 2"];
			const name = e => e.tagName.toLowerCase() + (e.className ? "." + e.className : "") + " " + JSON.stringify(e.textContent.slice(0, 30));
			const boxes = cols.map(c => [...c.querySelectorAll("table, th, td, p, h2")].map(e => [e, e.getBoundingClientRect()]));
			const out = [];
			for (const [a, ra] of boxes[0]) for (const [b, rb] of boxes[1]) {
				if (ra.width && rb.width && ra.left < rb.right - 1 && rb.left < ra.right - 1 && ra.top < rb.bottom - 1 && rb.top < ra.bottom - 1)
					out.push(name(a) + " under " + name(b));
			}
			// Every cell lies inside its own column.
			cols.forEach((c, i) => {
				const box = c.getBoundingClientRect();
				for (const [e, r] of boxes[i]) if (r.right > box.right + 1) out.push(name(e) + " sticks out of its column");
			});
			return out.slice(0, 8);
		})()`, &overlaps),
		chromedp.Evaluate(`(document.querySelector('meta[http-equiv="Content-Security-Policy"]') || {}).content || ""`, &csp),
	); err != nil {
		t.Fatalf("overview at 1280 px: %v (page problems: %v)", err, problems())
	}
	if width < 1200 {
		t.Fatalf("the window is %d px wide, want about 1280", width)
	}
	if len(overlaps) > 0 {
		t.Errorf("at 1280 px the overview overlaps itself: %s", strings.Join(overlaps, "; "))
	}
	if !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "script-src 'sha256-") || strings.Contains(csp, "unsafe") {
		t.Errorf("Content-Security-Policy = %q, want default-src 'none' and the script by its hash", csp)
	}
}

// checkSampledCase opens a case of several samples that failed sample 1
// and passed some others: the case list shows how many passed ("6/10"),
// and its page shows every sample with its verdict, checks and trace.
func checkSampledCase(t *testing.T, bctx context.Context, problems func() []string) {
	t.Helper()
	var c struct {
		Key     string `json:"key"`
		N       int    `json:"n"`
		Passed  int    `json:"passed"`
		Samples []bool `json:"samples"`
	}
	if err := chromedp.Run(bctx, chromedp.Evaluate(`(() => {
		const d = JSON.parse(document.getElementById("data").textContent);
		const ok = s => s.pass && !s.error;
		const c = d.runs[0].cases.find(c => (c.samples || []).length > 0 && !c.pass && !c.error && c.samples.some(ok));
		return c ? {key: c.key, n: c.samples.length + 1, passed: c.samples.filter(ok).length} : {};
	})()`, &c)); err != nil {
		t.Fatal(err)
	}
	if c.Key == "" {
		t.Fatal("the shipped run has no sampled case that failed sample 1 and passed another (routing/t-transformer-paper-date did)")
	}
	key, n, badge := c.Key, c.N, fmt.Sprintf("%d/%d", c.Passed, c.N)
	var rowBadge string
	var samples, evidences, badges, failedChecks int
	var shot []byte
	if err := chromedp.Run(bctx,
		chromedp.Evaluate(fmt.Sprintf(`location.hash = "#cases?q=" + encodeURIComponent(%q)`, key), nil),
		chromedp.Poll(fmt.Sprintf(`document.querySelectorAll("tr.case-row").length === 1 && document.querySelector("tr.case-row a").textContent === %q`, key), nil),
		chromedp.Text("tr.case-row .badge", &rowBadge, chromedp.ByQuery),
		chromedp.Click("tr.case-row a", chromedp.ByQuery),
		chromedp.Poll(fmt.Sprintf(`document.querySelectorAll("details.sample .evidence").length === %d`, n), nil),
		chromedp.Evaluate(`document.querySelectorAll("details.sample").length`, &samples),
		chromedp.Evaluate(`document.querySelectorAll("details.sample .evidence .turn").length`, &evidences),
		chromedp.Evaluate(`document.querySelectorAll("details.sample > summary .badge").length`, &badges),
		chromedp.Evaluate(`document.querySelectorAll("details.sample[open] tr.check.fail").length`, &failedChecks),
		chromedp.CaptureScreenshot(&shot),
	); err != nil {
		t.Fatalf("sampled case %s: %v (page problems: %v)", key, err, problems())
	}
	if rowBadge != badge {
		t.Errorf("the case list's badge of %s is %q, want %s", key, rowBadge, badge)
	}
	if samples != n || evidences < n || badges != n {
		t.Errorf("the page of %s shows %d samples, %d turns of traces and %d verdicts, want %d of each", key, samples, evidences, badges, n)
	}
	if failedChecks == 0 {
		t.Errorf("the page of %s does not show its failing sample's failed check, open", key)
	}
	saveShot(t, "report-sampled-case.png", shot)
}

// checkHostilePage renders a run whose search results carry javascript:
// and data: addresses, beside a sampled case with no flaky sample: the
// overview draws with no error, and only the https address is a link.
func checkHostilePage(t *testing.T, bctx context.Context, dir string, problems func() []string) {
	t.Helper()
	hostile := reporttest.Routing(1, "hostile-links", "tavily_only", reporttest.OKMessage(), trace.ToolTavily)
	call := &hostile.Trace.Session.Turns[0].ToolCalls[0]
	call.Retrieved = []trace.Retrieved{
		{URL: "javascript:document.title='pwned'", Title: "javascript link"},
		{URL: "data:text/html,<script>document.title='pwned'</script>", Title: "data link"},
		{URL: "https://example.org/fine", Title: "https link"},
	}
	recs := []*report.CaseRecord{reporttest.RoutingSamples(0, "steady", true, true, true, true, true), hostile}
	var tr bytes.Buffer
	tw := report.NewTraces(&tr, nil)
	for _, r := range recs {
		if err := tw.Case(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := report.NewHTML(&buf, report.HTMLOptions{Name: "hostile/report.json", Traces: report.Bytes(report.TracesName, tr.Bytes())})
	if err != nil {
		t.Fatal(err)
	}
	if err := report.Write(w, &report.Report{Meta: reporttest.Meta("seed"), Cases: recs, Summary: reporttest.Summary(recs)}); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "hostile.html")
	if err := os.WriteFile(page, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	before := len(problems())
	var flaky string
	var scriptLinks, httpsLinks, plain int
	var title string
	if err := chromedp.Run(bctx,
		chromedp.Navigate("file://"+page),
		chromedp.WaitVisible("#verdict", chromedp.ByID),
		chromedp.Evaluate(`[...document.querySelectorAll("h2")].map(h => h.textContent).find(t => t.startsWith("Flaky")) || ""`, &flaky),
		chromedp.Evaluate(`location.hash = "#case/routing%2Fhostile-links"`, nil),
		chromedp.Poll(`document.querySelectorAll(".evidence .results li").length === 3`, nil),
		chromedp.Evaluate(`document.querySelectorAll('a[href^="javascript:" i], a[href^="data:" i]').length`, &scriptLinks),
		chromedp.Evaluate(`document.querySelectorAll('.results a[href="https://example.org/fine"]').length`, &httpsLinks),
		chromedp.Evaluate(`document.querySelectorAll(".results .nolink").length`, &plain),
		chromedp.Evaluate(`document.title`, &title),
	); err != nil {
		t.Fatalf("hostile page: %v (page problems: %v)", err, problems())
	}
	if p := problems()[before:]; len(p) > 0 {
		t.Errorf("a sampled run with no flaky case and hostile addresses: the page reported\n%s", strings.Join(p, "\n"))
	}
	if !strings.HasPrefix(flaky, "Flaky cases (0)") {
		t.Errorf("the hostile page's flaky table is %q, want the one with no flaky case", flaky)
	}
	if scriptLinks != 0 || httpsLinks != 1 || plain != 2 {
		t.Errorf("links: %d javascript:/data: links, %d https links, %d addresses shown as text; want 0, 1, 2", scriptLinks, httpsLinks, plain)
	}
	if strings.Contains(title, "pwned") {
		t.Errorf("a planted address ran: title %q", title)
	}
}

// saveShot leaves a screenshot with the test's artifacts and, with
// -update, in docs/screenshots.
func saveShot(t *testing.T, name string, png []byte) {
	t.Helper()
	if len(png) == 0 {
		t.Errorf("screenshot %s is empty", name)
		return
	}
	dir := os.Getenv(artifactsEnv)
	if dir == "" {
		dir = t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
	if *golden.Update {
		if err := os.WriteFile(filepath.Join("..", "..", "..", "docs", "screenshots", name), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
