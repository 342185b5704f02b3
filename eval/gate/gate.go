// Package gate decides whether a run may ship. It is the one code path
// behind `run --gates`, `merge --gates` and `searchbench gate`, and it
// computes one verdict (report.Gate) that every output then shows.
//
// The rules, each documented in gates.yaml and on unless it says otherwise:
//
//   - thresholds: absolute bounds on the run's metrics; a threshold whose
//     metric has no data in the run fails too (no_data: pass allows it);
//   - regressions: a metric that worsened against the baseline beyond its
//     tolerance, and a metric the baseline had that the run lacks;
//   - flips: a case that passed a scorer in the baseline and fails it now;
//   - improvements (off by default): the opposite, an outdated baseline;
//   - for a case with several samples (record --samples) flips and
//     improvements judge its pass rate over the samples instead: a scorer
//     whose rate fell (or, for improvements, rose) by pass_rate_drop;
//   - new failures: a case the baseline does not have that fails;
//   - removed cases: a baseline case in the run's selection the run lacks;
//   - edited cases: a case whose content changed under the same id;
//   - changed datasets: a dataset file whose sha256 differs;
//   - vanished: a scorer that judged a case in the baseline and no longer
//     does.
//
// When the run covers only part of the baseline (a --filter), both sides
// are re-aggregated over the cases they share before metrics are compared,
// so a subset is never judged against the whole. One shard of a sharded run
// gets the per-case rules only: its metrics are a slice's, and thresholds
// and metric regressions are checked on the merged report, whose verdict
// equals the unsharded run's. Reports are read as streams (report.Scanner).
package gate

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/eval/grade"
	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/eval/stats"
)

// Kinds of violation.
const (
	KindThreshold  = "threshold"
	KindNoData     = "no_data"    // a threshold's metric has no data
	KindRegression = "regression" // a metric worsened beyond its tolerance
	KindFlip       = "flip"       // a case passed a scorer in the baseline, fails it now
	// KindImproved: a case that failed a scorer in the baseline passes it
	// now. Listed (Verdict.Improved), not a violation, unless the gates
	// file makes improvements fail (the baseline must then be updated).
	// Reports before it was renamed called the violation "stale", a word
	// now kept for cassettes recorded before their prompts changed.
	KindImproved   = "improved"
	KindRateDrop   = "rate_drop" // a sampled case's pass rate fell by pass_rate_drop or more
	KindNewFailure = "new_failure"
	KindRemoved    = "removed"
	KindEdited     = "edited"
	KindDataset    = "dataset"
	KindVanished   = "vanished"
)

// kindOrder is the order violations are listed and counted in.
var kindOrder = []string{KindDataset, KindThreshold, KindNoData, KindCalibration, KindRegression, KindVanished,
	KindRemoved, KindEdited, KindNewFailure, KindFlip, KindRateDrop, KindImproved}

// Violation is one broken rule.
type Violation = report.Violation

// Verdict is the gate's decision.
type Verdict = report.Gate

// Options tune Evaluate.
type Options struct {
	// AllowMismatch allows a baseline of another prompt variant or output
	// mode; without it that is a *MismatchError.
	AllowMismatch bool
	// Scorers re-aggregate subsets; nil means score.All().
	Scorers []score.Scorer
	// Reference is set when the baseline was read from git at a ref
	// (--baseline-ref): the run is a change judged against its base. A
	// changed variant hash is then the change under review (a note, not a
	// *MismatchError), and improvements are listed, never violations.
	Reference *report.Reference
	// ReadCalibration reads the calibration report of the gates file's
	// judges section (nil: grade.ReadCalibration, from the working folder).
	ReadCalibration func(path string) (*grade.CalibrationReport, error)
	// PromptsChanged allows a changed variant hash against a baseline file
	// too: the run already fails for the reason (its cassettes are stale),
	// and the verdict is still worth writing.
	PromptsChanged bool
	// Accept are the regressions the change accepts (AcceptFile), and
	// BaselineID the fingerprint of the baseline (report.Fingerprint) they
	// must have been written against; nil accepts nothing.
	Accept     *Acceptances
	BaselineID string
	// BaseGates is the gates file of the change's base (with a Reference):
	// how the change weakens it is named in the verdict line.
	BaseGates *Config
}

// MismatchError says the baseline was run with another variant or mode, so
// comparing with it would judge the change by the wrong yardstick.
type MismatchError struct {
	Field, Current, Baseline string
}

func (e *MismatchError) Error() string {
	if e.Field == "variant hash" {
		return fmt.Sprintf("the baseline was run with another version of this variant (hash %s; this run's is %s): its prompts or settings changed since. "+
			"If the change is intended, regenerate the baseline (make baseline) and commit it with the change; to gate against the old one anyway, allow it explicitly (--allow-mismatch)",
			e.Baseline, e.Current)
	}
	if e.Field == "mode" {
		return fmt.Sprintf("the baseline was run in mode %s but this run is mode %s; gate each mode against its own baseline "+
			"(make baseline writes reports/baseline.json for model and reports/baseline.structured.json for structured), or allow it explicitly (--allow-mismatch)",
			e.Baseline, e.Current)
	}
	return fmt.Sprintf("the baseline was run with %s %q but this run uses %q; compare like with like, or allow it explicitly (--allow-mismatch)",
		e.Field, e.Baseline, e.Current)
}

// withHash names a report's variant, with its hash when it has one.
func withHash(m report.Meta) string {
	if m.VariantHash == "" {
		return m.Variant
	}
	return m.Variant + " (hash " + m.VariantHash + ")"
}

// IsMismatch reports whether err is a variant/mode mismatch.
func IsMismatch(err error) bool {
	var m *MismatchError
	return errors.As(err, &m)
}

// baseCase is what the gate keeps of a baseline case.
type baseCase struct {
	info    score.CaseInfo
	pass    bool            // the case passed
	scorer  map[string]bool // every scorer that judged it → passed
	scorers []string        // non-measure scorers, in result order
	// samples is how many samples the case has; rates its non-measure
	// scorers' passes over them (report.CaseRecord.ScorerRates).
	samples int
	rates   map[string]stats.Cluster
	// clusters are its per-metric outcomes over the samples
	// (report.CaseRecord.MetricClusters), for the paired tests.
	clusters map[string]stats.Cluster
	// errored and passFlag are the record's own error and pass fields,
	// for checking the baseline against its summary.
	errored, passFlag bool
	// view is what the per-case rules read (cases.go).
	view caseView
}

