package record_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/internal/cmd/root"
	"github.com/searchbench/searchbench/internal/cmdutil"
)

func sb(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	io, out, errOut := cmdutil.Test("")
	code := root.Main(context.Background(), args, io)
	return code, out.String(), errOut.String()
}

func TestRecordSamples(t *testing.T) {
	dir := t.TempDir()
	ds := filepath.Join(dir, "datasets")
	os.MkdirAll(ds, 0o755)
	os.WriteFile(filepath.Join(ds, "routing.yaml"), []byte("kind: routing\ncases:\n  - id: ubi\n    query: Which countries have run universal basic income pilots and what did the research conclude?\n    label: tavily_plus_exa\n"), 0o644)
	prompts := filepath.Join(dir, "prompts")
	os.MkdirAll(filepath.Join(prompts, "cold"), 0o755)
	os.WriteFile(filepath.Join(prompts, "cold", "variant.yaml"), []byte("temperature: 0\n"), 0o644)
	common := []string{"--datasets", ds, "--cassettes", filepath.Join(dir, "cassettes"), "--prompts", prompts}

	code, out, errOut := sb(t, append([]string{"record", "--samples", "3"}, common...)...)
	if code != 0 || !strings.Contains(out, "recorded 1 cases × 3 samples = 3 cassettes under ") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	for _, f := range []string{"ubi.yaml", "ubi.s2.yaml", "ubi.s3.yaml"} {
		if _, err := os.Stat(filepath.Join(dir, "cassettes", "seed", "model", "routing", f)); err != nil {
			t.Error(err)
		}
	}
	if strings.Contains(errOut, "temperature 0") {
		t.Error("seed sets no temperature, yet a warning says 0")
	}

	// A variant at temperature 0 is warned about: its samples would not differ.
	_, _, errOut = sb(t, append([]string{"record", "--samples", "2", "--variant", "cold", "--sim-policy", "seed"}, common...)...)
	if !strings.Contains(errOut, "WARNING: variant cold sets temperature 0") {
		t.Errorf("no temperature warning:\n%s", errOut)
	}

	for _, bad := range []string{"-1", "101"} {
		code, _, errOut := sb(t, append([]string{"record", "--samples", bad}, common...)...)
		if code != cmdutil.ExitUsage || !strings.Contains(errOut, "--samples "+bad+": want 1 to 100") {
			t.Errorf("--samples %s: exit %d %s", bad, code, errOut)
		}
	}
}
