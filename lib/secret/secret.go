// Package secret is searchbench's one scrubber. A Set holds every secret the
// process knows (API keys and the passwords and key-like query values of base
// URLs) and removes them from bytes before they reach any sink: a cassette, a
// report, a trace file, standard output or standard error.
//
// A secret is found in whatever encoding it was written in. The scrubber
// decodes JSON escapes (\uXXXX, \/), percent-encoding (%2B) and HTML
// character references (&#99; &#x63; &amp;) on the fly, searches the
// decoded text, and redacts the original bytes that decoded to the secret,
// so "csk-\u0061bc…", "tvly%2Bkey%3D" and "&#99;sk-…" are caught as surely
// as the raw key. A key base64-encoded inside a longer blob (standard or URL
// alphabet, at any of the three byte alignments) or hex-encoded (either
// case) is found too. A provider-masked key (csk-LEAKC********7890) is
// partial key material and is redacted when its visible ends match a known
// secret. A key split into pieces by other bytes ("csk-ab", "cdef…" as two
// JSON strings, a key spaced out or over lines) is found whole across them.
//
// Text is often cut before it reaches a sink (an error excerpt of 200
// characters, a diff line), so what a cut leaves of a secret is redacted as
// surely as the whole: a run of at least FragLen bytes that starts or ends
// a secret, or one of its base64 forms, is secret material wherever it
// occurs. (Runs from a secret's middle are not: "sim-cerebras-key" must not
// redact the host api.cerebras.ai.)
package secret

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"encoding/hex"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/searchbench/searchbench/lib/memo"
)

// Redacted replaces every secret.
const Redacted = "REDACTED"

// MinLen is the shortest value treated as a secret: replacing shorter strings
// wherever they occur would redact ordinary words (vLLM's "EMPTY" key).
const MinLen = 6

// FragLen is the shortest fragment of a secret that is redacted on its own:
// what remains of a key that a cut split. Eight characters of a random key
// are beyond guessing; shorter runs would redact ordinary words.
const FragLen = 8

// KeyEnv lists the environment variables that hold API keys.
var KeyEnv = []string{"CEREBRAS_API_KEY", "OPENAI_API_KEY", "TAVILY_API_KEY", "EXA_API_KEY"}

// URLEnv lists the environment variables that hold base URLs, whose
// passwords and query values are secrets.
var URLEnv = []string{"SEARCHBENCH_LLM_BASE_URL", "TAVILY_BASE_URL", "EXA_BASE_URL"}

// secretQuery matches query parameter names whose values are credentials.
var secretQuery = []string{"key", "token", "secret", "password", "passwd", "auth", "sig", "signature", "credential"}

// Set is a list of secret values. The zero value and nil hold none. A Set is
// immutable after construction and safe for concurrent use.
type Set struct {
	vals []string // unique, longest first
	pats []string // vals and their base64 and hex forms
	// hexes are the hex forms: a run of one is secret material from
	// 2·FragLen characters on (FragLen hex characters are four bytes, as
	// likely a checksum's as a key's).
	hexes map[string]bool
	heads map[string][]string // first FragLen bytes → the patterns they start
	tails map[string][]string // last FragLen bytes → the patterns they end
	bloom []uint64            // bit h(gram) set for every head and tail: a cheap first test
}

// bloomBits is the size of a Set's gram filter (8 KiB).
const bloomBits = 1 << 16 // bloomBit's 16 bits

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
	s.hexes = map[string]bool{}
	for _, v := range s.vals {
		s.pats = append(s.pats, v)
		for _, f := range Base64Forms(v) {
			if !slices.Contains(s.pats, f) {
				s.pats = append(s.pats, f)
			}
		}
		for _, f := range HexForms(v) {
			if !slices.Contains(s.pats, f) {
				s.pats = append(s.pats, f)
				s.hexes[f] = true
			}
		}
	}
	s.heads, s.tails = map[string][]string{}, map[string][]string{}
	s.bloom = make([]uint64, bloomBits/64)
	for _, p := range s.pats {
		if len(p) < FragLen {
			continue
		}
		head, tail := p[:FragLen], p[len(p)-FragLen:]
		s.heads[head] = append(s.heads[head], p)
		s.tails[tail] = append(s.tails[tail], p)
		for _, g := range []string{head, tail} {
			h := bloomBit(gramHash(g))
			s.bloom[h/64] |= 1 << (h % 64)
		}
	}
	return s
}

// Base64Forms returns what a base64 encoding of a longer blob holding v
// always contains, whatever surrounds v: for each of the three byte
// alignments of v in the blob and each alphabet (standard, URL), the
// characters that encode v's bits alone.
func Base64Forms(v string) []string {
	var out []string
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		for a := 0; a < 3; a++ {
			blob := enc.EncodeToString(append(make([]byte, a), v...))
			lo, hi := (8*a+5)/6, 8*(a+len(v))/6 // chars whose 6 bits all come from v
			if hi-lo < FragLen || slices.Contains(out, blob[lo:hi]) {
				continue
			}
			out = append(out, blob[lo:hi])
		}
	}
	return out
}

