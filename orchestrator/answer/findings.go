package answer

import "slices"

// Severity says whether a finding fails a check.
type Severity string

const (
	// Violation breaks the contract: a check with one fails (exit 1).
	Violation Severity = "violation"
	// Warning is quality guidance from the seed; it never fails a check.
	Warning Severity = "warning"
)

// Finding is one problem found in a message or envelope.
type Finding struct {
	// Code is a stable identifier from Codes, such as "bullet.too_long".
	Code     string   `json:"code"`
	Severity Severity `json:"severity"`
	// Message says what is wrong, with invisible characters made visible.
	Message string `json:"message"`
	// Location is a JSON pointer into the envelope ("/data/bullets/2/text"),
	// "line N" (1-based) in a message, or "byte N" in a bare envelope.
	Location string `json:"location"`
	// Diff is a unified diff in textdiff's visible notation, for findings
	// that compare two texts; empty otherwise.
	Diff string `json:"diff,omitempty"`
}

// CodeInfo documents one finding code.
type CodeInfo struct {
	Code     string
	Severity Severity
	// Summary is a one-line explanation, suitable for a README table.
	Summary string
}

// Codes lists every finding code, grouped by what it checks. Codes are
// stable: tests, CI gates and dashboards match on them.
var Codes = []CodeInfo{
	// The envelope as JSON and against envelope.schema.json.
	{"json.syntax", Violation, "the envelope is not valid JSON, or has text after the JSON value"},
	{"json.duplicate_key", Violation, "an object repeats a key (decoders disagree on which value wins)"},
	{"schema.type", Violation, "a value has the wrong JSON type"},
	{"schema.required", Violation, "a required property is missing"},
	{"schema.additional_property", Violation, "a property the schema does not define"},
	{"schema.empty", Violation, "a string that must not be empty is empty"},
	{"schema.invalid", Violation, "any other schema constraint failed"},
	{"bullets.too_many", Violation, "more than 6 bullets"},
	{"sources.too_many", Violation, "more than 6 sources"},
	{"bullet.too_long", Violation, "bullet text longer than 160 characters (runes)"},
	{"bullet.kind_invalid", Violation, `bullet kind is not "fact" or "consensus_discord"`},
	{"source.id_invalid", Violation, `source id is not of the form s<N> (s1, s2, …)`},
	{"error.code_invalid", Violation, "error.code is not NONE, SCHEMA_VIOLATION or INSUFFICIENT_EVIDENCE"},
	// Rules the schema cannot express.
	{"bullet.too_many_words", Violation, "bullet text has more than 18 words"},
	{"bullet.no_sources", Violation, "a bullet cites no source (source_ids is empty)"},
	{"bullet.source_unknown", Violation, "a source_ids entry names no source in data.sources"},
	{"bullet.source_repeated", Warning, "a bullet cites the same source id twice"},
	{"bullet.few_domains", Warning, "a bullet is backed by fewer than 2 independent registrable domains"},
	{"field.line_break", Violation, "a bullet text, source title or url contains a line break, which breaks the one-line-per-item layout"},
	{"field.control_char", Violation, "a bullet text or source title contains a control or bidirectional formatting character (ESC, NUL, U+202E…), which can rewrite a terminal or reorder what a reader sees"},
	{"source.id_duplicate", Violation, "two sources share an id"},
	{"source.id_order", Warning, "source N (1-based) is not numbered sN, so the printed numbers and the ids disagree"},
	{"source.url_invalid", Violation, "url is not an absolute http(s) URL with a host"},
	{"source.url_not_canonical", Violation, "url has tracking parameters (utm_*, gclid, fbclid, …) or a fragment"},
	{"source.url_duplicate", Warning, "two sources have the same canonical url"},
	{"source.domain_mismatch", Violation, "domain is not the registrable domain (eTLD+1) of url"},
	{"source.domain_form", Warning, "domain names the right registrable domain but not in its canonical form (case, trailing dot)"},
	{"source.published_invalid", Violation, "published is not an RFC 3339 timestamp"},
	{"source.published_empty", Violation, "published is an empty string: leave an unknown date out"},
	{"source.uncited", Warning, "a source is cited by no bullet"},
	{"answer.empty", Violation, "error.code is NONE but there are no bullets (use INSUFFICIENT_EVIDENCE)"},
	{"answer.few_bullets", Warning, "a successful answer has fewer than 3 bullets"},
	{"error.inconsistent", Violation, "error.code and the rest of the envelope disagree (failure modes must be empty, success has an empty message)"},
	{"error.failure_not_exact", Violation, "a failure-mode envelope is not byte for byte the seed's compact JSON"},
	{"markdown.not_canonical", Violation, "data.render_markdown is not the canonical rendering of bullets and sources"},
	// The printed message.
	{"header.missing", Violation, "the phase header line is missing"},
	{"header.mismatch", Violation, "the header line looks like the phase header but differs (dash, spaces, invisible characters)"},
	{"header.not_first", Violation, "text or blank lines come before the header"},
	{"verification.missing", Violation, "no Verification: line"},
	{"verification.invalid", Violation, "the Verification: line is not one of the seed's three sentences exactly"},
	{"layout.blank_lines", Violation, "a blank line is missing, extra, or contains whitespace where the layout puts exactly one empty line"},
	{"layout.stray_text", Violation, "text where the layout allows none (between header and Verification, after the closing fence)"},
	{"json.missing", Violation, "no ```json fenced block"},
	{"json.fence", Violation, "the json fence is malformed (not exactly ```json … ```) or unclosed"},
	{"markdown.mismatch", Violation, "the printed markdown is not byte for byte data.render_markdown"},
	{"text.carriage_return", Violation, "the message contains CR characters (CRLF line endings)"},
	{"text.invisible", Warning, "a line contains invisible characters (zero-width, NBSP, other spaces, bidi controls)"},
	{"consent.missing", Violation, "Phase 1 does not end with the consent question"},
	{"consent.mismatch", Violation, "the consent question differs from the seed's (apostrophe, spacing, wording) or shares its line"},
	{"consent.not_last", Violation, "text follows the consent question"},
	{"body.empty", Violation, "Phase 1 has no answer between the header and the consent question"},
	{"body.too_long", Violation, "Phase 1 has more than 5 paragraphs or lists"},
	{"body.paragraph_long", Warning, "a Phase 1 paragraph has more than 100 words"},
	{"body.list_long", Warning, "a Phase 1 list has more than 8 items"},
	{"tools.mentioned", Violation, "Phase 1 names a search tool (Tavily or Exa)"},
}

// severityOf returns the severity registered for code; an unknown code is
// a programming error caught by the tests.
func severityOf(code string) Severity {
	i := slices.IndexFunc(Codes, func(c CodeInfo) bool { return c.Code == code })
	if i < 0 {
		panic("answer: unregistered finding code " + code)
	}
	return Codes[i].Severity
}

// finding builds a Finding with code's registered severity.
func finding(code, loc, msg string) Finding {
	return Finding{Code: code, Severity: severityOf(code), Message: msg, Location: loc}
}

// HasViolation reports whether any finding is a violation.
func HasViolation(fs []Finding) bool {
	return slices.ContainsFunc(fs, func(f Finding) bool { return f.Severity == Violation })
}
