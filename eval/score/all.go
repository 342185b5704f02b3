package score

// All returns every scorer in report order. Reports list metrics and
// tables in this order, and the JUnit report names test cases after it.
func All() []Scorer {
	return []Scorer{Routing{}, Correctness{}, Verification{}, Schema{}, Markdown{}, Flow{}, Consent{}, Limits{}, Evidence{}, Grounding{}, Cost{}, Parser{}}
}

// Names returns the names of ss, in order.
func Names(ss []Scorer) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.Name()
	}
	return out
}
