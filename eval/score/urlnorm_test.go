package score

import "testing"

// TestSameSourceKey checks the URL comparison against RFC 3986's own
// examples (section 6.2.2: case, percent-encoding and dot segments; 6.2.3:
// scheme-based; 5.4 and 5.2.4 for remove_dot_segments), the tracking
// parameters and fragments the contract drops, and the differences that
// must stay (the issue 27 list).
func TestSameSourceKey(t *testing.T) {
	same := [][2]string{
		// RFC 3986 6.2.2.1: case normalisation.
		{"HTTP://www.Example.com/", "http://www.example.com/"},
		// 6.2.2.1: percent-encoding hex case.
		{"http://example.com/a%3ab", "http://example.com/a%3Ab"},
		// 6.2.2.2: unreserved characters decoded.
		{"http://example.com/%7Euser/", "http://example.com/~user/"},
		{"http://example.com/a%2Db%5Fc%2E", "http://example.com/a-b_c."},
		// 6.2.2.3 with 5.2.4's examples: dot segments.
		{"http://example.com/a/b/c/./../../g", "http://example.com/a/g"},
		{"http://example.com/mid/content=5/../6", "http://example.com/mid/6"},
		// 6.2.3: "all of the following URIs are equivalent".
		{"http://example.com", "http://example.com/"},
		{"http://example.com:/", "http://example.com/"},
		{"http://example.com:80/", "http://example.com/"},
		{"https://example.com:443/x", "https://example.com/x"},
		// The case: a provider wrote the host in capitals.
		{"https://EUR-Lex.europa.eu/eli/reg/2024/1689/oj", "https://eur-lex.europa.eu/eli/reg/2024/1689/oj"},
		// Fragments and tracking parameters (answer.CanonicalURL).
		{"https://go.dev/doc#install", "https://go.dev/doc"},
		{"https://go.dev/doc?utm_source=x&utm_medium=y", "https://go.dev/doc"},
		{"https://go.dev/doc?fbclid=abc&id=3", "https://go.dev/doc?id=3"},
		{"https://go.dev/doc?id=3&gclid=abc", "https://go.dev/doc?id=3"},
	}
	for _, p := range same {
		if a, b := sameSourceKey(p[0]), sameSourceKey(p[1]); a != b {
			t.Errorf("%s and %s differ: %s vs %s", p[0], p[1], a, b)
		}
	}
	different := [][2]string{
		{"https://go.dev/doc", "https://go.dev/doc/"},                // trailing slash
		{"http://go.dev/doc", "https://go.dev/doc"},                  // scheme
		{"https://www.go.dev/doc", "https://go.dev/doc"},             // www.
		{"https://go.dev/doc/a", "https://go.dev/doc/b"},             // path
		{"https://go.dev/Doc", "https://go.dev/doc"},                 // path case is significant
		{"https://go.dev/doc?id=3", "https://go.dev/doc?id=4"},       // query
		{"https://go.dev:8443/doc", "https://go.dev/doc"},            // a port that is not the default
		{"http://example.com/a%2Fb", "http://example.com/a/b"},       // a reserved character stays encoded
		{"https://go.dev/doc?b=2&a=1", "https://go.dev/doc?a=1&b=2"}, // parameter order
	}
	for _, p := range different {
		if a, b := sameSourceKey(p[0]), sameSourceKey(p[1]); a == b {
			t.Errorf("%s and %s compare equal (%s)", p[0], p[1], a)
		}
	}
}

// TestRemoveDotSegments: RFC 3986 section 5.2.4's worked examples.
func TestRemoveDotSegments(t *testing.T) {
	for in, want := range map[string]string{
		"/a/b/c/./../../g":   "/a/g",
		"mid/content=5/../6": "mid/6",
		"/../a":              "/a",
		"/a/..":              "/",
		"/a/.":               "/a/",
		"":                   "",
	} {
		if got := removeDotSegments(in); got != want {
			t.Errorf("removeDotSegments(%q) = %q, want %q", in, got, want)
		}
	}
}
