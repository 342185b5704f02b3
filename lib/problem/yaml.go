package problem

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"

	yaml4 "go.yaml.in/yaml/v4"
)

// YAMLSyntax turns a YAML syntax error from parsing data into a Problem at
// the place the problem is. go.yaml.in/yaml/v3 reports a parser error at the
// start of the enclosing construct, counted from 0 (a flow sequence opened
// on line 23 and broken on line 24 reads "line 22"), so the file is parsed
// again with go.yaml.in/yaml/v4, whose errors carry the problem's own
// line and column and the construct it was in. err is v3's error, used when
// v4 gives no position.
func YAMLSyntax(file string, data []byte, err error) Problem {
	var n yaml4.Node
	var le *yaml4.LoadError
	if e4 := yaml4.Unmarshal(data, &n); errors.As(e4, &le) && le.Mark.Line > 0 {
		msg := "invalid YAML: " + le.Message
		if le.ContextMsg != "" && le.ContextMark.Line > 0 {
			msg += fmt.Sprintf(" (%s started at line %d, column %d)", le.ContextMsg, le.ContextMark.Line, le.ContextMark.Column)
		}
		line, col := le.Mark.Line, le.Mark.Column
		// At the end of input the mark is past the last line; point at
		// the last line itself.
		lines := bytes.Count(data, []byte("\n"))
		if len(data) > 0 && data[len(data)-1] != '\n' {
			lines++
		}
		if line > lines {
			line, col = max(lines, 1), 0
		}
		if ql, qc, ok := unclosedQuote(data, le.ContextMark.Line, line); ok {
			// The parser read a quoted value on to a quote far below and
			// failed there: the problem is where that value opened.
			return Problem{File: file, Line: ql, Col: qc, Msg: fmt.Sprintf("invalid YAML: the quoted value opened here is not closed on its line "+
				"(the parser read on to the quote at line %d, column %d, then: %s)", line, col, le.Message)}
		}
		return Problem{File: file, Line: line, Col: col, Msg: msg}
	}
	line := 0
	if m := yamlLineRE.FindStringSubmatch(err.Error()); m != nil {
		line, _ = strconv.Atoi(m[1])
	}
	return Problem{File: file, Line: line, Msg: "invalid YAML: " + err.Error()}
}

var yamlLineRE = regexp.MustCompile(`line (\d+)`)

// unclosedQuote finds a quoted scalar that opens on a line from `from` to
// before `errLine` (1-based) without closing on it, and whose closing quote
// is on errLine: the value that swallowed the lines between, which is where
// the problem starts. It returns the opening quote's line and column.
func unclosedQuote(data []byte, from, errLine int) (line, col int, ok bool) {
	lines := bytes.Split(data, []byte("\n"))
	from = max(from, 1)
	for l := errLine - 1; l >= from; l-- {
		if l > len(lines) {
			continue
		}
		text := lines[l-1]
		i := quoteStart(text)
		if i < 0 {
			continue
		}
		q := text[i]
		// Where does the value close? Count the lines until its quote.
		rest := data[offset(lines, l)+i+1:]
		end := closingQuote(rest, q)
		if end < 0 {
			return 0, 0, false
		}
		closeLine := l + bytes.Count(rest[:end], []byte("\n"))
		if closeLine == l {
			continue // closed on its own line: not the culprit
		}
		return l, i + 1, closeLine == errLine
	}
	return 0, 0, false
}

// quoteStart is the index of a quote that starts a value on the line (after
// "key: ", "- " or at the start), or -1.
func quoteStart(text []byte) int {
	t := bytes.TrimLeft(text, " ")
	i := len(text) - len(t)
	if bytes.HasPrefix(t, []byte("- ")) {
		t = bytes.TrimLeft(t[2:], " ")
		i = len(text) - len(t)
	}
	if len(t) > 0 && (t[0] == '"' || t[0] == '\'') {
		return i
	}
	if k := bytes.Index(t, []byte(": ")); k > 0 && t[0] != '#' {
		v := bytes.TrimLeft(t[k+2:], " ")
		if len(v) > 0 && (v[0] == '"' || v[0] == '\'') {
			return len(text) - len(v)
		}
	}
	return -1
}

// closingQuote is the index in s of the quote q that closes a scalar
// (backslash escapes in "…", a doubled single quote in single quotes),
// or -1.
func closingQuote(s []byte, q byte) int {
	for i := 0; i < len(s); i++ {
		switch {
		case q == '"' && s[i] == '\\':
			i++
		case s[i] == q && q == '\'' && i+1 < len(s) && s[i+1] == '\'':
			i++
		case s[i] == q:
			return i
		}
	}
	return -1
}

// offset is the byte offset of line l (1-based) in the joined lines.
func offset(lines [][]byte, l int) int {
	n := 0
	for _, t := range lines[:l-1] {
		n += len(t) + 1
	}
	return n
}
