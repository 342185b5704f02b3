package search

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzDecodeTavily checks the tolerant decoders never panic and that
// Results keeps one entry per hit.
func FuzzDecodeTavily(f *testing.F) {
	addWire(f, "tavily-search.json", "tavily-search-news.json")
	f.Add([]byte(`{"results":[{"title":"t","url":"u","content":"c","score":"0.5"}],"images":["a",{"url":"b"}],"response_time":"1.2"}`))
	f.Add([]byte(`{"query":"q","answer":null,"results":[null,{"Title":"T","score":1e2,"published_date":"2024"}],"usage":{"credits":1},"request_id":"r","response_time":1.67}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		var r TavilyResponse
		checkFast(t, body, &r, &TavilyResponse{})
		r = TavilyResponse{}
		if json.Unmarshal(body, &r) != nil {
			return
		}
		if len(r.Results()) != len(r.Hits) {
			t.Fatal("Results lost hits")
		}
		_ = r.LatencyMS()
	})
}

// FuzzDecodeExa is FuzzDecodeTavily for Exa.
func FuzzDecodeExa(f *testing.F) {
	addWire(f, "exa-search.json")
	f.Add([]byte(`{"results":[{"title":null,"url":"https://x.example/","highlights":["a","b"],"score":null}],"searchTime":"3"}`))
	f.Add([]byte(`{"requestId":"x","resolvedSearchType":"neural","results":[{"id":"1","url":"u","title":"t","publishedDate":"2023-11-16T01:36:32.547Z","author":"","score":0.5,"text":"x","highlightScores":[1],"summary":"s"}],"searchTime":312.5,"costDollars":{"total":0.007}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		var r ExaResponse
		checkFast(t, body, &r, &ExaResponse{})
		r = ExaResponse{}
		if json.Unmarshal(body, &r) != nil {
			return
		}
		if len(r.Results()) != len(r.Hits) {
			t.Fatal("Results lost hits")
		}
	})
}

// FuzzFormat checks the seed-001 layout holds for any input: the header,
// one numbered item per shown result, snippets within SnippetLimit, and no
// stray line breaks.
func FuzzFormat(f *testing.F) {
	f.Add("latest AI developments", "7 major AI updates", "https://www.tomsguide.com/ai", "Missed the latest AI news?", 5, 3)
	f.Add("q\n", "", "", strings.Repeat("word ", 100), 0, 1)
	f.Fuzz(func(t *testing.T, query, title, url, snippet string, max, n int) {
		n = n % 30
		if n < 0 {
			n = -n
		}
		results := make([]Result, n)
		for i := range results {
			results[i] = Result{Title: title, URL: url, Snippet: snippet}
		}
		got := Format(query, results, max)
		if !strings.HasPrefix(got, "Web search results for '") {
			t.Fatalf("bad header: %q", got)
		}
		blocks := strings.Split(got, "\n\n")
		if n == 0 {
			if len(blocks) != 2 || blocks[1] != NoResults {
				t.Fatalf("empty list printed %q", got)
			}
			return
		}
		shown := max
		if shown <= 0 {
			shown = DefaultMaxResults
		}
		shown = min(shown, n)
		if len(blocks) != shown+1 {
			t.Fatalf("%d blocks for %d results: %q", len(blocks)-1, shown, got)
		}
		for _, b := range blocks[1:] {
			lines := strings.Split(b, "\n")
			if len(lines) > 3 {
				t.Fatalf("item has %d lines: %q", len(lines), b)
			}
			for _, l := range lines[1:] {
				if !strings.HasPrefix(l, "   ") {
					t.Fatalf("continuation line not indented: %q", l)
				}
				if !strings.HasPrefix(l, "   URL: ") && utf8.RuneCountInString(l)-3 > SnippetLimit {
					t.Fatalf("snippet too long: %d runes", utf8.RuneCountInString(l)-3)
				}
			}
		}
		if sm := SystemMessage(got); !strings.HasPrefix(sm, systemPrefix+got) || !strings.HasSuffix(sm, systemSuffix) {
			t.Fatal("SystemMessage does not wrap the block")
		}
	})
}

// checkFast checks that where the fast path decodes body into fast, the
// general path (json.Unmarshal into slow) succeeds with the same value.
func checkFast[T any, P interface {
	*T
	fastDecoder
}](t *testing.T, body []byte, fast, slow P) {
	t.Helper()
	if !fast.decodeFast(body) {
		return
	}
	if err := json.Unmarshal(body, slow); err != nil {
		t.Fatalf("fast path decoded %q, general path failed: %v", body, err)
	}
	if !reflect.DeepEqual(*fast, *slow) {
		t.Fatalf("fast and general paths differ on %q:\n%#v\n%#v", body, *fast, *slow)
	}
}

// addWire seeds f with the documented responses in testdata/wire.
func addWire(f *testing.F, names ...string) {
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join("testdata", "wire", n))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// oneLineReference is oneLine as first written, from the standard library:
// the one-pass version must agree with it.
func oneLineReference(s string) string {
	s = strings.ToValidUTF8(s, "")
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }), " ")
}

func FuzzOneLine(f *testing.F) {
	for _, s := range []string{
		"", " ", "a", "a b", " a", "a ", "a  b", "a\tb", "a\nb\r\n", "a\u00a0b", "a\u0085b", "x\x7fy",
		"caf\xc3\xa9 au lait", "bad\xffbyte", "bad \xff byte", "\xed\xa0\x80surrogate", "\ufffd kept",
		"\u2028line\u2029sep", "trailing\x00", strings.Repeat("plain words ", 20),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := oneLine(s), oneLineReference(s); got != want {
			t.Fatalf("oneLine(%q) = %q, want %q", s, got, want)
		}
	})
}
