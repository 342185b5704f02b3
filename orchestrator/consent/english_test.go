package consent

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"testing"
)

// TestEnglishFastPath reads every line of the English word list both ways:
// where asciiWord reads a line, tokenize must read it as the one word with
// the same exact form and key. The set english builds is then the set
// tokenize alone builds.
func TestEnglishFastPath(t *testing.T) {
	zr, err := gzip.NewReader(bytes.NewReader(englishWordsGz))
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(zr)
	lines, fast, bad := 0, 0, 0
	slow := englishSet{exact: map[string]bool{}, key: map[string]bool{}}
	for sc.Scan() {
		lines++
		var words []token
		for _, tk := range tokenize(sc.Text(), nil) {
			if tk.kind == tokWord {
				words = append(words, tk)
				slow.exact[tk.exact], slow.key[tk.key] = true, true
			}
		}
		exact, key, ok := asciiWord(sc.Bytes(), nil)
		if !ok {
			continue
		}
		fast++
		if len(words) != 1 || words[0].exact != exact || words[0].key != key {
			if bad++; bad <= 10 {
				t.Errorf("line %d %q: asciiWord reads %q/%q, tokenize %+v", lines, sc.Text(), exact, key, words)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if fast < lines*9/10 {
		t.Errorf("asciiWord reads %d of %d lines; the fast path is meant for nearly all", fast, lines)
	}
	e := english()
	if len(e.exact) != len(slow.exact) || len(e.key) != len(slow.key) {
		t.Errorf("english() holds %d exact forms and %d keys, tokenize alone %d and %d", len(e.exact), len(e.key), len(slow.exact), len(slow.key))
	}
	for w := range slow.exact {
		if !e.exact[w] {
			t.Errorf("english() lacks the exact form %q", w)
			break
		}
	}
	for k := range slow.key {
		if !e.key[k] {
			t.Errorf("english() lacks the key %q", k)
			break
		}
	}
	t.Logf("%d lines, %d read by asciiWord", lines, fast)
}

func TestASCIIWord(t *testing.T) {
	for _, tt := range []struct {
		in, exact, key string
		ok             bool
	}{
		{"Aardvark's", "aardvarks", "ardvarks", true},
		{"students'", "students", "students", true},
		{"book", "book", "bok", true},
		{"'tis", "", "", false},
		{"a''b", "", "", false},
		{"café", "", "", false},
		{"x-ray", "", "", false},
		{"", "", "", false},
	} {
		exact, key, ok := asciiWord([]byte(tt.in), nil)
		if exact != tt.exact || key != tt.key || ok != tt.ok {
			t.Errorf("asciiWord(%q) = %q, %q, %v; want %q, %q, %v", tt.in, exact, key, ok, tt.exact, tt.key, tt.ok)
		}
	}
}

func BenchmarkEnglishList(b *testing.B) {
	for b.Loop() {
		n := 0
		eachEnglishWord(func(string, string) { n++ })
	}
}
