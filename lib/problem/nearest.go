package problem

// Nearest returns the candidate closest to s by edit distance, for "did you
// mean" hints, or "" when none is within maxDist (maxDist < 0: no limit).
// Ties go to the earlier candidate.
func Nearest(s string, candidates []string, maxDist int) string {
	best, bestD := "", -1
	for _, c := range candidates {
		d := EditDistance(s, c)
		if (maxDist < 0 || d <= maxDist) && (bestD < 0 || d < bestD) {
			best, bestD = c, d
		}
	}
	return best
}

// EditDistance is the Levenshtein distance between a and b, in bytes (the
// names it compares are ASCII).
func EditDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
