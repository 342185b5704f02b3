package report

import (
	"fmt"
	"io"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/lib/visible"
)

// DefaultMaxFailures is how many failing checks the text reports show.
const DefaultMaxFailures = 25

// DefaultWidth is the width the terminal summary fits by default.
const DefaultWidth = 100

// TextOptions configure the terminal and Markdown reports.
type TextOptions struct {
	// MaxFailures bounds the failing checks kept in memory and shown;
	// 0 means DefaultMaxFailures, a negative value none.
	MaxFailures int
	// JSONPath is where the complete report is, named when failures are
	// left out ("" says "the JSON report").
	JSONPath string
	// HTMLPath is the run's report.html, which the terminal summary points
	// to ("" when none is written).
	HTMLPath string
	// Verbose prints the full terminal report: every metric, every table,
	// the failing checks one by one and their diffs. Without it the
	// terminal gets a summary: verdict and counts, the headline metrics,
	// the failing checks grouped by check, and where the rest is.
	Verbose bool
	// Width is the width the summary fits, long cells cut with "…"
	// (0: DefaultWidth; negative: no limit, as --wide).
	Width int
	// Color marks the verdict and counts with ANSI colours (a terminal
	// that wants them; never in files).
	Color bool
	// VerboseHint is the command that prints the full tables, named by
	// the summary's last lines ("" leaves the line out).
	VerboseHint string
}

// errorCheck is the check name under which a case's error is listed.
const errorCheck = "(error)"

// shorten cuts s to at most n runes, marking the cut.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// Failure is one failing check of a case (or a case's error) as the text
// reports list it.
type Failure struct {
	Case, Check, Expected, Got, Reason, Diff string
}

// Failures lists rec's error and failing checks, in result order.
func Failures(rec *CaseRecord) []Failure {
	var out []Failure
	if rec.Error != "" {
		// The table gets the first line; the whole error (a cassette miss
		// carries a body diff and the re-record command) goes under it.
		first, _, _ := strings.Cut(rec.Error, "\n")
		out = append(out, Failure{Case: rec.Key, Check: errorCheck, Reason: shorten(first, 160) + " (in full below)", Diff: rec.Error})
	}
	for _, r := range rec.Scores {
		if r.Measure {
			continue
		}
		for _, c := range r.Checks {
			if !c.Pass {
				out = append(out, Failure{Case: rec.Key, Check: r.Scorer + ": " + c.Name,
					Expected: c.Expected, Got: c.Got, Reason: c.Reason, Diff: c.Diff})
			}
		}
	}
	return out
}

// textWriter renders the terminal and Markdown reports; they differ only in
// table renderer and decoration.
type textWriter struct {
	w        io.Writer
	markdown bool
	opt      TextOptions
	meta     Meta
	gate     *Gate
	kept     []Failure
	more     int // failing checks not kept
	groups   map[string]*checkGroup
	order    []string // group names, first seen first
	// knownFailed counts the failing cases tagged known-failure (the
	// simulator fails them on purpose); modelFailed and codeFailed the
	// others whose case called the model (its behaviour, which a simulator
	// plays) and those that did not (the app's own rules: consent, the
	// parser).
	knownFailed, modelFailed, codeFailed int
	err                                  error
}

// checkGroup counts the failures of one check across cases.
type checkGroup struct {
	n     int
	cases []string // the first few
}

// groupCases is how many cases a group names in the summary.
const groupCases = 3

// SetGate implements GateSetter: the Markdown report opens with the
// verdict and the headline metrics.
func (t *textWriter) SetGate(g *Gate) { t.gate = g }

// NewTerminal returns a Writer of the human report for a terminal: a
// summary line, the metrics table, the scorers' tables, then the failing
// checks (at most opt.MaxFailures) with their diffs.
func NewTerminal(w io.Writer, opt TextOptions) Writer { return newText(w, false, opt) }

// NewMarkdown returns a Writer of the same report in GitHub Markdown, for a
// pull-request comment or $GITHUB_STEP_SUMMARY; diffs go in <details>.
func NewMarkdown(w io.Writer, opt TextOptions) Writer { return newText(w, true, opt) }

func newText(w io.Writer, md bool, opt TextOptions) *textWriter {
	if opt.MaxFailures == 0 {
		opt.MaxFailures = DefaultMaxFailures
	}
	return &textWriter{w: w, markdown: md, opt: opt}
}

