package report

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"errors"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/lib/jsonx"
	"github.com/searchbench/searchbench/lib/textdiff"
)

// HTMLName is the file of the browsable report, beside report.json.
const HTMLName = "report.html"

//go:embed html
var htmlAssets embed.FS

var htmlPage = template.Must(template.New("report.html").ParseFS(htmlAssets, "html/report.html"))

// HTMLOptions configure the HTML report.
type HTMLOptions struct {
	// Name names the run on the page (its report.json path).
	Name string
	// Traces is the run's traces.jsonl.gz, the zero Source when there
	// are none (a merged report). Its lines must follow the report's
	// cases. It is opened twice (its lines are checked against the
	// report's cases as they come, then copied), never held whole.
	Traces Source
}

// htmlCase is a case record cut to what the page needs: at 10,000 cases
// the page's data is mostly these.
type htmlCase struct {
	Seq     int      `json:"seq"`
	Key     string   `json:"key"`
	Dataset string   `json:"dataset"`
	Kind    string   `json:"kind"`
	Label   string   `json:"label,omitempty"`
	Tags    []string `json:"tags,omitempty"`
	Pass    bool     `json:"pass"`
	Error   string   `json:"error,omitempty"`
	// Inputs are the user's messages, turn by turn, for the list and the
	// search.
	Inputs []string    `json:"in,omitempty"`
	Checks []htmlCheck `json:"checks"`
	// USD is the case's dollars at the price table's rates (the cost
	// scorer's "usd"); nil when the case made no priced requests.
	USD *float64 `json:"usd,omitempty"`
	// Samples are samples 2..N of a case recorded with several samples;
	// the fields above are sample 1's.
	Samples []htmlSample `json:"samples,omitempty"`
	// Gold and Grades are the correctness scorer's gold answer and its
	// verdict on each graded answer (sample 1), for the case page.
	Gold   map[string]string `json:"gold,omitempty"`
	Grades []htmlGrade       `json:"grades,omitempty"`
}

// htmlSample is one further sample of a sampled case: its outcome and
// checks (its trace is the case's trace line's). A check it passed carries
// only its name: with ten samples a case's passing checks would otherwise
// be most of the page, and what they expected is sample 1's.
type htmlSample struct {
	Sample int         `json:"k"`
	Pass   bool        `json:"pass"`
	Error  string      `json:"error,omitempty"`
	Checks []htmlCheck `json:"checks"`
}

// htmlGrade is one graded answer: which turn and phase, the answer, and
// the verdict with who decided it and why.
type htmlGrade struct {
	Turn      string `json:"turn"`
	Phase     string `json:"phase"`
	Answer    string `json:"answer"`
	Label     string `json:"label"`
	DecidedBy string `json:"decided_by"`
	Rule      string `json:"rule,omitempty"`
	Reason    string `json:"reason"`
}

// gradesOf reads the correctness scorer's attributes ("turn 2: label", …)
// back into rows, in turn order.
func gradesOf(attrs map[string]string) (map[string]string, []htmlGrade) {
	gold := map[string]string{}
	var out []htmlGrade
	for k, v := range attrs {
		switch {
		case k == "gold" || strings.HasPrefix(k, "gold.") || k == "judge":
			gold[k] = v
		case strings.HasSuffix(k, ": phase"):
			t := strings.TrimSuffix(k, ": phase")
			out = append(out, htmlGrade{Turn: t, Phase: v, Answer: attrs[t+": answer"], Label: attrs[t+": label"],
				DecidedBy: attrs[t+": decided_by"], Rule: attrs[t+": rule"], Reason: attrs[t+": reason"]})
		}
	}
	slices.SortFunc(out, func(a, b htmlGrade) int { return turnNumber(a.Turn) - turnNumber(b.Turn) })
	return gold, out
}

func turnNumber(t string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(t, "turn "))
	return n
}

