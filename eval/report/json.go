package report

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/searchbench/searchbench/lib/jsonx"
)

// JSONWriter writes the complete report as one JSON document:
//
//	{
//	"meta": {…},
//	"cases": [
//	{…},
//	{…}
//	],
//	"summary": {…},
//	"gate": {…}
//	}
//
// with one case per line ("gate" only in a gated report), so a baseline checked into git diffs case by case.
// The bytes depend only on the records: fields in struct order, map keys
// sorted, no HTML escaping, floats in Go's shortest round-trip form.
type JSONWriter struct {
	w    *bufio.Writer
	n    int
	gate *Gate
	err  error
}

// SetGate implements GateSetter: End writes g as the "gate" section.
func (j *JSONWriter) SetGate(g *Gate) { j.gate = g }

// NewJSON returns a JSONWriter writing to w, in 64 KiB writes: a run's
// report.json is about 2.6 KB a case, and bufio's default 4 KiB made a
// write call for nearly every case.
func NewJSON(w io.Writer) *JSONWriter { return &JSONWriter{w: bufio.NewWriterSize(w, 64<<10)} }

// Begin implements Writer.
func (j *JSONWriter) Begin(m Meta) error {
	j.write("{\n\"meta\": ", m, ",\n\"cases\": [")
	return j.err
}

// Case implements Writer.
func (j *JSONWriter) Case(r *CaseRecord) error {
	sep := ",\n"
	if j.n == 0 {
		sep = "\n"
	}
	j.n++
	if r.line != nil {
		j.raw(sep, r.line)
	} else {
		j.write(sep, r, "")
	}
	if j.err != nil {
		return fmt.Errorf("case %s: %w", r.Key, j.err)
	}
	return nil
}

// End implements Writer.
func (j *JSONWriter) End(s Summary) error {
	if j.gate != nil {
		j.write("\n],\n\"summary\": ", s, ",\n")
		j.write("\"gate\": ", j.gate, "\n}\n")
	} else {
		j.write("\n],\n\"summary\": ", s, "\n}\n")
	}
	if j.err == nil {
		j.err = j.w.Flush()
	}
	return j.err
}

func (j *JSONWriter) write(before string, v any, after string) {
	if j.err != nil {
		return
	}
	b, err := jsonx.Marshal(v)
	if err != nil {
		j.err = err
		return
	}
	j.raw(before, b)
	_, j.err = j.w.WriteString(after)
}

func (j *JSONWriter) raw(before string, b []byte) {
	if j.err != nil {
		return
	}
	j.w.WriteString(before)
	_, j.err = j.w.Write(b)
}

// Scanner reads a JSON report as a stream: the meta first, then one case at
// a time, then the summary, so a report of any size is read in constant
// memory.
//
//	sc, err := report.NewScanner(r)
//	… sc.Meta() …
//	for sc.Next() { rec := sc.Case() … }
//	if err := sc.Err(); err != nil { … }
//	sum := sc.Summary()
type Scanner struct {
	name    string
	dec     *jsontext.Decoder
	meta    Meta
	rec     *CaseRecord
	summary *Summary
	gate    *Gate
	err     error
	done    bool
	closer  io.Closer // closed by close, when the scanner owns its reader
}

func (s *Scanner) close() {
	if s.closer != nil {
		s.closer.Close()
	}
}

// NewScanner starts reading a report from r and reads its meta. name
// identifies the report in errors (a file name).
func NewScanner(name string, r io.Reader) (*Scanner, error) {
	s := &Scanner{name: name, dec: jsontext.NewDecoder(r, v1)}
	if err := s.delim('{'); err != nil {
		return nil, err
	}
	if err := s.key("meta"); err != nil {
		return nil, err
	}
	if err := s.decode(&s.meta); err != nil {
		return nil, s.errorf("meta: %w", err)
	}
	if s.meta.SchemaVersion != SchemaVersion {
		return nil, s.errorf("schema_version %d, want %d (written by another searchbench version?)", s.meta.SchemaVersion, SchemaVersion)
	}
	if err := s.key("cases"); err != nil {
		return nil, err
	}
	if err := s.delim('['); err != nil {
		return nil, err
	}
	return s, nil
}

// Meta returns the report's meta.
func (s *Scanner) Meta() Meta { return s.meta }

