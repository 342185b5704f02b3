package dataset

import (
	"fmt"
	"hash/fnv"
	"path"
	"strconv"
	"strings"

	"github.com/searchbench/searchbench/lib/suggest"
)

// Filter selects cases. It is built from --filter terms; a case is selected
// when it matches any term. A term is one of
//
//	id:GLOB       the case id matches GLOB (path.Match syntax); a GLOB with a
//	              slash matches dataset/id, so routing/t-iphone-year names one case
//	tag:TAG       the case carries TAG
//	label:LABEL   the case's label (route or consent intent) is LABEL
//	dataset:NAME  the case is in dataset NAME
//	WORD          any of the above: id glob, tag, label or dataset
//
// An empty filter selects everything.
type Filter struct {
	terms []term
}

type term struct{ field, value string }

// ParseFilter parses --filter values; each value may hold several terms
// separated by commas.
func ParseFilter(values []string) (Filter, error) {
	var f Filter
	for _, v := range values {
		for _, t := range strings.Split(v, ",") {
			t = strings.TrimSpace(t)
			if t == "" {
				continue
			}
			field, value, ok := strings.Cut(t, ":")
			if !ok {
				field, value = "", t
			}
			switch field {
			case "", "id", "tag", "label", "dataset":
			default:
				hint := suggest.DidYouMean(field, []string{"id", "tag", "label", "dataset"})
				if field == "case" || field == "name" {
					hint = fmt.Sprintf(" (did you mean id:%s? a case is selected by its id, or dataset/id)", value)
				}
				return Filter{}, fmt.Errorf("filter %q: unknown field %q%s (want id, tag, label or dataset)", t, field, hint)
			}
			if value == "" {
				return Filter{}, fmt.Errorf("filter %q: empty value", t)
			}
			if _, err := path.Match(value, ""); err != nil {
				return Filter{}, fmt.Errorf("filter %q: bad pattern: %w", t, err)
			}
			f.terms = append(f.terms, term{field, value})
		}
	}
	return f, nil
}

// Values returns the values of the filter's terms on field ("id", "tag",
// "label", "dataset"; "" for bare terms), in order.
func (f Filter) Values(field string) []string {
	var out []string
	for _, t := range f.terms {
		if t.field == field {
			out = append(out, t.value)
		}
	}
	return out
}

// Empty reports whether the filter selects everything.
func (f Filter) Empty() bool { return len(f.terms) == 0 }

// Match reports whether c is selected.
func (f Filter) Match(c *Case) bool {
	if len(f.terms) == 0 {
		return true
	}
	for _, t := range f.terms {
		if t.field == "" || t.field == "id" {
			target := c.ID
			if strings.Contains(t.value, "/") {
				target = c.Key()
			}
			if globMatch(t.value, target) {
				return true
			}
		}
		if (t.field == "" || t.field == "tag") && c.HasTag(t.value) {
			return true
		}
		if (t.field == "" || t.field == "label") && c.Label != "" && c.Label == t.value {
			return true
		}
		if (t.field == "" || t.field == "dataset") && c.Dataset == t.value {
			return true
		}
	}
	return false
}

func globMatch(pattern, s string) bool {
	ok, _ := path.Match(pattern, s)
	return ok
}

// Shard is a deterministic slice k of n (1-based) of the cases. A case's
// shard depends only on its dataset and id, so adding cases never moves the
// others between shards.
type Shard struct{ K, N int }

// ParseShard parses "k/n" with 1 ≤ k ≤ n. An empty string is the whole set.
func ParseShard(s string) (Shard, error) {
	if s == "" {
		return Shard{1, 1}, nil
	}
	ks, ns, ok := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(ks)
	n, err2 := strconv.Atoi(ns)
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 1 || k > n {
		return Shard{}, fmt.Errorf("shard %q: want k/n with 1 ≤ k ≤ n, e.g. 2/4", s)
	}
	return Shard{k, n}, nil
}

// Whole reports whether the shard is the whole set.
func (s Shard) Whole() bool { return s.N <= 1 }

// String formats the shard as k/n.
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.K, s.N) }

// Contains reports whether c falls in the shard.
func (s Shard) Contains(c *Case) bool {
	if s.N <= 1 {
		return true
	}
	h := fnv.New32a()
	h.Write([]byte(c.Key()))
	return int(h.Sum32()%uint32(s.N)) == s.K-1
}

// Select returns the cases of ds that pass the filter and fall in the shard,
// in file order.
func Select(ds []*Dataset, f Filter, s Shard) []*Case {
	var out []*Case
	for _, d := range ds {
		for _, c := range d.Cases {
			if f.Match(c) && s.Contains(c) {
				out = append(out, c)
			}
		}
	}
	return out
}
