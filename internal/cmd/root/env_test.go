package root_test

import (
	"context"
	"testing"

	"github.com/searchbench/searchbench/internal/cmd/root"
	"github.com/searchbench/searchbench/internal/cmdutil"
)

// TestShippedReplayIgnoresBaseURLs: with the base URLs `searchbench sim`
// prints still exported (loopback addresses), the untouched shipped
// cassettes replay with exit 0. Replay matches requests on service and
// path, and the error texts the model was shown name no base URL.
func TestShippedReplayIgnoresBaseURLs(t *testing.T) {
	env := map[string]string{
		"SEARCHBENCH_LLM_BASE_URL": "http://127.0.0.1:7731/v1",
		"TAVILY_BASE_URL":          "http://127.0.0.1:7731/tavily",
		"EXA_BASE_URL":             "http://127.0.0.1:7731/exa",
	}
	io, out, errOut := cmdutil.Test("")
	io.Getenv = func(k string) string { return env[k] }
	code := root.Main(context.Background(), append([]string{"run", "--quiet", "--runs", "", "--out", "", "--filter", "dataset:flows", "--filter", "dataset:routing"}, shipped(t)...), io)
	if code != 0 {
		t.Fatalf("replay with loopback base URLs set: exit %d\n%s%s", code, out, errOut)
	}
}