// Evaluate judges the report current against cfg and, when baseline.Open
// is not nil, against baseline. Input problems (unreadable reports, variant
// mismatch) are returned as errors; broken rules are violations.
func Evaluate(cfg *Config, current, baseline report.Source, opt Options) (*Verdict, error) {
	if opt.Scorers == nil {
		opt.Scorers = score.All()
	}
	asWritten := cfg
	v := &Verdict{Gates: cfg.File, Violations: []Violation{}, Scope: report.GateScopeFull, Reference: opt.Reference, BaselineID: opt.BaselineID}
	off := cfg.Off() // before the copy below turns improvements on
	// Improvements are always found; they are violations only under the
	// improvements rule against a baseline file (which must then be
	// updated), and listed as improved otherwise.
	improvementsFail := cfg.Improvements && opt.Reference == nil
	if !cfg.Improvements {
		c := *cfg
		c.Improvements = true
		cfg = &c
	}
	e := &evaluation{cfg: cfg, v: v, vanished: map[string][]string{}, improvementsFail: improvementsFail, pairs: map[string][]movedCase{},
		invariant: score.Invariants(opt.Scorers), modelMetric: map[string]bool{},
		readCalibration: opt.ReadCalibration}
	hashChangeOK := opt.Reference != nil || opt.PromptsChanged
	if len(off) > 0 {
		e.note("rules off in %s (they raise no violation): %s", cfg.File, strings.Join(off, ", "))
	}
	for _, o := range cfg.Overrides {
		if o.Ignore {
			e.note("metric regressions not checked for %s (ignore: true at %s:%d)", o.Pattern, cfg.File, o.Line)
		}
	}

	// Pass 1: the baseline's per-case outcomes.
	var base map[string]*baseCase
	var baseOrder []string
	var baseMeta report.Meta
	var baseSum *report.Summary
	hashed := false
	baseMax, curMax := 0, 0 // the most samples a case has
	if baseline.Open != nil {
		v.Baseline = baseline.Name
		base = map[string]*baseCase{}
		err := report.Scan(baseline, func(m report.Meta) error {
			baseMeta = m
			return nil
		}, func(r *report.CaseRecord) error {
			b := &baseCase{info: r.CaseInfo, pass: r.Passed(), scorer: map[string]bool{}, samples: r.SampleCount(),
				clusters: r.MetricClusters(), errored: r.Error != "", passFlag: r.Pass, view: viewOf(r, e.invariant, false)}
			for _, res := range r.Scores {
				b.scorer[res.Scorer] = res.Pass
				if !res.Measure {
					b.scorers = append(b.scorers, res.Scorer)
				}
			}
			hashed = hashed || r.Hash != ""
			baseMax = max(baseMax, b.samples)
			base[r.Key] = b
			baseOrder = append(baseOrder, r.Key)
			return nil
		}, func(s *report.Summary) { baseSum = s })
		if err != nil {
			return nil, err
		}
		if err := checkBaseline(baseline.Name, baseMeta, baseSum, base, baseOrder); err != nil {
			return nil, err
		}
		v.Counts.BaselineCases = len(base)
	}

	// Pass 2: the current run, judging each case as it streams by.
	var curMeta report.Meta
	var curSum *report.Summary
	curShared := report.NewAggregate(opt.Scorers)
	inCurrent := map[string]bool{}
	err := report.Scan(current, func(m report.Meta) error {
		curMeta = m
		if m.Shard != "" {
			v.Scope = report.GateScopeCases
		}
		if base == nil || opt.AllowMismatch {
			return nil
		}
		if m.Variant != baseMeta.Variant {
			return &MismatchError{"variant", m.Variant, baseMeta.Variant}
		}
		if m.Mode != baseMeta.Mode {
			return &MismatchError{"mode", m.Mode, baseMeta.Mode}
		}
		if m.VariantHash != "" && baseMeta.VariantHash != "" && m.VariantHash != baseMeta.VariantHash && !hashChangeOK {
			return &MismatchError{"variant hash", m.VariantHash, baseMeta.VariantHash}
		}
		return nil
	}, func(r *report.CaseRecord) error {
		v.Counts.Cases++
		inCurrent[r.Key] = true
		curMax = max(curMax, r.SampleCount())
		if base == nil {
			return nil
		}
		b, ok := base[r.Key]
		if !ok {
			v.NewCases = append(v.NewCases, r.Key)
			e.newCase(r)
			return nil
		}
		v.Counts.Compared++
		curShared.Add(r)
		e.sharedCase(r, b, hashed)
		return nil
	}, func(s *report.Summary) { curSum = s })
	if err != nil {
		return nil, err
	}
	v.Counts.New = len(v.NewCases)
	e.judgeCases()
	e.singleNotes()

	if base != nil {
		e.datasets(baseMeta.Datasets, curMeta.Datasets)
		if !hashed && cfg.EditedCases && len(base) > 0 {
			e.add(Violation{Kind: KindEdited, Want: "a case hash per baseline case", Got: "none",
				Explanation: "the baseline has no case hashes (written by an older searchbench), so an edited case cannot be told from an unchanged one: regenerate it (make baseline)"})
		}
		if err := e.removed(curMeta, base, baseOrder, inCurrent); err != nil {
			return nil, err
		}
		e.vanishedScorers()
		if baseMax != curMax && baseMax > 0 && curMax > 0 {
			v.Notes = append(v.Notes, fmt.Sprintf("the baseline has up to %d sample(s) per case and this run up to %d: means and the pass rates of flaky cases differ by construction; gate runs with the samples the baseline was made with", baseMax, curMax))
		}
		hashChanged := curMeta.VariantHash != baseMeta.VariantHash
		switch {
		case curMeta.Variant == baseMeta.Variant && curMeta.Mode == baseMeta.Mode && hashChanged && hashChangeOK:
			v.Notes = append(v.Notes, promptsChanged(baseMeta, curMeta, opt.Reference))
		case opt.AllowMismatch && (curMeta.Variant != baseMeta.Variant || curMeta.Mode != baseMeta.Mode || hashChanged):
			v.Notes = append(v.Notes, fmt.Sprintf("baseline variant %s/mode %s differs from this run's %s/%s (allowed)",
				withHash(baseMeta), baseMeta.Mode, withHash(curMeta), curMeta.Mode))
		}
	}

	if v.Scope == report.GateScopeFull {
		var baseM, curM *report.Summary
		if base != nil {
			baseM, curM = baseSum, curSum
			if v.Counts.Compared != len(base) || v.Counts.Compared != len(inCurrent) {
				v.Reaggregated = true
				baseShared := report.NewAggregate(opt.Scorers)
				err := report.Scan(baseline, nil, func(r *report.CaseRecord) error {
					if inCurrent[r.Key] {
						baseShared.Add(r)
					}
					return nil
				}, nil)
				if err != nil {
					return nil, err
				}
				bs, cs := baseShared.Summary(), curShared.Summary()
				baseM, curM = &bs, &cs
				v.Notes = append(v.Notes, fmt.Sprintf("this run covers %d of the baseline's %d cases%s; metrics are compared with both re-aggregated over the %d shared cases",
					v.Counts.Compared, len(base), selection(curMeta), v.Counts.Compared))
			}
		}
		e.thresholds(curSum, baseM, len(curMeta.Filter) > 0, curMeta.Mode)
		e.judges(curMeta, curSum)
		if base != nil {
			e.regressions(baseM, curM)
		}
	} else {
		v.Notes = append(v.Notes, fmt.Sprintf("shard %s: per-case rules only; thresholds and metric regressions are checked on the merged report (searchbench merge --gates)", curMeta.Shard))
	}
	if len(v.NewCases) > 0 {
		v.Notes = append(v.Notes, fmt.Sprintf("%d case(s) are new in this run: judged on their own (a failing one is a new failure), not against the baseline", len(v.NewCases)))
	}
	v.Headline = headline(cfg)
	slices.SortStableFunc(v.Violations, func(a, b Violation) int {
		return slices.Index(kindOrder, a.Kind) - slices.Index(kindOrder, b.Kind)
	})
	partial := curMeta.Shard != "" || len(curMeta.Filter) > 0
	if err := e.applyAcceptances(opt.Accept, opt.BaselineID, partial, inCurrent, func(k string) bool { return inCurrent[k] || base[k] != nil }); err != nil {
		return nil, err
	}
	if opt.BaseGates != nil {
		v.Weakened = Weakenings(opt.BaseGates, asWritten, opt.Scorers)
	}
	v.Verdict = report.VerdictPass
	if !v.Pass() {
		v.Verdict = report.VerdictFail
	}
	v.Line = Line(v)
	return v, nil
}

