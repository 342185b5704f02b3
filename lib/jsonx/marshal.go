package jsonx

import (
	"bytes"
	"encoding"
	"encoding/json"
	"reflect"
	"sync"
)

// Marshal is json.Marshal without HTML escaping, so "<", ">" and "&" in
// model output stay readable in request bodies, cassettes and reports.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// MarshalArrays is Marshal with every nil slice written as [] and every
// nil map as {}, never null: for a reader (a page's script) that iterates
// a list without checking for null first. v is not modified; values whose
// type marshals itself (json.Marshaler, encoding.TextMarshaler) are written
// as they are.
func MarshalArrays(v any) ([]byte, error) {
	if v == nil {
		return Marshal(v)
	}
	return Marshal(emptied(reflect.ValueOf(v)).Interface())
}

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// emptied returns v with nil slices and maps made empty, at any depth,
// copying only what it changes or what holds a change: a value whose type
// can hold no nil slice or map (a string, a []string that is not nil) is
// returned as it is, sharing its memory. Unexported fields are copied as
// they are (the fields an embedded struct of an unexported type promotes
// included: they cannot be set).
func emptied(v reflect.Value) reflect.Value {
	t := v.Type()
	p := planOf(t)
	if !p.touch {
		return v
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		out := reflect.New(t.Elem())
		out.Elem().Set(emptied(v.Elem()))
		return out
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		out := reflect.New(t).Elem()
		out.Set(emptied(v.Elem()))
		return out
	case reflect.Struct:
		out := reflect.New(t).Elem()
		out.Set(v)
		for _, i := range p.fields {
			out.Field(i).Set(emptied(v.Field(i)))
		}
		return out
	case reflect.Slice:
		if !v.IsNil() && !p.elem {
			return v
		}
		out := reflect.MakeSlice(t, v.Len(), v.Len())
		for i := range v.Len() {
			out.Index(i).Set(emptied(v.Index(i)))
		}
		return out
	case reflect.Array:
		out := reflect.New(t).Elem()
		for i := range v.Len() {
			out.Index(i).Set(emptied(v.Index(i)))
		}
		return out
	case reflect.Map:
		if !v.IsNil() && !p.elem {
			return v
		}
		out := reflect.MakeMapWithSize(t, v.Len())
		for it := v.MapRange(); it.Next(); {
			out.SetMapIndex(it.Key(), emptied(it.Value()))
		}
		return out
	}
	return v
}

// A plan is what emptied needs to know of a type, worked out once: the
// reflect calls it takes (Field, Implements, PointerTo) were most of the
// cost of writing a report page's cases.
type plan struct {
	touch  bool  // emptied may change a value of this type
	elem   bool  // ... or of its elements (slices, arrays, maps, pointers)
	fields []int // the exported fields it may change (structs)
}

var plans sync.Map // reflect.Type → *plan

func planOf(t reflect.Type) *plan {
	if p, ok := plans.Load(t); ok {
		return p.(*plan)
	}
	p := makePlan(t, map[reflect.Type]bool{})
	plans.Store(t, p)
	return p
}

// makePlan works out t's plan; open holds the types being worked out, each
// taken as one emptied may change (a recursive type holds a pointer, slice
// or map on its way back to itself).
func makePlan(t reflect.Type, open map[reflect.Type]bool) *plan {
	if p, ok := plans.Load(t); ok {
		return p.(*plan)
	}
	if open[t] {
		return &plan{touch: true, elem: true}
	}
	if t.Implements(marshalerType) || t.Implements(textMarshalerType) ||
		reflect.PointerTo(t).Implements(marshalerType) || reflect.PointerTo(t).Implements(textMarshalerType) {
		return &plan{}
	}
	open[t] = true
	defer delete(open, t)
	p := &plan{}
	switch t.Kind() {
	case reflect.Interface:
		p.touch, p.elem = true, true
	case reflect.Slice, reflect.Map:
		p.elem = makePlan(t.Elem(), open).touch
		p.touch = true
	case reflect.Pointer, reflect.Array:
		p.elem = makePlan(t.Elem(), open).touch
		p.touch = p.elem
	case reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() && makePlan(f.Type, open).touch {
				p.fields = append(p.fields, i)
			}
		}
		p.touch = len(p.fields) > 0
	}
	return p
}
