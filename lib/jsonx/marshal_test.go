package jsonx

import (
	"testing"
	"time"
)

func TestMarshalArraysWritesNoNullList(t *testing.T) {
	type Inner struct {
		Rows [][]string       `json:"rows"`
		Tags []string         `json:"tags,omitempty"`
		M    map[string]int   `json:"m"`
		P    *Inner           `json:"p"`
		At   time.Time        `json:"at"`
		Any  any              `json:"any"`
		hide []string         //nolint:unused // unexported: kept, not written
		Arr  [2][]int         `json:"arr"`
		Nest map[string][]int `json:"nest"`
	}
	type outer struct {
		Inner
		List  []Inner `json:"list"`
		Other Inner   `json:"inner"`
	}
	v := outer{List: []Inner{{P: &Inner{}}}, Other: Inner{Any: Inner{}, Nest: map[string][]int{"a": nil}}}
	v.hide = []string{"x"}
	got, err := MarshalArrays(v)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"rows":[],"m":{},"p":null,"at":"0001-01-01T00:00:00Z","any":null,"arr":[[],[]],"nest":{},` +
		`"list":[{"rows":[],"m":{},"p":{"rows":[],"m":{},"p":null,"at":"0001-01-01T00:00:00Z","any":null,"arr":[[],[]],"nest":{}},"at":"0001-01-01T00:00:00Z","any":null,"arr":[[],[]],"nest":{}}],` +
		`"inner":{"rows":[],"m":{},"p":null,"at":"0001-01-01T00:00:00Z","any":{"rows":[],"m":{},"p":null,"at":"0001-01-01T00:00:00Z","any":null,"arr":[[],[]],"nest":{}},"arr":[[],[]],"nest":{"a":[]}}}`
	if string(got) != want {
		t.Errorf("MarshalArrays:\n got %s\nwant %s", got, want)
	}
	// The value itself is untouched: another writer of it sees what it
	// always did.
	if v.Rows != nil || v.List[0].Rows != nil || v.Other.Nest["a"] != nil || v.hide[0] != "x" {
		t.Errorf("MarshalArrays changed its argument: %+v", v)
	}
	if plain, _ := Marshal(v); string(plain) == want {
		t.Error("Marshal writes no null either: the test proves nothing")
	}
}

// TestMarshalArraysRecursiveType: a type that holds itself is planned once
// and emptied at every depth; a list with nothing to empty is written as it
// is.
func TestMarshalArraysRecursiveType(t *testing.T) {
	type node struct {
		Kids  []*node        `json:"kids"`
		Name  string         `json:"name"`
		Words []string       `json:"words"`
		Next  map[string]any `json:"next"`
	}
	v := node{Kids: []*node{{Name: "a", Next: map[string]any{"b": node{}}}}, Words: []string{"x"}}
	for range 2 { // the second time from the cached plan
		got, err := MarshalArrays(v)
		if err != nil {
			t.Fatal(err)
		}
		const want = `{"kids":[{"kids":[],"name":"a","words":[],"next":{"b":{"kids":[],"name":"","words":[],"next":{}}}}],"name":"","words":["x"],"next":{}}`
		if string(got) != want {
			t.Errorf("MarshalArrays:\n got %s\nwant %s", got, want)
		}
	}
	if v.Kids[0].Kids != nil || v.Next != nil {
		t.Errorf("MarshalArrays changed its argument: %+v", v)
	}
}
