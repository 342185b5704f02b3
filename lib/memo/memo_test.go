package memo

import (
	"strconv"
	"sync"
	"testing"
)

func TestMapKeepsAnswersWithinItsBound(t *testing.T) {
	m := New[string, int](3)
	calls := 0
	f := func(k string) int { calls++; n, _ := strconv.Atoi(k); return n * 2 }
	for round := range 3 {
		for i := range 5 {
			k := strconv.Itoa(i)
			if got := m.Do(k, f); got != i*2 {
				t.Fatalf("round %d: Do(%q) = %d, want %d", round, k, got, i*2)
			}
			if m.Len() > m.Max() {
				t.Fatalf("memo holds %d answers, bound %d", m.Len(), m.Max())
			}
		}
	}
	if calls < 5 || calls > 15 {
		t.Errorf("f ran %d times over 15 calls of 5 keys with room for 3", calls)
	}
	m = New[string, int](8)
	for range 4 {
		m.Do("7", f)
	}
	if v, ok := m.Get("7"); !ok || v != 14 {
		t.Errorf("Get(7) = %d, %v; want 14 kept", v, ok)
	}
}

func TestMapZeroBoundHoldsOne(t *testing.T) {
	m := New[int, int](0)
	m.Put(1, 1)
	m.Put(2, 2)
	if m.Len() != 1 {
		t.Errorf("Len = %d, want 1", m.Len())
	}
}

// TestMapConcurrent is for the race detector.
func TestMapConcurrent(t *testing.T) {
	m := New[int, int](16)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 1000 {
				k := (i + g) % 40
				if v := m.Do(k, func(k int) int { return k * k }); v != k*k {
					t.Errorf("Do(%d) = %d", k, v)
				}
			}
		})
	}
	wg.Wait()
}

func TestResetAll(t *testing.T) {
	a, b := New[int, int](4), New[string, int](4)
	a.Put(1, 1)
	b.Put("x", 2)
	ResetAll()
	if a.Len() != 0 || b.Len() != 0 {
		t.Errorf("after ResetAll: %d and %d answers kept", a.Len(), b.Len())
	}
	if got := a.Do(1, func(k int) int { return k + 1 }); got != 2 {
		t.Errorf("Do after ResetAll = %d, want it computed afresh (2)", got)
	}
}
