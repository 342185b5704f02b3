//go:build unix

package fsutil

import (
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
// them back, so two runs into one folder never leave a mixed set.
func LockDir(dir string) (unlock func(), err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	f, err := os.OpenFile(filepath.Join(dir, LockName), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
