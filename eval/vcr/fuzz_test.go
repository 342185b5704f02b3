package vcr

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// unescapeElem inverts escapeElem, showing that Path is injective.
func unescapeElem(s string) (string, bool) {
	if s == "%" {
		return "", true
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", false
		}
		v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
		if err != nil {
			return "", false
		}
		b.WriteByte(byte(v))
		i += 2
	}
	return b.String(), true
}

// FuzzPath checks that any ids give a file three elements below root, that
// each element is a plain name, and that the ids can be read back from it.
func FuzzPath(f *testing.F) {
	f.Add("baseline", "smoke", "case-1")
	f.Add("a/b", "..", "../../etc/passwd")
	f.Add("", ".", "%41")
	f.Fuzz(func(t *testing.T, variant, dataset, id string) {
		root := filepath.Join("cassettes", "root")
		p := Path(root, variant, dataset, id)
		rel, err := filepath.Rel(root, p)
		if err != nil {
			t.Fatal(err)
		}
		parts := strings.Split(rel, string(filepath.Separator))
		if len(parts) != 3 {
			t.Fatalf("Path(%q, %q, %q) = %q: %d elements below root", variant, dataset, id, p, len(parts))
		}
		last, ok := strings.CutSuffix(parts[2], Ext)
		if !ok {
			t.Fatalf("%q lacks %s", p, Ext)
		}
		parts[2] = last
		for i, want := range []string{variant, dataset, id} {
			if parts[i] == "." || parts[i] == ".." || strings.HasPrefix(parts[i], ".") {
				t.Fatalf("element %q of %q", parts[i], p)
			}
			if got, ok := unescapeElem(parts[i]); !ok || got != want {
				t.Fatalf("element %q of %q reads back as %q, want %q", parts[i], p, got, want)
			}
		}
	})
}

// FuzzProviderDuration checks that any response body gives a duration in
// [0, maxDuration] without panicking.
func FuzzProviderDuration(f *testing.F) {
	f.Add([]byte(`{"time_info":{"total_time":0.42}}`))
	f.Add([]byte(`{"response_time":"1.67"}`))
	f.Add([]byte("data: {\"searchTime\":312.5}\n\ndata: [DONE]\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		if d := ProviderDuration(body); d < 0 || d > maxDuration {
			t.Fatalf("ProviderDuration(%q) = %v", body, d)
		}
	})
}
