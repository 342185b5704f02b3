package answer

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func TestRender(t *testing.T) {
	b := []Bullet{{Text: "One."}, {Text: "Two."}}
	s := []Source{{Title: "A", URL: "https://a.org/"}, {Title: "B", URL: "https://b.org/x"}}
	tests := []struct {
		name    string
		bullets []Bullet
		sources []Source
		want    string
	}{
		{"full", b, s, "- One.\n- Two.\n\nSources:\n1. A (https://a.org/)\n2. B (https://b.org/x)"},
		{"insufficient evidence form", nil, nil, "Sources:\n"},
		{"sources without bullets", nil, s[:1], "Sources:\n1. A (https://a.org/)"},
		{"bullets without sources", b[:1], nil, "- One.\n\nSources:\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Render(tt.bullets, tt.sources); got != tt.want {
				t.Errorf("Render = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestFailureModesSeedBytes pins the two failure modes to the seed's text.
func TestFailureModesSeedBytes(t *testing.T) {
	tests := []struct {
		name string
		env  Envelope
		want string
	}{
		{"schema violation", SchemaViolation("<reason>"),
			`{"data":{"bullets":[],"sources":[],"render_markdown":""},"error":{"code":"SCHEMA_VIOLATION","message":"<reason>"}}`},
		{"insufficient evidence", InsufficientEvidence(),
			`{"data":{"bullets":[],"sources":[],"render_markdown":"Sources:\n"},"error":{"code":"INSUFFICIENT_EVIDENCE","message":"Insufficient evidence to answer confidently."}}`},
		{"ampersand", SchemaViolation("a & b > c"),
			`{"data":{"bullets":[],"sources":[],"render_markdown":""},"error":{"code":"SCHEMA_VIOLATION","message":"a & b > c"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(Marshal(tt.env)); got != tt.want {
				t.Errorf("Marshal =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// TestSeedStrings compares the constants with the design document the
// repository keeps verbatim (docs/design/), so a typo in a look-alike
// character cannot slip in. The document is part of the tree: a missing
// copy is a failure, never a skip.
func TestSeedStrings(t *testing.T) {
	seed, err := os.ReadFile("../../docs/design/000-search-orchestrator.txt")
	if err != nil {
		t.Fatal("the design document is part of the repository:", err)
	}
	for _, s := range []string{Phase1Header, Phase2Header, ConsentQuestion, VerificationConfirmed,
		VerificationCorrected, VerificationSkipped, InsufficientEvidenceMessage} {
		if !strings.Contains(string(seed), s) {
			t.Errorf("seed does not contain %q", s)
		}
	}
}

func TestMarshalNilSlices(t *testing.T) {
	got := string(Marshal(Envelope{Data: Data{Bullets: []Bullet{{Text: "x"}}}, Error: Error{Code: CodeNone}}))
	want := `{"data":{"bullets":[{"text":"x","source_ids":[]}],"sources":[],"render_markdown":""},"error":{"code":"NONE","message":""}}`
	if got != want {
		t.Errorf("Marshal = %s, want %s", got, want)
	}
}

func TestSuccessCopies(t *testing.T) {
	b := []Bullet{{Text: "x", SourceIDs: []string{"s1"}}}
	e := Success(b, nil)
	b[0].SourceIDs[0] = "s9"
	if e.Data.Bullets[0].SourceIDs[0] != "s1" {
		t.Error("Success shares the caller's source_ids slice")
	}
	if e.Data.Sources == nil || e.Error.Code != CodeNone || e.Data.RenderMarkdown != Render(b, nil) {
		t.Errorf("Success = %+v", e)
	}
}

func TestFormatPhase2(t *testing.T) {
	ok := Success([]Bullet{{Text: "A.", SourceIDs: []string{"s1"}}},
		[]Source{{ID: "s1", Domain: "a.org", Title: "A", URL: "https://a.org/"}})
	tests := []struct {
		name string
		env  Envelope
		want string // the text between the blank line after Verification and the JSON
	}{
		{"success", ok, "- A.\n\nSources:\n1. A (https://a.org/)\n\n```json\n"},
		{"insufficient evidence", InsufficientEvidence(), "Sources:\n\n```json\n"},
		{"schema violation", SchemaViolation("r"), "```json\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg := FormatPhase2(VerificationSkipped, tt.env)
			head := Phase2Header + "\nVerification: " + VerificationSkipped + "\n\n"
			want := head + tt.want + string(Marshal(tt.env)) + "\n```"
			if msg != want {
				t.Fatalf("FormatPhase2 =\n%q\nwant\n%q", msg, want)
			}
			rep := CheckPhase2(msg)
			if HasViolation(rep.Findings) || !rep.MarkdownMatches || !rep.CanonicalMatches || rep.Verification != VerificationSkipped {
				t.Errorf("CheckPhase2 of FormatPhase2 output: %+v", rep)
			}
		})
	}
}

func TestSchemaJSON(t *testing.T) {
	raw, err := os.ReadFile("envelope.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if string(SchemaJSON()) != string(raw) {
		t.Error("SchemaJSON differs from envelope.schema.json")
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if doc["$id"] != SchemaURL {
		t.Errorf("$id = %v, want %s", doc["$id"], SchemaURL)
	}
	if compiledSchema() == nil {
		t.Fatal("schema did not compile")
	}
	// The Go constants document the limits the schema enforces.
	props := doc["properties"].(map[string]any)["data"].(map[string]any)["properties"].(map[string]any)
	text := doc["$defs"].(map[string]any)["bullet"].(map[string]any)["properties"].(map[string]any)["text"].(map[string]any)
	for name, pair := range map[string][2]any{
		"bullets maxItems": {props["bullets"].(map[string]any)["maxItems"], float64(MaxBullets)},
		"sources maxItems": {props["sources"].(map[string]any)["maxItems"], float64(MaxSources)},
		"text maxLength":   {text["maxLength"], float64(MaxBulletRunes)},
	} {
		if pair[0] != pair[1] {
			t.Errorf("schema %s = %v, Go constant %v", name, pair[0], pair[1])
		}
	}
}

func TestCodes(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Codes {
		if seen[c.Code] {
			t.Errorf("duplicate code %s", c.Code)
		}
		seen[c.Code] = true
		if c.Severity != Violation && c.Severity != Warning || c.Summary == "" {
			t.Errorf("code %s: severity %q, summary %q", c.Code, c.Severity, c.Summary)
		}
	}
	for _, code := range schemaCodes {
		if !seen[code] {
			t.Errorf("schemaCodes maps to unregistered code %s", code)
		}
	}
}

func TestHasViolation(t *testing.T) {
	tests := []struct {
		fs   []Finding
		want bool
	}{
		{nil, false},
		{[]Finding{finding("answer.few_bullets", "", "")}, false},
		{[]Finding{finding("answer.few_bullets", "", ""), finding("json.missing", "", "")}, true},
	}
	for i, tt := range tests {
		if got := HasViolation(tt.fs); got != tt.want {
			t.Errorf("%d: HasViolation = %v, want %v", i, got, tt.want)
		}
	}
}
