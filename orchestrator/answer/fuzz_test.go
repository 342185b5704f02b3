package answer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// FuzzCheckPhase2 feeds arbitrary messages to the Phase 2 checker. Beyond
// not panicking, a message with no violation must follow the layout
// exactly: nothing that drifts from it may pass.
func FuzzCheckPhase2(f *testing.F) {
	f.Add(FormatPhase2(VerificationConfirmed, InsufficientEvidence()))
	f.Add(FormatPhase2(VerificationSkipped, SchemaViolation("bad")))
	f.Add(Phase2Header + "\nVerification: x\n\n- a\n\nSources:\n1. T (https://a.org/)\n\n```json\n{}\n```\n")
	f.Fuzz(func(t *testing.T, msg string) {
		rep := CheckPhase2(msg)
		for _, x := range rep.Findings {
			if x.Severity != severityOf(x.Code) {
				t.Fatalf("finding %+v has the wrong severity", x)
			}
			if strings.Contains(x.Message, "does not follow the layout") {
				t.Fatalf("checkPrinted's safety net fired: a layout drift was not explained: %q", msg)
			}
		}
		if HasViolation(rep.Findings) {
			return
		}
		if rep.Envelope == nil || !rep.MarkdownMatches || !rep.CanonicalMatches {
			t.Fatalf("no violation but envelope=%v markdown=%v canonical=%v", rep.Envelope != nil, rep.MarkdownMatches, rep.CanonicalMatches)
		}
		head := Phase2Header + "\n" + VerificationPrefix + rep.Verification + "\n\n" + printedBlock(rep.Envelope.Data.RenderMarkdown) + "```json\n"
		if !strings.HasPrefix(msg, head) {
			t.Fatalf("no violation but the message does not start with the layout:\n%q\nwant prefix\n%q", msg, head)
		}
		if !strings.HasSuffix(msg, "\n```") && !strings.HasSuffix(msg, "\n```\n") {
			t.Fatalf("no violation but the message does not end with the closing fence: %q", msg)
		}
	})
}

// FuzzRender checks that rendering is stable through the JSON round trip:
// an envelope parsed from arbitrary JSON, rebuilt with Success, marshalled,
// parsed again and rendered gives the same markdown, and a Phase 2 message
// formatted from it reads back as matching.
func FuzzRender(f *testing.F) {
	f.Add([]byte(`{"data":{"bullets":[{"text":"a","source_ids":["s1"]}],"sources":[{"id":"s1","domain":"a.org","title":"T","url":"https://a.org/"}],"render_markdown":""},"error":{"code":"NONE","message":""}}`))
	f.Add(Marshal(InsufficientEvidence()))
	f.Fuzz(func(t *testing.T, raw []byte) {
		env, _ := CheckEnvelope(raw)
		if env == nil {
			return
		}
		r := Render(env.Data.Bullets, env.Data.Sources)
		e2 := Success(env.Data.Bullets, env.Data.Sources)
		if e2.Data.RenderMarkdown != r {
			t.Fatalf("Success render %q != Render %q", e2.Data.RenderMarkdown, r)
		}
		env3, fs := CheckEnvelope(Marshal(e2))
		if env3 == nil {
			t.Fatalf("Marshal output does not parse back: %v", fs)
		}
		if got := Render(env3.Data.Bullets, env3.Data.Sources); got != r {
			t.Fatalf("render after round trip = %q, want %q", got, r)
		}
		if !reflect.DeepEqual(*env3, e2) {
			t.Fatalf("round trip changed the envelope:\n%+v\n%+v", *env3, e2)
		}
		for _, b := range e2.Data.Bullets {
			if strings.Contains(b.Text, "\n") {
				return // a multi-line field breaks the layout by design (field.line_break)
			}
		}
		for _, s := range e2.Data.Sources {
			if strings.Contains(s.Title+s.URL, "\n") {
				return
			}
		}
		rep := CheckPhase2(FormatPhase2(VerificationConfirmed, e2))
		if !rep.MarkdownMatches || !rep.CanonicalMatches || rep.Verification != VerificationConfirmed ||
			rep.Envelope == nil || !reflect.DeepEqual(*rep.Envelope, e2) {
			t.Fatalf("formatted message does not read back: %+v", rep)
		}
	})
}

