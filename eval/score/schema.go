package score

import (
	"github.com/searchbench/searchbench/eval/dataset"

	"bytes"
	"encoding/json"
	"fmt"

	"github.com/searchbench/searchbench/orchestrator/answer"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// Schema judges the JSON envelope of Phase 2 answers, as the model returned
// it (raw) and as the user saw it (final): the envelope must decode and have
// no schema or envelope-rule violation. Header, verification and markdown
// findings belong to other scorers (see findingCategory).
type Schema struct{}

// Metrics of the schema scorer.
const (
	MetricSchemaRaw   = "schema.raw"
	MetricSchemaFinal = "schema.final"
)

// Name implements Scorer.
func (Schema) Name() string { return "schema" }

// Declare implements Scorer.
func (Schema) Declare() Declaration {
	return Declaration{Kinds: []string{dataset.KindRouting, dataset.KindFlows}, Measure: false, Metrics: []string{
		MetricSchemaRaw,
		MetricSchemaFinal,
	}, Invariants: []string{MetricSchemaFinal}}
}

// Score implements Scorer. It applies to routing and flows cases with a
// Phase 2 turn.
func (Schema) Score(in *Input) (Result, bool) {
	ts := phase2Turns(in)
	if len(ts) == 0 {
		return Result{}, false
	}
	var checks []Check
	for _, r := range ts {
		t := r.T
		if !rawBroken(in, r.N) {
			var fs []answer.Finding
			var decoded bool
			if modeOf(in, t) == trace.ModeStructured {
				decoded, fs = structuredEnvelope(t.RawOutput)
			} else {
				decoded, fs = messageEnvelope(in, t.RawOutput)
			}
			checks = append(checks, envelopeCheck(checkName(in, r.N, "raw envelope"), MetricSchemaRaw, t, decoded, fs))
		}
		decoded, fs := messageEnvelope(in, t.Output)
		checks = append(checks, envelopeCheck(checkName(in, r.N, "final envelope"), MetricSchemaFinal, t, decoded, fs))
	}
	return NewResult("schema", checks...), true
}

// messageEnvelope checks the envelope in a whole Phase 2 message. Without a
// decodable envelope, the findings that explain why (a missing fence, a
// syntax error) are returned.
func messageEnvelope(in *Input, msg string) (bool, []answer.Finding) {
	rep := in.CheckPhase2(msg)
	fs := violations(rep.Findings, catEnvelope)
	if rep.Envelope == nil {
		for _, f := range rep.Findings {
			if f.Code == "json.missing" || f.Code == "json.fence" {
				fs = append(fs, f)
			}
		}
	}
	return rep.Envelope != nil, fs
}

// structuredEnvelope checks {data, error} of a structured-mode answer
// ({"verification","data","error"}). The app prints the envelope itself in
// that mode, so whether a failure form is byte for byte the seed's compact
// JSON is not the model's concern and is not checked.
func structuredEnvelope(raw string) (bool, []answer.Finding) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(raw), &obj); err != nil {
		return false, []answer.Finding{{Code: "json.syntax", Severity: answer.Violation,
			Message: "the structured answer is not a JSON object: " + err.Error()}}
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for _, k := range []string{"data", "error"} {
		v, ok := obj[k]
		if !ok {
			continue // reported by the schema as required
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%q:", k)
		if err := json.Compact(&b, v); err != nil {
			b.Write(v) // cannot happen: Unmarshal validated it
		}
	}
	b.WriteByte('}')
	env, fs := answer.CheckEnvelope(b.Bytes())
	return env != nil, violations(fs, catEnvelope, "error.failure_not_exact")
}

func envelopeCheck(name, metric string, t *trace.Turn, decoded bool, fs []answer.Finding) Check {
	c := Check{Name: name, Metric: metric, Pass: decoded && len(fs) == 0, Expected: "a valid envelope"}
	switch {
	case t.Error != "":
		c.Pass, c.Got, c.Reason = false, "no output", turnFailed(t)
	case !decoded && len(fs) == 0:
		c.Got, c.Reason = "no envelope", "no JSON envelope could be decoded"
	case !decoded:
		c.Got, c.Reason = "no envelope: "+findingCodes(fs), findingReasons(fs)
	case len(fs) > 0:
		c.Got, c.Reason = findingCodes(fs), findingReasons(fs)
	default:
		c.Got = "valid"
	}
	if !c.Pass {
		c.Diff = findingDiffs(fs)
	}
	return c
}

// NewAggregator implements Scorer.
func (Schema) NewAggregator() Aggregator { return &Rates{} }
