//go:build !linux

package fsutil

import "errors"

// exchange is not available here: swapDirs moves the old folder aside.
func exchange(a, b string) error { return errors.New("no exchanging rename") }
