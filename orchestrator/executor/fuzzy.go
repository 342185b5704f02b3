package executor

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// fuzzyPatterns are the seed's patterns, verbatim, in the seed's order (the
// seed keeps them in a map; a slice keeps the output order deterministic).
// The seed has no pattern for browser. The capture group is the tool's
// single argument.
var fuzzyPatterns = []struct {
	tool, arg string
	re        *regexp.Regexp
}{
	{ToolWebSearch, "query", regexp.MustCompile(`(?i)(?:search|look up|query|find)\s+(?:for\s+)?["']?(.+?)["']?(?:\s+(?:on|using|via)|[.\n]|$)`)},
	{ToolWebFetch, "url", regexp.MustCompile(`(?i)(?:fetch|retrieve|get|download|open)\s+(?:the\s+)?(?:page|url|site|content)?\s*(?:at|from)?\s*(https?://\S+)`)},
	{ToolRead, "path", regexp.MustCompile(`(?i)(?:read|open|view|check)\s+(?:the\s+)?(?:file|contents?\s+of)\s+["'\x60]?([/\w.\-]+)["'\x60]?`)},
	{ToolWrite, "path", regexp.MustCompile(`(?i)(?:write|save|create|output)\s+(?:to|as|the file)\s+["'\x60]?([/\w.\-]+)["'\x60]?`)},
	{ToolExec, "command", regexp.MustCompile(`(?i)(?:run|execute|exec)\s+(?:the\s+)?(?:command|shell|bash)?\s*["'\x60](.+?)["'\x60]`)},
}

// parseFuzzy extracts natural-language tool intents from text, ordered by
// where they appear. Captures are trimmed of spaces and quotes, URLs and
// paths of trailing sentence punctuation ("see https://x.org." is x.org);
// an intent restated word for word is returned once. A write intent has no
// content (the patterns do not capture any), which Check reports.
//
// The seed's patterns alone turn prose into calls ("confirmed by search
// results" is a search for "results"). So a match counts only with
// evidence that the model means to act (intended), and never in a text
// that is an answer (isAnswer). A call written as a call of a canonical
// tool, web_search("…") or web_fetch(url="…"), is evidence in itself.
func parseFuzzy(text string) parsed {
	if isAnswer(text) {
		return parsed{}
	}
	type hit struct {
		pos, order int
		call       Call
	}
	var hits []hit
	for _, m := range callShapeRe.FindAllStringSubmatchIndex(text, -1) {
		p := pyParser{s: text, i: m[2]}
		if c, err := p.call(); err == nil && len(c.Arguments) > 0 && literalStrings(text, c.Arguments) {
			hits = append(hits, hit{m[2], -1, c})
		}
	}
	code := codeSpans(text)
	for order, p := range fuzzyPatterns {
		for _, m := range p.re.FindAllStringSubmatchIndex(text, -1) {
			if inSpans(code, m[0]) || !intended(text, m[0]) {
				continue
			}
			v := unquote(strings.TrimSpace(text[m[2]:m[3]]))
			v = strings.Trim(v, `"'`+"`")
			if p.arg == "url" || p.arg == "path" {
				v = strings.TrimRight(v, ".,;:!?)]}>'\"`")
			}
			if v == "" || (p.arg == "query" && cutShort(v)) || !realArgument(p.arg, v) {
				continue
			}
			hits = append(hits, hit{m[0], order, Call{Name: p.tool, Arguments: map[string]any{p.arg: v}}})
		}
	}
	slices.SortStableFunc(hits, func(a, b hit) int {
		if a.pos != b.pos {
			return a.pos - b.pos
		}
		return a.order - b.order
	})
	var out parsed
	seen := map[string]bool{}
	for _, h := range hits {
		key := h.call.String()
		if seen[key] {
			continue
		}
		seen[key] = true
		out.calls = append(out.calls, h.call)
	}
	out.matched = len(out.calls) > 0
	out.form = FormFuzzy
	return out
}

// literalStrings reports whether every argument is a non-empty string
// written as it is in text (no escapes, no numbers): the call-shaped span
// stands for the seed's one-string arguments, nothing more.
func literalStrings(text string, args map[string]any) bool {
	for _, v := range args {
		s, ok := v.(string)
		if !ok || s == "" || !strings.Contains(text, s) {
			return false
		}
	}
	return true
}

