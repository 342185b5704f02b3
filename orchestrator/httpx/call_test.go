package httpx

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"testing"
)

// truncatedByDecoder is truncatedJSON's definition, read by the standard
// library alone: a body that starts an object or array, is not valid JSON,
// and whose first value the decoder finds cut off by the end.
func truncatedByDecoder(body []byte) bool {
	b := bytes.TrimSpace(body)
	if len(b) == 0 || b[0] != '{' && b[0] != '[' || json.Valid(b) {
		return false
	}
	var v json.RawMessage
	err := json.NewDecoder(bytes.NewReader(b)).Decode(&v)
	return errors.Is(err, io.ErrUnexpectedEOF)
}

// TestTruncatedJSONAgreesWithTheDecoder: the byte loop in front of the
// decoder changes no answer, on every prefix of answers of each provider's
// shape and of malformed bodies (brackets inside strings, escaped quotes,
// mismatched and extra brackets, trailing values).
func TestTruncatedJSONAgreesWithTheDecoder(t *testing.T) {
	bodies := []string{
		`{"choices":[{"message":{"role":"assistant","content":"a \"quoted\" {brace} and [bracket] \\\\"}}],"usage":{"prompt_tokens":3}}`,
		`{"results":[{"title":"x","url":"https://e.com/?q=[1]","content":"}\\u005d","score":0.5}],"response_time":1.2}`,
		`[{"a":[1,2,{"b":null}]},true,false,"]"]`,
		`{"a":}`, `{"a":[}`, `{"a":1}}`, `{} {`, `{}x`, `[1,2]]`, `{"a":"\\"}`, `{"a":tru`,
		`{"detail":{"error":"Unauthorized: missing or invalid API key."}}`,
		`  {"a": [ "x" , { } ] }  `, `{"a":"\u00e9\n"}`, `["unterminated \" escape`,
		`{"a":"\\\\\"x\\\\"}`, `["\\\\\\"]`, `"\\\\\\\\"`, `{"k\\\"":"v\\"}`,
	}
	for _, body := range bodies {
		for i := 0; i <= len(body); i++ {
			b := []byte(body[:i])
			if got, want := truncatedJSON(b), truncatedByDecoder(b); got != want {
				t.Errorf("truncatedJSON(%q) = %v, the decoder says %v", b, got, want)
			}
			if got, want := closed(b), closedByteByByte(b); got != want {
				t.Errorf("closed(%q) = %v, the byte loop says %v", b, got, want)
			}
		}
	}
}

// closedByteByByte is closed read one byte at a time, as it was written
// first: the definition its jumps from quote to quote must agree with.
func closedByteByByte(b []byte) bool {
	depth := 0
	in := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if in {
			switch c {
			case '\\':
				i++
			case '"':
				in = false
			}
			continue
		}
		switch c {
		case '"':
			in = true
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		}
	}
	return depth == 0 && !in
}

func FuzzTruncatedJSON(f *testing.F) {
	f.Add([]byte(`{"a":["b",{"c":"\"}"}]}`))
	f.Add([]byte(`[{"x":1}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := truncatedJSON(b), truncatedByDecoder(b); got != want {
			t.Errorf("truncatedJSON(%q) = %v, the decoder says %v", b, got, want)
		}
		if got, want := closed(b), closedByteByByte(b); got != want {
			t.Errorf("closed(%q) = %v, the byte loop says %v", b, got, want)
		}
	})
}
