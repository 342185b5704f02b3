package sim_test

import (
	"context"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/internal/cmd/root"
	"github.com/searchbench/searchbench/internal/cmdutil"
)

// TestUsageErrors runs bad invocations through root.Main: they fail with
// exit 2 before listening.
func TestUsageErrors(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"not loopback", []string{"sim", "--addr", "0.0.0.0:8089"}, "only listens on loopback"},
		{"bad addr", []string{"sim", "--addr", "8089"}, `--addr "8089"`},
		{"unknown variant", []string{"sim", "--addr", "127.0.0.1:0", "--variant", "nope"}, `unknown prompt variant "nope"`},
		{"arguments", []string{"sim", "extra"}, "unknown command"},
		{"bad flag", []string{"sim", "--port", "1"}, "unknown flag"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ios, _, errOut := cmdutil.Test("")
			if code := root.Main(context.Background(), tc.args, ios); code != cmdutil.ExitUsage {
				t.Errorf("exit %d, want %d; stderr %s", code, cmdutil.ExitUsage, errOut)
			}
			if !strings.Contains(errOut.String(), tc.stderr) {
				t.Errorf("stderr %q lacks %q", errOut, tc.stderr)
			}
		})
	}
}
