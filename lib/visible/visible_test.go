package visible

import (
	"bytes"
	"strings"
	"testing"
)

// hostile is model output that would act on a terminal or a CI log: an OSC
// window title and a clipboard write, a screen clear, a carriage return
// overwriting a line, a NUL, a bell, a right-to-left override, and a
// workflow command.
const hostile = "title\x1b]0;pwned\x07 clip\x1b]52;c;ZXZpbA==\x07 clear\x1b[2J\x1bc over\rwritten nul\x00 bell\x07 " +
	"rlo\u202etxt.exe isolate\u2066x\u2069\n::add-mask::secret\n  ::warning::indented\nok: fine::here"

func TestString(t *testing.T) {
	got := String(hostile)
	want := `title\x1b]0;pwned\x07 clip\x1b]52;c;ZXZpbA==\x07 clear\x1b[2J\x1bc over\x0dwritten nul\x00 bell\x07 ` +
		`rlo\u202etxt.exe isolate\u2066x\u2069` + "\n" + `\x3a:add-mask::secret` + "\n" + `  \x3a:warning::indented` + "\nok: fine::here"
	if got != want {
		t.Errorf("String:\n got %q\nwant %q", got, want)
	}
	for _, plain := range []string{"", "plain text\nwith lines\tand tabs", "über 👍 ١٢٣ עברית", "a::b"} {
		if got := String(plain); got != plain {
			t.Errorf("String(%q) = %q, want it unchanged", plain, got)
		}
	}
	if got := String("bad \xff byte"); got != `bad \xff byte` {
		t.Errorf("invalid UTF-8: %q", got)
	}
}

// TestWriter: the stream is made inert as String makes a string, whatever
// the writes' boundaries, and searchbench's own colours, line erase and
// carriage returns pass.
func TestWriter(t *testing.T) {
	ours := "\x1b[1mbold\x1b[0m \x1b[31mred\x1b[0m \x1b[32m\x1b[1mok\x1b[0m\r\x1b[2K\rbar 3/4\x1b[0K\n"
	in := ours + hostile
	want := ours + strings.ReplaceAll(String(hostile), `\x0d`, "\r")
	for _, size := range []int{1, 2, 3, 5, 7, len(in)} {
		var b bytes.Buffer
		w := NewWriter(&b)
		for i := 0; i < len(in); i += size {
			w.Write([]byte(in[i:min(i+size, len(in))]))
		}
		w.Flush()
		if b.String() != want {
			t.Errorf("writes of %d bytes:\n got %q\nwant %q", size, b.String(), want)
		}
	}
	// A colour searchbench never writes, such as conceal, is escaped.
	var b bytes.Buffer
	w := NewWriter(&b)
	w.Write([]byte("\x1b[8mhidden\x1b[0m"))
	if got := b.String(); got != `\x1b[8mhidden`+"\x1b[0m" {
		t.Errorf("conceal: %q", got)
	}
	// What a write ends with is held, then flushed escaped.
	b.Reset()
	w = NewWriter(&b)
	w.Write([]byte("x\n:"))
	w.Flush()
	if got := b.String(); got != "x\n:" {
		t.Errorf("flushed %q", got)
	}
}
