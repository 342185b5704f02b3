package vcr

import (
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
		if p := locator(s.Base); p != "" {
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
	best := -1
	for i, s := range ss {
		if (loc == s.prefix || strings.HasPrefix(loc, s.prefix) && loc[len(s.prefix)] == '/') &&
			(best < 0 || len(s.prefix) > len(ss[best].prefix)) {
			best = i
		}
	}
	if best >= 0 {
		rest := loc[len(ss[best].prefix):]
		if rest == "" {
			rest = "/"
		}
		return method + " " + ss[best].name + ":" + rest
	}
	if strings.HasSuffix(loc, chatSuffix) {
		return method + " " + ChatService + ":" + chatSuffix
	}
	return method + " " + rawURL
}
