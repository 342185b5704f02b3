package answer

import (
	"fmt"
	"strings"

	"github.com/searchbench/searchbench/lib/textdiff"
)

// Phase2Report is what CheckPhase2 found in a Phase 2 message.
type Phase2Report struct {
	Findings []Finding
	// Verification is the sentence after "Verification: " as printed
	// (without a trailing CR), or "" when there is no Verification line.
	Verification string
	// Printed is the printed markdown block: what should equal
	// data.render_markdown. When it does not, it is extracted between the
	// blank line after the Verification line and the blank line before the
	// json fence, stray blank lines at either end removed (and reported).
	Printed string
	// Envelope is the decoded JSON, nil when it is missing or not an object.
	Envelope *Envelope
	// MarkdownMatches says Printed equals data.render_markdown byte for byte.
	MarkdownMatches bool
	// CanonicalMatches says render_markdown equals Canonical(Envelope).
	CanonicalMatches bool
	// MarkdownDiff and CanonicalDiff explain the mismatches (nil if none).
	// MarkdownDiff compares data.render_markdown (want) with Printed (got);
	// CanonicalDiff compares Canonical (want) with render_markdown (got).
	MarkdownDiff, CanonicalDiff *textdiff.Mismatch
}

// CheckPhase2 parses a whole Phase 2 message and checks it against the
// layout in the package documentation and the envelope contract. It never
// stops at the first problem: each part is located as robustly as possible
// and every deviation is reported.
func CheckPhase2(msg string) Phase2Report {
	var rep Phase2Report
	var fs []Finding
	ls := splitLines(msg)

	// Header.
	h := findHeader(ls, Phase2Header, &fs)

	// The ```json fence: the first line starting with ``` after the header.
	fence := -1
	for i := h + 1; i < len(ls); i++ {
		if strings.HasPrefix(strings.TrimSpace(ls[i].text), "```") {
			fence = i
			break
		}
	}
	limit := len(ls)
	if fence >= 0 {
		limit = fence
	}

	// Verification line: the first line before the fence that starts with
	// "Verification:" once look-alikes are folded.
	v := -1
	for i := h + 1; i < limit; i++ {
		if strings.HasPrefix(fold(ls[i].text), "verification:") {
			v = i
			break
		}
	}
	if v < 0 {
		fs = append(fs, finding("verification.missing", lineNo(max(h+1, 0)),
			"no \"Verification: <sentence>\" line after the header"))
	} else {
		if h >= 0 && v > h+1 {
			fs = append(fs, finding("layout.stray_text", lineNo(h+1),
				fmt.Sprintf("%d line(s) between the header and the Verification line; it must follow the header directly", v-h-1)))
		}
		rep.Verification = checkVerification(ls[v], v, &fs)
	}

	// The JSON block; its findings follow the printed block's, in message
	// order.
	var raw string
	var fenceFindings []Finding
	var jsonLine int // read only when there is a fence
	if fence < 0 {
		fenceFindings = append(fenceFindings, finding("json.missing", lineNo(len(ls)), "no ```json fenced block with the envelope"))
	} else {
		raw, jsonLine = checkFence(msg, ls, fence, &fenceFindings)
	}

	// The printed block, between the Verification line (or header) and the
	// fence.
	blockStart := 0
	switch {
	case v >= 0:
		blockStart = ls[v].end + 1
	case h >= 0:
		blockStart = ls[h].end + 1
	}
	blockEnd := len(msg)
	if fence >= 0 {
		blockEnd = ls[fence].start
	}
	blockStart = min(blockStart, blockEnd)
	firstBlockLine := strings.Count(msg[:blockStart], "\n")

	var env envelopeResult
	if fence >= 0 {
		env = checkEnvelope([]byte(raw))
		for i, f := range env.findings {
			switch {
			case f.Code == "json.syntax":
				env.findings[i].Location = lineNo(jsonLine + strings.Count(raw[:min(env.syntaxOffset, len(raw))], "\n"))
			case f.Location == "": // the whole envelope
				env.findings[i].Location = lineNo(jsonLine)
			}
		}
	}
	rep.Envelope = env.env
	fs = append(fs, checkPrinted(&rep, msg[blockStart:blockEnd], firstBlockLine, v >= 0, fence >= 0, env.env)...)
	if rep.Envelope != nil {
		rep.CanonicalMatches = env.canonical == nil
		rep.CanonicalDiff = env.canonical
	}
	// Message structure first, then the envelope, then character issues.
	fs = append(fs, fenceFindings...)
	fs = append(fs, env.findings...)
	rep.Findings = append(fs, textFindings(ls)...)
	return rep
}