func (t *textWriter) Begin(m Meta) error {
	t.meta = m
	return nil
}

func (t *textWriter) Case(rec *CaseRecord) error {
	if !rec.Passed() && rec.Error == "" {
		switch {
		case slices.Contains(rec.Tags, score.KnownFailureTag):
			t.knownFailed++
		case CallsModel(rec):
			t.modelFailed++
		default:
			t.codeFailed++
		}
	}
	for _, f := range Failures(rec) {
		if t.groups == nil {
			t.groups = map[string]*checkGroup{}
		}
		g := t.groups[f.Check]
		if g == nil {
			g = &checkGroup{}
			t.groups[f.Check] = g
			t.order = append(t.order, f.Check)
		}
		g.n++
		if len(g.cases) < groupCases && (len(g.cases) == 0 || g.cases[len(g.cases)-1] != f.Case) {
			g.cases = append(g.cases, f.Case)
		}
		if len(t.kept) < max(t.opt.MaxFailures, 0) {
			t.kept = append(t.kept, f)
		} else {
			t.more++
		}
	}
	return nil
}

func (t *textWriter) End(s Summary) error {
	if t.markdown {
		return t.endMarkdown(s)
	}
	if !t.opt.Verbose {
		return t.endSummary(s)
	}
	t.summaryLine(s)
	t.verdictLines()
	if len(s.Metrics) > 0 {
		t.blank()
		rows := make([][]string, len(s.Metrics))
		var notes []string
		for i, m := range s.Metrics {
			rows[i] = []string{m.Name, FormatValue(m), FormatCI(m), FormatN(m)}
			if m.Note != "" {
				notes = append(notes, m.Name+": "+m.Note)
			}
		}
		t.table("Metrics", []string{"metric", "value", "95% CI", "n"}, rows, notes)
	}
	for _, tb := range s.Tables {
		t.blank()
		t.table(tb.Title, tb.Header, tb.Rows, tb.Notes)
	}
	if len(t.kept) > 0 {
		t.blank()
		rows := make([][]string, len(t.kept))
		for i, f := range t.kept {
			rows[i] = []string{f.Case, f.Check, f.Expected, f.Got, f.Reason}
		}
		header := []string{"case", "check", "expected", "got", "reason"}
		if w := t.width(); w > 0 && TableWidth(header, truncateCells(rows)) > w {
			// Too wide: what was expected and got go over the reason.
			for i, f := range t.kept {
				var lines []string
				if f.Expected != "" {
					lines = append(lines, "expected: "+f.Expected)
				}
				if f.Got != "" {
					lines = append(lines, "got: "+f.Got)
				}
				rows[i] = []string{f.Case, f.Check, strings.Join(append(lines, f.Reason), "\n")}
			}
			header = []string{"case", "check", "expected, got, reason"}
		}
		t.table(fmt.Sprintf("Failing checks (%d)", len(t.kept)+t.more), header, rows, nil)
	}
	if t.more > 0 {
		where := t.opt.JSONPath
		if where == "" {
			where = "the JSON report"
		}
		t.blank()
		t.printf("%d more failing check(s) not shown; every check is in %s.\n", t.more, where)
	}
	t.diffs()
	if t.opt.HTMLPath != "" {
		t.blank()
		t.printf("Every case, with what the model saw and did: %s\n", t.opt.HTMLPath)
	}
	return t.err
}

