// Package memo remembers the answers of pure functions in bounded memory.
//
// A Map holds at most Max answers and starts afresh when full: no
// bookkeeping per hit, no eviction order, and a run whose working set fits
// pays one computation per distinct argument. It is safe for concurrent
// use. Only a pure function's answers belong in one (an answer kept is the
// answer computed), and a kept value is shared: callers must not modify
// what Get returns, nor what they Put.
package memo

import "sync"

// Map is a bounded memo from K to V. The zero value is not usable: make
// one with New.
type Map[K comparable, V any] struct {
	mu  sync.RWMutex
	m   map[K]V
	max int
}

// New returns a memo holding at most n answers (at least one).
func New[K comparable, V any](n int) *Map[K, V] {
	m := &Map[K, V]{max: max(n, 1)}
	registry.Lock()
	registry.all = append(registry.all, m)
	registry.Unlock()
	return m
}

// registry is every memo New made, for ResetAll.
var registry struct {
	sync.Mutex
	all []interface{ reset() }
}

// ResetAll empties every memo. A measurement of what a run holds beside
// its caches (the heap guard) calls it; memos are bounded, so what they
// hold is no per-case state.
func ResetAll() {
	registry.Lock()
	defer registry.Unlock()
	for _, m := range registry.all {
		m.reset()
	}
}

func (c *Map[K, V]) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m = nil
}

// Get returns the answer kept for k.
func (c *Map[K, V]) Get(k K) (V, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.m[k]
	return v, ok
}

// Put keeps v as the answer for k, emptying the memo first when it is full.
func (c *Map[K, V]) Put(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= c.max {
		c.m = make(map[K]V)
	}
	c.m[k] = v
}

// Len is the number of answers kept.
func (c *Map[K, V]) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.m)
}

// Max is the bound New was given.
func (c *Map[K, V]) Max() int { return c.max }

// Do returns the answer kept for k, or computes it with f and keeps it.
// Two goroutines asking for the same new k may both compute it; a pure f
// gives both the same answer.
func (c *Map[K, V]) Do(k K, f func(K) V) V {
	if v, ok := c.Get(k); ok {
		return v
	}
	v := f(k)
	c.Put(k, v)
	return v
}
