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
		if echoed(name, args) || inToolList(text, m[0]) {
			out.findings = append(out.findings, Finding{Kind: FindingEcho, Strategy: Markers,
				Message: fmt.Sprintf("marker %q repeats the prompt's placeholder; no call extracted", truncate(m[0], 80))})
			continue
		}
		out.calls = append(out.calls, Call{Name: name, Arguments: args})
	}
	return out
}

// FindingEcho notes a marker that only repeats the system prompt's
// description of the format ([TOOL:web_search|query=search terms here],
// [TOOL:name|arg=value]): the model explained the format, it did not call.
const FindingEcho = "echo"

// placeholders are the values the markers prompt uses to describe each
// tool and the format (docs/design/002-executor-parser-strategies.txt).
var placeholders = map[string]bool{
	"search terms here": true, "/path/to/file": true,
	"file content here": true, "shell command here": true, "value": true,
	"value1": true, "value2": true,
}

// inToolList reports whether marker stands in a copy of the prompt's
// "Available tools:" list.
func inToolList(text, marker string) bool {
	list := strings.Index(text, "Available tools:")
	return list >= 0 && strings.Index(text, marker) > list
}

// echoed reports whether a marker is the prompt's placeholder: a
// placeholder tool name, or every value a placeholder.
func echoed(name string, args map[string]any) bool {
	if name == "name" || name == "tool_name" {
		return true
	}
	if len(args) == 0 {
		return false
	}
	for _, v := range args {
		s, _ := v.(string)
		if !placeholders[s] {
			return false
		}
	}
	return true
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
