package search

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/format")

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// seedResults are the three results of seed 001's sample output.
var seedResults = []Result{
	{Title: "7 major AI updates this week - Tom's Guide", URL: "https://www.tomsguide.com/ai/7-major-ai-updates-this-week...",
		Snippet: "Missed the latest AI news? From ChatGPT upgrades to Google's new tools, here are 7 big AI updates you need to know about this week."},
	{Title: "Google News - Artificial intelligence - Latest", URL: "https://news.google.com/topics/CAAqJAgKIh5DQkFTRUFvSEwyMHZNRzFyZWhJRlpXNHRSMElvQUFQAQ",
		Snippet: `Read full articles, watch videos, browse thousands of titles and more on the "Artificial intelligence" topic with Google News.`},
	{Title: "Top 10 Artificial Intelligence Technology Trends in 2025", URL: "https://www.cognitivetoday.com/2025/11/top-10-artificial-intelligence-technology-trends-in-2025/",
		Snippet: "From autonomous agents to quantum computing, the AI trends of 2025 are set to push the boundaries of what's possible..."},
}

// The testdata/seed001 files are copied byte for byte from the code blocks
// of seed 001: they are the contract, not goldens, and -update never
// touches them.
func TestFormatSeed001(t *testing.T) {
	want := readFile(t, "testdata/seed001/results.txt")
	if got := Format("latest AI developments", seedResults, 5); got != want {
		t.Errorf("Format differs from seed 001:\ngot:\n%s\nwant:\n%s", got, want)
	}
}

func TestSystemMessageSeed001(t *testing.T) {
	if got, want := SystemMessage("[FORMATTED SEARCH RESULTS HERE]"), readFile(t, "testdata/seed001/wrapper.txt"); got != want {
		t.Errorf("wrapper differs from seed 001:\ngot:  %q\nwant: %q", got, want)
	}
	block := Format("latest AI developments", []Result{
		{Title: "7 major AI updates this week - Tom's Guide", URL: "https://www.tomsguide.com/...", Snippet: "Missed the latest AI news? From ChatGPT upgrades..."},
		{Title: "Google News - Artificial intelligence - Latest", URL: "https://news.google.com/...", Snippet: "Read full articles, watch videos..."},
	}, 5)
	if got, want := SystemMessage(block), readFile(t, "testdata/seed001/system-message.txt"); got != want {
		t.Errorf("system message differs from seed 001:\ngot:\n%s\nwant:\n%s", got, want)
	}
}

func TestFormatGolden(t *testing.T) {
	long := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 10) // 450 characters
	tests := []struct {
		name    string
		query   string
		results []Result
		max     int
	}{
		{"empty", "zzqx unfindable", nil, 5},
		{"no-url-no-snippet", "q", []Result{{Title: "Only a title"}, {Title: "With snippet", Snippet: "text"}}, 5},
		{"max-caps", "q", []Result{{Title: "a", URL: "https://a.example"}, {Title: "b", URL: "https://b.example"}, {Title: "c", URL: "https://c.example"}}, 2},
		{"default-max", "q", repeatResults(7), 0},
		{"long-snippet", "fox", []Result{{Title: "Fox", URL: "https://fox.example/", Snippet: long}}, 5},
		{"messy-whitespace", "multi\nline  query", []Result{{Title: "  Title\nwith\tbreaks ", URL: " https://x.example/a b ", Snippet: "line one\n\nline two\r\n  line three"}}, 5},
		{"title-fallback", "q", []Result{{URL: "https://www.example.org/page"}, {}}, 5},
		{"unicode", "café ☕", []Result{{Title: "Ünïcødé — “quotes”", URL: "https://例子.测试/", Snippet: strings.Repeat("日本語のテキスト ", 40)}}, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Format(tt.query, tt.results, tt.max)
			path := filepath.Join("testdata", "format", tt.name+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if want := readFile(t, path); got != want {
				t.Errorf("Format differs from %s:\ngot:\n%s\nwant:\n%s", path, got, want)
			}
		})
	}
}

func repeatResults(n int) []Result {
	out := make([]Result, n)
	for i := range out {
		out[i] = Result{Title: "Result " + string(rune('A'+i)), URL: "https://example.com/" + string(rune('a'+i)), Snippet: "Snippet."}
	}
	return out
}

func TestFormatEmpty(t *testing.T) {
	if got, want := Format("nothing", nil, 5), "Web search results for 'nothing':\n\nNo results found."; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestSystemMessageBlocks(t *testing.T) {
	a := Format("a", []Result{{Title: "A", URL: "https://a.example", Snippet: "x"}}, 5)
	b := Format("b", nil, 5)
	got := SystemMessage(a, "", b+"\n")
	want := systemPrefix + a + "\n\n" + b + systemSuffix
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if got := SystemMessage(); got != systemPrefix+NoSearchResults+systemSuffix {
		t.Errorf("no blocks: %q", got)
	}
}

func TestTruncate(t *testing.T) {
	tests := []struct {
		in    string
		limit int
		want  string
	}{
		{"short", 300, "short"},
		{"exactly ten", 11, "exactly ten"},
		{"hello world again", 14, "hello world..."},
		{"hello world, again", 15, "hello world..."},
		{"hello worldwide", 12, "hello..."},
		{"abcdefghijklmnop", 10, "abcdefg..."},  // no space in reach: cut mid-word
		{"a bcdefghijklmnop", 10, "a bcdef..."}, // a space too early keeps too little
		{"héllo wörld ağain", 14, "héllo wörld..."},
		{"abc", 2, ".."},
	}
	for _, tt := range tests {
		got := Truncate(tt.in, tt.limit)
		if got != tt.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", tt.in, tt.limit, got, tt.want)
		}
		if n := utf8.RuneCountInString(got); n > tt.limit {
			t.Errorf("Truncate(%q, %d) has %d runes", tt.in, tt.limit, n)
		}
	}
}

func TestMaxResultsFromEnv(t *testing.T) {
	tests := []struct {
		value string
		want  int
		err   string
	}{
		{"", 5, ""},
		{" 3 ", 3, ""},
		{"20", 20, ""},
		{"0", 0, `WEB_SEARCH_MAX_RESULTS="0": want a whole number from 1 to 20`},
		{"21", 0, `WEB_SEARCH_MAX_RESULTS="21": want a whole number from 1 to 20`},
		{"five", 0, `WEB_SEARCH_MAX_RESULTS="five": want a whole number from 1 to 20`},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			got, err := MaxResultsFromEnv(func(k string) string {
				if k != EnvMaxResults {
					t.Errorf("read %s", k)
				}
				return tt.value
			})
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("err = %v, want %s", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %d, %v; want %d", got, err, tt.want)
			}
		})
	}
}
