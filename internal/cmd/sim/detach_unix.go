//go:build unix

package sim

import (
	"os"
	"syscall"
)

// detached puts the background server in a session of its own, so that
// the shell's hang-up or Ctrl-C does not reach it.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// terminate asks the server to stop as Ctrl-C would.
func terminate(p *os.Process) error { return p.Signal(syscall.SIGTERM) }
