package prompts

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	builtin "github.com/searchbench/searchbench/prompts"
)

// root is the demo's pinned prompts folder (internal/demo): the tests'
// own, never the team's working prompts/.
const root = "../../testdata/demo/prompts"

func TestLoad(t *testing.T) {
	got, err := List(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) < 2 || got[0] != "routing-examples" || got[1] != "seed" {
		t.Fatalf("List() = %v", got)
	}
	seed, err := Load(root, "")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"phase1": "I haven’t searched the web yet. Would you like me to look this up and confirm with sources? (y/n)",
		"phase2": "Verification: Phase 1 was skipped (override '?'); this answer is fully search-based.",
	} {
		text := map[string]string{"phase1": seed.Prompts.Phase1, "phase2": seed.Prompts.Phase2}[name]
		if !strings.Contains(text, want) {
			t.Errorf("seed %s lacks %q", name, want)
		}
	}
	if strings.Contains(seed.Prompts.Phase1, "Tavily") || strings.Contains(seed.Prompts.Phase1, "Exa ") {
		t.Error("Phase 1 prompt names a search tool")
	}
	v, err := Load(root, "routing-examples")
	if err != nil {
		t.Fatal(err)
	}
	p, sp := v.Prompts, seed.Prompts
	if p.Phase1 != sp.Phase1 || p.Decline != sp.Decline || string(p.Tools) != string(sp.Tools) {
		t.Error("routing-examples should inherit phase1, decline and tools from seed")
	}
	if p.Phase2 == sp.Phase2 || !strings.Contains(p.Phase2, "ROUTING PROCEDURE") {
		t.Error("routing-examples should override phase2")
	}
	if strings.Join(v.Own, ",") != "phase2.md" || v.Sources[Phase1File] != "../../testdata/demo/prompts/seed/phase1.md" {
		t.Errorf("Own = %v, Sources = %v", v.Own, v.Sources)
	}
	if v.Hash == seed.Hash || v.Hashes[Phase1File] != seed.Hashes[Phase1File] || v.Hashes[Phase2File] == seed.Hashes[Phase2File] {
		t.Errorf("hashes: %v vs %v", v.Hashes, seed.Hashes)
	}
	if got := v.Changed(seed.Hashes); strings.Join(got, ",") != "phase2.md" {
		t.Errorf("Changed = %v", got)
	}
	_, err = Load(root, "nope")
	if err == nil || !strings.Contains(err.Error(), "routing-examples, seed") || !strings.Contains(err.Error(), "searchbench variant new nope") {
		t.Errorf("unknown variant error = %v", err)
	}
	if _, err := Load(root, "../seed"); err == nil || !strings.Contains(err.Error(), "invalid variant name") {
		t.Errorf("a path as a name: %v", err)
	}
}

