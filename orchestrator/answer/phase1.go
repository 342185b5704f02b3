package answer

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/searchbench/searchbench/lib/textdiff"
)

// Phase 1 body limits: the seed asks for 1–5 short paragraphs or a compact
// list. The word and item limits put numbers on "short" and "compact"; they
// only warn.
const (
	MaxPhase1Blocks    = 5
	MaxParagraphWords  = 100
	MaxListItems       = 8
	maxBlankAfterTitle = 1
)

var (
	listItem = regexp.MustCompile(`^\s*(?:[-*+•]|\d+[.)])\s+`)
	// A tool is named by its brand or its function name: "exa_search" and
	// "tavily_search" name it too, though \b sees no boundary before "_".
	toolNames = regexp.MustCompile(`(?i)\b(?:tavily|exa)(?:_[a-z0-9_]*)?\b`)
)

// mayNameTool reports whether line holds "tavily" or "exa" in any case,
// which toolNames needs: most lines hold neither, and this is cheaper than
// the expression. ASCII folding is exact here: no letter of the two words
// has a non-ASCII case fold (as "s" has "ſ" and "k" has the Kelvin sign).
func mayNameTool(line string) bool {
	for i := 0; i+3 <= len(line); i++ {
		switch line[i] | 0x20 {
		case 'e':
			if line[i+1]|0x20 == 'x' && line[i+2]|0x20 == 'a' {
				return true
			}
		case 't':
			if i+6 <= len(line) && strings.EqualFold(line[i:i+6], "tavily") {
				return true
			}
		}
	}
	return false
}

// CheckPhase1 checks a Phase 1 message: the header line first, then 1–5
// short paragraphs or a compact list (one blank line after the header is
// allowed), one blank line, and the consent question as the last line (one
// trailing newline allowed). Search tools must not be named.
func CheckPhase1(msg string) []Finding {
	var fs []Finding
	ls := splitLines(msg)
	h := findHeader(ls, Phase1Header, &fs)

	last := len(ls) - 1
	for last > h && isBlank(ls[last].text) {
		last--
	}
	if n := len(ls) - 1 - last; n > 0 && last > h {
		fs = append(fs, finding("layout.blank_lines", lineNo(last+1),
			fmt.Sprintf("%d blank line(s) after the consent question; the message ends with it", n)))
	}

	// The consent question: exact, then look-alike, then sharing a line.
	c, prefix := -1, ""
	for i := last; i > h; i-- {
		if ls[i].bare() == ConsentQuestion {
			c = i
			break
		}
	}
	want := fold(ConsentQuestion)
	for i := last; i > h && c < 0; i-- {
		if fold(ls[i].text) == want {
			c = i
			m := textdiff.CompareNamed("consent question", "got", ConsentQuestion, ls[i].bare())
			f := finding("consent.mismatch", lineNo(i), "consent question differs from the seed's: "+m.String())
			f.Diff = m.Diff
			fs = append(fs, f)
		}
	}
	for i := last; i > h && c < 0; i-- {
		if ft := fold(ls[i].text); strings.Contains(ft, want) {
			c = i
			prefix = ls[i].text
			if j := strings.LastIndex(ls[i].text, "I haven"); j >= 0 {
				prefix = ls[i].text[:j]
			}
			fs = append(fs, finding("consent.mismatch", lineNo(i),
				"the consent question must be on a line of its own, after a blank line; it shares "+quote(ls[i].bare())))
		}
	}
	switch {
	case c < 0:
		fs = append(fs, finding("consent.missing", lineNo(max(last, 0)),
			fmt.Sprintf("Phase 1 must end with the consent question %q", ConsentQuestion)))
	case c < last:
		fs = append(fs, finding("consent.not_last", lineNo(c+1),
			fmt.Sprintf("%d line(s) after the consent question; it must be the last line", last-c)))
	}

	// The body: between the header and the consent question.
	end := last + 1
	if c >= 0 {
		end = c
	}
	body := ls[h+1 : end] // c > h, last ≥ h: end ≥ h+1
	lead := 0
	for lead < len(body) && isBlank(body[lead].text) {
		lead++
	}
	if lead > maxBlankAfterTitle && lead < len(body) {
		fs = append(fs, finding("layout.blank_lines", lineNo(h+1),
			fmt.Sprintf("%d blank lines after the header, at most %d", lead, maxBlankAfterTitle)))
	}
	if c >= 0 && prefix == "" && lead < len(body) {
		trail := 0 // body[lead] is not blank: the count stops there
		for isBlank(body[len(body)-1-trail].text) {
			trail++
		}
		if trail != 1 {
			fs = append(fs, finding("layout.blank_lines", lineNo(c),
				fmt.Sprintf("%d blank line(s) before the consent question, want 1", trail)))
		}
	}
	for i, l := range body {
		if l.text != "" && l.text != "\r" && isBlank(l.text) {
			fs = append(fs, finding("layout.blank_lines", lineNo(h+1+i),
				fmt.Sprintf("blank line contains %s; it must be empty", quote(l.text))))
		}
	}
	fs = append(fs, checkBody(body, h+1, prefix)...)

	for i, l := range ls {
		if !mayNameTool(l.text) {
			continue
		}
		if names := toolNames.FindAllString(l.text, -1); len(names) > 0 {
			fs = append(fs, finding("tools.mentioned", lineNo(i),
				fmt.Sprintf("Phase 1 names %s; say \"search the web\" or \"look it up\" instead", strings.Join(names, ", "))))
		}
	}
	return append(fs, textFindings(ls)...)
}

// checkBody counts the paragraphs and lists of a Phase 1 body. first is
// the message line of body[0]; prefix is answer text sharing the consent
// question's line, if any.
func checkBody(body []line, first int, prefix string) []Finding {
	type block struct {
		start        int
		list         bool
		words, items int
	}
	var blocks []*block
	var cur *block
	add := func(i int, text string) {
		if isBlank(text) {
			cur = nil
			return
		}
		if cur == nil {
			cur = &block{start: i, list: listItem.MatchString(text)}
			blocks = append(blocks, cur)
		}
		cur.words += countWords(text)
		if listItem.MatchString(text) {
			cur.items++
		}
	}
	for i, l := range body {
		add(first+i, l.text)
	}
	if !isBlank(prefix) {
		add(first+len(body), prefix)
	}

	var fs []Finding
	switch n := len(blocks); {
	case n == 0:
		fs = append(fs, finding("body.empty", lineNo(first), "no answer between the header and the consent question"))
	case n > MaxPhase1Blocks:
		fs = append(fs, finding("body.too_long", lineNo(blocks[MaxPhase1Blocks].start),
			fmt.Sprintf("%d paragraphs or lists, at most %d", n, MaxPhase1Blocks)))
	}
	for _, b := range blocks {
		switch {
		case b.list && b.items > MaxListItems:
			fs = append(fs, finding("body.list_long", lineNo(b.start),
				fmt.Sprintf("list of %d items; a compact list has at most %d", b.items, MaxListItems)))
		case !b.list && b.words > MaxParagraphWords:
			fs = append(fs, finding("body.paragraph_long", lineNo(b.start),
				fmt.Sprintf("paragraph of %d words; a short paragraph has at most %d", b.words, MaxParagraphWords)))
		}
	}
	return fs
}
