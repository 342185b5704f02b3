// Package jsonx reads JSON documents of a known shape in one pass, giving
// the values encoding/json would give, several times faster than it.
//
// It serves the fast paths of the replay's hot decoders (chat completions,
// the Phase 2 envelope): each reads the usual form of its document with a
// Reader and, whenever the Reader reports false — malformed or unusual
// input, another type than expected, deep nesting — leaves the document to
// encoding/json, which then decodes it, errors included, as it always did.
// A Reader therefore only has to be right when it says it is; the fuzz
// tests check it against encoding/json.
package jsonx

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth bounds nesting. Deeper documents are left to encoding/json
// (whose own limit is 10000).
const maxDepth = 1000

// Reader reads one JSON document from memory. Methods that read a value
// skip the white space before it and report false when the next value is
// not of their kind or is malformed; after a false the Reader is unusable.
type Reader struct {
	data  []byte
	pos   int
	depth int
}

// NewReader returns a Reader of data.
func NewReader(data []byte) *Reader { return &Reader{data: data} }

// Peek skips white space and returns the next byte, 0 at the end.
func (r *Reader) Peek() byte {
	for r.pos < len(r.data) {
		switch c := r.data[r.pos]; c {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return c
		}
	}
	return 0
}

// End reports whether only white space is left.
func (r *Reader) End() bool { return r.Peek() == 0 && r.pos == len(r.data) }

// Null reads a null if one is next and reports whether it did.
func (r *Reader) Null() bool {
	if r.Peek() == 'n' && r.literal("null") {
		return true
	}
	return false
}

func (r *Reader) literal(lit string) bool {
	if len(r.data)-r.pos < len(lit) || string(r.data[r.pos:r.pos+len(lit)]) != lit {
		return false
	}
	r.pos += len(lit)
	return true
}

// Object reads an object, calling member for each member with its decoded
// key (valid until the next call on r); member must read the value.
func (r *Reader) Object(member func(key []byte) bool) bool {
	if r.Peek() != '{' || r.depth >= maxDepth {
		return false
	}
	r.pos++
	r.depth++
	if r.Peek() == '}' {
		r.pos++
		r.depth--
		return true
	}
	for {
		if r.Peek() != '"' {
			return false
		}
		key, ok := r.str(nil)
		if !ok || r.Peek() != ':' {
			return false
		}
		r.pos++
		if !member(key) {
			return false
		}
		switch r.Peek() {
		case ',':
			r.pos++
		case '}':
			r.pos++
			r.depth--
			return true
		default:
			return false
		}
	}
}

// Array reads an array, calling elem to read each element.
func (r *Reader) Array(elem func() bool) bool {
	if r.Peek() != '[' || r.depth >= maxDepth {
		return false
	}
	r.pos++
	r.depth++
	if r.Peek() == ']' {
		r.pos++
		r.depth--
		return true
	}
	for {
		if !elem() {
			return false
		}
		switch r.Peek() {
		case ',':
			r.pos++
		case ']':
			r.pos++
			r.depth--
			return true
		default:
			return false
		}
	}
}

// String reads a string, decoded as encoding/json decodes it: escapes
// resolved, a lone surrogate and each byte of invalid UTF-8 read as U+FFFD.
func (r *Reader) String() (string, bool) {
	if r.Peek() != '"' {
		return "", false
	}
	b, ok := r.str(nil)
	return string(b), ok
}

// str reads the string at r.pos. Without escapes or invalid UTF-8 it
// returns the bytes of the input; otherwise it decodes into buf.
func (r *Reader) str(buf []byte) ([]byte, bool) {
	start := r.pos + 1
	i := start
	for i < len(r.data) {
		c := r.data[i]
		if c == '"' {
			r.pos = i + 1
			if s := r.data[start:i]; utf8.Valid(s) {
				return s, true
			}
			return validUTF8(buf, r.data[start:i]), true
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			return nil, false
		}
		i++
	}
	// Slow path: escapes. Decoding shortens a literal (unless it holds
	// invalid UTF-8), so room up to its closing quote usually suffices.
	end := i
	for end < len(r.data) && r.data[end] != '"' {
		if r.data[end] == '\\' {
			end++
		}
		end++
	}
	if buf == nil {
		buf = make([]byte, 0, min(end, len(r.data))-start+utf8.UTFMax)
	}
	buf = validUTF8(buf, r.data[start:i])
	for i < len(r.data) {
		c := r.data[i]
		switch {
		case c == '"':
			r.pos = i + 1
			return buf, true
		case c < 0x20:
			return nil, false
		case c == '\\':
			if i+1 >= len(r.data) {
				return nil, false
			}
			switch e := r.data[i+1]; e {
			case '"', '\\', '/':
				buf = append(buf, e)
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				rr := Hex4(r.data[i:])
				if rr < 0 {
					return nil, false
				}
				i += 6
				if utf16.IsSurrogate(rr) {
					if rr1 := Hex4(r.data[i:]); rr1 >= 0 {
						if d := utf16.DecodeRune(rr, rr1); d != utf8.RuneError {
							buf = utf8.AppendRune(buf, d)
							i += 6
							continue
						}
					}
					rr = utf8.RuneError
				}
				buf = utf8.AppendRune(buf, rr)
				continue
			default:
				return nil, false
			}
			i += 2
		default:
			j := i
			for j < len(r.data) && r.data[j] != '"' && r.data[j] != '\\' && r.data[j] >= 0x20 {
				j++
			}
			buf = validUTF8(buf, r.data[i:j])
			i = j
		}
	}
	return nil, false
}