// htmlCheck is one check, with short keys. Expected and got are also
// given in the notation of the terminal's diffs (textdiff.Visible) when
// that differs from the text, so the page shows the same glyphs.
type htmlCheck struct {
	Scorer   string `json:"s"`
	Name     string `json:"n"`
	Metric   string `json:"m,omitempty"`
	Pass     bool   `json:"p"`
	Measure  bool   `json:"x,omitempty"`
	Expected string `json:"e,omitempty"`
	Got      string `json:"g,omitempty"`
	ExpVis   string `json:"ev,omitempty"`
	GotVis   string `json:"gv,omitempty"`
	Reason   string `json:"r,omitempty"`
	Diff     string `json:"d,omitempty"`
}

func htmlCaseOf(rec *CaseRecord) *htmlCase {
	c := &htmlCase{Seq: rec.Seq, Key: rec.Key, Dataset: rec.Dataset, Kind: rec.Kind, Label: rec.Label, Tags: rec.Tags,
		Pass: rec.Pass, Error: rec.Error}
	for _, t := range rec.Turns {
		c.Inputs = append(c.Inputs, t.Input)
	}
	for _, s := range rec.Scores {
		if v, ok := s.Values["usd"]; ok && s.Scorer == "cost" {
			c.USD = &v
		}
		if s.Scorer == "correctness" {
			c.Gold, c.Grades = gradesOf(s.Attrs)
		}
	}
	c.Checks = htmlChecks(rec.Scores)
	for _, s := range rec.Samples {
		checks := htmlChecks(s.Scores)
		for i, k := range checks {
			if k.Pass {
				checks[i] = htmlCheck{Scorer: k.Scorer, Name: k.Name, Pass: true, Measure: k.Measure}
			}
		}
		c.Samples = append(c.Samples, htmlSample{Sample: s.Sample, Pass: s.Pass, Error: s.Error, Checks: checks})
	}
	return c
}

// htmlChecks lists the checks of one sample's results.
func htmlChecks(scores []score.Result) []htmlCheck {
	out := []htmlCheck{}
	for _, s := range scores {
		for _, k := range s.Checks {
			hc := htmlCheck{Scorer: s.Scorer, Name: k.Name, Metric: k.Metric, Pass: k.Pass, Measure: s.Measure,
				Expected: k.Expected, Got: k.Got, Reason: k.Reason, Diff: k.Diff}
			if v := textdiff.Visible(k.Expected); v != k.Expected {
				hc.ExpVis = v
			}
			if v := textdiff.Visible(k.Got); v != k.Got {
				hc.GotVis = v
			}
			out = append(out, hc)
		}
	}
	return out
}

// HTMLFlip is a case whose outcome differs between the two runs of a
// comparison page.
type HTMLFlip struct {
	Key    string `json:"key"`
	ToFail bool   `json:"to_fail"`
	// Change, for runs with several samples per case, is the case's pass
	// rate in A and B ("2/5 → 5/5"); ToFail then means it fell.
	Change string `json:"change,omitempty"`
}

// HTMLComparison is what a comparison page shows besides its two runs:
// the flipped cases (listed first), tables (the metrics side by side) and
// warnings.
type HTMLComparison struct {
	// Sampled: Flips are the cases whose pass rate over their samples
	// changed, not flipped outcomes.
	Sampled  bool          `json:"sampled,omitempty"`
	Flips    []HTMLFlip    `json:"flips"`
	Tables   []score.Table `json:"tables"`
	Warnings []string      `json:"warnings,omitempty"`
}

// htmlRun streams one run into the page's data: {"name", "meta",
// "cases": […], "summary", "gate", "traces": [chunks]}. Cases are written
// as they come, so a page of any size is written in flat memory.
type htmlRun struct {
	out    *pageWriter
	name   string
	traces Source
	tr     *TraceReader
	trc    io.Closer // tr's file
	gate   *Gate
	n      int
	// onBegin writes what precedes the run (the page's head).
	onBegin func(Meta) error
	// onEnd writes what follows it (the page's tail).
	onEnd func() error
}

func newHTMLRun(out *pageWriter, opt HTMLOptions) (*htmlRun, error) {
	r := &htmlRun{out: out, name: opt.Name, traces: opt.Traces}
	if opt.Traces.Open != nil {
		f, err := opt.Traces.Open()
		if err != nil {
			return nil, err
		}
		tr, err := NewTraceReader(opt.Traces.Name, f)
		if err != nil {
			f.Close()
			return nil, err
		}
		r.tr, r.trc = tr, f
	}
	return r, nil
}

