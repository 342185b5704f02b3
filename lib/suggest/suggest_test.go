package suggest

import "testing"

func TestClosest(t *testing.T) {
	variants := []string{"seed", "routing-examples", "route-strict"}
	for _, tt := range []struct{ name, want string }{
		{"route-stirct", "route-strict"}, // a transposition
		{"rotue-strict", "route-strict"},
		{"ROUTE-STRICT", "route-strict"},
		{"sed", "seed"},
		{"routing-exmaples", "routing-examples"},
		{"seed", "seed"},
		{"brand-new-idea", ""}, // nothing close: a new name
		{"x", ""},
	} {
		if got := Closest(tt.name, variants); got != tt.want {
			t.Errorf("Closest(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
	datasets := []string{"consent", "consent-heldout", "flows", "parser", "routing"}
	if got := DidYouMean("routnig", datasets); got != " (did you mean routing?)" {
		t.Errorf("DidYouMean(routnig) = %q", got)
	}
	if got := DidYouMean("routing", datasets); got != "" {
		t.Errorf("an existing name got a suggestion: %q", got)
	}
}

func TestList(t *testing.T) {
	if got := List([]string{"a", "b", "c"}, 5); got != "a, b, c" {
		t.Errorf("got %q", got)
	}
	if got := List([]string{"a", "b", "c", "d"}, 2); got != "a, b and 2 more" {
		t.Errorf("got %q", got)
	}
}
