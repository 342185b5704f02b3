package executor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Dispatch errors; test with errors.Is.
var (
	// ErrInvalidCall: the call failed Check (unknown tool, missing or
	// mistyped argument, unknown browser action).
	ErrInvalidCall = errors.New("invalid tool call")
	// ErrNotEnabled: exec or browser is not enabled, or no runner was wired.
	ErrNotEnabled = errors.New("not enabled")
	// ErrOutsideWorkspace: a read or write path leaves the workspace, by
	// "..", an absolute path elsewhere, or a symlink pointing out.
	ErrOutsideWorkspace = errors.New("path is outside the workspace")
	// ErrNoWorkspace: read or write was called with no workspace configured.
	ErrNoWorkspace = errors.New("no workspace configured")
)

// DefaultMaxReadBytes caps what read returns to the model.
const DefaultMaxReadBytes = 1 << 20

// Dispatcher runs checked tool calls. web_search and web_fetch go to the
// injected Search and Fetch functions (the orchestrator wires them to its
// Tavily/Exa clients and Tavily /extract); read and write stay inside the
// workspace; exec and browser are refused unless enabled and wired. The
// harness never enables them.
type Dispatcher struct {
	Tools ToolsConfig

	Search  func(ctx context.Context, query string) (string, error)
	Fetch   func(ctx context.Context, url string) (string, error)
	Exec    func(ctx context.Context, command string) (string, error)
	Browser func(ctx context.Context, action, url string) (string, error)

	// MaxReadBytes caps read; 0 means DefaultMaxReadBytes.
	MaxReadBytes int64

	once    sync.Once
	root    *os.Root
	rootDir string // the workspace, absolute and with symlinks resolved
	escape  error  // the error os.Root gives for a path that escapes it
	rootErr error
}

// Dispatch runs one call and returns the text to show the model. Errors
// name the tool; they wrap ErrInvalidCall, ErrNotEnabled,
// ErrOutsideWorkspace or ErrNoWorkspace when the call was refused, or the
// tool's own error.
func (d *Dispatcher) Dispatch(ctx context.Context, c Call) (string, error) {
	c, _ = normalize(c)
	var blocking []string
	for _, f := range Check(c) {
		if f.Blocking() {
			blocking = append(blocking, f.Message)
		}
	}
	if len(blocking) > 0 {
		return "", fmt.Errorf("%s: %w: %s", c.Name, ErrInvalidCall, strings.Join(blocking, "; "))
	}
	str := func(k string) string { s, _ := c.Arguments[k].(string); return s }
	switch c.Name {
	case ToolWebSearch:
		if d.Search == nil {
			return "", fmt.Errorf("web_search: %w: no search function wired", ErrNotEnabled)
		}
		return wrap(ToolWebSearch)(d.Search(ctx, str("query")))
	case ToolWebFetch:
		if d.Fetch == nil {
			return "", fmt.Errorf("web_fetch: %w: no fetch function wired", ErrNotEnabled)
		}
		return wrap(ToolWebFetch)(d.Fetch(ctx, str("url")))
	case ToolRead:
		return d.read(str("path"))
	case ToolWrite:
		return d.write(str("path"), str("content"))
	case ToolExec:
		if !d.Tools.EnableExec {
			return "", fmt.Errorf("exec: %w (tools.enable_exec is false)", ErrNotEnabled)
		}
		if d.Exec == nil {
			return "", fmt.Errorf("exec: %w: enabled but no runner wired", ErrNotEnabled)
		}
		return wrap(ToolExec)(d.Exec(ctx, str("command")))
	case ToolBrowser:
		if !d.Tools.EnableBrowser {
			return "", fmt.Errorf("browser: %w (tools.enable_browser is false)", ErrNotEnabled)
		}
		if d.Browser == nil {
			return "", fmt.Errorf("browser: %w: enabled but no runner wired", ErrNotEnabled)
		}
		return wrap(ToolBrowser)(d.Browser(ctx, str("action"), str("url")))
	}
	return "", fmt.Errorf("%s: %w", c.Name, ErrInvalidCall) // unreachable: Check knows every tool
}