// close closes the traces the run checks its cases against.
func (r *htmlRun) close() {
	if r.trc != nil {
		r.trc.Close()
		r.trc = nil
	}
}

// SetGate implements GateSetter.
func (r *htmlRun) SetGate(g *Gate) { r.gate = g }

func (r *htmlRun) Begin(m Meta) error {
	if r.onBegin != nil {
		if err := r.onBegin(m); err != nil {
			return err
		}
	}
	r.out.raw(`{"name":`)
	r.out.json(r.name)
	r.out.raw(`,"meta":`)
	r.out.json(m)
	r.out.raw(`,"cases":[`)
	return r.out.err
}

func (r *htmlRun) Case(rec *CaseRecord) error {
	if r.tr != nil {
		// The page finds a case's trace by its position: the two files
		// must line up.
		if err := r.tr.Check(rec); err != nil {
			return err
		}
	}
	if r.n > 0 {
		r.out.raw(",\n")
	}
	r.n++
	r.out.json(htmlCaseOf(rec))
	return r.out.err
}

// traceChunk is the size of the base64 pieces the traces are embedded
// in: short runs of token characters, which the secret scrubber streams.
const traceChunk = 48 << 10

func (r *htmlRun) End(s Summary) error {
	if r.tr != nil {
		err := r.tr.Done()
		r.close()
		if err != nil {
			return err
		}
	}
	r.out.raw("],\n\"summary\":")
	r.out.json(s)
	r.out.raw(`,"gate":`)
	r.out.json(r.gate)
	r.out.raw(`,"traces":[`)
	if r.traces.Open != nil {
		if err := r.embedTraces(); err != nil {
			return err
		}
	}
	r.out.raw("]}")
	if r.onEnd != nil {
		if err := r.onEnd(); err != nil {
			return err
		}
	}
	return r.out.err
}

// embedTraces copies the traces file into the page as base64 chunks, one
// chunk in memory at a time.
func (r *htmlRun) embedTraces() error {
	f, err := r.traces.Open()
	if err != nil {
		return err
	}
	defer f.Close()
	buf := make([]byte, traceChunk/4*3)
	enc := make([]byte, base64.StdEncoding.EncodedLen(len(buf)))
	for i := 0; ; i++ {
		n, err := io.ReadFull(f, buf)
		if n > 0 {
			if i > 0 {
				r.out.raw(",\n")
			}
			base64.StdEncoding.Encode(enc, buf[:n])
			r.out.raw(`"`)
			r.out.bytes(enc[:base64.StdEncoding.EncodedLen(n)])
			r.out.raw(`"`)
		}
		switch {
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			return r.out.err
		case err != nil:
			return fmt.Errorf("%s: %w", r.traces.Name, err)
		}
	}
}

// pageWriter writes the page: template parts and JSON data, escaping '<'
// inside the data so no string in it can end the script element.
type pageWriter struct {
	w   *bufio.Writer
	err error
}

func (p *pageWriter) raw(s string) {
	if p.err == nil {
		_, p.err = p.w.WriteString(s)
	}
}

func (p *pageWriter) bytes(b []byte) {
	if p.err == nil {
		_, p.err = p.w.Write(b)
	}
}

func (p *pageWriter) json(v any) {
	if p.err != nil {
		return
	}
	// The page's script iterates lists without checking for null.
	b, err := jsonx.MarshalArrays(v)
	if err != nil {
		p.err = err
		return
	}
	// No '<' exists outside a JSON string, so all can be escaped.
	_, p.err = p.w.Write(bytes.ReplaceAll(b, []byte("<"), []byte(`\u003c`)))
}

// dataMark stands for the page's data when the template is executed:
// the page is written as the part before it, the data streamed, and the
// part after it.
const dataMark = "/*searchbench-data*/"

