package run

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/searchbench/searchbench/eval/dataset"
	"github.com/searchbench/searchbench/eval/vcr"
	"github.com/searchbench/searchbench/lib/fsutil"
	"github.com/searchbench/searchbench/orchestrator/prompts"
	"github.com/searchbench/searchbench/orchestrator/trace"
)

// ManifestName is the file beside a shelf's cassettes that remembers how
// each was recorded.
const ManifestName = "recorded.json"

// Shelf is where the cassettes of one prompt variant in one output mode
// live: <root>/<variant>/<mode>/<dataset>/<case>.yaml, with recorded.json
// beside them. Variants and modes never share a cassette, so recording one
// cannot overwrite another's.
type Shelf struct {
	Root    string
	Variant string
	Mode    string
}

// resolve fills in a run's variant (nil: the built-in seed) and mode (""
// the variant's). Call it once, before any goroutine reads them.
func resolve(v **prompts.Variant, mode *string) {
	if *v == nil {
		*v = prompts.Builtin()
	}
	if m := (*v).Mode(*mode); m != *mode {
		*mode = m
	}
}

// Dir is the shelf's folder.
func (s Shelf) Dir() string { return vcr.Dir(s.Root, s.Variant, s.Mode) }

// Path is the cassette of case c (its sample 1).
func (s Shelf) Path(c *dataset.Case) string {
	return vcr.Path(s.Root, s.Variant, s.Mode, c.Dataset, c.ID)
}

// SamplePath is the cassette of sample k of case c: sample 1 is the case's
// one cassette, <case>.yaml, so a one-sample shelf is what it always was;
// sample k ≥ 2 is <case>.s<k>.yaml beside it. One sample per file keeps
// every cassette an ordinary go-vcr cassette. (The dataset loader refuses
// ids ending in .s<k>, which would collide.)
func (s Shelf) SamplePath(c *dataset.Case, k int) string {
	if k <= 1 {
		return s.Path(c)
	}
	return vcr.Path(s.Root, s.Variant, s.Mode, c.Dataset, fmt.Sprintf("%s.s%d", c.ID, k))
}

// SampleSeed is the seed the requests of sample k send. With base 0 (the
// default, and every shipped shelf): none for sample 1, which is recorded
// exactly as a one-sample recording is (the provider's own draw), and k for
// every further sample, so each is a fixed, reproducible draw (Cerebras and
// vLLM accept seed). With a base seed S (record --seed S): S·1000 + k for
// every sample, sample 1 included, so two recordings with different bases
// draw every sample afresh, as re-recording against a live model does.
// Nothing else random or clock-derived enters a request.
func SampleSeed(base int64, k int) *int {
	if base != 0 {
		s := int(base*SeedStride + int64(k))
		return &s
	}
	if k <= 1 {
		return nil
	}
	return &k
}

// SeedStride separates the sample seeds of base seeds: base S draws seeds
// S·1000+1 … S·1000+N (N ≤ 100 samples, record's limit).
const SeedStride = 1000

// MaxSeed bounds record --seed so that every sample seed fits the 32-bit
// signed integer the chat APIs document for seed.
const MaxSeed = (1<<31 - 1 - 100) / SeedStride

