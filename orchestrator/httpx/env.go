package httpx

import (
	"fmt"
	"net/url"
	"strings"
	"time"
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
	if u.Fragment != "" || strings.Contains(value, "#") {
		// Nothing after # is sent, and the paths appended to a base would
		// land in its fragment: every request would go to the base itself.
		shown := u.Redacted()
		if u.Fragment == "" {
			shown += "#" // an empty fragment is not rendered
		}
		u.Fragment, u.RawFragment = "", ""
		return "", fmt.Errorf("%s=%q: a base URL cannot have a #fragment (nothing after # is sent, so every "+
			"request path would be lost in it); use %s", name, shown, strings.TrimRight(u.Redacted(), "/"))
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

// Environment variables that bound live calls (Go durations: "90s", "5m").
const (
	EnvAttemptTimeout = "SEARCHBENCH_ATTEMPT_TIMEOUT"
	EnvCallTimeout    = "SEARCHBENCH_CALL_TIMEOUT"
)

// PolicyFromEnv returns p with the attempt and call timeouts the environment
// sets; "0" turns a bound off. Errors name the variable.
func PolicyFromEnv(getenv func(string) string, p Policy) (Policy, error) {
	for _, v := range []struct {
		name string
		dst  *time.Duration
	}{{EnvAttemptTimeout, &p.AttemptTimeout}, {EnvCallTimeout, &p.CallTimeout}} {
		s := strings.TrimSpace(getenv(v.name))
		if s == "" {
			continue
		}
		d, err := time.ParseDuration(s)
		if s == "0" {
			d, err = 0, nil
		}
		if err != nil || d < 0 {
			return p, fmt.Errorf("%s=%q: want a duration such as 90s or 5m (0: no limit)", v.name, s)
		}
		*v.dst = d
	}
	return p, nil
}
