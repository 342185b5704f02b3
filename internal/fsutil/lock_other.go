//go:build !unix

package fsutil

import "os"

// LockName is the lock file LockDir keeps in a folder.
const LockName = ".searchbench.lock"

// LockDir creates dir. Without flock, concurrent runs into one folder are
// not serialised on this platform.
func LockDir(dir string) (unlock func(), err error) {
	return func() {}, os.MkdirAll(dir, 0o755)
}

// LockDirShared is LockDir.
func LockDirShared(dir string) (unlock func(), err error) { return LockDir(dir) }
