// Package prompts reads prompt variants. A variant is a folder
// prompts/<name>/ (under the project root, or any folder given as root) read
// at run time: tuning a prompt is a file edit, a new variant is a new folder,
// and neither needs a rebuild. A variant holds only the files it changes; the
// rest come from the default variant, seed, which follows the design
// documents. seed is also compiled in (package
// github.com/searchbench/searchbench/prompts), so a binary run where no
// prompts folder exists still has it.
//
// Files of a variant:
//
//	phase1.md      system prompt of Phase 1 (no tools)
//	phase2.md      system prompt of Phase 2 (tools offered)
//	structured.md  appended to phase2.md in structured output mode
//	decline.md     system prompt after the user declined a search
//	consent.md     system prompt of the model fallback that reads a consent
//	               reply the rules leave to it (orchestrator/consent)
//	judge-correctness.md
//	               system prompt of the correctness judge (eval/grade),
//	               which grades what the rules cannot
//	tools.json     the function tools offered in Phase 2 (OpenAI tools array)
//	variant.yaml   settings: model, reasoning_effort, temperature,
//	               max_completion_tokens, mode, always_on_search
//
// Every variant has a content hash over the prompt files and settings it
// resolves to (its name left out), and a hash per file, so a cassette can
// say which files changed since it was recorded.
package prompts

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/searchbench/searchbench/lib/suggest"
	builtin "github.com/searchbench/searchbench/prompts"

	"github.com/searchbench/searchbench/lib/problem"
)

// Default is the variant used when none is named.
const Default = "seed"

// DefaultRoot is the folder variants are read from unless told otherwise.
const DefaultRoot = "prompts"

// File names of a variant.
const (
	Phase1File     = "phase1.md"
	Phase2File     = "phase2.md"
	StructuredFile = "structured.md"
	DeclineFile    = "decline.md"
	ConsentFile    = "consent.md"
	ToolsFile      = "tools.json"
	SettingsFile   = "variant.yaml"
	JudgeFile      = "judge-correctness.md"
)

// Files lists every file a variant may hold, in the order hashes list them.
var Files = []string{Phase1File, Phase2File, StructuredFile, DeclineFile, ToolsFile, SettingsFile, ConsentFile, JudgeFile}

// Output modes a variant may set (the orchestrator's trace.ModeModel and
// trace.ModeStructured; repeated here to keep this package a leaf).
var Modes = []string{"model", "structured"}

// ReasoningEfforts are the values GPT-OSS accepts for reasoning_effort.
var ReasoningEfforts = []string{"low", "medium", "high"}

// Set is the complete prompt set of one variant.
type Set struct {
	Variant    string
	Phase1     string
	Phase2     string
	Structured string
	Decline    string
	Tools      json.RawMessage // compact JSON array
	// Consent is the system prompt of a consent classification request.
	Consent string
	// Judge is the correctness judge's system prompt.
	Judge string
}

// Phase2System returns the Phase 2 system prompt for an output mode.
func (s *Set) Phase2System(structured bool) string {
	if structured {
		return s.Phase2 + "\n\n" + s.Structured
	}
	return s.Phase2
}

// Settings are a variant's model and behaviour settings (variant.yaml). The
// zero value of a field means "not set": the server's or the orchestrator's
// default applies.
type Settings struct {
	Model               string   `json:"model,omitempty"`
	ReasoningEffort     string   `json:"reasoning_effort,omitempty"`
	Temperature         *float64 `json:"temperature,omitempty"`
	MaxCompletionTokens int      `json:"max_completion_tokens,omitempty"`
	Mode                string   `json:"mode,omitempty"`
	AlwaysOnSearch      bool     `json:"always_on_search,omitempty"`
}

// Variant is a loaded variant: its prompts, settings, where each file came
// from, and its hashes.
type Variant struct {
	Name     string
	Prompts  *Set
	Settings Settings
	// Own lists the files the variant's folder holds itself, sorted; the
	// others came from seed.
	Own []string
	// Sources maps each file to where it was read: a path such as
	// prompts/seed/phase1.md, or "seed (built in)".
	Sources map[string]string
	// Hashes maps each file of Files to a short content hash of what the
	// variant resolved it to (for variant.yaml: of the settings, so comments
	// do not count).
	Hashes map[string]string
	// Hash covers every file's hash: two variants with the same Hash send
	// the same requests.
	Hash string
}

