package run

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/eval/grade"
	"github.com/searchbench/searchbench/eval/report"
	"github.com/searchbench/searchbench/eval/score"
	"github.com/searchbench/searchbench/internal/demo"
	"github.com/searchbench/searchbench/orchestrator/prompts"
)

// judgeCase is a shipped case whose Phase 1 answer names the gold and a
// known wrong answer, which the rules leave to the judge.
const judgeCase = "flows/yes-after-phase1"

// replayOne replays one case with variant v and returns its record.
func replayOne(t *testing.T, dir string, v *prompts.Variant, rulesOnly bool, key string) map[string]any {
	t.Helper()
	items := plan(t, shipped(t), key)
	if len(items) != 1 {
		t.Fatalf("%d cases for %s", len(items), key)
	}
	var buf bytes.Buffer
	_, err := Replay(context.Background(), Slice(items), Options{Variant: v, Cassettes: dir, Scorers: score.All(), RulesOnly: rulesOnly,
		Rerecord: func(_ *dataset.Case, _ Check) string { return "searchbench record --stale" }},
		report.Meta{Tool: "searchbench"}, report.NewJSON(&buf))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Cases []map[string]any `json:"cases"`
	}
	if err := json.Unmarshal(buf.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	return rep.Cases[0]
}

func correctnessAttrs(t *testing.T, rec map[string]any) map[string]any {
	t.Helper()
	scores, _ := rec["scores"].([]any)
	for _, s := range scores {
		m := s.(map[string]any)
		if m["scorer"] == "correctness" {
			a, _ := m["attrs"].(map[string]any)
			return a
		}
	}
	t.Fatalf("no correctness result: %v", rec)
	return nil
}

// TestJudgeReplay: the shipped judge cassette decides what the rules defer,
// and says the simulator's stand-in gave the verdict; --rules-only leaves it
// undecided and replays no judge.
func TestJudgeReplay(t *testing.T) {
	seed := shippedVariant(t, "seed")
	rec := replayOne(t, shippedCassettes(t), seed, false, judgeCase)
	a := correctnessAttrs(t, rec)
	if a["turn 1: decided_by"] != grade.ByJudge || a["turn 1: label"] != grade.Correct || a["judge"] != "simulator stand-in" {
		t.Errorf("judged: %v (error %v)", a, rec["error"])
	}
	rec = replayOne(t, shippedCassettes(t), seed, true, judgeCase)
	a = correctnessAttrs(t, rec)
	if a["turn 1: decided_by"] != grade.ByNone || a["turn 1: label"] != "undecided" || rec["error"] != nil {
		t.Errorf("rules only: %v (error %v)", a, rec["error"])
	}
}

// TestJudgeStale: an edited judge-correctness.md makes the judge's cassette
// stale, and the case's error names the file and the judge cassette.
func TestJudgeStale(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "seed")
	// The demo's seed, every file (the assistant's prompts are those its
	// cassettes were recorded with), and an edited judge.
	if err := demo.CopyTree("../../testdata/demo/prompts/seed", dir); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, prompts.JudgeFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, prompts.JudgeFile), append(b, "\nBe strict.\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := prompts.Load(root, "seed")
	if err != nil {
		t.Fatal(err)
	}
	rec := replayOne(t, shippedCassettes(t), v, false, judgeCase)
	msg, _ := rec["error"].(string)
	for _, want := range []string{"stale judge cassette", "yes-after-phase1.judge.yaml", "recorded before judge-correctness.md changed", "searchbench record --stale"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q: %s", want, msg)
		}
	}
	// The assistant's own cassettes are not stale: the rules alone replay.
	if rec := replayOne(t, shippedCassettes(t), v, true, judgeCase); rec["error"] != nil {
		t.Errorf("rules only with an edited judge: %v", rec["error"])
	}
}
