package answer

// Tests that kill the mutants gremlins found alive in this package
// (gremlins unleash --workers 2 ./orchestrator/answer; see README,
// Development).
//
// Before these tests (gremlins v0.6.0, 2026-11-25): 376 killed, 68 lived,
// 52 not covered: 84.68% efficacy. After them: 411 killed, 10 lived (the
// equivalent ones below), 52 not covered, 6 timed out: 97.62%.
// Redundant code was simplified rather than explained: initial values
// never read (envelopeResult.syntaxOffset, CheckPhase2's jsonLine,
// checkVerification's bestN) are plain zero values; CheckPhase1's exact
// search for the question stops with a break, slices the body without a
// max that could never change it, and counts the blank lines before the
// question without a bound that the body's first text line already sets;
// CanonicalURL and the schema location cut at '#' and '?' with
// strings.Cut; invisibleIn's printable-ASCII test includes the space.
//
// Equivalent mutants, left alive on purpose:
//   - check.go dupScanner ws, next and str, CONDITIONALS_BOUNDARY on
//     `d.pos < len(d.in)`, `d.pos >= len(d.in)`, `i < len(d.in)` and
//     `i >= len(d.in)`: duplicateKeys scans only JSON that decoded, where
//     white space is always followed by a token inside a container and
//     every string is closed, so the scanner never stands at the end of
//     the input there.
//   - phase1.go CheckPhase1, CONDITIONALS_BOUNDARY on `c >= 0` in the
//     test for blank lines before the question: c == 0 only without a header
//     (h == -1), and then the body ls[0:0] is empty and `lead < len(body)`
//     is false either way.
//   - phase2.go CheckPhase2, CONDITIONALS_BOUNDARY on the `fence >= 0`
//     passed to checkPrinted as fenced: a fence on line 1 leaves no room
//     for a Verification line before it, so verified is false, the region
//     is empty, and checkPrinted reads fenced only together with verified
//     or with content.
//   - phase2.go findHeader, CONDITIONALS_BOUNDARY on `h < 0`: when the
//     exact header is line 1, the look-alike search finds line 1 again.
//   - phase2.go checkVerification, ARITHMETIC_BASE on `n = len(ft) + 1`:
//     the loop already gives the sentence that folds equal n == len(ft),
//     and no other allowed sentence shares more than its first 29 folded
//     bytes, so len(ft)-1 still wins.
//   - phase2.go checkFence, CONDITIONALS_BOUNDARY on `closing < 0`: a
//     closing fence is searched from f+1 ≥ 1, so closing is never 0.
//   - phase2.go checkPrinted, CONDITIONALS_BOUNDARY on `i < lead`: line
//     lead is the first content line, never blank, so including it in the
//     blank-line check reports nothing more.

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// described lists findings as "code@location: message".
func described(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Code+"@"+f.Location+": "+f.Message)
	}
	return out
}

// cleanEnvelope is a success envelope that breaks no rule: three bullets,
// each backed by exactly MinDomains registrable domains.
func cleanEnvelope() Envelope {
	ids := []string{"s1", "s2"}
	return Success([]Bullet{{Text: "One.", SourceIDs: ids}, {Text: "Two.", SourceIDs: ids}, {Text: "Three.", SourceIDs: ids}},
		[]Source{{ID: "s1", Domain: "a.org", Title: "A", URL: "https://a.org/"}, {ID: "s2", Domain: "b.org", Title: "B", URL: "https://b.org/"}})
}

var (
	missingHeader1 = fmt.Sprintf("header.missing@line 1: no header line %q", Phase1Header)
	missingConsent = func(line int) string {
		return fmt.Sprintf("consent.missing@line %d: Phase 1 must end with the consent question %q", line, ConsentQuestion)
	}
	emptyBody = func(line int) string {
		return fmt.Sprintf("body.empty@line %d: no answer between the header and the consent question", line)
	}
	sharedConsent = func(line int, text string) string {
		return fmt.Sprintf("consent.mismatch@line %d: the consent question must be on a line of its own, after a blank line; it shares %s", line, quote(text))
	}
)

