package executor

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// seedSchema is the seed's guided-decoding schema, verbatim. The shipped
// config/guided-schema.json is the same file (a test keeps them equal); it is
// used when guided_json_schema_path is empty.
//
//go:embed guided-schema.json
var seedSchema []byte

// SeedSchema returns the seed's guided-decoding JSON schema.
func SeedSchema() []byte { return slices.Clone(seedSchema) }

// Constraint is what a chat request needs to constrain decoding to the
// guided schema. Exactly one of ResponseFormat and Extra is set; Extra holds
// top-level request fields to add to the body.
type Constraint struct {
	ResponseFormat json.RawMessage
	Extra          map[string]json.RawMessage
}

// Constraint modes for GuidedConstraint.
const (
	// ModeResponseFormat is OpenAI-style response_format json_schema: it
	// works on Cerebras and on every vLLM version, so it is the portable one.
	ModeResponseFormat = "response_format"
	// ModeGuidedJSON is vLLM's top-level guided_json (up to v0.10.x; v0.12
	// removed it and reportedly ignores it silently).
	ModeGuidedJSON = "guided_json"
	// ModeStructuredOutputs is vLLM's structured_outputs {"json": schema} (v0.10.2+).
	ModeStructuredOutputs = "structured_outputs"
)

// ConstraintModes lists the modes GuidedConstraint accepts.
var ConstraintModes = []string{ModeResponseFormat, ModeGuidedJSON, ModeStructuredOutputs}

// GuidedConstraint builds the request fields that constrain decoding to the
// seed's schema in the given mode.
func GuidedConstraint(mode string) (Constraint, error) {
	return constraint(mode, seedSchema)
}

// constraint builds a Constraint for schema.
//
// response_format is sent with strict:false and the schema verbatim. Strict
// json_schema needs every property required and additionalProperties:false
// on every object, and the seed's "arguments": {"type":"object"} is an open
// object whose properties depend on the tool; making it strict would mean
// rewriting the schema as an anyOf of per-tool argument objects, which is no
// longer the seed's schema. With strict:false some providers treat the
// schema as a hint, which is why Extract validates every object against it.
func constraint(mode string, schema []byte) (Constraint, error) {
	var compact bytes.Buffer
	if err := json.Compact(&compact, schema); err != nil {
		return Constraint{}, fmt.Errorf("guided schema: %w", err)
	}
	s := json.RawMessage(compact.Bytes())
	switch mode {
	case ModeResponseFormat:
		rf, err := json.Marshal(responseFormat{Type: "json_schema", JSONSchema: jsonSchemaFormat{Name: "tool_step", Schema: s, Strict: false}})
		if err != nil {
			return Constraint{}, err
		}
		return Constraint{ResponseFormat: rf}, nil
	case ModeGuidedJSON:
		return Constraint{Extra: map[string]json.RawMessage{"guided_json": s}}, nil
	case ModeStructuredOutputs:
		so, err := json.Marshal(map[string]json.RawMessage{"json": s})
		if err != nil {
			return Constraint{}, err
		}
		return Constraint{Extra: map[string]json.RawMessage{"structured_outputs": so}}, nil
	}
	return Constraint{}, fmt.Errorf("unknown guided constraint mode %q (want one of %s)", mode, strings.Join(ConstraintModes, ", "))
}

type responseFormat struct {
	Type       string           `json:"type"`
	JSONSchema jsonSchemaFormat `json:"json_schema"`
}

type jsonSchemaFormat struct {
	Name   string          `json:"name"`
	Schema json.RawMessage `json:"schema"`
	Strict bool            `json:"strict"`
}

// compileSchema compiles a guided-decoding schema; name appears in errors.
func compileSchema(name string, data []byte) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("guided schema %s: %w", name, err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(name, doc); err != nil {
		return nil, fmt.Errorf("guided schema %s: %w", name, err)
	}
	sch, err := c.Compile(name)
	if err != nil {
		return nil, fmt.Errorf("guided schema %s: %w", name, err)
	}
	return sch, nil
}

// seedCompiled compiles the embedded schema once per process.
var seedCompiled = sync.OnceValues(func() (*jsonschema.Schema, error) {
	return compileSchema("guided-schema.json", seedSchema)
})

var printer = message.NewPrinter(language.English)

// schemaFindings flattens a validation error into one finding per leaf
// problem, sorted by location: the validator walks objects in map order.
func schemaFindings(err error) []Finding {
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return []Finding{{Kind: FindingSchema, Strategy: GuidedJSON, Message: err.Error()}}
	}
	var msgs []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			loc := "/" + strings.Join(e.InstanceLocation, "/")
			msgs = append(msgs, fmt.Sprintf("at %s: %s", loc, e.ErrorKind.LocalizedString(printer)))
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	slices.Sort(msgs)
	msgs = slices.Compact(msgs)
	fs := make([]Finding, len(msgs))
	for i, m := range msgs {
		fs[i] = Finding{Kind: FindingSchema, Strategy: GuidedJSON, Message: m}
	}
	return fs
}
