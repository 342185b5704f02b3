package answer

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"

	"github.com/searchbench/searchbench/lib/memo"

	"golang.org/x/net/idna"
	"golang.org/x/net/publicsuffix"
)

// trackingParams are query parameters that identify a click or campaign
// rather than a page, matched case-insensitively. Parameters starting with
// "utm_" are tracking parameters too.
var trackingParams = map[string]bool{
	"gclid": true, "gclsrc": true, "dclid": true, "gbraid": true, "wbraid": true, // Google Ads
	"fbclid": true, "igshid": true, // Meta
	"msclkid": true,                 // Microsoft Ads
	"mc_cid":  true, "mc_eid": true, // Mailchimp
	"yclid": true, "ysclid": true, // Yandex
	"twclid": true, "ttclid": true, "li_fat_id": true, // X, TikTok, LinkedIn
	"_ga": true, "_gl": true, // Google Analytics cross-domain
	"_hsenc": true, "_hsmi": true, "__hstc": true, "__hssc": true, "__hsfp": true, "hsctatracking": true, // HubSpot
	"mkt_tok":     true,                     // Marketo
	"oly_anon_id": true, "oly_enc_id": true, // Omeda
	"vero_id": true, "vero_conv": true, // Vero
	"rb_clickid": true, "s_cid": true, "srsltid": true, "wickedid": true,
}

// IsTrackingParam reports whether the query parameter name only tracks
// clicks or campaigns (utm_*, gclid, fbclid, msclkid, mc_cid, mc_eid, …).
func IsTrackingParam(name string) bool {
	name = strings.ToLower(name)
	return strings.HasPrefix(name, "utm_") || trackingParams[name]
}

// parseWebURL parses an absolute http or https URL with a host. Space and
// control characters must be percent-encoded (RFC 3986 §2, WHATWG URL's
// "valid URL string"); Go's url.Parse lets a raw space through in a path.
func parseWebURL(rawURL string) (*url.URL, error) {
	if i := strings.IndexFunc(rawURL, func(r rune) bool { return r <= ' ' || r == 0x7f }); i >= 0 {
		return nil, fmt.Errorf("url %q: raw space or control character at byte %d", rawURL, i)
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("url %q: scheme is not http or https", rawURL)
	}
	if u.Hostname() == "" {
		return nil, fmt.Errorf("url %q: no host", rawURL)
	}
	return u, nil
}

// CanonicalURL returns rawURL without its fragment and without tracking
// query parameters (see IsTrackingParam). Everything else, including the
// order and encoding of the other parameters, is kept as written, so a URL
// that needs no change is returned unchanged. A query left empty is dropped
// with its "?". It fails when rawURL is not an absolute http(s) URL.
func CanonicalURL(rawURL string) (canon string, err error) {
	if _, err := parseWebURL(rawURL); err != nil {
		return "", err
	}
	s, _, _ := strings.Cut(rawURL, "#")
	base, query, ok := strings.Cut(s, "?")
	if !ok {
		return s, nil
	}
	var kept []string
	for _, part := range strings.Split(query, "&") {
		key, _, _ := strings.Cut(part, "=")
		if k, err := url.QueryUnescape(key); err == nil {
			key = k
		}
		if !IsTrackingParam(key) {
			kept = append(kept, part)
		}
	}
	if q := strings.Join(kept, "&"); strings.Trim(q, "&") != "" {
		return base + "?" + q, nil
	}
	return base, nil
}

// RegistrableDomain returns the registrable domain (eTLD+1, from the public
// suffix list) of rawURL's host, in ASCII (IDNA A-label) form. The host is
// lower-cased, stripped of port and trailing dot, and converted with IDNA
// first, so "https://WWW.Example.co.uk.:443/x" gives "example.co.uk" and
// "https://bücher.de" gives "xn--bcher-kva.de". It fails for a URL that is
// not absolute http(s), an IP address, or a host that is itself a public
// suffix.
func RegistrableDomain(rawURL string) (string, error) {
	if d, ok := domains.Get(rawURL); ok {
		return d.domain, d.err
	}
	d, err := registrableDomain(rawURL)
	domains.Put(rawURL, domainResult{d, err})
	return d, err
}

func registrableDomain(rawURL string) (string, error) {
	u, err := parseWebURL(rawURL)
	if err != nil {
		return "", err
	}
	return registrableHost(u.Hostname())
}

// domains remembers RegistrableDomain's answers: the contract checks and
// the scorers ask it about the same few sources again and again, and each
// answer costs a URL parse, IDNA and a public-suffix lookup. It is a pure
// function of its argument, so an answer kept is the answer computed.
var domains = memo.New[string, domainResult](4096)

type domainResult struct {
	domain string
	err    error
}

// registrableHost is RegistrableDomain for a bare host name.
func registrableHost(host string) (string, error) {
	ascii, err := normalizeHost(host)
	if err != nil {
		return "", err
	}
	if net.ParseIP(ascii) != nil {
		return "", fmt.Errorf("host %s is an IP address, which has no registrable domain", ascii)
	}
	d, err := publicsuffix.EffectiveTLDPlusOne(ascii)
	if err != nil {
		return "", fmt.Errorf("host %s: %w", ascii, err)
	}
	return d, nil
}

// normalizeHost lower-cases host, drops one trailing dot and converts it to
// its IDNA ASCII form.
func normalizeHost(host string) (string, error) {
	h := strings.TrimSuffix(strings.ToLower(host), ".")
	if h == "" {
		return "", errors.New("empty host")
	}
	if net.ParseIP(h) != nil {
		return h, nil
	}
	ascii, err := idna.Lookup.ToASCII(h)
	if err != nil {
		return "", fmt.Errorf("host %q: %w", host, err)
	}
	return ascii, nil
}
