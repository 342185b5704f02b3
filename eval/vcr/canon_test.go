package vcr

import (
	"bytes"
	"encoding/json"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// referenceCanonical is CanonicalBody's specification written with
// encoding/json: decode with UseNumber, drop fields, encode without HTML
// escaping. FuzzCanonicalBody checks the hand-written parser against it.
func referenceCanonical(body []byte, drop ...string) []byte {
	if !maybeJSON(body) || !utf8.Valid(body) {
		return body
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return body
	}
	if _, err := dec.Token(); err != io.EOF {
		return body
	}
	if m, ok := v.(map[string]any); ok {
		for _, k := range drop {
			delete(m, k)
		}
	}
	var strip func(v any)
	strip = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for _, k := range SecretFields {
				delete(v, k)
			}
			for _, e := range v {
				strip(e)
			}
		case []any:
			for _, e := range v {
				strip(e)
			}
		}
	}
	strip(v)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return body
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func TestCanonicalBody(t *testing.T) {
	tests := []struct {
		name, in string
		drop     []string
		want     string
	}{
		{"sorted and compact", `{ "b": 1, "a": {"d": [1, 2.50, {"z":true,"y":null}], "c": "x"} }`, nil,
			`{"a":{"c":"x","d":[1,2.50,{"y":null,"z":true}]},"b":1}`},
		{"escapes normalised", `{"q":"<a> &amp; \u00e9 \u2028 \/ \u003c \ud83d\ude00 \ud800x \n"}`, nil, `{"q":"<a> &amp; é \u2028 / < 😀 �x \n"}`},
		{"raw line separator escaped", "{\"q\":\"a\u2028b\"}", nil, `{"q":"a\u2028b"}`},
		{"keys sorted by decoded bytes", `{"\u0062":1,"a\n":2,"a":3}`, nil, `{"a":3,"a\n":2,"b":1}`},
		{"repeated key keeps last", `{"a":1,"b":2,"a":{"x":3}}`, nil, `{"a":{"x":3},"b":2}`},
		{"secret dropped at depth", `{"api_key":"k","x":[{"api_key":"j","y":1}]}`, nil, `{"x":[{"y":1}]}`},
		{"volatile dropped at top only", `{"user":"u","m":{"user":"keep"}}`, []string{"user"}, `{"m":{"user":"keep"}}`},
		{"big numbers exact", `{"n":12345678901234567890123,"f":1e400,"z":-0.0E+1}`, nil, `{"f":1e400,"n":12345678901234567890123,"z":-0.0E+1}`},
		{"array top level", ` [ {"b":1,"a":2} ] `, []string{"a"}, `[{"a":2,"b":1}]`},
		{"scalar", ` "x\u0041" `, nil, `"xA"`},
		{"empty containers", `{"a":[],"b":{}}`, nil, `{"a":[],"b":{}}`},
		{"empty", ``, nil, ``},
		{"form body untouched", `a=1&b=2`, nil, `a=1&b=2`},
		{"trailing data untouched", `{"a":1} {"b":2}`, nil, `{"a":1} {"b":2}`},
		{"invalid json untouched", `{"a":}`, nil, `{"a":}`},
		{"leading zero untouched", `{"a":01}`, nil, `{"a":01}`},
		{"bad escape untouched", `{"a":"\x"}`, nil, `{"a":"\x"}`},
		{"invalid utf8 untouched", "{\"a\":\"\xff\"}", nil, "{\"a\":\"\xff\"}"},
		{"too deep untouched", strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1), nil,
			strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1)},
		{"deepest allowed", strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth), nil,
			strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(CanonicalBody([]byte(tt.in), tt.drop...))
			if got != tt.want {
				t.Errorf("CanonicalBody(%.80q) = %.80q, want %.80q", tt.in, got, tt.want)
			}
			if ref := string(referenceCanonical([]byte(tt.in), tt.drop...)); ref != got {
				t.Errorf("encoding/json gives %.80q", ref)
			}
			if again := string(CanonicalBody([]byte(got), tt.drop...)); again != got {
				t.Errorf("not idempotent: %.80q then %.80q", got, again)
			}
		})
	}
}

func TestCanonicalReportsSecrets(t *testing.T) {
	var got []string
	canonical([]byte(`{"api_key":"top\u0041","x":{"api_key":"nested"},"y":{"api_key":7}}`), nil, func(s string) { got = append(got, s) })
	if strings.Join(got, ",") != "topA,nested" {
		t.Errorf("secrets reported: %q", got)
	}
}

// FuzzCanonicalBody checks the hand-written canonicaliser against
// encoding/json on any input, and that its output is a fixed point.
func FuzzCanonicalBody(f *testing.F) {
	f.Add([]byte(`{"b":[1,{"d":"\u00e9","c":null}],"a":"x\ny","user":"u","api_key":"k"}`))
	f.Add([]byte(`[1.5e3,-0,true,false,"\ud83d\ude00\ud800"]`))
	f.Fuzz(func(t *testing.T, body []byte) {
		got := CanonicalBody(body, "user")
		if want := referenceCanonical(body, "user"); !bytes.Equal(got, want) {
			t.Fatalf("CanonicalBody(%q)\n = %q\nencoding/json gives\n   %q", body, got, want)
		}
		if again := CanonicalBody(got, "user"); !bytes.Equal(again, got) {
			t.Fatalf("not idempotent: %q then %q", got, again)
		}
		// Through the memo of nested values, memoising every one, twice.
		defer func(m int) { memoMin = m }(memoMin)
		memoMin = 1
		for range 2 {
			if live := canonicalLive(body, []string{"user"}); live != string(got) {
				t.Fatalf("canonicalLive(%q) = %q, want %q", body, live, got)
			}
		}
	})
}

