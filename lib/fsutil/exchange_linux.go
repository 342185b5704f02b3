//go:build linux

package fsutil

import "golang.org/x/sys/unix"

// exchange swaps the entries at a and b in one step (renameat2
// RENAME_EXCHANGE). It fails on file systems without it.
func exchange(a, b string) error {
	return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
}
