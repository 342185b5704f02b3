package fsutil

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// ErrSymlink is the error of a path that searchbench refuses because it is
// a symbolic link.
var ErrSymlink = errors.New("is a symbolic link")

// RefuseSymlink returns an error when path itself is a symbolic link: the
// folders searchbench writes into (output, cassettes, stored runs) and the
// files it reads into requests (prompts) must be what they say, so that a
// write cannot land outside the project and a request cannot carry a file
// the variant does not hold. A missing path is fine.
func RefuseSymlink(path string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%s %w; give the real path (searchbench does not write or read through links)", path, ErrSymlink)
	}
	return nil
}
