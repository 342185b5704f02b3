package run_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/searchbench/searchbench/internal/cmd/root"
	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/internal/demo"
	"github.com/searchbench/searchbench/lib/golden"
	"github.com/searchbench/searchbench/lib/testenv"
)

// artifactsEnv names a folder where the browser test leaves its
// screenshots (CI uploads it); without it they go to a temporary folder.
const artifactsEnv = "SEARCHBENCH_ARTIFACTS"

// TestReportInBrowser replays the shipped datasets, opens the report.html
// the run wrote in headless Chromium and uses it as a reader would: the
// page loads with no console error, the failing-cases filter lists only
// failing cases, a failing case with a byte diff opens on its checks, its
// diff and its trace (model requests, search calls); at 1280 px nothing of
// the overview overlaps, at 420 px nothing scrolls sideways and ids wrap
// only at separators; a sampled case shows how many samples passed ("6/10")
// and every sample; the page declares a strict Content-Security-Policy; a
// planted javascript: address is not a link. It saves screenshots of the
// overview and of those cases; with -update it also refreshes the README's
// copies under docs/screenshots/.
func TestReportInBrowser(t *testing.T) {
	// Debian's package installs chromium; other systems name it
	// otherwise, and SEARCHBENCH_CHROMIUM may point at any build.
	chromium := testenv.Tool(t, "SEARCHBENCH_CHROMIUM", "chromium", "chromium", "chromium-browser", "google-chrome")
	testenv.Slow(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	repo := demo.Tree(t)
	code, stdout, stderr := sb(t, dir, "run", "--datasets", filepath.Join(repo, "datasets"),
		"--cassettes", filepath.Join(repo, "cassettes"), "--out", out)
	if code != 0 {
		t.Fatalf("run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	// The page's headline is the terminal summary's.
	var termHeadline string
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, "Pass rates below 100%") || l == "Headline" {
			termHeadline = l
		}
	}
	page := filepath.Join(out, "report.html")
	bctx, problems := browser(t, chromium)

	artifacts := os.Getenv(artifactsEnv)
	if artifacts == "" {
		artifacts = filepath.Join(dir, "artifacts")
	}
	if err := os.MkdirAll(artifacts, 0o755); err != nil {
		t.Fatal(err)
	}
	var overview, failingCase []byte
	var verdict, count, pageHeadline string
	var rows, failingRows int
	if err := chromedp.Run(bctx,
		chromedp.Navigate("file://"+page),
		chromedp.WaitVisible("#verdict", chromedp.ByID),
		chromedp.Text("#verdict", &verdict, chromedp.ByID),
		chromedp.Text("#headline", &pageHeadline, chromedp.ByID),
		chromedp.WaitVisible("table.heat", chromedp.ByQuery),
		chromedp.CaptureScreenshot(&overview),
		chromedp.Click("#browse-failing", chromedp.ByID),
		chromedp.WaitVisible("tr.case-row", chromedp.ByQuery),
		chromedp.Text("#count", &count, chromedp.ByID),
		chromedp.Evaluate(`document.querySelectorAll("tr.case-row").length`, &rows),
		chromedp.Evaluate(`[...document.querySelectorAll("tr.case-row")].filter(r => r.querySelector(".badge.fail, .badge.error")).length`, &failingRows),
	); err != nil {
		t.Fatalf("overview and case list: %v (page problems: %v)", err, problems())
	}
	if termHeadline == "" || pageHeadline != termHeadline {
		t.Errorf("the page's headline is %q, the terminal's %q", pageHeadline, termHeadline)
	}
	if !strings.Contains(verdict, "cases:") {
		t.Errorf("verdict banner = %q, want the case counts", verdict)
	}
	if rows == 0 || rows != failingRows {
		t.Errorf("failing filter shows %d rows, %d of them failing (%q)", rows, failingRows, count)
	}

	// A failing case whose check has a byte diff: find it in the page's
	// own data, search for it, and open it from the list.
	var key string
	if err := chromedp.Run(bctx, chromedp.Evaluate(`(() => {
		const d = JSON.parse(document.getElementById("data").textContent);
		const c = d.runs[0].cases.find(c => !c.pass && c.checks.some(k => !k.p && k.d && k.d.includes("‹U+")));
		return c ? c.key : "";
	})()`, &key)); err != nil {
		t.Fatal(err)
	}
	if key == "" {
		t.Fatal("the shipped run has no failing case with a diff showing an invisible character (flows/phase1-straight-apostrophe has one)")
	}
	var title, diff, evidence string
	var requests, searches int
	if err := chromedp.Run(bctx,
		chromedp.SendKeys("#f-q", key, chromedp.ByID),
		chromedp.WaitVisible(fmt.Sprintf(`a[href="#case/%s"]`, strings.ReplaceAll(key, "/", "%2F")), chromedp.ByQuery),
		chromedp.Click(fmt.Sprintf(`a[href="#case/%s"]`, strings.ReplaceAll(key, "/", "%2F")), chromedp.ByQuery),
		chromedp.WaitVisible("#case-title", chromedp.ByID),
		chromedp.Text("#case-title", &title, chromedp.ByID),
		chromedp.WaitVisible("pre.diff", chromedp.ByQuery),
		chromedp.Text("pre.diff", &diff, chromedp.ByQuery),
		chromedp.WaitVisible(".evidence", chromedp.ByQuery),
		chromedp.Text(".evidence", &evidence, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll(".evidence .req").length`, &requests),
		chromedp.Evaluate(`document.querySelectorAll(".evidence .search").length`, &searches),
		chromedp.FullScreenshot(&failingCase, 100),
	); err != nil {
		t.Fatalf("case page of %s: %v (page problems: %v)", key, err, problems())
	}
	if title != key {
		t.Errorf("case page title = %q, want %q", title, key)
	}
	if !strings.Contains(diff, "‹U+") || !strings.Contains(diff, "\n+") && !strings.HasPrefix(diff, "+") {
		t.Errorf("diff of %s does not show the invisible character and both sides:\n%s", key, diff)
	}
	if requests == 0 || !strings.Contains(evidence, "user> ") {
		t.Errorf("case page of %s shows %d model requests; evidence:\n%s", key, requests, evidence)
	}
	t.Logf("%s: %d model requests, %d search calls shown", key, requests, searches)

	// Every kind of case renders its evidence: a routing case its search
	// calls and their results, a parser case the message it parsed.
	for _, k := range []struct{ kind, want string }{
		{"routing", ".evidence .search .results li"},
		{"flows", ".evidence .turn"},
		{"consent", ".evidence .turn"},
		{"parser", ".evidence pre"},
	} {
		var first string
		if err := chromedp.Run(bctx,
			chromedp.Evaluate(fmt.Sprintf(`(() => {
				const d = JSON.parse(document.getElementById("data").textContent);
				const c = d.runs[0].cases.find(c => c.kind === %q);
				if (c) location.hash = "#case/" + encodeURIComponent(c.key);
				return c ? c.key : "";
			})()`, k.kind), &first),
		); err != nil || first == "" {
			t.Fatalf("no %s case to open (%v)", k.kind, err)
		}
		// The hash change renders asynchronously: wait for this case's
		// page, with its trace drawn.
		var shown bool
		if err := chromedp.Run(bctx, chromedp.Poll(fmt.Sprintf(`(() => {
			const t = document.getElementById("case-title");
			return !!t && t.textContent === %q && !!document.querySelector(%q);
		})()`, first, k.want), &shown)); err != nil || !shown {
			t.Fatalf("%s case %s: its page with %s never showed: %v (page problems: %v)", k.kind, first, k.want, err, problems())
		}
	}

	// The dataset filter narrows the list to that dataset.
	var parserRows, parserTotal int
	if err := chromedp.Run(bctx,
		chromedp.Evaluate(`location.hash = "#cases"`, nil),
		chromedp.Poll(`!!document.getElementById("f-dataset")`, nil),
		chromedp.Evaluate(`(() => { const s = document.getElementById("f-dataset"); s.value = "parser"; s.dispatchEvent(new Event("change")); })()`, nil),
		chromedp.Evaluate(`[...document.querySelectorAll("tr.case-row a")].filter(a => a.textContent.startsWith("parser/")).length`, &parserRows),
		chromedp.Evaluate(`document.querySelectorAll("tr.case-row").length`, &parserTotal),
	); err != nil {
		t.Fatalf("dataset filter: %v (page problems: %v)", err, problems())
	}
	if parserRows == 0 || parserRows != parserTotal {
		t.Errorf("dataset filter parser: %d rows, %d of them parser cases", parserTotal, parserRows)
	}

	// On a phone (420 px wide) neither the overview nor a failing case's
	// page scrolls sideways, and the failing check's reason is on screen.
	narrowShots := map[string][]byte{}
	wrapped := 0
	for _, pg := range []struct{ name, hash, ready string }{
		{"overview", "#", "table.heat"},
		{"case list", "#cases?failing=1", "tr.case-row"},
		{"failing case", "#case/" + strings.ReplaceAll(key, "/", "%2F"), "tr.check.fail td.reason"},
	} {
		var scrollW, clientW int
		var png []byte
		var breaks idBreaks
		if err := chromedp.Run(bctx,
			chromedp.EmulateViewport(narrowWidth, 900),
			chromedp.Evaluate(fmt.Sprintf(`location.hash = %q`, pg.hash), nil),
			chromedp.Poll(fmt.Sprintf(`!!document.querySelector(%q)`, pg.ready), nil),
			chromedp.Evaluate(`document.scrollingElement.scrollWidth`, &scrollW),
			chromedp.Evaluate(`document.scrollingElement.clientWidth`, &clientW),
			chromedp.Evaluate(idBreaksJS, &breaks),
			chromedp.CaptureScreenshot(&png),
		); err != nil {
			t.Fatalf("%s at %d px: %v (page problems: %v)", pg.name, narrowWidth, err, problems())
		}
		narrowShots["report-"+strings.ReplaceAll(pg.name, " ", "-")+"-420.png"] = png
		// A case id that wraps does so after a separator ("/", "-"),
		// never inside a word.
		if len(breaks.Bad) > 0 {
			t.Errorf("%s at %d px: case ids break inside a word: %s", pg.name, narrowWidth, strings.Join(breaks.Bad, "; "))
		}
		wrapped += breaks.Wrapped
		if scrollW > clientW {
			var wide string
			chromedp.Run(bctx, chromedp.Evaluate(widestElements, &wide))
			t.Errorf("%s at %d px scrolls sideways: %d px of content in %d; widest: %s", pg.name, narrowWidth, scrollW, clientW, wide)
		}
	}
	if wrapped == 0 {
		t.Errorf("at %d px no case id wrapped: the check of where ids break proves nothing", narrowWidth)
	}
	var reason struct {
		Left, Right, Width, Client float64
		Text                       string
	}
	if err := chromedp.Run(bctx, chromedp.Evaluate(`(() => {
		const e = document.querySelector("tr.check.fail td.reason"), r = e.getBoundingClientRect();
		return {left: r.left, right: r.right, width: r.width, client: document.documentElement.clientWidth, text: e.textContent};
	})()`, &reason)); err != nil {
		t.Fatal(err)
	}
	if reason.Text == "" || reason.Width == 0 || reason.Left < 0 || reason.Right > reason.Client {
		t.Errorf("at %d px the failing check's reason spans %.0f–%.0f px of a %.0f px window (%q)", narrowWidth, reason.Left, reason.Right, reason.Client, reason.Text)
	}
	if err := chromedp.Run(bctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatal(err)
	}
	checkOverview1280(t, bctx, page, problems)
	checkSampledCase(t, bctx, problems)
	for name, png := range narrowShots {
		if err := os.WriteFile(filepath.Join(artifacts, name), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	for name, png := range map[string][]byte{"report-overview.png": overview, "report-failing-case.png": failingCase} {
		if len(png) == 0 {
			t.Errorf("screenshot %s is empty", name)
			continue
		}
		p := filepath.Join(artifacts, name)
		if err := os.WriteFile(p, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot: %s", p)
		if *golden.Update {
			if err := os.WriteFile(filepath.Join("..", "..", "..", "docs", "screenshots", name), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if p := problems(); len(p) > 0 {
		t.Errorf("the page reported problems:\n%s", strings.Join(p, "\n"))
	}
	checkHostilePage(t, bctx, dir, problems)

	// compare --html: the two shipped variants side by side, the flipped
	// cases first; a flipped case opens in two columns.
	code, stdout, stderr = sb(t, dir, "run", "--quiet", "--variant", "routing-examples", "--datasets", filepath.Join(repo, "datasets"),
		"--cassettes", filepath.Join(repo, "cassettes"), "--out", filepath.Join(dir, "out-re"))
	if code != 0 {
		t.Fatalf("run routing-examples: exit %d\n%s\n%s", code, stdout, stderr)
	}
	cmpPage := filepath.Join(dir, "compare.html")
	cio, cout, cerr := cmdutil.Test("")
	if code := root.Main(context.Background(), []string{"compare", "--html", cmpPage, filepath.Join(out, "report.json"),
		filepath.Join(dir, "out-re", "report.json")}, cio); code != 0 {
		t.Fatalf("compare --html: exit %d\n%s\n%s", code, cout, cerr)
	}
	var firstRow, flipped string
	var columns, evidences int
	if err := chromedp.Run(bctx,
		chromedp.Navigate("file://"+cmpPage),
		chromedp.WaitVisible("#verdict", chromedp.ByID),
		chromedp.Text("#verdict", &flipped, chromedp.ByID),
		chromedp.Click(`#top a[href="#cases"]`, chromedp.ByQuery),
		chromedp.WaitVisible("tr.case-row", chromedp.ByQuery),
		chromedp.Text("tr.case-row", &firstRow, chromedp.ByQuery),
		chromedp.Click("tr.case-row a", chromedp.ByQuery),
		chromedp.WaitVisible(".cols", chromedp.ByQuery),
		chromedp.WaitVisible(".case-col .evidence", chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll(".cols > .case-col").length`, &columns),
		chromedp.Evaluate(`document.querySelectorAll(".cols .evidence").length`, &evidences),
	); err != nil {
		t.Fatalf("compare page: %v (page problems: %v)", err, problems())
	}
	// The shipped routing cassettes hold five samples: the page lists the
	// cases whose pass rate changed ("2/5 → 5/5") where one-sample runs
	// list flipped ones.
	if !strings.Contains(flipped, "cases whose pass rate changed") || strings.HasPrefix(flipped, "0 cases") {
		t.Errorf("compare page headline = %q, want the cases whose pass rate changed (the shipped variants differ)", flipped)
	}
	if !regexp.MustCompile(`\d/\d → \d/\d`).MatchString(firstRow) {
		t.Errorf("the compare page's first case is not one whose pass rate changed: %q", firstRow)
	}
	if columns != 2 || evidences != 2 {
		t.Errorf("a compared case shows %d columns and %d traces, want 2 and 2", columns, evidences)
	}
	if p := problems(); len(p) > 0 {
		t.Errorf("the compare page reported problems:\n%s", strings.Join(p, "\n"))
	}
}

// narrowWidth is a phone's viewport, in CSS pixels.
const narrowWidth = 420

// widestElements names the elements that stick out of the window, widest
// first: what makes a page scroll sideways.
const widestElements = `(() => {
	const w = document.documentElement.clientWidth, out = [];
	const clipped = e => { for (let p = e.parentElement; p; p = p.parentElement) if (getComputedStyle(p).overflowX !== "visible") return true; return false; };
	for (const e of document.querySelectorAll("body *")) {
		if (clipped(e)) continue; // scrolls inside its own box
		const r = e.getBoundingClientRect();
		if (r.right > w + 1) out.push([Math.round(r.right), e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.className ? "." + String(e.className).replace(/ /g, ".") : "")]);
	}
	out.sort((a, b) => b[0] - a[0]);
	return out.slice(0, 8).map(x => x[1] + " (" + x[0] + " px)").join(", ");
})()`

// browser starts headless Chromium with a fresh profile and
// returns its context and a function listing the exceptions, console
// errors and warnings, and log errors its pages reported so far.
func browser(t *testing.T, chromium string) (context.Context, func() []string) {
	t.Helper()
	// The profile is not under t.TempDir: Chromium's helper processes can
	// still be writing to it when the browser has exited, which would fail
	// the test's own cleanup. It is removed here, retrying while they finish.
	profile, err := os.MkdirTemp("", "searchbench-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for range 50 {
			if err = os.RemoveAll(profile); err == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Logf("leaving the Chromium profile %s: %v", profile, err)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	actx, cancelA := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(chromium),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1280, 900),
	)
	t.Cleanup(cancelA)
	bctx, cancelB := chromedp.NewContext(actx)
	t.Cleanup(cancelB)
	var mu sync.Mutex
	var problems []string
	chromedp.ListenTarget(bctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			problems = append(problems, "exception: "+ev.ExceptionDetails.Error())
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.APITypeError || ev.Type == runtime.APITypeWarning {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				problems = append(problems, fmt.Sprintf("console.%s: %s", ev.Type, strings.Join(args, " ")))
			}
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.LevelError {
				problems = append(problems, fmt.Sprintf("log (%s): %s %s", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL))
			}
		}
	})
	if err := chromedp.Run(bctx, log.Enable()); err != nil {
		t.Fatalf("starting %s: %v", chromium, err)
	}
	return bctx, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), problems...)
	}
}