func (t *textWriter) summaryLine(s Summary) {
	if u := t.meta.Unplayable; u != nil && !t.markdown {
		// Not cut: it holds the command to copy.
		t.printf("searchbench: %s; re-record them with:\n  %s\n", u.What(), u.Command)
	}
	run := t.runParts()
	// No PASS/FAIL here: a run measures; only a gate gives a verdict.
	counts := fmt.Sprintf("%s: %d passed, %d failed, %s", plural(s.Cases, "case"), s.Passed, s.Failed, plural(s.Errors, "error"))
	if p := Provenance(t.meta); p != "" {
		counts = p + ": " + counts
	}
	if t.markdown {
		t.printf("### searchbench — %s\n\n**%s**", strings.Join(run, ", "), counts)
		t.printf("\n")
		return
	}
	prov := Provenance(t.meta)
	if t.opt.Color {
		counts = fmt.Sprintf("%s: %s passed, %s failed, %s", plural(s.Cases, "case"), t.paint(green, fmt.Sprint(s.Passed)),
			t.paint(redIf(s.Failed), fmt.Sprint(s.Failed)), t.paint(redIf(s.Errors), plural(s.Errors, "error")))
		if prov != "" {
			counts = prov + ": " + counts
		}
	}
	desc := "(" + strings.Join(run, ", ") + ")"
	w := t.width()
	fits := func(l string) bool { return w <= 0 || runewidth.StringWidth(stripANSI(l)) <= w }
	switch line := "searchbench: " + counts; {
	case fits(line + " " + desc):
		t.printf("%s %s\n", line, desc)
	case fits(line):
		// Too wide for one line: the run's description goes under.
		t.printf("%s\n  %s\n", line, desc)
	case prov != "":
		// Still too wide: the provenance stays first, the counts go under.
		bare := strings.TrimPrefix(counts, prov+": ")
		if fits("  " + bare + " " + desc) {
			t.printf("searchbench: %s:\n  %s %s\n", prov, bare, desc)
		} else {
			t.printf("searchbench: %s:\n  %s\n  %s\n", prov, bare, desc)
		}
	default:
		t.printf("%s\n  %s\n", line, desc)
	}
}

// failedSplit says where the failing cases come from: the cases tagged
// known-failure (which the simulator's scripts fail on purpose), the
// model's other behaviour (played by the simulator's policy in a simulator
// recording), and the app's own rules (consent, the parser).
func (t *textWriter) failedSplit() string {
	if t.knownFailed+t.modelFailed+t.codeFailed == 0 {
		return ""
	}
	sim := t.meta.Backend == "sim"
	var parts []string
	if t.knownFailed > 0 {
		if sim {
			parts = append(parts, fmt.Sprintf("%d scripted to fail on purpose (tagged %s)", t.knownFailed, score.KnownFailureTag))
		} else {
			// The tag names the simulator's scripted failures; a live model
			// failed them on its own.
			parts = append(parts, fmt.Sprintf("%d tagged %s", t.knownFailed, score.KnownFailureTag))
		}
	}
	if t.modelFailed > 0 {
		who := "the model's behaviour"
		if t.knownFailed > 0 {
			who = "the model's other behaviour"
		}
		if sim {
			who = strings.Replace(who, "the model", "the simulated model", 1)
			if len(t.meta.SimPolicies) > 0 {
				who += " (policy " + strings.Join(t.meta.SimPolicies, "+") + ")"
			}
		}
		parts = append(parts, fmt.Sprintf("%d by %s", t.modelFailed, who))
	}
	if t.codeFailed > 0 {
		parts = append(parts, fmt.Sprintf("%d by the app's own rules", t.codeFailed))
	}
	return fmt.Sprintf("Failing cases: %s", strings.Join(parts, ", "))
}