// BaselineError says a baseline disagrees with itself: its case records
// with its own summary, or with the dataset files it says it ran. A
// truncated or hand-edited baseline would otherwise be compared as if
// whole (half its cases gone: "269 new", PASS).
type BaselineError struct {
	File     string
	Problems []string
}

func (e *BaselineError) Error() string {
	return fmt.Sprintf("baseline %s is inconsistent, refusing to gate against it (regenerate it: make baseline):\n  %s", e.File, strings.Join(e.Problems, "\n  "))
}

// checkBaseline checks a baseline against its own summary (how many cases,
// passed, failed and errored; each paired rate's counts) and against the
// dataset files it hashed: no more cases of a dataset than the file has,
// and none of a dataset it does not list.
func checkBaseline(file string, m report.Meta, sum *report.Summary, base map[string]*baseCase, order []string) error {
	var problems []string
	if sum == nil {
		problems = append(problems, "it has no summary (a truncated file?)")
	} else {
		var cases, passed, failed, errored int
		rates := map[string]stats.Cluster{}
		for _, k := range order {
			b := base[k]
			cases++
			switch {
			case b.errored:
				errored++
			case b.passFlag:
				passed++
			default:
				failed++
			}
			for name, c := range b.clusters {
				r := rates[name]
				r.Pass += c.Pass
				r.N += c.N
				rates[name] = r
			}
		}
		if cases != sum.Cases || passed != sum.Passed || failed != sum.Failed || errored != sum.Errors {
			problems = append(problems, fmt.Sprintf("its summary counts %d cases (%d passed, %d failed, %d errors) but it holds %d (%d passed, %d failed, %d errors)",
				sum.Cases, sum.Passed, sum.Failed, sum.Errors, cases, passed, failed, errored))
		}
		for _, mt := range sum.Metrics {
			if !mt.Paired || mt.Den == 0 {
				continue
			}
			if r := rates[mt.Name]; r.Pass != mt.Num || r.N != mt.Den {
				problems = append(problems, fmt.Sprintf("its summary has %s = %d/%d but its cases give %d/%d", mt.Name, mt.Num, mt.Den, r.Pass, r.N))
			}
		}
	}
	if len(m.Datasets) > 0 {
		per := map[string]int{}
		for _, k := range order {
			per[base[k].info.Dataset]++
		}
		for _, d := range m.Datasets {
			if per[d.Name] > d.Cases {
				problems = append(problems, fmt.Sprintf("dataset %s (sha256 %s) has %d cases but the baseline holds %d of it", d.Name, short(d.SHA256), d.Cases, per[d.Name]))
			}
			delete(per, d.Name)
		}
		for _, name := range slices.Sorted(maps.Keys(per)) {
			problems = append(problems, fmt.Sprintf("%d case(s) of dataset %s, which the baseline's datasets do not list", per[name], name))
		}
	}
	if len(problems) > 0 {
		return &BaselineError{File: file, Problems: problems}
	}
	return nil
}

// promptsChanged is the note of a run whose variant changed since the
// baseline: "prompts changed: seed@origin/main (hash X) vs seed (hash Y)".
func promptsChanged(base, cur report.Meta, ref *report.Reference) string {
	at := " in the baseline"
	if ref != nil {
		at = "@" + ref.Ref
	}
	return fmt.Sprintf("prompts changed: %s%s (hash %s) vs %s (hash %s)", base.Variant, at, base.VariantHash, cur.Variant, cur.VariantHash)
}

