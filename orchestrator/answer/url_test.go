package answer

import (
	"fmt"
	"testing"

	"github.com/searchbench/searchbench/lib/memo"
)

func TestCanonicalURL(t *testing.T) {
	tests := []struct {
		in, want string
		err      bool
	}{
		{in: "https://example.org/a", want: "https://example.org/a"},
		{in: "https://example.org/a?utm_source=x&utm_medium=y", want: "https://example.org/a"},
		{in: "https://example.org/a?id=5&UTM_Campaign=z&fbclid=1", want: "https://example.org/a?id=5"},
		{in: "https://example.org/a?gclid=1&b=2&msclkid=3&mc_cid=4&mc_eid=5", want: "https://example.org/a?b=2"},
		{in: "https://example.org/a#section", want: "https://example.org/a"},
		{in: "https://example.org/a?q=%20x&b#frag", want: "https://example.org/a?q=%20x&b"},
		{in: "https://example.org/a?utm%5Fsource=x", want: "https://example.org/a"},
		{in: "https://example.org/a?", want: "https://example.org/a"},
		{in: "http://EXAMPLE.org:8080/A?B=1", want: "http://EXAMPLE.org:8080/A?B=1"},
		{in: "example.org/a", err: true},
		{in: "ftp://example.org/a", err: true},
		{in: "https:///path", err: true},
		{in: "https://exa mple.org/", err: true},
		// A raw space or control character must be percent-encoded (RFC
		// 3986 §2; WHATWG URL: "valid URL string"); url.Parse lets these by.
		{in: "https://go.dev/doc/devel release", err: true},
		{in: "https://example.org/a?q=a b", err: true},
		{in: "https://example.org/a\tb", err: true},
		{in: " https://example.org/a", err: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := CanonicalURL(tt.in)
			if (err != nil) != tt.err || got != tt.want {
				t.Errorf("CanonicalURL(%q) = %q, %v; want %q, err=%v", tt.in, got, err, tt.want, tt.err)
			}
		})
	}
}

func TestRegistrableDomain(t *testing.T) {
	tests := []struct {
		in, want string
		err      bool
	}{
		{in: "https://www.example.org/a", want: "example.org"},
		{in: "https://WWW.Example.CO.UK.:443/x", want: "example.co.uk"},
		{in: "https://en.wikipedia.org/wiki/Go", want: "wikipedia.org"},
		{in: "https://user.github.io/repo", want: "user.github.io"},
		{in: "https://www.bücher.de/", want: "xn--bcher-kva.de"},
		{in: "https://xn--bcher-kva.de/", want: "xn--bcher-kva.de"},
		{in: "https://127.0.0.1/", err: true},
		{in: "https://[::1]:8080/", err: true},
		{in: "https://co.uk/", err: true},
		{in: "mailto:a@example.org", err: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := RegistrableDomain(tt.in)
			if (err != nil) != tt.err || got != tt.want {
				t.Errorf("RegistrableDomain(%q) = %q, %v; want %q, err=%v", tt.in, got, err, tt.want, tt.err)
			}
		})
	}
}

// TestRegistrableDomainMemo: answers served from the memo are the answers
// computed, errors included, and the memo stays within its bound.
func TestRegistrableDomainMemo(t *testing.T) {
	saved := domains
	t.Cleanup(func() { domains = saved })
	domains = memo.New[string, domainResult](3)
	urls := []string{"https://www.example.org/a", "https://co.uk/", "https://en.wikipedia.org/wiki/Go", "mailto:a@example.org", "https://www.bücher.de/"}
	for round := range 3 {
		for _, u := range urls {
			want, wantErr := registrableDomain(u)
			got, err := RegistrableDomain(u)
			if got != want || fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Errorf("round %d: RegistrableDomain(%q) = %q, %v; computed %q, %v", round, u, got, err, want, wantErr)
			}
			if n := domains.Len(); n > domains.Max() {
				t.Fatalf("memo holds %d answers, bound %d", n, domains.Max())
			}
		}
	}
	domains = memo.New[string, domainResult](8)
	RegistrableDomain(urls[0])
	if r, ok := domains.Get(urls[0]); !ok || r.domain != "example.org" {
		t.Errorf("memo after one call: %+v, %v; want example.org kept", r, ok)
	}
}
