// Package demo builds the tests' own data: the pinned demo tree.
//
// A team's repository holds its own prompts, datasets, live recordings and
// baseline, and a prompt pull request changes them. searchbench's tests,
// its generated docs, its walkthroughs and its workflow test must not
// break when they do, so none of them reads the working cassettes/,
// reports/, prompts/ variant folders, datasets/, config/ or gates files.
// They read a demo tree instead: the repository's code with the working
// data replaced by the copy pinned under testdata/demo/ (prompts,
// datasets, config, gates.yaml), and cassettes, reports/baseline.json and
// reports/calibration.json recorded from it by the simulator, exactly as
// make cassettes, make baseline and make calibration make them.
//
// The tree is built once per content (the hash of every file it is made
// of, code included) under the system's temporary folder and shared by
// every test binary; Tree returns it read-only, Copy a private copy to
// change.
package demo

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Pinned is the folder, relative to the repository's root, holding the
// demo's pinned working data, laid out as at the root.
const Pinned = "testdata/demo"

// Working reports whether rel (slash-separated, relative to the root) is
// working data a team changes: it never reaches a demo tree from the
// repository's root, only from Pinned or from the recording.
func Working(rel string) bool {
	top, rest, nested := strings.Cut(rel, "/")
	switch top {
	case "cassettes", "reports", "datasets", "config":
		return true
	case "gates.yaml", "gates.accept.yaml":
		return !nested
	case "prompts":
		// prompts/embed.go is code; prompts/<variant>/… are a team's.
		return strings.Contains(rest, "/")
	}
	return false
}

// Root finds the repository's root: the nearest folder at or above the
// working directory that holds go.mod.
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", errors.New("demo: no go.mod at or above the working directory")
		}
		dir = up
	}
}

// Files lists the demo tree's source files: each destination path
// (slash-separated, relative to the tree) with the file it is copied
// from. They are the files git knows at root (tracked, or untracked and
// not ignored, so a change not yet committed is seen) that are not
// working data, and the pinned files.
func Files(ctx context.Context, root string) (map[string]string, error) {
	out, err := exec.CommandContext(ctx, "git", "-C", root, "ls-files", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		return nil, fmt.Errorf("demo: git ls-files in %s: %w (the demo tree is made of the files git knows)", root, err)
	}
	files := map[string]string{}
	pinned := 0
	for _, f := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		src := filepath.Join(root, filepath.FromSlash(f))
		if st, err := os.Lstat(src); err != nil || !st.Mode().IsRegular() {
			continue // deleted in the work tree, or a link
		}
		if p, ok := strings.CutPrefix(f, Pinned+"/"); ok {
			files[p] = src
			pinned++
		}
		if !Working(f) {
			files[f] = src
		}
	}
	if pinned == 0 {
		return nil, fmt.Errorf("demo: %s holds no files under %s", root, Pinned)
	}
	return files, nil
}

