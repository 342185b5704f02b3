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

const (
	lockExclusive = 0
	lockShared    = 0
)

func lockFile(name string, how int) (unlock func(), err error) {
	f, err := os.OpenFile(name, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	return func() { f.Close() }, nil
}

func holdTemp(f *os.File) {}

// held cannot tell without flock: a temporary is taken as in use.
func held(name string) bool { return true }
