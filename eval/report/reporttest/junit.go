package reporttest

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/searchbench/searchbench/lib/testenv"
)

// ValidateJUnit checks the JUnit XML file path against the junit-10 XSD
// (Jenkins xUnit plugin's schema, eval/report/testdata/junit-10.xsd) with
// xmllint.
func ValidateJUnit(t testing.TB, path string) {
	t.Helper()
	xmllint := testenv.Tool(t, "", "libxml2-utils", "xmllint")
	_, file, _, _ := runtime.Caller(0)
	xsd := filepath.Join(filepath.Dir(file), "..", "testdata", "junit-10.xsd")
	out, err := exec.Command(xmllint, "--noout", "--schema", xsd, path).CombinedOutput()
	if err != nil {
		t.Errorf("%s does not validate against junit-10.xsd: %v\n%s", path, err, out)
	}
}
