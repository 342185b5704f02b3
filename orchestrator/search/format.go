package search

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Result is one search hit, the same for Tavily and Exa.
type Result struct {
	Title     string
	URL       string
	Snippet   string // Tavily content; Exa highlights, else text, else summary
	Published string // as the provider wrote it; may be empty
	Score     float64
}

// Limits of the seed-001 format.
const (
	// DefaultMaxResults is how many results Format shows when
	// WEB_SEARCH_MAX_RESULTS is unset.
	DefaultMaxResults = 5
	// MaxMaxResults caps WEB_SEARCH_MAX_RESULTS: Tavily returns at most 20.
	MaxMaxResults = 20
	// SnippetLimit is the most characters (runes) of a snippet shown,
	// the ellipsis of a cut snippet included.
	SnippetLimit = 300
	// EnvMaxResults names the variable MaxResultsFromEnv reads.
	EnvMaxResults = "WEB_SEARCH_MAX_RESULTS"
)

// NoResults is the line Format prints when a search found nothing, so the
// model is told so instead of seeing an empty list.
const NoResults = "No results found."

// Wrapper of the always-on system message, byte-exact from seed 001.
const (
	systemPrefix = "Web search was performed to get current and relevant information. Here are the search results:\n\n"
	systemSuffix = "\n\nUse this information to provide an accurate, up-to-date answer to the user's question. If the search results don't contain relevant information for the question, you can still answer based on your knowledge."
)

// NoSearchResults stands in for the blocks when SystemMessage gets none.
const NoSearchResults = "No web search results were returned."

// Format renders results in the seed-001 format:
//
//	Web search results for '<query>':
//
//	1. <title>
//	   URL: <url>
//	   <snippet>
//
//	2. ...
//
// At most max results are shown (max <= 0: DefaultMaxResults), numbered
// from 1, with no trailing newline. Whitespace runs in the query, titles
// and snippets become single spaces so each item keeps its three lines. A
// result without URL has no URL line and one without snippet no snippet
// line; a space inside a URL is written %20; a missing title falls back
// to the URL's host, else "(untitled)". Snippets longer than SnippetLimit are cut on a word boundary and end in
// "...". No results at all print NoResults under the header.
func Format(query string, results []Result, max int) string {
	if max <= 0 {
		max = DefaultMaxResults
	}
	var b strings.Builder
	b.WriteString("Web search results for '" + oneLine(query) + "':\n\n")
	if len(results) == 0 {
		b.WriteString(NoResults)
		return b.String()
	}
	for i, r := range results[:min(max, len(results))] {
		if i > 0 {
			b.WriteString("\n\n")
		}
		sh := Shown(r)
		b.WriteString(strconv.Itoa(i+1) + ". " + sh.Title)
		if sh.URL != "" {
			b.WriteString("\n   URL: " + sh.URL)
		}
		if sh.Snippet != "" {
			b.WriteString("\n   " + sh.Snippet)
		}
	}
	return b.String()
}

// Shown returns r as Format shows it to the model: title, URL and snippet
// on one line each, the title falling back to the URL's host and then to
// "(untitled)", a space in the URL written %20, the snippet cut to
// SnippetLimit. Published and Score are kept as they are.
func Shown(r Result) Result {
	title := oneLine(r.Title)
	u := strings.Join(strings.Fields(r.URL), "%20") // keeps the URL valid and on its line
	if title == "" {
		title = host(u)
	}
	if title == "" {
		title = "(untitled)"
	}
	return Result{Title: title, URL: u, Snippet: Truncate(oneLine(r.Snippet), SnippetLimit), Published: r.Published, Score: r.Score}
}

// SystemMessage wraps formatted result blocks (one per search, joined by a
// blank line) in the always-on system message of seed 001. With no
// non-empty block it says NoSearchResults.
func SystemMessage(blocks ...string) string {
	kept := make([]string, 0, len(blocks))
	for _, bl := range blocks {
		if bl = strings.TrimRight(bl, "\n"); strings.TrimSpace(bl) != "" {
			kept = append(kept, bl)
		}
	}
	body := strings.Join(kept, "\n\n")
	if body == "" {
		body = NoSearchResults
	}
	return systemPrefix + body + systemSuffix
}

// Truncate cuts s to at most limit runes, "..." included: at the last
// space of the first limit-3 runes when that keeps at least half of them,
// else mid-word, without trailing spaces or ",;:" before the "...".
func Truncate(s string, limit int) string {
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	if limit <= 3 {
		return strings.Repeat(".", max(limit, 0))
	}
	keep := limit - 3
	end := len(s)
	n := 0
	for i := range s {
		if n == keep {
			end = i
			break
		}
		n++
	}
	cut := s[:end]
	// Word boundary: the next rune after the cut is a space, or go back to
	// the last space.
	if next, _ := utf8.DecodeRuneInString(s[end:]); !unicode.IsSpace(next) {
		if sp := strings.LastIndexFunc(cut, unicode.IsSpace); sp >= 0 && utf8.RuneCountInString(cut[:sp]) >= keep/2 {
			cut = cut[:sp]
		}
	}
	cut = strings.TrimRightFunc(cut, func(r rune) bool { return unicode.IsSpace(r) || r == ',' || r == ';' || r == ':' })
	return cut + "..."
}

// MaxResultsFromEnv reads WEB_SEARCH_MAX_RESULTS through getenv: unset or
// blank gives DefaultMaxResults; otherwise a whole number from 1 to
// MaxMaxResults.
func MaxResultsFromEnv(getenv func(string) string) (int, error) {
	v := strings.TrimSpace(getenv(EnvMaxResults))
	if v == "" {
		return DefaultMaxResults, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > MaxMaxResults {
		return 0, fmt.Errorf("%s=%q: want a whole number from 1 to %d", EnvMaxResults, v, MaxMaxResults)
	}
	return n, nil
}

// oneLine collapses whitespace runs (newlines included) to single spaces
// and drops invalid UTF-8 and control characters: the fields of
// strings.ToValidUTF8(s, "") split at spaces and control characters,
// joined by one space. A string already on one line, as most titles are,
// is returned as it is; any other is built in one pass.
func oneLine(s string) string {
	if isOneLine(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	gap := false // a separator since the last field byte written
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1: // invalid UTF-8: dropped
		case unicode.IsSpace(r) || unicode.IsControl(r):
			gap = true
		default:
			if gap && b.Len() > 0 {
				b.WriteByte(' ')
			}
			gap = false
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// isOneLine reports whether oneLine(s) is s: printable ASCII, single
// spaces between words, none at either end.
func isOneLine(s string) bool {
	space := true // at the start, a space would be leading
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ':
			if space {
				return false
			}
			space = true
		case c < 0x20 || c >= 0x7f:
			return false
		default:
			space = false
		}
	}
	return !space || s == ""
}

// host is the host of a URL, without "www.", or "" when it has none.
func host(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return strings.TrimPrefix(u.Hostname(), "www.")
}