// extraSamples lists the sample cassettes of c beyond the first keep
// samples (left by an earlier recording with more samples).
func (s Shelf) extraSamples(c *dataset.Case, keep int) []string {
	dir := filepath.Dir(s.Path(c))
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	prefix := filepath.Base(strings.TrimSuffix(s.Path(c), vcr.Ext)) + ".s"
	var out []string
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok {
			continue
		}
		num, ok := strings.CutSuffix(rest, vcr.Ext)
		k, err := strconv.Atoi(num)
		if ok && err == nil && k > keep && strconv.Itoa(k) == num {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(out)
	return out
}

// ManifestPath is the shelf's recorded.json.
func (s Shelf) ManifestPath() string { return filepath.Join(s.Dir(), ManifestName) }

// Manifest is recorded.json: for every cassette on a shelf, where it was
// recorded from and the hash of each variant file its requests used. A
// cassette is stale when one of those files has changed since.
type Manifest struct {
	Variant string           `json:"variant"`
	Mode    string           `json:"mode"`
	Cases   map[string]Entry `json:"cases"` // by case key, dataset/id; nil when compact
	// Unfinished, when set, is the recording that has not finished every
	// case it selected (see JournalName).
	Unfinished *Unfinished `json:"unfinished,omitempty"`

	pending    map[string]bool     // Unfinished's cases
	pendingSum map[keySum]struct{} // the same, compact

	// A compact manifest (LoadManifestCompact) is read-only: it keeps each
	// distinct entry once, without its sums, indexed by a hash of the case
	// key; each case's sums are 16 raw bytes each in sums. (Kept in the
	// entries, the sums made every entry distinct: 100 bytes and a map per
	// case, the one part of a replay's heap that grew with the cases.)
	index   map[keySum]caseRef
	entries []Entry
	sums    []byte
}

// caseRef is a case of a compact manifest: its entry, and its sums
// (entry.Sums when n is 0), from sums[at*16].
type caseRef struct {
	entry, at uint32
	n         uint32
}

// keySum is a case key's sha256, shortened: 128 bits make a collision
// among a shelf's keys beyond any practical chance.
type keySum [16]byte

func sumKey(key string) keySum {
	s := sha256.Sum256([]byte(key))
	return keySum(s[:16])
}

// Entry returns the entry of the case key, as m.Cases[key] would.
func (m *Manifest) Entry(key string) (Entry, bool) {
	if m.index == nil {
		e, ok := m.Cases[key]
		return e, ok
	}
	r, ok := m.index[sumKey(key)]
	if !ok {
		return Entry{}, false
	}
	e := m.entries[r.entry]
	if r.n > 0 {
		e.Sums = make([]string, r.n)
		for i := range e.Sums {
			at := int(r.at+uint32(i)) * 16
			e.Sums[i] = hex.EncodeToString(m.sums[at : at+16])
		}
	}
	return e, true
}

// packSums moves e's sums into m.sums when each is 32 lower-case hex
// digits, as the recorder writes them, and returns where they are; a sum
// written otherwise stays in e.
func (m *Manifest) packSums(e *Entry) (at, n uint32) {
	start := len(m.sums)
	for _, s := range e.Sums {
		b, err := hex.AppendDecode(m.sums, []byte(s))
		if len(s) != 32 || err != nil || strings.ToLower(s) != s {
			m.sums = m.sums[:start] // left as written, in the entry
			return 0, 0
		}
		m.sums = b
	}
	at, n = uint32(start/16), uint32(len(e.Sums))
	e.Sums = nil
	return at, n
}

// Entry is how one cassette was recorded.
type Entry struct {
	Backend string `json:"backend"`          // BackendSim or BackendLive
	Policy  string `json:"policy,omitempty"` // the simulator policy (sim only)
	// VariantHash is the variant's content hash when the case was recorded.
	VariantHash string `json:"variant_hash"`
	// Files maps each variant file the case's requests used (its system
	// prompts, tools and settings) to its hash at recording time.
	Files map[string]string `json:"files"`
	// Samples is how many samples were recorded (record --samples N), each
	// in its own cassette (Shelf.SamplePath); absent means one.
	Samples int `json:"samples,omitempty"`
	// Seed is the base seed the samples were drawn with (record --seed;
	// SampleSeed); absent means the default draws. A replay sends the same
	// seeds, so it matches what was recorded.
	Seed int64 `json:"seed,omitempty"`
	// Model and BaseURLs say where a live recording's requests went: the
	// chat model asked for, and each service's base URL (credentials
	// removed) by service name (vcr.ChatService, "tavily", "exa"). A
	// replay matches requests under these bases on the path below them,
	// whatever base URL it is given. Empty for the simulator, which is
	// always recorded at the services' default URLs.
	Model    string            `json:"model,omitempty"`
	BaseURLs map[string]string `json:"base_urls,omitempty"`
	// Sums are the sha256 (hex, first 16 bytes) of each sample's cassette
	// as recorded, sample 1 first. A replay refuses a cassette whose bytes
	// differ: a recording that was killed, or ran out of disk, between
	// writing a case's cassettes and this file leaves cassettes the entry
	// does not describe. Absent in manifests written before sums were kept
	// (those cassettes are not checked).
	Sums []string `json:"sums,omitempty"`
	// Judge says how the case's judge cassettes were recorded (judge.go);
	// nil when the rules decided every graded answer alone.
	Judge *JudgeEntry `json:"judge,omitempty"`
}

// Sum is the sum of sample k (from 1), "" when the entry keeps none.
func (e Entry) Sum(k int) string {
	if k < 1 || k > len(e.Sums) {
		return ""
	}
	return e.Sums[k-1]
}

// FileSum is a cassette's sum as Entry.Sums keeps it.
func FileSum(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	return vcr.Sum(b), nil
}

// SampleCount is how many samples the entry's case has on the shelf.
func (e Entry) SampleCount() int { return max(e.Samples, 1) }

// LoadManifest reads the shelf's manifest; a shelf without one has an
// empty manifest. The file is decoded as a stream, and identical entries
// (most cases of a shelf were recorded alike) share one copy, so a large
// shelf's manifest stays small in memory.
func (s Shelf) LoadManifest() (*Manifest, error) { return s.loadManifest(false) }

// LoadManifestCompact reads the shelf's manifest for lookups only (Entry,
// Check): Cases is nil and the case keys are not kept, so a run over a
// large shelf holds a few bytes per case. It cannot be saved.
func (s Shelf) LoadManifestCompact() (*Manifest, error) { return s.loadManifest(true) }

func (s Shelf) loadManifest(compact bool) (*Manifest, error) {
	m := &Manifest{Variant: s.Variant, Mode: s.Mode, Cases: map[string]Entry{}}
	if compact {
		m.index = map[keySum]caseRef{}
	}
	f, err := os.Open(s.ManifestPath())
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, err
	default:
		defer f.Close()
		if err := decodeManifest(bufio.NewReaderSize(f, 64<<10), m); err != nil {
			return nil, fmt.Errorf("%s: %v (delete it and re-record the shelf)", s.ManifestPath(), err)
		}
		if m.Cases == nil && m.index == nil {
			m.Cases = map[string]Entry{}
		}
	}
	m.indexPending()
	if err := s.applyJournal(m); err != nil {
		return nil, err
	}
	return m, nil
}

