package report

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/searchbench/searchbench/eval/score"
)

// MergeError lists every reason the shard reports cannot be joined.
type MergeError struct{ Problems []string }

func (e *MergeError) Error() string {
	return "cannot merge the shard reports:\n  " + strings.Join(e.Problems, "\n  ")
}

// Merge joins shard reports of one run into one report written through w:
// same variant, mode, datasets, filter and cassettes required; no case
// twice; cases in Seq order (the order of the unsharded run); the summary
// re-computed from the records with scorers, never averaged. The merged
// meta has no shard and lists the shards joined, so the result equals the
// report of an unsharded run over the same cases except for those fields.
//
// It streams: one case per shard is held at a time. Problems found before
// writing are returned together as a *MergeError; a duplicate found while
// streaming stops the merge, so write to a temporary file and keep it only
// when Merge succeeds. It returns the merged meta and notes (missing
// shards).
func Merge(srcs []Source, scorers []score.Scorer, w Writer) (Meta, []string, error) {
	if len(srcs) == 0 {
		return Meta{}, nil, errors.New("no shard reports to merge")
	}
	type shard struct {
		src  Source
		sc   *Scanner
		meta Meta
		cur  *CaseRecord
		last int
	}
	shards := make([]*shard, 0, len(srcs))
	defer func() {
		for _, s := range shards {
			if s.sc != nil {
				s.sc.close()
			}
		}
	}()
	var problems []string
	for _, src := range srcs {
		rc, err := src.Open()
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", src.Name, err))
			continue
		}
		sc, err := NewScanner(src.Name, rc)
		if err != nil {
			rc.Close()
			problems = append(problems, err.Error())
			continue
		}
		sc.closer = rc
		shards = append(shards, &shard{src: src, sc: sc, meta: sc.Meta(), last: -1})
	}
	if len(problems) > 0 {
		return Meta{}, nil, &MergeError{problems}
	}

	// The shards must come from one run.
	first := shards[0]
	var specs []string
	seenSpec := map[string]string{}
	n := 0
	for _, s := range shards {
		m, f := s.meta, first.meta
		same := func(field, a, b string) {
			if a != b {
				problems = append(problems, fmt.Sprintf("%s: %s %q differs from %s's %q", s.src.Name, field, a, first.src.Name, b))
			}
		}
		same("variant", m.Variant, f.Variant)
		same("mode", m.Mode, f.Mode)
		same("variant hash", m.VariantHash, f.VariantHash)
		same("filter", strings.Join(m.Filter, ","), strings.Join(f.Filter, ","))
		same("cassettes", m.Cassettes, f.Cassettes)
		if !slices.Equal(m.Datasets, f.Datasets) {
			problems = append(problems, fmt.Sprintf("%s: datasets (names, paths, case counts or sha256) differ from %s's", s.src.Name, first.src.Name))
		}
		own := m.Shards
		if len(own) == 0 {
			own = []string{m.Shard}
		}
		for _, spec := range own {
			if spec == "" {
				spec = "1/1"
			}
			_, total, ok := parseShard(spec)
			if !ok {
				problems = append(problems, fmt.Sprintf("%s: shard %q is not k/n", s.src.Name, spec))
				continue
			}
			if n == 0 {
				n = total
			} else if total != n {
				problems = append(problems, fmt.Sprintf("%s: shard %s is of a %d-way split, not %d-way like the others", s.src.Name, spec, total, n))
			}
			if prev, dup := seenSpec[spec]; dup {
				problems = append(problems, fmt.Sprintf("%s: shard %s is also in %s", s.src.Name, spec, prev))
			}
			seenSpec[spec] = s.src.Name
			specs = append(specs, spec)
		}
	}
	if len(problems) > 0 {
		return Meta{}, nil, &MergeError{problems}
	}
	slices.SortFunc(specs, func(a, b string) int {
		ka, _, _ := parseShard(a)
		kb, _, _ := parseShard(b)
		return ka - kb
	})
	var notes []string
	if len(specs) < n {
		var missing []string
		for k := 1; k <= n; k++ {
			if _, ok := seenSpec[fmt.Sprintf("%d/%d", k, n)]; !ok {
				missing = append(missing, fmt.Sprintf("%d/%d", k, n))
			}
		}
		notes = append(notes, fmt.Sprintf("shards %s are missing: the merged report covers %d of %d shards", strings.Join(missing, ", "), len(specs), n))
	}

	meta := first.meta
	meta.Shard, meta.Shards = "", specs
	if n <= 1 {
		meta.Shards = nil
	}
	var backends, policies, models, bases []string
	meta.Unplayable = nil
	for _, s := range shards {
		if u := s.meta.Unplayable; u != nil {
			if meta.Unplayable == nil {
				meta.Unplayable = &Unplayable{}
			}
			meta.Unplayable.Add(u)
		}
		if s.meta.StartedAt != "" && (meta.StartedAt == "" || s.meta.StartedAt < meta.StartedAt) {
			meta.StartedAt = s.meta.StartedAt
		}
		for _, b := range strings.Split(s.meta.Backend, "+") {
			if b != "" && !slices.Contains(backends, b) {
				backends = append(backends, b)
			}
		}
		for _, p := range s.meta.SimPolicies {
			if !slices.Contains(policies, p) {
				policies = append(policies, p)
			}
		}
		for _, m := range s.meta.Models {
			if !slices.Contains(models, m) {
				models = append(models, m)
			}
		}
		for _, b := range s.meta.BaseURLs {
			if !slices.Contains(bases, b) {
				bases = append(bases, b)
			}
		}
	}
	// The merged run's backends and policies are those of all its shards
	// (a shard sees only its own cases' cassettes).
	slices.Sort(backends)
	slices.Sort(policies)
	meta.Backend, meta.SimPolicies = strings.Join(backends, "+"), policies
	slices.Sort(models)
	slices.Sort(bases)
	meta.Models, meta.BaseURLs = models, bases

	// Stream the cases in Seq order: a k-way merge of sorted shards.
	if err := w.Begin(meta); err != nil {
		return meta, notes, err
	}
	advance := func(s *shard) error {
		if !s.sc.Next() {
			s.cur = nil
			return s.sc.Err()
		}
		s.cur = s.sc.Case()
		if s.cur.Seq <= s.last {
			return fmt.Errorf("%s: case %s has seq %d after seq %d; a shard report must be in seq order", s.src.Name, s.cur.Key, s.cur.Seq, s.last)
		}
		s.last = s.cur.Seq
		return nil
	}
	for _, s := range shards {
		if err := advance(s); err != nil {
			return meta, notes, err
		}
	}
	agg := NewAggregate(scorers)
	keys := map[string]string{}
	for {
		var next *shard
		for _, s := range shards {
			if s.cur == nil {
				continue
			}
			if next != nil && s.cur.Seq == next.cur.Seq {
				return meta, notes, fmt.Errorf("seq %d is in both %s (case %s) and %s (case %s)", s.cur.Seq, next.src.Name, next.cur.Key, s.src.Name, s.cur.Key)
			}
			if next == nil || s.cur.Seq < next.cur.Seq {
				next = s
			}
		}
		if next == nil {
			break
		}
		rec := next.cur
		if prev, dup := keys[rec.Key]; dup {
			return meta, notes, fmt.Errorf("case %s is in both %s and %s", rec.Key, prev, next.src.Name)
		}
		keys[rec.Key] = next.src.Name
		agg.Add(rec)
		if err := w.Case(rec); err != nil {
			return meta, notes, err
		}
		if err := advance(next); err != nil {
			return meta, notes, err
		}
	}
	return meta, notes, w.End(agg.Summary())
}

func parseShard(s string) (k, n int, ok bool) {
	ks, ns, found := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(ks)
	n, err2 := strconv.Atoi(ns)
	if !found || err1 != nil || err2 != nil || n < 1 || k < 1 || k > n {
		return 0, 0, false
	}
	return k, n, true
}
