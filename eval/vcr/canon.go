package vcr

import (
	"bytes"
	"encoding/binary"
	"slices"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/searchbench/searchbench/lib/jsonx"
)

// CanonicalBody returns the form of a request body that matching compares:
// for a JSON body, compact JSON with object keys sorted (by their decoded
// bytes) at every depth, numbers kept as written, strings decoded and
// re-escaped the way encoding/json writes them without HTML escaping, the
// top-level fields named in drop removed, and every SecretFields key removed
// at any depth. A repeated key keeps its last value. Any other body (empty,
// not JSON, not valid UTF-8, nested deeper than 10000, or JSON followed by
// more data) is returned unchanged and compared byte for byte.
//
// CanonicalBody is idempotent, so a body recorded in canonical form compares
// equal to itself as a string. Its output equals decoding with
// encoding/json (UseNumber) and encoding without HTML escaping, which the
// tests check by differential fuzzing; it is written out by hand because
// it runs on every live request and is several times faster.
func CanonicalBody(body []byte, drop ...string) []byte {
	return canonical(body, drop, nil)
}

// canonical is CanonicalBody that also hands every string value of a dropped
// secret field to secret, so the recorder can scrub that value wherever else
// it appears (a server echoing the key, for instance).
func canonical(body []byte, drop []string, secret func(string)) []byte {
	c := canonicalizers.Get().(*canonicalizer)
	defer canonicalizers.Put(c)
	out, ok := c.run(body, drop, secret)
	if !ok {
		return body
	}
	return bytes.Clone(out)
}

// canonicalString is the canonical form of body as a string: what replay
// compares. It is body itself when body is canonical already, as a
// recorded body usually is.
func canonicalString(body string, drop []string) string {
	c := canonicalizers.Get().(*canonicalizer)
	defer canonicalizers.Put(c)
	c.src = append(c.src[:0], body...) // the parser reads bytes
	out, ok := c.run(c.src, drop, nil)
	if !ok || string(out) == body {
		return body
	}
	return string(out)
}

// canonicalLive is canonicalString for a live request body, which the
// replayer owns: it is parsed where it is, without a copy.
func canonicalLive(body []byte, drop []string) string {
	c := canonicalizers.Get().(*canonicalizer)
	defer canonicalizers.Put(c)
	return string(c.live(body, drop))
}

// live is the canonical form of a live request body (body itself when it
// is not canonicalised), through the memo of nested values. The result is
// valid until c's next run or until body changes.
func (c *canonicalizer) live(body []byte, drop []string) []byte {
	c.memo = liveMemo
	out, ok := c.run(body, drop, nil)
	c.memo = nil
	if !ok {
		return body
	}
	return out
}

// canonicalizers keeps parsers with their buffers between requests: a long
// conversation is canonicalised on every model request.
var canonicalizers = sync.Pool{New: func() any { return new(canonicalizer) }}

// run canonicalises body into c.out, reusing c's buffers. It reports false
// when body is not canonicalised (see CanonicalBody). c.out is valid until
// the next run.
func (c *canonicalizer) run(body []byte, drop []string, secret func(string)) ([]byte, bool) {
	if !maybeJSON(body) || !utf8.Valid(body) {
		return nil, false
	}
	*c = canonicalizer{in: body, drop: drop, secret: secret, memo: c.memo,
		out: c.out[:0], members: c.members[:0], keys: c.keys[:0], tmp: c.tmp[:0], str: c.str[:0], src: c.src}
	c.ws()
	if !c.value() {
		return nil, false
	}
	c.ws()
	if c.pos != len(c.in) {
		return nil, false
	}
	return c.out, true
}

// maybeJSON is a cheap filter that keeps form posts and plain text away from
// the parser.
func maybeJSON(body []byte) bool {
	b := bytes.TrimLeft(body, " \t\r\n")
	if len(b) == 0 {
		return false
	}
	switch c := b[0]; {
	case c == '{', c == '[', c == '"', c == '-', c >= '0' && c <= '9', c == 't', c == 'f', c == 'n':
		return true
	}
	return false
}

