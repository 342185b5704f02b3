// Package cmdutil holds what every searchbench command shares: the IO streams a
// command writes to and the one place where errors become exit codes.
package cmdutil

import (
	"errors"
	"fmt"
)

// Exit codes, documented in README.md. ExitCode is the only function that
// chooses among them.
const (
	ExitOK    = 0 // everything held
	ExitFail  = 1 // a check or verdict failed
	ExitUsage = 2 // usage or input error: bad flags, unreadable or invalid input
	ExitInfra = 3 // infrastructure error: cassette miss, network, unwritable output

	// ExitInterrupted: stopped by SIGINT or SIGTERM (128 + SIGINT, as
	// shells report Ctrl-C). Temporaries are removed and previous outputs
	// kept.
	ExitInterrupted = 130
)

// ExitError carries the exit code chosen for an error. Silent errors have
// already been explained on the command's output (a findings table, a gate
// report) and are not printed again.
type ExitError struct {
	Code   int
	Err    error
	Silent bool
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit status %d", e.Code)
	}
	return e.Err.Error()
}

func (e *ExitError) Unwrap() error { return e.Err }

// Fail marks err as a failed check or verdict (exit 1). The command has
// already printed why, so the error itself is not printed again.
func Fail(err error) error { return &ExitError{Code: ExitFail, Err: err, Silent: true} }

// Usage marks err as a usage or input error (exit 2).
func Usage(err error) error {
	if err == nil {
		return nil
	}
	return &ExitError{Code: ExitUsage, Err: err}
}

// Usagef is Usage(fmt.Errorf(format, args...)).
func Usagef(format string, args ...any) error { return Usage(fmt.Errorf(format, args...)) }

// Infra marks err as an infrastructure error (exit 3).
func Infra(err error) error {
	if err == nil {
		return nil
	}
	return &ExitError{Code: ExitInfra, Err: err}
}

// ExitCode maps an error returned by a command to the process exit code.
// Errors that no command classified are infrastructure errors: something
// broke that is neither the user's input nor a verdict.
func ExitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	return ExitInfra
}

// IsSilent reports whether err was already explained on the output.
func IsSilent(err error) bool {
	var ee *ExitError
	return errors.As(err, &ee) && ee.Silent
}
