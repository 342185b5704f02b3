package report

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// Source is a JSON report that can be opened, and opened again: the gate
// reads a baseline twice rather than holding it in memory.
type Source struct {
	Name string
	Open func() (io.ReadCloser, error)
}

// File is the report at path.
func File(path string) Source {
	return Source{Name: path, Open: func() (io.ReadCloser, error) { return os.Open(path) }}
}

// Bytes is a report held in memory.
func Bytes(name string, data []byte) Source {
	return Source{Name: name, Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }}
}

// Scan streams src through the callbacks; any may be nil. meta may stop
// the scan by returning an error.
func Scan(src Source, meta func(Meta) error, each func(*CaseRecord) error, sum func(*Summary)) error {
	_, err := scan(src, meta, each, sum)
	return err
}

// scan is Scan that also returns the report's gate verdict (nil when it has
// none).
func scan(src Source, meta func(Meta) error, each func(*CaseRecord) error, sum func(*Summary)) (*Gate, error) {
	rc, err := src.Open()
	if err != nil {
		return nil, fmt.Errorf("reading report: %w", err)
	}
	defer rc.Close()
	sc, err := NewScanner(src.Name, rc)
	if err != nil {
		return nil, err
	}
	if meta != nil {
		if err := meta(sc.Meta()); err != nil {
			return nil, err
		}
	}
	for sc.Next() {
		if each != nil {
			if err := each(sc.Case()); err != nil {
				return nil, err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if sum != nil {
		sum(sc.Summary())
	}
	return sc.Gate(), nil
}