// decodeManifest decodes recorded.json into m as json.Unmarshal would, one
// entry at a time, interning identical entries.
func decodeManifest(r io.Reader, m *Manifest) error {
	dec := json.NewDecoder(r)
	if err := delim(dec, '{'); err != nil {
		return err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		switch {
		case strings.EqualFold(key, "variant"):
			err = dec.Decode(&m.Variant)
		case strings.EqualFold(key, "mode"):
			err = dec.Decode(&m.Mode)
		case strings.EqualFold(key, "cases"):
			err = decodeEntries(dec, m)
		case strings.EqualFold(key, "unfinished"):
			err = dec.Decode(&m.Unfinished)
		default:
			var skip json.RawMessage
			err = dec.Decode(&skip)
		}
		if err != nil {
			return err
		}
	}
	if err := delim(dec, '}'); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("invalid character after top-level value")
	}
	return nil
}

func decodeEntries(dec *json.Decoder, m *Manifest) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok == nil {
		m.Cases = nil
		return nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("cases: want an object, got %v", tok)
	}
	if m.Cases == nil {
		m.Cases = map[string]Entry{}
	}
	seen := map[string]int{} // distinct entries, by content, in m.entries
	var key strings.Builder
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		k, _ := tok.(string)
		var e Entry // a repeated key replaces the value, as json.Unmarshal does
		if err := dec.Decode(&e); err != nil {
			return err
		}
		var at, n uint32
		if m.index != nil {
			at, n = m.packSums(&e)
		}
		// Entries are shared by their whole content: its JSON (map keys
		// sorted), so a field added to Entry is never left out of the key.
		key.Reset()
		if b, err := json.Marshal(e); err == nil {
			key.Write(b)
		}
		if e.Files == nil {
			key.WriteString("\x00nil")
		}
		if m.index != nil {
			i, ok := seen[key.String()]
			if !ok {
				i = len(m.entries)
				m.entries = append(m.entries, e)
				seen[key.String()] = i
			}
			m.index[sumKey(k)] = caseRef{entry: uint32(i), at: at, n: n}
			continue
		}
		if i, ok := seen[key.String()]; ok {
			e = m.entries[i]
		} else {
			seen[key.String()] = len(m.entries)
			m.entries = append(m.entries, e)
		}
		m.Cases[k] = e
	}
	if m.index == nil {
		m.entries = nil
	} else {
		m.Cases = nil
	}
	return delim(dec, '}')
}

func delim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return fmt.Errorf("want %q, got %v", want, tok)
	}
	return nil
}

// Save writes the manifest atomically, keys sorted.
func (s Shelf) Save(m *Manifest) error {
	if m.index != nil {
		return errors.New("a compact manifest cannot be saved")
	}
	if err := os.MkdirAll(s.Dir(), 0o755); err != nil {
		return err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		return err
	}
	return fsutil.WriteFileAtomic(s.ManifestPath(), buf.Bytes(), 0o644)
}

// Status of a case's cassette against the variant as it is now.
const (
	StatusCurrent  = "current"  // recorded with the files the variant has now
	StatusStale    = "stale"    // a file its requests used has changed since
	StatusMissing  = "missing"  // no cassette
	StatusUnlisted = "unlisted" // a cassette recorded.json does not know
	// StatusUnfinished: a recording selected the case and has not
	// recorded it since (killed, interrupted, out of disk or budget, or
	// the case failed); its cassettes may be from before, or half replaced.
	StatusUnfinished = "unfinished"
)

// Check is a cassette's status, with the files that changed when stale.
type Check struct {
	Status  string
	Changed []string
	Entry   Entry
	// Unfinished, for StatusUnfinished, is the recording that left the
	// case unfinished: the backend, policy and samples that finish it.
	Unfinished *Unfinished
}

