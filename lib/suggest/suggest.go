// Package suggest finds the name a user probably meant when they typed one
// that does not exist: a variant, a dataset, a stored run.
package suggest

import (
	"fmt"
	"strings"

	"github.com/agnivade/levenshtein"
)

// Closest returns the candidate nearest to name by edit distance, when it
// is near enough to be a typo of it: one edit for a name of up to three
// letters, else two (a swap of two letters, "routnig") or a quarter of the
// longer name's length; "" when none is. A tie goes to the first candidate.
func Closest(name string, candidates []string) string {
	best, bestD := "", -1
	for _, c := range candidates {
		if c == name {
			return c
		}
		d := levenshtein.ComputeDistance(strings.ToLower(name), strings.ToLower(c))
		limit := max(2, max(len(name), len(c))/4)
		if len(name) <= 3 {
			limit = 1
		}
		if d > limit {
			continue
		}
		if bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// DidYouMean is " (did you mean X?)" for the candidate Closest finds, or "".
func DidYouMean(name string, candidates []string) string {
	if c := Closest(name, candidates); c != "" && c != name {
		return fmt.Sprintf(" (did you mean %s?)", c)
	}
	return ""
}

// List joins up to most names, then says how many more there are.
func List(names []string, most int) string {
	if len(names) <= most {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:most], ", "), len(names)-most)
}
