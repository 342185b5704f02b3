package jsonx

import (
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"testing"
)

// decodeStd decodes data as encoding/json does with UseNumber, refusing
// trailing data: the reference for Any.
func decodeStd(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, io.ErrUnexpectedEOF
	}
	return v, nil
}

func readAny(data []byte) (any, bool) {
	r := NewReader(data)
	v, ok := r.Any()
	return v, ok && r.End()
}

// FuzzAny checks Any against encoding/json: whenever the Reader accepts a
// document, encoding/json accepts it too and decodes the same value.
func FuzzAny(f *testing.F) {
	f.Add([]byte(`{"data":{"bullets":[{"text":"a \u00e9 \ud83d\ude00","kind":null,"source_ids":["s1"]}],"sources":[]},"error":{"code":"NONE","message":""}}`))
	f.Add([]byte(` [1, -0.5e+3, true, false, null, "x\"\\\/\b\f\n\r\t", {}, [], {"a":1,"a":2}] `))
	f.Add([]byte("\"bad \xff utf-8 \\ud800 lone\""))
	f.Add([]byte(`{"a":1} {"b":2}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, ok := readAny(data)
		want, err := decodeStd(data)
		if !ok {
			return // left to encoding/json
		}
		if err != nil {
			t.Fatalf("Reader accepted %q, encoding/json refused it: %v", data, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Reader and encoding/json differ on %q:\n%#v\n%#v", data, got, want)
		}
	})
}

// FuzzScalars checks String, Int, Float and Raw against json.Unmarshal.
func FuzzScalars(f *testing.F) {
	f.Add([]byte(`"a\u2028b"`))
	f.Add([]byte(` 12 `))
	f.Add([]byte(`-1.5e-3`))
	f.Add([]byte(`1e400`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if s, ok := readOne(data, (*Reader).String); ok {
			var want string
			if err := json.Unmarshal(data, &want); err != nil || want != s {
				t.Fatalf("String(%q) = %q; encoding/json: %q, %v", data, s, want, err)
			}
		}
		if n, ok := readOne(data, (*Reader).Int); ok {
			var want int
			if err := json.Unmarshal(data, &want); err != nil || want != n {
				t.Fatalf("Int(%q) = %d; encoding/json: %d, %v", data, n, want, err)
			}
		}
		if x, ok := readOne(data, (*Reader).Float); ok {
			var want float64
			if err := json.Unmarshal(data, &want); err != nil || want != x {
				t.Fatalf("Float(%q) = %v; encoding/json: %v, %v", data, x, want, err)
			}
		}
		if raw, ok := readOne(data, (*Reader).Raw); ok {
			var want json.RawMessage
			if err := json.Unmarshal(data, &want); err != nil || !bytes.Equal(want, raw) {
				t.Fatalf("Raw(%q) = %q; encoding/json: %q, %v", data, raw, want, err)
			}
		}
	})
}

func readOne[T any](data []byte, read func(*Reader) (T, bool)) (T, bool) {
	r := NewReader(data)
	v, ok := read(r)
	return v, ok && r.End()
}

func TestReaderRefuses(t *testing.T) {
	for _, in := range []string{``, `{`, `{"a"}`, `{"a":1,}`, `[1,]`, `"\x01"`, `"\q"`, `"\u12"`, `01`, `1.`, `-`, `tru`, `{"a":1}x`,
		string(bytes.Repeat([]byte("["), maxDepth+1)) + string(bytes.Repeat([]byte("]"), maxDepth+1))} {
		if _, ok := readAny([]byte(in)); ok {
			t.Errorf("accepted %q", in)
		}
	}
}
