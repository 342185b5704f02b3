package dataset

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// streamed validates path as OpenFiles does and collects what it saw.
func streamed(t testing.TB, path string) (*Dataset, []Problem, []*Case) {
	t.Helper()
	var cases []*Case
	ds, ps, err := scanFile(path, true, func(c *Case) bool {
		cases = append(cases, c)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	return ds, ps, cases
}

// whole is the reference: the file decoded whole by Parse.
func whole(t testing.TB, path string) (*Dataset, []Problem) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := Parse(path, data)
	var de *Error
	if errors.As(err, &de) {
		return ds, de.Problems
	}
	if err != nil {
		t.Fatal(err)
	}
	return ds, nil
}

// sameAsWhole checks that streaming path gives what decoding it whole does:
// the same cases, the same problems, in the same order. It reports whether
// the file streamed (rather than falling back to the whole decoder).
func sameAsWhole(t testing.TB, path string) bool {
	t.Helper()
	fell := false
	onWhole = func(string) { fell = true }
	defer func() { onWhole = nil }()
	sds, sps, cases := streamed(t, path)
	wds, wps := whole(t, path)
	if (sds == nil) != (wds == nil) {
		t.Fatalf("%s: streamed dataset %v, whole %v", path, sds, wds)
	}
	if !reflect.DeepEqual(sps, wps) {
		t.Fatalf("%s: problems differ\nstreamed: %v\nwhole:    %v", path, sps, wps)
	}
	if wds == nil {
		return !fell
	}
	// A case the problems make nil is not handed on either way; the
	// cases handed on are the whole decoder's.
	if !reflect.DeepEqual(cases, wds.Cases) && !(len(cases) == 0 && len(wds.Cases) == 0) {
		for i := range min(len(cases), len(wds.Cases)) {
			if !reflect.DeepEqual(cases[i], wds.Cases[i]) {
				t.Fatalf("%s: case %d differs\nstreamed: %+v\nwhole:    %+v", path, i, cases[i], wds.Cases[i])
			}
		}
		t.Fatalf("%s: %d cases streamed, %d whole", path, len(cases), len(wds.Cases))
	}
	if sds.Name != wds.Name || sds.Kind != wds.Kind || sds.Count != len(wds.Cases) {
		t.Fatalf("%s: streamed %s/%s/%d, whole %s/%s/%d", path, sds.Name, sds.Kind, sds.Count, wds.Name, wds.Kind, len(wds.Cases))
	}
	return !fell
}

func TestStreamShippedDatasets(t *testing.T) {
	paths, _ := filepath.Glob("../../testdata/demo/datasets/*.yaml")
	if len(paths) < 4 {
		t.Fatalf("found %d shipped datasets", len(paths))
	}
	for _, p := range paths {
		if !sameAsWhole(t, p) {
			t.Errorf("%s was decoded whole, not streamed", p)
		}
	}
}

func TestStreamMatchesWhole(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		stream bool // streams rather than falling back
	}{
		{"routing", "kind: routing\ncases:\n  - id: a\n    query: q\n    label: exa_only\n  - id: b\n    query: r\n    label: tavily_only\n", true},
		{"items at column 0", "kind: routing\ncases:\n- id: a\n  query: q\n  label: exa_only\n- id: b\n  query: r\n  label: tavily_only\n", true},
		{"comments and blanks", "# head\nkind: routing # k\ndescription: d\n\ncases: # the cases\n\n  # first\n  - id: a\n    query: q\n\n# between\n    label: exa_only\n  - id: b # b\n    query: |\n      multi\n\n      line\n    label: tavily_only\n\n", true},
		{"problems", "kind: routing\ncases:\n  - id: a\n    query: ''\n    label: tavily\n  - id: a\n    query: q\n    label: exa_only\n    extra: 1\n  - id: Bad\n  - just a string\n", true},
		{"header after cases", "kind: routing\ncases:\n  - id: a\n    query: q\n    label: exa_only\ndescription: d\nunknown: 1\n", true},
		{"kind repeated after cases", "kind: routing\ncases:\n  - id: a\n    query: q\n    label: exa_only\nkind: flows\n", true},
		{"unknown kind", "kind: bogus\ncases:\n  - id: a\n", true},
		{"flows", "kind: flows\ncases:\n  - id: f\n    turns:\n      - user: hi\n        expect: {phase: phase1}\n      - user: \"yes\"\n        expect:\n          phase: phase2\n          route: exa_only\n", true},
		{"parser", "kind: parser\ncases:\n  - id: p\n    prompt: react\n    content: |\n      Action: web_search\n    expect:\n      - name: web_search\n        arguments: {query: x, n: 1.5}\n", true},
		{"CRLF", "kind: routing\r\ncases:\r\n  - id: a\r\n    query: q\r\n    label: exa_only\r\n", true},
		{"kind after cases", "cases:\n  - id: a\n    query: q\n    label: exa_only\nkind: routing\n", false},
		{"flow list", "kind: routing\ncases: [{id: a, query: q, label: exa_only}]\n", false},
		{"flow list on its own line", "kind: routing\ncases:\n  [{id: a, query: q, label: exa_only}]\n", false},
		{"anchor across cases", "kind: routing\ncases:\n  - &c\n    id: a\n    query: q\n    label: exa_only\n  - *c\n", false},
		{"syntax error", "kind: routing\ncases:\n  - id: a\n    query: \"q\n    label: exa_only\n", false},
		{"two documents", "kind: routing\ncases:\n  - id: a\n    query: q\n    label: exa_only\n---\nkind: flows\n", false},
		{"empty", "", false},
		{"no cases", "kind: routing\ncases:\n", false},
		{"cases repeated", "kind: routing\ncases: []\ncases:\n  - id: a\n    query: q\n    label: exa_only\n", false},
		{"tab", "kind: routing\ncases:\n\t- id: a\n", false},
		{"not a mapping", "- a\n- b\n", false},
	}
	dir := t.TempDir()
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(dir, fmt.Sprintf("routing%d.yaml", i))
			if err := os.WriteFile(p, []byte(tt.src), 0o644); err != nil {
				t.Fatal(err)
			}
			if got := sameAsWhole(t, p); got != tt.stream {
				t.Errorf("streamed = %v, want %v", got, tt.stream)
			}
		})
	}
}

