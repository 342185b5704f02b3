package prompt_test

import (
	"context"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/internal/cmd/root"
	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/orchestrator/executor"
)

func TestPrompt(t *testing.T) {
	for _, s := range executor.Strategies {
		t.Run(s, func(t *testing.T) {
			want, err := executor.Prompt(s)
			if err != nil {
				t.Fatal(err)
			}
			io, out, errOut := cmdutil.Test("")
			if code := root.Main(context.Background(), []string{"prompt", "--strategy", s}, io); code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if out.String() != want {
				t.Errorf("printed %q\nwant %q", out, want)
			}
		})
	}
	io, out, _ := cmdutil.Test("")
	io.SetTTY(true, true)
	root.Main(context.Background(), []string{"prompt", "-s", "fuzzy"}, io)
	if !strings.HasSuffix(out.String(), "file paths.\n") {
		t.Errorf("terminal output does not end with one newline: %q", out.String()[max(0, out.Len()-20):])
	}
}

func TestPromptErrors(t *testing.T) {
	for _, args := range [][]string{{"prompt"}, {"prompt", "--strategy", "json"}, {"prompt", "-s", "react", "extra"}} {
		io, out, errOut := cmdutil.Test("")
		if code := root.Main(context.Background(), args, io); code != cmdutil.ExitUsage {
			t.Errorf("%v: exit %d; want %d (%s)", args, code, cmdutil.ExitUsage, errOut)
		}
		if out.Len() != 0 || errOut.Len() == 0 {
			t.Errorf("%v: stdout %q stderr %q", args, out, errOut)
		}
	}
}
