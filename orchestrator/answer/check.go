package answer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/net/idna"

	"github.com/searchbench/searchbench/lib/jsonx"
	"github.com/searchbench/searchbench/lib/textdiff"
)

// Limits from the seed's contract.
const (
	MaxBullets     = 6
	MaxSources     = 6
	MaxBulletRunes = 160
	MaxBulletWords = 18
	// MinBullets is the seed's guidance for a normal success (a warning).
	MinBullets = 3
	// MinDomains is the number of independent registrable domains a bullet
	// should be backed by (a warning).
	MinDomains = 2
)

// envelopeResult is everything checkEnvelope learns; CheckPhase2 needs more
// than CheckEnvelope returns.
type envelopeResult struct {
	env      *Envelope
	findings []Finding
	// syntaxOffset is the byte offset of the JSON syntax error, read only
	// with the json.syntax finding.
	syntaxOffset int
	canonical    *textdiff.Mismatch // nil when render_markdown is canonical
}

// CheckEnvelope validates a Phase 2 JSON envelope against
// envelope.schema.json and the contract's rules, returning every problem
// found. The envelope is nil when raw is not a JSON object; a field of the
// wrong JSON type is left zero (and reported). Locations are JSON pointers,
// or "byte N" for a syntax error.
func CheckEnvelope(raw []byte) (*Envelope, []Finding) {
	r := checkEnvelope(raw)
	return r.env, r.findings
}

func checkEnvelope(raw []byte) envelopeResult {
	var res envelopeResult
	doc, err := decodeDoc(raw)
	if err != nil {
		res.syntaxOffset = syntaxOffset(raw, err)
		res.findings = append(res.findings, finding("json.syntax", fmt.Sprintf("byte %d", res.syntaxOffset),
			"the envelope is not valid JSON: "+err.Error()))
		return res
	}
	res.findings = append(res.findings, duplicateKeys(raw)...)
	schemaFindings := validateSchema(doc)
	res.findings = append(res.findings, schemaFindings...)
	res.env = envelopeFrom(doc)
	if res.env == nil {
		return res
	}
	res.findings = append(res.findings, checkRules(res.env)...)
	fs, canon := checkConsistency(res.env, raw)
	res.canonical = canon
	// A missing or mistyped field reads as empty, so comparing the envelope
	// as a whole would report the schema error again as a different one.
	broken := slices.ContainsFunc(schemaFindings, func(f Finding) bool {
		return f.Code == "schema.type" || f.Code == "schema.required"
	})
	if !broken {
		res.findings = append(res.findings, fs...)
	}
	return res
}

// decodeDoc decodes raw as jsonschema.UnmarshalJSON does (UseNumber, no
// trailing data), reading the usual envelope in one pass and leaving
// anything else, errors included, to that function.
func decodeDoc(raw []byte) (any, error) {
	r := jsonx.NewReader(raw)
	if doc, ok := r.Any(); ok && r.End() {
		return doc, nil
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(raw))
}

// syntaxOffset finds where decoding failed: the decoder's offset for a
// syntax error, the end of the first value for trailing data.
func syntaxOffset(raw []byte, err error) int {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return int(se.Offset)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return len(raw)
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	var v any
	if d.Decode(&v) == nil {
		return int(d.InputOffset())
	}
	return 0
}

// duplicateKeys reports every repeated object key of raw, in document
// order. raw is known to be valid JSON (it decoded), so a plain scan does:
// encoding/json's token reader, used before, cost more than the decoding.
func duplicateKeys(raw []byte) []Finding {
	d := dupScanner{in: raw}
	d.value()
	return d.fs
}

// dupScanner walks valid JSON, remembering the path to the current value.
// On anything unexpected it stops, keeping what it found.
type dupScanner struct {
	in   []byte
	pos  int
	path []pathElem
	fs   []Finding
	bad  bool
}

// pathElem is an object key (decoded) or, when key is nil, an array index.
type pathElem struct {
	key []byte
	idx int
}

func (d *dupScanner) pointer(last []byte) string {
	tokens := make([]string, 0, len(d.path)+1)
	for _, e := range d.path {
		if e.key == nil {
			tokens = append(tokens, strconv.Itoa(e.idx))
		} else {
			tokens = append(tokens, string(e.key))
		}
	}
	return pointer(append(tokens, string(last))...)
}

