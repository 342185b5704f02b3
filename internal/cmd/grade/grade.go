// Package grade implements `searchbench grade`: whether an answer is right,
// by the same grader the correctness scorers use (eval/grade). One answer
// (--question, --gold, --answer) or a JSONL file of them is graded, one
// JSON verdict a line; --calibrate measures the grader against the human
// labels of the calibration set.
package grade

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	evgrade "github.com/searchbench/searchbench/eval/grade"
	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/internal/cmdutil"
	"github.com/searchbench/searchbench/orchestrator/httpx"
	"github.com/searchbench/searchbench/orchestrator/llm"
	"github.com/searchbench/searchbench/orchestrator/prompts"
	"github.com/searchbench/searchbench/sim"
)

// Judges --judge accepts.
const (
	JudgeModel = "model" // the configured chat model
	JudgeSim   = "sim"   // the simulator's stand-in, in process
)

// Options are the inputs of grade.
type Options struct {
	IO *cmdutil.IOStreams

	// One answer.
	Question string
	Gold     []string
	Reject   []string
	AsOf     string
	Answer   string
	// File is a JSONL file of items ("-": standard input).
	File string

	// Calibrate measures the grader on the calibration set (Dir), split
	// by split (Split: tuning, heldout or all); Out writes the report the
	// gate reads; Disagreements lists the items the rules label against
	// the human label.
	Calibrate     bool
	Dir           string
	Split         string
	Out           string
	Disagreements bool

	// RulesOnly shows the rules' verdict alone; Judge says which judge
	// decides what they defer.
	RulesOnly bool
	Judge     string
	// Variant names the prompt variant whose judge-correctness.md the
	// judge is sent; Prompts is the folder of variants.
	Variant string
	Prompts string

	// Transport replaces the HTTP transport in tests.
	Transport http.RoundTripper
}

// NewCmdGrade returns the grade command. runF replaces gradeRun in tests.
func NewCmdGrade(io *cmdutil.IOStreams, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: io}
	cmd := &cobra.Command{
		Use:   "grade (--question Q --gold A [--gold B] --answer TEXT | --file FILE.jsonl | --calibrate)",
		Short: "Grade an answer against gold answers: correct, incorrect or not_attempted",
		Long: `grade says whether an answer is right, with the grader the correctness scorers
use: SimpleQA's three labels (correct, incorrect, not_attempted), who decided
(decided_by: rule, judge, or none when the rules deferred and no judge was asked)
and why. Deterministic rules decide first: case, punctuation, articles and
diacritics do not count; numbers are read with their scale, currency and unit
("1.2 million", "€3bn", a decimal comma, number words), dates in the usual
formats and languages; refusals and hedges are not attempted. What the rules
cannot decide goes to the judge: the variant's judge-correctness.md sent to a
chat model as a request with a strict JSON schema, at temperature 0 and a fixed
seed. --judge model (the default) asks the chat model configured by
CEREBRAS_API_KEY or OPENAI_API_KEY and SEARCHBENCH_LLM_BASE_URL, as classify
does; --judge sim asks the simulator's stand-in, which reads words, not
meaning, and says so; --rules-only asks nobody.

One answer: --question, --gold (repeat it for each accepted answer), --reject
(known wrong answers), --as-of (the date the gold was true) and --answer.
A file: --file FILE (- for standard input), one JSON object a line:
{"id", "question", "gold": ["…"] or {"answers", "reject", "as_of"}, "answer"}.
Either way grade prints one JSON object a line: id, label, decided_by, rule
and reason.

--calibrate measures the grader on the calibration set (datasets/calibration:
people's judgments of QA answers, Kamalloo et al., ACL 2023): for the rules
alone, the rules with the judge, and the naive grader "a gold answer is in the
answer" (on all answers, and on the answers the rules decide), the share of
answers decided, the agreement with the human label on those, and Cohen's κ
with its 95% interval, for the tuning and the held-out part. --out FILE writes the figures as JSON; the gate reads that file when
gates.yaml sets a minimum κ for a judge-based metric.

Exit status: 0; 2 for bad flags or an input file with problems (each with its
line); 3 when the judge failed or its answer did not parse.`,
		Example: `  searchbench grade --question "Who is the CEO of Microsoft?" --gold "Satya Nadella" --answer "Nadella has led Microsoft since 2014."
  searchbench grade --rules-only --file answers.jsonl
  searchbench grade --calibrate --judge sim`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if err := check(opts, c); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return gradeRun(c.Context(), opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Question, "question", "", "the question that was asked")
	f.StringArrayVar(&opts.Gold, "gold", nil, "an accepted answer (repeat for aliases)")
	f.StringArrayVar(&opts.Reject, "reject", nil, "a known wrong answer (repeat for more)")
	f.StringVar(&opts.AsOf, "as-of", "", "the date (YYYY-MM-DD) the gold answers were true")
	f.StringVar(&opts.Answer, "answer", "", "the answer to grade")
	f.StringVar(&opts.File, "file", "", "grade every item of a JSONL `FILE` (- for standard input)")
	f.BoolVar(&opts.Calibrate, "calibrate", false, "measure the grader against the calibration set's human labels")
	f.StringVar(&opts.Dir, "calibration-dir", evgrade.DefaultCalibrationDir, "the calibration set's `folder`")
	f.StringVar(&opts.Split, "split", "all", "the calibration split to measure: tuning, heldout or all")
	f.StringVar(&opts.Out, "out", "", "write the calibration figures to `FILE` (JSON)")
	f.BoolVar(&opts.Disagreements, "disagreements", false, "with --calibrate: list the items the rules label against the human label")
	f.BoolVar(&opts.RulesOnly, "rules-only", false, "show the rules' verdict alone: never ask a judge")
	f.StringVar(&opts.Judge, "judge", JudgeModel, "who decides what the rules defer: model (the configured chat model) or sim (the simulator's stand-in)")
	f.StringVar(&opts.Variant, "variant", prompts.Default, "the prompt `variant` whose judge-correctness.md the judge is sent")
	f.StringVar(&opts.Prompts, "prompts", prompts.DefaultRoot, "the `folder` of prompt variants")
	return cmd
}