// key is the hash of the sources the recordings are made from (paths and
// bytes) and the Go toolchain: the same key, the same recordings. Pages,
// images and tests do not make a recording, so a tree built before one of
// them changed is reused: read those from the repository, not the tree.
// The workflow and CI scripts make no recording either, but tests run them
// from a copy of the tree (the workflow test's jobs check it out), so they
// are part of the key: a tree with an older .github/scripts/bench.sh once
// ran that older script in a workflow test of the newer one.
func key(files map[string]string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	names := make([]string, 0, len(files))
	for n := range files {
		if !inert(n) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		b, err := os.ReadFile(files[n])
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", n, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// inert reports whether a source file can change neither what the tree
// records nor what a test runs from it.
func inert(name string) bool {
	if strings.HasPrefix(name, ".github/") || strings.HasPrefix(name, ".ci/") {
		return false // run from the tree by the workflow test
	}
	for _, suffix := range []string{".md", ".png", ".txtar", "_test.go"} {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return false
}

// Record is what makes the demo's recordings in a tree holding its
// sources and bin/searchbench: the Makefile's own targets.
var Record = [][]string{
	{"make", "cassettes"},
	{"make", "baseline"},
	{"make", "calibration"},
}

// Build returns the demo tree of the repository at root, building it under
// cache (os.TempDir() when empty) if no tree of the same sources is there.
// Concurrent builders (test binaries of several packages) wait for one
// another. logf, if not nil, says what is being built.
func Build(ctx context.Context, root, cache string, logf func(string, ...any)) (string, error) {
	files, err := Files(ctx, root)
	if err != nil {
		return "", err
	}
	k, err := key(files)
	if err != nil {
		return "", err
	}
	if cache == "" {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "searchbench-demo-"+k)
	if done(dir) {
		return dir, nil
	}
	lock, err := os.OpenFile(dir+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return "", err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return "", err
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	if done(dir) {
		return dir, nil // another builder finished while this one waited
	}
	if logf != nil {
		logf("demo: building the demo tree %s (once per source; a few minutes)", dir)
	}
	sweep(cache, dir)
	tmp := dir + ".tmp"
	os.RemoveAll(tmp)
	if err := build(ctx, files, tmp); err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	os.RemoveAll(dir)
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	return dir, os.WriteFile(filepath.Join(dir, marker), []byte(k+"\n"), 0o644)
}

// marker is the file a finished tree holds.
const marker = ".demo-complete"

func done(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, marker))
	return err == nil
}

// sweep removes the demo trees of other sources under cache that no one
// has used for a day: each is tens of megabytes.
func sweep(cache, keep string) {
	old, _ := filepath.Glob(filepath.Join(cache, "searchbench-demo-*"))
	for _, d := range old {
		if d == keep || strings.HasSuffix(d, ".lock") {
			continue
		}
		if st, err := os.Stat(d); err == nil && time.Since(st.ModTime()) > 24*time.Hour {
			os.RemoveAll(d)
			os.Remove(d + ".lock")
		}
	}
}

// build writes files into dir, builds bin/searchbench there and records.
func build(ctx context.Context, files map[string]string, dir string) error {
	if err := Copy(files, dir); err != nil {
		return err
	}
	steps := append([][]string{{"go", "build", "-o", "bin/searchbench", "./cmd/searchbench"}}, Record...)
	for _, args := range steps {
		c := exec.CommandContext(ctx, args[0], args[1:]...)
		c.Dir = dir
		c.Env = append(os.Environ(), "NO_COLOR=1", "TERM=dumb", "SEARCHBENCH_CACHE_DIR="+filepath.Join(dir, ".cache"))
		var out bytes.Buffer
		c.Stdout, c.Stderr = &out, &out
		if err := c.Run(); err != nil {
			return fmt.Errorf("demo: %s in %s: %w\n%s", strings.Join(args, " "), dir, err, out.String())
		}
	}
	return os.RemoveAll(filepath.Join(dir, ".cache"))
}

// Copy copies files (destination → source) into dir.
func Copy(files map[string]string, dir string) error {
	for dst, src := range files {
		if err := copyFile(src, filepath.Join(dir, filepath.FromSlash(dst))); err != nil {
			return err
		}
	}
	return nil
}

// CopyTree copies the regular files under src into dst. Of a demo tree it
// copies what a fresh clone of it would hold: not its marker, its built
// binary or its lock files.
func CopyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if d.IsDir() && rel == "bin" {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() || rel == marker || strings.HasSuffix(rel, ".searchbench.lock") {
			return nil
		}
		return copyFile(p, filepath.Join(dst, rel))
	})
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, st.Mode().Perm()|0o200)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// Tree returns the demo tree, building it on first use. It is shared by
// every test: never write into it (Copy a private one).
func Tree(tb testing.TB) string {
	tb.Helper()
	root, err := Root()
	if err != nil {
		tb.Fatal(err)
	}
	dir, err := Build(context.Background(), root, "", tb.Logf)
	if err != nil {
		tb.Fatal(err)
	}
	return dir
}

// Private returns a private, writable copy of the demo tree in a temporary
// folder of tb's.
func Private(tb testing.TB) string {
	tb.Helper()
	src := Tree(tb)
	dst := tb.TempDir()
	if err := CopyTree(src, dst); err != nil {
		tb.Fatal(err)
	}
	return dst
}

// Source returns a pinned source of the demo (sub relative to the tree,
// "prompts" or "config/executor.yaml", say) where it lies in the
// repository, under Pinned: what a test that records its own cassettes
// reads, with no tree to build.
func Source(tb testing.TB, sub string) string {
	tb.Helper()
	root, err := Root()
	if err != nil {
		tb.Fatal(err)
	}
	return filepath.Join(root, filepath.FromSlash(Pinned), filepath.FromSlash(sub))
}