// maxDepth is encoding/json's nesting limit.
const maxDepth = 10000

// canonicalizer parses JSON from in and writes its canonical form to out in
// one pass; an object's members are written as they come and reordered
// only when they arrive unsorted.
type canonicalizer struct {
	in     []byte
	pos    int
	out    []byte
	depth  int
	drop   []string
	secret func(string)
	memo   *subMemo // canonical forms of nested values seen before, or nil

	members []member // open objects' members, innermost last
	keys    []byte   // decoded keys of members
	tmp     []byte   // scratch for reordering
	str     []byte   // decoded value of a secret field
	src     []byte   // canonicalString's copy of its input
}

// member is one written object member: its decoded key in keys[k0:k1], and
// `"key":value` in out[start:end].
type member struct{ k0, k1, start, end int }

func (c *canonicalizer) ws() {
	for c.pos < len(c.in) {
		switch c.in[c.pos] {
		case ' ', '\t', '\n', '\r':
			c.pos++
		default:
			return
		}
	}
}

func (c *canonicalizer) value() bool {
	if c.pos >= len(c.in) {
		return false
	}
	switch b := c.in[c.pos]; {
	case b == '{':
		if handled, ok := c.memoValue(c.object); handled {
			return ok
		}
		return c.object()
	case b == '[':
		if handled, ok := c.memoValue(c.array); handled {
			return ok
		}
		return c.array()
	case b == '"':
		return c.string(nil)
	case b == '-' || b >= '0' && b <= '9':
		return c.number()
	case b == 't':
		return c.literal("true")
	case b == 'f':
		return c.literal("false")
	case b == 'n':
		return c.literal("null")
	}
	return false
}

func (c *canonicalizer) literal(lit string) bool {
	if !bytes.HasPrefix(c.in[c.pos:], []byte(lit)) {
		return false
	}
	c.out = append(c.out, lit...)
	c.pos += len(lit)
	return true
}

// number copies a number as written after checking JSON's grammar:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (c *canonicalizer) number() bool {
	in, i := c.in, c.pos
	digits := func() bool {
		j := i
		for i < len(in) && in[i] >= '0' && in[i] <= '9' {
			i++
		}
		return i > j
	}
	if i < len(in) && in[i] == '-' {
		i++
	}
	switch {
	case i < len(in) && in[i] == '0':
		i++
	case !digits():
		return false
	}
	if i < len(in) && in[i] == '.' {
		i++
		if !digits() {
			return false
		}
	}
	if i < len(in) && (in[i] == 'e' || in[i] == 'E') {
		i++
		if i < len(in) && (in[i] == '+' || in[i] == '-') {
			i++
		}
		if !digits() {
			return false
		}
	}
	c.out = append(c.out, in[c.pos:i]...)
	c.pos = i
	return true
}

func (c *canonicalizer) array() bool {
	if c.depth++; c.depth > maxDepth {
		return false
	}
	c.pos++ // [
	c.out = append(c.out, '[')
	c.ws()
	if c.pos < len(c.in) && c.in[c.pos] == ']' {
		c.pos++
		c.out = append(c.out, ']')
		c.depth--
		return true
	}
	for {
		c.ws()
		if !c.value() {
			return false
		}
		c.ws()
		if c.pos >= len(c.in) {
			return false
		}
		switch c.in[c.pos] {
		case ',':
			c.pos++
			c.out = append(c.out, ',')
		case ']':
			c.pos++
			c.out = append(c.out, ']')
			c.depth--
			return true
		default:
			return false
		}
	}
}

