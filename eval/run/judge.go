package run

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/eval/grade"
	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/eval/vcr"
	"github.com/searchbench/searchbench/orchestrator"
	"github.com/searchbench/searchbench/orchestrator/httpx"
	"github.com/searchbench/searchbench/orchestrator/prompts"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// The correctness judge's traffic: when the rules cannot decide a graded
// answer of a case (score.GradedAnswers), the judge is asked, and its
// requests are recorded in a cassette of their own beside the case's,
// <case>.judge.yaml (sample k ≥ 2: <case>.s<k>.judge.yaml), so a judge
// edit re-records the judge, not the assistant. recorded.json notes the
// hash of judge-correctness.md (and variant.yaml) each judge cassette was
// recorded with (Entry.Judge): when the file changes, the judge cassette
// is stale and the replay says so, naming the file.

// JudgeEntry is how a case's judge cassettes were recorded.
type JudgeEntry struct {
	// Files maps judge-correctness.md and variant.yaml to their hashes at
	// recording time.
	Files map[string]string `json:"files"`
	// Sums are the sums of each sample's judge cassette, sample 1 first;
	// "" for a sample whose answers the rules decided alone (no cassette).
	Sums []string `json:"sums"`
}

// Sum is the sum of sample k's judge cassette ("" when it has none).
func (e *JudgeEntry) Sum(k int) string {
	if e == nil || k < 1 || k > len(e.Sums) {
		return ""
	}
	return e.Sums[k-1]
}

// judgeFiles are the variant files a judge request is made of.
var judgeFiles = []string{prompts.JudgeFile, prompts.SettingsFile}

// JudgePath is the judge cassette of sample k of case c.
func (s Shelf) JudgePath(c *dataset.Case, k int) string {
	id := c.ID
	if k > 1 {
		id = fmt.Sprintf("%s.s%d", c.ID, k)
	}
	return vcr.Path(s.Root, s.Variant, s.Mode, c.Dataset, id+".judge")
}

// deferred returns the graded answers of in the rules cannot decide.
func deferred(in *score.Input) []score.Graded {
	var out []score.Graded
	for _, g := range score.GradedAnswers(in) {
		if !in.RulesVerdict(g).Decided() {
			out = append(out, g)
		}
	}
	return out
}

// MissingJudgeError is a case whose answers need the judge but whose
// judge was never recorded.
type MissingJudgeError struct {
	Case, Path string
	Answers    []string // the graded answers that need the judge
	Hint       string
}

func (e *MissingJudgeError) Error() string {
	s := fmt.Sprintf("no judge cassette %s (case %s): the rules cannot decide %s, so the correctness judge must be recorded",
		filepath.ToSlash(e.Path), e.Case, strings.Join(e.Answers, " and "))
	if e.Hint != "" {
		s += "; record it with: " + e.Hint
	}
	return s
}

// replayJudge asks the recorded judge about the graded answers of in that
// the rules defer, and puts its verdicts in in.Judged. With RulesOnly it
// asks nothing. A judge cassette that is missing or stale, a request it
// does not hold, and a verdict that does not parse are errors of the case.
func (o *Options) replayJudge(ctx context.Context, in *score.Input, k int, chk Check) error {
	if o.RulesOnly {
		return nil
	}
	todo := deferred(in)
	if len(todo) == 0 {
		return nil
	}
	c := in.Case
	path := o.shelf.JudgePath(c, k)
	hint := ""
	if o.Rerecord != nil {
		hint = o.Rerecord(c, chk)
	}
	je := chk.Entry.Judge
	if je == nil || je.Sum(k) == "" {
		keys := make([]string, len(todo))
		for i, g := range todo {
			keys[i] = g.Key + " (" + g.Phase + ")"
		}
		return &MissingJudgeError{Case: c.Key(), Path: path, Answers: keys, Hint: hint}
	}
	if changed := o.Variant.Changed(je.Files); len(changed) > 0 {
		return &StaleJudgeError{Case: c.Key(), Path: path, Changed: changed, Then: je.Files, Now: currentJudgeFiles(o.Variant), Hint: hint}
	}
	ropts := vcr.ReplayOptions{Case: c.Key(), Clock: vcr.NewClock(), Cache: o.Cache, Secrets: o.secrets, Sum: je.Sum(k), Rerecord: hint,
		Services: replayServices(o.bases, chk.Entry.BaseURLs)}
	rp, err := vcr.OpenReplayWith(path, ropts)
	if err != nil {
		return err
	}
	defer rp.Close()
	j, err := o.judgeClient(rp)
	if err != nil {
		return err
	}
	in.Judged = map[string]grade.Verdict{}
	in.JudgeStandIn = chk.Entry.Backend == BackendSim
	for _, g := range todo {
		v, err := j.Decide(ctx, g.Question, score.GoldOf(c), g.Answer)
		if err != nil {
			return &grade.JudgeError{What: fmt.Sprintf("%s (%s) of case %s, cassette %s", g.Key, g.Phase, c.Key(), filepath.ToSlash(path)), Err: err}
		}
		in.Judged[g.Key] = v
	}
	return nil
}

// StaleJudgeError is a judge cassette recorded with a judge-correctness.md
// (or variant.yaml) that has changed since.
type StaleJudgeError struct {
	Case, Path string
	Changed    []string
	Then, Now  map[string]string // file hashes
	Hint       string
}

