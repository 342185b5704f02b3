package executor

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Models asked for a JSON Action Input sometimes write a Python literal
// instead: {'query': 'Rust async'}. LlamaIndex's ReAct parser reads these
// with ast.literal_eval; parsePyDict reads the same subset: a dict whose keys
// are strings and whose values are strings (single- or double-quoted, with
// Python's escapes), numbers, True, False, None, lists, tuples and dicts.
// Comments (# to the end of the line, /* … */) are skipped, as LlamaIndex's
// tests expect. Anything else is an error: an expression, a name, a
// set, an f-string, a key that is not a string.

// errPy is the error of a literal parsePyDict cannot read.
var errPy = errors.New("not a Python dict literal")

// parsePyDict reads a Python dict literal at the start of s. rest is what
// follows it.
func parsePyDict(s string) (map[string]any, string, error) {
	p := pyParser{s: s}
	p.space()
	if !p.peek('{') {
		return nil, s, errPy
	}
	v, err := p.value(0)
	if err != nil {
		return nil, s, err
	}
	return v.(map[string]any), p.s[p.i:], nil
}

type pyParser struct {
	s string
	i int
	// jsonLiterals reads true, false and null as well (OLMo 3's calls).
	jsonLiterals bool
}

// maxPyDepth bounds nesting, so that a hostile input cannot exhaust the stack.
const maxPyDepth = 64

func (p *pyParser) peek(c byte) bool { return p.i < len(p.s) && p.s[p.i] == c }

// space skips white space and comments.
func (p *pyParser) space() {
	for p.i < len(p.s) {
		switch {
		case strings.ContainsRune(" \t\r\n", rune(p.s[p.i])):
			p.i++
		case p.s[p.i] == '#':
			for p.i < len(p.s) && p.s[p.i] != '\n' {
				p.i++
			}
		case strings.HasPrefix(p.s[p.i:], "/*"):
			end := strings.Index(p.s[p.i+2:], "*/")
			if end < 0 {
				p.i = len(p.s)
				return
			}
			p.i += 2 + end + 2
		default:
			return
		}
	}
}

func (p *pyParser) value(depth int) (any, error) {
	if depth > maxPyDepth {
		return nil, errPy
	}
	p.space()
	if p.i >= len(p.s) {
		return nil, errPy
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.dict(depth)
	case c == '[' || c == '(':
		return p.list(depth, map[byte]byte{'[': ']', '(': ')'}[c])
	case c == '\'' || c == '"':
		return p.str()
	case c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9'):
		return p.number()
	}
	for word, v := range map[string]any{"True": true, "False": false, "None": nil} {
		if strings.HasPrefix(p.s[p.i:], word) {
			p.i += len(word)
			return v, nil
		}
	}
	if p.jsonLiterals {
		for word, v := range map[string]any{"true": true, "false": false, "null": nil} {
			if strings.HasPrefix(p.s[p.i:], word) {
				p.i += len(word)
				return v, nil
			}
		}
	}
	return nil, errPy
}

func (p *pyParser) dict(depth int) (any, error) {
	p.i++ // {
	out := map[string]any{}
	for {
		p.space()
		if p.peek('}') {
			p.i++
			return out, nil
		}
		if !p.peek('\'') && !p.peek('"') {
			return nil, errPy // a key that is not a string
		}
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		p.space()
		if !p.peek(':') {
			return nil, errPy
		}
		p.i++
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		out[k] = v
		p.space()
		switch {
		case p.peek(','):
			p.i++
		case p.peek('}'):
		default:
			return nil, errPy
		}
	}
}

func (p *pyParser) list(depth int, closer byte) (any, error) {
	p.i++
	out := []any{}
	for {
		p.space()
		if p.peek(closer) {
			p.i++
			return out, nil
		}
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		p.space()
		switch {
		case p.peek(','):
			p.i++
		case p.peek(closer):
		default:
			return nil, errPy
		}
	}
}

// str reads a quoted string with Python's common escapes.
func (p *pyParser) str() (string, error) {
	q := p.s[p.i]
	p.i++
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == q:
			p.i++
			return b.String(), nil
		case c == '\n':
			return "", errPy
		case c == '\\' && p.i+1 < len(p.s):
			e := p.s[p.i+1]
			p.i += 2
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '\\', '\'', '"':
				b.WriteByte(e)
			case 'u':
				if p.i+4 > len(p.s) {
					return "", errPy
				}
				n, err := strconv.ParseUint(p.s[p.i:p.i+4], 16, 32)
				if err != nil {
					return "", errPy
				}
				b.WriteRune(rune(n))
				p.i += 4
			default:
				b.WriteByte('\\')
				b.WriteByte(e)
			}
		default:
			r, size := utf8.DecodeRuneInString(p.s[p.i:])
			b.WriteRune(r)
			p.i += size
		}
	}
	return "", errPy
}

// number reads an int or a float, as a json.Number like the JSON paths do.
func (p *pyParser) number() (any, error) {
	start := p.i
	for p.i < len(p.s) && strings.IndexByte("+-0123456789.eE_", p.s[p.i]) >= 0 {
		p.i++
	}
	lit := strings.ReplaceAll(p.s[start:p.i], "_", "")
	if _, err := strconv.ParseFloat(lit, 64); err != nil {
		return nil, errPy
	}
	return json.Number(strings.TrimPrefix(lit, "+")), nil
}
