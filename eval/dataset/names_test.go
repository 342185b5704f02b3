package dataset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReservedNamesAndLongIDs: a dataset file named like recorded.json or
// starting with '.' would put its cassette folder where the shelf keeps its
// manifest or its hidden files; an id longer than MaxIDLen validates today
// but its cassette cannot be written. Both loaders (whole and streamed)
// refuse them with file and line.
func TestReservedNamesAndLongIDs(t *testing.T) {
	dir := t.TempDir()
	body := "kind: routing\ncases:\n  - id: ok\n    query: What year was the first iPhone released?\n    label: tavily_only\n"
	long := strings.Repeat("a", MaxIDLen+1)
	files := map[string]string{
		"recorded.json.yaml":   body,
		"Recorded.JSON.x.yaml": body,
		".hidden.yaml":         body,
		"long.yaml":            "kind: routing\ncases:\n  - id: ok\n    query: q one?\n    label: tavily_only\n  - id: " + long + "\n    query: q two?\n    label: tavily_only\n",
		"fine.yaml":            body,
	}
	var paths []string
	for n, b := range files {
		p := filepath.Join(dir, n)
		os.WriteFile(p, []byte(b), 0o644)
		paths = append(paths, p)
	}
	// The longest id allowed fits every name written after it.
	if n := len("." + strings.Repeat("a", MaxIDLen) + ".s100.yaml.tmp-1234567890"); n > 255 {
		t.Fatalf("a temporary of the longest id is %d bytes", n)
	}
	for name, load := range map[string]func() error{
		"LoadFiles": func() error { _, err := LoadFiles(paths...); return err },
		"OpenFiles": func() error { _, err := OpenFiles(paths, func(*Case) {}); return err },
		"LoadDir":   func() error { _, err := LoadDir(dir); return err },
	} {
		err := load()
		if err == nil {
			t.Fatalf("%s accepted reserved names and a long id", name)
		}
		msg := err.Error()
		for _, want := range []string{
			"recorded.json.yaml: dataset name \"recorded.json\"",
			"Recorded.JSON.x.yaml: dataset name",
			".hidden.yaml: dataset name \".hidden\" (the file's name) starts with '.'",
			"long.yaml:6:",
			"at most 200 fit",
		} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s: error lacks %q:\n%s", name, want, msg)
			}
		}
		if strings.Contains(msg, "fine.yaml") {
			t.Errorf("%s: a fine file was blamed:\n%s", name, msg)
		}
	}
}