// callShapeRe finds a canonical tool written as a call: web_search(…).
// The character before it must not make it a method or part of a word.
var callShapeRe = regexp.MustCompile(`(?:^|[\s(]|\x60)((?:web_search|web_fetch|read|write|exec|browser)\s*\()`)

// intentCueRe is a first-person statement of what the model will do,
// ending right before the matched verb: "I would", "we need to", "let me",
// "I'll first", "I will use web_search to". A negation breaks it ("I would
// not", "no need to"), and so does any other word.
var intentCueRe = regexp.MustCompile(`(?i)(?:\b(?:I|we)(?:'d|'ll|\s+(?:would|will|shall|should|must|can|need\s+to|have\s+to|want\s+to|plan\s+to|intend\s+to|am\s+going\s+to|are\s+going\s+to))|\b(?:I'm|we're)\s+going\s+to|\blet\s+me|\blet's|\bI\s+(?:now|then)|\buse\s+(?:the\s+)?(?:web_search|web_fetch|read|write|exec)(?:\s+tool)?\s+to)\s+(?:(?:first|then|now|also|just|quickly|next|again)\s+)*$`)

// imperativeRe is the start of a sentence, so the verb after it is an
// imperative, as reasoning often writes its plan: "Search for X.", "First,
// fetch Y".
var imperativeRe = regexp.MustCompile(`(?i)^[ \t]*(?:[-*][ \t]+|\d+[.)][ \t]+)?(?:(?:first|then|now|next|so)\b,?[ \t]+)*$`)

// intentChainRe continues a sentence whose earlier verb had a cue: "I would
// search for X and then fetch Y".
var intentChainRe = regexp.MustCompile(`(?i)(?:\band|\bthen|,)\s+(?:then\s+)?(?:also\s+)?$`)

// intended reports whether the fuzzy match at pos is stated as an intent:
// its sentence is not a question and the words right before the verb are
// a cue, or continue an earlier cued verb of the same sentence.
func intended(text string, pos int) bool {
	start := sentenceStart(text, pos)
	end := sentenceEnd(text, pos)
	if strings.HasSuffix(strings.TrimSpace(text[pos:end]), "?") {
		return false
	}
	if userConditionRe.MatchString(text[start:end]) {
		// "once you tell me the country, I'll search for its rules": a
		// search promised for later, on the user's answer, is no call now.
		return false
	}
	before := text[start:pos]
	if intentCueRe.MatchString(before) || imperativeRe.MatchString(before) {
		return true
	}
	if !intentChainRe.MatchString(before) {
		return false
	}
	for _, loc := range intentAnyRe.FindAllStringIndex(before, -1) {
		if b := before[:loc[0]]; intentCueRe.MatchString(b) || imperativeRe.MatchString(b) {
			return true
		}
	}
	return false
}

// userConditionRe is a condition on the user's next message: the intent
// beside it waits for the user ("once you tell me", "if you confirm",
// "when you send", "after you choose").
var userConditionRe = regexp.MustCompile(`(?i)\b(?:once|if|when|whenever|after|as\s+soon\s+as|until|unless|before)\s+you\b|\blet\s+me\s+know\b`)

// bareWords are what a fuzzy pattern captures from prose that names no
// argument: articles, pronouns and placeholders ("read the file the user
// gives" captures "the").
var bareWords = map[string]bool{
	"the": true, "a": true, "an": true, "it": true, "its": true, "this": true, "that": true, "these": true,
	"those": true, "them": true, "they": true, "their": true, "his": true, "her": true, "him": true,
	"me": true, "my": true, "you": true, "your": true, "we": true, "our": true, "us": true, "one": true,
	"ones": true, "something": true, "anything": true, "everything": true, "nothing": true, "stuff": true,
	"things": true, "thing": true, "here": true, "there": true, "more": true, "again": true, "some": true,
	"which": true, "what": true, "whatever": true, "same": true, "other": true, "file": true, "files": true,
	"results": true, "result": true, "info": true, "information": true, "details": true, "answer": true,
}

// realArgument reports whether a fuzzy capture is a real argument: a
// query with a word that names something (not only articles, pronouns
// and placeholders, and not opened by a bare pronoun: "its rules" is whose
// rules?), a URL with a host, a path that looks like one, a command.
func realArgument(kind, v string) bool {
	words := strings.Fields(strings.ToLower(v))
	if len(words) == 0 {
		return false
	}
	named := false
	for _, w := range words {
		if !bareWords[strings.Trim(w, ".,;:!?'\"()")] {
			named = true
		}
	}
	switch kind {
	case "query":
		first := strings.Trim(words[0], ".,;:!?'\"()")
		return named && !(len(words) <= 3 && pronounLead[first])
	case "url":
		u, err := url.Parse(v)
		return err == nil && strings.Contains(u.Host, ".")
	case "path":
		return named && (strings.ContainsAny(v, "/.~") || strings.Contains(v, "_"))
	}
	return named
}