// Provenance says where a run's recordings came from, for its first line:
// "simulator, policy seed", "live: gpt-oss-120b via api.cerebras.ai" (the
// chat service's host), or both for a mix; "" when the report does not
// say. It names no recording date: recorded.json and the cassettes keep
// none (recording twice gives the same bytes), and a replay's clock is not
// the recording's, so the line stays the same on every replay.
func Provenance(m Meta) string {
	var parts []string
	for _, b := range strings.Split(m.Backend, "+") {
		switch b {
		case "sim":
			s := "simulator"
			if len(m.SimPolicies) > 0 {
				s += ", policy " + strings.Join(m.SimPolicies, "+")
			}
			parts = append(parts, s)
		case "live":
			s := "live"
			if len(m.Models) > 0 {
				s += ": " + strings.Join(m.Models, "+")
			}
			if hosts := chatHosts(m.BaseURLs); len(hosts) > 0 {
				s += " via " + strings.Join(hosts, ", ")
			}
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, " and ")
}

// chatHosts are the hosts of the chat service among base URLs written
// "service=URL" (Meta.BaseURLs): where the model answered. A list with no
// chat entry (or bare URLs) gives every host it names.
func chatHosts(bases []string) []string {
	var chat, all []string
	for _, b := range bases {
		svc, u := "", b
		// "chat=http://host/v1": the service name has no scheme or path.
		if name, rest, ok := strings.Cut(b, "="); ok && !strings.ContainsAny(name, ":/") {
			svc, u = name, rest
		}
		pu, err := url.Parse(u)
		if err != nil || pu.Host == "" {
			continue
		}
		if !slices.Contains(all, pu.Host) {
			all = append(all, pu.Host)
		}
		if svc == chatService && !slices.Contains(chat, pu.Host) {
			chat = append(chat, pu.Host)
		}
	}
	if len(chat) > 0 {
		return chat
	}
	return all
}

// chatService is the chat service's name in Meta.BaseURLs (vcr.ChatService).
const chatService = "chat"

// CallsModel reports whether a case called the model in some sample (its
// cost result counts model calls): its outcome is a draw of the model's
// behaviour.
func CallsModel(rec *CaseRecord) bool {
	model := false
	rec.EachSample(func(s SampleRecord) {
		for _, r := range s.Scores {
			if r.Measure && r.Values["model_calls"] > 0 {
				model = true
			}
		}
	})
	return model
}

// stripANSI removes colour codes, to measure what a terminal shows.
func stripANSI(s string) string {
	for _, c := range []string{green, red, bold, reset} {
		s = strings.ReplaceAll(s, c, "")
	}
	return s
}

func (t *textWriter) code(s string) string {
	if t.markdown {
		return "`" + s + "`"
	}
	return s
}

func (t *textWriter) blank() { t.printf("\n") }

func (t *textWriter) printf(format string, args ...any) {
	if t.err == nil {
		_, t.err = fmt.Fprintf(t.w, format, args...)
	}
}

func (t *textWriter) table(title string, header []string, rows [][]string, notes []string) {
	if t.err == nil {
		t.err = RenderTableWidth(t.w, t.markdown, t.width(), title, header, rows, notes)
	}
}

// errWriter remembers the first error of w and writes nothing after it.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

// RenderTable writes a titled table with notes under it, in the terminal
// style (fitting DefaultWidth) or as GitHub Markdown; see
// RenderTableWidth.
func RenderTable(w io.Writer, markdown bool, title string, header []string, rows [][]string, notes []string) error {
	return RenderTableWidth(w, markdown, DefaultWidth, title, header, rows, notes)
}

// RenderTableWidth writes a titled table with notes under it, in the
// terminal style or as GitHub Markdown. A terminal table and its notes fit
// width columns (≤ 0: no limit, as --wide): the widest columns wrap first,
// and no column grows past 48 columns. Markdown cells are escaped and stay
// on one line.
func RenderTableWidth(w io.Writer, markdown bool, width int, title string, header []string, rows [][]string, notes []string) error {
	opts := []tablewriter.Option{tablewriter.WithHeaderAutoFormat(tw.Off)}
	var err error
	printf := func(format string, args ...any) {
		if err == nil {
			_, err = fmt.Fprintf(w, format, args...)
		}
	}
	rows = truncateCells(rows)
	if markdown {
		if title != "" {
			printf("#### %s\n\n", escapeMarkdown(title))
		}
		opts = append(opts, tablewriter.WithRenderer(renderer.NewMarkdown()),
			tablewriter.WithRowAutoWrap(tw.WrapNone), tablewriter.WithHeaderAutoWrap(tw.WrapNone))
		header = mapCells(header, escapeMarkdown)
		esc := make([][]string, len(rows))
		for i, r := range rows {
			esc[i] = mapCells(r, escapeMarkdown)
		}
		rows = esc
	} else {
		if title != "" {
			for _, l := range WrapText(title, width, "  ") {
				printf("%s\n", l)
			}
		}
		header, rows = fitCells(header, rows, width)
		opts = append(opts, tablewriter.WithRowAutoWrap(tw.WrapNone), tablewriter.WithHeaderAutoWrap(tw.WrapNone))
	}
	if err != nil {
		return err
	}
	// tablewriter drops its writer's errors: keep the first one.
	ew := &errWriter{w: w}
	tb := tablewriter.NewTable(ew, opts...)
	tb.Header(header)
	if err := tb.Bulk(rows); err != nil {
		return fmt.Errorf("table %q: %w", title, err)
	}
	if err := tb.Render(); err != nil {
		return fmt.Errorf("table %q: %w", title, err)
	}
	if ew.err != nil {
		return ew.err
	}
	if markdown && len(notes) > 0 {
		printf("\n")
	}
	for _, n := range notes {
		if markdown {
			printf("- %s\n", escapeMarkdown(n))
		} else {
			for _, l := range WrapText("  "+n, width, "    ") {
				printf("%s\n", l)
			}
		}
	}
	return err
}

// maxCellRunes bounds a table cell: a reason quoting a long model output
// stays readable, and the JSON report keeps the whole text.
const maxCellRunes = 400

func truncateCells(rows [][]string) [][]string {
	var out [][]string
	for i, r := range rows {
		for j, c := range r {
			if utf8.RuneCountInString(c) <= maxCellRunes {
				continue
			}
			if out == nil {
				out = make([][]string, len(rows))
				copy(out, rows)
			}
			if &out[i][0] == &rows[i][0] {
				out[i] = slices.Clone(r)
			}
			out[i][j] = string([]rune(c)[:maxCellRunes]) + "… (truncated; see the JSON report)"
		}
	}
	if out == nil {
		return rows
	}
	return out
}

// EscapeMarkdown makes s safe in a Markdown table cell or list item.
func EscapeMarkdown(s string) string { return escapeMarkdown(s) }

// diffs prints the diffs of the kept failures under the tables.
func (t *textWriter) diffs() {
	for _, f := range t.kept {
		if f.Diff == "" {
			continue
		}
		t.blank()
		label, lang := "Diff", "diff"
		if f.Check == errorCheck {
			label, lang = "Error", "text"
		}
		if t.markdown {
			d := visible.String(strings.TrimRight(f.Diff, "\n"))
			fence := fenceFor(d)
			t.printf("<details><summary>%s — %s</summary>\n\n%s%s\n%s\n%s\n\n</details>\n",
				htmlEscape(f.Case), htmlEscape(f.Check), fence, lang, d, fence)
			continue
		}
		t.printf("%s: %s — %s\n%s\n", label, f.Case, f.Check, visible.String(strings.TrimRight(f.Diff, "\n")))
	}
}

func mapCells(cells []string, f func(string) string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = f(c)
	}
	return out
}