// evaluation is the state of one Evaluate.
type evaluation struct {
	cfg *Config
	v   *Verdict
	// improvementsFail makes an improvement (KindImproved) a violation;
	// otherwise it is listed in v.Improved.
	improvementsFail bool
	// vanished maps a scorer to the baseline cases it judged that it no
	// longer judges (cases that ran).
	vanished      map[string][]string
	vanishedOrder []string
	// pairs holds, per metric, every shared case's outcomes in both runs
	// (over its samples), in stream order; modelMetric marks the metrics
	// some of whose pairs come from cases that called the model (their
	// outcomes are draws, tested over cases; the others are deterministic).
	pairs       map[string][]movedCase
	modelMetric map[string]bool
	// invariant is the scorers' declared invariant metrics.
	invariant map[string]bool
	// caseTests are the per-case hypotheses of sampled model cases, judged
	// together once every case is read (judgeCases); caseFamily describes
	// the family that gates. singleFlips and singleImproved are the
	// model-behaviour flips of one-sample cases: notes.
	caseTests                   []caseTest
	caseFamily, metricFamily    familySummary
	singleFlips, singleImproved []singleFlip
	// readCalibration reads the judges section's calibration report
	// (nil: grade.ReadCalibration).
	readCalibration func(path string) (*grade.CalibrationReport, error)
}

// movedCase is one shared case's outcomes of one metric in the baseline
// (A) and the run (B).
type movedCase struct {
	key  string
	rate stats.RatePair
}

func (e *evaluation) add(x Violation) {
	if x.Kind == KindImproved && !e.improvementsFail {
		e.v.Improved = append(e.v.Improved, x)
		return
	}
	if x.Next == "" {
		x.Next = nextStep(x)
	}
	e.v.Violations = append(e.v.Violations, x)
}

// nextStep says what to do about a violation of kind x.Kind.
func nextStep(x Violation) string {
	switch x.Kind {
	case KindRateDrop, KindFlip, KindNewFailure:
		if x.Case == "" {
			return "fix the prompt or code"
		}
		return fmt.Sprintf("fix it (searchbench run --filter id:%s -v shows each sample) or accept the trade-off: searchbench accept %s --reason …",
			caseID(x.Case), x.Case)
	case KindRegression:
		return "fix the prompt or code (searchbench compare shows the cases that moved)"
	case KindThreshold:
		return "fix the regression; a threshold is changed only in a reviewed edit of the gates file"
	case KindNoData, KindVanished:
		return "restore the scorer or check, or remove what gates it from the gates file in a reviewed edit"
	case KindImproved:
		return "update the baseline on purpose (make baseline) so later changes are judged from here"
	case KindEdited, KindDataset, KindRemoved:
		return "re-record what changed (searchbench record --stale) and update the baseline on purpose (make baseline)"
	}
	return ""
}

// caseID is the id part of a case key dataset/id.
func caseID(key string) string {
	_, id, ok := strings.Cut(key, "/")
	if !ok {
		return key
	}
	return id
}

func (e *evaluation) note(format string, args ...any) {
	e.v.Notes = append(e.v.Notes, fmt.Sprintf(format, args...))
}

// newCase judges a case the baseline does not have.
func (e *evaluation) newCase(r *report.CaseRecord) {
	if passedAll(r) || !e.cfg.NewFailures {
		return
	}
	e.add(Violation{Kind: KindNewFailure, Metric: failingScorers(r), Case: r.Key, Want: "pass (a new case)", Got: gotOf(r),
		Explanation: "new in this run and failing: " + failingText(r)})
}

// sharedCase applies the per-case rules to a case both reports hold.
func (e *evaluation) sharedCase(r *report.CaseRecord, b *baseCase, hashed bool) {
	if hashed && r.Hash != b.info.Hash {
		if e.cfg.EditedCases {
			e.add(Violation{Kind: KindEdited, Case: r.Key, Want: "case hash " + short(b.info.Hash), Got: short(r.Hash),
				Explanation: "the case's content changed under the same id, so its outcome is no longer comparable with the baseline's: give the changed case a new id, or update the baseline on purpose (make baseline)"})
		} else {
			e.note("%s was edited since the baseline (allowed: edited_cases is false)", r.Key)
		}
		return
	}
	now := viewOf(r, nil, false)
	model := b.view.model || now.model
	for m, cb := range r.MetricClusters() {
		if ca, ok := b.clusters[m]; ok && ca.N > 0 && cb.N > 0 {
			e.pairs[m] = append(e.pairs[m], movedCase{r.Key, stats.RatePair{PassA: ca.Pass, NA: ca.N, PassB: cb.Pass, NB: cb.N}})
			if model {
				e.modelMetric[m] = true
			}
		}
	}
	if !r.Passed() && !b.pass {
		e.v.Known = append(e.v.Known, r.Key)
		e.v.Counts.Known++
	}
	if r.Error == "" {
		now := map[string]bool{}
		for _, res := range r.Scores {
			now[res.Scorer] = true
		}
		for s := range b.scorer {
			if !now[s] {
				if _, seen := e.vanished[s]; !seen {
					e.vanishedOrder = append(e.vanishedOrder, s)
				}
				e.vanished[s] = append(e.vanished[s], r.Key)
			}
		}
	}
	if model && r.Error == "" {
		e.modelCase(r, b)
		return
	}
	if e.cfg.Flips {
		for _, x := range flips(r, b) {
			e.add(x)
		}
	}
	if e.cfg.Improvements {
		for _, x := range improvements(r, b) {
			e.add(x)
		}
	}
}

// passedAll reports whether every sample of r passed.
func passedAll(r *report.CaseRecord) bool {
	ok := true
	r.EachSample(func(s report.SampleRecord) { ok = ok && s.Pass })
	return ok
}

// vanishedScorers turns scorers that stopped judging cases into one
// violation each (a deleted measure scorer has no flips to show it).
func (e *evaluation) vanishedScorers() {
	slices.Sort(e.vanishedOrder)
	for _, s := range e.vanishedOrder {
		keys := e.vanished[s]
		x := Violation{Kind: KindVanished, Metric: s, Want: fmt.Sprintf("%s results for %d case(s), as in the baseline", s, len(keys)),
			Got: "none", Explanation: fmt.Sprintf("the %s scorer judged %s in the baseline and no longer does: a scorer or its checks were removed or stopped applying", s, sample(keys))}
		if e.cfg.Vanished {
			e.add(x)
		} else {
			e.note("%s (allowed: vanished is false)", x.Explanation)
		}
	}
}