func wrap(tool string) func(string, error) (string, error) {
	return func(s string, err error) (string, error) {
		if err != nil {
			return "", fmt.Errorf("%s: %w", tool, err)
		}
		return s, nil
	}
}

// Close releases the workspace handle, if one was opened.
func (d *Dispatcher) Close() error {
	if d.root != nil {
		return d.root.Close()
	}
	return nil
}

// openRoot opens the workspace once. os.Root refuses any path that resolves
// outside it, symlinks included, at the moment of the operation.
func (d *Dispatcher) openRoot() error {
	d.once.Do(func() {
		if d.Tools.Workspace == "" {
			d.rootErr = ErrNoWorkspace
			return
		}
		dir, err := filepath.Abs(d.Tools.Workspace)
		if err == nil {
			dir, err = filepath.EvalSymlinks(dir)
		}
		if err != nil {
			d.rootErr = fmt.Errorf("workspace: %w", err)
			return
		}
		r, err := os.OpenRoot(dir)
		if err != nil {
			d.rootErr = fmt.Errorf("workspace: %w", err)
			return
		}
		// os.Root's escape error is not exported; take it from the root
		// itself so that a symlink pointing out is told apart from a
		// missing file.
		if _, err := r.Stat(".."); err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				d.escape = pe.Err
			}
		}
		d.root, d.rootDir = r, dir
	})
	return d.rootErr
}

// relPath turns a model-supplied path into one relative to the workspace,
// refusing those that leave it lexically. An absolute path is accepted when
// it names something inside the workspace, spelled either way (as
// configured, or with symlinks resolved).
func (d *Dispatcher) relPath(p string) (string, error) {
	rel := filepath.Clean(filepath.FromSlash(p))
	if filepath.IsAbs(rel) {
		abs, _ := filepath.Abs(d.Tools.Workspace)
		for _, base := range []string{d.rootDir, abs} {
			if r, err := filepath.Rel(base, rel); err == nil && filepath.IsLocal(r) {
				return r, nil
			}
		}
		return "", fmt.Errorf("%q: %w", p, ErrOutsideWorkspace)
	}
	if !filepath.IsLocal(rel) {
		return "", fmt.Errorf("%q: %w", p, ErrOutsideWorkspace)
	}
	return rel, nil
}

// pathErr maps os.Root's escape error (a symlink pointing out) to
// ErrOutsideWorkspace.
func (d *Dispatcher) pathErr(p string, err error) error {
	if d.escape != nil && errors.Is(err, d.escape) {
		return fmt.Errorf("%q: %w", p, ErrOutsideWorkspace)
	}
	return err
}

func (d *Dispatcher) read(p string) (string, error) {
	if err := d.openRoot(); err != nil {
		return "", fmt.Errorf("read: %w", err)
	}
	rel, err := d.relPath(p)
	if err != nil {
		return "", fmt.Errorf("read: %w", err)
	}
	f, err := d.root.Open(rel)
	if err != nil {
		return "", fmt.Errorf("read: %w", d.pathErr(p, err))
	}
	defer f.Close()
	limit := d.MaxReadBytes
	if limit <= 0 {
		limit = DefaultMaxReadBytes
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return "", fmt.Errorf("read %q: %w", p, err)
	}
	if int64(len(b)) > limit {
		return "", fmt.Errorf("read %q: file is larger than %d bytes", p, limit)
	}
	return string(b), nil
}

func (d *Dispatcher) write(p, content string) (string, error) {
	if err := d.openRoot(); err != nil {
		return "", fmt.Errorf("write: %w", err)
	}
	rel, err := d.relPath(p)
	if err != nil {
		return "", fmt.Errorf("write: %w", err)
	}
	if dir := filepath.Dir(rel); dir != "." {
		if err := d.root.MkdirAll(dir, 0o755); err != nil {
			return "", fmt.Errorf("write: %w", d.pathErr(p, err))
		}
	}
	if err := d.root.WriteFile(rel, []byte(content), 0o644); err != nil {
		return "", fmt.Errorf("write: %w", d.pathErr(p, err))
	}
	return fmt.Sprintf("wrote %d bytes to %s", len(content), filepath.ToSlash(rel)), nil
}