// Check compares the cassette of c with v. A case whose recording did not
// finish is unfinished whatever its cassettes, unless they are missing.
func (m *Manifest) Check(s Shelf, v *prompts.Variant, c *dataset.Case) Check {
	e, listed := m.Entry(c.Key())
	for k := 1; k <= e.SampleCount(); k++ {
		if _, err := os.Stat(s.SamplePath(c, k)); err != nil {
			return Check{Status: StatusMissing, Entry: e}
		}
	}
	if m.IsUnfinished(c.Key()) {
		return Check{Status: StatusUnfinished, Entry: e, Unfinished: m.Unfinished}
	}
	if !listed {
		return Check{Status: StatusUnlisted}
	}
	if changed := v.Changed(e.Files); len(changed) > 0 {
		return Check{Status: StatusStale, Changed: changed, Entry: e}
	}
	return Check{Status: StatusCurrent, Entry: e}
}

// UsedFiles lists the variant files whose contents went into a session's
// requests: the system prompt of every phase that ran, the consent prompt
// when the model read a consent reply, the tools and the structured-mode
// addendum when offered, and always the settings.
func UsedFiles(s *trace.Session) []string {
	used := map[string]bool{prompts.SettingsFile: true}
	for _, t := range s.Turns {
		if t.ConsentCall != nil {
			used[prompts.ConsentFile] = true
		}
		switch t.Phase {
		case trace.Phase1:
			used[prompts.Phase1File] = true
		case trace.Decline:
			used[prompts.DeclineFile] = true
		case trace.Phase2:
			used[prompts.Phase2File] = true
			if t.Mode == trace.ModeStructured {
				used[prompts.StructuredFile] = true
			}
			for _, mc := range t.ModelCalls {
				if len(mc.ToolsOffered) > 0 {
					used[prompts.ToolsFile] = true
				}
			}
		}
	}
	var out []string
	for _, f := range prompts.Files {
		if used[f] {
			out = append(out, f)
		}
	}
	return out
}

// entryOf is the manifest entry of a case just recorded, one session and
// one cassette sum per sample.
func entryOf(v *prompts.Variant, backend, policy string, sessions []*trace.Session, sums []string) Entry {
	e := Entry{Backend: backend, VariantHash: v.Hash, Files: map[string]string{}, Sums: sums}
	if backend == BackendSim {
		e.Policy = policy
	}
	if len(sessions) > 1 {
		e.Samples = len(sessions)
	}
	for _, s := range sessions {
		for _, f := range UsedFiles(s) {
			e.Files[f] = v.Hashes[f]
		}
	}
	return e
}

// StaleError is the error of a case whose cassette was recorded with
// variant files that have changed since.
type StaleError struct {
	Case    string
	Path    string
	Changed []string
	// Then and Now are the variant's hashes at recording time and now.
	Then, Now string
	Hint      string // the command that re-records what is stale
}

func (e *StaleError) Error() string {
	s := fmt.Sprintf("stale cassette %s (case %s): recorded before %s changed (variant hash %s then, %s now), so the requests it holds are no longer the ones the variant sends",
		filepath.ToSlash(e.Path), e.Case, joinAnd(e.Changed), e.Then, e.Now)
	if e.Hint != "" {
		s += "; re-record what is stale with: " + e.Hint
	}
	return s
}

// Verify reports whether every sample cassette of the entry's case holds
// the bytes the entry's sums describe (an entry without sums passes).
func (s Shelf) Verify(c *dataset.Case, e Entry) bool {
	for k := 1; k <= len(e.Sums); k++ {
		if sum, err := FileSum(s.SamplePath(c, k)); err != nil || sum != e.Sum(k) {
			return false
		}
	}
	return true
}

// UnlistedError is the error of a cassette recorded.json does not know.
type UnlistedError struct {
	Case, Path, Hint string
}

func (e *UnlistedError) Error() string {
	s := fmt.Sprintf("cassette %s (case %s) is not in %s, so nothing says which prompts it was recorded with",
		filepath.ToSlash(e.Path), e.Case, ManifestName)
	if e.Hint != "" {
		s += "; re-record it with: " + e.Hint
	}
	return s
}

// UnfinishedError is the error of a case a recording selected and did not
// finish: its cassettes may be those of before, or partly replaced.
type UnfinishedError struct {
	Case, Path, Hint string
}

func (e *UnfinishedError) Error() string {
	s := fmt.Sprintf("cassette %s (case %s): the last recording into this shelf selected the case and did not finish it "+
		"(interrupted, out of disk or budget, or the case failed), so its cassettes may be from before it or half replaced",
		filepath.ToSlash(e.Path), e.Case)
	if e.Hint != "" {
		s += "; finish that recording with: " + e.Hint
	}
	return s
}

func joinAnd(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}
