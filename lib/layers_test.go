package lib_test

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/searchbench/searchbench/"

// floors lists, bottom first, the top-level folders a package may live in;
// a package may import its own floor and the ones below it.
var floors = []string{"lib", "data", "orchestrator", "sim", "eval", "internal", "cmd"}

// data holds the embedded data packages: they sit on one floor.
var data = map[string]bool{"fixtures": true, "config": true, "prompts": true}

func floor(pkg string) int {
	top, _, _ := strings.Cut(strings.TrimPrefix(pkg, module), "/")
	if data[top] {
		top = "data"
	}
	for i, f := range floors {
		if f == top {
			return i
		}
	}
	return -1
}

// TestNoImportClimbs checks every package's imports against the floors: a
// lower floor never imports a higher one. Tests may reach up (sim's tests
// replay the shipped datasets through eval), so only non-test imports count.
func TestNoImportClimbs(t *testing.T) {
	out, err := exec.Command("go", "list", "-json=ImportPath,Imports", module+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	n := 0
	for dec.More() {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		n++
		from := floor(p.ImportPath)
		if from < 0 {
			t.Errorf("%s: top-level folder not in the floor list %v", p.ImportPath, floors)
			continue
		}
		for _, imp := range p.Imports {
			if !strings.HasPrefix(imp, module) {
				continue
			}
			if to := floor(imp); to > from {
				t.Errorf("%s imports %s: %s is above %s", strings.TrimPrefix(p.ImportPath, module), strings.TrimPrefix(imp, module), floors[to], floors[from])
			}
		}
	}
	if n < 20 {
		t.Fatalf("go list listed %d packages; expected the whole module", n)
	}
}
