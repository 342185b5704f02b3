package secret

import (
	"io"
	"strings"
	"sync"
)

// Writer scrubs what passes through it. A secret, in any of its encodings,
// is a run of token bytes (letters, digits and -_.+/=%\*), so the Writer
// holds back only the trailing run of token bytes, which may be the start of
// a secret the next write completes, and writes everything before it
// scrubbed. A prompt such as "you> " therefore appears at once. Flush writes
// the rest. It is safe for concurrent use.
type Writer struct {
	mu  sync.Mutex
	w   io.Writer
	s   *Set
	buf []byte
}

// NewWriter returns a Writer that scrubs s's secrets on their way to w. With
// no secrets it still buffers by line, so output ordering is the same either
// way.
func NewWriter(w io.Writer, s *Set) *Writer { return &Writer{w: w, s: s} }

// Write implements io.Writer.
func (x *Writer) Write(p []byte) (int, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.buf = append(x.buf, p...)
	cut := len(x.buf) - 1
	for cut >= 0 && isTokenByte(x.buf[cut]) {
		cut--
	}
	if cut < 0 {
		return len(p), nil
	}
	if _, err := x.w.Write(x.s.Scrub(x.buf[:cut+1])); err != nil {
		return 0, err
	}
	x.buf = append(x.buf[:0], x.buf[cut+1:]...)
	return len(p), nil
}

// Flush writes the held-back partial line.
func (x *Writer) Flush() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if len(x.buf) == 0 {
		return nil
	}
	_, err := x.w.Write(x.s.Scrub(x.buf))
	x.buf = x.buf[:0]
	return err
}

func isTokenByte(c byte) bool { return isKeyByte(c) || strings.IndexByte(`+/=%\\*&#;`, c) >= 0 }