// datasets compares the dataset files the two runs loaded.
func (e *evaluation) datasets(base, cur []report.DatasetInfo) {
	curBy := map[string]report.DatasetInfo{}
	for _, d := range cur {
		curBy[d.Name] = d
	}
	for _, b := range base {
		c, ok := curBy[b.Name]
		var x Violation
		switch {
		case !ok:
			x = Violation{Kind: KindDataset, Metric: b.Path, Want: "sha256 " + short(b.SHA256), Got: "no such dataset",
				Explanation: fmt.Sprintf("dataset %s (%d cases) is in the baseline but was not loaded by this run", b.Name, b.Cases)}
		case c.SHA256 != b.SHA256:
			x = Violation{Kind: KindDataset, Metric: c.Path, Want: "sha256 " + short(b.SHA256), Got: "sha256 " + short(c.SHA256),
				Explanation: fmt.Sprintf("dataset %s changed since the baseline (%d cases then, %d now): review the change, then update the baseline on purpose (make baseline)", b.Name, b.Cases, c.Cases)}
		default:
			continue
		}
		if e.cfg.ChangedDatasets {
			e.add(x)
		} else {
			e.note("%s (allowed: changed_datasets is false)", x.Explanation)
		}
	}
}

// removed reports baseline cases inside the run's selection (its filter
// and shard) that the run does not hold.
func (e *evaluation) removed(m report.Meta, base map[string]*baseCase, order []string, inCurrent map[string]bool) error {
	filter, err := dataset.ParseFilter(m.Filter)
	if err != nil {
		return fmt.Errorf("the report's filter: %w", err)
	}
	shard, err := dataset.ParseShard(m.Shard)
	if err != nil {
		return fmt.Errorf("the report's shard: %w", err)
	}
	outside := 0
	for _, k := range order {
		if inCurrent[k] {
			continue
		}
		b := base[k]
		c := &dataset.Case{ID: b.info.ID, Dataset: b.info.Dataset, Kind: b.info.Kind, Label: b.info.Label, Tags: b.info.Tags}
		if !filter.Match(c) || !shard.Contains(c) {
			outside++
			continue
		}
		e.v.Counts.Removed++
		x := Violation{Kind: KindRemoved, Case: k, Want: "present (it is in the baseline)", Got: "missing",
			Explanation: "the case is in the baseline and inside this run's selection, but the run does not hold it: it was deleted, renamed or not run"}
		if e.cfg.RemovedCases {
			e.add(x)
		}
	}
	if e.v.Counts.Removed > 0 && !e.cfg.RemovedCases {
		e.note("%d baseline case(s) inside this run's selection are missing (allowed: removed_cases is false)", e.v.Counts.Removed)
	}
	if outside > 0 {
		e.note("%d baseline case(s) are outside this run's selection%s and not compared", outside, selection(m))
	}
	return nil
}

