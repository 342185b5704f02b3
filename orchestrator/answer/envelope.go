package answer

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// Envelope is the JSON object a Phase 2 answer carries in its ```json block.
type Envelope struct {
	Data  Data  `json:"data"`
	Error Error `json:"error"`
}

// Data holds the answer: bullets, the sources they cite, and the markdown
// that was printed above the JSON.
type Data struct {
	Bullets        []Bullet `json:"bullets"`
	Sources        []Source `json:"sources"`
	RenderMarkdown string   `json:"render_markdown"`
}

// Bullet is one line of the answer.
type Bullet struct {
	Text string `json:"text"`
	// Kind is KindFact (the default when empty) or KindConsensusDiscord.
	Kind      string   `json:"kind,omitempty"`
	SourceIDs []string `json:"source_ids"`
}

// Source is one cited page.
type Source struct {
	ID     string `json:"id"`
	Domain string `json:"domain"`
	Title  string `json:"title"`
	URL    string `json:"url"`
	// Published is an RFC 3339 timestamp, or empty when unknown (and then
	// left out of the JSON).
	Published string `json:"published,omitempty"`

	// emptyPublished records a decoded "published": "" — not a timestamp,
	// and not the same as leaving it out.
	emptyPublished bool
}

// Error says whether the answer succeeded and, if not, why.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Error codes.
const (
	CodeNone                 = "NONE"
	CodeSchemaViolation      = "SCHEMA_VIOLATION"
	CodeInsufficientEvidence = "INSUFFICIENT_EVIDENCE"
)

// Bullet kinds.
const (
	KindFact             = "fact"
	KindConsensusDiscord = "consensus_discord"
)

// The fixed strings of the two phases, exactly as in the seed document.
const (
	Phase1Header    = "### Phase 1 \u2013 Immediate Answer (Unverified)"
	Phase2Header    = "### Phase 2 \u2013 Search-Backed Answer"
	ConsentQuestion = "I haven\u2019t searched the web yet. Would you like me to look this up and confirm with sources? (y/n)"

	// VerificationPrefix starts the line after the Phase 2 header.
	VerificationPrefix    = "Verification: "
	VerificationConfirmed = "Phase 1 answer is confirmed by search results."
	VerificationCorrected = "Phase 1 answer requires correction/clarification; see updated details below."
	VerificationSkipped   = "Phase 1 was skipped (override '?'); this answer is fully search-based."

	// InsufficientEvidenceMessage is the fixed error.message of that failure mode.
	InsufficientEvidenceMessage = "Insufficient evidence to answer confidently."
)

// Verifications lists the three allowed verification sentences.
var Verifications = []string{VerificationConfirmed, VerificationCorrected, VerificationSkipped}

// Render returns the canonical render_markdown for bullets and sources:
//
//   - <bullet 1 text>
//
//   - <bullet 2 text>
//
//     Sources:
//     1. <title 1> (<url 1>)
//     2. <title 2> (<url 2>)
//
// with no newline after the last source line. Each part follows the seed's
// layout on its own, so the edge cases are consistent with it:
//   - no bullets: the bullet lines and the blank line after them are left
//     out, so the text starts at "Sources:";
//   - no sources: "Sources:" is the final line and keeps its newline, which
//     makes Render(nil, nil) the insufficient-evidence form "Sources:\n".
func Render(bullets []Bullet, sources []Source) string {
	var b strings.Builder
	for _, x := range bullets {
		b.WriteString("- ")
		b.WriteString(x.Text)
		b.WriteByte('\n')
	}
	if len(bullets) > 0 {
		b.WriteByte('\n')
	}
	b.WriteString("Sources:")
	for i, s := range sources {
		b.WriteByte('\n')
		b.WriteString(strconv.Itoa(i + 1))
		b.WriteString(". ")
		b.WriteString(s.Title)
		b.WriteString(" (")
		b.WriteString(s.URL)
		b.WriteByte(')')
	}
	if len(sources) == 0 {
		b.WriteByte('\n')
	}
	return b.String()
}