func (d *dupScanner) ws() {
	for d.pos < len(d.in) {
		switch d.in[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

// next skips white space and returns the next byte, or 0 at the end.
func (d *dupScanner) next() byte {
	d.ws()
	if d.pos >= len(d.in) {
		d.bad = true
		return 0
	}
	return d.in[d.pos]
}

func (d *dupScanner) value() {
	switch d.next() {
	case '{':
		d.object()
	case '[':
		d.array()
	case '"':
		d.skipStr() // only keys are compared: a value string is not decoded
	default: // a number or literal: up to the next delimiter
		for d.pos < len(d.in) {
			switch d.in[d.pos] {
			case ',', ']', '}', ' ', '\t', '\r', '\n':
				return
			}
			d.pos++
		}
	}
}

func (d *dupScanner) object() {
	d.pos++ // {
	var keys [][]byte
	if d.next() == '}' {
		d.pos++
		return
	}
	for !d.bad {
		if d.next() != '"' {
			d.bad = true
			return
		}
		k := d.str()
		if slices.ContainsFunc(keys, func(x []byte) bool { return bytes.Equal(x, k) }) {
			d.fs = append(d.fs, finding("json.duplicate_key", d.pointer(k),
				fmt.Sprintf("key %q appears more than once in this object", k)))
		}
		if k == nil {
			k = []byte{} // nil marks an array index in the path
		}
		keys = append(keys, k)
		if d.next() != ':' {
			d.bad = true
			return
		}
		d.pos++
		d.path = append(d.path, pathElem{key: k})
		d.value()
		d.path = d.path[:len(d.path)-1]
		switch d.next() {
		case ',':
			d.pos++
		case '}':
			d.pos++
			return
		default:
			d.bad = true
		}
	}
}

func (d *dupScanner) array() {
	d.pos++ // [
	if d.next() == ']' {
		d.pos++
		return
	}
	for i := 0; !d.bad; i++ {
		d.path = append(d.path, pathElem{idx: i})
		d.value()
		d.path = d.path[:len(d.path)-1]
		switch d.next() {
		case ',':
			d.pos++
		case ']':
			d.pos++
			return
		default:
			d.bad = true
		}
	}
}

// str reads the string at d.pos and returns it decoded as encoding/json
// decodes it: the bytes of the input when it holds no escape, else a copy.
func (d *dupScanner) str() []byte {
	start := d.pos
	escaped, ok := d.skipStr()
	if !ok {
		return nil
	}
	lit := d.in[start+1 : d.pos-1]
	if !escaped && utf8.Valid(lit) {
		return lit
	}
	var s string
	if err := json.Unmarshal(d.in[start:d.pos], &s); err != nil {
		d.bad = true
	}
	return []byte(s)
}

// skipStr moves past the string at d.pos and reports whether it holds an
// escape; ok is false (and d.bad set) when it is not closed.
func (d *dupScanner) skipStr() (escaped, ok bool) {
	i := d.pos + 1
	for ; i < len(d.in) && d.in[i] != '"'; i++ {
		if d.in[i] == '\\' {
			escaped = true
			i++
		}
	}
	if i >= len(d.in) {
		d.bad = true
		d.pos = len(d.in)
		return escaped, false
	}
	d.pos = i + 1
	return escaped, true
}

// envelopeFrom converts a generic JSON document into an Envelope. Keys match
// exactly (encoding/json would also accept "Data" or "RENDER_MARKDOWN");
// values of the wrong type become zero values at the same index, so JSON
// pointers stay valid. Absent arrays stay nil, present ones are non-nil.
func envelopeFrom(doc any) *Envelope {
	root, ok := doc.(map[string]any)
	if !ok {
		return nil
	}
	e := &Envelope{}
	data, _ := root["data"].(map[string]any)
	if bs, ok := data["bullets"].([]any); ok {
		e.Data.Bullets = make([]Bullet, len(bs))
		for i, v := range bs {
			m, _ := v.(map[string]any)
			b := Bullet{Text: str(m["text"]), Kind: str(m["kind"])}
			if ids, ok := m["source_ids"].([]any); ok {
				b.SourceIDs = make([]string, len(ids))
				for j, id := range ids {
					b.SourceIDs[j] = str(id)
				}
			}
			e.Data.Bullets[i] = b
		}
	}
	if ss, ok := data["sources"].([]any); ok {
		e.Data.Sources = make([]Source, len(ss))
		for i, v := range ss {
			m, _ := v.(map[string]any)
			pub, isString := m["published"].(string)
			e.Data.Sources[i] = Source{
				ID: str(m["id"]), Domain: str(m["domain"]), Title: str(m["title"]),
				URL: str(m["url"]), Published: pub, emptyPublished: isString && pub == "",
			}
		}
	}
	e.Data.RenderMarkdown = str(data["render_markdown"])
	er, _ := root["error"].(map[string]any)
	e.Error = Error{Code: str(er["code"]), Message: str(er["message"])}
	return e
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// checkRules applies the rules the schema cannot express to bullets and
// sources. Empty fields are skipped: the schema already reports them.
func checkRules(e *Envelope) []Finding {
	var fs []Finding
	add := func(code, loc, format string, args ...any) {
		fs = append(fs, finding(code, loc, fmt.Sprintf(format, args...)))
	}

	byID := map[string]int{}
	domains := make([]string, len(e.Data.Sources)) // registrable domain per source, "" if unknown
	seenURL := map[string]int{}
	for i, s := range e.Data.Sources {
		at := func(field string) string { return pointer("data", "sources", fmt.Sprint(i), field) }
		// Malformed ids still resolve, so a bad id is reported once (by
		// the schema), not again at every bullet citing it.
		if s.ID != "" {
			if j, dup := byID[s.ID]; dup {
				add("source.id_duplicate", at("id"), "id %q is also the id of source %d", s.ID, j+1)
			} else {
				byID[s.ID] = i
				if want := fmt.Sprintf("s%d", i+1); validID(s.ID) && s.ID != want {
					add("source.id_order", at("id"), "source %d is printed as \"%d.\" but has id %q (want %q)", i+1, i+1, s.ID, want)
				}
			}
		}
		if hasLineBreak(s.Title) {
			add("field.line_break", at("title"), "title %s contains a line break", quote(s.Title))
		}
		if r, ok := controlChar(s.Title); ok {
			add("field.control_char", at("title"), "title %s contains %U, a control or bidirectional formatting character", quote(s.Title), r)
		}
		if s.URL != "" {
			if hasLineBreak(s.URL) {
				add("field.line_break", at("url"), "url %s contains a line break", quote(s.URL))
			}
			canon, err := CanonicalURL(s.URL)
			switch {
			case err != nil:
				add("source.url_invalid", at("url"), "url %s is not an absolute http(s) URL with a host", quote(s.URL))
			case canon != s.URL:
				add("source.url_not_canonical", at("url"), "url %s has tracking parameters or a fragment; canonical form %s", quote(s.URL), quote(canon))
			}
			if err == nil {
				if j, dup := seenURL[canon]; dup {
					add("source.url_duplicate", at("url"), "source %d has the same url as source %d", i+1, j+1)
				} else {
					seenURL[canon] = i
				}
				reg, rerr := RegistrableDomain(s.URL)
				switch {
				case rerr != nil:
					add("source.domain_mismatch", at("domain"), "url has no registrable domain: %v", rerr)
				case s.Domain != "":
					domains[i] = reg
					checkDomain(s.Domain, reg, at("domain"), add)
				default:
					domains[i] = reg
				}
			}
		}
		if domains[i] == "" && s.Domain != "" {
			domains[i], _ = normalizeHost(s.Domain)
		}
		switch {
		case s.emptyPublished:
			add("source.published_empty", at("published"), `published is "", which is not a timestamp: an unknown date is left out (or null), not empty`)
		case s.Published != "" && !ValidRFC3339(s.Published):
			add("source.published_invalid", at("published"), "published %s is not an RFC 3339 timestamp (e.g. 2024-05-01T12:00:00Z)", quote(s.Published))
		}
	}

	cited := make([]bool, len(e.Data.Sources))
	for i, b := range e.Data.Bullets {
		at := func(field ...string) string {
			return pointer(append([]string{"data", "bullets", fmt.Sprint(i)}, field...)...)
		}
		if hasLineBreak(b.Text) {
			add("field.line_break", at("text"), "bullet text %s contains a line break", quote(b.Text))
		}
		if r, ok := controlChar(b.Text); ok {
			add("field.control_char", at("text"), "bullet text %s contains %U, a control or bidirectional formatting character", quote(b.Text), r)
		}
		if n := countWords(b.Text); n > MaxBulletWords {
			add("bullet.too_many_words", at("text"), "bullet text has %d words, max %d", n, MaxBulletWords)
		}
		if b.SourceIDs != nil && len(b.SourceIDs) == 0 {
			add("bullet.no_sources", at("source_ids"), "bullet %d cites no source", i+1)
			continue
		}
		seen := map[string]bool{}
		doms := map[string]bool{}
		for j, id := range b.SourceIDs {
			k, ok := byID[id]
			switch {
			case seen[id]:
				add("bullet.source_repeated", at("source_ids", fmt.Sprint(j)), "source id %q is cited twice", id)
			case !ok:
				add("bullet.source_unknown", at("source_ids", fmt.Sprint(j)), "source id %q is not the id of any source", id)
			default:
				cited[k] = true
				if domains[k] != "" {
					doms[domains[k]] = true
				}
			}
			seen[id] = true
		}
		// With no source resolved, bullet.source_unknown has said it all.
		if len(doms) > 0 && len(doms) < MinDomains {
			add("bullet.few_domains", at("source_ids"), "bullet %d is backed by %d registrable domain(s); %d independent ones are advised", i+1, len(doms), MinDomains)
		}
	}
	if len(e.Data.Bullets) > 0 {
		for i, c := range cited {
			if !c {
				add("source.uncited", pointer("data", "sources", fmt.Sprint(i)), "source %d (%s) is cited by no bullet", i+1, e.Data.Sources[i].ID)
			}
		}
	}
	return fs
}

// validID reports whether id has the form s<N>, N ≥ 1 without leading zeros.
func validID(id string) bool {
	if len(id) < 2 || id[0] != 's' || id[1] == '0' {
		return false
	}
	for _, c := range id[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// checkDomain compares a source's domain field with the registrable domain
// of its url (ASCII form). The U-label form of the same domain is accepted
// as written; other spellings that normalise to it (case, trailing dot) are
// a warning; anything else is a mismatch.
func checkDomain(domain, reg, loc string, add func(code, loc, format string, args ...any)) {
	if domain == reg {
		return
	}
	if u, err := idna.ToUnicode(reg); err == nil && domain == u {
		return
	}
	if n, err := normalizeHost(domain); err == nil && n == reg {
		add("source.domain_form", loc, "domain %s should be written %s", quote(domain), quote(reg))
		return
	}
	add("source.domain_mismatch", loc, "domain %s is not the registrable domain of the url (%s)", quote(domain), reg)
}

// checkConsistency checks error.code against the rest of the envelope and
// render_markdown against the canonical rendering. It returns the canonical
// mismatch, if any, for the report.
func checkConsistency(e *Envelope, raw []byte) ([]Finding, *textdiff.Mismatch) {
	var fs []Finding
	rm := e.Data.RenderMarkdown
	canon := textdiff.CompareNamed("canonical", "data.render_markdown", Canonical(*e), rm)
	inconsistent := func(loc, msg string) {
		fs = append(fs, finding("error.inconsistent", loc, msg))
	}
	switch e.Error.Code {
	case CodeNone:
		if e.Error.Message != "" {
			inconsistent("/error/message", fmt.Sprintf("code NONE needs an empty message, got %s", quote(e.Error.Message)))
		}
		switch n := len(e.Data.Bullets); {
		case n == 0:
			fs = append(fs, finding("answer.empty", "/data/bullets", "code NONE with no bullets; an answer without evidence is INSUFFICIENT_EVIDENCE"))
		case n < MinBullets:
			fs = append(fs, finding("answer.few_bullets", "/data/bullets", fmt.Sprintf("%d bullet(s); a normal success has %d–%d", n, MinBullets, MaxBullets)))
		}
		if canon != nil {
			f := finding("markdown.not_canonical", "/data/render_markdown",
				"render_markdown is not the canonical rendering of bullets and sources (positions within render_markdown): "+canon.String())
			f.Diff = canon.Diff
			fs = append(fs, f)
		}
	case CodeSchemaViolation, CodeInsufficientEvidence:
		want := InsufficientEvidence()
		if e.Error.Code == CodeSchemaViolation {
			want = SchemaViolation(e.Error.Message)
			if e.Error.Message == "" {
				inconsistent("/error/message", "SCHEMA_VIOLATION needs a reason in error.message")
			}
		} else if e.Error.Message != want.Error.Message {
			inconsistent("/error/message", fmt.Sprintf("INSUFFICIENT_EVIDENCE needs the message %q, got %s", want.Error.Message, quote(e.Error.Message)))
		}
		if len(e.Data.Bullets) > 0 {
			inconsistent("/data/bullets", fmt.Sprintf("%s needs no bullets, got %d", e.Error.Code, len(e.Data.Bullets)))
		}
		if len(e.Data.Sources) > 0 {
			inconsistent("/data/sources", fmt.Sprintf("%s needs no sources, got %d", e.Error.Code, len(e.Data.Sources)))
		}
		if rm != want.Data.RenderMarkdown {
			f := finding("error.inconsistent", "/data/render_markdown",
				fmt.Sprintf("%s needs render_markdown %q, got %s", e.Error.Code, want.Data.RenderMarkdown, quote(truncateRunes(rm, 60))))
			if canon != nil {
				f.Diff = canon.Diff
			}
			fs = append(fs, f)
		}
		if len(fs) == 0 && e.Data.Bullets != nil && e.Data.Sources != nil {
			exact := string(Marshal(want))
			got := string(bytes.TrimSpace(raw))
			if m := textdiff.CompareNamed("seed", "envelope", exact, got); m != nil {
				f := finding("error.failure_not_exact", "",
					fmt.Sprintf("the %s envelope must be byte for byte the seed's compact JSON; %s", e.Error.Code, m))
				f.Diff = m.Diff
				fs = append(fs, f)
			}
		}
	}
	return fs, canon
}
