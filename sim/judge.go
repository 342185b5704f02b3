package sim

import (
	"encoding/json"

	judgewire "github.com/searchbench/searchbench/orchestrator/judge"
)

// judgeVerdict is the stand-in's answer to a correctness judge request
// (response format judgewire.SchemaName): judgewire.StandIn's word-overlap policy,
// whose reason says it is no model. A request whose user message is not a
// judge request gets a verdict that says so, as a model would answer
// anyway.
func judgeVerdict(req *chatRequest) reply {
	var user string
	for _, m := range req.Messages {
		if m.Role == "user" {
			user, _ = contentText(m.Content)
		}
	}
	v := judgewire.Verdict{Label: "not_attempted", Reason: judgewire.StandInPrefix + "the request holds no question, gold answers and answer to grade"}
	if r, err := judgewire.ParseUserMessage(user); err == nil {
		v = judgewire.StandIn(r)
	}
	b, _ := json.Marshal(v) // two strings always marshal
	reasoning := "Grade the answer against the gold answers."
	return reply{content: strp(string(b)), reasoning: &reasoning, finish: "stop"}
}