// HexForms returns v hex-encoded, in lower and in upper case: how a server
// that dumps bytes (a debugging echo, a signature base string) may show a
// key.
func HexForms(v string) []string {
	lo := hex.EncodeToString([]byte(v))
	return []string{lo, strings.ToUpper(lo)}
}

// A gram's hash is a polynomial in hashBase over its bytes, so that the
// scan rolls it along the text a byte at a time.
const hashBase = 16777619

// hashOut is hashBase^FragLen: what the byte leaving the window weighs.
var hashOut = func() uint32 {
	p := uint32(1)
	for range FragLen {
		p *= hashBase
	}
	return p
}()

func gramHash(g string) uint32 {
	h := uint32(0)
	for i := 0; i < len(g); i++ {
		h = h*hashBase + uint32(g[i])
	}
	return h
}

// bloomBit maps a gram hash to a bit of the filter.
func bloomBit(h uint32) uint32 { return (h * 2654435761) >> (32 - 16) }

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

// OfURL returns the secrets a URL carries: its userinfo (user name and
// password) and the value of every query parameter, whatever its name
// (gateways take ?token=, ?sig=, ?code=…). Values shorter than MinLen are
// dropped by New.
func OfURL(raw string) []string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || raw == "" {
		return nil
	}
	var out []string
	if u.User != nil {
		out = append(out, u.User.Username())
		if p, ok := u.User.Password(); ok {
			out = append(out, p)
		}
	}
	q := u.Query()
	keys := slices.Sorted(maps.Keys(q))
	for _, k := range keys {
		out = append(out, q[k]...)
	}
	for _, seg := range strings.Split(u.Path, "/") {
		if KeyLike(seg) {
			out = append(out, seg) // a gateway's /v1/<key>/openai
		}
	}
	return out
}

// KeyLike reports whether a URL path segment looks like a credential, not
// a name: a UUID, or a run of at least 16 letters and digits holding at
// least two of each ("a1b2c3…", "sk-proj-Ab12Cd34Ef56Gh78"). Names such as
// "gpt-oss-120b-deploy", "v1" or "chat" are not: redacting them would
// redact every body that names the model.
func KeyLike(seg string) bool {
	if isUUID(seg) {
		return true
	}
	run, letters, digits := 0, 0, 0
	for i := 0; i <= len(seg); i++ {
		if i < len(seg) && isAlnum(seg[i]) {
			run++
			if seg[i] >= '0' && seg[i] <= '9' {
				digits++
			} else {
				letters++
			}
			continue
		}
		if run >= 16 && letters >= 2 && digits >= 2 {
			return true
		}
		run, letters, digits = 0, 0, 0
	}
	return false
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// isUUID reports whether s is 8-4-4-4-12 hex digits.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch i {
		case 8, 13, 18, 23:
			if s[i] != '-' {
				return false
			}
		default:
			if !isHex(s[i]) {
				return false
			}
		}
	}
	return true
}