// check reports every problem with the flags at once.
func check(opts *Options, c *cobra.Command) error {
	var problems []string
	one := opts.Question != "" || len(opts.Gold) > 0 || c.Flags().Changed("answer") || len(opts.Reject) > 0 || opts.AsOf != ""
	modes := 0
	for _, on := range []bool{one, opts.File != "", opts.Calibrate} {
		if on {
			modes++
		}
	}
	switch {
	case modes == 0:
		problems = append(problems, "give one answer (--question, --gold, --answer), --file or --calibrate")
	case modes > 1:
		problems = append(problems, "one answer (--question, --gold, --answer), --file and --calibrate exclude each other")
	}
	if one {
		if len(opts.Gold) == 0 {
			problems = append(problems, "--gold is required: the accepted answer (repeat it for aliases)")
		}
		if !c.Flags().Changed("answer") {
			problems = append(problems, "--answer is required: the answer to grade")
		}
		g := evgrade.Gold{Answers: opts.Gold, Reject: opts.Reject, AsOf: opts.AsOf}
		for _, p := range g.Problems() {
			if len(opts.Gold) > 0 {
				problems = append(problems, p)
			}
		}
	}
	if opts.Judge != JudgeModel && opts.Judge != JudgeSim {
		problems = append(problems, fmt.Sprintf("--judge %q: want %s or %s", opts.Judge, JudgeModel, JudgeSim))
	}
	if c.Flags().Changed("judge") && opts.RulesOnly {
		problems = append(problems, "--judge and --rules-only exclude each other")
	}
	if opts.Split != "all" && opts.Split != "tuning" && opts.Split != "heldout" {
		problems = append(problems, fmt.Sprintf("--split %q: want tuning, heldout or all", opts.Split))
	}
	if !opts.Calibrate {
		for _, fl := range []string{"out", "split", "disagreements", "calibration-dir"} {
			if c.Flags().Changed(fl) {
				problems = append(problems, "--"+fl+" needs --calibrate")
			}
		}
	}
	if len(problems) > 0 {
		return cmdutil.Usage(fmt.Errorf("grade: %s", strings.Join(problems, "; ")))
	}
	return nil
}

func gradeRun(ctx context.Context, opts *Options) error {
	j, judgeName, note, stop, err := newJudge(opts)
	if err != nil {
		return err
	}
	defer stop()
	switch {
	case opts.Calibrate:
		return calibrate(ctx, opts, j, judgeName, note)
	case opts.File != "":
		return gradeFile(ctx, opts, j, note)
	}
	it := evgrade.Item{Question: opts.Question, Gold: evgrade.Gold{Answers: opts.Gold, Reject: opts.Reject, AsOf: opts.AsOf}, Answer: opts.Answer}
	return gradeItems(ctx, opts, j, note, []evgrade.Item{it})
}

