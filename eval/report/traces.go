package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/gzip"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/lib/jsonx"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// CaseTrace is the evidence of one case: what the assistant saw and did
// (its session: turns, model requests with reasoning, content and tool
// calls, search calls with what they retrieved, raw and final output), or
// for a parser case the output it parsed and what came out. It is what a
// reader needs to answer "why did this case fail?" without re-running it.
type CaseTrace struct {
	Seq int    `json:"seq"`
	Key string `json:"key"`
	// Session is the conversation of a routing, flows or consent case.
	Session *trace.Session `json:"session,omitempty"`
	// ParserInput is the model output a parser case hands the parser;
	// Parse what the parser extracted from it.
	ParserInput *ParserInput        `json:"parser_input,omitempty"`
	Parse       *score.ParseOutcome `json:"parse,omitempty"`
	// Samples are the sessions of samples 2..N of a case recorded with
	// several samples (the fields above are sample 1's), so a reader sees
	// every draw, not only the first.
	Samples []SampleTrace `json:"samples,omitempty"`
}

// SampleTrace is the evidence of sample k ≥ 2 of a sampled case.
type SampleTrace struct {
	Sample  int            `json:"sample"`
	Session *trace.Session `json:"session,omitempty"`
}

// ParserInput is the raw model message of a parser case.
type ParserInput struct {
	Prompt    string `json:"prompt,omitempty"`
	Reasoning string `json:"reasoning,omitempty"`
	Content   string `json:"content,omitempty"`
}

// TraceOf returns the evidence of the case in, numbered seq.
func TraceOf(seq int, in *score.Input) *CaseTrace {
	t := &CaseTrace{Seq: seq, Key: in.Case.Key(), Session: in.Session, Parse: in.Parse}
	if c := in.Case; c.Kind == dataset.KindParser {
		t.ParserInput = &ParserInput{Prompt: c.Prompt, Reasoning: c.Reasoning, Content: c.Content}
	}
	return t
}

// TracesName is the file of a run's traces, beside its report.json.
const TracesName = "traces.jsonl.gz"

// traceLevel is the traces' compression level: klauspost/compress at 3
// compresses them about 3.5× faster than the standard library's default
// level, to a file about a sixth larger (measured on 10,000 synthetic
// cases: 0.16 s against 0.57 s, 9.0 MB against 7.6 MB of 103 MB).
const traceLevel = 3

// TraceWriter writes the traces of a run as gzip-compressed JSON lines, one
// per case in the report's order. The bytes depend only on the traces: the
// gzip header carries no name and no modification time, so two runs of the
// same inputs write the same file.
type TraceWriter struct {
	gz    *gzip.Writer
	plain io.Writer
	bw    *bufio.Writer
	err   error
}

// NewTraces returns a TraceWriter compressing into w. lines, if not nil,
// wraps the plain-text stream before compression (the secret scrubber); its
// Flush, if it has one, is called by Close.
func NewTraces(w io.Writer, lines func(io.Writer) io.Writer) *TraceWriter {
	gz, _ := gzip.NewWriterLevel(w, traceLevel)
	var plain io.Writer = gz
	if lines != nil {
		plain = lines(gz)
	}
	return &TraceWriter{gz: gz, plain: plain, bw: bufio.NewWriterSize(plain, 64<<10)}
}

// Begin implements Writer.
func (t *TraceWriter) Begin(Meta) error { return nil }

// Case implements Writer: it writes r's trace, or a line with only its seq
// and key when the case left none.
func (t *TraceWriter) Case(r *CaseRecord) error {
	if r.traceLine != nil {
		return t.line(r.traceLine)
	}
	return t.Write(r.traceOrID())
}

// Write adds one trace line.
func (t *TraceWriter) Write(tr *CaseTrace) error {
	if t.err != nil {
		return t.err
	}
	b, err := jsonx.Marshal(tr)
	if err != nil {
		t.err = fmt.Errorf("trace of case %s: %w", tr.Key, err)
		return t.err
	}
	return t.line(b)
}

func (t *TraceWriter) line(b []byte) error {
	if t.err != nil {
		return t.err
	}
	t.bw.Write(b)
	_, t.err = t.bw.WriteString("\n")
	return t.err
}

// End implements Writer: it closes the stream.
func (t *TraceWriter) End(Summary) error { return t.Close() }

// Close flushes the lines and ends the gzip stream.
func (t *TraceWriter) Close() error {
	if t.err != nil {
		return t.err
	}
	if t.err = t.bw.Flush(); t.err != nil {
		return t.err
	}
	if f, ok := t.plain.(interface{ Flush() error }); ok && t.plain != io.Writer(t.gz) {
		if t.err = f.Flush(); t.err != nil {
			return t.err
		}
	}
	t.err = t.gz.Close()
	return t.err
}

