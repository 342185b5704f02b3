package jsonx

import (
	"bytes"
	"encoding"
	"encoding/json"
	"reflect"
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

// emptied returns a copy of v with nil slices and maps made empty, at any
// depth. Unexported fields are copied as they are (the fields an embedded
// struct of an unexported type promotes included: they cannot be set).
func emptied(v reflect.Value) reflect.Value {
	t := v.Type()
	if t.Implements(marshalerType) || t.Implements(textMarshalerType) ||
		reflect.PointerTo(t).Implements(marshalerType) || reflect.PointerTo(t).Implements(textMarshalerType) {
		return v
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		p := reflect.New(t.Elem())
		p.Elem().Set(emptied(v.Elem()))
		return p
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
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() {
				out.Field(i).Set(emptied(v.Field(i)))
			}
		}
		return out
	case reflect.Slice:
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
		out := reflect.MakeMapWithSize(t, v.Len())
		for it := v.MapRange(); it.Next(); {
			out.SetMapIndex(it.Key(), emptied(it.Value()))
		}
		return out
	}
	return v
}
