package report

import (
	"bytes"
	"embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/internal/jsonx"
	"github.com/searchbench/searchbench/internal/textdiff"
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
	// Traces is the run's traces.jsonl.gz, nil when there are none (a
	// merged report). Its lines must follow the report's cases.
	Traces []byte
}

// HTMLRun is one run as the HTML report holds it: everything the page
// shows, collected from the report's records, and its traces still
// compressed (the page decompresses them when a case is first opened).
type HTMLRun struct {
	Name    string      `json:"name"`
	Meta    Meta        `json:"meta"`
	Summary *Summary    `json:"summary"`
	Gate    *Gate       `json:"gate"`
	Cases   []*htmlCase `json:"cases"`
	// Traces is the base64 of the gzip-compressed traces ("" without).
	Traces string `json:"traces"`

	traces *TraceReader
}

// htmlCase is a case record cut to what the page needs, with short keys:
// at 10,000 cases the page's data is mostly these.
type htmlCase struct {
	Seq     int         `json:"seq"`
	Key     string      `json:"key"`
	Dataset string      `json:"dataset"`
	Kind    string      `json:"kind"`
	Label   string      `json:"label,omitempty"`
	Tags    []string    `json:"tags,omitempty"`
	Pass    bool        `json:"pass"`
	Error   string      `json:"error,omitempty"`
	Checks  []htmlCheck `json:"checks"`
	Turns   int         `json:"turns,omitempty"`
}

// htmlCheck is one check. Expected and got are also given in the
// notation of the terminal's diffs (textdiff.Visible) when that differs
// from the text, so the page shows the same glyphs.
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

// HTMLFlip is a case whose outcome differs between the two runs of a
// comparison page.
type HTMLFlip struct {
	Key    string `json:"key"`
	ToFail bool   `json:"to_fail"`
}

// HTMLComparison is what a comparison page shows besides its two runs:
// the flipped cases (listed first), tables (the metrics side by side) and
// warnings.
type HTMLComparison struct {
	Flips    []HTMLFlip
	Tables   []score.Table
	Warnings []string
}