// Next reads the next case. It returns false after the last case, having
// read the summary, or on an error (see Err).
func (s *Scanner) Next() bool {
	if s.done || s.err != nil {
		return false
	}
	if k := s.dec.PeekKind(); k != ']' && k != 0 {
		var r CaseRecord
		if err := s.decode(&r); err != nil {
			s.err = s.errorf("case after %s: %w", s.lastKey(), err)
			return false
		}
		s.rec = &r
		return true
	}
	s.done, s.rec = true, nil
	if err := s.delim(']'); err != nil {
		s.err = err
		return false
	}
	if err := s.key("summary"); err != nil {
		s.err = err
		return false
	}
	var sum Summary
	if err := s.decode(&sum); err != nil {
		s.err = s.errorf("summary: %w", err)
		return false
	}
	// An optional "gate" section, then the end.
	tok, err := s.dec.ReadToken()
	if err != nil {
		s.err = s.errorf("want %q or key \"gate\": %w", '}', err)
		return false
	}
	if tok.Kind() == '"' && tok.String() == "gate" {
		var g Gate
		if err := s.decode(&g); err != nil {
			s.err = s.errorf("gate: %w", err)
			return false
		}
		s.gate = &g
		if err := s.delim('}'); err != nil {
			s.err = err
			return false
		}
	} else if tok.Kind() != '}' {
		s.err = s.errorf("want %q, got %v", '}', tok)
		return false
	}
	if _, err := s.dec.ReadToken(); err != io.EOF {
		s.err = s.errorf("data after the end of the report")
		return false
	}
	s.summary = &sum
	return false
}

// Case returns the case read by the last successful Next.
func (s *Scanner) Case() *CaseRecord { return s.rec }

// Summary returns the report's summary once Next has returned false
// without an error; nil before.
func (s *Scanner) Summary() *Summary { return s.summary }

// Gate returns the report's verdict once Next has returned false without
// an error; nil for an ungated report.
func (s *Scanner) Gate() *Gate { return s.gate }

// Err returns the first error met while reading.
func (s *Scanner) Err() error { return s.err }

func (s *Scanner) lastKey() string {
	if s.rec == nil {
		return "the start of the cases"
	}
	return "case " + s.rec.Key
}

func (s *Scanner) errorf(format string, args ...any) error {
	return fmt.Errorf("%s: byte %d: %w", s.name, s.dec.InputOffset(), fmt.Errorf(format, args...))
}

func (s *Scanner) delim(d jsontext.Kind) error {
	tok, err := s.dec.ReadToken()
	if err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return s.errorf("want %q: %w", string(rune(d)), err)
	}
	if tok.Kind() != d {
		return s.errorf("want %q, got %v", string(rune(d)), tok)
	}
	return nil
}

// v1 are encoding/json's semantics (names matched without regard to case,
// duplicate names and invalid UTF-8 accepted) for the JSON v2 experiment's
// decoder, which reads a report about twice as fast (10,000 cases: 0.37 s
// against 0.17 s).
var v1 = jsonv1.DefaultOptionsV1()

func (s *Scanner) decode(v any) error { return jsonv2.UnmarshalDecode(s.dec, v, v1) }

func (s *Scanner) key(k string) error {
	tok, err := s.dec.ReadToken()
	if err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return s.errorf("want key %q: %w", k, err)
	}
	if tok.Kind() != '"' || tok.String() != k {
		return s.errorf("want key %q, got %v (not a searchbench report?)", k, tok)
	}
	return nil
}

// Report is a whole report in memory. Use it for small reports and tests;
// tools that must scale use a Scanner.
type Report struct {
	Meta    Meta
	Cases   []*CaseRecord
	Summary Summary
	Gate    *Gate // nil for an ungated report
}

// ReadAll reads a whole report.
func ReadAll(name string, r io.Reader) (*Report, error) {
	sc, err := NewScanner(name, r)
	if err != nil {
		return nil, err
	}
	rep := &Report{Meta: sc.Meta()}
	for sc.Next() {
		rep.Cases = append(rep.Cases, sc.Case())
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	rep.Summary = *sc.Summary()
	rep.Gate = sc.Gate()
	return rep, nil
}

// Write writes rep through w, handing rep.Gate to w first when it takes one.
func Write(w Writer, rep *Report) error {
	if s, ok := w.(GateSetter); ok {
		s.SetGate(rep.Gate)
	}
	if err := w.Begin(rep.Meta); err != nil {
		return err
	}
	for _, c := range rep.Cases {
		if err := w.Case(c); err != nil {
			return err
		}
	}
	return w.End(rep.Summary)
}