// BuiltinSource names the compiled-in copy of seed in Sources.
const BuiltinSource = "seed (built in)"

var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`)

// ValidName reports whether name can name a variant: lower-case letters,
// digits, '.', '_' and '-', starting with a letter or digit.
func ValidName(name string) error {
	if !nameRE.MatchString(name) || len(name) > 64 {
		return fmt.Errorf("invalid variant name %q: use lower-case letters, digits, '.', '_' and '-' (at most 64), starting with a letter or digit", name)
	}
	return nil
}

// Builtin returns seed as compiled into the binary.
func Builtin() *Variant {
	v, err := load("", Default, nil)
	if err != nil {
		panic("prompts: the built-in seed is invalid: " + err.Error())
	}
	return v
}

// List returns the names of the variants under root, sorted, seed always
// among them (built in when root has no seed folder).
func List(root string) ([]string, error) {
	names := []string{Default}
	entries, err := os.ReadDir(root)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	for _, e := range entries {
		if e.IsDir() && ValidName(e.Name()) == nil && e.Name() != Default {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names, nil
}

// Load reads variant name from root/name, taking the files it lacks (and the
// settings it leaves out) from seed: root/seed when that folder exists, else
// the built-in copy. seed itself needs no folder. Every problem in the
// variant's files is reported at once, with file and line.
func Load(root, name string) (*Variant, error) {
	if name == "" {
		name = Default
	}
	if err := ValidName(name); err != nil {
		return nil, err
	}
	dir := filepath.Join(root, name)
	// A variant folder that is a link would read prompts from wherever it
	// points, past the per-file check below: refused, as linked files are.
	if fi, err := os.Lstat(dir); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("prompt variant %q: %s is a symbolic link; a variant must be a folder under %s (copy it instead of linking it)",
			name, filepath.ToSlash(dir), filepath.ToSlash(root))
	}
	st, err := os.Stat(dir)
	switch {
	case err == nil && !st.IsDir():
		return nil, fmt.Errorf("prompt variant %q: %s is not a folder", name, dir)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("prompt variant %q: %w", name, err)
	case err != nil && name != Default:
		have, _ := List(root)
		if c := suggest.Closest(name, have); c != "" {
			return nil, fmt.Errorf("unknown prompt variant %q: did you mean %s? (variants under %s: %s)",
				name, c, filepath.ToSlash(root), suggest.List(have, 10))
		}
		return nil, fmt.Errorf("unknown prompt variant %q: there is no folder %s (variants under %s: %s); create one with: searchbench variant new %s",
			name, filepath.ToSlash(dir), filepath.ToSlash(root), suggest.List(have, 10), name)
	case err != nil:
		return load("", Default, nil) // seed, built in
	}
	// The fallback: seed's folder if there is one (and this is not it).
	var base *Variant
	if name != Default {
		if base, err = Load(root, Default); err != nil {
			return nil, fmt.Errorf("prompt variant %q: its files fall back to seed, which has problems: %w", name, err)
		}
	} else {
		base = Builtin()
	}
	return load(dir, name, base)
}

// load reads a variant from dir (the built-in seed when dir is ""), with
// base supplying what it lacks.
func load(dir, name string, base *Variant) (*Variant, error) {
	v := &Variant{Name: name, Sources: map[string]string{}, Hashes: map[string]string{}}
	read := func(file string) ([]byte, string, error) {
		if dir == "" {
			b, err := builtin.Seed.ReadFile(Default + "/" + file)
			return b, BuiltinSource, err
		}
		p := filepath.Join(dir, file)
		// A link would put whatever it points at into every request (and
		// its target's changes past the variant's hash): refused.
		if fi, err := os.Lstat(p); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return nil, filepath.ToSlash(p), fmt.Errorf("is a symbolic link; a prompt file must be a regular file in the variant's folder (copy the file instead of linking it)")
		}
		b, err := os.ReadFile(p)
		return b, filepath.ToSlash(p), err
	}
	where := dir
	if where == "" {
		where = BuiltinSource
	}
	probs := &problem.List{What: fmt.Sprintf("prompt variant %q (%s)", name, filepath.ToSlash(where)), Hint: "fix them before running"}
	addf := func(file string, line int, format string, args ...any) {
		probs.Problems = append(probs.Problems, problem.Problem{File: file, Line: line, Msg: fmt.Sprintf(format, args...)})
	}
	if dir != "" {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, fmt.Errorf("prompt variant %q: %w", name, err)
		}
		for _, e := range entries {
			n := e.Name()
			if strings.HasPrefix(n, ".") || strings.HasPrefix(strings.ToUpper(n), "README") {
				continue // editor files and notes
			}
			if !slices.Contains(Files, n) {
				addf(filepath.ToSlash(filepath.Join(dir, n)), 0, "unknown file %q: a variant holds %s (any other file would be silently ignored)", n, strings.Join(Files, ", "))
			}
		}
	}
	texts := map[string]string{}
	for _, file := range Files {
		b, src, err := read(file)
		switch {
		case errors.Is(err, fs.ErrNotExist) && base != nil:
			v.Sources[file] = base.Sources[file]
			v.Hashes[file] = base.Hashes[file]
			if file == SettingsFile {
				v.Settings = base.Settings
			}
			continue
		case errors.Is(err, fs.ErrNotExist) && file == SettingsFile:
			v.Sources[file] = ""
			v.Hashes[file] = hashOf(settingsJSON(Settings{}))
			continue
		case err != nil:
			addf(src, 0, "%v", err)
			continue
		}
		v.Sources[file] = src
		if dir != "" {
			v.Own = append(v.Own, file)
		}
		if file == SettingsFile {
			var inherited Settings
			if base != nil {
				inherited = base.Settings
			}
			s, ps := parseSettings(src, b, inherited)
			probs.Problems = append(probs.Problems, ps...)
			v.Settings = s
			v.Hashes[file] = hashOf(settingsJSON(s))
			continue
		}
		if !utf8.Valid(b) {
			addf(src, 0, "not valid UTF-8")
			continue
		}
		if len(bytes.TrimSpace(b)) == 0 {
			addf(src, 0, "empty: a prompt file that exists must hold the prompt (delete it to use seed's)")
			continue
		}
		if file == ToolsFile {
			compact, err := parseTools(b)
			if err != nil {
				addf(src, 0, "%v", err)
				continue
			}
			b = compact
		} else {
			b = []byte(strings.TrimRight(string(b), "\n"))
		}
		texts[file] = string(b)
		v.Hashes[file] = hashOf(b)
	}
	if len(probs.Problems) > 0 {
		return nil, probs
	}
	text := func(file string) string {
		if t, ok := texts[file]; ok {
			return t
		}
		return base.text(file)
	}
	v.Prompts = &Set{
		Variant:    name,
		Phase1:     text(Phase1File),
		Phase2:     text(Phase2File),
		Structured: text(StructuredFile),
		Decline:    text(DeclineFile),
		Tools:      json.RawMessage(text(ToolsFile)),
		Consent:    text(ConsentFile),
		Judge:      text(JudgeFile),
	}
	h := sha256.New()
	for _, file := range Files {
		fmt.Fprintf(h, "%s\x00%s\n", file, v.Hashes[file])
	}
	v.Hash = hex.EncodeToString(h.Sum(nil))[:16]
	return v, nil
}

func (v *Variant) text(file string) string {
	switch file {
	case Phase1File:
		return v.Prompts.Phase1
	case Phase2File:
		return v.Prompts.Phase2
	case StructuredFile:
		return v.Prompts.Structured
	case DeclineFile:
		return v.Prompts.Decline
	case ConsentFile:
		return v.Prompts.Consent
	case ToolsFile:
		return string(v.Prompts.Tools)
	case JudgeFile:
		return v.Prompts.Judge
	}
	return ""
}

// Mode is the output mode a run of v uses when asked for mode: mode itself
// when set, else the variant's setting, else "model".
func (v *Variant) Mode(mode string) string {
	if mode == "" {
		mode = v.Settings.Mode
	}
	if mode == "" {
		mode = Modes[0]
	}
	return mode
}

// Changed lists the files whose hash in v differs from old (a file→hash
// map recorded earlier), sorted in Files order. Files old does not mention
// are not compared.
func (v *Variant) Changed(old map[string]string) []string {
	var out []string
	for _, f := range Files {
		if h, ok := old[f]; ok && h != v.Hashes[f] {
			out = append(out, f)
		}
	}
	return out
}

func hashOf(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])[:16]
}

func settingsJSON(s Settings) []byte {
	b, _ := json.Marshal(s)
	return b
}

// parseTools checks tools.json (an OpenAI tools array of functions, each
// named) and returns it compacted.
func parseTools(b []byte) ([]byte, error) {
	var tools []struct {
		Type     string `json:"type"`
		Function *struct {
			Name string `json:"name"`
		} `json:"function"`
	}
	if err := json.Unmarshal(b, &tools); err != nil {
		return nil, fmt.Errorf("not a JSON array of tools: %v", err)
	}
	if len(tools) == 0 {
		return nil, errors.New("no tools: Phase 2 needs at least one")
	}
	var errs []string
	for i, t := range tools {
		if t.Type != "function" || t.Function == nil || t.Function.Name == "" {
			errs = append(errs, fmt.Sprintf("tool %d: want {\"type\": \"function\", \"function\": {\"name\": …}}", i+1))
		}
	}
	if len(errs) > 0 {
		return nil, errors.New(strings.Join(errs, "; "))
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// parseSettings reads variant.yaml over inherited, reporting every problem
// with its line.
func parseSettings(file string, data []byte, inherited Settings) (Settings, []problem.Problem) {
	s := inherited
	var probs []problem.Problem
	addf := func(n *yaml.Node, format string, args ...any) {
		line := 0
		if n != nil {
			line = n.Line
		}
		probs = append(probs, problem.Problem{File: file, Line: line, Msg: fmt.Sprintf(format, args...)})
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		addf(nil, "%v", err)
		return s, probs
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return s, nil // comments only
	}
	m := doc.Content[0]
	if m.Kind == yaml.ScalarNode && m.Tag == "!!null" {
		return s, nil
	}
	if m.Kind != yaml.MappingNode {
		addf(m, "want a mapping of settings (model, reasoning_effort, temperature, max_completion_tokens, mode, always_on_search)")
		return s, probs
	}
	str := func(n *yaml.Node, key string) (string, bool) {
		if n.Kind != yaml.ScalarNode || n.Tag != "!!str" || n.Value == "" {
			addf(n, "%s: want a non-empty string", key)
			return "", false
		}
		return n.Value, true
	}
	// enum sets *dst to the node's value when it is one of allowed.
	enum := func(n *yaml.Node, key string, allowed []string, dst *string) {
		x, ok := str(n, key)
		switch {
		case !ok:
		case !slices.Contains(allowed, x):
			addf(n, "%s: %q is not one of %s", key, x, strings.Join(allowed, ", "))
		default:
			*dst = x
		}
	}
	keys := []string{"model", "reasoning_effort", "temperature", "max_completion_tokens", "mode", "always_on_search"}
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, val := m.Content[i], m.Content[i+1]
		if seen[k.Value] {
			addf(k, "%s: set twice", k.Value)
			continue
		}
		seen[k.Value] = true
		switch k.Value {
		case "model":
			if x, ok := str(val, k.Value); ok {
				s.Model = x
			}
		case "reasoning_effort":
			enum(val, k.Value, ReasoningEfforts, &s.ReasoningEffort)
		case "mode":
			enum(val, k.Value, Modes, &s.Mode)
		case "temperature":
			var f float64
			if val.Kind != yaml.ScalarNode || (val.Tag != "!!float" && val.Tag != "!!int") || val.Decode(&f) != nil || f < 0 || f > 2 {
				addf(val, "temperature: want a number from 0 to 2, got %q", val.Value)
			} else {
				s.Temperature = &f
			}
		case "max_completion_tokens":
			var n int
			if val.Kind != yaml.ScalarNode || val.Tag != "!!int" || val.Decode(&n) != nil || n <= 0 {
				addf(val, "max_completion_tokens: want a positive integer, got %q", val.Value)
			} else {
				s.MaxCompletionTokens = n
			}
		case "always_on_search":
			var b bool
			if val.Kind != yaml.ScalarNode || val.Tag != "!!bool" || val.Decode(&b) != nil {
				addf(val, "always_on_search: want true or false, got %q", val.Value)
			} else {
				s.AlwaysOnSearch = b
			}
		default:
			hint := ""
			if near := problem.Nearest(k.Value, keys, 3); near != "" {
				hint = fmt.Sprintf(" (did you mean %s?)", near)
			}
			addf(k, "unknown setting %q%s; settings: %s", k.Value, hint, strings.Join(keys, ", "))
		}
	}
	return s, probs
}
