// Package problem reports what is wrong with an input file — a dataset, a
// gates file, a fixture — with every problem's file:line:col, all at once,
// so one run shows everything to fix.
package problem

import (
	"fmt"
	"strings"
)

// Problem is one thing wrong in a file.
type Problem struct {
	File string
	Line int    // 1-based; 0 when the problem is about the whole file
	Col  int    // 1-based; 0 when unknown
	Case string // the case or entry id, when the problem is inside one
	Msg  string
}

// String formats the problem as file:line:col: case "id": message.
func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d", p.Line)
		if p.Col > 0 {
			fmt.Fprintf(&b, ":%d", p.Col)
		}
	}
	b.WriteString(": ")
	if p.Case != "" {
		fmt.Fprintf(&b, "case %q: ", p.Case)
	}
	b.WriteString(p.Msg)
	return b.String()
}

// List is an error holding every problem found in some input.
type List struct {
	// What names the input in the message: "datasets", "the gates file".
	What string
	// Hint, when set, follows it: "fix them before running".
	Hint     string
	Problems []Problem
}

func (l *List) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d problem", len(l.Problems))
	if len(l.Problems) != 1 {
		b.WriteString("s")
	}
	b.WriteString(" in " + l.What)
	if l.Hint != "" {
		b.WriteString(" (" + l.Hint + ")")
	}
	b.WriteString(":")
	for _, p := range l.Problems {
		b.WriteString("\n  ")
		b.WriteString(p.String())
	}
	return b.String()
}
