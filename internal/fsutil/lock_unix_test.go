//go:build unix

package fsutil

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestLockDirExcludes: while one holder has the folder's lock, another
// cannot take it; after unlock it can.
func TestLockDirExcludes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	unlock, err := LockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	try := func() error {
		f, err := os.Open(filepath.Join(dir, LockName))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		}
		return err
	}
	if err := try(); err != syscall.EWOULDBLOCK {
		t.Fatalf("second lock while held: %v, want EWOULDBLOCK", err)
	}
	unlock()
	if err := try(); err != nil {
		t.Fatalf("second lock after unlock: %v", err)
	}
}
