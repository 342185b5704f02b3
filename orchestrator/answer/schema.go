package answer

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// SchemaURL is the $id of envelope.schema.json.
const SchemaURL = "https://github.com/searchbench/searchbench/orchestrator/answer/envelope.schema.json"

//go:embed envelope.schema.json
var schemaJSON []byte

// SchemaJSON returns the JSON Schema (draft 2020-12) of the envelope, the
// file envelope.schema.json in this package.
func SchemaJSON() []byte { return bytes.Clone(schemaJSON) }

// compiledSchema compiles the embedded schema once, on first use. The schema
// is part of the binary and covered by tests, so failing to compile it is a
// programming error.
var compiledSchema = sync.OnceValue(func() *jsonschema.Schema {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		panic(fmt.Errorf("answer: envelope.schema.json: %w", err))
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(SchemaURL, doc); err != nil {
		panic(fmt.Errorf("answer: envelope.schema.json: %w", err))
	}
	sch, err := c.Compile(SchemaURL)
	if err != nil {
		panic(fmt.Errorf("answer: envelope.schema.json: %w", err))
	}
	return sch
})

// schemaCodes names the schema keywords that carry one of the contract's
// own rules, so they report that rule's code instead of a generic one. Keys
// are keyword locations inside envelope.schema.json.
var schemaCodes = map[string]string{
	"/properties/data/properties/bullets/maxItems": "bullets.too_many",
	"/properties/data/properties/sources/maxItems": "sources.too_many",
	"/$defs/bullet/properties/text/maxLength":      "bullet.too_long",
	"/$defs/bullet/properties/kind/enum":           "bullet.kind_invalid",
	"/$defs/source/properties/id/pattern":          "source.id_invalid",
	"/properties/error/properties/code/enum":       "error.code_invalid",
}

var printer = message.NewPrinter(language.English)

// validateSchema validates a decoded JSON document (from
// jsonschema.UnmarshalJSON) and returns one finding per failed keyword,
// sorted by location so the order does not depend on map iteration.
func validateSchema(doc any) []Finding {
	err := compiledSchema().Validate(doc)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Finding{finding("schema.invalid", "", err.Error())}
	}
	var fs []Finding
	collectSchema(ve, &fs)
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return strings.Compare(a.Location+"\x00"+a.Code+"\x00"+a.Message, b.Location+"\x00"+b.Code+"\x00"+b.Message)
	})
	return slices.CompactFunc(fs, func(a, b Finding) bool { return a == b })
}

// collectSchema appends the leaves of the validation error tree: the
// keywords that actually failed, not the "validation failed" groups above.
func collectSchema(ve *jsonschema.ValidationError, fs *[]Finding) {
	if len(ve.Causes) > 0 {
		for _, c := range ve.Causes {
			collectSchema(c, fs)
		}
		return
	}
	ptr := pointer(ve.InstanceLocation...)
	switch k := ve.ErrorKind.(type) {
	case *kind.Required:
		for _, name := range k.Missing {
			*fs = append(*fs, finding("schema.required", ptr+"/"+escapeToken(name),
				fmt.Sprintf("missing required property %q", name)))
		}
		return
	case *kind.AdditionalProperties:
		props := slices.Sorted(slices.Values(k.Properties))
		for _, name := range props {
			*fs = append(*fs, finding("schema.additional_property", ptr+"/"+escapeToken(name),
				fmt.Sprintf("property %q is not part of the envelope", name)))
		}
		return
	}

	_, loc, _ := strings.Cut(ve.SchemaURL, "#") // "" without a fragment
	loc += "/" + strings.Join(ve.ErrorKind.KeywordPath(), "/")
	code := schemaCodes[loc]
	msg := ve.ErrorKind.LocalizedString(printer)
	switch k := ve.ErrorKind.(type) {
	case *kind.Type:
		code = "schema.type"
		msg = fmt.Sprintf("got %s, want %s", k.Got, strings.Join(k.Want, " or "))
	case *kind.MinLength:
		code = "schema.empty"
		msg = "must not be empty"
	case *kind.MaxLength:
		msg = fmt.Sprintf("text has %d characters, max %d", k.Got, k.Want)
	case *kind.MaxItems:
		msg = fmt.Sprintf("%d items, max %d", k.Got, k.Want)
	case *kind.Enum:
		var want []string
		for _, w := range k.Want {
			if w != nil {
				want = append(want, fmt.Sprintf("%q", w))
			}
		}
		msg = fmt.Sprintf("got %s, want one of %s", jsonValue(k.Got), strings.Join(want, ", "))
	case *kind.Pattern:
		msg = fmt.Sprintf("%s does not match %s", quote(k.Got), k.Want)
	}
	if code == "" {
		code = "schema.invalid"
	}
	*fs = append(*fs, finding(code, ptr, msg))
}

// pointer builds a JSON pointer (RFC 6901) from reference tokens.
func pointer(tokens ...string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(escapeToken(t))
	}
	return b.String()
}

func escapeToken(t string) string {
	if !strings.ContainsAny(t, "~/") {
		return t // the usual case, without building a replacer
	}
	return tokenEscaper.Replace(t)
}

var tokenEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// jsonValue shows a decoded JSON value in a message.
func jsonValue(v any) string {
	if s, ok := v.(string); ok {
		return quote(s)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
