package run

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"syscall"

	"github.com/searchbench/searchbench/lib/fsutil"
)

// JournalName is the file beside recorded.json where a recording notes
// each case as it finishes. recorded.json is rewritten whole only when a
// recording starts and ends; in between, a finished case's entry is one
// line appended to the journal and synced, so a recording killed (kill
// -9), interrupted or out of disk loses no finished case's description.
// Reading a shelf's manifest applies its journal; the next recording folds
// it into recorded.json.
const JournalName = "recorded.journal"

// Unfinished is the part of a shelf's recording that has not finished:
// the cases it selected that have not been recorded since, and what the
// recordings that selected them have spent so far. Replay refuses these
// cases (their cassettes may be from before, or half replaced), and
// record --stale records them, counting the spend towards its budget.
type Unfinished struct {
	Cases []string `json:"cases"` // case keys, sorted
	// Backend, Policy and Samples are how the latest recording that left
	// cases unfinished was recording them: what finishing them takes.
	Backend     string  `json:"backend,omitempty"`
	Policy      string  `json:"policy,omitempty"`
	Samples     int     `json:"samples,omitempty"`
	Seed        int64   `json:"seed,omitempty"`
	SpentUSD    float64 `json:"spent_usd,omitempty"`
	SpentTokens int     `json:"spent_tokens,omitempty"`
}

// journalLine is one line of the journal: a case that finished (Entry set)
// or failed, and what it spent.
type journalLine struct {
	Case   string  `json:"case"`
	Entry  *Entry  `json:"entry,omitempty"`
	USD    float64 `json:"usd,omitempty"`
	Tokens int     `json:"tokens,omitempty"`
}

// JournalPath is the shelf's journal.
func (s Shelf) JournalPath() string { return filepath.Join(s.Dir(), JournalName) }

// IsUnfinished reports whether the case key belongs to a recording that
// has not finished it.
func (m *Manifest) IsUnfinished(key string) bool {
	if m.index != nil {
		_, ok := m.pendingSum[sumKey(key)]
		return ok
	}
	return m.pending[key]
}

// indexPending builds the lookup of m.Unfinished's cases.
func (m *Manifest) indexPending() {
	if m.Unfinished == nil {
		return
	}
	if m.index != nil {
		m.pendingSum = map[keySum]struct{}{}
		for _, k := range m.Unfinished.Cases {
			m.pendingSum[sumKey(k)] = struct{}{}
		}
		m.Unfinished.Cases = nil // a compact manifest keeps no keys
		return
	}
	m.pending = map[string]bool{}
	for _, k := range m.Unfinished.Cases {
		m.pending[k] = true
	}
}

// begin marks keys unfinished: a recording of them starts, from backend
// (and simulator policy) with samples (0: as recorded.json lists) drawn
// from seed.
func (m *Manifest) begin(keys []string, backend, policy string, samples int, seed int64) {
	if len(keys) == 0 {
		return
	}
	if m.Unfinished == nil {
		m.Unfinished = &Unfinished{}
	}
	m.Unfinished.Backend, m.Unfinished.Policy, m.Unfinished.Samples, m.Unfinished.Seed = backend, "", samples, seed
	if backend == BackendSim {
		m.Unfinished.Policy = policy
	}
	if m.pending == nil {
		m.pending = map[string]bool{}
	}
	for _, k := range keys {
		m.pending[k] = true
	}
}

// apply records a journal line in m: the case's entry when it finished,
// and its spend either way.
func (m *Manifest) apply(l journalLine) {
	if m.Unfinished == nil {
		m.Unfinished = &Unfinished{}
	}
	m.Unfinished.SpentUSD += l.USD
	m.Unfinished.SpentTokens += l.Tokens
	if l.Entry == nil {
		return
	}
	if m.index != nil {
		m.entries = append(m.entries, *l.Entry)
		m.index[sumKey(l.Case)] = caseRef{entry: uint32(len(m.entries) - 1)} // its sums stay in the entry
		delete(m.pendingSum, sumKey(l.Case))
		return
	}
	m.Cases[l.Case] = *l.Entry
	delete(m.pending, l.Case)
}

