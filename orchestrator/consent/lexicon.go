package consent

import (
	_ "embed"
	"errors"
	"fmt"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

//go:embed lexicon.yaml
var lexiconYAML []byte

// class is what a lexicon entry does in a reply.
type class uint8

const (
	clYes class = iota + 1
	clPolite
	clNo
	clNegator
	clSearch
	clFiller
	clConnective
	clNewQuestion
)

// maxEntryWords bounds phrase length, and with it the work per word.
const maxEntryWords = 6

// lexicon is the loaded form of lexicon.yaml.
type lexicon struct {
	// entries maps a phrase key (word keys joined by one space) to its class.
	entries map[string]class
	// canon maps a word key to the word as the lexicon spells it, so that
	// Normalize shows "yesss" and "dont" as "yes" and "don't".
	canon map[string]string
	// emoji holds the symbol runes that are words of their own.
	emoji     map[rune]bool
	maxKeyLen int
}

// lexiconFile mirrors lexicon.yaml. Each list is one class.
type lexiconFile struct {
	Yes         []lexEntry `yaml:"yes"`
	Polite      []lexEntry `yaml:"polite"`
	No          []lexEntry `yaml:"no"`
	Negators    []lexEntry `yaml:"negators"`
	SearchNow   []lexEntry `yaml:"search_now"`
	Filler      []lexEntry `yaml:"filler"`
	Connectives []lexEntry `yaml:"connectives"`
	NewQuestion []lexEntry `yaml:"new_question"`
}

// lexEntry is one list item with the line it came from, for error messages.
type lexEntry struct {
	text string
	line int
}

// UnmarshalYAML keeps the item's line number.
func (e *lexEntry) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: entry is not a string", n.Line)
	}
	e.text, e.line = n.Value, n.Line
	return nil
}

// lex returns the embedded lexicon, loaded on first use. The embedded file
// is part of the binary and TestLexiconLoads guards it, so a load error is a
// programming error.
var lex = sync.OnceValue(func() *lexicon {
	l, err := loadLexicon(lexiconYAML, "lexicon.yaml")
	if err != nil {
		panic(err)
	}
	return l
})

// loadLexicon parses and checks a lexicon, reporting every bad entry.
func loadLexicon(data []byte, name string) (*lexicon, error) {
	var f lexiconFile
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	l := &lexicon{
		entries: map[string]class{},
		canon:   map[string]string{},
		emoji:   map[rune]bool{},
	}
	type origin struct {
		text string
		line int
	}
	seen := map[string]origin{}    // phrase key -> first entry
	spelled := map[string]origin{} // word key -> first spelling
	var errs []error
	lists := []struct {
		c       class
		list    string
		entries []lexEntry
	}{
		{clYes, "yes", f.Yes}, {clPolite, "polite", f.Polite}, {clNo, "no", f.No},
		{clNegator, "negators", f.Negators}, {clSearch, "search_now", f.SearchNow},
		{clFiller, "filler", f.Filler}, {clConnective, "connectives", f.Connectives},
		{clNewQuestion, "new_question", f.NewQuestion},
	}
	for _, li := range lists {
		if len(li.entries) == 0 {
			errs = append(errs, fmt.Errorf("%s: list %q is missing or empty", name, li.list))
		}
		for _, e := range li.entries {
			toks := tokenize(e.text, nil)
			var keys []string
			bad := len(toks) == 0
			for _, t := range toks {
				if t.kind == tokSep {
					bad = true
					break
				}
				keys = append(keys, t.key)
			}
			if bad {
				errs = append(errs, fmt.Errorf("%s:%d: entry %q must be words or single emoji without punctuation", name, e.line, e.text))
				continue
			}
			if len(keys) > maxEntryWords {
				errs = append(errs, fmt.Errorf("%s:%d: entry %q has %d words, more than %d", name, e.line, e.text, len(keys), maxEntryWords))
				continue
			}
			key := strings.Join(keys, " ")
			if prev, ok := seen[key]; ok {
				errs = append(errs, fmt.Errorf("%s:%d: entry %q is the same as %q on line %d (case, apostrophes and repeated letters are ignored)", name, e.line, e.text, prev.text, prev.line))
				continue
			}
			seen[key] = origin{e.text, e.line}
			for _, t := range toks {
				if t.kind == tokEmoji {
					l.emoji[[]rune(t.text)[0]] = true
				}
				if prev, ok := spelled[t.key]; ok && l.canon[t.key] != t.text {
					errs = append(errs, fmt.Errorf("%s:%d: word %q in %q and %q on line %d differ only in case, apostrophes or repeated letters; spell them alike", name, e.line, t.text, e.text, prev.text, prev.line))
					continue
				} else if !ok {
					spelled[t.key] = origin{e.text, e.line}
					l.canon[t.key] = t.text
				}
			}
			l.entries[key] = li.c
			l.maxKeyLen = max(l.maxKeyLen, len(key))
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return l, nil
}
