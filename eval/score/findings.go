package score

import (
	"fmt"
	"strings"

	"github.com/searchbench/searchbench/orchestrator/answer"
)

// Finding categories: which scorer judges a finding code of package answer.
const (
	catEnvelope = "envelope" // the schema scorer: JSON, schema and envelope rules
	catMarkdown = "markdown" // the markdown scorer: printed block and canonical rendering
	catMessage  = "message"  // Phase 2 layout: header, Verification line, fences, characters
	catPhase1   = "phase1"   // Phase 1 body and consent question (the flow scorer)
)

// findingCategory classifies every code in answer.Codes, in one place. A
// test fails when answer adds a code that is not listed here.
var findingCategory = map[string]string{
	"json.syntax":                catEnvelope,
	"json.duplicate_key":         catEnvelope,
	"schema.type":                catEnvelope,
	"schema.required":            catEnvelope,
	"schema.additional_property": catEnvelope,
	"schema.empty":               catEnvelope,
	"schema.invalid":             catEnvelope,
	"bullets.too_many":           catEnvelope,
	"sources.too_many":           catEnvelope,
	"bullet.too_long":            catEnvelope,
	"bullet.kind_invalid":        catEnvelope,
	"source.id_invalid":          catEnvelope,
	"error.code_invalid":         catEnvelope,
	"bullet.too_many_words":      catEnvelope,
	"bullet.no_sources":          catEnvelope,
	"bullet.source_unknown":      catEnvelope,
	"bullet.source_repeated":     catEnvelope,
	"bullet.few_domains":         catEnvelope,
	"field.line_break":           catEnvelope,
	"field.control_char":         catEnvelope,
	"source.id_duplicate":        catEnvelope,
	"source.id_order":            catEnvelope,
	"source.url_invalid":         catEnvelope,
	"source.url_not_canonical":   catEnvelope,
	"source.url_duplicate":       catEnvelope,
	"source.domain_mismatch":     catEnvelope,
	"source.domain_form":         catEnvelope,
	"source.published_invalid":   catEnvelope,
	"source.published_empty":     catEnvelope,
	"source.uncited":             catEnvelope,
	"answer.empty":               catEnvelope,
	"answer.few_bullets":         catEnvelope,
	"error.inconsistent":         catEnvelope,
	"error.failure_not_exact":    catEnvelope,
	"markdown.not_canonical":     catMarkdown,
	"markdown.mismatch":          catMarkdown,
	"header.missing":             catMessage,
	"header.mismatch":            catMessage,
	"header.not_first":           catMessage,
	"verification.missing":       catMessage,
	"verification.invalid":       catMessage,
	"layout.blank_lines":         catMessage,
	"layout.stray_text":          catMessage,
	"json.missing":               catMessage,
	"json.fence":                 catMessage,
	"text.carriage_return":       catMessage,
	"text.invisible":             catMessage,
	"consent.missing":            catPhase1,
	"consent.mismatch":           catPhase1,
	"consent.not_last":           catPhase1,
	"body.empty":                 catPhase1,
	"body.too_long":              catPhase1,
	"body.paragraph_long":        catPhase1,
	"body.list_long":             catPhase1,
	"tools.mentioned":            catPhase1,
}

// violations returns the violations among fs whose code is in category cat
// and not in skip.
func violations(fs []answer.Finding, cat string, skip ...string) []answer.Finding {
	var out []answer.Finding
	for _, f := range fs {
		if f.Severity != answer.Violation || findingCategory[f.Code] != cat {
			continue
		}
		skipped := false
		for _, s := range skip {
			skipped = skipped || f.Code == s
		}
		if !skipped {
			out = append(out, f)
		}
	}
	return out
}

// findingCodes lists the codes of fs: "2 violations: bullet.too_long, source.uncited".
func findingCodes(fs []answer.Finding) string {
	codes := make([]string, len(fs))
	for i, f := range fs {
		codes[i] = f.Code
	}
	noun := "violations"
	if len(fs) == 1 {
		noun = "violation"
	}
	return fmt.Sprintf("%d %s: %s", len(fs), noun, strings.Join(codes, ", "))
}

// findingReasons explains fs in one line each: "bullet.too_long at
// /data/bullets/2/text: …".
func findingReasons(fs []answer.Finding) string {
	lines := make([]string, len(fs))
	for i, f := range fs {
		s := f.Code
		if f.Location != "" {
			s += " at " + f.Location
		}
		lines[i] = s + ": " + f.Message
	}
	return strings.Join(lines, "; ")
}

// findingDiffs joins the diffs the findings carry.
func findingDiffs(fs []answer.Finding) string {
	var parts []string
	for _, f := range fs {
		if f.Diff != "" {
			parts = append(parts, f.Diff)
		}
	}
	return strings.Join(parts, "\n")
}
