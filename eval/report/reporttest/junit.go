package reporttest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// RequireToolsEnv, when set to 1 (as .ci/run does), turns a skip for a
// missing external tool (xmllint, Chromium) into a failure: CI must never
// pass a check it could not run.
const RequireToolsEnv = "SEARCHBENCH_REQUIRE_TOOLS"

// Tool returns the path of an external tool, skipping the test with a
// clear message when it is not installed — or failing it when
// RequireToolsEnv is set.
func Tool(t testing.TB, name, pkg string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err == nil {
		return p
	}
	msg := name + " is not installed (apt-get install " + pkg + "); this check cannot run"
	if os.Getenv(RequireToolsEnv) == "1" {
		t.Fatalf("%s, and %s=1 requires it", msg, RequireToolsEnv)
	}
	t.Skip(msg)
	return ""
}

// ValidateJUnit checks the JUnit XML file path against the junit-10 XSD
// (Jenkins xUnit plugin's schema, eval/report/testdata/junit-10.xsd) with
// xmllint.
func ValidateJUnit(t testing.TB, path string) {
	t.Helper()
	xmllint := Tool(t, "xmllint", "libxml2-utils")
	_, file, _, _ := runtime.Caller(0)
	xsd := filepath.Join(filepath.Dir(file), "..", "testdata", "junit-10.xsd")
	out, err := exec.Command(xmllint, "--noout", "--schema", xsd, path).CombinedOutput()
	if err != nil {
		t.Errorf("%s does not validate against junit-10.xsd: %v\n%s", path, err, out)
	}
}