// CollectHTMLRun reads the report src (and its traces, nil for none) into
// an HTMLRun, with the verdict the report holds.
func CollectHTMLRun(src Source, traces []byte) (*HTMLRun, error) {
	r, err := NewHTMLRun(HTMLOptions{Name: src.Name, Traces: traces})
	if err != nil {
		return nil, err
	}
	rc, err := src.Open()
	if err != nil {
		return nil, fmt.Errorf("reading report: %w", err)
	}
	defer rc.Close()
	sc, err := NewScanner(src.Name, rc)
	if err != nil {
		return nil, err
	}
	if err := r.Begin(sc.Meta()); err != nil {
		return nil, err
	}
	for sc.Next() {
		if err := r.Case(sc.Case()); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	r.Gate = sc.Gate()
	if err := r.End(*sc.Summary()); err != nil {
		return nil, err
	}
	return r, nil
}

// NewHTMLRun starts collecting a run for the HTML report.
func NewHTMLRun(opt HTMLOptions) (*HTMLRun, error) {
	r := &HTMLRun{Name: opt.Name, Cases: []*htmlCase{}}
	if len(opt.Traces) > 0 {
		tr, err := NewTraceReader(TracesName, bytes.NewReader(opt.Traces))
		if err != nil {
			return nil, err
		}
		r.traces = tr
		r.Traces = base64.StdEncoding.EncodeToString(opt.Traces)
	}
	return r, nil
}

// Begin implements Writer.
func (r *HTMLRun) Begin(m Meta) error {
	r.Meta = m
	return nil
}

// SetGate implements GateSetter.
func (r *HTMLRun) SetGate(g *Gate) { r.Gate = g }

// Case implements Writer.
func (r *HTMLRun) Case(rec *CaseRecord) error {
	if r.traces != nil {
		// The page finds a case's trace by its position: check the two
		// files line up.
		raw, err := r.traces.For(rec)
		if err != nil {
			return err
		}
		if raw == nil {
			return fmt.Errorf("%s ends before case %s: the traces belong to another run", TracesName, rec.Key)
		}
	}
	c := &htmlCase{Seq: rec.Seq, Key: rec.Key, Dataset: rec.Dataset, Kind: rec.Kind, Label: rec.Label, Tags: rec.Tags,
		Pass: rec.Pass, Error: rec.Error, Checks: []htmlCheck{}, Turns: len(rec.Turns)}
	for _, s := range rec.Scores {
		for _, k := range s.Checks {
			hc := htmlCheck{Scorer: s.Scorer, Name: k.Name, Metric: k.Metric, Pass: k.Pass, Measure: s.Measure,
				Expected: k.Expected, Got: k.Got, Reason: k.Reason, Diff: k.Diff}
			if v := textdiff.Visible(k.Expected); v != k.Expected {
				hc.ExpVis = v
			}
			if v := textdiff.Visible(k.Got); v != k.Got {
				hc.GotVis = v
			}
			c.Checks = append(c.Checks, hc)
		}
	}
	r.Cases = append(r.Cases, c)
	return nil
}

// End implements Writer.
func (r *HTMLRun) End(s Summary) error {
	r.Summary = &s
	if r.traces != nil {
		if _, _, err := r.traces.Next(); err != io.EOF {
			if err == nil {
				err = fmt.Errorf("%s has more lines than the report has cases: the traces belong to another run", TracesName)
			}
			return err
		}
	}
	return nil
}

// htmlWriter is the Writer of a run's report.html.
type htmlWriter struct {
	*HTMLRun
	w io.Writer
}

// NewHTML returns a Writer of report.html: one self-contained page (no
// network; its script and style are embedded) with the verdict, the
// metrics with their intervals, the scorers' tables drawn as a heatmap and
// bars, and a browser of every case down to its model requests, search
// results and the diffs of its checks.
func NewHTML(w io.Writer, opt HTMLOptions) (Writer, error) {
	r, err := NewHTMLRun(opt)
	if err != nil {
		return nil, err
	}
	return &htmlWriter{HTMLRun: r, w: w}, nil
}

func (h *htmlWriter) End(s Summary) error {
	if err := h.HTMLRun.End(s); err != nil {
		return err
	}
	return WriteHTML(h.w, []*HTMLRun{h.HTMLRun}, nil)
}

// htmlData is the page's embedded data.
type htmlData struct {
	Runs     []*HTMLRun    `json:"runs"`
	Flips    []HTMLFlip    `json:"flips,omitempty"`
	Tables   []score.Table `json:"tables,omitempty"`
	Warnings []string      `json:"warnings,omitempty"`
}

// WriteHTML writes the page of one run, or of two side by side (a
// comparison, cmp not nil: the cases that flipped between them first).
func WriteHTML(w io.Writer, runs []*HTMLRun, cmp *HTMLComparison) error {
	d := htmlData{Runs: runs}
	if cmp != nil {
		d.Flips, d.Tables, d.Warnings = cmp.Flips, cmp.Tables, cmp.Warnings
	}
	data, err := jsonx.Marshal(d)
	if err != nil {
		return err
	}
	// Inside <script>, "</script" or "<!--" would end or confuse the
	// element; no '<' outside a JSON string exists, so escape them all.
	data = bytes.ReplaceAll(data, []byte("<"), []byte(`\u003c`))
	style, err := htmlAssets.ReadFile("html/report.css")
	if err != nil {
		return err
	}
	script, err := htmlAssets.ReadFile("html/report.js")
	if err != nil {
		return err
	}
	title := "searchbench report"
	if len(runs) == 2 {
		title = "searchbench compare"
	}
	if len(runs) > 0 {
		title += " — " + runs[0].Meta.Variant
		if len(runs) == 2 {
			title += " vs " + runs[1].Meta.Variant
		}
	}
	return htmlPage.Execute(w, map[string]any{
		"Title":  title,
		"Style":  template.CSS(style),
		"Script": template.JS(script),
		"Data":   template.JS(strings.TrimSpace(string(data))),
	})
}
