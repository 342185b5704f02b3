package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"slices"
	"strings"
)

// englishWords writes english_words.txt.gz: the lower-case words of an
// English word list (Debian wamerican), one a line, sorted, gzipped with no
// name or time in the header so that a rerun writes the same bytes. The
// classifier reads a reply as English only when each of its words is one of
// these or an English lexicon entry (language.go).
func englishWords(dict string) ([]byte, error) {
	words, name, err := readDict(dict)
	if err != nil {
		return nil, err
	}
	list := make([]string, 0, len(words))
	for w := range words {
		if strings.TrimSpace(w) == w && w != "" {
			list = append(list, w)
		}
	}
	slices.Sort(list)
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	zw.Comment = "English words from " + name
	if _, err := fmt.Fprintf(zw, "%s\n", strings.Join(list, "\n")); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