// newJudge builds the judge the options ask for: nil with --rules-only, or
// when no chat model is configured (note then says so, for the verdicts
// it leaves undecided). stop releases an in-process simulator.
func newJudge(opts *Options) (j *evgrade.Judge, name, note string, stop func(), err error) {
	stop = func() {}
	if opts.RulesOnly {
		return nil, "", "--rules-only: no judge asked", stop, nil
	}
	v, err := prompts.Load(opts.Prompts, opts.Variant)
	if err != nil {
		return nil, "", "", stop, cmdutil.Usage(err)
	}
	policy := httpx.DefaultPolicy()
	var cfg llm.Config
	switch opts.Judge {
	case JudgeSim:
		srv, u, err := sim.Start(sim.Options{Prompts: v.Prompts})
		if err != nil {
			return nil, "", "", stop, cmdutil.Infra(fmt.Errorf("starting the simulator: %w", err))
		}
		stop = srv.Close
		policy.Sleep = httpx.NoSleep
		cfg = llm.Config{BaseURL: u.String() + "/v1", APIKey: "sim-judge-key", Transport: opts.Transport, Retry: policy}
		name = "sim"
	default:
		cfg, err = llm.ConfigFromEnv(opts.IO.Getenv)
		if err != nil {
			return nil, "", fmt.Sprintf("the rules deferred and no chat model is configured to judge (%v); --judge sim asks the simulator's stand-in", err), stop, nil
		}
		if cfg.Retry, err = httpx.PolicyFromEnv(opts.IO.Getenv, policy); err != nil {
			return nil, "", "", stop, cmdutil.Usage(err)
		}
		cfg.Transport = opts.Transport
		name = "model " + cfg.Model
		if v.Settings.Model != "" {
			name = "model " + v.Settings.Model
		}
	}
	if cfg.Transport == nil {
		cfg.Transport = http.DefaultTransport
	}
	c, err := llm.New(cfg)
	if err != nil {
		stop()
		return nil, "", "", func() {}, cmdutil.Usage(err)
	}
	return &evgrade.Judge{Client: c, Prompt: v.Prompts.Judge, Model: v.Settings.Model}, name, "", stop, nil
}

// line is one verdict as grade prints it.
type line struct {
	ID        string `json:"id,omitempty"`
	Label     string `json:"label"`
	DecidedBy string `json:"decided_by"`
	Rule      string `json:"rule,omitempty"`
	Reason    string `json:"reason"`
}

func gradeFile(ctx context.Context, opts *Options, j *evgrade.Judge, note string) error {
	r, name := io.Reader(opts.IO.In), "standard input"
	if opts.File != "-" {
		f, err := os.Open(opts.File)
		if err != nil {
			return cmdutil.Usage(fmt.Errorf("grade: %w", err))
		}
		defer f.Close()
		r, name = f, opts.File
	}
	items, err := evgrade.ReadItems(r, name)
	if err != nil {
		return cmdutil.Usage(err)
	}
	return gradeItems(ctx, opts, j, note, items)
}

func gradeItems(ctx context.Context, opts *Options, j *evgrade.Judge, note string, items []evgrade.Item) error {
	enc := json.NewEncoder(opts.IO.Out)
	enc.SetEscapeHTML(false)
	for _, it := range items {
		v, err := evgrade.Grade(ctx, j, it.Question, it.Gold, evgrade.Answer{Text: it.Answer})
		if err != nil {
			what := it.ID
			if what == "" && it.Line > 0 {
				what = fmt.Sprintf("line %d", it.Line)
			}
			return cmdutil.Infra(&evgrade.JudgeError{What: what, Err: err})
		}
		if !v.Decided() && note != "" {
			v.Reason += "; " + note
		}
		id := it.ID
		if id == "" && len(items) > 1 {
			id = fmt.Sprintf("line %d", it.Line)
		}
		if err := enc.Encode(line{ID: id, Label: v.Label, DecidedBy: v.DecidedBy, Rule: v.Rule, Reason: v.Reason}); err != nil {
			return cmdutil.Infra(fmt.Errorf("writing verdicts: %w", err))
		}
	}
	return nil
}

