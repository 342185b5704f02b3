package executor

import (
	"fmt"
	"regexp"
	"strings"
)

var (
	// markerRe is the seed's toolRegex, verbatim. A value cannot contain
	// ']': the marker ends at the first one.
	markerRe = regexp.MustCompile(`(?i)\[\s*TOOL\s*:\s*(\w+)\s*\|([^\]]+)\]`)
	// markerDoneRe ends the list of calls.
	markerDoneRe = regexp.MustCompile(`(?i)\[\s*DONE\s*\]`)
	wordRe       = regexp.MustCompile(`^\w+$`)
)

// freeText are the arguments whose values plausibly contain '|'.
var freeText = map[string]bool{"content": true, "command": true}

// parseMarkers extracts every [TOOL:name|arg=value|…] marker of text, in order.
//
// Each |-separated segment is split at its first '=', so values may contain
// '=' (URLs with query strings, code). A segment continues the previous
// value (it was a '|' inside that value) when it has no '=', when its key is
// not a bare word, or when its key is not an argument of the tool and the
// previous value is free text (content, command). Otherwise an unknown key
// stays a separate argument, which Check reports.
func parseMarkers(text string) parsed {
	var out parsed
	out.done = markerDoneRe.MatchString(text)
	out.matched = out.done
	out.form = FormMarkers
	for _, m := range markerRe.FindAllStringSubmatch(text, -1) {
		out.matched = true
		name := m[1]
		spec, known := toolArgs[strings.ReplaceAll(strings.ToLower(name), "-", "_")]
		args := map[string]any{}
		last := ""
		bad := false
		for seg := range strings.SplitSeq(m[2], "|") {
			key, val, hasEq := strings.Cut(seg, "=")
			key = strings.TrimSpace(key)
			isKey := hasEq && wordRe.MatchString(key)
			if isKey && known && !hasArg(spec, strings.ToLower(key)) && freeText[strings.ToLower(last)] {
				isKey = false // "command=ls | grep x=y": the pipe is in the command
			}
			if !isKey {
				if last == "" {
					if strings.TrimSpace(seg) != "" {
						bad = true
					}
					continue
				}
				args[last] = args[last].(string) + "|" + seg
				continue
			}
			args[key] = val
			last = key
		}
		for k, v := range args {
			args[k] = unquote(strings.TrimSpace(v.(string)))
		}
		if bad && len(args) == 0 {
			out.findings = append(out.findings, Finding{Kind: FindingMalformed, Strategy: Markers,
				Message: fmt.Sprintf("marker %q has no arg=value pairs; no call extracted", truncate(m[0], 80))})
			continue
		}
		out.calls = append(out.calls, Call{Name: name, Arguments: args})
	}
	return out
}

// truncate shortens s to at most n bytes for messages, on a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
