package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSummariseNamesFunctions(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("testdata/p/p.go.txt")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p.go"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	res := filepath.Join(dir, "r.json")
	if err := os.WriteFile(res, []byte(`{"files":[{"file_name":"p.go","mutations":[
		{"type":"CONDITIONALS_BOUNDARY","status":"LIVED","line":6,"column":11},
		{"type":"ARITHMETIC_BASE","status":"LIVED","line":10,"column":11},
		{"type":"CONDITIONALS_NEGATION","status":"KILLED","line":6,"column":11},
		{"type":"INVERT_NEGATIVES","status":"TIMED OUT","line":10,"column":9}]}],
		"test_efficacy":33.3,"mutations_coverage":100,"mutants_total":4,"mutants_killed":1,"mutants_lived":2,"mutants_not_covered":0}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := summarise(&out, dir, res); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"efficacy  33.30%  (killed 1, lived 2, timed out 1, not covered 0",
		"lived: Free, ARITHMETIC_BASE at p.go:10:11  return n + 1",
		"lived: T.Less, CONDITIONALS_BOUNDARY at p.go:6:11  return a < b",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
}
