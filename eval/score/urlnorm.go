package score

import (
	"strings"

	"github.com/searchbench/searchbench/orchestrator/answer"
)

// sameSourceKey is the form in which grounding compares a cited URL with
// the URLs a turn retrieved: the contract's canonical URL (no fragment, no
// tracking parameters: answer.CanonicalURL), then RFC 3986's
// syntax-based and scheme-based normalisation (section 6.2.2 and 6.2.3):
//
//   - scheme and host lower-cased ("HTTP://EUR-Lex.europa.eu" is
//     "http://eur-lex.europa.eu");
//   - the scheme's default port dropped (:80 for http, :443 for https, and
//     an empty port);
//   - an empty path read as "/";
//   - percent-encodings upper-cased ("%3a" is "%3A"), and those of
//     unreserved characters decoded ("%7Euser" is "~user");
//   - dot segments removed (RFC 3986 section 5.2.4).
//
// Nothing else: a trailing slash on a non-empty path, http against https,
// "www." and any other path stay different sources, since seed 000 asks
// for sources as retrieved. A URL that is not absolute http(s) is compared
// as written.
func sameSourceKey(raw string) string {
	s := rfcNormal(raw)
	if c, err := answer.CanonicalURL(s); err == nil {
		s = c
	}
	return s
}

// rfcNormal is RFC 3986's normalisation of raw, without its fragment.
func rfcNormal(s string) string {
	s, _, _ = strings.Cut(s, "#")
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok {
		return s
	}
	scheme = strings.ToLower(scheme)
	authority, pathQuery := rest, ""
	if k := strings.IndexAny(rest, "/?"); k >= 0 {
		authority, pathQuery = rest[:k], rest[k:]
	}
	path, query, hasQuery := strings.Cut(pathQuery, "?")
	userinfo, hostport := "", authority
	if k := strings.LastIndexByte(authority, '@'); k >= 0 {
		userinfo, hostport = authority[:k+1], authority[k+1:]
	}
	host, port := hostport, ""
	if k := strings.LastIndexByte(hostport, ':'); k >= 0 && !strings.Contains(hostport[k:], "]") {
		host, port = hostport[:k], hostport[k+1:]
	}
	host = strings.ToLower(normPercent(host))
	if port == "" || (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		port = ""
	} else {
		port = ":" + port
	}
	path = removeDotSegments(normPercent(path))
	if path == "" {
		path = "/"
	}
	out := scheme + "://" + userinfo + host + port + path
	if hasQuery && query != "" {
		out += "?" + normPercent(query) // an empty query is dropped, as answer.CanonicalURL does
	}
	return out
}

// normPercent upper-cases the hex digits of percent-encodings and decodes
// those of unreserved characters (ALPHA / DIGIT / "-" / "." / "_" / "~").
func normPercent(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			c := unhex(s[i+1])<<4 | unhex(s[i+2])
			if isUnreserved(c) {
				b.WriteByte(c)
			} else {
				b.WriteByte('%')
				b.WriteString(strings.ToUpper(s[i+1 : i+3]))
			}
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

func isUnreserved(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

// removeDotSegments is RFC 3986 section 5.2.4's algorithm.
func removeDotSegments(in string) string {
	var out []string // output segments, each with its leading "/" (or none for the first of a relative path)
	for in != "" {
		switch {
		case strings.HasPrefix(in, "../"):
			in = in[3:]
		case strings.HasPrefix(in, "./"):
			in = in[2:]
		case strings.HasPrefix(in, "/./"):
			in = in[2:]
		case in == "/.":
			in = "/"
		case strings.HasPrefix(in, "/../"):
			in = in[3:]
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		case in == "/..":
			in = "/"
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		case in == "." || in == "..":
			in = ""
		default:
			start := 0
			if in[0] == '/' {
				start = 1
			}
			end := len(in)
			if k := strings.IndexByte(in[start:], '/'); k >= 0 {
				end = start + k
			}
			out = append(out, in[:end])
			in = in[end:]
		}
	}
	return strings.Join(out, "")
}
