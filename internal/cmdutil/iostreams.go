package cmdutil

import (
	"bytes"
	"io"
	"os"

	"golang.org/x/term"

	"github.com/searchbench/searchbench/lib/secret"
)

// IOStreams are the streams a command reads and writes. Commands never touch
// os.Stdin/os.Stdout directly, so tests run them against buffers.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	// Getenv reads the environment; tests replace it.
	Getenv func(string) string

	stdoutTTY bool
	stderrTTY bool
	// stdoutWidth is the terminal's width in columns (0: not a terminal,
	// or unknown).
	stdoutWidth int
}

// System returns the process's own streams.
func System() *IOStreams {
	width := 0
	if w, _, err := term.GetSize(int(os.Stdout.Fd())); err == nil {
		width = w
	}
	return &IOStreams{
		stdoutWidth: width,
		In:          os.Stdin,
		Out:         os.Stdout,
		ErrOut:      os.Stderr,
		Getenv:      os.Getenv,
		stdoutTTY:   term.IsTerminal(int(os.Stdout.Fd())),
		stderrTTY:   term.IsTerminal(int(os.Stderr.Fd())),
	}
}

// Test returns streams backed by buffers, with an empty environment.
func Test(in string) (*IOStreams, *bytes.Buffer, *bytes.Buffer) {
	out, errOut := &bytes.Buffer{}, &bytes.Buffer{}
	return &IOStreams{
		In:     bytes.NewBufferString(in),
		Out:    out,
		ErrOut: errOut,
		Getenv: func(string) string { return "" },
	}, out, errOut
}

// Secrets returns every secret the environment configures (API keys, base
// URL passwords and credential query values): the one list every sink
// scrubs.
func (s *IOStreams) Secrets() *secret.Set { return secret.FromEnv(s.Getenv) }

// Scrub routes Out and ErrOut through the scrubber, so no secret of the
// environment reaches them in any encoding. It returns the function that
// flushes what the scrubbers hold back; call it before exiting.
func (s *IOStreams) Scrub() (flush func()) {
	set := s.Secrets()
	out, errOut := secret.NewWriter(s.Out, set), secret.NewWriter(s.ErrOut, set)
	s.Out, s.ErrOut = out, errOut
	return func() {
		out.Flush()
		errOut.Flush()
	}
}

// IsStdoutTTY reports whether standard output is a terminal.
func (s *IOStreams) IsStdoutTTY() bool { return s.stdoutTTY }

// StdoutWidth is the width of the terminal stdout is, in columns; 0 when
// it is not a terminal or its size is unknown.
func (s *IOStreams) StdoutWidth() int { return s.stdoutWidth }

// SetStdoutWidth sets what StdoutWidth reports (tests).
func (s *IOStreams) SetStdoutWidth(w int) { s.stdoutWidth = w }

// IsStderrTTY reports whether standard error is a terminal (progress bars go there).
func (s *IOStreams) IsStderrTTY() bool { return s.stderrTTY }

// SetTTY overrides terminal detection, for tests.
func (s *IOStreams) SetTTY(stdout, stderr bool) { s.stdoutTTY, s.stderrTTY = stdout, stderr }

// DefaultWidth is the width of the output in a pipe.
const DefaultWidth = 100

// MinWidth is the narrowest terminal the output fits itself to: below it
// a table has no room for its columns at all.
const MinWidth = 40

// Width is the width a command's output fits: -1 (no limit) with --wide,
// the terminal's own width (at least MinWidth), else DefaultWidth — a pipe
// always gets DefaultWidth, so its output is deterministic.
func (s *IOStreams) Width(wide bool) int {
	switch w := s.stdoutWidth; {
	case wide:
		return -1
	case w > 0:
		return max(w, MinWidth)
	}
	return DefaultWidth
}
