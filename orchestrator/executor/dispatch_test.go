package executor

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDispatchWebTools(t *testing.T) {
	var gotQuery, gotURL string
	d := &Dispatcher{
		Search: func(_ context.Context, q string) (string, error) { gotQuery = q; return "results for " + q, nil },
		Fetch: func(_ context.Context, u string) (string, error) {
			gotURL = u
			return "", errors.New("tavily extract: 432")
		},
	}
	out, err := d.Dispatch(context.Background(), call("Web_Search", args{"query": "q"}))
	if err != nil || out != "results for q" || gotQuery != "q" {
		t.Errorf("web_search = %q, %v (query %q)", out, err, gotQuery)
	}
	_, err = d.Dispatch(context.Background(), call("web_fetch", args{"url": "https://x.org"}))
	if err == nil || err.Error() != "web_fetch: tavily extract: 432" || gotURL != "https://x.org" {
		t.Errorf("web_fetch err = %v (url %q)", err, gotURL)
	}
	if _, err := (&Dispatcher{}).Dispatch(context.Background(), call("web_search", args{"query": "q"})); !errors.Is(err, ErrNotEnabled) {
		t.Errorf("unwired search: %v", err)
	}
}

func TestDispatchRefusals(t *testing.T) {
	ran := false
	run := func(context.Context, string) (string, error) { ran = true; return "", nil }
	tests := []struct {
		name string
		d    *Dispatcher
		call Call
		want error
		msg  string
	}{
		{"unknown tool", &Dispatcher{}, call("google", args{"query": "q"}), ErrInvalidCall, `unknown tool "google"`},
		{"missing argument", &Dispatcher{}, call("web_search", args{}), ErrInvalidCall, `missing required argument "query"`},
		{"exec off", &Dispatcher{Exec: run}, call("exec", args{"command": "rm -rf /"}), ErrNotEnabled, "exec: not enabled (tools.enable_exec is false)"},
		{"exec on but unwired", &Dispatcher{Tools: ToolsConfig{EnableExec: true}}, call("exec", args{"command": "ls"}), ErrNotEnabled, "no runner wired"},
		{"browser off", &Dispatcher{}, call("browser", args{"action": "screenshot"}), ErrNotEnabled, "browser: not enabled"},
		{"read without workspace", &Dispatcher{}, call("read", args{"path": "a"}), ErrNoWorkspace, "read: no workspace configured"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.d.Dispatch(context.Background(), tt.call)
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("err = %v; want %v containing %q", err, tt.want, tt.msg)
			}
		})
	}
	if ran {
		t.Error("exec ran while disabled")
	}
	d := &Dispatcher{Tools: ToolsConfig{EnableExec: true}, Exec: run}
	if _, err := d.Dispatch(context.Background(), call("exec", args{"command": "ls"})); err != nil || !ran {
		t.Errorf("enabled exec: %v, ran %v", err, ran)
	}
}

func TestDispatchWorkspace(t *testing.T) {
	ws := t.TempDir()
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("s3cret"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "notes.md"), []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(ws, "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret"), filepath.Join(ws, "leak")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("notes.md", filepath.Join(ws, "alias")); err != nil {
		t.Fatal(err)
	}
	d := &Dispatcher{Tools: ToolsConfig{Workspace: ws}, MaxReadBytes: 10}
	t.Cleanup(func() { d.Close() })
	ctx := context.Background()

	ok := []struct {
		name string
		call Call
		want string
	}{
		{"read", call("read", args{"path": "notes.md"}), "hello"},
		{"read through an inside symlink", call("read", args{"path": "alias"}), "hello"},
		{"read absolute inside", call("read", args{"path": filepath.Join(ws, "notes.md")}), "hello"},
		{"write creates folders", call("write", args{"path": "sub/dir/a.md", "content": "abc"}), "wrote 3 bytes to sub/dir/a.md"},
		{"read back", call("read", args{"path": "./sub/dir/../dir/a.md"}), "abc"},
	}
	for _, tt := range ok {
		t.Run(tt.name, func(t *testing.T) {
			got, err := d.Dispatch(ctx, tt.call)
			if err != nil || got != tt.want {
				t.Errorf("= %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	refused := []struct {
		name string
		call Call
	}{
		{"dot-dot", call("read", args{"path": "../secret"})},
		{"dot-dot deep", call("write", args{"path": "a/../../x", "content": "x"})},
		{"absolute outside", call("read", args{"path": filepath.Join(outside, "secret")})},
		{"absolute system file", call("read", args{"path": "/etc/passwd"})},
		{"symlinked folder out", call("read", args{"path": "out/secret"})},
		{"symlinked file out", call("read", args{"path": "leak"})},
		{"write through a symlink out", call("write", args{"path": "out/new", "content": "x"})},
		{"write into a new folder under a symlink out", call("write", args{"path": "out/d/new", "content": "x"})},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			got, err := d.Dispatch(ctx, tt.call)
			if !errors.Is(err, ErrOutsideWorkspace) {
				t.Errorf("= %q, %v; want ErrOutsideWorkspace", got, err)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(outside, "new")); !errors.Is(err, os.ErrNotExist) {
		t.Error("a write escaped the workspace")
	}
	if err := os.WriteFile(filepath.Join(ws, "big"), []byte(strings.Repeat("x", 11)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Dispatch(ctx, call("read", args{"path": "big"})); err == nil || !strings.Contains(err.Error(), "larger than 10 bytes") {
		t.Errorf("big read: %v", err)
	}
	if _, err := d.Dispatch(ctx, call("read", args{"path": "missing"})); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing read: %v", err)
	}
}
