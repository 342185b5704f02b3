//go:build unix

package fsutil

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// LockName is the lock file LockDir keeps in a folder.
const LockName = ".searchbench.lock"

// LockDir takes an exclusive advisory lock on dir (creating it), waiting
// while another searchbench process holds it, and returns the function that
// releases it. Commands that publish several files together (report.json,
// report.md, junit.xml) hold it while they rename them into place and read
// them back, so two runs into one folder never leave a mixed set; record
// holds it on a shelf while it writes cassettes and recorded.json.
func LockDir(dir string) (unlock func(), err error) { return lockDir(dir, lockExclusive) }

const (
	lockExclusive = syscall.LOCK_EX
	lockShared    = syscall.LOCK_SH
)

// LockDirShared takes a shared lock on dir: many readers hold it at once,
// and each waits while a writer holds LockDir (a run replaying a shelf waits
// for the recording into it to finish).
func LockDirShared(dir string) (unlock func(), err error) { return lockDir(dir, lockShared) }

func lockDir(dir string, how int) (unlock func(), err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	if err := RefuseSymlink(dir); err != nil {
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	unlock, err = lockFile(filepath.Join(dir, LockName), how)
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	return unlock, nil
}

// lockFile takes a lock on the file name (created, never through a link).
func lockFile(name string, how int) (unlock func(), err error) {
	f, err := openLockFile(name)
	if err != nil {
		return nil, err
	}
	// Try first: a lock that must wait is announced (OnWait), so a user
	// knows why nothing happens, then waited for.
	err = syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
	if err == syscall.EWOULDBLOCK || err == syscall.EINTR {
		if err == syscall.EWOULDBLOCK && OnWait != nil {
			OnWait(filepath.Dir(name))
		}
		for {
			err = syscall.Flock(int(f.Fd()), how)
			if err != syscall.EINTR {
				break
			}
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// openLockFile opens the lock file without following a symbolic link: an
// existing file is opened with O_NOFOLLOW, a missing one is created with
// O_EXCL (which fails on any link, dangling or not), so a link planted at
// the lock's name can never make searchbench create or truncate its target.
func openLockFile(name string) (*os.File, error) {
	for range 10 {
		f, err := os.OpenFile(name, os.O_RDWR|syscall.O_NOFOLLOW, 0)
		if err == nil {
			return f, nil
		}
		if errors.Is(err, syscall.ELOOP) {
			return nil, fmt.Errorf("%s is a symbolic link; remove it (searchbench never follows a link at its lock)", name)
		}
		if !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		f, err = os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o644)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, err
		}
		// Another process created it (or planted a link) between the two
		// calls: look again.
	}
	return nil, fmt.Errorf("%s: could not open or create the lock file", name)
}

// holdTemp locks a temporary its writer just created, for Sweep to see it
// is in use. The lock goes with the file's descriptor.
func holdTemp(f *os.File) { syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) }

// held reports whether a live process holds the lock of file name (false
// when there is none to hold: a missing file, a link).
func held(name string) bool {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return true
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return false
}