// settle is m as it is saved: the unfinished cases listed, sorted, or no
// Unfinished at all once none is left (the spend of a finished recording
// is no longer anyone's budget).
func (m *Manifest) settle() {
	if m.Unfinished == nil {
		return
	}
	if len(m.pending) == 0 {
		m.Unfinished = nil
		return
	}
	m.Unfinished.Cases = m.Unfinished.Cases[:0]
	for k := range m.pending {
		m.Unfinished.Cases = append(m.Unfinished.Cases, k)
	}
	sort.Strings(m.Unfinished.Cases)
}

// applyJournal applies the shelf's journal, if any, to m. A last line cut
// short (the recording was killed while writing it) is ignored; its case
// stays unfinished.
func (s Shelf) applyJournal(m *Manifest) error {
	b, err := os.ReadFile(s.JournalPath())
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for n := 1; len(b) > 0; n++ {
		line, rest, complete := bytes.Cut(b, []byte("\n"))
		b = rest
		if !complete {
			break
		}
		var l journalLine
		if err := json.Unmarshal(line, &l); err != nil || l.Case == "" {
			return fmt.Errorf("%s:%d: not a journal line (delete %s and %s, then re-record the shelf)",
				s.JournalPath(), n, JournalName, ManifestName)
		}
		m.apply(l)
	}
	return nil
}

// commit writes m as recorded.json, journal applied, and removes the
// journal. A journal left by a failure to remove it is applied again on
// the next read, to the same effect: a journal line sets an entry, and the
// spend it adds is only kept while cases remain unfinished.
func (s Shelf) commit(m *Manifest) error {
	m.settle()
	if err := s.Save(m); err != nil {
		return err
	}
	if err := os.Remove(s.JournalPath()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// journal appends lines to a shelf's journal, each synced before append
// returns.
type journal struct {
	path string
	f    *os.File
	w    *bufio.Writer
}

func (s Shelf) openJournal() (*journal, error) {
	if err := fsutil.RefuseSymlink(s.JournalPath()); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(s.JournalPath(), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", s.JournalPath(), err)
	}
	return &journal{path: s.JournalPath(), f: f, w: bufio.NewWriter(f)}, nil
}

// append writes l as one line and syncs it.
func (j *journal) append(l journalLine) error {
	b, err := json.Marshal(l)
	if err != nil {
		return err
	}
	if err := fsutil.FaultAt("append", j.path); err != nil {
		return fmt.Errorf("noting case %s in %s: %w", l.Case, j.path, err)
	}
	j.w.Write(b)
	j.w.WriteByte('\n')
	if err := j.w.Flush(); err != nil {
		return fmt.Errorf("noting case %s in %s: %w", l.Case, j.path, err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("noting case %s in %s: %w", l.Case, j.path, err)
	}
	return nil
}

func (j *journal) close() error { return j.f.Close() }

// DiskError is what stopped a recording: the disk refused a write (full,
// over quota, read-only, failing). Every case after it would fail alike,
// so none is started.
type DiskError struct{ Err error }

func (e *DiskError) Error() string { return e.Err.Error() }

// Cause is the refusal itself: "no space left on device".
func (e *DiskError) Cause() string {
	var errno syscall.Errno
	if errors.As(e.Err, &errno) {
		return errno.Error()
	}
	return e.Err.Error()
}

func (e *DiskError) Unwrap() error { return e.Err }

// diskError reports whether err is the disk's: no space, no quota, a
// read-only or failing file system.
func diskError(err error) bool {
	return slices.ContainsFunc([]error{syscall.ENOSPC, syscall.EDQUOT, syscall.EROFS, syscall.EIO}, func(e error) bool { return errors.Is(err, e) })
}
