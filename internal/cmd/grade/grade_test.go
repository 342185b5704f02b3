package grade_test

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	evgrade "github.com/searchbench/searchbench/eval/grade"
	"github.com/searchbench/searchbench/internal/cmd/root"
	"github.com/searchbench/searchbench/internal/cmdutil"
)

var update = flag.Bool("update", false, "rewrite the expected output in testdata/script")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"searchbench": func() {
			os.Exit(root.Main(context.Background(), os.Args[1:], cmdutil.System()))
		},
	})
}

// TestScripts runs the command end to end from testdata/script/*.txtar.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		UpdateScripts:       *update,
		RequireExplicitExec: true,
	})
}

type line struct {
	ID, Label, DecidedBy, Rule, Reason string
}

func run(t *testing.T, in string, args ...string) (int, []line, string) {
	t.Helper()
	io, out, errOut := cmdutil.Test(in)
	code := root.Main(context.Background(), append([]string{"grade"}, args...), io)
	var lines []line
	dec := json.NewDecoder(strings.NewReader(out.String()))
	for dec.More() {
		var l struct {
			ID        string `json:"id"`
			Label     string `json:"label"`
			DecidedBy string `json:"decided_by"`
			Rule      string `json:"rule"`
			Reason    string `json:"reason"`
		}
		if err := dec.Decode(&l); err != nil {
			t.Fatalf("output %q: %v", out, err)
		}
		lines = append(lines, line{l.ID, l.Label, l.DecidedBy, l.Rule, l.Reason})
	}
	return code, lines, errOut.String()
}

func TestGradeOne(t *testing.T) {
	code, lines, _ := run(t, "", "--question", "How many qubits does IBM's Condor have?", "--gold", "1,121", "--answer", "IBM Condor has 1121 qubits.")
	if code != 0 || len(lines) != 1 || lines[0].Label != "correct" || lines[0].DecidedBy != "rule" || lines[0].Rule != "value" {
		t.Errorf("exit %d, %+v", code, lines)
	}
	// Deferred, no model configured: undecided, and the reason says how to judge.
	code, lines, _ = run(t, "", "--question", "Who?", "--gold", "Art Carney", "--answer", "Jack Nicholson")
	if code != 0 || len(lines) != 1 || lines[0].Label != "" || lines[0].DecidedBy != "none" || !strings.Contains(lines[0].Reason, "--judge sim") {
		t.Errorf("exit %d, %+v", code, lines)
	}
	// The simulator's stand-in decides, and says it is one.
	code, lines, _ = run(t, "", "--judge", "sim", "--question", "Who?", "--gold", "Art Carney", "--answer", "Jack Nicholson")
	if code != 0 || len(lines) != 1 || lines[0].DecidedBy != "judge" || !strings.Contains(lines[0].Reason, "stand-in") {
		t.Errorf("exit %d, %+v", code, lines)
	}
}

func TestGradeFile(t *testing.T) {
	in := `{"id": "a", "question": "When?", "gold": {"answers": ["2 August 2024"], "as_of": "2024-09-01"}, "answer": "am 2. August 2024"}
{"question": "Who?", "gold": ["Art Carney"], "answer": "I don't know."}
`
	code, lines, stderr := run(t, in, "--rules-only", "--file", "-")
	if code != 0 || len(lines) != 2 {
		t.Fatalf("exit %d, %+v, %s", code, lines, stderr)
	}
	if lines[0].ID != "a" || lines[0].Label != "correct" || lines[1].ID != "line 2" || lines[1].Label != "not_attempted" {
		t.Errorf("%+v", lines)
	}
	code, _, stderr = run(t, "{\"gold\": [], \"answer\": \"x\"}\nnope\n", "--file", "-")
	if code != 2 || !strings.Contains(stderr, "standard input:1: no gold answer") || !strings.Contains(stderr, "standard input:2: not a grade item") {
		t.Errorf("exit %d, stderr %s", code, stderr)
	}
}

func TestGradeUsage(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"--gold", "x"},
		{"--calibrate", "--file", "x"},
		{"--judge", "oracle", "--calibrate"},
		{"--rules-only", "--judge", "sim", "--calibrate"},
		{"--out", "x.json", "--file", "y"},
		{"--gold", "x", "--answer", "y", "--as-of", "soon"},
	} {
		if code, _, stderr := run(t, "", args...); code != 2 || stderr == "" {
			t.Errorf("grade %v: exit %d, stderr %q; want 2 and a message", args, code, stderr)
		}
	}
}

// TestCalibrate measures a small calibration set with the stand-in judge
// and writes the figures the gate reads.
func TestCalibrate(t *testing.T) {
	dir := t.TempDir()
	items := []string{
		`{"id":"1","question":"Who?","gold":["Art Carney"],"answer":"Art Carney","human":"correct"}`,
		`{"id":"2","question":"Who?","gold":["Art Carney"],"answer":"Unknown.","human":"incorrect"}`,
		`{"id":"3","question":"Who?","gold":["Art Carney"],"answer":"Jack Nicholson","human":"incorrect"}`,
		`{"id":"4","question":"When?","gold":["1984"],"answer":"1990","human":"incorrect"}`,
	}
	for _, f := range []string{"nq301-tuning.jsonl", "nq301-heldout.jsonl"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(strings.Join(items, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "calibration.json")
	io, stdout, stderr := cmdutil.Test("")
	code := root.Main(context.Background(), []string{"grade", "--calibrate", "--judge", "sim", "--calibration-dir", dir, "--out", out}, io)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"Calibration: heldout part (4 answers)", "rules + judge (sim)", "75.0% (3/4)", "stand-in"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	rep, err := evgrade.ReadCalibration(out)
	if err != nil {
		t.Fatal(err)
	}
	a, ok := rep.Find("heldout", evgrade.GraderRulesJudge)
	if !ok || rep.Judge != "sim" || rep.JudgeHash == "" || a.Decided != 4 || a.Agree != 4 {
		t.Errorf("report %+v; rules + judge %+v", rep, a)
	}
	if r, _ := rep.Find("tuning", evgrade.GraderRules); r.Decided != 3 || r.Agree != 3 {
		t.Errorf("rules on tuning: %+v", r)
	}
	// The naive grader on the rules' items: item 3 is deferred.
	if n, ok := rep.Find("heldout", evgrade.GraderNaiveSame); !ok || n.Items != 4 || n.Decided != 3 || n.Agree != 3 {
		t.Errorf("naive on the rules' items: %+v", n)
	}
}