func (e *StaleJudgeError) Error() string {
	var hs []string
	for _, f := range e.Changed {
		hs = append(hs, fmt.Sprintf("%s %s then, %s now", f, e.Then[f], e.Now[f]))
	}
	s := fmt.Sprintf("stale judge cassette %s (case %s): recorded before %s changed (%s), so the verdicts it holds are not the ones the judge now gives",
		filepath.ToSlash(e.Path), e.Case, joinAnd(e.Changed), strings.Join(hs, "; "))
	if e.Hint != "" {
		s += "; re-record it with: " + e.Hint
	}
	return s
}

// WithJudge adds a case's judge cassettes to its check: a case whose
// assistant cassettes are current but whose judge cassettes were recorded
// with another judge-correctness.md (or variant.yaml) is stale, with those
// files named, unless the run grades by the rules alone.
func WithJudge(chk Check, v *prompts.Variant, rulesOnly bool) Check {
	if rulesOnly || chk.Status != StatusCurrent || chk.Entry.Judge == nil {
		return chk
	}
	if changed := v.Changed(chk.Entry.Judge.Files); len(changed) > 0 {
		chk.Status, chk.Changed = StatusStale, changed
	}
	return chk
}

// currentJudgeFiles are the hashes the variant's judge files have now.
func currentJudgeFiles(v *prompts.Variant) map[string]string {
	out := map[string]string{}
	for _, f := range judgeFiles {
		out[f] = v.Hashes[f]
	}
	return out
}

// judgeClient builds the judge on a replay transport, with the clients'
// configuration a replay uses (placeholder key, no retry sleeps).
func (o *Options) judgeClient(rt http.RoundTripper) (*grade.Judge, error) {
	getenv := o.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	keyed := func(k string) string {
		switch k {
		case "CEREBRAS_API_KEY", "TAVILY_API_KEY", "EXA_API_KEY":
			return replayKey
		case "OPENAI_API_KEY":
			return ""
		}
		return getenv(k)
	}
	p := httpx.DefaultPolicy()
	p.Sleep = httpx.NoSleep
	p.Jitter = func() float64 { return 0 }
	clients, err := orchestrator.ClientsFromEnv(keyed, rt, p)
	if err != nil {
		return nil, err
	}
	return &grade.Judge{Client: clients.LLM, Prompt: o.Variant.Prompts.Judge, Model: o.Variant.Settings.Model}, nil
}

// recordJudge records the judge's verdicts on the answers of sess that the
// rules defer (none: no cassette, nil), through the same backend as the
// case's traffic: clients built from getenv on a recorder at the judge
// cassette's path.
func (o *RecordOptions) recordJudge(ctx context.Context, shelf Shelf, c *dataset.Case, k int, sess *trace.Session,
	ropts vcr.RecordOptions, getenv func(string) string, policy httpx.Policy) (*vcr.Recording, error) {
	in := &score.Input{Case: c, Session: sess}
	todo := deferred(in)
	if len(todo) == 0 {
		return nil, nil
	}
	rec, err := vcr.StartRecording(shelf.JudgePath(c, k), ropts)
	if err != nil {
		return nil, err
	}
	clients, err := orchestrator.ClientsFromEnv(getenv, rec, policy)
	if err != nil {
		rec.Discard()
		return nil, err
	}
	j := &grade.Judge{Client: clients.LLM, Prompt: o.Variant.Prompts.Judge, Model: o.Variant.Settings.Model}
	for _, g := range todo {
		if _, err := j.Decide(ctx, g.Question, score.GoldOf(c), g.Answer); err != nil {
			rec.Discard()
			return nil, &grade.JudgeError{What: fmt.Sprintf("%s (%s) of case %s", g.Key, g.Phase, c.Key()), Err: err}
		}
	}
	return rec, nil
}

// judgeEntry is the manifest's note of a case's judge cassettes, one sum
// per sample ("" for none); nil when no sample needed the judge.
func judgeEntry(v *prompts.Variant, sums []string) *JudgeEntry {
	any := false
	for _, s := range sums {
		any = any || s != ""
	}
	if !any {
		return nil
	}
	return &JudgeEntry{Files: maps.Clone(currentJudgeFiles(v)), Sums: sums}
}

// saveJudges saves the judge recordings of a case's samples (nil where a
// sample needed no judge, whose old judge cassette, if any, is removed)
// and returns their sums for recorded.json, "" for none.
func saveJudges(shelf Shelf, c *dataset.Case, judges []*vcr.Recording) ([]string, error) {
	sums := make([]string, len(judges))
	for i, r := range judges {
		k := i + 1
		if r == nil {
			if err := os.Remove(shelf.JudgePath(c, k)); err != nil && !errors.Is(err, os.ErrNotExist) {
				return nil, fmt.Errorf("removing the judge cassette of an earlier recording: %w", err)
			}
			continue
		}
		judges[i] = nil // saved or failed: never discarded after this
		if err := r.Save(); err != nil {
			return nil, err
		}
		sum, err := FileSum(shelf.JudgePath(c, k))
		if err != nil {
			return nil, fmt.Errorf("reading back its judge cassette: %w", err)
		}
		sums[i] = sum
	}
	return sums, nil
}
