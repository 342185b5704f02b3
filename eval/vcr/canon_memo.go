package vcr

import (
	"encoding/binary"
	"sync"
)

// A replay canonicalises every live request body, and a conversation's
// requests repeat most of what they carry: each re-sends the system
// prompt, the tools and every earlier message, and every case sends the
// same prompt and tools. subMemo remembers the canonical form of large
// values nested one or two levels down in live bodies (a message, the
// tool list), by their exact bytes, so each is canonicalised once.
//
// The canonical form of a nested value depends only on its bytes: drop
// applies to top-level fields only, SecretFields everywhere alike, and
// secret callbacks (recording) never use the memo. The depth is part of
// the key all the same, for the nesting limit.
type subMemo struct {
	mu   sync.Mutex
	m    [memoDepth + 1]map[string][]byte
	size int
}

const (
	memoDepth = 2       // values of the top object, and their elements
	memoMax   = 1 << 20 // bytes kept (raw and canonical) before starting afresh
)

// memoMin is the smallest value memoised: smaller ones are cheaper to
// canonicalise than to look up. (Tests lower it to memoise everything.)
var memoMin = 1 << 10

// liveMemo serves canonicalLive.
var liveMemo = &subMemo{}

func (s *subMemo) get(depth int, raw []byte) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[depth][string(raw)]
	return v, ok
}

func (s *subMemo) put(depth int, raw, canon []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.size+len(raw)+len(canon) > memoMax {
		s.m, s.size = [memoDepth + 1]map[string][]byte{}, 0
	}
	if s.m[depth] == nil {
		s.m[depth] = map[string][]byte{}
	}
	s.m[depth][string(raw)] = append([]byte(nil), canon...)
	s.size += len(raw) + len(canon)
}

// memoValue canonicalises the object or array at c.pos through c.memo:
// from the memo when its bytes were seen, else by parse (and remembered).
// ok is false when the value is not one to memoise; c is then unchanged.
func (c *canonicalizer) memoValue(parse func() bool) (handled, ok bool) {
	if c.memo == nil || c.depth < 1 || c.depth > memoDepth {
		return false, false
	}
	end := skipValue(c.in, c.pos)
	if end-c.pos < memoMin {
		return false, false
	}
	raw := c.in[c.pos:end]
	if canon, hit := c.memo.get(c.depth, raw); hit {
		c.out = append(c.out, canon...)
		c.pos = end
		return true, true
	}
	start := len(c.out)
	if !parse() {
		return true, false
	}
	if c.pos == end {
		c.memo.put(c.depth, raw, c.out[start:])
	}
	return true, true
}

// skipValue returns the end of the object or array starting at in[i], or
// -1 when it has none. It only matches brackets outside strings; the
// parser checks the rest.
func skipValue(in []byte, i int) int {
	depth := 0
	for ; i < len(in); i++ {
		switch in[i] {
		case '"':
			if i = stringEnd(in, i+1); i < 0 {
				return -1
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}

// stringEnd returns the index of the '"' that closes the string whose
// contents start at in[i], or -1 when it is not closed. Most of a request
// is string contents (prompts, tool results): they are skipped eight bytes
// at a time while no byte is a '"' or a '\\'.
func stringEnd(in []byte, i int) int {
	for i < len(in) {
		if i+8 <= len(in) && !hasQuoteOrBackslash(binary.LittleEndian.Uint64(in[i:])) {
			i += 8
			continue
		}
		switch in[i] {
		case '"':
			return i
		case '\\':
			i += 2 // the backslash and the byte it escapes
		default:
			i++
		}
	}
	return -1
}

// hasQuoteOrBackslash reports whether one of the eight bytes of x is a '"'
// or a '\\' (hasSpecial's test, narrowed to those two).
func hasQuoteOrBackslash(x uint64) bool {
	const (
		lo = 0x0101010101010101
		hi = 0x8080808080808080
	)
	q := x ^ (lo * '"')
	b := x ^ (lo * '\\')
	return ((q-lo)&^q|(b-lo)&^b)&hi != 0
}