// TestCanonicalMatchesEncodingJSON compares the canonicaliser with
// encoding/json on generated documents that mix what the fuzzer finds
// slowly: nesting, repeated and secret keys, escapes, odd whitespace.
func TestCanonicalMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func(s ...string) string { return s[rng.IntN(len(s))] }
	ws := func() string { return pick("", "", " ", "\n  ", "\t", "\r\n") }
	str := func() string {
		var b strings.Builder
		b.WriteByte('"')
		for range rng.IntN(6) {
			b.WriteString(pick("a", "b", "user", "api_key", "é", "\u2028", `\n`, `\"`, `\\`, `\/`, `\u0041`, `\u00e9`,
				`\ud83d\ude00`, `\ud800`, `\udc00x`, `\u2029`, `\u001f`, "<&>", `\b`, `\f`, "\x7f"))
		}
		b.WriteByte('"')
		return b.String()
	}
	var value func(depth int) string
	value = func(depth int) string {
		k := rng.IntN(10)
		if depth > 4 {
			k = rng.IntN(5)
		}
		switch k {
		case 0:
			return str()
		case 1:
			return pick("0", "-0", "1.50", "2e10", "-3.25E-2", "12345678901234567890")
		case 2:
			return pick("true", "false", "null")
		case 3, 4:
			return str()
		case 5, 6:
			var parts []string
			for range rng.IntN(4) {
				parts = append(parts, ws()+value(depth+1)+ws())
			}
			return "[" + strings.Join(parts, ",") + "]"
		default:
			var parts []string
			for range rng.IntN(5) {
				key := str()
				if rng.IntN(3) == 0 {
					key = pick(`"user"`, `"api_key"`, `"a"`, `"b"`)
				}
				parts = append(parts, ws()+key+ws()+":"+ws()+value(depth+1)+ws())
			}
			return "{" + strings.Join(parts, ",") + "}"
		}
	}
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for i := range n {
		doc := ws() + value(0) + ws()
		if rng.IntN(50) == 0 { // occasionally broken
			doc = doc[:rng.IntN(len(doc)+1)]
		}
		got, want := CanonicalBody([]byte(doc), "user"), referenceCanonical([]byte(doc), "user")
		if !bytes.Equal(got, want) {
			t.Fatalf("doc %d: CanonicalBody(%q)\n = %q\nencoding/json gives\n   %q", i, doc, got, want)
		}
	}
}

// TestLiveMemoMatchesCanonical: canonicalising live bodies through the memo
// of nested values gives CanonicalBody's bytes, whether a value is seen
// for the first time or served from the memo, at any size threshold.
func TestLiveMemoMatchesCanonical(t *testing.T) {
	big := strings.Repeat("lorem ipsum ", 120)
	bodies := []string{
		`{"model":"m","messages":[{"role":"system","content":"` + big + `"},{"content":"q","role":"user","user":"kept: not top level","api_key":"dropped"}],"user":"dropped","tools":[{"b":1,"a":2,"b":3,"x":"` + big + `"}]}`,
		`{ "messages" : [ { "role" : "system" , "content" : "` + big + `" } ], "tools":[{"a":2,"b":3,"x":"` + big + `"}] }`,
		`{"messages":[{"role":"system","content":"` + big + `"},{"role":"assistant","content":null,"tool_calls":[{"id":"1","function":{"name":"f","arguments":"{\"q\":1}"}}]}]}`,
		`{"nested":{"api_key":"k","deeper":{"api_key":"k2","v":"` + big + `"}}}`,
		`[{"a":"` + big + `"},{"a":"` + big + `"}]`,
		`{"bad":{"unterminated":"` + big + `}`,
		// Values sharing their first bytes (a memo key) but not the rest.
		`{"m":[{"z":1,"k":"` + big + `A"}]}`,
		`{"m":[{"z":1,"k":"` + big + `B"}]}`,
		`{"m":[{"z":1,"k":"` + big + `A"},{"z":1,"k":"` + big + `A"},{"z":1,"k":"` + big + `AA"}]}`,
		// A body ending inside a remembered value's bytes.
		`{"m":[{"z":1,"k":"` + big + `A"`,
		`{"m":[{"z":1,"k":"` + big,
	}
	defer func(m int) { memoMin = m }(memoMin)
	for _, min := range []int{1 << 10, 1} {
		memoMin = min
		liveMemo = &subMemo{}
		for round := 0; round < 2; round++ {
			for i, b := range bodies {
				want := string(CanonicalBody([]byte(b), "user"))
				if got := canonicalLive([]byte(b), []string{"user"}); got != want {
					t.Fatalf("memoMin %d, round %d, body %d:\n got %s\nwant %s", min, round, i, got, want)
				}
			}
		}
	}
	if liveMemo.size == 0 || liveMemo.hits == 0 {
		t.Fatalf("memo size %d, hits %d: nothing was memoised or served", liveMemo.size, liveMemo.hits)
	}
}
