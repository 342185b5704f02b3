// Package secret is searchbench's one scrubber. A Set holds every secret the
// process knows (API keys and the passwords and key-like query values of base
// URLs) and removes them from bytes before they reach any sink: a cassette, a
// report, a trace file, standard output or standard error.
//
// A secret is found in whatever encoding it was written in. The scrubber
// decodes JSON escapes (\uXXXX, \/) and percent-encoding (%2B) on the fly,
// searches the decoded text, and redacts the original bytes that decoded to
// the secret, so "csk-\u0061bc…" and "tvly%2Bkey%3D" are caught as surely as
// the raw key. A provider-masked key (csk-LEAKC********7890) is partial key
// material too and is redacted when its visible ends match a known secret.
package secret

import (
	"bytes"
	"cmp"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"
)

// Redacted replaces every secret.
const Redacted = "REDACTED"

// MinLen is the shortest value treated as a secret: replacing shorter strings
// wherever they occur would redact ordinary words (vLLM's "EMPTY" key).
const MinLen = 6

// KeyEnv lists the environment variables that hold API keys.
var KeyEnv = []string{"CEREBRAS_API_KEY", "OPENAI_API_KEY", "TAVILY_API_KEY", "EXA_API_KEY"}

// URLEnv lists the environment variables that hold base URLs, whose
// passwords and key-like query values are secrets.
var URLEnv = []string{"SEARCHBENCH_LLM_BASE_URL", "TAVILY_BASE_URL", "EXA_BASE_URL"}

// secretQuery matches query parameter names whose values are credentials.
var secretQuery = []string{"key", "token", "secret", "password", "passwd", "auth", "sig", "signature", "credential"}

// Set is a list of secret values. The zero value and nil hold none. A Set is
// immutable after construction and safe for concurrent use.
type Set struct {
	vals []string // unique, longest first
}

// New returns a Set of the given values; empty and short ones are dropped.
func New(values ...string) *Set {
	s := &Set{}
	for _, v := range values {
		v = strings.TrimSpace(v)
		if len(v) < MinLen || slices.Contains(s.vals, v) {
			continue
		}
		s.vals = append(s.vals, v)
	}
	slices.SortFunc(s.vals, func(a, b string) int {
		return cmp.Or(cmp.Compare(len(b), len(a)), strings.Compare(a, b))
	})
	return s
}

// FromEnv collects every configured secret: the API keys of KeyEnv and the
// URL passwords and credential query values of the base URLs in URLEnv.
func FromEnv(getenv func(string) string) *Set {
	var vals []string
	for _, k := range KeyEnv {
		vals = append(vals, getenv(k))
	}
	for _, k := range URLEnv {
		vals = append(vals, OfURL(getenv(k))...)
	}
	return New(vals...)
}

// OfURL returns the secrets a URL carries: its userinfo password and the
// values of credential-like query parameters (api_key, token, …).
func OfURL(raw string) []string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || raw == "" {
		return nil
	}
	var out []string
	if p, ok := u.User.Password(); ok {
		out = append(out, p)
	}
	for k, vs := range u.Query() {
		if isCredentialName(k) {
			out = append(out, vs...)
		}
	}
	return out
}

