package search

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/searchbench/searchbench/orchestrator/httpx"
)

// fromEnv reads a base URL and a key for provider, reporting every problem.
func fromEnv(getenv func(string) string, provider, urlVar, defURL, keyVar string) (string, string, error) {
	var errs []error
	base, err := httpx.BaseURL(urlVar, getenv(urlVar), defURL)
	if err != nil {
		errs = append(errs, err)
	}
	key := strings.TrimSpace(getenv(keyVar))
	if key == "" {
		errs = append(errs, &httpx.MissingKeyError{Provider: provider, Vars: []string{keyVar}})
	}
	return base, key, errors.Join(errs...)
}

// checkConfig validates what New* gets: a usable base URL and a key.
func checkConfig(provider, base, defURL, key, keyVar string) (string, error) {
	base, err := httpx.BaseURL(provider+" base URL", base, defURL)
	if err != nil {
		return "", err
	}
	if key == "" {
		return "", &httpx.MissingKeyError{Provider: provider, Vars: []string{keyVar}}
	}
	return base, nil
}

// policy gives the default policy for a zero one.
func policy(p httpx.Policy) httpx.Policy {
	if p.MaxAttempts == 0 {
		return httpx.DefaultPolicy()
	}
	return p
}

// postJSON posts req and decodes a 2xx body into resp; a body that does
// not decode is an error that still carries the attempts.
// Its errors name the provider and path, never the base URL (see
// httpx.Endpoint): their text is what the model reads of a failed search.
func postJSON(ctx context.Context, c *httpx.Client, ep httpx.Endpoint, h http.Header, req, resp any) ([]httpx.Attempt, error) {
	body, attempts, err := c.Post(ctx, ep, h, req, httpx.ErrorDecoder(ep.Service))
	if err != nil {
		return attempts, err
	}
	if fd, ok := resp.(fastDecoder); ok && fd.decodeFast(body) {
		return attempts, nil
	}
	if err := json.Unmarshal(body, resp); err != nil {
		return attempts, httpx.WithAttemptsAt(ep, attempts, fmt.Errorf("decode %s response (%d bytes): %w", ep.Service, len(body), err))
	}
	return attempts, nil
}

// flexFloat reads a JSON number, a numeric string, or null. Anything else
// reads as 0: these are timing and score fields, not worth failing a
// search over.
type flexFloat float64

func (f *flexFloat) UnmarshalJSON(b []byte) error {
	*f = 0
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if json.Unmarshal(b, &s) != nil {
			return nil
		}
		b = []byte(strings.TrimSpace(s))
	}
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	*f = flexFloat(v)
	return nil
}

// secondsToMS converts, rounded to the microsecond so that 1.67 s reads
// 1670 ms and not 1669.9999999999998.
func secondsToMS(s float64) float64 { return math.Round(s*1e6) / 1e3 }

// quote shows a query in an error, bounded: scrubbed of the client's
// secrets first, so the cut leaves no part of one.
func quote(c *httpx.Client, q string) string {
	q = c.Policy().Secrets.String(q)
	if len(q) > 80 {
		q = strings.ToValidUTF8(q[:80], "") + "…"
	}
	return strconv.Quote(q)
}