// markdownEscaper escapes what Markdown would read as markup: pipes and
// backslashes, emphasis, code and links; line breaks become <br>, and HTML
// is neutralised.
var markdownEscaper = strings.NewReplacer(
	`\`, `\\`, "|", `\|`, "<", "&lt;", ">", "&gt;", "&", "&amp;",
	"*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`,
	"\r\n", "<br>", "\n", "<br>", "\r", "<br>",
)

// escapeMarkdown makes s safe in a Markdown table cell or list item. Text
// from outside (model output, web content, case ids) is made inert first: control and bidi characters become visible escapes
// (lib/visible), and @mentions and issue references (#12, owner/repo#12)
// become code spans, so a comment quoting a page never notifies a user or
// cross-links another repository's issue.
func escapeMarkdown(s string) string {
	s = visible.String(s)
	ms := mentionRef.FindAllStringSubmatchIndex(s, -1)
	if ms == nil {
		return markdownEscaper.Replace(s)
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		lo, hi := m[2], m[3] // the mention or reference, without the byte before it
		b.WriteString(markdownEscaper.Replace(s[last:lo]))
		b.WriteString("`" + s[lo:hi] + "`")
		last = hi
	}
	b.WriteString(markdownEscaper.Replace(s[last:]))
	return b.String()
}

// mentionRef finds what GitHub links in a comment: @user, @org/team,
// #123, GH-123 and owner/repo#123, where they start a word.
var mentionRef = regexp.MustCompile(`(?:^|[^\w/@#.` + "`" + `-])(@[A-Za-z0-9][A-Za-z0-9-]*(?:/[\w.-]+)?|(?:[A-Za-z0-9][\w.-]*/[\w.-]+)?#[0-9]+|GH-[0-9]+)\b`)

var htmlEscaper = strings.NewReplacer("<", "&lt;", ">", "&gt;", "&", "&amp;")

func htmlEscape(s string) string { return htmlEscaper.Replace(visible.String(s)) }

// fenceFor returns a code fence longer than any run of backticks in s, so
// a diff of a message with ```json in it cannot close its block early.
func fenceFor(s string) string {
	fence := "```"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	return fence
}

// plural formats n with noun, adding an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
