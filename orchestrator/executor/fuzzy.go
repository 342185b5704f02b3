package executor

import (
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
func parseFuzzy(text string) parsed {
	type hit struct {
		pos, order int
		call       Call
	}
	var hits []hit
	for order, p := range fuzzyPatterns {
		for _, m := range p.re.FindAllStringSubmatchIndex(text, -1) {
			v := unquote(strings.TrimSpace(text[m[2]:m[3]]))
			v = strings.Trim(v, `"'`+"`")
			if p.arg == "url" || p.arg == "path" {
				v = strings.TrimRight(v, ".,;:!?)]}>'\"`")
			}
			if v == "" {
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