func selection(m report.Meta) string {
	var parts []string
	if len(m.Filter) > 0 {
		parts = append(parts, "filter "+strings.Join(m.Filter, ","))
	}
	if m.Shard != "" {
		parts = append(parts, "shard "+m.Shard)
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// thresholds checks every threshold against the current summary. A
// threshold whose metric has no data fails, unless the run was filtered
// and the baseline over the same cases (base; nil without a baseline) has
// no data for it either: the filter left it out, nothing vanished.
func (e *evaluation) thresholds(s, base *report.Summary, filtered bool, mode string) {
	for _, t := range e.cfg.Thresholds {
		where := fmt.Sprintf("%s:%d", e.cfg.File, t.Line)
		if len(t.Modes) > 0 && mode != "" && !slices.Contains(t.Modes, mode) {
			e.note("threshold %s (%s) not evaluated in mode %s: it applies to mode %s", t.Pattern, where, mode, strings.Join(t.Modes, ", "))
			continue
		}
		matched := false
		for _, m := range s.Metrics {
			if !match(t.Pattern, m.Name) {
				continue
			}
			matched = true
			x := exactValue(m)
			if t.Min != nil && (x == nil || x.Cmp(boundOf(t.MinExact, *t.Min)) < 0) {
				e.add(Violation{Kind: KindThreshold, Metric: m.Name,
					Want: "≥ " + report.FormatNumber(m.Unit, *t.Min), Got: describe(m),
					Explanation: fmt.Sprintf("%s is below the minimum set at %s", m.Name, where)})
			}
			if t.Max != nil && (x == nil || x.Cmp(boundOf(t.MaxExact, *t.Max)) > 0) {
				e.add(Violation{Kind: KindThreshold, Metric: m.Name, Case: sample(m.CaseKeys),
					Want: "≤ " + report.FormatNumber(m.Unit, *t.Max), Got: describe(m),
					Explanation: fmt.Sprintf("%s is above the maximum set at %s", m.Name, where) + metricCases(m)})
			}
		}
		if matched {
			e.v.Counts.Thresholds++
			continue
		}
		e.v.Counts.NoData++
		if filtered && !hasMatch(base, t.Pattern) {
			e.note("threshold %s (%s) not evaluated: this run's selection holds no case for it", t.Pattern, where)
			continue
		}
		if t.AllowNoData {
			e.note("threshold %s (%s) not evaluated: no data in this run (allowed: no_data: pass)", t.Pattern, where)
			continue
		}
		e.add(Violation{Kind: KindNoData, Metric: t.Pattern, Want: bounds(t), Got: "no data",
			Explanation: fmt.Sprintf("the threshold at %s cannot be checked: no case of this run produced %s (its scorer, check or cases are gone?); a gate that cannot check must not pass (no_data: pass allows it)", where, t.Pattern)})
	}
}

// metricCases names the cases a metric lists (score.Metric.CaseKeys), for a
// violation: "; cases: flows/a, flows/b".
func metricCases(m score.Metric) string {
	if len(m.CaseKeys) == 0 {
		return ""
	}
	return "; cases: " + sample(m.CaseKeys)
}

func hasMatch(s *report.Summary, pattern string) bool {
	if s == nil {
		return false
	}
	for _, m := range s.Metrics {
		if match(pattern, m.Name) {
			return true
		}
	}
	return false
}

func bounds(t Threshold) string {
	var parts []string
	if t.Min != nil {
		parts = append(parts, fmt.Sprintf("≥ %g", *t.Min))
	}
	if t.Max != nil {
		parts = append(parts, fmt.Sprintf("≤ %g", *t.Max))
	}
	return strings.Join(parts, " and ")
}

// epsilon absorbs the summation noise of differences of reported values
// (regressions; thresholds are compared exactly).
const epsilon = 1e-9

// boundOf is a threshold bound as written, or its float64 when built in
// code without the text.
func boundOf(exact *big.Rat, f float64) *big.Rat {
	if exact != nil {
		return exact
	}
	return new(big.Rat).SetFloat64(f)
}

// exactValue is a metric's value as an exact rational: a rate's Num/Den
// when it has counts, otherwise the decimal the report holds (0.7 is 7/10,
// not the float64 nearest it).
func exactValue(m score.Metric) *big.Rat {
	if m.Unit == score.UnitRate && m.Den > 0 {
		return big.NewRat(int64(m.Num), int64(m.Den))
	}
	r, ok := new(big.Rat).SetString(strconv.FormatFloat(m.Value, 'g', -1, 64))
	if !ok {
		return nil // NaN or ±Inf: no bound holds
	}
	return r
}

// describe formats a metric's value with its counts.
func describe(m score.Metric) string {
	s := report.FormatValue(m)
	if n := report.DescribeN(m); n != "" {
		s += " (" + n + ")"
	}
	return s
}

// regressions compares every directed metric of the current run with the
// baseline's; a baseline metric the run lacks has vanished. A pass rate of
// per-case outcomes of model cases is judged on cases, by the paired test
// (pairedTests); a deterministic one, and every other figure, by its
// tolerance.
func (e *evaluation) regressions(base, cur *report.Summary) {
	curBy := map[string]score.Metric{}
	for _, m := range cur.Metrics {
		curBy[m.Name] = m
	}
	tested := e.pairedTests(base, curBy)
	for _, b := range base.Metrics {
		m, ok := curBy[b.Name]
		tol, ignore, source := e.cfg.rule(b.Name)
		if ignore {
			continue
		}
		if !ok {
			// A pass rate of checks (paired) with no data means no case
			// reached the check any more. A derived figure (a label's
			// precision, an F1) can lack data because of what the model
			// did — no case routed to that label — which flips and the
			// rates already judge.
			if !b.Paired {
				e.note("%s has no data in this run (the baseline had %s); not compared", b.Name, describe(b))
				continue
			}
			x := Violation{Kind: KindVanished, Metric: b.Name, Want: describe(b) + " (as in the baseline)", Got: "no data",
				Explanation: fmt.Sprintf("%s is in the baseline but no case of this run reaches a check of it: a check or scorer was removed, or its cases no longer reach it", b.Name)}
			if e.cfg.Vanished {
				e.add(x)
			} else {
				e.note("%s (allowed: vanished is false)", x.Explanation)
			}
			continue
		}
		if m.Better == "" {
			continue
		}
		e.v.Counts.Metrics++
		if t, isTested := tested[b.Name]; isTested {
			e.pairedRegression(b, m, tol, source, t)
			continue
		}
		if x, bad := regression(b, m, tol, source); bad {
			if !m.Paired && (m.Unit == score.UnitRate || m.Unit == score.UnitScore) && e.modelScorer(m.Name) {
				e.note("%s: untested (a figure derived from several rates of the model's draws moves with the draws; the per-case pass rates it is built from are tested): %s",
					m.Name, x.Explanation)
				continue
			}
			if m.Paired {
				x.Explanation += "; " + movedList(e.pairs[m.Name], m.Better, true)
			}
			e.add(x)
		}
	}
	if e.metricFamily.hypotheses > 0 || e.caseFamily.hypotheses > 0 {
		e.note("%s", e.testsNote())
	}
}

// modelScorer reports whether the scorer of metric (its first segment)
// has a paired metric judged on model cases.
func (e *evaluation) modelScorer(metric string) bool {
	scorer, _, _ := strings.Cut(metric, ".")
	for m := range e.modelMetric {
		if strings.HasPrefix(m, scorer+".") {
			return true
		}
	}
	return false
}

// testsNote says which tests and corrections decided.
func (e *evaluation) testsNote() string {
	var parts []string
	if f := e.caseFamily; f.hypotheses > 0 {
		parts = append(parts, fmt.Sprintf("each sampled case, per scorer, by Fisher's exact test (one-sided), Tarone–Holm at α %s over %d tests (%d could reach significance)",
			stats.Level(f.level), f.hypotheses, f.testable))
	}
	if f := e.metricFamily; f.hypotheses > 0 {
		parts = append(parts, fmt.Sprintf("each pass rate of the model's cases by the paired sign-flip test over cases (one-sided), Tarone–Holm at α %s over %d rates (%d could reach significance)",
			stats.Level(f.level), f.hypotheses, f.testable))
	}
	return fmt.Sprintf("tests (family-wise error %s in all): %s", stats.Level(e.cfg.Alpha), strings.Join(parts, "; "))
}

// pairedTest is the paired per-case test of one rate of the model's cases.
type pairedTest struct {
	n        int     // cases with an outcome on both sides
	effect   float64 // mean over cases of the rate difference run − baseline
	p        float64 // one-sided sign-flip p-value, in the worse direction
	decision stats.TaroneDecision
	family   int // how many rates were tested together
	moved    int // cases whose rate changed
}

// pairedTests runs the one-sided paired sign-flip test, in the direction
// of worse, on every directed pass rate of per-case outcomes that both
// runs report on model cases and the gate does not ignore, and decides
// the family with Tarone–Holm at half the gate's alpha: a rate whose
// changed cases are too few to reach significance (the smallest one-sided
// p of k changed cases is 1/2^k) takes no part.
func (e *evaluation) pairedTests(base *report.Summary, curBy map[string]score.Metric) map[string]pairedTest {
	out := map[string]pairedTest{}
	var names []string
	var ts []stats.DiscreteTest
	for _, b := range base.Metrics {
		m, ok := curBy[b.Name]
		if _, ignore, _ := e.cfg.rule(b.Name); ignore || !ok || !b.Paired || !m.Paired || m.Better == "" || !e.modelMetric[b.Name] {
			continue
		}
		pairs := e.pairs[b.Name]
		rates := make([]stats.RatePair, len(pairs))
		for i, c := range pairs {
			rates[i] = c.rate
		}
		t := pairedTest{n: len(rates)}
		for _, r := range rates {
			if r.PassA*max(r.NB, 1) != r.PassB*max(r.NA, 1) {
				t.moved++
			}
		}
		t.effect = stats.MeanDifference(rates)
		tail := stats.Lower
		if m.Better == score.LowerIsBetter {
			tail = stats.Upper
		}
		t.p, _, _ = stats.SignFlipRatesTail(rates, tail)
		out[b.Name] = t
		names = append(names, b.Name)
		ts = append(ts, stats.DiscreteTest{P: t.p, MinP: math.Ldexp(1, -t.moved)})
	}
	level := e.cfg.Alpha / 2
	decisions := stats.TaroneHolm(ts, level)
	testable := 0
	for i, name := range names {
		t := out[name]
		t.decision, t.family = decisions[i], len(names)
		out[name] = t
		if decisions[i].Testable {
			testable++
		}
	}
	e.metricFamily = familySummary{hypotheses: len(names), testable: testable, level: level}
	return out
}

// pairedRegression judges one rate of the model's cases: a regression when
// the mean per-case change is worse than the tolerance and the paired test
// rejects it within its family. A worse mean the test cannot tell from the
// draws is a note, never a failure.
func (e *evaluation) pairedRegression(b, m score.Metric, tol float64, source string, t pairedTest) {
	worse := -t.effect
	direction := "fell"
	if m.Better == score.LowerIsBetter {
		worse, direction = t.effect, "rose"
	}
	test := fmt.Sprintf("paired sign-flip test over %d cases, one-sided: %s against its level %s (Tarone–Holm: α %s over the %d of %d rates that could reach it)",
		t.n, stats.PValue(t.p), stats.Level(t.decision.Level), stats.Level(e.metricFamily.level), t.decision.K, t.family)
	switch {
	case worse <= tol+epsilon || fmt.Sprintf("%.1f", 100*worse) == "0.0":
		// Not worse, or by less than the 0.1 points the notes show.
		return
	case !t.decision.Testable:
		e.note("%s: mean per-case pass rate %s by %.1f points, but only %d of %d cases changed, too few for the test to find a change: not a regression",
			m.Name, direction, 100*worse, t.moved, t.n)
	case !t.decision.Reject:
		e.note("%s: mean per-case pass rate %s by %.1f points, not significant (%s): not a regression",
			m.Name, direction, 100*worse, test)
	default:
		expl := fmt.Sprintf("%s %s: the mean per-case pass rate changed by %s points (%s → %s); tolerance %s (%s); %s; %s",
			m.Name, direction, stats.Signed(100*t.effect, 1), report.FormatValue(b), report.FormatValue(m), amount(m.Unit, tol), source, test, movedList(e.pairs[m.Name], m.Better, true))
		want := fmt.Sprintf("mean per-case change ≥ %s points, or not significant", stats.Signed(-100*tol, 1))
		if m.Better == score.LowerIsBetter {
			want = fmt.Sprintf("mean per-case change ≤ %s points, or not significant", stats.Signed(100*tol, 1))
		}
		e.add(Violation{Kind: KindRegression, Metric: m.Name, Want: want, Got: fmt.Sprintf("%s points (%s)", stats.Signed(100*t.effect, 1), stats.PValue(t.p)), Explanation: expl})
	}
}

// maxMoved bounds the cases a rate violation names.
const maxMoved = 10

// movedList names the cases whose outcome of a rate moved the wrong way
// (with their samples when sampled), then how many moved the other way.
func movedList(cs []movedCase, better string, sampled bool) string {
	var worse []string
	improved := 0
	for _, c := range cs {
		ra, rb := stats.Ratio(c.rate.PassA, c.rate.NA), stats.Ratio(c.rate.PassB, c.rate.NB)
		bad, good := rb < ra, rb > ra
		if better == score.LowerIsBetter {
			bad, good = good, bad
		}
		switch {
		case bad && sampled:
			worse = append(worse, fmt.Sprintf("%s (%d/%d → %d/%d)", c.key, c.rate.PassA, c.rate.NA, c.rate.PassB, c.rate.NB))
		case bad:
			worse = append(worse, c.key)
		case good:
			improved++
		}
	}
	if len(worse) == 0 {
		return fmt.Sprintf("no case moved the wrong way (%d the right way): the change is in which cases the metric applies to", improved)
	}
	shown := worse[:min(len(worse), maxMoved)]
	more := ""
	if len(worse) > len(shown) {
		more = fmt.Sprintf(" and %d more", len(worse)-len(shown))
	}
	return fmt.Sprintf("%d case(s) moved the wrong way: %s%s (%d the right way)", len(worse), strings.Join(shown, ", "), more, improved)
}

// regression judges one metric against its baseline value.
func regression(b, m score.Metric, tol float64, source string) (Violation, bool) {
	worse := b.Value - m.Value
	if m.Better == score.LowerIsBetter {
		worse = -worse
	}
	if worse <= tol+epsilon || negligible(m.Unit, worse) {
		return Violation{}, false
	}
	direction, want := "fell", "≥ "+report.FormatNumber(m.Unit, b.Value-tol)
	if m.Better == score.LowerIsBetter {
		direction, want = "rose", "≤ "+report.FormatNumber(m.Unit, b.Value+tol)
	}
	expl := fmt.Sprintf("%s %s from %s to %s, by %s; tolerance %s (%s)", m.Name, direction, describe(b), describe(m),
		amount(m.Unit, worse), amount(m.Unit, tol), source)
	return Violation{Kind: KindRegression, Metric: m.Name, Want: want, Got: describe(m), Explanation: expl}, true
}

// negligible reports whether a change d shows as zero where the gate
// prints it ("0.0 points"): a change too small to show is no regression.
func negligible(unit string, d float64) bool {
	return amount(unit, d) == amount(unit, 0)
}

// amount formats a difference: rates in percentage points.
func amount(unit string, d float64) string {
	if unit == score.UnitRate {
		return fmt.Sprintf("%.1f points", 100*math.Abs(d))
	}
	return report.FormatNumber(unit, math.Abs(d))
}

// improvements returns a violation for each non-measure scorer the
// baseline case b failed that r now passes.
func improvements(r *report.CaseRecord, b *baseCase) []Violation {
	if r.Error != "" {
		return nil
	}
	var out []Violation
	for _, res := range r.Scores {
		passed, known := b.scorer[res.Scorer]
		if res.Measure || !res.Pass || !known || passed {
			continue
		}
		out = append(out, Violation{Kind: KindImproved, Metric: res.Scorer, Case: r.Key, Want: "fail (as in the baseline)", Got: "pass",
			Explanation: "failed in the baseline and passes now"})
	}
	return out
}

// flips returns a violation for each non-measure scorer r fails (or
// lacks) that the baseline case b passed.
func flips(r *report.CaseRecord, b *baseCase) []Violation {
	var out []Violation
	results := map[string]*score.Result{}
	for i := range r.Scores {
		results[r.Scores[i].Scorer] = &r.Scores[i]
	}
	for _, name := range b.scorers {
		if !b.scorer[name] {
			continue
		}
		res := results[name]
		switch {
		case res != nil && res.Pass && r.Error == "":
			continue
		case res == nil && r.Error == "":
			out = append(out, Violation{Kind: KindFlip, Metric: name, Case: r.Key, Want: "pass", Got: "not scored",
				Explanation: fmt.Sprintf("the %s scorer passed this case in the baseline but did not apply to it now", name)})
			continue
		}
		var failing []string
		if r.Error != "" {
			failing = append(failing, "the case did not run: "+r.Error)
		}
		if res != nil {
			failing = append(failing, checkTexts(*res)...)
		}
		out = append(out, Violation{Kind: KindFlip, Metric: name, Case: r.Key, Want: "pass", Got: gotOf(r),
			Explanation: "passed in the baseline; now " + strings.Join(failing, "; ")})
	}
	return out
}

func checkTexts(res score.Result) []string {
	var out []string
	for _, c := range res.Checks {
		if !c.Pass {
			s := fmt.Sprintf("%s: expected %s, got %s", c.Name, c.Expected, c.Got)
			if c.Reason != "" {
				s += " (" + c.Reason + ")"
			}
			out = append(out, s)
		}
	}
	return out
}

// failingScorers names the non-measure scorers r fails, or "run" for a
// case that did not run.
func failingScorers(r *report.CaseRecord) string {
	if r.Error != "" {
		return "run"
	}
	var out []string
	for _, res := range r.Scores {
		if !res.Measure && !res.Pass {
			out = append(out, res.Scorer)
		}
	}
	return strings.Join(out, ",")
}

func failingText(r *report.CaseRecord) string {
	if r.Error != "" {
		return "the case did not run: " + r.Error
	}
	var out []string
	for _, res := range r.Scores {
		if !res.Measure {
			out = append(out, checkTexts(res)...)
		}
	}
	return strings.Join(out, "; ")
}

func gotOf(r *report.CaseRecord) string {
	if r.Error != "" {
		return "error"
	}
	return "fail"
}

// short abbreviates a hash for a table cell.
func short(h string) string {
	if h == "" {
		return "(none)"
	}
	return h[:min(len(h), 12)]
}

// sample names up to three keys and how many more.
func sample(keys []string) string {
	if len(keys) <= 3 {
		return strings.Join(keys, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(keys[:3], ", "), len(keys)-3)
}

// headline returns the metrics the reports show first: the gates file's
// list, or the gated metrics (exact threshold names, in file order).
func headline(cfg *Config) []string {
	if len(cfg.Headline) > 0 {
		return cfg.Headline
	}
	var out []string
	for _, t := range cfg.Thresholds {
		if !strings.HasSuffix(t.Pattern, ".*") && !slices.Contains(out, t.Pattern) && len(out) < MaxHeadline {
			out = append(out, t.Pattern)
		}
	}
	return out
}

// Line is the one-line verdict: PASS or FAIL, the violations by kind, and
// what was compared and what could not be.
func Line(v *Verdict) string {
	var b strings.Builder
	b.WriteString("gate: ")
	if v.Pass() {
		b.WriteString("PASS")
	} else {
		counts := map[string]int{}
		for _, x := range v.Violations {
			counts[x.Kind]++
		}
		var parts []string
		for _, k := range kindOrder {
			if counts[k] > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", counts[k], k))
			}
		}
		cases := ""
		if keys := violatedCases(v); len(keys) > 0 {
			cases = "; cases: " + sample(keys)
		}
		fmt.Fprintf(&b, "FAIL (%d violation%s: %s%s)", len(v.Violations), plural(len(v.Violations)), strings.Join(parts, ", "), cases)
	}
	if n := len(v.Accepted); n > 0 {
		var named []string
		for _, a := range v.Accepted {
			named = append(named, a.Case+": "+a.Reason)
		}
		fmt.Fprintf(&b, " with %d accepted regression%s (%s)", n, plural(n), sampleN(named, 2))
	}
	if len(v.Weakened) > 0 {
		w := v.Weakened
		more := ""
		if len(w) > maxWeakened {
			w, more = w[:maxWeakened], fmt.Sprintf(" and %d more", len(v.Weakened)-maxWeakened)
		}
		fmt.Fprintf(&b, "; %s weakened in this change: %s%s", gatesName(v.Gates), strings.Join(w, ", "), more)
	}
	c := v.Counts
	var what []string
	if v.Scope == report.GateScopeCases {
		what = append(what, "per-case rules only (a shard)")
	} else {
		th := fmt.Sprintf("%d threshold%s checked", c.Thresholds, plural(c.Thresholds))
		if c.NoData > 0 {
			th += fmt.Sprintf(", %d without data", c.NoData)
		}
		what = append(what, th)
	}
	if v.Baseline == "" {
		what = append(what, fmt.Sprintf("%d cases; no baseline", c.Cases))
	} else {
		with := "the baseline"
		if v.Reference != nil {
			with = v.Reference.String()
		}
		s := fmt.Sprintf("%d of %d cases compared with %s", c.Compared, c.Cases, with)
		if v.Scope == report.GateScopeFull {
			s += fmt.Sprintf(" (%d metrics)", c.Metrics)
		}
		counts := fmt.Sprintf("%d new, %d removed, %d known failure%s", c.New, c.Removed, c.Known, plural(c.Known))
		if n := len(distinctCases(v.Improved)); n > 0 {
			counts += fmt.Sprintf(", %d improved", n)
		}
		what = append(what, s, counts)
	}
	fmt.Fprintf(&b, " — %s", strings.Join(what, "; "))
	return b.String()
}

// gatesName is the gates file's base name.
func gatesName(path string) string {
	if i := strings.LastIndexAny(path, `/\`); i >= 0 {
		return path[i+1:]
	}
	return path
}

// sampleN names up to n items and how many more.
func sampleN(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, "; ")
	}
	return fmt.Sprintf("%s; and %d more", strings.Join(items[:n], "; "), len(items)-n)
}

// violatedCases are the cases the violations name, in order, once each.
func violatedCases(v *Verdict) []string { return distinctCases(v.Violations) }

func distinctCases(xs []Violation) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range xs {
		if x.Case != "" && !seen[x.Case] {
			seen[x.Case] = true
			out = append(out, x.Case)
		}
	}
	return out
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