func (c *canonicalizer) object() bool {
	if c.depth++; c.depth > maxDepth {
		return false
	}
	top := c.depth == 1
	c.pos++ // {
	objStart := len(c.out)
	c.out = append(c.out, '{')
	base, kbase := len(c.members), len(c.keys)
	sorted := true
	c.ws()
	if c.pos < len(c.in) && c.in[c.pos] == '}' {
		c.pos++
		c.out = append(c.out, '}')
		c.depth--
		return true
	}
	for {
		c.ws()
		if c.pos >= len(c.in) || c.in[c.pos] != '"' {
			return false
		}
		mark := len(c.out)
		if len(c.members) > base {
			c.out = append(c.out, ',')
		}
		start := len(c.out)
		k0 := len(c.keys)
		if !c.string(&c.keys) {
			return false
		}
		key := c.keys[k0:]
		c.ws()
		if c.pos >= len(c.in) || c.in[c.pos] != ':' {
			return false
		}
		c.pos++
		c.out = append(c.out, ':')
		c.ws()
		isSecret := containsKey(SecretFields, key)
		drop := isSecret || top && containsKey(c.drop, key)
		if isSecret && c.secret != nil && c.pos < len(c.in) && c.in[c.pos] == '"' {
			c.str = c.str[:0]
			if !c.string(&c.str) {
				return false
			}
			c.secret(string(c.str))
		} else if !c.value() {
			return false
		}
		if drop {
			c.out = c.out[:mark]
			c.keys = c.keys[:k0]
		} else {
			if n := len(c.members); n > base {
				prev := c.members[n-1]
				if bytes.Compare(c.keys[prev.k0:prev.k1], key) >= 0 {
					sorted = false
				}
			}
			c.members = append(c.members, member{k0, len(c.keys), start, len(c.out)})
		}
		c.ws()
		if c.pos >= len(c.in) {
			return false
		}
		switch c.in[c.pos] {
		case ',':
			c.pos++
			continue
		case '}':
			c.pos++
		default:
			return false
		}
		break
	}
	if !sorted {
		c.reorder(objStart, c.members[base:])
	}
	c.out = append(c.out, '}')
	c.members = c.members[:base]
	c.keys = c.keys[:kbase]
	c.depth--
	return true
}

// reorder rewrites the members written after out[objStart] ('{') sorted by
// key, keeping only the last of repeated keys.
func (c *canonicalizer) reorder(objStart int, ms []member) {
	slices.SortStableFunc(ms, func(a, b member) int {
		return bytes.Compare(c.keys[a.k0:a.k1], c.keys[b.k0:b.k1])
	})
	c.tmp = append(c.tmp[:0], c.out[objStart+1:]...)
	c.out = c.out[:objStart+1]
	off := objStart + 1
	first := true
	for i, m := range ms {
		if i+1 < len(ms) && bytes.Equal(c.keys[m.k0:m.k1], c.keys[ms[i+1].k0:ms[i+1].k1]) {
			continue // a later duplicate wins
		}
		if !first {
			c.out = append(c.out, ',')
		}
		first = false
		c.out = append(c.out, c.tmp[m.start-off:m.end-off]...)
	}
}

func containsKey(list []string, key []byte) bool {
	for _, k := range list {
		if k == string(key) {
			return true
		}
	}
	return false
}

