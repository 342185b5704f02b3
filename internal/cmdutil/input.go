package cmdutil

import (
	"fmt"
	"io"
	"os"
)

// ReadInput reads the named file, or standard input when name is "-" or
// empty. It returns the bytes and a display name for messages. A read
// failure is a usage/input error (exit 2).
func ReadInput(s *IOStreams, name string) ([]byte, string, error) {
	if name == "" || name == "-" {
		b, err := io.ReadAll(s.In)
		if err != nil {
			return nil, "<stdin>", Usage(fmt.Errorf("reading standard input: %w", err))
		}
		return b, "<stdin>", nil
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, name, Usage(fmt.Errorf("reading input: %w", err))
	}
	return b, name, nil
}