func calibrate(ctx context.Context, opts *Options, j *evgrade.Judge, judgeName, note string) error {
	v, err := prompts.Load(opts.Prompts, opts.Variant)
	if err != nil {
		return cmdutil.Usage(err)
	}
	rep := &evgrade.CalibrationReport{
		Source:  "datasets/calibration: Kamalloo et al. (ACL 2023), human judgments of answers to NQ-open questions",
		Variant: v.Name, JudgeHash: v.Hashes[prompts.JudgeFile], Judge: judgeName,
	}
	out := opts.IO.Out
	width := opts.IO.Width(false)
	for _, sp := range evgrade.Splits {
		if opts.Split != "all" && opts.Split != sp.Name {
			continue
		}
		path := filepath.Join(opts.Dir, sp.File)
		f, err := os.Open(path)
		if err != nil {
			return cmdutil.Usage(fmt.Errorf("grade --calibrate: %w", err))
		}
		items, err := evgrade.ReadItems(f, path)
		f.Close()
		if err != nil {
			return cmdutil.Usage(err)
		}
		m, err := evgrade.CalibrateSplit(ctx, sp.Name, items, j)
		if err != nil {
			return cmdutil.Infra(err)
		}
		if len(rep.Splits) > 0 {
			fmt.Fprintln(out)
		}
		rep.Splits = append(rep.Splits, m)
		if err := printSplit(out, width, m, judgeName, note); err != nil {
			return cmdutil.Infra(err)
		}
		if opts.Disagreements {
			printDisagreements(out, width, items)
		}
	}
	if opts.Out != "" {
		if err := rep.Write(opts.Out); err != nil {
			return cmdutil.Infra(fmt.Errorf("grade --calibrate: writing %s: %w", opts.Out, err))
		}
		fmt.Fprintf(out, "wrote %s\n", opts.Out)
	}
	return nil
}

func printSplit(w io.Writer, width int, m evgrade.SplitMeasured, judgeName, note string) error {
	header := []string{"grader", "decided", "agree (of decided)", "κ [95% CI]", "deferred"}
	var rows [][]string
	for _, a := range m.Graders {
		name := a.Grader
		if name == evgrade.GraderRulesJudge && judgeName != "" {
			name += " (" + judgeName + ")"
		}
		kappa := fmt.Sprintf("%.3f [%.3f, %.3f]", a.Kappa, a.KappaLo, a.KappaHi)
		if a.NoKappa {
			kappa = "–"
		}
		deferred := fmt.Sprintf("%.1f%%", 100*(1-a.DecidedRate()))
		if a.Grader == evgrade.GraderNaiveSame {
			deferred = "–" // the items left out are the rules' deferrals
		}
		rows = append(rows, []string{name,
			fmt.Sprintf("%.1f%% (%d/%d)", 100*a.DecidedRate(), a.Decided, a.Items),
			fmt.Sprintf("%.1f%% (%d/%d)", 100*a.AgreeRate(), a.Agree, a.Decided),
			kappa,
			deferred,
		})
	}
	var notes []string
	if judgeName == "sim" {
		notes = append(notes, "The judge is the simulator's stand-in: it reads words, not meaning, and is no model.")
	}
	if note != "" {
		notes = append(notes, "No rules + judge row: "+note+".")
	}
	notes = append(notes, "Agreement counts correct against not correct: people judged answers acceptable or not.",
		"\""+evgrade.GraderNaiveSame+"\" is the naive grader's agreement on the answers the rules decide: the two on the same items.")
	title := fmt.Sprintf("Calibration: %s part (%d answers)", m.Split, m.Items)
	return report.RenderTableWidth(w, false, width, title, header, rows, notes)
}

func printDisagreements(w io.Writer, width int, items []evgrade.Item) {
	n := 0
	for _, it := range items {
		v := evgrade.Rules(it.Question, it.Gold, evgrade.Answer{Text: it.Answer})
		if !v.Decided() || (v.Label == evgrade.Correct) == (it.Human == evgrade.Correct) {
			continue
		}
		n++
		for _, l := range report.WrapText(fmt.Sprintf("%s: human %s, rules %s (%s): %s", it.ID, it.Human, v.Label, v.Rule, v.Reason), width, "    ") {
			fmt.Fprintln(w, l)
		}
	}
	fmt.Fprintf(w, "%d disagreements\n", n)
}