// validUTF8 appends s with each byte that is not part of valid UTF-8
// replaced by U+FFFD.
func validUTF8(buf, s []byte) []byte {
	if utf8.Valid(s) {
		return append(buf, s...)
	}
	for len(s) > 0 {
		c, n := utf8.DecodeRune(s)
		if c == utf8.RuneError && n == 1 {
			buf = utf8.AppendRune(buf, utf8.RuneError)
		} else {
			buf = append(buf, s[:n]...)
		}
		s = s[n:]
	}
	return buf
}

// Hex4 decodes the \uXXXX escape at the start of s, or returns -1.
func Hex4(s []byte) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var v rune
	for _, c := range s[2:6] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		v = v*16 + rune(c)
	}
	return v
}

// number reads a number literal, checking JSON's grammar:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (r *Reader) number() ([]byte, bool) {
	r.Peek()
	d, i := r.data, r.pos
	digits := func() bool {
		j := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		return i > j
	}
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case !digits():
		return nil, false
	}
	if i < len(d) && d[i] == '.' {
		i++
		if !digits() {
			return nil, false
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if !digits() {
			return nil, false
		}
	}
	lit := d[r.pos:i]
	r.pos = i
	return lit, true
}

// Int reads a number into an int as encoding/json does: an integer literal
// in range (no fraction, no exponent).
func (r *Reader) Int() (int, bool) {
	lit, ok := r.number()
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(string(lit), 10, 0)
	return int(n), err == nil
}

// Float reads a number into a float64 as encoding/json does.
func (r *Reader) Float() (float64, bool) {
	lit, ok := r.number()
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	return f, err == nil
}

// Raw reads any value and returns its bytes (valid until r's data
// changes), as json.RawMessage holds it.
func (r *Reader) Raw() ([]byte, bool) {
	r.Peek()
	start := r.pos
	if !r.Skip() {
		return nil, false
	}
	return r.data[start:r.pos], true
}

// Skip reads any value.
func (r *Reader) Skip() bool {
	switch c := r.Peek(); {
	case c == '{':
		return r.Object(func([]byte) bool { return r.Skip() })
	case c == '[':
		return r.Array(r.Skip)
	case c == '"':
		_, ok := r.str(nil)
		return ok
	case c == 't':
		return r.literal("true")
	case c == 'f':
		return r.literal("false")
	case c == 'n':
		return r.literal("null")
	default:
		_, ok := r.number()
		return ok
	}
}

// Any reads any value as encoding/json decodes it into an interface with
// UseNumber: map[string]any (a repeated key keeps its last value), []any,
// string, json.Number, bool or nil.
func (r *Reader) Any() (any, bool) {
	switch c := r.Peek(); {
	case c == '{':
		m := map[string]any{}
		ok := r.Object(func(key []byte) bool {
			k := string(key)
			v, ok := r.Any()
			m[k] = v
			return ok
		})
		return m, ok
	case c == '[':
		a := []any{}
		ok := r.Array(func() bool {
			v, ok := r.Any()
			a = append(a, v)
			return ok
		})
		return a, ok
	case c == '"':
		return r.String()
	case c == 't':
		return true, r.literal("true")
	case c == 'f':
		return false, r.literal("false")
	case c == 'n':
		return nil, r.literal("null")
	default:
		lit, ok := r.number()
		return json.Number(lit), ok
	}
}

// StringInto reads a string into *s, or a null, which leaves *s as it is
// (as encoding/json does).
func (r *Reader) StringInto(s *string) bool {
	if r.Null() {
		return true
	}
	v, ok := r.String()
	*s = v
	return ok
}

// SkipUnknown reads the value of a key that is none of the struct's field
// names. A key that matches one of names case-insensitively (encoding/json
// would decode it into that field) or is not ASCII (encoding/json folds
// some Unicode letters too) reports false, leaving the document to
// encoding/json.
func (r *Reader) SkipUnknown(key []byte, names ...string) bool {
	for _, c := range key {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	for _, n := range names {
		if strings.EqualFold(string(key), n) {
			return false
		}
	}
	return r.Skip()
}

// Fields records which fields of an object were read. encoding/json merges
// a repeated field into what it decoded first; fast paths leave such
// documents to it.
type Fields uint64

// Once marks field i (0 to 63) read and reports whether it was not before.
func (f *Fields) Once(i int) bool {
	if *f&(1<<i) != 0 {
		return false
	}
	*f |= 1 << i
	return true
}