// Canonical returns the render_markdown that e's error code and data call
// for: the fixed forms of the two failure modes ("" and "Sources:\n"), and
// Render of bullets and sources otherwise.
func Canonical(e Envelope) string {
	switch e.Error.Code {
	case CodeSchemaViolation:
		return ""
	case CodeInsufficientEvidence:
		return InsufficientEvidence().Data.RenderMarkdown
	}
	return Render(e.Data.Bullets, e.Data.Sources)
}

// Success returns a successful envelope (code NONE) for bullets and sources,
// with render_markdown filled in. The slices are copied.
func Success(bullets []Bullet, sources []Source) Envelope {
	e := Envelope{
		Data: Data{
			Bullets: make([]Bullet, len(bullets)),
			Sources: append([]Source{}, sources...),
		},
		Error: Error{Code: CodeNone, Message: ""},
	}
	for i, b := range bullets {
		b.SourceIDs = append([]string{}, b.SourceIDs...)
		e.Data.Bullets[i] = b
	}
	e.Data.RenderMarkdown = Render(e.Data.Bullets, e.Data.Sources)
	return e
}

// SchemaViolation returns the seed's schema-violation envelope with reason
// as its message.
func SchemaViolation(reason string) Envelope {
	return Envelope{
		Data:  Data{Bullets: []Bullet{}, Sources: []Source{}, RenderMarkdown: ""},
		Error: Error{Code: CodeSchemaViolation, Message: reason},
	}
}

// InsufficientEvidence returns the seed's insufficient-evidence envelope.
func InsufficientEvidence() Envelope {
	return Envelope{
		Data:  Data{Bullets: []Bullet{}, Sources: []Source{}, RenderMarkdown: "Sources:\n"},
		Error: Error{Code: CodeInsufficientEvidence, Message: InsufficientEvidenceMessage},
	}
}

// Marshal encodes e as compact JSON with no trailing newline and without
// HTML escaping, so that the failure modes come out byte for byte as in the
// seed (a reason containing "<" stays "<", not "\u003c"). Nil slices are
// written as [] so the output always satisfies the schema's types.
func Marshal(e Envelope) []byte {
	if e.Data.Bullets == nil {
		e.Data.Bullets = []Bullet{}
	}
	if e.Data.Sources == nil {
		e.Data.Sources = []Source{}
	}
	bs := make([]Bullet, len(e.Data.Bullets))
	for i, b := range e.Data.Bullets {
		if b.SourceIDs == nil {
			b.SourceIDs = []string{}
		}
		bs[i] = b
	}
	e.Data.Bullets = bs

	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(e); err != nil {
		// Only strings, slices and structs: encoding cannot fail.
		panic("answer: marshal envelope: " + err.Error())
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// printedBlock returns P, the printed markdown block of the layout: empty
// for an empty render_markdown, otherwise render_markdown ending in a
// newline followed by one blank line.
func printedBlock(renderMarkdown string) string {
	if renderMarkdown == "" {
		return ""
	}
	if !strings.HasSuffix(renderMarkdown, "\n") {
		renderMarkdown += "\n"
	}
	return renderMarkdown + "\n"
}

// FormatPhase2 returns the whole Phase 2 message for a verification
// sentence and an envelope, in the layout described in the package
// documentation, with the envelope as compact JSON (Marshal).
func FormatPhase2(verification string, e Envelope) string {
	var b strings.Builder
	b.WriteString(Phase2Header)
	b.WriteString("\n")
	b.WriteString(VerificationPrefix)
	b.WriteString(verification)
	b.WriteString("\n\n")
	b.WriteString(printedBlock(e.Data.RenderMarkdown))
	b.WriteString("```json\n")
	b.Write(Marshal(e))
	b.WriteString("\n```")
	return b.String()
}
