package consent

import (
	"fmt"
	"strings"
	"testing"
)

// The three figures of issue 37, for a set of labelled replies read by the
// rules alone: right (decided by a rule, as labelled), deferred (the rules
// leave it to the model: Decision.Unplaced) and confidently wrong (decided
// by a rule, not as labelled), with the declines a rule read as a search
// counted apart (they are among the wrong).
type figures struct {
	n, right, deferred, wrong, declinesAsSearch int
}

func (f *figures) add(c datasetCase) Decision {
	d := Decide(c.Reply, true)
	f.n++
	switch {
	case d.Unplaced:
		f.deferred++
	case d.Intent == c.Label:
		f.right++
	default:
		f.wrong++
		if c.Label == No && (d.Intent == Yes || d.Intent == SearchNow) {
			f.declinesAsSearch++
		}
	}
	return d
}

func pct(num, den int) string {
	if den == 0 {
		return "–"
	}
	return fmt.Sprintf("%d/%d = %.1f%%", num, den, 100*float64(num)/float64(den))
}

func (f figures) String() string {
	return fmt.Sprintf("right %s, deferred %s, wrong %s, declines read as search %d",
		pct(f.right, f.n), pct(f.deferred, f.n), pct(f.wrong, f.n), f.declinesAsSearch)
}

// heldoutSets37 are the held-out sets of issue 37: built from sources the
// lexicon never used, measured before and after the change.
var heldoutSets37 = []string{
	"../../testdata/demo/datasets/consent-frameworks.yaml",
	"../../testdata/demo/datasets/consent-intents.yaml",
}

// measure returns the figures of a set, overall and for its English replies
// (tag lang:en; every reply of a set without language tags).
func measure(t *testing.T, path string) (all, english figures, lines []string) {
	t.Helper()
	for _, c := range loadCasesLabels(t, path, 0, nil) {
		lang := langOf(c)
		d := all.add(c)
		if lang == "en" || lang == "" {
			english.add(c)
		}
		if !d.Unplaced && d.Intent != c.Label {
			lines = append(lines, fmt.Sprintf("wrong %s: %q labelled %s read %s by %s", c.ID, c.Reply, c.Label, d.Intent, d.Rule))
		}
	}
	return all, english, lines
}

// TestHeldoutFigures logs the three figures of every held-out set.
func TestHeldoutFigures(t *testing.T) {
	for _, path := range append([]string{heldoutFile, multilingualFile}, heldoutSets37...) {
		all, en, lines := measure(t, path)
		name := path[strings.LastIndex(path, "/")+1:]
		t.Logf("%s: %s", name, all)
		t.Logf("%s, English: %s", name, en)
		for _, l := range lines {
			t.Log("  " + l)
		}
	}
}
