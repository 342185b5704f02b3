package grade

import (
	"context"
	"fmt"
	"strings"

	"github.com/searchbench/searchbench/orchestrator/judge"
	"github.com/searchbench/searchbench/orchestrator/llm"
)

// Judge asks a chat model about the answers the rules cannot decide: one
// request per answer through the same chat client as the assistant, with
// the variant's judge-correctness.md as its system prompt, at temperature 0
// and a fixed seed, answered in a strict JSON schema (orchestrator/judge).
type Judge struct {
	Client *llm.Client
	// Prompt is the variant's judge-correctness.md; Model its model
	// setting ("" for the client's).
	Prompt string
	Model  string
}

// JudgeError is a judge request that failed or whose answer does not
// parse: an error of the case, never a silent label.
type JudgeError struct {
	What string // what was graded: "turn 2 (phase 2)"
	Err  error
}

func (e *JudgeError) Error() string {
	if e.What == "" {
		return "correctness judge: " + e.Err.Error()
	}
	return fmt.Sprintf("correctness judge on %s: %v", e.What, e.Err)
}

func (e *JudgeError) Unwrap() error { return e.Err }

// Request is the judge's request for one answer.
func (j *Judge) Request(question string, g Gold, ans Answer) *llm.ChatRequest {
	return judge.ChatRequest(j.Prompt, j.Model, judge.Request{
		Question: question, Gold: g.Answers, Reject: g.Reject, AsOf: g.AsOf, Answer: strings.TrimSpace(ans.Text),
	})
}

// Decide asks the judge about one answer. The verdict is decided by the
// judge; an error is a failed request or an answer that is not the
// schema's JSON.
func (j *Judge) Decide(ctx context.Context, question string, g Gold, ans Answer) (Verdict, error) {
	resp, err := j.Client.Chat(ctx, j.Request(question, g, ans))
	if err != nil {
		return Verdict{}, err
	}
	if len(resp.Choices) == 0 {
		return Verdict{}, fmt.Errorf("the judge's response has no choices")
	}
	v, err := judge.Parse(resp.Choices[0].Message.Content)
	if err != nil {
		return Verdict{}, err
	}
	return Verdict{Label: v.Label, DecidedBy: ByJudge, Rule: "judge", Reason: v.Reason}, nil
}

// Grade is Rules, then the judge for what they defer when j is not nil.
func Grade(ctx context.Context, j *Judge, question string, g Gold, ans Answer) (Verdict, error) {
	v := Rules(question, g, ans)
	if v.Decided() || j == nil {
		return v, nil
	}
	jv, err := j.Decide(ctx, question, g, ans)
	if err != nil {
		return v, err
	}
	jv.Reason = fmt.Sprintf("%s (the rules deferred: %s)", jv.Reason, v.Reason)
	return jv, nil
}
