// Package golden compares test output with golden files under testdata/.
// `go test ./pkg -update` rewrites them; review the diff before committing.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/searchbench/searchbench/lib/textdiff"
)

// Update is the -update flag of every test binary that imports golden.
var Update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// Check compares got with the golden file at path, byte for byte, and
// reports a mismatch with its first differing offset and a diff in which
// invisible characters are visible. With -update it writes got to path.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *Update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update creates it)", err)
	}
	if m := textdiff.Compare(string(want), string(got)); m != nil {
		t.Errorf("%s differs from the output (go test -update accepts it): %s\n%s", path, m, m.Diff)
	}
}
