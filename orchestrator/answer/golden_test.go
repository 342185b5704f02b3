package answer

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// untestable lists codes no input can produce with the current schema, and
// why; the coverage test skips them.
var untestable = map[string]string{
	"schema.invalid": "every keyword of envelope.schema.json maps to a specific code; schema.invalid only catches keywords added later",
}

// runCase checks one case file. Its name says which checker runs:
// phase1.*, phase2.* or envelope.*.
func runCase(t *testing.T, name string, data []byte) (fs []Finding, summary string) {
	t.Helper()
	switch kind, _, _ := strings.Cut(name, "."); kind {
	case "phase1":
		return CheckPhase1(string(data)), ""
	case "phase2":
		rep := CheckPhase2(string(data))
		return rep.Findings, fmt.Sprintf("verification=%q markdown_matches=%v canonical_matches=%v envelope=%v\n",
			rep.Verification, rep.MarkdownMatches, rep.CanonicalMatches, rep.Envelope != nil)
	case "envelope":
		env, fs := CheckEnvelope(data)
		return fs, fmt.Sprintf("envelope=%v\n", env != nil)
	}
	t.Fatalf("case file %s: name must start with phase1., phase2. or envelope.", name)
	return nil, ""
}

// formatFindings renders findings for a golden file, one per line, each
// diff indented under its finding.
func formatFindings(fs []Finding) string {
	var b strings.Builder
	if len(fs) == 0 {
		b.WriteString("(no findings)\n")
	}
	for _, f := range fs {
		fmt.Fprintf(&b, "%s %s @ %s: %s\n", f.Severity, f.Code, f.Location, f.Message)
		if f.Diff != "" {
			for _, l := range strings.Split(strings.TrimSuffix(f.Diff, "\n"), "\n") {
				b.WriteString("    | " + l + "\n")
			}
		}
	}
	return b.String()
}

// TestCases runs every archive in testdata/cases. Archive <code>.txtar holds
// inputs named *.fail*, which must report <code>, and *.pass*, which must
// not; all findings of all files are compared with testdata/golden/<code>.golden.
func TestCases(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "cases", "*.txtar"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no case archives: %v", err)
	}
	fail, pass := map[string]bool{}, map[string]bool{}
	for _, path := range paths {
		code := strings.TrimSuffix(filepath.Base(path), ".txtar")
		t.Run(code, func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var got strings.Builder
			for _, f := range ar.Files {
				fs, summary := runCase(t, f.Name, f.Data)
				has := slices.ContainsFunc(fs, func(x Finding) bool { return x.Code == code })
				switch {
				case strings.Contains(f.Name, ".fail"):
					fail[code] = true
					if !has {
						t.Errorf("%s: %s not reported; findings:\n%s", f.Name, code, formatFindings(fs))
					}
				case strings.Contains(f.Name, ".pass"):
					pass[code] = true
					if has {
						t.Errorf("%s: %s reported on a passing example:\n%s", f.Name, code, formatFindings(fs))
					}
				default:
					t.Errorf("%s: name must contain .fail or .pass", f.Name)
				}
				fmt.Fprintf(&got, "== %s ==\n%s%s", f.Name, summary, formatFindings(fs))
			}
			golden := filepath.Join("testdata", "golden", code+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(got.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if got.String() != string(want) {
				t.Errorf("findings differ from %s (run go test -update and review the diff):\n%s", golden, got.String())
			}
		})
	}
	t.Run("coverage", func(t *testing.T) {
		for _, c := range Codes {
			if _, ok := untestable[c.Code]; ok {
				continue
			}
			if !fail[c.Code] || !pass[c.Code] {
				t.Errorf("code %s needs testdata/cases/%s.txtar with a failing and a passing example (fail=%v pass=%v)",
					c.Code, c.Code, fail[c.Code], pass[c.Code])
			}
		}
	})
}

// TestExamples checks the shipped examples: *-ok.md and the insufficient
// evidence example are clean, *-bad-*.md have violations.
func TestExamples(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "examples", "*.md"))
	if len(paths) < 4 {
		t.Fatalf("want at least 4 examples, got %d", len(paths))
	}
	for _, path := range paths {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var fs []Finding
			if strings.HasPrefix(name, "phase1") {
				fs = CheckPhase1(string(data))
			} else {
				fs = CheckPhase2(string(data)).Findings
			}
			bad := strings.Contains(name, "-bad-")
			if bad != HasViolation(fs) {
				t.Errorf("bad=%v but findings:\n%s", bad, formatFindings(fs))
			}
			if !bad && len(fs) > 0 {
				t.Errorf("want no findings at all:\n%s", formatFindings(fs))
			}
		})
	}
}
