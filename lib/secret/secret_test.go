package secret

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
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
	in := `{"a":"50% off \u00e9t\u00e9","b":"csk-LEA"}` // a key prefix shorter than FragLen and other escapes
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

// TestScrubFragments cuts a key (raw, escaped, percent-encoded and base64
// in a longer blob, both alphabets, every alignment) at every length, as an
// error excerpt or a diff line would, and requires that no run of FragLen
// characters of the key or of its encoding survives (a single cut leaves a
// start or an end of the secret, which the scrubber follows as far as it
// goes).
func TestScrubFragments(t *testing.T) {
	for _, k := range []string{key, "tvly-??>>~~key-12345"} {
		scrubFragments(t, k)
	}
}

func scrubFragments(t *testing.T, key string) {
	s := New(key)
	forms := map[string]string{
		"raw":     key,
		"escaped": jsonEscapeAll(key),
		"percent": pctAll(key),
	}
	for a := 0; a < 3; a++ {
		blob := append([]byte("{\"echo\":\"prefix"[:a+3]), key...)
		blob = append(blob, " and the rest of a body"...)
		forms[fmt.Sprintf("base64 std, offset %d", a)] = base64.StdEncoding.EncodeToString(blob)
		forms[fmt.Sprintf("base64 url, offset %d", a)] = base64.URLEncoding.EncodeToString(blob)
	}
	// What must not survive: FragLen-runs of the key and of its base64 cores.
	var banned []string
	for _, p := range append([]string{key}, Base64Forms(key)...) {
		for i := 0; i+FragLen <= len(p); i++ {
			banned = append(banned, p[i:i+FragLen])
		}
	}
	for name, f := range forms {
		for cut := 0; cut <= len(f); cut++ {
			for _, text := range []string{"error: " + f[:cut] + "…", "…" + f[cut:] + " tail"} {
				got := string(s.Scrub([]byte(text)))
				for _, b := range banned {
					if strings.Contains(got, b) {
						t.Fatalf("%s cut at %d: Scrub(%q) = %q keeps %q", name, cut, text, got, b)
					}
				}
				if s.Leaks([]byte(got)) {
					t.Fatalf("%s cut at %d: Leaks after Scrub: %q", name, cut, got)
				}
			}
		}
	}
	// Decoding the scrubbed blob finds no run of the key either.
	for a := 0; a < 3; a++ {
		blob := append(make([]byte, a+5), key...)
		got := s.Scrub([]byte(base64.StdEncoding.EncodeToString(blob)))
		dec, _ := base64.StdEncoding.DecodeString(strings.ReplaceAll(string(got), Redacted, "AAAAAAAA"))
		for i := 0; i+FragLen <= len(key); i++ {
			if bytes.Contains(dec, []byte(key[i:i+FragLen])) {
				t.Errorf("offset %d: the scrubbed blob still decodes to %q", a, key[i:i+FragLen])
			}
		}
	}
}

// TestBase64Forms checks the cores against a reference computed
// independently with coreutils: printf 'ab' + key | base64.
func TestBase64Forms(t *testing.T) {
	if len(Base64Forms(key)) != 3 {
		t.Fatalf("Base64Forms(%q) = %q, want 3 alignments (its base64 has no + or /: both alphabets agree)", key, Base64Forms(key))
	}
	if f := Base64Forms("tvly-??>>~~key-12345"); len(f) != 6 {
		t.Fatalf("Base64Forms = %q, want 3 alignments × 2 alphabets", f)
	}
	// printf 'csk-LEAKCanary+/=7890' | base64        → Y3NrLUxFQUtDYW5hcnkrLz03ODkw
	// printf 'xcsk-LEAKCanary+/=7890' | base64       → eGNzay1MRUFLQ2FuYXJ5Ky89Nzg5MA==
	// printf 'xycsk-LEAKCanary+/=7890' | base64      → eHljc2stTEVBS0NhbmFyeSsvPTc4OTA=
	for _, whole := range []string{"Y3NrLUxFQUtDYW5hcnkrLz03ODkw", "eGNzay1MRUFLQ2FuYXJ5Ky89Nzg5MA==", "eHljc2stTEVBS0NhbmFyeSsvPTc4OTA="} {
		found := false
		for _, f := range Base64Forms(key) {
			found = found || strings.Contains(whole, f)
		}
		if !found {
			t.Errorf("no core of %v is in coreutils' %s", Base64Forms(key), whole)
		}
	}
}

