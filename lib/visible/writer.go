package visible

import (
	"io"
	"slices"
	"sync"
	"unicode/utf8"
)

// Writer makes a stream inert as String makes a string, except for what a
// terminal program of searchbench's own writes: a carriage return, the
// colours of the summary (SGR reset, bold, red, green, default) and the
// progress bar's line erase (EL). Any other escape sequence is shown
// escaped ("\x1b]0;title\x07" as `\x1b]0;title\x07`), so an OSC title or
// clipboard write, a screen clear or a cursor move in model output never
// reaches the terminal. A partial sequence, rune or "::" at the end of a
// write is held until the next one; Flush writes what is held. It is safe
// for concurrent use.
type Writer struct {
	mu        sync.Mutex
	w         io.Writer
	held      []byte
	lineStart bool
}

// NewWriter returns a Writer on w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w, lineStart: true} }

// maxSeq bounds a held escape sequence: a longer one is not searchbench's.
const maxSeq = 16

// Write implements io.Writer.
func (x *Writer) Write(p []byte) (int, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	buf := append(x.held, p...)
	x.held = nil
	out := make([]byte, 0, len(buf)+8)
	i := 0
loop:
	for i < len(buf) {
		c := buf[i]
		if x.lineStart {
			switch {
			case c == ' ' || c == '\t':
				out = append(out, c)
				i++
				continue
			case c == ':' && i+1 == len(buf):
				break loop // "::" may follow
			case c == ':' && buf[i+1] == ':':
				out = append(out, commandLead...)
				i++
				x.lineStart = false
				continue
			}
		}
		switch {
		case c == 0x1b:
			n, complete, ours := sequence(buf[i:])
			if !complete {
				break loop
			}
			if ours {
				out = append(out, buf[i:i+n]...)
				i += n
				continue
			}
			out = append(out, escape(0x1b)...)
			i++
		case c == '\n':
			out = append(out, c)
			i++
			x.lineStart = true
			continue
		case c == '\r' || c == '\t':
			out = append(out, c)
			i++
		case c < 0x20 || c == 0x7f:
			out = append(out, escape(rune(c))...)
			i++
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			if !utf8.FullRune(buf[i:]) {
				break loop
			}
			r, n := utf8.DecodeRune(buf[i:])
			switch {
			case r == utf8.RuneError && n == 1:
				out = append(out, escape(rune(c))...)
			case IsControl(r):
				out = append(out, escape(r)...)
			default:
				out = append(out, buf[i:i+n]...)
			}
			i += n
		}
		x.lineStart = false
	}
	x.held = slices.Clone(buf[i:])
	if len(out) > 0 {
		if _, err := x.w.Write(out); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Flush writes what is held back, escaped.
func (x *Writer) Flush() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if len(x.held) == 0 {
		return nil
	}
	s := String(string(x.held))
	x.held = nil
	_, err := io.WriteString(x.w, s)
	return err
}

// sequence reads the escape sequence b starts with (b[0] is ESC): its
// length, whether it is complete, and whether it is one searchbench writes
// itself: CSI with parameters among ours ending in m (SGR) or K (EL).
func sequence(b []byte) (n int, complete, ours bool) {
	if len(b) < 2 {
		return 1, false, false
	}
	if b[1] != '[' {
		return 1, true, false
	}
	for j := 2; j < len(b); j++ {
		switch c := b[j]; {
		case c >= '0' && c <= '9' || c == ';':
			if j >= maxSeq {
				return 1, true, false
			}
		case c == 'm':
			return j + 1, true, ourParams(string(b[2:j]), "0", "1", "22", "31", "32", "39")
		case c == 'K':
			return j + 1, true, ourParams(string(b[2:j]), "0", "1", "2")
		default:
			return 1, true, false
		}
	}
	return 1, false, false
}

// ourParams reports whether every ;-separated parameter of p is one of ok
// (or empty).
func ourParams(p string, ok ...string) bool {
	start := 0
	for j := 0; j <= len(p); j++ {
		if j == len(p) || p[j] == ';' {
			if q := p[start:j]; q != "" && !slices.Contains(ok, q) {
				return false
			}
			start = j + 1
		}
	}
	return true
}
