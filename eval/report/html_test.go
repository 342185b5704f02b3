package report_test

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/report/reporttest"
	"github.com/searchbench/searchbench/lib/secret"
)

// traces writes the fixed run's traces, with the scrubber of set.
func traces(t *testing.T, set *secret.Set) []byte {
	t.Helper()
	_, recs := reporttest.Run()
	var buf bytes.Buffer
	w := report.NewTraces(&buf, func(w io.Writer) io.Writer { return secret.NewWriter(w, set) })
	for _, r := range recs {
		if err := w.Case(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestTracesAreDeterministicAndInCaseOrder(t *testing.T) {
	first, second := traces(t, nil), traces(t, nil)
	if !bytes.Equal(first, second) {
		t.Fatal("two writes of the same traces differ")
	}
	zr, err := gzip.NewReader(bytes.NewReader(first))
	if err != nil {
		t.Fatal(err)
	}
	if !zr.ModTime.IsZero() || zr.Name != "" {
		t.Errorf("gzip header carries mtime %v, name %q: the file would differ between runs", zr.ModTime, zr.Name)
	}
	_, recs := reporttest.Run()
	tr, err := report.NewTraceReader("traces", bytes.NewReader(first))
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		ct, _, err := tr.Next()
		if err != nil {
			t.Fatalf("before case %s: %v", rec.Key, err)
		}
		if ct.Key != rec.Key || ct.Seq != rec.Seq {
			t.Errorf("trace line for %s (seq %d), want %s (seq %d)", ct.Key, ct.Seq, rec.Key, rec.Seq)
		}
		if ct.Session == nil || len(ct.Session.Turns) == 0 {
			t.Errorf("trace of %s has no turns", rec.Key)
		}
	}
	if _, _, err := tr.Next(); !errors.Is(err, io.EOF) {
		t.Errorf("after the last case: %v, want EOF", err)
	}
}

func TestTracesAreScrubbed(t *testing.T) {
	// The drifted routing case prints "query iphone-year": make part of it
	// a secret.
	const key = "iphone-year"
	data := traces(t, secret.New(key))
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(plain, []byte(key)) {
		t.Errorf("a secret reached the traces:\n%s", plain)
	}
	if !bytes.Contains(plain, []byte("routing/")) {
		t.Errorf("traces lost their content:\n%.300s", plain)
	}
}

// page renders the fixed run's report.html with its traces.
func page(t *testing.T, tr []byte) (string, error) {
	t.Helper()
	meta, recs := reporttest.Run()
	var buf bytes.Buffer
	opt := report.HTMLOptions{Name: "reports/latest/report.json"}
	if tr != nil {
		opt.Traces = report.Bytes(report.TracesName, tr)
	}
	w, err := report.NewHTML(&buf, opt)
	if err != nil {
		return "", err
	}
	g := &report.Gate{Verdict: report.VerdictFail, Line: "gate: FAIL (1 violation: 1 flip) </script><b>", Headline: []string{"routing.accuracy"},
		Violations: []report.Violation{{Kind: "flip", Metric: "routing", Case: "routing/iphone-year", Want: "pass", Got: "fail", Explanation: "x"}}}
	err = report.Write(w, &report.Report{Meta: meta, Cases: recs, Summary: reporttest.Summary(recs), Gate: g})
	return buf.String(), err
}

func TestHTMLIsSelfContained(t *testing.T) {
	tr := traces(t, nil)
	html, err := page(t, tr)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := page(t, tr); again != html {
		t.Error("two renderings of the same run differ")
	}
	// Nothing is loaded from anywhere: no external script, style, image,
	// font or frame.
	if m := regexp.MustCompile(`(?i:<(script|link|img|iframe)[^>]*\b(src|href)=|@import)|\burl\(`).FindString(html); m != "" {
		t.Errorf("report.html loads an external resource: %q", m)
	}
	// The embedded data survives a verdict line that tries to close the
	// script element.
	m := regexp.MustCompile(`(?s)<script type="application/json" id="data">(.*?)</script>`).FindStringSubmatch(html)
	if m == nil {
		t.Fatal("no embedded data")
	}
	var data struct {
		Runs []struct {
			Gate   *report.Gate `json:"gate"`
			Cases  []struct{ Key string }
			Traces []string `json:"traces"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(m[1]), &data); err != nil {
		t.Fatalf("embedded data: %v", err)
	}
	run := data.Runs[0]
	if len(run.Cases) != 10 || run.Cases[4].Key != "routing/iphone-year" {
		t.Errorf("embedded cases: %+v", run.Cases)
	}
	if !strings.HasSuffix(run.Gate.Line, "</script><b>") {
		t.Errorf("verdict line mangled: %q", run.Gate.Line)
	}
	if got, _ := base64.StdEncoding.DecodeString(strings.Join(run.Traces, "")); !bytes.Equal(got, tr) {
		t.Error("the embedded traces are not the traces file")
	}
	// The check with a byte diff carries its visible form.
	if !strings.Contains(m[1], `"d":"`) || !strings.Contains(m[1], "␠") {
		t.Error("the drifted case's diff, with its visible trailing space, is not embedded")
	}
}

func TestHTMLRefusesTracesOfAnotherRun(t *testing.T) {
	var buf bytes.Buffer
	w := report.NewTraces(&buf, nil)
	w.Write(&report.CaseTrace{Seq: 0, Key: "routing/other"})
	w.Close()
	if _, err := page(t, buf.Bytes()); err == nil || !strings.Contains(err.Error(), "belong to another run") {
		t.Errorf("traces of another run: err = %v", err)
	}
}

func TestMergeTracesRefusesOutOfOrderShards(t *testing.T) {
	shard := func(seqs ...int) []byte {
		var buf bytes.Buffer
		w := report.NewTraces(&buf, nil)
		for _, s := range seqs {
			w.Write(&report.CaseTrace{Seq: s, Key: fmt.Sprintf("routing/c%d", s)})
		}
		w.Close()
		return buf.Bytes()
	}
	var out bytes.Buffer
	err := report.MergeTraces([]string{"a", "b"}, []io.Reader{bytes.NewReader(shard(0, 2, 4)), bytes.NewReader(shard(1, 3))}, &out)
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := report.NewTraceReader("merged", &out)
	var got []int
	for {
		ct, _, err := tr.Next()
		if err != nil {
			break
		}
		got = append(got, ct.Seq)
	}
	if fmt.Sprint(got) != "[0 1 2 3 4]" {
		t.Errorf("merged order %v", got)
	}
	err = report.MergeTraces([]string{"a"}, []io.Reader{bytes.NewReader(shard(2, 1))}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "not in case order") {
		t.Errorf("out-of-order shard: err = %v", err)
	}
}

// sampledPage renders a run whose routing case has three samples that all
// passed (no flaky case), ungated, with its traces.
func sampledPage(t *testing.T) (page string, data []byte) {
	t.Helper()
	meta := reporttest.Meta("seed")
	recs := []*report.CaseRecord{
		reporttest.RoutingSamples(0, "alignment-themes", true, true, true),
		reporttest.Consent(1, "yes-please", "YES", "yes please", "YES", "yes.phrase"),
	}
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
	w, err := report.NewHTML(&buf, report.HTMLOptions{Name: "reports/latest/report.json", Traces: report.Bytes(report.TracesName, tr.Bytes())})
	if err != nil {
		t.Fatal(err)
	}
	if err := report.Write(w, &report.Report{Meta: meta, Cases: recs, Summary: reporttest.Summary(recs)}); err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)<script type="application/json" id="data">(.*?)</script>`).FindStringSubmatch(buf.String())
	if m == nil {
		t.Fatal("no embedded data")
	}
	return buf.String(), []byte(m[1])
}

// TestHTMLDataHoldsNoNullList: the page's script iterates every list it
// reads; a sampled run with no flaky case once gave the flaky table
// "rows": null, and the overview threw a TypeError.
func TestHTMLDataHoldsNoNullList(t *testing.T) {
	_, data := sampledPage(t)
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	var nulls []string
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case nil:
			nulls = append(nulls, path)
		case map[string]any:
			for k, e := range v {
				walk(path+"."+k, e)
			}
		case []any:
			for i, e := range v {
				walk(fmt.Sprintf("%s[%d]", path, i), e)
			}
		}
	}
	walk("data", v)
	// An ungated run has no verdict: that one null is the page's signal.
	if len(nulls) != 1 || nulls[0] != "data.runs[0].gate" {
		t.Errorf("nulls in the page's data (only data.runs[0].gate may be): %v", nulls)
	}
	if !bytes.Contains(data, []byte(`"title":"Flaky cases (0)`)) {
		t.Error("the run has no flaky table with no rows: the test proves nothing")
	}
}

// TestHTMLSampledCaseHasEverySample: a case of several samples carries each
// sample's outcome and checks in the page's data, and each sample's trace
// in the traces the page embeds.
func TestHTMLSampledCaseHasEverySample(t *testing.T) {
	_, data := sampledPage(t)
	var d struct {
		Runs []struct {
			Cases []struct {
				Key     string
				Samples []struct {
					K      int               `json:"k"`
					Pass   bool              `json:"pass"`
					Checks []json.RawMessage `json:"checks"`
				} `json:"samples"`
			} `json:"cases"`
			Traces []string `json:"traces"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	c := d.Runs[0].Cases[0]
	if len(c.Samples) != 2 || c.Samples[0].K != 2 || c.Samples[1].K != 3 || !c.Samples[1].Pass || len(c.Samples[1].Checks) == 0 {
		t.Errorf("samples of %s in the page: %+v", c.Key, c.Samples)
	}
	gz, _ := base64.StdEncoding.DecodeString(strings.Join(d.Runs[0].Traces, ""))
	tr, err := report.NewTraceReader("traces", bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	ct, _, err := tr.Next()
	if err != nil {
		t.Fatal(err)
	}
	if len(ct.Samples) != 2 || ct.Samples[0].Sample != 2 || ct.Samples[1].Session == nil || len(ct.Samples[1].Session.Turns) == 0 {
		t.Errorf("the trace of %s holds samples %+v, want the sessions of samples 2 and 3", ct.Key, ct.Samples)
	}
}

// TestHTMLContentPolicy: the page declares a strict Content-Security-Policy
// whose hashes are those of its own script and style, so they run and
// nothing else does.
func TestHTMLContentPolicy(t *testing.T) {
	page, _ := sampledPage(t)
	m := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no Content-Security-Policy meta tag")
	}
	csp := html.UnescapeString(m[1])
	hash := func(s string) string {
		sum := sha256.Sum256([]byte(s))
		return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	}
	script := regexp.MustCompile(`(?s)<script>(.*?)</script>`).FindStringSubmatch(page)
	style := regexp.MustCompile(`(?s)<style>(.*?)</style>`).FindStringSubmatch(page)
	if script == nil || style == nil {
		t.Fatal("the page has no inline script or style")
	}
	for _, want := range []string{"default-src 'none'", "script-src " + hash(script[1]) + ";", "style-src " + hash(style[1]) + ";", "base-uri 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("Content-Security-Policy %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe") {
		t.Errorf("Content-Security-Policy %q allows unsafe sources", csp)
	}
}
