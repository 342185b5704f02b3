package gate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/orchestrator/prompts"
)

// maxWeakened bounds the weakenings a verdict line names one by one.
const maxWeakened = 4

// Weakenings lists how cur, a change's gates file, is weaker than base,
// its base's: a rule turned off, the family-wise level or the minimum
// effect raised, a tolerance raised or a metric ignored, a threshold
// removed, lowered (min) or raised (max), or allowed to lack data. A
// change may loosen its gate, but the verdict names it: a gate a pull
// request weakens for itself is not the gate its reviewers trust.
func Weakenings(base, cur *Config, scorers []score.Scorer) []string {
	var out []string
	for _, r := range []struct {
		name     string
		was, now bool
	}{{"flips", base.Flips, cur.Flips}, {"improvements", base.Improvements, cur.Improvements},
		{"new_failures", base.NewFailures, cur.NewFailures}, {"removed_cases", base.RemovedCases, cur.RemovedCases},
		{"edited_cases", base.EditedCases, cur.EditedCases}, {"changed_datasets", base.ChangedDatasets, cur.ChangedDatasets},
		{"vanished", base.Vanished, cur.Vanished}} {
		if r.was && !r.now {
			out = append(out, r.name+" off")
		}
	}
	if cur.Alpha > base.Alpha {
		out = append(out, fmt.Sprintf("alpha %g → %g", base.Alpha, cur.Alpha))
	}
	if cur.MinEffect > base.MinEffect {
		out = append(out, fmt.Sprintf("pass_rate_drop %g → %g", base.MinEffect, cur.MinEffect))
	}
	// Regression rules, metric by declared metric; a change of the default
	// tolerance is named once.
	if cur.Tolerance > base.Tolerance {
		out = append(out, fmt.Sprintf("tolerance %g → %g", base.Tolerance, cur.Tolerance))
	}
	var ignored, raised []string
	for _, m := range score.NewCatalogue(scorers).Expand() {
		bt, bi, _ := base.rule(m)
		ct, ci, _ := cur.rule(m)
		switch {
		case ci && !bi:
			ignored = append(ignored, m)
		case !ci && !bi && ct > bt && !(ct == cur.Tolerance && bt == base.Tolerance):
			raised = append(raised, fmt.Sprintf("%s %g → %g", m, bt, ct))
		}
	}
	if len(ignored) > 0 {
		out = append(out, "ignored: "+cut(ignored))
	}
	if len(raised) > 0 {
		out = append(out, "tolerance raised: "+cut(raised))
	}
	for _, b := range base.Thresholds {
		i := slices.IndexFunc(cur.Thresholds, func(t Threshold) bool { return t.Pattern == b.Pattern })
		if i < 0 {
			out = append(out, "threshold "+b.Pattern+" removed")
			continue
		}
		c := cur.Thresholds[i]
		switch {
		case b.Min != nil && c.Min == nil:
			out = append(out, fmt.Sprintf("threshold %s: min %g removed", b.Pattern, *b.Min))
		case b.Min != nil && boundOf(c.MinExact, *c.Min).Cmp(boundOf(b.MinExact, *b.Min)) < 0:
			out = append(out, fmt.Sprintf("threshold %s: min %g → %g", b.Pattern, *b.Min, *c.Min))
		}
		switch {
		case b.Max != nil && c.Max == nil:
			out = append(out, fmt.Sprintf("threshold %s: max %g removed", b.Pattern, *b.Max))
		case b.Max != nil && boundOf(c.MaxExact, *c.Max).Cmp(boundOf(b.MaxExact, *b.Max)) > 0:
			out = append(out, fmt.Sprintf("threshold %s: max %g → %g", b.Pattern, *b.Max, *c.Max))
		}
		if c.AllowNoData && !b.AllowNoData {
			out = append(out, "threshold "+b.Pattern+": no_data pass")
		}
		for _, m := range b.modesOr(prompts.Modes) {
			if !slices.Contains(c.modesOr(prompts.Modes), m) {
				out = append(out, "threshold "+b.Pattern+": not in mode "+m)
			}
		}
	}
	return out
}

// cut names up to three items and counts the rest.
func cut(items []string) string {
	if len(items) <= 3 {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:3], ", "), len(items)-3)
}

// modesOr is the modes t applies to: its own, else all.
func (t Threshold) modesOr(all []string) []string {
	if len(t.Modes) == 0 {
		return all
	}
	return t.Modes
}
