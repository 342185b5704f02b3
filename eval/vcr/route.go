package vcr

import (
	"bytes"
	"net/url"
	"strings"
)

// Service is a service whose base URL may differ between a recording and
// its replay: Cerebras or a vLLM host of one's own, a search API behind a
// proxy. Replay matches a request under a service's base URL on the
// service's name and the endpoint path below the base, never on the host,
// so a recording made against any base URL replays whatever base URL the
// replay's clients are given.
type Service struct {
	Name string // e.g. ChatService, "tavily", "exa"
	Base string // the base URL: scheme, host and path prefix
}

// ChatService names the OpenAI-compatible chat endpoint. Any request whose
// path ends in /chat/completions belongs to it wherever it was sent, so a
// recording made against a vLLM host replays without its base URL even
// when nothing says which base it was recorded with.
const ChatService = "chat"

// chatSuffix is the OpenAI-compatible chat endpoint's path below its base.
const chatSuffix = "/chat/completions"

// service is a Service with its base normalised as route compares it.
type service struct {
	name   string
	prefix string // host (lower case, no userinfo) and path, no trailing slash
}

func services(ss []Service) []service {
	out := make([]service, 0, len(ss))
	for _, s := range ss {
		base := s.Base
		if u, err := url.Parse(base); err == nil {
			base = redactURL(u) // as the requests under it are matched
		}
		if p := locator(base); p != "" {
			out = append(out, service{name: s.Name, prefix: p})
		}
	}
	return out
}

// locator is a URL without its scheme, userinfo, query and fragment, the
// host in lower case and no trailing slash: "api.cerebras.ai/v1". It is ""
// for a URL with no host.
func locator(raw string) string {
	_, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return ""
	}
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		rest = rest[:i]
	}
	host, path, _ := strings.Cut(rest, "/")
	if i := strings.LastIndexByte(host, '@'); i >= 0 {
		host = host[i+1:]
	}
	if host == "" {
		return ""
	}
	path = strings.TrimRight(path, "/")
	if path == "" {
		return strings.ToLower(host)
	}
	return strings.ToLower(host) + "/" + path
}

// route is what replay matches a request's method and URL on: for a URL
// under one of ss's base URLs (the longest that fits), the service's name
// and the path below the base; for any other chat endpoint, ChatService;
// else the URL itself, as recorded.
func route(method, rawURL string, ss []service) string {
	loc := locator(rawURL)
	if loc == "" {
		return method + " " + rawURL
	}
	if name, rest, ok := under(loc, ss); ok {
		return method + " " + name + ":" + rest
	}
	if strings.HasSuffix(loc, chatSuffix) {
		return method + " " + ChatService + ":" + chatSuffix
	}
	return method + " " + rawURL
}

// under finds the service of ss whose base holds loc (a locator), the
// longest that fits, and returns its name and the path below the base ("/"
// for the base itself).
func under(loc string, ss []service) (name, rest string, ok bool) {
	best := -1
	for i, s := range ss {
		if (loc == s.prefix || strings.HasPrefix(loc, s.prefix) && loc[len(s.prefix)] == '/') &&
			(best < 0 || len(s.prefix) > len(ss[best].prefix)) {
			best = i
		}
	}
	if best < 0 {
		return "", "", false
	}
	rest = loc[len(ss[best].prefix):]
	if rest == "" {
		rest = "/"
	}
	return ss[best].name, rest, true
}

// rebase is body with every URL under one of ss's base URLs written as its
// service and path, as route writes a request's URL: "tavily:/search"
// for https://api.tavily.com/search or a gateway's http://127.0.0.1:4000/tavily/search.
// A base URL in a body is the environment's, not the conversation's: it
// reaches a request when the model is shown text that quotes it. Before
// errors named services, a failed search read
// "POST https://api.tavily.com/search: tavily: HTTP 432: …"; that form
// becomes today's "tavily /search: HTTP 432: …", so a cassette recorded
// then, through any gateway whose base is known, matches what a replay now
// sends. body is returned as it is when it holds no such URL.
func rebase(body string, ss []service) string {
	if len(ss) == 0 || !strings.Contains(body, "://") {
		return body
	}
	var b strings.Builder
	last := 0 // body[:last] is written
	for from := 0; ; {
		i := strings.Index(body[from:], "://")
		if i < 0 {
			break
		}
		i += from
		from = i + 3
		start := i
		for start > last && isSchemeByte(body[start-1]) {
			start--
		}
		scheme := strings.ToLower(body[start:i])
		if scheme != "http" && scheme != "https" || !hostFollows(body[i+3:], ss) {
			continue
		}
		end := i + 3
		for end < len(body) && isURLByte(body[end]) {
			end++
		}
		for end > i+3 && strings.IndexByte(":.,;", body[end-1]) >= 0 {
			end-- // the end of a sentence, or the colon after a URL in an error
		}
		name, rest, ok := under(locator(body[start:end]), ss)
		if !ok {
			continue
		}
		// The error text of a call, as it was written before errors named
		// services: "POST <url>: <name>: " or "POST <url>: ".
		if pre := "POST "; start-last >= len(pre) && body[start-len(pre):start] == pre && strings.HasPrefix(body[end:], ": ") {
			b.WriteString(body[last : start-len(pre)])
			b.WriteString(name + " " + rest + ": ")
			end += len(": ")
			if dup := name + ": "; strings.HasPrefix(body[end:], dup) {
				end += len(dup)
			}
		} else {
			b.WriteString(body[last:start])
			b.WriteString(name + ":" + rest)
		}
		last, from = end, end
	}
	if last == 0 {
		return body
	}
	b.WriteString(body[last:])
	return b.String()
}

// quotesBase reports whether body may hold a URL under one of ss's bases:
// rebase's first test, on a live body's bytes, without a copy.
func quotesBase(body []byte, ss []service) bool {
	for from := 0; len(ss) > 0; {
		i := bytes.Index(body[from:], []byte("://"))
		if i < 0 {
			return false
		}
		from += i + 3
		if hostFollows(body[from:], ss) {
			return true
		}
	}
	return false
}

// maxHostPeek bounds what quotesBase reads after "://": userinfo and a
// host.
const maxHostPeek = 512

// hostFollows is a cheap first test: whether s starts with the host of one
// of ss's bases (in any case), after any userinfo.
func hostFollows[T string | []byte](s T, ss []service) bool {
	for i := 0; i < len(s) && i < maxHostPeek; i++ {
		if c := s[i]; c == '@' {
			s = s[i+1:]
			break
		} else if c == '/' || c == '\\' || c == '"' {
			break
		}
	}
	for _, sv := range ss {
		host, _, _ := strings.Cut(sv.prefix, "/")
		if len(s) < len(host) {
			continue
		}
		same := true
		for i := 0; i < len(host) && same; i++ {
			c := s[i]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			same = c == host[i] // prefixes are lower case
		}
		if same {
			return true
		}
	}
	return false
}

func isSchemeByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'
}

// isURLByte reports whether c may continue a URL in running text: not a
// space, a quote, a JSON escape's backslash, or a bracket that closes it.
func isURLByte(c byte) bool {
	return c > ' ' && c < 0x7f && strings.IndexByte("\"'\\<>()[]{}`", c) < 0
}
