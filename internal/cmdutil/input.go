package cmdutil

import (
	"fmt"
	"io"
	"os"
)

// ReadInput reads the named file, or standard input when name is "-" or
// empty. It returns the bytes and a display name for messages. A read
// failure, or an input over MaxInput, is a usage/input error (exit 2): a
// runaway file is refused before it costs memory.
func ReadInput(s *IOStreams, name string) ([]byte, string, error) {
	r, shown := s.In, "<stdin>"
	if name != "" && name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, name, Usage(fmt.Errorf("reading input: %w", err))
		}
		defer f.Close()
		r, shown = f, name
	}
	// Read one byte past the limit to tell "exactly the limit" from "more".
	b, err := io.ReadAll(io.LimitReader(r, MaxInput+1))
	if err != nil {
		return nil, shown, Usage(fmt.Errorf("reading %s: %w", shown, err))
	}
	if len(b) > MaxInput {
		return nil, shown, Usagef("%s: input larger than %d MiB; a model message is a few KB, so this is not one (nothing checked)", shown, MaxInput>>20)
	}
	return b, shown, nil
}

// MaxInput bounds what ReadInput reads: one model message, with room to
// spare, and never the memory of a runaway file.
const MaxInput = 4 << 20
