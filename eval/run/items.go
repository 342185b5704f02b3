package run

import (
	"iter"
	"slices"
	"sort"
	"strings"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/eval/report"
)

// Items is what Replay runs: the selected cases, in selection order. A
// Slice holds them all; a Stream reads them from validated dataset files
// one at a time, so a run's memory does not grow with its size.
type Items interface {
	// All yields the items in order, or an error when they cannot be read.
	All() iter.Seq2[Item, error]
	// Len is the number of items.
	Len() int
}

// Slice is Items held in memory.
type Slice []Item

// All implements Items.
func (s Slice) All() iter.Seq2[Item, error] {
	return func(yield func(Item, error) bool) {
		for _, it := range s {
			if !yield(it, nil) {
				return
			}
		}
	}
}

// Len implements Items.
func (s Slice) Len() int { return len(s) }

// Stream is the selection of a dataset catalog's cases (Plan's, with the
// same Seq numbers), read case by case.
type Stream struct {
	cat    *dataset.Catalog
	filter dataset.Filter
	shard  dataset.Shard
	n      int

	// What the validating pass gathered from the shelf's manifest, so that
	// Replay need not read the cases a third time.
	shelf    Shelf
	manifest *Manifest
	sum      backends
}

// OpenStream validates the dataset files in dir (every problem at once, as
// dataset.OpenDir) and selects the cases that pass f and fall in sh. m, if
// not nil, is the manifest of shelf, the shelf the run replays: the pass
// that validates also sums up how its cassettes were recorded. Each visit
// function sees every selected case of that pass.
func OpenStream(dir string, f dataset.Filter, sh dataset.Shard, shelf Shelf, m *Manifest, visit ...func(*dataset.Case)) (*Stream, error) {
	s := &Stream{filter: f, shard: sh, shelf: shelf, manifest: m}
	seq := 0
	cat, err := dataset.OpenDir(dir, func(c *dataset.Case) {
		if !f.Match(c) {
			return
		}
		seq++
		if !sh.Contains(c) {
			return
		}
		s.n++
		for _, v := range visit {
			v(c)
		}
		if m != nil && NeedsTraffic(c) {
			if e, ok := m.Entry(c.Key()); ok {
				s.sum.add(e)
			}
		}
	})
	if err != nil {
		return nil, err
	}
	s.cat = cat
	return s, nil
}

// Catalog is the validated dataset files.
func (s *Stream) Catalog() *dataset.Catalog { return s.cat }

// Len implements Items.
func (s *Stream) Len() int { return s.n }

// All implements Items: the cases are decoded again, one at a time.
func (s *Stream) All() iter.Seq2[Item, error] {
	return func(yield func(Item, error) bool) {
		seq := 0
		for c, err := range s.cat.Cases() {
			if err != nil {
				yield(Item{}, err)
				return
			}
			if !s.filter.Match(c) {
				continue
			}
			seq++
			if !s.shard.Contains(c) {
				continue
			}
			if !yield(Item{Seq: seq - 1, Case: c}, nil) {
				return
			}
		}
	}
}

// backends sums up the manifest entries of a run's cases: the backends,
// the simulator policies, and the models and base URLs of the live
// recordings, each sorted.
type backends struct {
	backends, policies, models, bases []string
}

// addSorted adds v to the sorted list *xs unless it is empty or there.
func addSorted(xs *[]string, v string) {
	if v != "" && !slices.Contains(*xs, v) {
		*xs = append(*xs, v)
		sort.Strings(*xs)
	}
}

func (b *backends) add(e Entry) {
	addSorted(&b.backends, e.Backend)
	addSorted(&b.policies, e.Policy)
	addSorted(&b.models, e.Model)
	for svc, u := range e.BaseURLs {
		addSorted(&b.bases, svc+"="+u)
	}
}

// fill sets m's backend ("sim", "live" or "live+sim"), policies, models
// and base URLs.
func (b *backends) fill(m *report.Meta) {
	m.Backend, m.SimPolicies = strings.Join(b.backends, "+"), b.policies
	m.Models, m.BaseURLs = b.models, b.bases
}

// prepare returns the manifest of shelf and the summary of the entries of
// items: the Stream's own when it gathered them for this shelf.
func prepare(items Items, shelf Shelf) (*Manifest, backends, error) {
	if s, ok := items.(*Stream); ok && s.manifest != nil && s.shelf == shelf {
		return s.manifest, s.sum, nil
	}
	m, err := shelf.LoadManifestCompact()
	if err != nil {
		return nil, backends{}, err
	}
	var sum backends
	for it, err := range items.All() {
		if err != nil {
			return nil, backends{}, err
		}
		if e, ok := m.Entry(it.Case.Key()); ok && NeedsTraffic(it.Case) {
			sum.add(e)
		}
	}
	return m, sum, nil
}
