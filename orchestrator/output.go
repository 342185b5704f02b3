package orchestrator

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/searchbench/searchbench/orchestrator/answer"
	"github.com/searchbench/searchbench/orchestrator/llm"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// Values of trace.Turn.Replaced.
const (
	ReplacedRepaired        = "repaired"
	ReplacedSchemaViolation = "schema_violation"
)

//go:embed structured.schema.json
var structuredSchema []byte

// structuredFormat is the strict json_schema response format of structured
// mode: the envelope plus the verification sentence. Strict mode wants every
// property required, so the optional kind and published are nullable.
func structuredFormat() *llm.ResponseFormat {
	var compact bytes.Buffer
	_ = json.Compact(&compact, structuredSchema)
	return &llm.ResponseFormat{
		Type: "json_schema",
		JSONSchema: &llm.JSONSchema{
			Name:   "phase2_answer",
			Strict: true,
			Schema: json.RawMessage(compact.Bytes()),
		},
	}
}

// finish turns the model's final content into the text the user sees,
// enforcing the output contract. noContent is set when the model produced
// nothing usable.
func (a *Assistant) finish(t *trace.Turn, content, noContent string) {
	t.RawOutput = content
	if noContent != "" {
		a.violation(t, "", noContent)
		return
	}
	if a.opts.Mode == trace.ModeStructured {
		a.finishStructured(t, content)
		return
	}
	rep := a.opts.CheckPhase2(content)
	violations := violationsOf(rep.Findings)
	if len(violations) == 0 {
		t.Output = content
		return
	}
	if a.opts.Repair && rep.Envelope != nil && validVerification(rep.Verification) && allRepairable(violations) {
		env := canonical(*rep.Envelope)
		if !answer.HasViolation(checkEnvelope(env)) {
			t.Output = answer.FormatPhase2(rep.Verification, env)
			t.Replaced = ReplacedRepaired
			t.Reason = "re-rendered the markdown from the envelope: " + describe(violations)
			return
		}
	}
	a.violation(t, rep.Verification, describe(violations))
}

// finishStructured prints a structured-mode envelope: header, verification
// line, canonical markdown and JSON.
func (a *Assistant) finishStructured(t *trace.Turn, content string) {
	var out struct {
		Verification string `json:"verification"`
		Data         struct {
			Bullets []struct {
				Text      string   `json:"text"`
				Kind      *string  `json:"kind"`
				SourceIDs []string `json:"source_ids"`
			} `json:"bullets"`
			Sources []struct {
				ID        string  `json:"id"`
				Domain    string  `json:"domain"`
				Title     string  `json:"title"`
				URL       string  `json:"url"`
				Published *string `json:"published"`
			} `json:"sources"`
		} `json:"data"`
		Error answer.Error `json:"error"`
	}
	dec := json.NewDecoder(strings.NewReader(content))
	if err := dec.Decode(&out); err != nil {
		a.violation(t, "", "structured output is not the expected JSON object: "+err.Error())
		return
	}
	if !validVerification(out.Verification) {
		a.violation(t, "", fmt.Sprintf("structured output has no valid verification sentence (got %q)", out.Verification))
		return
	}
	var env answer.Envelope
	switch out.Error.Code {
	case answer.CodeInsufficientEvidence:
		env = answer.InsufficientEvidence()
	case answer.CodeSchemaViolation:
		env = answer.SchemaViolation(out.Error.Message)
	default:
		var bullets []answer.Bullet
		var sources []answer.Source
		for _, b := range out.Data.Bullets {
			bullets = append(bullets, answer.Bullet{Text: b.Text, Kind: deref(b.Kind), SourceIDs: b.SourceIDs})
		}
		for _, s := range out.Data.Sources {
			sources = append(sources, answer.Source{ID: s.ID, Domain: s.Domain, Title: s.Title, URL: s.URL, Published: deref(s.Published)})
		}
		env = answer.Success(bullets, sources)
		env.Error = out.Error
	}
	if v := violationsOf(checkEnvelope(env)); len(v) > 0 {
		a.violation(t, out.Verification, describe(v))
		return
	}
	t.Output = answer.FormatPhase2(out.Verification, env)
}

// violation replaces the answer with the SCHEMA_VIOLATION form. The
// verification sentence is the model's when it gave a valid one; otherwise
// "skipped" when Phase 1 was skipped, else the correction sentence — the app
// cannot confirm anything from a broken answer.
func (a *Assistant) violation(t *trace.Turn, verification, reason string) {
	if !validVerification(verification) {
		verification = answer.VerificationCorrected
		if t.Phase1Skipped {
			verification = answer.VerificationSkipped
		}
	}
	t.Output = answer.FormatPhase2(verification, answer.SchemaViolation(reason))
	t.Replaced = ReplacedSchemaViolation
	t.Reason = reason
}

func validVerification(s string) bool {
	switch s {
	case answer.VerificationConfirmed, answer.VerificationCorrected, answer.VerificationSkipped:
		return true
	}
	return false
}

func checkEnvelope(env answer.Envelope) []answer.Finding {
	_, fs := answer.CheckEnvelope(answer.Marshal(env))
	return fs
}

// canonical returns env with render_markdown as the canonical renderer
// writes it for env's data and error code.
func canonical(env answer.Envelope) answer.Envelope {
	switch env.Error.Code {
	case answer.CodeInsufficientEvidence:
		return answer.InsufficientEvidence()
	case answer.CodeSchemaViolation:
		return answer.SchemaViolation(env.Error.Message)
	}
	out := answer.Success(env.Data.Bullets, env.Data.Sources)
	out.Error = env.Error
	return out
}

func violationsOf(fs []answer.Finding) []answer.Finding {
	var out []answer.Finding
	for _, f := range fs {
		if f.Severity == answer.Violation {
			out = append(out, f)
		}
	}
	return out
}

// allRepairable reports whether every violation is about how the message
// was printed — markdown, layout, header, stray characters — and none about
// the envelope's content or the verification sentence. Re-printing from the
// envelope fixes the former; nothing the app knows fixes the latter.
func allRepairable(fs []answer.Finding) bool {
	for _, f := range fs {
		group, _, _ := strings.Cut(f.Code, ".")
		switch group {
		case "markdown", "layout", "header", "text":
		default:
			return false
		}
	}
	return true
}

func describe(fs []answer.Finding) string {
	var parts []string
	for i, f := range fs {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(fs)-3))
			break
		}
		parts = append(parts, f.Code+": "+f.Message)
	}
	return strings.Join(parts, "; ")
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
