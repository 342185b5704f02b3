package executor

import (
	"strings"
	"testing"
)

const mb = 1 << 20

// fill repeats unit up to about 1 MB.
func fill(unit string) string { return strings.Repeat(unit, mb/len(unit)+1)[:mb] }

// Each benchmark runs a strategy on 1 MB inputs: one realistic, and ones
// built to provoke rescanning (unterminated JSON, markers without a closing
// bracket, long runs the lazy fuzzy captures must extend over).
//
// All are linear (RE2, bounded guided attempts); fuzzy is the slowest at
// about 2 MB/s, as its five case-insensitive patterns with captures run over
// the whole text.
var benchInputs = []struct{ name, text string }{
	{"steps", fill("Thought: t\nAction: web_search\nAction Input: {\"query\": \"rust\"}\n")},
	{"unterminated", "Action: write\nAction Input: {\"reasoning\": \"" + fill("a{\"") + "\n"},
	{"open-markers", fill("[TOOL:web_search|query=x ")},
	{"search-no-stop", "search for " + fill("word ")},
	{"braces", fill("{\"reasoning\": {\"tool_calls\": ")},
	{"prose", fill("I would search for 'x' and fetch https://a.org then read the file a.md. ")},
}

func benchStrategy(b *testing.B, strategy string) {
	p, err := New(DefaultConfig().Parser)
	if err != nil {
		b.Fatal(err)
	}
	for _, in := range benchInputs {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.text)))
			for b.Loop() {
				if _, err := p.ParseText(strategy, in.text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkGuided1MB(b *testing.B)  { benchStrategy(b, GuidedJSON) }
func BenchmarkReact1MB(b *testing.B)   { benchStrategy(b, ReAct) }
func BenchmarkMarkers1MB(b *testing.B) { benchStrategy(b, Markers) }
func BenchmarkFuzzy1MB(b *testing.B)   { benchStrategy(b, Fuzzy) }
