package reporttest

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/searchbench/searchbench/lib/testenv"
)

// RequireToolsEnv is testenv.RequireToolsEnv: set to 1 (as .ci/run does),
// it turns a skip for a missing external tool into a failure.
const RequireToolsEnv = testenv.RequireToolsEnv

// Tool returns the path of an external tool, skipping the test with a
// clear message when it is not installed — or failing it when
// RequireToolsEnv is set (see lib/testenv).
func Tool(t testing.TB, name, pkg string) string {
	t.Helper()
	return testenv.Tool(t, "", pkg, name)
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
