package vcr

import (
	"strings"
	"sync"
)

// A replay canonicalises every live request body, and a conversation's
// requests repeat most of what they carry: each re-sends the system
// prompt, the tools and every earlier message, and every case sends the
// same prompt and tools. subMemo remembers the canonical form of large
// values nested two levels down in live bodies (a message, a tool), by
// their exact bytes, so each is canonicalised once. (One level down is
// the whole message list, new in every request: remembering it would
// only cost a copy.)
//
// The canonical form of a nested value depends only on its bytes: drop
// applies to top-level fields only, SecretFields everywhere alike, and
// secret callbacks (recording) never use the memo. The depth is part of
// the key all the same, for the nesting limit.
//
// A value is looked up by its first memoMin bytes, and is a hit when the
// body continues with all of the remembered value's bytes: an object or
// array ends with its closing bracket, so a body holding a remembered
// value's bytes at c.pos holds that value there. Looking up needs no scan
// for the value's end, and a value not seen before is only parsed.
type subMemo struct {
	mu   sync.Mutex
	m    [memoDepth + 1]map[string]memoEntry
	size int
	hits int // values served (for tests)
}

// memoEntry is a remembered value: its bytes and its canonical form, in
// one allocation.
type memoEntry struct{ raw, canon string }

const (
	memoFrom  = 2       // the shallowest depth memoised: elements of the top object's values
	memoDepth = 2       // the deepest
	memoMax   = 1 << 20 // bytes kept (raw and canonical) before starting afresh
)

// memoMin is the smallest value memoised, and the length of its key:
// smaller ones are cheaper to canonicalise than to look up. (Tests lower
// it to memoise everything.)
var memoMin = 1 << 10

// liveMemo serves canonicalLive.
var liveMemo = &subMemo{}

// get returns the remembered value that in starts with, if any.
func (s *subMemo) get(depth int, in []byte) (memoEntry, bool) {
	if len(in) < memoMin {
		return memoEntry{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.m[depth][string(in[:memoMin])]
	if !ok || len(in) < len(e.raw) || string(in[:len(e.raw)]) != e.raw {
		return memoEntry{}, false
	}
	s.hits++
	return e, true
}

// put remembers raw's canonical form, replacing any value of the same key.
func (s *subMemo) put(depth int, raw, canon []byte) {
	var b strings.Builder
	b.Grow(len(raw) + len(canon))
	b.Write(raw)
	b.Write(canon)
	all := b.String()
	e := memoEntry{raw: all[:len(raw)], canon: all[len(raw):]}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.size+len(all) > memoMax {
		s.m, s.size = [memoDepth + 1]map[string]memoEntry{}, 0
	}
	if s.m[depth] == nil {
		s.m[depth] = map[string]memoEntry{}
	}
	if old, ok := s.m[depth][e.raw[:memoMin]]; ok {
		s.size -= len(old.raw) + len(old.canon)
	}
	s.m[depth][e.raw[:memoMin]] = e
	s.size += len(all)
}

// memoValue canonicalises the object or array at c.pos through c.memo:
// from the memo when its bytes were seen, else by parse (and remembered
// when it is large enough). handled is false when the value is not at a
// memoised depth; c is then unchanged.
func (c *canonicalizer) memoValue(parse func() bool) (handled, ok bool) {
	if c.memo == nil || c.depth < memoFrom || c.depth > memoDepth {
		return false, false
	}
	if e, hit := c.memo.get(c.depth, c.in[c.pos:]); hit {
		c.out = append(c.out, e.canon...)
		c.pos += len(e.raw)
		return true, true
	}
	start, out := c.pos, len(c.out)
	if !parse() {
		return true, false
	}
	if c.pos-start >= memoMin {
		c.memo.put(c.depth, c.in[start:c.pos], c.out[out:])
	}
	return true, true
}