// TestMiddleRunsAreNotFragments: a run from a secret's middle is an
// ordinary word more often than a leak; a cut leaves a start or an end.
func TestMiddleRunsAreNotFragments(t *testing.T) {
	s := New("sim-cerebras-key")
	for _, in := range []string{"host: api.cerebras.ai", "url: https://api.cerebras.ai/v1"} {
		if got := string(s.Scrub([]byte(in))); got != in {
			t.Errorf("Scrub(%q) = %q", in, got)
		}
	}
	for in, want := range map[string]string{"k=sim-cerebr…": "k=REDACTED…", "…rebras-key.": "…REDACTED."} {
		if got := string(s.Scrub([]byte(in))); got != want {
			t.Errorf("Scrub(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestOfURLTakesEveryQueryValue(t *testing.T) {
	got := OfURL("http://gateway-user:pass-word-99@host/v1?token=tok-123456&code=abcdefgh&v=1")
	want := []string{"gateway-user", "pass-word-99", "abcdefgh", "tok-123456", "1"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("OfURL = %q, want %q", got, want)
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

// TestScrubShortHexEntityEchoes: a provider echoing a key hex-encoded
// (either case, whole or cut), HTML-entity-encoded, or split into pieces
// shorter than FragLen has it redacted; ordinary text is left alone.
func TestScrubShortHexEntityEchoes(t *testing.T) {
	const k = "csk-a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p"
	s := New(k)
	hexed := fmt.Sprintf("%x", k)
	var ent, entHex strings.Builder
	for _, r := range k {
		fmt.Fprintf(&ent, "&#%d;", r)
		fmt.Fprintf(&entHex, "&#x%X;", r)
	}
	tests := []struct{ name, in string }{
		{"hex", "signature base " + hexed + " end"},
		{"HEX", "dump: " + strings.ToUpper(hexed)},
		{"hex cut", "dump: " + hexed[:24] + "…"},
		{"entities", "<p>key " + ent.String() + "</p>"},
		{"hex entities", entHex.String()},
		{"named entities around", "&lt;" + k[:10] + "&amp;" + k[10:] + "&gt;"},
		{"pieces", `{"parts":["csk-a1b","2c3d4e5","f6g7h8i","9j0k1l2","m3n4o5p"]}`},
		{"spaced", "c s k - a 1 b 2 c 3 d 4 e 5 f 6 g 7 h 8 i 9 j 0 k 1 l 2 m 3 n 4 o 5 p"},
		{"lines", "csk-a1b2\nc3d4e5f\n6g7h8i9j0k1l2m3n4o5p"},
	}
	for _, tt := range tests {
		got := s.String(tt.in)
		if !strings.Contains(got, Redacted) {
			t.Errorf("%s: %q: nothing redacted", tt.name, got)
			continue
		}
		for i := 0; i+5 <= len(k); i++ {
			if strings.Contains(strings.NewReplacer(" ", "", "\n", "", `","`, "").Replace(got), k[i:i+5]) {
				t.Errorf("%s: %q keeps %q", tt.name, got, k[i:i+5])
				break
			}
		}
	}
	for _, keep := range []string{
		"the model gpt-oss-120b answered; csk- keys start so",
		"colour &amp; flavour, &#169; 2024, a&b",
		"hex 63736b2d is four bytes",
	} {
		if got := s.String(keep); got != keep {
			t.Errorf("ordinary text changed: %q → %q", keep, got)
		}
	}
}

// TestOfURLTakesPathKeys: a key in a base URL's path (a gateway's
// /v1/<key>/openai) is a secret of the URL; names in a path are not, and
// RedactURL shows the URL without it.
func TestOfURLTakesPathKeys(t *testing.T) {
	for _, tc := range []struct {
		url  string
		want []string
	}{
		{"https://gw.example/v1/a1B2c3D4e5F6g7H8/openai", []string{"a1B2c3D4e5F6g7H8"}},
		{"https://gw.example/acct/123e4567-e89b-12d3-a456-426614174000/tavily", []string{"123e4567-e89b-12d3-a456-426614174000"}},
		{"https://gw.example/key/sk-proj-Ab12Cd34Ef56Gh78Ij90", []string{"sk-proj-Ab12Cd34Ef56Gh78Ij90"}},
		{"https://x.example/openai/deployments/gpt-oss-120b-deploy/v1", nil},
		{"https://api.cerebras.ai/v1", nil},
		{"https://x.example/aaaaaaaaaaaaaaaaaaaaaaaa/1234", nil},
	} {
		got := OfURL(tc.url)
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("OfURL(%q) = %q, want %q", tc.url, got, tc.want)
		}
	}
	if got, want := RedactURL("https://u:hunter2222@gw.example/v1/a1B2c3D4e5F6g7H8/openai?token=tok-0123456789"), "https://u:REDACTED@gw.example/v1/REDACTED/openai?token=REDACTED"; got != want {
		t.Errorf("RedactURL = %q, want %q", got, want)
	}
}

// TestWithReusesSets: With adds what is new and builds each extension once;
// adding nothing returns the Set itself. The Sets it returns scrub as the
// Sets New builds from the same values.
func TestWithReusesSets(t *testing.T) {
	base := New("sk-base-0123456789")
	if got := base.With("sk-base-0123456789", " ", "short"); got != base {
		t.Errorf("With of known, blank and short values built a new Set")
	}
	var none *Set
	if got := none.With(""); got != nil {
		t.Errorf("nil.With(\"\") = %v, want nil", got)
	}
	a := base.With("Bearer-tvly-abcdef123456", "sk-base-0123456789")
	b := base.With("Bearer-tvly-abcdef123456")
	if a != b {
		t.Errorf("the same extension was built twice")
	}
	want := New("sk-base-0123456789", "Bearer-tvly-abcdef123456")
	if !slices.Equal(a.Values(), want.Values()) {
		t.Errorf("With values = %q, want %q", a.Values(), want.Values())
	}
	text := "key sk-base-0123456789 and " + base64.StdEncoding.EncodeToString([]byte("Bearer-tvly-abcdef123456"))
	if got, w := a.String(text), want.String(text); got != w {
		t.Errorf("With scrubs %q, New %q", got, w)
	}
	if c := base.With("another-key-9876543210"); c == a || slices.Contains(c.Values(), "Bearer-tvly-abcdef123456") {
		t.Errorf("a different extension shares the first's Set: %q", c.Values())
	}
}
