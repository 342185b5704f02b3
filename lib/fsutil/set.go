package fsutil

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// SetDir is a folder of files published as one: a report set (report.json,
// report.md, junit.xml, report.html, traces.jsonl.gz) is written into a
// fresh folder beside its destination, and Commit swaps that folder in with
// one rename, so a reader, a concurrent run or a run killed at any moment
// leaves either the old set or the new one, never files of two runs.
type SetDir struct {
	dir, fresh string
	unhold     func()
	done       bool
}

// Swappable reports whether dir can be replaced whole: not the working
// folder (or one above it), which a process is inside, nor a root.
func Swappable(dir string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil || filepath.Dir(abs) == abs {
		return false
	}
	wd, err := os.Getwd()
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(abs, wd)
	return err == nil && (rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)))
}

// CreateSetDir starts a new set for dir. dir must not be a symbolic link
// (the set would land wherever it points).
func CreateSetDir(dir string) (*SetDir, error) {
	dir = filepath.Clean(dir)
	if err := RefuseSymlink(dir); err != nil {
		return nil, err
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("writing %s: %w", dir, err)
	}
	fresh, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".tmp-")
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", dir, err)
	}
	// Held while this process writes the set: Sweep leaves the folder alone.
	unhold, err := lockFile(filepath.Join(fresh, LockName), lockExclusive)
	if err != nil {
		os.RemoveAll(fresh)
		return nil, fmt.Errorf("writing %s: %w", dir, err)
	}
	return &SetDir{dir: dir, fresh: fresh, unhold: unhold}, nil
}

// Path is where the set's file name is written until Commit.
func (s *SetDir) Path(name string) string { return filepath.Join(s.fresh, name) }

// Dir is the folder the set is published as.
func (s *SetDir) Dir() string { return s.dir }

// Commit publishes the set in one rename. Files of dir that are not the
// set's own (names in owned, the lock, temporaries) are carried over into
// the new folder first, so nothing a user keeps there is lost; the set's
// own files the new set lacks (traces of an earlier run) are not. The
// caller holds LockBeside(dir).
func (s *SetDir) Commit(owned []string) error {
	if s.done {
		return errors.New("set already committed or aborted")
	}
	s.done = true
	defer s.unhold()
	if err := RefuseSymlink(s.dir); err != nil {
		os.RemoveAll(s.fresh)
		return err
	}
	ents, err := os.ReadDir(s.dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		os.RemoveAll(s.fresh)
		return fmt.Errorf("writing %s: %w", s.dir, err)
	}
	for _, e := range ents {
		n := e.Name()
		if slices.Contains(owned, n) || n == LockName || IsTemporary(n) {
			continue
		}
		if _, err := os.Lstat(filepath.Join(s.fresh, n)); err == nil {
			continue
		}
		var err error
		if e.IsDir() {
			err = os.Rename(filepath.Join(s.dir, n), filepath.Join(s.fresh, n))
		} else if err = os.Link(filepath.Join(s.dir, n), filepath.Join(s.fresh, n)); err != nil {
			err = copyFile(filepath.Join(s.dir, n), filepath.Join(s.fresh, n)) // no hard links here
		}
		if err != nil {
			os.RemoveAll(s.fresh)
			return fmt.Errorf("writing %s: keeping %s: %w", s.dir, n, err)
		}
	}
	if err := fault("swap", s.dir); err != nil {
		os.RemoveAll(s.fresh)
		return fmt.Errorf("writing %s: %w", s.dir, err)
	}
	if err := swapDirs(s.fresh, s.dir); err != nil {
		os.RemoveAll(s.fresh)
		return fmt.Errorf("writing %s: %w", s.dir, err)
	}
	os.RemoveAll(s.fresh) // the old set, now under the fresh name
	// The set's own lock served Sweep while it was being written; the
	// published folder holds the report files only.
	os.Remove(filepath.Join(s.dir, LockName))
	return nil
}

// Abort throws the unpublished set away; after Commit it does nothing.
func (s *SetDir) Abort() {
	if s.done {
		return
	}
	s.done = true
	s.unhold()
	os.RemoveAll(s.fresh)
}

// swapDirs puts fresh at dir and dir's old content at fresh: with one
// exchanging rename where the system has one, else by moving dir aside
// first (a reader may then briefly find no folder, never a mixed one).
func swapDirs(fresh, dir string) error {
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return os.Rename(fresh, dir)
	}
	if err := exchange(fresh, dir); err == nil {
		return nil
	}
	aside, err := os.MkdirTemp(filepath.Dir(dir), "."+filepath.Base(dir)+".tmp-")
	if err != nil {
		return err
	}
	os.Remove(aside)
	if err := os.Rename(dir, aside); err != nil {
		return err
	}
	if err := os.Rename(fresh, dir); err != nil {
		os.Rename(aside, dir)
		return err
	}
	return os.Rename(aside, fresh)
}

// IsTemporary reports whether a file name is one of the atomic writers'
// temporaries (.<name>.tmp-<random>).
func IsTemporary(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, ".tmp-")
}

// processStart is when this process started (near enough: when the
// package was initialised). Sweep leaves younger temporaries alone.
var processStart = time.Now()

// Sweep removes the temporaries in dir (not below it) that no live process
// holds: what a killed run or recording left behind. A temporary is held by
// the lock its writer takes when creating it, so a concurrent writer's are
// kept; one made since this process started is kept too, because between
// its creation and its lock a sweeper could not tell it from a dead one
// (two runs in one process, or one that started just after this one). It
// returns how many it removed.
func Sweep(dir string) int {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range ents {
		if !IsTemporary(e.Name()) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if info, err := e.Info(); err != nil || !info.ModTime().Before(processStart) {
			continue
		}
		probe := p
		if e.IsDir() {
			probe = filepath.Join(p, LockName)
		}
		if held(probe) {
			continue
		}
		if os.RemoveAll(p) == nil {
			n++
		}
	}
	return n
}

// SweepTree is Sweep in dir and every folder below it.
func SweepTree(dir string) int {
	n := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != dir && IsTemporary(d.Name()) {
				return fs.SkipDir // Sweep of its parent decides
			}
			n += Sweep(p)
		}
		return nil
	})
	return n
}

// LockBeside takes the exclusive lock of folder dir kept beside it
// (.<name>.searchbench.lock in its parent): a lock inside dir would be
// swapped away with the folder by SetDir.Commit.
func LockBeside(dir string) (unlock func(), err error) {
	dir = filepath.Clean(dir)
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	return lockFile(filepath.Join(parent, "."+filepath.Base(dir)+".searchbench.lock"), lockExclusive)
}

// copyFile copies the regular file src to dst (a new file).
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fi.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