// TestPhase1Degenerate: messages with parts missing, down to the empty
// message, get every applicable finding and nothing else (and never panic).
func TestPhase1Degenerate(t *testing.T) {
	for _, tt := range []struct {
		name, msg string
		want      []string
	}{
		{"empty", "", []string{missingHeader1, missingConsent(1), emptyBody(1)}},
		{"only blank lines", "\n\n", []string{missingHeader1, missingConsent(1), emptyBody(1)}},
		{"no header, no question", "Just an answer.", []string{missingHeader1, missingConsent(1)}},
		{"only the question", ConsentQuestion, []string{missingHeader1, emptyBody(1)}},
		// One newline ends the header line; the blank line after it is
		// not "after the consent question": there is none.
		{"header and a blank line", Phase1Header + "\n\n", []string{missingConsent(1), emptyBody(2)}},
		{"header and answer, no question", Phase1Header + "\n\nAnswer.", []string{missingConsent(3)}},
		{"no body", Phase1Header + "\n" + ConsentQuestion, []string{emptyBody(2)}},
		// Only blank lines between header and question: the body is
		// empty, which says it all; the blank lines are not counted.
		{"blank body", Phase1Header + "\n\n\n\n" + ConsentQuestion, []string{emptyBody(2)}},
		// Text after the question on its line is not answer text.
		{"text after the question", Phase1Header + "\n\n" + ConsentQuestion + " Thanks!",
			[]string{sharedConsent(3, ConsentQuestion+" Thanks!"), emptyBody(2)}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := described(CheckPhase1(tt.msg)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("CheckPhase1(%q) =\n%s\nwant\n%s", tt.msg, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestPhase1AnswerSharingTheQuestionLine: answer text before the question
// on the question's line is a paragraph of the body, located on that line,
// and only its own words count against the paragraph limit.
func TestPhase1AnswerSharingTheQuestionLine(t *testing.T) {
	words := func(n int) string { return strings.TrimSpace(strings.Repeat("word ", n)) }
	for _, n := range []int{MaxParagraphWords, MaxParagraphWords + 1} {
		line := words(n) + " " + ConsentQuestion
		want := []string{sharedConsent(3, line)}
		if n > MaxParagraphWords {
			want = append(want, fmt.Sprintf("body.paragraph_long@line 3: paragraph of %d words; a short paragraph has at most %d", n, MaxParagraphWords))
		}
		if got := described(CheckPhase1(Phase1Header + "\n\n" + line)); !reflect.DeepEqual(got, want) {
			t.Errorf("%d words before the question:\n%s\nwant\n%s", n, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// TestPhase1NamesEveryTool: each search tool named on a line is listed.
func TestPhase1NamesEveryTool(t *testing.T) {
	got := described(CheckPhase1(Phase1Header + "\nAsk Tavily or Exa.\n\n" + ConsentQuestion))
	want := []string{`tools.mentioned@line 2: Phase 1 names Tavily, Exa; say "search the web" or "look it up" instead`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("findings = %q, want %q", got, want)
	}
}

// TestControlCharactersAreInvisible: BEL and DEL (the last ASCII code) are
// control characters and reported; tab and space are not.
func TestControlCharactersAreInvisible(t *testing.T) {
	got := described(CheckPhase1(Phase1Header + "\nA\x07b\x7fc\td e\n\n" + ConsentQuestion))
	want := []string{"text.invisible@line 2: invisible characters: ‹U+0007› ‹U+007F›"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("findings = %q, want %q", got, want)
	}
}

// phase2Case is a Phase 2 message and what CheckPhase2 must make of it.
type phase2Case struct {
	name, msg string
	want      []string // described findings
	printed   string
	envelope  bool
}

func (tt phase2Case) check(t *testing.T) {
	t.Helper()
	rep := CheckPhase2(tt.msg)
	if got := described(rep.Findings); !reflect.DeepEqual(got, tt.want) {
		t.Errorf("%s: findings =\n%s\nwant\n%s", tt.name, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
	}
	if rep.Printed != tt.printed || (rep.Envelope != nil) != tt.envelope {
		t.Errorf("%s: Printed = %q, Envelope = %v; want %q, envelope %v", tt.name, rep.Printed, rep.Envelope, tt.printed, tt.envelope)
	}
}

// TestPhase2Structure: each part of a Phase 2 message is looked for only
// where the layout puts it, and located exactly when it is out of place.
func TestPhase2Structure(t *testing.T) {
	e := cleanEnvelope()
	good := FormatPhase2(VerificationConfirmed, e)
	rm := e.Data.RenderMarkdown
	json := string(Marshal(e))
	verification := VerificationPrefix + VerificationConfirmed
	for _, tt := range []phase2Case{
		{"good", good, nil, rm, true},
		// The fence on the first line: the envelope is still read, and a
		// Verification line after it does not count.
		{"fence first, verification after it", "```json\n" + json + "\n```\n" + verification, []string{
			fmt.Sprintf("header.missing@line 1: no header line %q", Phase2Header),
			`verification.missing@line 1: no "Verification: <sentence>" line after the header`,
			`markdown.mismatch@line 1: printed markdown differs from data.render_markdown (positions within the markdown): first difference at byte 0 (line 1, col 1): want "- One.⏎", got ""`,
			`layout.stray_text@line 4: "Verification: Phase 1 answer is confirme…" after the closing fence; only one newline may follow it`,
		}, "", true},
		{"neither verification nor fence", Phase2Header + "\nhello", []string{
			`verification.missing@line 2: no "Verification: <sentence>" line after the header`,
			"json.missing@line 3: no ```json fenced block with the envelope",
		}, "hello", false},
		{"stray line before the verification", strings.Replace(good, "\nVerification", "\nstray\nVerification", 1), []string{
			"layout.stray_text@line 2: 1 line(s) between the header and the Verification line; it must follow the header directly",
		}, rm, true},
		// Without a header, the Verification line on line 1 is still the
		// anchor the printed block is measured from.
		{"verification first, no blank line after it", strings.Replace(strings.TrimPrefix(good, Phase2Header+"\n"), "results.\n\n", "results.\n", 1), []string{
			fmt.Sprintf("header.missing@line 1: no header line %q", Phase2Header),
			"layout.blank_lines@line 2: 0 blank line(s) after the Verification line, want 1",
		}, rm, true},
		// A bare ``` opening fence is reported, and the block it opens
		// still ends at the next ``` line.
		{"bare opening fence", strings.Replace(good, "```json", "```", 1), []string{
			"json.fence@line 12: fence line is \"```\", want \"```json\"",
		}, rm, true},
		{"unclosed fence, syntax error on its last line", Phase2Header + "\n" + verification + "\n\n```json\n{\"data\":\n\"x\"", []string{
			"json.fence@line 4: the ```json block is never closed with ```",
			"json.syntax@line 6: the envelope is not valid JSON: unexpected EOF",
		}, "", false},
		{"white space on the blank line before the fence", strings.Replace(good, "\n\n```json", "\n \n```json", 1), []string{
			`layout.blank_lines@line 11: blank line contains "␠"; it must be empty`,
		}, rm, true},
		{"white space on the blank line after the verification", strings.Replace(good, "results.\n\n", "results.\n\t\n", 1), []string{
			`layout.blank_lines@line 3: blank line contains "→"; it must be empty`,
		}, rm, true},
		// With the envelope unreadable, a block ending in "Sources:" gets
		// its newline back, any other is taken as printed.
		{"no printed block, envelope unreadable", Phase2Header + "\n" + verification + "\n\n```json\n{\"data\":1\n```", []string{
			"json.syntax@line 5: the envelope is not valid JSON: unexpected EOF",
		}, "", false},
		{"block ending in Sources:, envelope unreadable", Phase2Header + "\n" + verification + "\n\n- A.\n\nSources:\n\n```json\n{\"data\":\n```", []string{
			"json.syntax@line 9: the envelope is not valid JSON: unexpected EOF",
		}, "- A.\n\nSources:\n", false},
		{"block ending in a bullet, envelope unreadable", Phase2Header + "\n" + verification + "\n\n- A.\n\n```json\n{\"data\":\n```", []string{
			"json.syntax@line 7: the envelope is not valid JSON: unexpected EOF",
		}, "- A.", false},
		// Stray text after the closing fence is quoted up to 40 runes.
		{"40 runes after the fence", good + "\n" + strings.Repeat("é", 40), []string{
			fmt.Sprintf("layout.stray_text@line 15: %q after the closing fence; only one newline may follow it", strings.Repeat("é", 40)),
		}, rm, true},
		{"41 runes after the fence", good + "\n" + strings.Repeat("é", 41), []string{
			fmt.Sprintf("layout.stray_text@line 15: %q after the closing fence; only one newline may follow it", strings.Repeat("é", 40)+"…"),
		}, rm, true},
	} {
		tt.check(t)
	}
}

// TestVerificationClosestSentence: an invalid Verification line is
// compared with the allowed sentence it is closest to, whichever of the
// three that is, including truncated and extended ones.
func TestVerificationClosestSentence(t *testing.T) {
	good := FormatPhase2(VerificationConfirmed, cleanEnvelope())
	for _, tt := range []struct{ printed, closest string }{
		{"Phase 1 answer is confirmed", VerificationConfirmed},
		{VerificationConfirmed + " Definitely.", VerificationConfirmed},
		{"Phase 1 answer requires correction", VerificationCorrected},
		{strings.Replace(VerificationSkipped, "skipped", "skiped", 1), VerificationSkipped},
		{VerificationSkipped + " Really.", VerificationSkipped},
		{strings.ToUpper(VerificationCorrected), VerificationCorrected},
	} {
		rep := CheckPhase2(strings.Replace(good, VerificationConfirmed, tt.printed, 1))
		if len(rep.Findings) != 1 || rep.Findings[0].Code != "verification.invalid" ||
			!strings.Contains(rep.Findings[0].Message, fmt.Sprintf("closest is %q:", tt.closest)) {
			t.Errorf("Verification: %s\nfindings %q; want one verification.invalid, closest %q", tt.printed, described(rep.Findings), tt.closest)
		}
		if rep.Verification != tt.printed {
			t.Errorf("Verification = %q, want %q", rep.Verification, tt.printed)
		}
	}
}

// TestEnvelopeNotAnObject: a JSON scalar or array is a schema error, the
// whole document's, and nothing else.
func TestEnvelopeNotAnObject(t *testing.T) {
	for raw, typ := range map[string]string{"1": "number", "-1.5e3": "number", "true": "boolean", "null": "null", `"x"`: "string", "[1, 2]": "array"} {
		env, fs := CheckEnvelope([]byte(raw))
		want := []string{"schema.type@: got " + typ + ", want object"}
		if got := described(fs); env != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("CheckEnvelope(%s) = %v, %q; want nil, %q", raw, env, got, want)
		}
	}
}

// TestEnvelopeDomainsAndIDs: two registrable domains per bullet are
// enough; well-formed ids with more than one digit, or the digit 9, that
// are not the source's number are reported as out of order (a malformed
// id is the schema's to report, once).
func TestEnvelopeDomainsAndIDs(t *testing.T) {
	if _, fs := CheckEnvelope(Marshal(cleanEnvelope())); len(fs) != 0 {
		t.Errorf("two domains per bullet: %q, want no finding", described(fs))
	}
	ids := []string{"s9", "s10"}
	e := Success([]Bullet{{Text: "One.", SourceIDs: ids}, {Text: "Two.", SourceIDs: ids}, {Text: "Three.", SourceIDs: ids}},
		[]Source{{ID: "s9", Domain: "a.org", Title: "A", URL: "https://a.org/"}, {ID: "s10", Domain: "b.org", Title: "B", URL: "https://b.org/"}})
	want := []string{
		`source.id_order@/data/sources/0/id: source 1 is printed as "1." but has id "s9" (want "s1")`,
		`source.id_order@/data/sources/1/id: source 2 is printed as "2." but has id "s10" (want "s2")`,
	}
	if _, fs := CheckEnvelope(Marshal(e)); !reflect.DeepEqual(described(fs), want) {
		t.Errorf("ids s9, s10:\n%s\nwant\n%s", strings.Join(described(fs), "\n"), strings.Join(want, "\n"))
	}
}

// TestRFC3339OffsetBounds: the largest offsets RFC 3339 allows (hours up
// to 23, minutes up to 59) are valid, one more is not.
func TestRFC3339OffsetBounds(t *testing.T) {
	for s, want := range map[string]bool{
		"1996-12-19T16:39:57+23:59": true,
		"1996-12-19T16:39:57-20:00": true,
		"1996-12-19T16:39:57+05:50": true,
		"1996-12-19T16:39:57+24:00": false,
		"1996-12-19T16:39:57+30:00": false,
		"1996-12-19T16:39:57+05:60": false,
	} {
		if got := ValidRFC3339(s); got != want {
			t.Errorf("ValidRFC3339(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestUnknownSourceSaysItAll: a bullet whose only source is unknown gets
// bullet.source_unknown, not also a count of its (zero) domains.
func TestUnknownSourceSaysItAll(t *testing.T) {
	e := cleanEnvelope()
	e.Data.Bullets[2].SourceIDs = []string{"s9"}
	e = Success(e.Data.Bullets, e.Data.Sources)
	want := []string{`bullet.source_unknown@/data/bullets/2/source_ids/0: source id "s9" is not the id of any source`}
	if _, fs := CheckEnvelope(Marshal(e)); !reflect.DeepEqual(described(fs), want) {
		t.Errorf("findings = %q, want %q", described(fs), want)
	}
}

// TestStrayLinesCountedFromALateHeader: the lines between the header and
// the Verification line are counted from the header, wherever it is.
func TestStrayLinesCountedFromALateHeader(t *testing.T) {
	good := FormatPhase2(VerificationConfirmed, cleanEnvelope())
	msg := "\n\n" + strings.Replace(good, "\nVerification", "\nstray\nVerification", 1)
	want := []string{
		"header.not_first@line 1: 2 blank line(s) before the header; the message must start with it",
		"layout.stray_text@line 4: 1 line(s) between the header and the Verification line; it must follow the header directly",
	}
	if got := described(CheckPhase2(msg).Findings); !reflect.DeepEqual(got, want) {
		t.Errorf("findings =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