// isCredentialName reports whether a query or body field name holds a
// credential (api_key, access_token, …).
func isCredentialName(name string) bool {
	n := strings.ToLower(name)
	for _, w := range secretQuery {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// With returns a Set holding s's values and more.
func (s *Set) With(values ...string) *Set {
	return New(append(slices.Clone(s.Values()), values...)...)
}

// Values returns the secret values, longest first. Callers must not modify it.
func (s *Set) Values() []string {
	if s == nil {
		return nil
	}
	return s.vals
}

// Empty reports whether s holds no secret.
func (s *Set) Empty() bool { return s == nil || len(s.vals) == 0 }

// String redacts s's secrets in v.
func (s *Set) String(v string) string {
	if s.Empty() || v == "" {
		return v
	}
	out := s.Scrub([]byte(v))
	return string(out)
}

// Scrub returns b with every secret redacted, in any of the encodings the
// package comment lists. It returns b itself when nothing was found.
func (s *Set) Scrub(b []byte) []byte {
	if s.Empty() || len(b) == 0 {
		return b
	}
	spans := s.find(b)
	if len(spans) == 0 {
		return b
	}
	var out bytes.Buffer
	out.Grow(len(b))
	last := 0
	for _, sp := range spans {
		out.Write(b[last:sp.lo])
		out.WriteString(Redacted)
		last = sp.hi
	}
	out.Write(b[last:])
	return out.Bytes()
}

// Leaks reports whether b still holds a secret in any encoding.
func (s *Set) Leaks(b []byte) bool {
	return !s.Empty() && len(s.find(b)) > 0
}

type span struct{ lo, hi int }

// find returns the merged, ordered byte ranges of b that hold a secret.
func (s *Set) find(b []byte) []span {
	var spans []span
	// Raw occurrences first: the cheap and common case.
	for _, v := range s.vals {
		spans = appendAll(spans, b, []byte(v), nil)
	}
	// Encoded occurrences: only when b has an escape at all.
	if bytes.IndexByte(b, '\\') >= 0 || bytes.IndexByte(b, '%') >= 0 {
		dec, src := decode(b)
		if len(dec) != len(b) {
			for _, v := range s.vals {
				spans = appendAll(spans, dec, []byte(v), src)
			}
		}
	}
	spans = append(spans, s.masked(b)...)
	return merge(spans)
}

// appendAll appends the ranges where pat occurs in text, mapped back to the
// original bytes through src (nil: text is the original).
func appendAll(spans []span, text, pat []byte, src []int) []span {
	for off := 0; ; {
		i := bytes.Index(text[off:], pat)
		if i < 0 {
			return spans
		}
		lo, hi := off+i, off+i+len(pat)
		if src != nil {
			spans = append(spans, span{src[lo], src[hi]})
		} else {
			spans = append(spans, span{lo, hi})
		}
		off = hi
	}
}

// decode undoes JSON escapes and percent-encoding in one pass. src[i] is the
// offset in b where decoded byte i starts; src[len(dec)] is len(b).
func decode(b []byte) (dec []byte, src []int) {
	dec = make([]byte, 0, len(b))
	src = make([]int, 0, len(b)+1)
	var buf [utf8.UTFMax]byte
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == '\\' && i+6 <= len(b) && b[i+1] == 'u' && isHex4(b[i+2:i+6]):
			r := rune(hex4(b[i+2 : i+6]))
			n := 6
			if r >= 0xD800 && r < 0xDC00 && i+12 <= len(b) && b[i+6] == '\\' && b[i+7] == 'u' && isHex4(b[i+8:i+12]) {
				if lo := rune(hex4(b[i+8 : i+12])); lo >= 0xDC00 && lo < 0xE000 {
					r = (r-0xD800)<<10 + (lo - 0xDC00) + 0x10000
					n = 12
				}
			}
			w := utf8.EncodeRune(buf[:], r)
			for k := 0; k < w; k++ {
				dec = append(dec, buf[k])
				src = append(src, i)
			}
			i += n
		case c == '\\' && i+1 < len(b) && strings.IndexByte(`/"\`, b[i+1]) >= 0:
			dec = append(dec, b[i+1])
			src = append(src, i)
			i += 2
		case c == '%' && i+3 <= len(b) && isHex(b[i+1]) && isHex(b[i+2]):
			dec = append(dec, byte(unhex(b[i+1])<<4|unhex(b[i+2])))
			src = append(src, i)
			i += 3
		default:
			dec = append(dec, c)
			src = append(src, i)
			i++
		}
	}
	src = append(src, len(b))
	return dec, src
}

// masked finds provider-masked keys: a visible prefix and suffix of a known
// secret around a run of at least four '*' (csk-LEAKC********7890).
func (s *Set) masked(b []byte) []span {
	var spans []span
	for off := 0; ; {
		i := bytes.Index(b[off:], []byte("****"))
		if i < 0 {
			return spans
		}
		i += off
		j := i
		for j < len(b) && b[j] == '*' {
			j++
		}
		lo, hi := i, j
		for lo > 0 && isMaskByte(b[lo-1]) {
			lo--
		}
		for hi < len(b) && isMaskByte(b[hi]) {
			hi++
		}
		for hi > j && b[hi-1] == '.' { // the end of a sentence, not of the key
			hi--
		}
		pre, suf := string(b[lo:i]), string(b[j:hi])
		if len(pre)+len(suf) >= 4 {
			for _, v := range s.vals {
				if strings.HasPrefix(v, pre) && strings.HasSuffix(v, suf) && len(pre)+len(suf) < len(v) {
					spans = append(spans, span{lo, hi})
					break
				}
			}
		}
		off = j
	}
}

// isMaskByte reports whether c may be part of the visible ends of a masked key.
func isMaskByte(c byte) bool { return isKeyByte(c) || c == '+' || c == '/' || c == '=' }

func isKeyByte(c byte) bool {
	return c == '-' || c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// merge sorts spans and joins overlapping ones.
func merge(spans []span) []span {
	if len(spans) < 2 {
		return spans
	}
	slices.SortFunc(spans, func(a, b span) int { return cmp.Or(cmp.Compare(a.lo, b.lo), cmp.Compare(b.hi, a.hi)) })
	out := spans[:1]
	for _, sp := range spans[1:] {
		last := &out[len(out)-1]
		if sp.lo <= last.hi {
			last.hi = max(last.hi, sp.hi)
			continue
		}
		out = append(out, sp)
	}
	return out
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func isHex4(b []byte) bool { return isHex(b[0]) && isHex(b[1]) && isHex(b[2]) && isHex(b[3]) }

func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

func hex4(b []byte) uint16 {
	return uint16(unhex(b[0]))<<12 | uint16(unhex(b[1]))<<8 | uint16(unhex(b[2]))<<4 | uint16(unhex(b[3]))
}