// TestBuiltinIsTheFolder: the compiled-in seed is prompts/seed, file for
// file, so a binary run anywhere behaves like one run in the repository.
func TestBuiltinIsTheFolder(t *testing.T) {
	// The working folder, whatever a team put in it: the embed is built
	// from it.
	disk, err := Load("../../prompts", Default) // demo:working: the embed is built from the working folder
	if err != nil {
		t.Fatal(err)
	}
	b := Builtin()
	if disk.Hash != b.Hash {
		t.Errorf("prompts/seed hash %s, built-in %s", disk.Hash, b.Hash)
	}
	if b.Sources[Phase1File] != BuiltinSource {
		t.Errorf("built-in source = %q", b.Sources[Phase1File])
	}
	// Without a prompts folder, seed is the built-in one.
	none, err := Load(t.TempDir(), Default)
	if err != nil || none.Hash != b.Hash {
		t.Fatalf("no folder: %v, %v", none, err)
	}
	// Every file of the folder is embedded.
	entries, err := fs.ReadDir(builtin.Seed, "seed")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(Files) {
		t.Errorf("embedded seed has %d files, want %d (%v)", len(entries), len(Files), Files)
	}
}

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestVariantFromDisk: a new folder is a variant at once (no rebuild); a
// byte changes its hash and that file's hash only; settings parse, inherit
// from seed, and count in the hash but comments do not.
func TestVariantFromDisk(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"mine/phase2.md": "Route carefully.\n"})
	v, err := Load(dir, "mine")
	if err != nil {
		t.Fatal(err)
	}
	b := Builtin()
	if v.Prompts.Phase2 != "Route carefully." || v.Prompts.Phase1 != b.Prompts.Phase1 || v.Sources[Phase1File] != BuiltinSource {
		t.Fatalf("mine = %+v", v)
	}
	write(t, dir, map[string]string{"mine/phase2.md": "Route carefully!\n"})
	v2, _ := Load(dir, "mine")
	if got := v2.Changed(v.Hashes); strings.Join(got, ",") != "phase2.md" || v2.Hash == v.Hash {
		t.Errorf("one byte: changed %v, hash %s → %s", got, v.Hash, v2.Hash)
	}

	write(t, dir, map[string]string{"mine/variant.yaml": "# only comments\n"})
	v3, err := Load(dir, "mine")
	if err != nil || v3.Hash != v2.Hash {
		t.Errorf("a comment-only variant.yaml changed the hash: %v %s %s", err, v2.Hash, v3.Hash)
	}
	write(t, dir, map[string]string{
		"seed/variant.yaml": "temperature: 0.5\nmode: structured\n",
		"mine/variant.yaml": "reasoning_effort: high\nmode: model\nalways_on_search: true\nmax_completion_tokens: 2048\nmodel: gpt-oss-20b\n",
	})
	v4, err := Load(dir, "mine")
	if err != nil {
		t.Fatal(err)
	}
	s := v4.Settings
	if s.Temperature == nil || *s.Temperature != 0.5 || s.Mode != "model" || s.ReasoningEffort != "high" || !s.AlwaysOnSearch || s.MaxCompletionTokens != 2048 || s.Model != "gpt-oss-20b" {
		t.Errorf("settings = %+v", s)
	}
	if got := v4.Changed(v3.Hashes); strings.Join(got, ",") != "variant.yaml" {
		t.Errorf("settings change: changed %v", got)
	}
}

// TestProblems: every problem of a variant, with file and line, at once.
func TestProblems(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"bad/phase2.txt":   "typo'd name",
		"bad/phase1.md":    "  \n",
		"bad/tools.json":   `[{"type": "function", "function": {}}]`,
		"bad/variant.yaml": "temprature: 0.2\nmode: structred\ntemperature: 3\nreasoning_effort: max\nmax_completion_tokens: -1\nalways_on_search: yes please\nmode: model\n",
		"bad/README.md":    "notes are fine",
	})
	_, err := Load(dir, "bad")
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	for _, want := range []string{
		"10 problems in prompt variant \"bad\"",
		"bad/phase2.txt: unknown file \"phase2.txt\"",
		"bad/phase1.md: empty",
		"bad/tools.json: tool 1: want",
		"bad/variant.yaml:1: unknown setting \"temprature\" (did you mean temperature?)",
		"bad/variant.yaml:2: mode: \"structred\" is not one of model, structured",
		"bad/variant.yaml:3: temperature: want a number from 0 to 2, got \"3\"",
		"bad/variant.yaml:4: reasoning_effort: \"max\" is not one of low, medium, high",
		"bad/variant.yaml:5: max_completion_tokens: want a positive integer",
		"bad/variant.yaml:6: always_on_search: want true or false",
		"bad/variant.yaml:7: mode: set twice",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "README") {
		t.Errorf("README.md reported: %s", msg)
	}
}

