package gate

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/lib/testenv"
)

// ReadRef reads a baseline from git at a ref without a checkout; the test
// runs in a repository of its own whose HEAD has reports/baseline.json.
func TestReadRef(t *testing.T) {
	testenv.Tool(t, "", "git", "git")
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "reports"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "reports", "baseline.json"), []byte("{\"meta\": {}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) {
		t.Helper()
		c := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		c.Dir = dir
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-qm", "base")
	t.Chdir(dir)
	ref, data, err := ReadRef("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if ref.Ref != "HEAD" || len(ref.Commit) != 40 || ref.Path != DefaultBaselinePath || !strings.HasPrefix(string(data), "{") {
		t.Errorf("ReadRef(HEAD) = %+v, %d bytes", ref, len(data))
	}
	if !strings.HasPrefix(ref.String(), "HEAD (commit "+ref.Commit[:12]+")") {
		t.Errorf("String() = %q", ref.String())
	}

	_, _, err = ReadRef("no-such-ref-anywhere")
	if cmdutil.ExitCode(err) != cmdutil.ExitUsage || !strings.Contains(err.Error(), "git fetch") {
		t.Errorf("an unknown ref: %v, want a usage error saying to fetch it", err)
	}
	_, _, err = ReadRef("HEAD:reports/no-such-baseline.json")
	if cmdutil.ExitCode(err) != cmdutil.ExitInfra || !strings.Contains(err.Error(), "reports/no-such-baseline.json does not exist at HEAD") {
		t.Errorf("a missing file: %v, want an infrastructure error naming it", err)
	}
	_, _, err = ReadRef(":x")
	if cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("no ref: %v", err)
	}
}
