package vcr

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/pmezard/go-difflib/difflib"
)

const (
	// maxDiffLines bounds a MissError's diff; prompts are long.
	maxDiffLines = 40
	// maxLineLen bounds one diff line. A long changed line (a prompt is one
	// JSON string) is shown around its first difference from its
	// counterpart, not from its start.
	maxLineLen = 160
	// lead is how much unchanged text precedes a clipped difference.
	lead = 40
)

func splitLines(s string) []string {
	return strings.SplitAfter(strings.TrimSuffix(s, "\n"), "\n")
}

// similarity scores two texts by matching lines, 0 (nothing shared) to 1.
func similarity(a, b string) float64 {
	return difflib.NewMatcher(splitLines(a), splitLines(b)).Ratio()
}

// diffText renders the line differences from a to b: removed lines as "- ",
// added as "+ ", one line of context as "  ", "  …" between distant hunks,
// at most maxLines lines. It returns "" when a and b are equal.
func diffText(a, b string, maxLines int) string {
	al, bl := splitLines(a), splitLines(b)
	var out []string
	for gi, g := range difflib.NewMatcher(al, bl).GetGroupedOpCodes(1) {
		if gi > 0 {
			out = append(out, "  …")
		}
		for _, op := range g {
			rem, add := al[op.I1:op.I2], bl[op.J1:op.J2]
			if op.Tag == 'e' {
				for _, l := range rem {
					out = append(out, "  "+clip(l, ""))
				}
				continue
			}
			for k, l := range rem {
				out = append(out, "- "+clip(l, at(add, k)))
			}
			for k, l := range add {
				out = append(out, "+ "+clip(l, at(rem, k)))
			}
		}
	}
	if len(out) > maxLines {
		n := len(out) - maxLines
		out = append(out[:maxLines], fmt.Sprintf("  … %d more diff line(s)", n))
	}
	return strings.Join(out, "\n")
}

func at(lines []string, k int) string {
	if k < len(lines) {
		return lines[k]
	}
	return ""
}

// clip shortens line to about maxLineLen bytes, keeping the part where it
// starts to differ from peer visible.
func clip(line, peer string) string {
	line = strings.TrimSuffix(line, "\n")
	if len(line) <= maxLineLen {
		return line
	}
	p := 0
	for p < len(line) && p < len(peer) && line[p] == peer[p] {
		p++
	}
	start := 0
	if p > lead {
		start = runeStart(line, p-lead)
	}
	end := runeStart(line, min(len(line), start+maxLineLen))
	s := line[start:end]
	if start > 0 {
		s = "…" + s
	}
	if end < len(line) {
		s += "…"
	}
	return s
}

// runeStart moves i back to the start of the UTF-8 sequence holding it.
func runeStart(s string, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}