// RedactURL is raw with its secrets (OfURL) replaced by Redacted, and its
// userinfo password too: the form a URL is shown and stored in.
func RedactURL(raw string) string {
	return New(OfURL(raw)...).String(raw)
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

// With returns a Set holding s's values and more. A Set costs a few
// hundred allocations to build (its forms, an 8 KiB filter) and every HTTP
// call extends its client's with the call's own keys, the same ones call
// after call: when values adds nothing With returns s itself, and the Sets
// it built last are kept (Sets are immutable, so a kept one is the one New
// would build).
func (s *Set) With(values ...string) *Set {
	var add []string
	for _, v := range values {
		v = strings.TrimSpace(v)
		if len(v) >= MinLen && !slices.Contains(s.Values(), v) && !slices.Contains(add, v) {
			add = append(add, v)
		}
	}
	if len(add) == 0 {
		return s
	}
	k := withKey{s, strings.Join(add, "\x00")}
	if w, ok := withs.Get(k); ok {
		return w
	}
	w := New(append(slices.Clone(s.Values()), add...)...)
	withs.Put(k, w)
	return w
}

// withs holds the Sets With built last.
var withs = memo.New[withKey, *Set](64)

type withKey struct {
	base *Set
	add  string // the values added, joined by NUL
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
	spans := s.findIn(nil, b, nil)
	// Encoded occurrences: only when b has an escape at all.
	dec, src := b, []int(nil)
	if bytes.IndexByte(b, '\\') >= 0 || bytes.IndexByte(b, '%') >= 0 || bytes.IndexByte(b, '&') >= 0 {
		if d, ds := decode(b); len(d) != len(b) {
			dec, src = d, ds
			spans = s.findIn(spans, dec, src)
		}
	}
	spans = append(spans, s.masked(b)...)
	spans = append(spans, s.pieces(dec, src)...)
	return merge(spans)
}

// pieces finds whole secrets split into pieces by what is not a key byte:
// an echo of "csk-abc" and "def12345" as two JSON strings, a key spaced
// out, one split over lines. The text with every other byte dropped is
// searched for whole values only (a fragment could span words by
// chance), and the span from the first piece to the last is redacted. src
// maps text to the original bytes (nil: text is the original).
func (s *Set) pieces(text []byte, src []int) (spans []span) {
	var sq []byte
	var at []int // at[i]: offset in text of squeezed byte i
	for _, v := range s.vals {
		if len(v) < FragLen || bytes.IndexByte(text, v[0]) < 0 {
			continue
		}
		if sq == nil {
			sq, at = make([]byte, 0, len(text)), make([]int, 0, len(text))
			for i, c := range text {
				if isKeyByte(c) {
					sq = append(sq, c)
					at = append(at, i)
				}
			}
		}
		for off := 0; ; {
			i := bytes.Index(sq[off:], []byte(v))
			if i < 0 {
				break
			}
			i += off
			lo, hi := at[i], at[i+len(v)-1]+1
			if src != nil {
				lo, hi = src[lo], src[hi]
			}
			spans = append(spans, span{lo, hi})
			off = i + len(v)
		}
	}
	return spans
}

// findIn appends the ranges of text holding a whole secret shorter than
// FragLen, or a run of at least FragLen bytes that starts or ends a secret
// or one of its base64 forms (a whole one both starts and ends it). Ranges
// are mapped back to the original bytes through src (nil: text is the
// original).
func (s *Set) findIn(spans []span, text []byte, src []int) []span {
	add := func(lo, hi int) {
		if src != nil {
			lo, hi = src[lo], src[hi]
		}
		spans = append(spans, span{lo, hi})
	}
	for _, v := range s.vals {
		if len(v) < FragLen {
			for off := 0; ; {
				i := bytes.Index(text[off:], []byte(v))
				if i < 0 {
					break
				}
				add(off+i, off+i+len(v))
				off += i + len(v)
			}
		}
	}
	if len(text) < FragLen {
		return spans
	}
	h := gramHash(string(text[:FragLen-1]))
	for i := 0; i+FragLen <= len(text); i++ {
		h = h*hashBase + uint32(text[i+FragLen-1])
		if i > 0 {
			h -= hashOut * uint32(text[i-1])
		}
		bit := bloomBit(h)
		if s.bloom[bit/64]&(1<<(bit%64)) == 0 {
			continue
		}
		g := text[i : i+FragLen]
		for _, p := range s.heads[string(g)] { // a secret's start: as far as it goes on
			n := FragLen
			for i+n < len(text) && n < len(p) && text[i+n] == p[n] {
				n++
			}
			if n == len(p) || !s.hexes[p] || n >= 2*FragLen {
				add(i, i+n)
			}
		}
		for _, p := range s.tails[string(g)] { // a secret's end: as far back as it goes
			n := FragLen
			for i+FragLen-n > 0 && n < len(p) && text[i+FragLen-n-1] == p[len(p)-n-1] {
				n++
			}
			if n == len(p) || !s.hexes[p] || n >= 2*FragLen {
				add(i+FragLen-n, i+FragLen)
			}
		}
	}
	return spans
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
		case c == '&':
			r, n := entity(b[i:])
			if n == 0 {
				dec = append(dec, c)
				src = append(src, i)
				i++
				break
			}
			w := utf8.EncodeRune(buf[:], r)
			for k := 0; k < w; k++ {
				dec = append(dec, buf[k])
				src = append(src, i)
			}
			i += n
		default:
			dec = append(dec, c)
			src = append(src, i)
			i++
		}
	}
	src = append(src, len(b))
	return dec, src
}

// entity decodes the HTML character reference b starts with: &#97; &#x61;
// or one of the named references a server escapes with (&amp; &lt; &gt;
// &quot; &apos; &sol;). n is its length, 0 when b starts none.
func entity(b []byte) (r rune, n int) {
	end := bytes.IndexByte(b[:min(len(b), 12)], ';')
	if end < 2 {
		return 0, 0
	}
	name := string(b[1:end])
	switch name {
	case "amp":
		return '&', end + 1
	case "lt":
		return '<', end + 1
	case "gt":
		return '>', end + 1
	case "quot":
		return '"', end + 1
	case "apos":
		return '\'', end + 1
	case "sol":
		return '/', end + 1
	}
	if name[0] != '#' || len(name) < 2 {
		return 0, 0
	}
	base, digits := 10, name[1:]
	if digits[0] == 'x' || digits[0] == 'X' {
		base, digits = 16, digits[1:]
	}
	v, err := strconv.ParseUint(digits, base, 21)
	if err != nil || v > utf8.MaxRune {
		return 0, 0
	}
	return rune(v), end + 1
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
