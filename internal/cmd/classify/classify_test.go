package classify_test

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/searchbench/searchbench/internal/cmd/classify"
	"github.com/searchbench/searchbench/internal/cmd/root"
	"github.com/searchbench/searchbench/internal/cmdutil"
)

var update = flag.Bool("update", false, "rewrite the expected output in testdata/script")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"searchbench": func() {
			os.Exit(root.Main(context.Background(), os.Args[1:], cmdutil.System()))
		},
	})
}

// TestScripts runs the command end to end from testdata/script/*.txtar.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		UpdateScripts:       *update,
		RequireExplicitExec: true,
	})
}

func TestClassify(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		code     int
		want     classify.Result // checked when code is 0
		errMatch string          // checked when code is not 0
	}{
		{
			name: "override joins arguments",
			args: []string{"classify", "what", "are", "current", "EU", "AI", "regulations", "?"},
			want: classify.Result{Input: "what are current EU AI regulations ?", Normalized: "what are current eu ai regulations?",
				Override: true, Phase: "phase2", Query: "what are current EU AI regulations?", Rule: "override.trailing"},
		},
		{
			name: "consent with previous query",
			args: []string{"classify", "--awaiting-consent", "--previous", "who is the CEO of Microsoft", "sure?"},
			want: classify.Result{Input: "sure?", Normalized: "sure?", AwaitingConsent: true, Intent: "YES",
				Phase: "phase2", Query: "who is the CEO of Microsoft", Rule: "yes.word"},
		},
		{
			name: "decline without previous query",
			args: []string{"classify", "--awaiting-consent", "I’m good"},
			want: classify.Result{Input: "I’m good", Normalized: "i'm good", AwaitingConsent: true, Intent: "NO",
				Phase: "decline", Query: "<previous query>", Rule: "no.word"},
		},
		{name: "no text", args: []string{"classify"}, code: 2, errMatch: "requires at least 1 arg"},
		{name: "unknown flag", args: []string{"classify", "--bogus", "x"}, code: 2, errMatch: "unknown flag"},
		{name: "previous without awaiting", args: []string{"classify", "--previous", "q", "x"}, code: 2, errMatch: "--previous needs --awaiting-consent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			io, out, errOut := cmdutil.Test("")
			code := root.Main(context.Background(), tt.args, io)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, tt.code, errOut)
			}
			if tt.code != 0 {
				if !strings.Contains(errOut.String(), tt.errMatch) {
					t.Errorf("stderr %q does not contain %q", errOut, tt.errMatch)
				}
				return
			}
			var got classify.Result
			dec := json.NewDecoder(out)
			dec.DisallowUnknownFields()
			if err := dec.Decode(&got); err != nil {
				t.Fatalf("output %q: %v", out, err)
			}
			if got != tt.want {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}