// TestSeedFollowsDesign: the seed prompts carry the design document's exact
// strings (docs/design/000-search-orchestrator.txt): the en-dash headers,
// the curly apostrophe of the consent question, the verification sentences.
func TestSeedFollowsDesign(t *testing.T) {
	doc, err := os.ReadFile("../../docs/design/000-search-orchestrator.txt")
	if err != nil {
		t.Fatal(err)
	}
	demoSeed, err := Load(root, Default)
	if err != nil {
		t.Fatal(err)
	}
	seed := demoSeed.Prompts
	for _, c := range []struct{ text, prompt, name string }{
		{"### Phase 1 – Immediate Answer (Unverified)", seed.Phase1, "phase1.md"},
		{"I haven’t searched the web yet. Would you like me to look this up and confirm with sources? (y/n)", seed.Phase1, "phase1.md"},
		{"### Phase 2 – Search-Backed Answer", seed.Phase2, "phase2.md"},
		{"Verification: Phase 1 answer is confirmed by search results.", seed.Phase2, "phase2.md"},
		{"Verification: Phase 1 answer requires correction/clarification; see updated details below.", seed.Phase2, "phase2.md"},
		{"Verification: Phase 1 was skipped (override '?'); this answer is fully search-based.", seed.Phase2, "phase2.md"},
	} {
		if !strings.Contains(string(doc), c.text) {
			t.Errorf("the design document lacks %q (the test is out of date)", c.text)
		}
		if !strings.Contains(c.prompt, c.text) {
			t.Errorf("seed %s lacks the design's %q", c.name, c.text)
		}
	}
}

// TestSymlinkedPromptIsRefused: a prompt file that is a link would send
// its target (any file on the machine) in every request.
func TestSymlinkedPromptIsRefused(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"mine/phase1.md": "Route.\n"})
	secretFile := filepath.Join(t.TempDir(), "id_rsa")
	os.WriteFile(secretFile, []byte("PRIVATE KEY"), 0o600)
	if err := os.Symlink(secretFile, filepath.Join(dir, "mine", "phase2.md")); err != nil {
		t.Fatal(err)
	}
	_, err := Load(dir, "mine")
	if err == nil || !strings.Contains(err.Error(), "phase2.md") || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("Load = %v, want the link refused by name", err)
	}
}

// TestSymlinkedVariantFolderIsRefused: a variant folder that is a link out
// of the tree would read every prompt from its target, past the check of
// linked files; it is refused by name, and so is a linked seed folder.
func TestSymlinkedVariantFolderIsRefused(t *testing.T) {
	outside := t.TempDir()
	write(t, outside, map[string]string{"elsewhere/phase1.md": "Route.\n"})
	dir := t.TempDir()
	for _, name := range []string{"mine", "seed"} {
		if err := os.Symlink(filepath.Join(outside, "elsewhere"), filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
		_, err := Load(dir, name)
		if err == nil || !strings.Contains(err.Error(), filepath.ToSlash(filepath.Join(dir, name))+" is a symbolic link") {
			t.Errorf("Load(%s) = %v, want the linked folder refused", name, err)
		}
	}
}

// TestConsentPromptIsTheVariants: the consent classifier's prompt is a file
// of the variant, inherited from seed when a variant has none, and its own
// copy changes the variant's hash and names itself as changed, so the
// cassettes whose requests used it go stale.
func TestConsentPromptIsTheVariants(t *testing.T) {
	seed := Builtin()
	if !strings.Contains(seed.Prompts.Consent, "SEARCH_NOW") || seed.Hashes[ConsentFile] == "" {
		t.Fatalf("seed's consent prompt %q, hash %q", seed.Prompts.Consent, seed.Hashes[ConsentFile])
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "tuned"), 0o755); err != nil {
		t.Fatal(err)
	}
	inherit, err := Load(dir, "tuned")
	if err != nil {
		t.Fatal(err)
	}
	if inherit.Prompts.Consent != seed.Prompts.Consent || inherit.Hash != seed.Hash {
		t.Errorf("a variant without consent.md: prompt %q, hash %s; want seed's (hash %s)", inherit.Prompts.Consent, inherit.Hash, seed.Hash)
	}
	if err := os.WriteFile(filepath.Join(dir, "tuned", ConsentFile), []byte(seed.Prompts.Consent+"\nAnswer NO when unsure."), 0o644); err != nil {
		t.Fatal(err)
	}
	tuned, err := Load(dir, "tuned")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(tuned.Prompts.Consent, "Answer NO when unsure.") || tuned.Hash == seed.Hash {
		t.Errorf("the tuned consent.md was not read (hash %s)", tuned.Hash)
	}
	if got := tuned.Changed(seed.Hashes); len(got) != 1 || got[0] != ConsentFile {
		t.Errorf("Changed = %v, want [%s]", got, ConsentFile)
	}
}