// findHeader returns the index of the header line, or -1, and reports a
// missing, mismatched or late header. A line equal to header wins; failing
// that, the first line that folds equal to it is taken as a mangled header.
func findHeader(ls []line, header string, fs *[]Finding) int {
	h, exact := -1, false
	for i, l := range ls {
		if l.bare() == header {
			h, exact = i, true
			break
		}
	}
	if h < 0 {
		want := fold(header)
		for i, l := range ls {
			if fold(l.text) == want {
				h = i
				break
			}
		}
	}
	switch {
	case h < 0:
		*fs = append(*fs, finding("header.missing", lineNo(0), fmt.Sprintf("no header line %q", header)))
		return -1
	case !exact:
		m := textdiff.CompareNamed("header", "got", header, ls[h].bare())
		f := finding("header.mismatch", lineNo(h), "header line differs from "+fmt.Sprintf("%q", header)+": "+m.String())
		f.Diff = m.Diff
		*fs = append(*fs, f)
	}
	if h > 0 {
		what := "blank line(s)"
		for _, l := range ls[:h] {
			if !isBlank(l.text) {
				what = "line(s) of text"
				break
			}
		}
		*fs = append(*fs, finding("header.not_first", lineNo(0),
			fmt.Sprintf("%d %s before the header; the message must start with it", h, what)))
	}
	return h
}

// checkVerification checks the Verification line and returns its sentence.
func checkVerification(l line, i int, fs *[]Finding) string {
	text := l.bare()
	sentence, ok := strings.CutPrefix(text, VerificationPrefix)
	if !ok {
		_, sentence, _ = strings.Cut(text, ":")
		sentence = strings.TrimLeft(sentence, " *_")
	}
	for _, s := range Verifications {
		if text == VerificationPrefix+s {
			return sentence
		}
	}
	// Diff against the allowed line closest to what was printed.
	best, bestN := Verifications[0], 0 // n ≥ 0: with no common prefix the first stays
	ft := fold(text)
	for _, s := range Verifications {
		fw := fold(VerificationPrefix + s)
		n := 0
		for n < len(ft) && n < len(fw) && ft[n] == fw[n] {
			n++
		}
		if fw == ft {
			n = len(ft) + 1
		}
		if n > bestN {
			best, bestN = s, n
		}
	}
	m := textdiff.CompareNamed("closest allowed", "got", VerificationPrefix+best, text)
	f := finding("verification.invalid", lineNo(i),
		"the Verification line must be one of the seed's three sentences exactly; closest is "+fmt.Sprintf("%q", best)+": "+m.String())
	f.Diff = m.Diff
	*fs = append(*fs, f)
	return sentence
}

// checkFence checks the ```json fence at line f and its closing fence, and
// returns the JSON between them and the line the JSON starts on.
func checkFence(msg string, ls []line, f int, fs *[]Finding) (raw string, jsonLine int) {
	if got := ls[f].bare(); got != "```json" {
		*fs = append(*fs, finding("json.fence", lineNo(f), fmt.Sprintf("fence line is %s, want \"```json\"", quote(got))))
	}
	start := ls[f].end + 1
	if !ls[f].nl {
		start = ls[f].end
	}
	closing := -1
	for i := f + 1; i < len(ls); i++ {
		if strings.TrimSpace(ls[i].text) == "```" {
			closing = i
			break
		}
	}
	if closing < 0 {
		*fs = append(*fs, finding("json.fence", lineNo(f), "the ```json block is never closed with ```"))
		return msg[start:], f + 1
	}
	if got := ls[closing].bare(); got != "```" {
		*fs = append(*fs, finding("json.fence", lineNo(closing), fmt.Sprintf("closing fence line is %s, want \"```\"", quote(got))))
	}
	if rest := msg[ls[closing].end:]; rest != "" && rest != "\n" {
		*fs = append(*fs, finding("layout.stray_text", lineNo(closing+1),
			fmt.Sprintf("%s after the closing fence; only one newline may follow it", quote(truncateRunes(rest[min(1, len(rest)):], 40)))))
	}
	end := max(ls[closing].start-1, start) // drop the newline before ```
	return msg[start:end], f + 1
}

