// Package answer is the output contract of the assistant's two phases, and
// the checker that the rest of the harness judges model output with.
//
// Phase 2 (search-backed) answers carry an [Envelope]: bullets, the sources
// they cite, the markdown printed for the user (data.render_markdown) and an
// error code. This package defines the envelope's Go types and its JSON
// Schema (envelope.schema.json, draft 2020-12, embedded; see [SchemaJSON]),
// renders the canonical markdown ([Render]), builds the two failure modes
// byte for byte as the seed documents them ([SchemaViolation],
// [InsufficientEvidence], [Marshal]), formats a whole Phase 2 message
// ([FormatPhase2]) and checks messages and envelopes ([CheckPhase2],
// [CheckPhase1], [CheckEnvelope]), reporting every problem as a [Finding]
// with a stable code from [Codes].
//
// # The printed Phase 2 layout
//
// A Phase 2 message M with verification sentence V (one of [Verifications])
// and envelope E is exactly
//
//	"### Phase 2 – Search-Backed Answer\n" +   // U+2013 en dash
//	"Verification: " + V + "\n" +
//	"\n" +
//	P +
//	"```json\n" + JSON + "\n```"
//
// optionally followed by one "\n". JSON is E in any formatting (compact or
// indented), except that the two failure modes must be the seed's compact
// JSON byte for byte. P, the printed markdown block, is "" when
// render_markdown is empty (schema violation: the fence follows the blank
// line directly), and otherwise render_markdown, then "\n" if it does not
// already end in one, then one blank line "\n". So a success prints
// "...(URL)\n\n```json" and insufficient evidence prints
// "Sources:\n\n```json".
//
// # render_markdown
//
// [Render] gives the canonical form: one "- text" line per bullet, a blank
// line, "Sources:", then "N. Title (URL)" lines, with no newline after the
// last source line. With no sources "Sources:" is the last line and keeps
// its newline (the insufficient-evidence form is exactly "Sources:\n");
// with no bullets the bullet lines and their blank line are left out, so a
// success with sources but no bullets renders "Sources:\n1. Title (URL)"
// (and is reported as answer.empty).
//
// # Checking
//
// [CheckPhase2] locates each part robustly (models add stray blank lines,
// spaces and CRs), reports every deviation from the layout, compares the
// printed block with render_markdown byte for byte, and render_markdown with
// the canonical rendering of the JSON; mismatches come with the first
// differing byte and a diff in which invisible characters are visible (see
// package textdiff). [CheckEnvelope] validates the JSON: the schema first
// (each error with its JSON pointer), then the rules the schema cannot
// express. [CheckPhase1] checks the Phase 1 header, body and closing
// consent question. Findings are violations (the check fails) or warnings
// (the seed's quality guidance).
package answer