// TraceReader reads a traces file line by line, in case order.
type TraceReader struct {
	name string
	gz   *gzip.Reader
	sc   *bufio.Scanner
	line int
}

// NewTraceReader starts reading the gzip-compressed traces in r; name
// identifies them in errors.
func NewTraceReader(name string, r io.Reader) (*TraceReader, error) {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	sc := bufio.NewScanner(gz)
	sc.Buffer(make([]byte, 64<<10), 256<<20)
	return &TraceReader{name: name, gz: gz, sc: sc}, nil
}

// Next returns the next trace, its line as written (raw), or io.EOF after
// the last.
func (r *TraceReader) Next() (*CaseTrace, []byte, error) {
	if !r.sc.Scan() {
		if err := r.sc.Err(); err != nil {
			return nil, nil, fmt.Errorf("%s: line %d: %w", r.name, r.line+1, err)
		}
		return nil, nil, io.EOF
	}
	r.line++
	raw := r.sc.Bytes()
	var t CaseTrace
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, nil, fmt.Errorf("%s: line %d: %w", r.name, r.line, err)
	}
	return &t, raw, nil
}

// Check reads the next line and checks that it is the trace of rec, the
// next case of the report: the traces must belong to that report. Only
// the line's seq and key are decoded.
func (r *TraceReader) Check(rec *CaseRecord) error {
	if !r.sc.Scan() {
		if err := r.sc.Err(); err != nil {
			return fmt.Errorf("%s: line %d: %w", r.name, r.line+1, err)
		}
		return fmt.Errorf("%s ends before case %s: the traces belong to another run", r.name, rec.Key)
	}
	r.line++
	id, err := traceID(r.sc.Bytes())
	if err != nil {
		return fmt.Errorf("%s: line %d: %w", r.name, r.line, err)
	}
	if id.Key != rec.Key || id.Seq != rec.Seq {
		return fmt.Errorf("%s: line %d holds case %s (seq %d), the report's next case is %s (seq %d): the traces belong to another run",
			r.name, r.line, id.Key, id.Seq, rec.Key, rec.Seq)
	}
	return nil
}

type traceKey struct {
	Seq int    `json:"seq"`
	Key string `json:"key"`
}

// traceID decodes the seq and key of a trace line. A line as TraceWriter
// writes it opens with them, and only they are read; any other line is
// decoded whole.
func traceID(line []byte) (traceKey, error) {
	var id traceKey
	dec := json.NewDecoder(bytes.NewReader(line))
	if t, err := dec.Token(); err == nil && t == json.Delim('{') {
		if t, err := dec.Token(); err == nil && t == "seq" && dec.Decode(&id.Seq) == nil {
			if t, err := dec.Token(); err == nil && t == "key" && dec.Decode(&id.Key) == nil {
				return id, nil
			}
		}
	}
	id = traceKey{}
	err := json.Unmarshal(line, &id)
	return id, err
}

// Done checks that no trace is left after the report's last case.
func (r *TraceReader) Done() error {
	if _, _, err := r.Next(); !errors.Is(err, io.EOF) {
		if err == nil {
			err = fmt.Errorf("%s has more lines than the report has cases: the traces belong to another run", r.name)
		}
		return err
	}
	return nil
}

// MergeTraces joins the traces of shards (each in seq order, as a shard
// run writes them) into one traces file in seq order, the order of the
// merged report. The lines are copied as written. It streams: one line per
// shard is held at a time.
func MergeTraces(names []string, rs []io.Reader, w io.Writer) error {
	type cursor struct {
		r    *TraceReader
		seq  int
		line []byte
		done bool
	}
	var cs []*cursor
	next := func(c *cursor) error {
		t, raw, err := c.r.Next()
		if errors.Is(err, io.EOF) {
			c.done = true
			return nil
		}
		if err != nil {
			return err
		}
		if c.line != nil && t.Seq <= c.seq {
			return fmt.Errorf("%s: line %d: case %s (seq %d) after seq %d: not in case order", c.r.name, c.r.line, t.Key, t.Seq, c.seq)
		}
		c.seq, c.line = t.Seq, append(c.line[:0], raw...)
		return nil
	}
	for i, r := range rs {
		tr, err := NewTraceReader(names[i], r)
		if err != nil {
			return err
		}
		c := &cursor{r: tr}
		if err := next(c); err != nil {
			return err
		}
		cs = append(cs, c)
	}
	out := NewTraces(w, nil)
	for {
		var min *cursor
		for _, c := range cs {
			if !c.done && (min == nil || c.seq < min.seq) {
				min = c
			}
		}
		if min == nil {
			return out.Close()
		}
		out.bw.Write(min.line)
		if _, err := out.bw.WriteString("\n"); err != nil {
			return err
		}
		if err := next(min); err != nil {
			return err
		}
	}
}
