//go:build unix

package fsutil

import (
	"errors"
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

// TestLockRefusesSymlinks: a link planted at the lock's name, dangling or
// not, is refused and its target neither created nor changed; a linked
// folder is refused too.
func TestLockRefusesSymlinks(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "out")
	os.MkdirAll(dir, 0o755)
	target := filepath.Join(base, "victim")
	if err := os.Symlink(target, filepath.Join(dir, LockName)); err != nil {
		t.Fatal(err)
	}
	if _, err := LockDir(dir); err == nil {
		t.Fatal("LockDir followed a dangling link at the lock's name")
	}
	if _, err := os.Lstat(target); !os.IsNotExist(err) {
		t.Fatalf("the link's target was created: %v", err)
	}
	os.WriteFile(target, []byte("keep"), 0o644)
	if _, err := LockDirShared(dir); err == nil {
		t.Fatal("LockDirShared followed a link at the lock's name")
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Fatalf("the link's target changed: %q", b)
	}
	linked := filepath.Join(base, "linked")
	os.Symlink(t.TempDir(), linked)
	if _, err := LockDir(linked); err == nil || !errors.Is(err, ErrSymlink) {
		t.Fatalf("LockDir on a linked folder: %v, want ErrSymlink", err)
	}
}

// TestSharedLocks: readers share; a writer waits for them.
func TestSharedLocks(t *testing.T) {
	dir := t.TempDir()
	u1, err := LockDirShared(dir)
	if err != nil {
		t.Fatal(err)
	}
	u2, err := LockDirShared(dir)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(filepath.Join(dir, LockName))
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != syscall.EWOULDBLOCK {
		t.Fatalf("exclusive lock while two readers hold it: %v", err)
	}
	u1()
	u2()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatalf("exclusive lock after the readers left: %v", err)
	}
}