func TestCatalog(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.yaml", "kind: routing\ncases:\n  - id: a1\n    query: q\n    label: exa_only\n  - id: a2\n    query: r\n    label: tavily_only\n")
	write("b.yaml", "kind: consent\ncases:\n  - id: b1\n    reply: \"yes\"\n    label: \"YES\"\n")
	var visited []string
	cat, err := OpenDir(dir, func(c *Case) { visited = append(visited, c.Key()) })
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a/a1", "a/a2", "b/b1"}; !reflect.DeepEqual(visited, want) {
		t.Fatalf("visited %v, want %v", visited, want)
	}
	if cat.Count() != 3 || cat.Datasets[0].Cases != nil || len(cat.Datasets[0].SHA256) != 64 {
		t.Fatalf("catalog %+v", cat.Datasets[0])
	}
	var keys []string
	for c, err := range cat.Cases() {
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, c.Key())
	}
	if !reflect.DeepEqual(keys, visited) {
		t.Fatalf("streamed %v, validated %v", keys, visited)
	}
	// Stopping early stops.
	n := 0
	for range cat.Cases() {
		n++
		break
	}
	if n != 1 {
		t.Fatal("break did not stop")
	}

	// Every problem of every file, at once.
	write("c.yaml", "kind: routing\ncases:\n  - id: c1\n    query: ''\n    label: nope\n")
	write("d.yaml", "kind: flows\ncases: 3\n")
	_, err = OpenDir(dir, nil)
	var de *Error
	if !errors.As(err, &de) || len(de.Problems) != 3 {
		t.Fatalf("err = %v, want 3 problems", err)
	}
	for _, want := range []string{"c.yaml:4:12: case \"c1\": query is empty", "c.yaml:5:12: case \"c1\": unknown label", "d.yaml:2:8: cases must be a list"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	os.Remove(filepath.Join(dir, "c.yaml"))
	os.Remove(filepath.Join(dir, "d.yaml"))

	// A file edited after validation is an error, not other data run.
	cat, err = OpenDir(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	write("b.yaml", "kind: consent\ncases:\n  - id: b1\n    reply: \"no\"\n    label: \"NO\"\n")
	var last error
	for _, err := range cat.Cases() {
		last = err
	}
	if last == nil || !strings.Contains(last.Error(), "changed since it was validated") {
		t.Fatalf("edited file: %v", last)
	}
}

func FuzzStreamMatchesWhole(f *testing.F) {
	for _, s := range []string{
		"kind: routing\ncases:\n  - id: a\n    query: q\n    label: exa_only\n",
		"kind: flows\ncases:\n- id: f\n  turns:\n  - user: hi\n    expect: {phase: phase1}\n# x\ndescription: d\n",
		"kind: parser\ncases:\n  - id: p\n    prompt: react\n    content: |\n      a\n    expect: []\n",
	} {
		f.Add(s)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, src string) {
		p := filepath.Join(dir, "routing.yaml")
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		sameAsWhole(t, p)
	})
}