// pronounLead opens a capture that refers back to something the text does
// not name ("its rules", "their docs", "that one").
var pronounLead = map[string]bool{"its": true, "their": true, "his": true, "her": true, "it": true,
	"them": true, "this": true, "that": true, "these": true, "those": true, "your": true, "my": true}

// codeSpans returns the byte ranges of fenced code blocks (``` … ```) and
// inline code (`…`): a pattern matched there is the model narrating code
// it shows ("read the file the user uploads"), never an intent.
func codeSpans(text string) [][2]int {
	var spans [][2]int
	for i := 0; i < len(text); {
		k := strings.Index(text[i:], "```")
		if k < 0 {
			break
		}
		start := i + k
		end := strings.Index(text[start+3:], "```")
		if end < 0 {
			spans = append(spans, [2]int{start, len(text)})
			break
		}
		spans = append(spans, [2]int{start, start + 3 + end + 3})
		i = start + 3 + end + 3
	}
	return spans
}

func inSpans(spans [][2]int, pos int) bool {
	for _, s := range spans {
		if pos >= s[0] && pos < s[1] {
			return true
		}
	}
	return false
}

// intentAnyRe finds the verbs of the fuzzy patterns, so intended can check
// whether an earlier one in the sentence had a cue.
var intentAnyRe = regexp.MustCompile(`(?i)\b(?:search|look up|query|find|fetch|retrieve|get|download|open|read|view|check|write|save|create|output|run|execute|exec)\b`)

// sentenceStart is the start of the sentence holding pos: after the last
// line break, or ". ", "! ", "? " before it (a dot inside a URL or a
// version number does not end a sentence).
func sentenceStart(text string, pos int) int {
	start := strings.LastIndexByte(text[:pos], '\n') + 1
	for _, sep := range []string{". ", "! ", "? ", "; "} {
		if k := strings.LastIndex(text[:pos], sep); k >= 0 && k+len(sep) > start {
			start = k + len(sep)
		}
	}
	return start
}

// sentenceEnd is the end of the sentence holding pos (its final
// punctuation included).
func sentenceEnd(text string, pos int) int {
	end := len(text)
	if k := strings.IndexByte(text[pos:], '\n'); k >= 0 {
		end = pos + k
	}
	for _, sep := range []string{". ", "! ", "? ", "; "} {
		if k := strings.Index(text[pos:], sep); k >= 0 && pos+k+1 < end {
			end = pos + k + 1
		}
	}
	return end
}

// answerRe finds the marks of an answer: a ReAct or LlamaIndex "Final
// Answer:" / "Answer:" line, a harmony final message, this assistant's
// Phase 1 and Phase 2 headings and verification line, and its JSON
// envelope.
var answerRe = regexp.MustCompile(`(?im)^[ \t]*(?:[-*>][ \t]+)?(?:\*\*|__)?(?:final[ _]answer|answer)(?:\*\*|__)?[ \t]*:|<\|channel\|>final|^#{1,6}[ \t]*Phase[ \t]+[12]\b|\bPhase[ \t]+1[ \t]+[–-][ \t]+Immediate Answer|\bPhase[ \t]+2[ \t]+[–-][ \t]+Search-Backed Answer|^Verification:[ \t]+Phase 1 answer|"render_markdown"[ \t]*:`)

// isAnswer reports whether text is an answer rather than a step: a final
// answer, a Phase 1 answer or a Phase 2 answer. The fuzzy strategy never
// reads calls into one.
func isAnswer(text string) bool { return answerRe.MatchString(text) }

// cutShort reports a query that stops mid-phrase ("several things: the
// release date, the"): its last word is an article, a preposition or a
// conjunction, or it opens a list with a colon. It is not a query the
// model wrote, but the start of one it never finished.
func cutShort(q string) bool {
	if strings.Contains(q, ": ") {
		return true
	}
	words := strings.Fields(q)
	switch strings.ToLower(strings.Trim(words[len(words)-1], ",;")) {
	case "the", "a", "an", "of", "and", "or", "to", "for", "with", "in", "on", "at", "by", "from":
		return true
	}
	return false
}
