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
		return Problem{File: file, Line: line, Col: col, Msg: msg}
	}
	line := 0
	if m := yamlLineRE.FindStringSubmatch(err.Error()); m != nil {
		line, _ = strconv.Atoi(m[1])
	}
	return Problem{File: file, Line: line, Msg: "invalid YAML: " + err.Error()}
}

var yamlLineRE = regexp.MustCompile(`line (\d+)`)
