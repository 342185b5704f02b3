package answer

import (
	"reflect"
	"strings"
	"testing"
)

func codes(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Code+"@"+f.Location)
	}
	return out
}

func TestCheckEnvelopePointers(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		want []string
	}{
		{"escaped keys", `{"data":{"bullets":[],"sources":[],"render_markdown":"Sources:\n","a/b~c":1},"error":{"code":"INSUFFICIENT_EVIDENCE","message":"Insufficient evidence to answer confidently."}}`,
			[]string{"schema.additional_property@/data/a~1b~0c", "error.failure_not_exact@"}},
		{"nested duplicate", `{"data":{"bullets":[],"sources":[],"render_markdown":"","render_markdown":""},"error":{"code":"SCHEMA_VIOLATION","message":"x"}}`,
			[]string{"json.duplicate_key@/data/render_markdown", "error.failure_not_exact@"}},
		{"syntax", `{"data":`, []string{"json.syntax@byte 8"}},
		{"case-insensitive keys are not the envelope", `{"Data":{"bullets":[],"sources":[],"render_markdown":""},"error":{"code":"SCHEMA_VIOLATION","message":"x"}}`,
			[]string{"schema.additional_property@/Data", "schema.required@/data"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, fs := CheckEnvelope([]byte(tt.raw))
			if got := codes(fs); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("findings = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestCheckEnvelopeDeterministic guards against map iteration order
// leaking into findings (the schema validator walks maps).
func TestCheckEnvelopeDeterministic(t *testing.T) {
	raw := []byte(`{"data":{"bullets":[{"text":1,"kind":"x","z":1,"y":2,"source_ids":[3]}],"sources":[{"id":"q","a":1,"b":2,"c":3}],"render_markdown":5,"k":1,"j":2},"error":{"code":"?","message":1,"m":1,"n":2},"p":1,"o":2}`)
	_, first := CheckEnvelope(raw)
	if len(first) < 10 {
		t.Fatalf("want many findings, got %v", codes(first))
	}
	for range 50 {
		if _, fs := CheckEnvelope(raw); !reflect.DeepEqual(fs, first) {
			t.Fatalf("findings changed between runs:\n%v\n%v", codes(first), codes(fs))
		}
	}
}

func TestCheckPhase2Report(t *testing.T) {
	e := Success([]Bullet{{Text: "A fact.", SourceIDs: []string{"s1"}}},
		[]Source{{ID: "s1", Domain: "a.org", Title: "A", URL: "https://a.org/"}})
	good := FormatPhase2(VerificationConfirmed, e)
	tests := []struct {
		name      string
		msg       string
		printed   string
		matches   bool
		wantCodes []string
	}{
		{"good", good, e.Data.RenderMarkdown, true, nil},
		{"stray blank lines around the block", strings.Replace(strings.Replace(good, "results.\n\n", "results.\n\n\n", 1), "\n\n```json", "\n\n\n```json", 1),
			e.Data.RenderMarkdown, true, []string{"layout.blank_lines", "layout.blank_lines"}},
		{"trailing space", strings.Replace(good, "- A fact.", "- A fact. ", 1), "- A fact. \n\nSources:\n1. A (https://a.org/)", false, []string{"markdown.mismatch"}},
		{"no verification line", strings.Replace(good, "Verification: "+VerificationConfirmed+"\n", "", 1),
			e.Data.RenderMarkdown, true, []string{"verification.missing"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := CheckPhase2(tt.msg)
			var got []string
			for _, f := range rep.Findings {
				if f.Severity == Violation {
					got = append(got, f.Code)
				}
			}
			if !reflect.DeepEqual(got, tt.wantCodes) {
				t.Errorf("violations = %v, want %v", got, tt.wantCodes)
			}
			if rep.Printed != tt.printed || rep.MarkdownMatches != tt.matches {
				t.Errorf("Printed = %q, MarkdownMatches = %v; want %q, %v", rep.Printed, rep.MarkdownMatches, tt.printed, tt.matches)
			}
			if (rep.MarkdownDiff == nil) != tt.matches {
				t.Errorf("MarkdownDiff = %v with MarkdownMatches %v", rep.MarkdownDiff, tt.matches)
			}
			if rep.Envelope == nil || !rep.CanonicalMatches {
				t.Errorf("Envelope = %v, CanonicalMatches = %v", rep.Envelope, rep.CanonicalMatches)
			}
		})
	}
}

func TestCountWords(t *testing.T) {
	tests := []struct {
		s    string
		want int
	}{
		{"", 0},
		{"one", 1},
		{"state-of-the-art tooling — shipped", 3},
		{"  spaced\u00a0out\ttext ", 3},
		{"1.0 and 2.0", 3},
	}
	for _, tt := range tests {
		if got := countWords(tt.s); got != tt.want {
			t.Errorf("countWords(%q) = %d, want %d", tt.s, got, tt.want)
		}
	}
}

func TestFold(t *testing.T) {
	for _, s := range []string{
		"### Phase 2 - Search-Backed Answer",
		"## Phase 2 — Search\u200b-Backed Answer",
		"**Phase\u00a02 – Search-Backed  Answer**",
	} {
		if fold(s) != fold(Phase2Header) {
			t.Errorf("fold(%q) = %q, want %q", s, fold(s), fold(Phase2Header))
		}
	}
	if fold("I haven't") != fold("I haven’t") {
		t.Error("fold does not equate straight and curly apostrophes")
	}
}