// checkPrinted compares the printed block with render_markdown. region is
// the text from just after the Verification line (verified) or whatever
// precedes the block, to the fence (fenced) or the end of the message;
// firstLine is region's 0-based line number in the message. Blank lines are
// only counted against the anchors that exist: without a Verification line
// there is no "blank line after it" to miss.
func checkPrinted(rep *Phase2Report, region string, firstLine int, verified, fenced bool, env *Envelope) []Finding {
	rm, known := "", env != nil
	if known {
		rm = env.Data.RenderMarkdown
		if region == "\n"+printedBlock(rm) {
			rep.Printed, rep.MarkdownMatches = rm, true
			return nil
		}
	}

	var fs []Finding
	ls := splitLines(region)
	lead := 0
	for lead < len(ls) && isBlank(ls[lead].text) {
		lead++
	}
	trail := 0
	for trail < len(ls)-lead && isBlank(ls[len(ls)-1-trail].text) {
		trail++
	}
	content := ls[lead : len(ls)-trail]
	for i, l := range ls {
		// A lone CR is reported once for the message as text.carriage_return.
		if l.text != "" && l.text != "\r" && isBlank(l.text) && (i < lead || i >= len(ls)-trail) {
			fs = append(fs, finding("layout.blank_lines", lineNo(firstLine+i),
				fmt.Sprintf("blank line contains %s; it must be empty", quote(l.text))))
		}
	}
	switch {
	case len(content) == 0:
		if verified && fenced && len(ls) != 1 {
			fs = append(fs, finding("layout.blank_lines", lineNo(firstLine),
				fmt.Sprintf("%d blank line(s) between the Verification line and the json fence, want 1", len(ls))))
		}
	default:
		if verified && lead != 1 {
			fs = append(fs, finding("layout.blank_lines", lineNo(firstLine),
				fmt.Sprintf("%d blank line(s) after the Verification line, want 1", lead)))
		}
		if fenced && trail != 1 {
			fs = append(fs, finding("layout.blank_lines", lineNo(firstLine+len(ls)-trail),
				fmt.Sprintf("%d blank line(s) before the json fence, want 1", trail)))
		}
	}

	var texts []string
	for _, l := range content {
		texts = append(texts, l.text)
	}
	printed := strings.Join(texts, "\n")
	if len(content) > 0 {
		// The layout ends the block with a newline whether or not
		// render_markdown has one; take render_markdown's word for it.
		if known && strings.HasSuffix(rm, "\n") || !known && strings.TrimSpace(content[len(content)-1].text) == "Sources:" {
			printed += "\n"
		}
	}
	rep.Printed = printed
	if !known {
		return fs
	}
	rep.MarkdownMatches = printed == rm
	if m := textdiff.CompareNamed("data.render_markdown", "printed", rm, printed); m != nil {
		rep.MarkdownDiff = m
		f := finding("markdown.mismatch", lineNo(firstLine+lead+m.Line-1),
			"printed markdown differs from data.render_markdown (positions within the markdown): "+m.String())
		f.Diff = m.Diff
		fs = append(fs, f)
	}
	if len(fs) == 0 && verified && fenced {
		// Unreachable if the extraction above is right: region differs from
		// the layout, so something must be reported. Kept as a safety net so
		// a layout drift can never pass silently. (Without both anchors a
		// violation has been reported already.)
		fs = append(fs, finding("layout.blank_lines", lineNo(firstLine),
			"the printed block does not follow the layout (blank line, markdown, blank line)"))
	}
	return fs
}

// truncateRunes shortens s to at most n runes for a message.
func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