// string reads a JSON string at c.pos, writes it re-escaped to out and,
// when decoded is not nil, appends its decoded bytes there.
//
// Runs of bytes that encoding/json writes as they are (everything but '"',
// '\\', control bytes and U+2028/U+2029; the body is valid UTF-8) are
// copied whole; only escapes and those characters are handled one by one.
func (c *canonicalizer) string(decoded *[]byte) bool {
	in := c.in
	i := c.pos + 1
	c.out = append(c.out, '"')
	for {
		j := safeRun(in, i)
		c.out = append(c.out, in[i:j]...)
		if decoded != nil {
			*decoded = append(*decoded, in[i:j]...)
		}
		i = j
		if i >= len(in) {
			return false
		}
		switch b := in[i]; {
		case b == '"':
			c.out = append(c.out, '"')
			c.pos = i + 1
			return true
		case b < 0x20:
			return false
		case b == '\\':
			if i+1 >= len(in) {
				return false
			}
			var r rune
			switch e := in[i+1]; e {
			case '"', '\\', '/':
				r = rune(e)
				i += 2
			case 'b':
				r, i = '\b', i+2
			case 'f':
				r, i = '\f', i+2
			case 'n':
				r, i = '\n', i+2
			case 'r':
				r, i = '\r', i+2
			case 't':
				r, i = '\t', i+2
			case 'u':
				// Decode as encoding/json does: a lone or broken surrogate
				// becomes U+FFFD.
				r = jsonx.Hex4(in[i:])
				if r < 0 {
					return false
				}
				i += 6
				if utf16.IsSurrogate(r) {
					if d := utf16.DecodeRune(r, jsonx.Hex4(in[i:])); d != utf8.RuneError {
						r = d
						i += 6
					} else {
						r = utf8.RuneError
					}
				}
			default:
				return false
			}
			c.out = appendEscaped(c.out, r)
			if decoded != nil {
				*decoded = utf8.AppendRune(*decoded, r)
			}
		default: // U+2028 or U+2029, which encoding/json escapes
			c.out = appendEscaped(c.out, rune(0x2028+int(in[i+2]-0xA8)))
			if decoded != nil {
				*decoded = append(*decoded, in[i:i+3]...)
			}
			i += 3
		}
	}
}

// safeRun returns the end of the run of bytes from in[i] on that a JSON
// string holds as they are: it stops at '"', '\\', a control byte or the
// first byte of U+2028/U+2029, or at len(in).
func safeRun(in []byte, i int) int {
	// Eight bytes at a time while none of them is special: the long
	// strings of a request (system prompts, tool results) are mostly plain
	// text.
	for ; i+8 <= len(in); i += 8 {
		if hasSpecial(binary.LittleEndian.Uint64(in[i:])) {
			break
		}
	}
	for ; i < len(in); i++ {
		b := in[i]
		if b == '"' || b == '\\' || b < 0x20 || b == 0xE2 && isLineSep(in[i:]) {
			break
		}
	}
	return i
}

// hasSpecial reports whether one of the eight bytes of x may end a safe
// run: a '"', a '\\', a byte below 0x20 or an 0xE2 (which may start U+2028
// or U+2029). It may report true for a run that is safe after all (an 0xE2
// of another character); safeRun then checks those bytes one by one.
func hasSpecial(x uint64) bool {
	const (
		lo = 0x0101010101010101
		hi = 0x8080808080808080
	)
	// (v-lo)&^v&hi is non-zero when a byte of v is zero, and
	// (x-lo*0x20)&^x&hi when a byte of x is below 0x20.
	q := x ^ (lo * '"')
	b := x ^ (lo * '\\')
	e := x ^ (lo * 0xE2)
	return ((q-lo)&^q|(b-lo)&^b|(e-lo)&^e|(x-lo*0x20)&^x)&hi != 0
}

// isLineSep reports whether b starts with U+2028 or U+2029, which
// encoding/json always escapes.
func isLineSep(b []byte) bool {
	return len(b) >= 3 && b[0] == 0xE2 && b[1] == 0x80 && (b[2] == 0xA8 || b[2] == 0xA9)
}

// appendEscaped writes r as encoding/json's encoder does with HTML escaping
// off.
func appendEscaped(dst []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	switch {
	case r == '"' || r == '\\':
		return append(dst, '\\', byte(r))
	case r == '\b':
		return append(dst, '\\', 'b')
	case r == '\f':
		return append(dst, '\\', 'f')
	case r == '\n':
		return append(dst, '\\', 'n')
	case r == '\r':
		return append(dst, '\\', 'r')
	case r == '\t':
		return append(dst, '\\', 't')
	case r < 0x20:
		return append(dst, '\\', 'u', '0', '0', hex[r>>4], hex[r&0xF])
	case r == '\u2028' || r == '\u2029':
		return append(dst, '\\', 'u', '2', '0', '2', hex[r&0xF])
	}
	return utf8.AppendRune(dst, r)
}