// FuzzCheckPhase1 feeds arbitrary messages to the Phase 1 checker: no
// panic, and no violation only when the header opens the message and the
// consent question closes it.
func FuzzCheckPhase1(f *testing.F) {
	f.Add(Phase1Header + "\nAn answer.\n\n" + ConsentQuestion + "\n")
	f.Add("I haven't searched the web yet.")
	f.Fuzz(func(t *testing.T, msg string) {
		fs := CheckPhase1(msg)
		if HasViolation(fs) {
			return
		}
		body := strings.TrimSuffix(msg, "\n")
		if !strings.HasPrefix(msg, Phase1Header+"\n") || !strings.HasSuffix(body, "\n\n"+ConsentQuestion) {
			t.Fatalf("no violation for %q", msg)
		}
	})
}

// FuzzCanonicalURL checks that canonicalising is idempotent and that the
// URL helpers never panic.
func FuzzCanonicalURL(f *testing.F) {
	for _, u := range []string{"https://example.org/a?utm_source=x&b=1#f", "http://[::1]:80/?", "https://bücher.de/?&&"} {
		f.Add(u)
	}
	f.Fuzz(func(t *testing.T, u string) {
		_, _ = RegistrableDomain(u)
		c, err := CanonicalURL(u)
		if err != nil {
			return
		}
		c2, err := CanonicalURL(c)
		if err != nil || c2 != c {
			t.Fatalf("CanonicalURL not idempotent: %q -> %q -> %q (%v)", u, c, c2, err)
		}
	})
}

// FuzzDuplicateKeys checks the duplicate-key scan against encoding/json's
// token reader, which it replaced for speed, on every valid JSON document.
func FuzzDuplicateKeys(f *testing.F) {
	f.Add(`{"a":1,"a":2}`)
	f.Add(`{"data":{"bullets":[{"text":"x","text":"y"}],"sources":[]},"error":{"code":"NONE","code":"NONE"}}`)
	f.Add(`[{"k\u0041":1,"kA":2},{"\ud800":1,"\ufffd":2}]`)
	f.Add(" { \"a\" : [ 1 , -2.5e3 , true , null , \"s\\\"\" ] , \"b/~\" : { } , \"b/~\" : [ ] } ")
	f.Fuzz(func(t *testing.T, doc string) {
		if !json.Valid([]byte(doc)) {
			return
		}
		got, want := duplicateKeys([]byte(doc)), duplicateKeysByTokens([]byte(doc))
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("duplicateKeys(%q)\n got %+v\nwant %+v", doc, got, want)
		}
	})
}

// duplicateKeysByTokens is the reference: a walk over encoding/json tokens.
func duplicateKeysByTokens(raw []byte) []Finding {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var fs []Finding
	var walk func(path []string) error
	walk = func(path []string) error {
		tok, err := d.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]bool{}
			for d.More() {
				kt, err := d.Token()
				if err != nil {
					return err
				}
				k, _ := kt.(string)
				if seen[k] {
					fs = append(fs, finding("json.duplicate_key", pointer(append(path, k)...),
						fmt.Sprintf("key %q appears more than once in this object", k)))
				}
				seen[k] = true
				if err := walk(append(path, k)); err != nil {
					return err
				}
			}
			_, err = d.Token()
			return err
		case json.Delim('['):
			for i := 0; d.More(); i++ {
				if err := walk(append(path, fmt.Sprint(i))); err != nil {
					return err
				}
			}
			_, err = d.Token()
			return err
		}
		return nil
	}
	_ = walk(nil)
	return fs
}
