package root

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/searchbench/searchbench/internal/cmdutil"
)

func TestExitCodes(t *testing.T) {
	io, _, errOut := cmdutil.Test("")
	tests := []struct {
		args []string
		want int
	}{
		{[]string{"--help"}, cmdutil.ExitOK},
		{[]string{"no-such-command"}, cmdutil.ExitUsage},
		{[]string{"--no-such-flag"}, cmdutil.ExitUsage},
	}
	for _, tt := range tests {
		errOut.Reset()
		if got := Main(context.Background(), tt.args, io); got != tt.want {
			t.Errorf("searchbench %v: exit %d, want %d (stderr %q)", tt.args, got, tt.want, errOut)
		}
	}
}

// TestRequiredFlagIsUsage checks that cobra's own checks, which run after
// any pre-run hooks, still map to a usage error.
func TestRequiredFlagIsUsage(t *testing.T) {
	started := false
	io, _, _ := cmdutil.Test("")
	root := newCmdRoot(io, &started)
	sub := &cobra.Command{Use: "needs", RunE: func(*cobra.Command, []string) error { return errors.New("ran") }}
	sub.Flags().String("x", "", "")
	_ = sub.MarkFlagRequired("x")
	root.AddCommand(sub)
	markStart(sub, &started)
	root.SetArgs([]string{"needs"})
	err := root.ExecuteContext(context.Background())
	if err == nil || started {
		t.Fatalf("err %v, started %v: want a required-flag error before the command starts", err, started)
	}

	// And once the command runs, an unclassified error is infrastructure.
	started = false
	root.SetArgs([]string{"needs", "--x", "1"})
	err = root.ExecuteContext(context.Background())
	if err == nil || !strings.Contains(err.Error(), "ran") || !started {
		t.Fatalf("err %v, started %v", err, started)
	}
}

// --version prints the module version and the Go version it was built with.
func TestVersion(t *testing.T) {
	io, out, _ := cmdutil.Test("")
	if code := Main(context.Background(), []string{"--version"}, io); code != 0 {
		t.Fatalf("exit %d", code)
	}
	got := out.String()
	if !strings.HasPrefix(got, "searchbench ") || !strings.Contains(got, runtime.Version()) || strings.Count(got, "\n") != 1 {
		t.Errorf("--version printed %q", got)
	}
}
