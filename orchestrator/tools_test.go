package orchestrator

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/orchestrator/executor"
)

func TestExecutorDispatcher(t *testing.T) {
	f := newFake(t)
	a, _ := f.assistant(Options{})
	d := a.clients.Dispatcher(executor.ToolsConfig{Workspace: t.TempDir()}, 3)
	defer d.Close()
	ctx := context.Background()

	out, err := d.Dispatch(ctx, executor.Call{Name: "web_search", Arguments: map[string]any{"query": "Rust async"}})
	if err != nil || !strings.HasPrefix(out, "Web search results for 'Rust async':\n\n1. Fact page 1") || strings.Contains(out, "\n4. ") {
		t.Fatalf("web_search: %v\n%s", err, out)
	}
	out, err = d.Dispatch(ctx, executor.Call{Name: "web_fetch", Arguments: map[string]any{"url": "https://go.dev/doc"}})
	if err != nil || out != "# Page\n\nThe page text." {
		t.Fatalf("web_fetch: %v %q", err, out)
	}
	if _, err = d.Dispatch(ctx, executor.Call{Name: "web_fetch", Arguments: map[string]any{"url": "https://example.com/missing"}}); err == nil || !strings.Contains(err.Error(), "404 Not Found") {
		t.Fatalf("failed extract: %v", err)
	}
	if _, err = d.Dispatch(ctx, executor.Call{Name: "exec", Arguments: map[string]any{"command": "ls"}}); !errors.Is(err, executor.ErrNotEnabled) {
		t.Fatalf("exec: %v", err)
	}
	if _, err = d.Dispatch(ctx, executor.Call{Name: "read", Arguments: map[string]any{"path": "../../etc/passwd"}}); !errors.Is(err, executor.ErrOutsideWorkspace) {
		t.Fatalf("read outside: %v", err)
	}
	want := []string{"tavily:Rust async:3", "extract:https://go.dev/doc", "extract:https://example.com/missing"}
	if strings.Join(f.searches, "|") != strings.Join(want, "|") {
		t.Fatalf("requests %v, want %v", f.searches, want)
	}
}
