//go:build !unix

package sim

import (
	"os"
	"syscall"
)

// detached: elsewhere the server is started as a plain child process.
func detached() *syscall.SysProcAttr { return nil }

// terminate stops the server; without signals it is killed.
func terminate(p *os.Process) error { return p.Kill() }
