package score

import (
	"reflect"
	"sync"
	"testing"

	"github.com/searchbench/searchbench/orchestrator/trace"
)

// TestValueMemosAreReadOnly: the values kept per process are the values
// read afresh, and marking a result's thresholds for one turn (withMarks)
// leaves the kept values unmarked for the next.
func TestValueMemosAreReadOnly(t *testing.T) {
	r := trace.Retrieved{URL: "https://example.org/q", Title: "Quorum", Snippet: "Turnout reached 49.6%, short of the 50% quorum, on 3 May 2024."}
	fresh := readValues(r)
	var g1 grounded
	if got := g1.valuesOf(r); !reflect.DeepEqual(got, fresh) {
		t.Fatalf("valuesOf = %+v, read afresh %+v", got, fresh)
	}
	marked := g1.withMarks(r)
	if !marked.marked || !hasMark(marked) {
		t.Fatalf("withMarks marked nothing: %+v", marked.vals)
	}
	kept, ok := srcMemo.Get(r.URL + "\x00" + r.Title + "\x00" + r.Snippet)
	if !ok {
		t.Fatal("the result's values were not kept")
	}
	if kept.marked || hasMark(kept) || !reflect.DeepEqual(kept, fresh) {
		t.Errorf("withMarks changed the kept values: %+v", kept.vals)
	}
	var g2 grounded // the next turn reads the kept values, unmarked
	if got := g2.valuesOf(r); got.marked || hasMark(got) {
		t.Errorf("the next turn's values carry the last turn's marks: %+v", got.vals)
	}

	text := "Turnout was 62%, above the 50% quorum."
	want := readClaimValues(text)
	for range 2 {
		if got := claimValues(text); !reflect.DeepEqual(got, want) {
			t.Errorf("claimValues = %+v, read afresh %+v", got, want)
		}
	}
}

func hasMark(sv srcValues) bool {
	for _, v := range sv.vals {
		if v.dir != 0 || v.target {
			return true
		}
	}
	return false
}

// TestValueMemosConcurrent is for the race detector: workers score turns
// citing the same results at once.
func TestValueMemosConcurrent(t *testing.T) {
	r := trace.Retrieved{URL: "https://example.org/c", Title: "Target", Snippet: "Inflation fell to 2.1%, near the 2% target."}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 50 {
				var g grounded
				g.valuesOf(r)
				g.withMarks(r)
				claimValues("Inflation met the 2% target.")
			}
		})
	}
	wg.Wait()
}