// parts returns the page around its data, for a page titled title.
func (p *pageWriter) parts(title string) (head, tail string) {
	if p.err != nil {
		return "", ""
	}
	style, err := htmlAssets.ReadFile("html/report.css")
	if err != nil {
		p.err = err
		return "", ""
	}
	script, err := htmlAssets.ReadFile("html/report.js")
	if err != nil {
		p.err = err
		return "", ""
	}
	var b strings.Builder
	if p.err = htmlPage.Execute(&b, map[string]any{
		"Title": title, "Style": template.CSS(style), "Script": template.JS(script), "Data": template.JS(dataMark),
		"CSP": contentPolicy(style, script),
	}); p.err != nil {
		return "", ""
	}
	head, tail, ok := strings.Cut(b.String(), dataMark)
	if !ok {
		p.err = errors.New("report.html template lost its data mark")
	}
	return head, tail
}

// contentPolicy is the page's Content-Security-Policy: nothing is loaded
// from anywhere, and only the page's own style and script, named by their
// hashes, run. A string of web content that reached the page as markup
// could run nothing.
func contentPolicy(style, script []byte) string {
	hash := func(b []byte) string {
		sum := sha256.Sum256(b)
		return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	}
	return "default-src 'none'; script-src " + hash(script) + "; style-src " + hash(style) +
		"; img-src 'none'; base-uri 'none'; form-action 'none'"
}

func (p *pageWriter) flush() error {
	if p.err == nil {
		p.err = p.w.Flush()
	}
	return p.err
}

// NewHTML returns a Writer of report.html: one self-contained page (no
// network; its script and style are embedded) with the verdict, the
// metrics with their intervals, the scorers' tables drawn as a heatmap and
// bars, and a browser of every case down to its model requests, search
// results and the diffs of its checks. The page's data streams out as the
// cases come; the page draws only what is on screen.
func NewHTML(w io.Writer, opt HTMLOptions) (Writer, error) {
	out := &pageWriter{w: bufio.NewWriterSize(w, 64<<10)}
	r, err := newHTMLRun(out, opt)
	if err != nil {
		return nil, err
	}
	var tail string
	r.onBegin = func(m Meta) error {
		var head string
		head, tail = out.parts("searchbench report — " + m.Variant)
		out.raw(head)
		out.raw(`{"runs":[`)
		return out.err
	}
	r.onEnd = func() error {
		out.raw("]}")
		out.raw(tail)
		return out.flush()
	}
	return r, nil
}

// HTMLSide is one run of a comparison page: its report and traces (the
// zero Source for none).
type HTMLSide struct {
	Report Source
	Traces Source
}

// WriteHTMLComparison writes the page of two runs side by side, with the
// cases that flipped between them first. Each report is streamed.
func WriteHTMLComparison(w io.Writer, a, b HTMLSide, variants [2]string, cmp *HTMLComparison) error {
	out := &pageWriter{w: bufio.NewWriterSize(w, 64<<10)}
	head, tail := out.parts(fmt.Sprintf("searchbench compare — %s vs %s", variants[0], variants[1]))
	out.raw(head)
	out.raw(`{"comparison":`)
	out.json(cmp)
	out.raw(`,"runs":[`)
	for i, side := range []HTMLSide{a, b} {
		if i > 0 {
			out.raw(",\n")
		}
		r, err := newHTMLRun(out, HTMLOptions{Name: side.Report.Name, Traces: side.Traces})
		if err != nil {
			return err
		}
		var gate *Gate
		var sum *Summary
		if err := scanWithGate(side.Report, r, &gate, &sum); err != nil {
			r.close()
			return err
		}
		if sum == nil {
			return fmt.Errorf("%s: no summary", side.Report.Name)
		}
		r.gate = gate
		if err := r.End(*sum); err != nil {
			return err
		}
	}
	out.raw("]}")
	out.raw(tail)
	return out.flush()
}

// scanWithGate streams src's meta and cases into w and returns its
// summary and verdict.
func scanWithGate(src Source, w Writer, gate **Gate, sum **Summary) error {
	g, err := scan(src, w.Begin, w.Case, func(s *Summary) { *sum = s })
	*gate = g
	return err
}
