// Package fsutil writes files so that a reader sees either the old content or
// the new, never a half-written file.
package fsutil

import (
	"fmt"
	"os"
	"path/filepath"
)

// Fault, when set, is called before each step that changes what a reader
// sees or that a full disk would fail: "write" (a temporary's content),
// "rename" (a file into place), "swap" (a set folder into place). The error
// it returns is that step's error. It is for crash and full-disk tests,
// which make it fail with ENOSPC or end the process at the step; it must be
// set before any writer starts.
var Fault func(step, name string) error

// FaultAt is the Fault hook for writers outside this package: call it
// before a step of theirs that a full disk would fail ("append").
func FaultAt(step, name string) error { return fault(step, name) }

func fault(step, name string) error {
	if Fault == nil {
		return nil
	}
	return Fault(step, name)
}

// WriteFileAtomic writes data to name through a temporary file in the same
// directory, synced and then renamed over name. Parent directories are created.
// On any error the previous content of name is left intact.
func WriteFileAtomic(name string, data []byte, perm os.FileMode) error {
	return writeFileAtomic(name, data, perm, true)
}

// WriteFileAtomicNoSync is WriteFileAtomic without the fsync: readers still
// see the old content or the new, never a mix, but a crash may leave the
// new file empty or torn. It is for caches whose entries are checked when
// read (a sync per entry would dominate writing thousands of them).
func WriteFileAtomicNoSync(name string, data []byte, perm os.FileMode) error {
	return writeFileAtomic(name, data, perm, false)
}

func writeFileAtomic(name string, data []byte, perm os.FileMode, sync bool) (err error) {
	dir := filepath.Dir(name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(name)+".tmp-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	holdTemp(f) // Sweep leaves it alone while this process lives
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err = fault("write", name); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if _, err = f.Write(data); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if err = f.Chmod(perm); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if sync {
		if err = f.Sync(); err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if err = fault("rename", name); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if err = os.Rename(tmp, name); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return nil
}

// AtomicFile is a file written in a stream and published under its final
// name only by Commit. Until then readers see the previous content.
type AtomicFile struct {
	*os.File
	name string
	done bool
}

// CreateAtomic starts writing name. Call Commit to publish it, or Abort to
// throw it away; Abort after Commit does nothing, so `defer f.Abort()` is safe.
func CreateAtomic(name string) (*AtomicFile, error) {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return nil, fmt.Errorf("writing %s: %w", name, err)
	}
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", name, err)
	}
	holdTemp(f)
	return &AtomicFile{File: f, name: name}, nil
}

// Commit syncs the file and renames it to its final name.
func (f *AtomicFile) Commit() error {
	if f.done {
		return nil
	}
	f.done = true
	tmp := f.File.Name()
	err := f.File.Chmod(0o644)
	if err == nil {
		err = f.File.Sync()
	}
	if cerr := f.File.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = fault("rename", f.name)
	}
	if err == nil {
		err = os.Rename(tmp, f.name)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", f.name, err)
	}
	return nil
}

// Abort discards the file.
func (f *AtomicFile) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.File.Close()
	os.Remove(f.File.Name())
}
