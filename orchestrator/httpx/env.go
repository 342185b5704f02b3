package httpx

import (
	"fmt"
	"net/url"
	"strings"
)

// BaseURL checks a base URL taken from the environment variable name (or a
// config field of that name): empty gives def; otherwise it must be an
// absolute http(s) URL. The result has no trailing slash. Errors name the
// variable but show the value without any password.
func BaseURL(name, value, def string) (string, error) {
	value = strings.TrimSpace(value)
	if value == "" {
		value = def
	}
	u, err := url.Parse(value)
	if err != nil {
		return "", fmt.Errorf("%s: not a URL", name)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%s=%q: want an absolute http or https URL", name, u.Redacted())
	}
	return strings.TrimRight(value, "/"), nil
}

// JoinURL appends path to a base URL's path, keeping the base's query
// string (a gateway's ?api_key=…) after it rather than gluing the path onto
// the query.
func JoinURL(base, path string) string {
	b, q, ok := strings.Cut(base, "?")
	if !ok {
		return base + path
	}
	return b + path + "?" + q
}
