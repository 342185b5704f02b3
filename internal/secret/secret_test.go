package secret

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

const key = "csk-LEAKCanary+/=7890"

func jsonEscapeAll(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteString(`\u00`)
		b.WriteString(strings.ToLower(string("0123456789ABCDEF"[r>>4])) + string("0123456789abcdef"[r&15]))
	}
	return b.String()
}

func TestScrubEncodings(t *testing.T) {
	s := New(key, "tvly-abcdefgh12345678", "")
	marshalled, _ := json.Marshal(key) // json.Marshal leaves + / = alone; escape by hand below
	tests := []struct{ name, in string }{
		{"raw", "invalid key " + key + " given"},
		{"json string", `{"msg":` + string(marshalled) + `}`},
		{"all \\u escapes", `{"k":"` + jsonEscapeAll(key) + `"}`},
		{"some \\u escapes", `{"k":"csk-\u004CEAKCanary+\/=7890"}`},
		{"query escaped", "https://x/?api_key=" + url.QueryEscape(key)},
		{"path escaped", "https://x/" + url.PathEscape(key)},
		{"lower-case percent", "k=csk-LEAKCanary%2b%2f%3d7890"},
		{"every byte percent-encoded", "k=" + strings.ToUpper(pctAll(key))},
		{"provider-masked", "Incorrect API key provided: csk-LEAKC********7890."},
		{"two keys", "tvly-abcdefgh12345678 and " + key},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(s.Scrub([]byte(tt.in)))
			if !strings.Contains(got, Redacted) {
				t.Fatalf("Scrub(%q) = %q: nothing redacted", tt.in, got)
			}
			if s.Leaks([]byte(got)) || strings.Contains(got, "LEAKC") || strings.Contains(got, "abcdefgh") {
				t.Errorf("Scrub(%q) = %q: still leaks", tt.in, got)
			}
		})
	}
}

func pctAll(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteString("%")
		b.WriteString(strings.ToUpper(string("0123456789abcdef"[s[i]>>4]) + string("0123456789abcdef"[s[i]&15])))
	}
	return b.String()
}

func TestScrubKeepsTheRest(t *testing.T) {
	s := New(key)
	in := `{"a":"50% off \u00e9t\u00e9","b":"csk-LEAK"}` // partial key prefix and other escapes
	if got := string(s.Scrub([]byte(in))); got != in {
		t.Errorf("Scrub changed text holding no secret:\n got %s\nwant %s", got, in)
	}
	in = "key=" + key + "; next"
	if got, want := string(s.Scrub([]byte(in))), "key=REDACTED; next"; got != want {
		t.Errorf("Scrub = %q, want %q", got, want)
	}
	in = `x "csk-\u004CEAKCanary+/=7890" y`
	if got, want := string(s.Scrub([]byte(in))), `x "REDACTED" y`; got != want {
		t.Errorf("Scrub = %q, want %q", got, want)
	}
	// Masks that do not match a known key stay (a table border, a password prompt).
	for _, in := range []string{"****", "abc****def", "pass: ********"} {
		if got := string(s.Scrub([]byte(in))); got != in {
			t.Errorf("Scrub(%q) = %q", in, got)
		}
	}
}

func TestShortValuesAreNotSecrets(t *testing.T) {
	s := New("EMPTY", "abc")
	if !s.Empty() {
		t.Fatalf("New kept short values: %v", s.Values())
	}
	if got := s.String("EMPTY abc"); got != "EMPTY abc" {
		t.Errorf("String = %q", got)
	}
}

func TestFromEnv(t *testing.T) {
	env := map[string]string{
		"CEREBRAS_API_KEY":         "csk-0123456789",
		"TAVILY_API_KEY":           "tvly-0123456789",
		"EXA_API_KEY":              "exa-0123456789",
		"TAVILY_BASE_URL":          "http://127.0.0.1:1/tavily?api_key=query-secret-1&region=eu",
		"SEARCHBENCH_LLM_BASE_URL": "http://gw:pass-word-99@127.0.0.1:2/v1",
	}
	s := FromEnv(func(k string) string { return env[k] })
	want := []string{"csk-0123456789", "tvly-0123456789", "exa-0123456789", "query-secret-1", "pass-word-99"}
	for _, w := range want {
		if !bytes.Contains([]byte(strings.Join(s.Values(), "\n")), []byte(w)) {
			t.Errorf("FromEnv misses %q: %v", w, s.Values())
		}
	}
	for _, v := range s.Values() {
		if v == "eu" {
			t.Errorf("FromEnv took a non-credential query value")
		}
	}
}

func TestWriterAcrossWrites(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out, New(key))
	for _, part := range []string{"you> ", "echo csk-LEA", "KCanary+/=78", "90 done\n", "tail csk-LEAKCanary%2B%2F%3D7890"} {
		if _, err := w.Write([]byte(part)); err != nil {
			t.Fatal(err)
		}
		if part == "you> " && out.String() != "you> " {
			t.Fatalf("a prompt was held back: %q", out.String())
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "you> echo REDACTED done\ntail REDACTED"; got != want {
		t.Errorf("Writer wrote %q, want %q", got, want)
	}
}

func FuzzScrub(f *testing.F) {
	f.Add([]byte(`{"k":"csk-\u004CEAKCanary%2B/=7890"}`))
	f.Add([]byte(`\ud83d\ude00 %zz \u12`))
	s := New(key)
	f.Fuzz(func(t *testing.T, b []byte) {
		out := s.Scrub(b)
		if bytes.Contains(out, []byte(key)) {
			t.Errorf("Scrub(%q) = %q still holds the key", b, out)
		}
		if !bytes.Contains(b, []byte(Redacted)) && !bytes.Contains(b, []byte("*")) && !s.Leaks(b) && !bytes.Equal(out, b) {
			t.Errorf("Scrub changed %q with no secret in it: %q", b, out)
		}
	})
}
