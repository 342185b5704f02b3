// Package prompts holds the assistant's system prompts as embedded files, in
// named variants: orchestrator/prompts/<variant>/. Tuning a prompt is a file
// edit; adding a variant is a new folder. A variant may hold only the files it
// changes — the rest come from the default variant, "seed", which is faithful
// to the design documents.
//
// Files of a variant:
//
//	phase1.md      system prompt of Phase 1 (no tools)
//	phase2.md      system prompt of Phase 2 (tools offered)
//	structured.md  appended to phase2.md in structured output mode
//	decline.md     system prompt after the user declined a search
//	tools.json     the function tools offered in Phase 2 (OpenAI tools array)
package prompts

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

//go:embed */*.md */*.json
var files embed.FS

// Default is the variant used when none is named.
const Default = "seed"

// Set is the complete prompt set of one variant.
type Set struct {
	Variant    string
	Phase1     string
	Phase2     string
	Structured string
	Decline    string
	Tools      json.RawMessage
}

// Variants lists the variant names, sorted.
func Variants() []string {
	entries, _ := fs.ReadDir(files, ".")
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}

// Load returns the prompt set of variant, with files it does not hold taken
// from the default variant.
func Load(variant string) (*Set, error) {
	if variant == "" {
		variant = Default
	}
	if _, err := fs.Stat(files, variant); err != nil {
		return nil, fmt.Errorf("unknown prompt variant %q (have: %s)", variant, strings.Join(Variants(), ", "))
	}
	read := func(name string) string {
		b, err := files.ReadFile(variant + "/" + name)
		if err != nil {
			b, _ = files.ReadFile(Default + "/" + name)
		}
		return string(b)
	}
	s := &Set{
		Variant:    variant,
		Phase1:     strings.TrimRight(read("phase1.md"), "\n"),
		Phase2:     strings.TrimRight(read("phase2.md"), "\n"),
		Structured: strings.TrimRight(read("structured.md"), "\n"),
		Decline:    strings.TrimRight(read("decline.md"), "\n"),
	}
	tools := read("tools.json")
	var compact strings.Builder
	var v []json.RawMessage
	if err := json.Unmarshal([]byte(tools), &v); err != nil {
		return nil, fmt.Errorf("prompt variant %q: tools.json: %w", variant, err)
	}
	b, _ := json.Marshal(v)
	compact.Write(b)
	s.Tools = json.RawMessage(compact.String())
	return s, nil
}

// Phase2System returns the Phase 2 system prompt for an output mode.
func (s *Set) Phase2System(structured bool) string {
	if structured {
		return s.Phase2 + "\n\n" + s.Structured
	}
	return s.Phase2
}
