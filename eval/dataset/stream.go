package dataset

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"runtime"

	"go.yaml.in/yaml/v3"
)

// Catalog is a set of dataset files that passed validation, whose cases
// are read again, one at a time, when they are needed: a run's memory does
// not grow with the number of cases.
//
// OpenDir and OpenFiles validate every file in one pass that holds one case
// at a time (and the ids seen, to find duplicates), and report every
// problem of every file at once, as LoadDir does; nothing runs until they
// are fixed. Cases then streams the cases again. A file that changed since
// it was validated is an error, never a silent run of other data.
//
// Streaming reads a file in the block layout every dataset uses: a
// top-level `kind:` before a top-level `cases:` whose items are block
// sequence entries. Each entry is decoded on its own (a yaml.v3 Node per
// case, with its file line numbers). A file in any other layout (a flow
// list of cases, an anchor used across cases, several documents, a syntax
// error) is decoded whole instead, with identical results.
type Catalog struct {
	// Datasets are the files in order, without their cases: each has its
	// Count and SHA256.
	Datasets []*Dataset
}

// OpenDir opens every *.yaml file in dir, sorted by name, as OpenFiles.
func OpenDir(dir string, visit func(*Case)) (*Catalog, error) {
	paths, err := datasetFiles(dir)
	if err != nil {
		return nil, err
	}
	return OpenFiles(paths, visit)
}

// OpenFiles validates the named dataset files, one case at a time, and
// returns their catalog, or an *Error with every problem found. visit, if
// set, sees every case as it is validated, in order (a caller counts or
// selects cases without a second pass); when the result is an error, the
// cases it saw mean nothing.
func OpenFiles(paths []string, visit func(*Case)) (*Catalog, error) {
	cat := &Catalog{}
	var problems []Problem
	names := map[string]string{}
	for _, path := range paths {
		ds, ps, err := scanFile(path, true, func(c *Case) bool {
			if visit != nil {
				visit(c)
			}
			return true
		})
		if err != nil {
			problems = append(problems, Problem{File: path, Msg: err.Error()})
			continue
		}
		problems = append(problems, ps...)
		if ds == nil {
			continue
		}
		if prev, dup := names[ds.Name]; dup {
			problems = append(problems, Problem{File: path, Msg: fmt.Sprintf("dataset name %q is also used by %s; cassettes would collide", ds.Name, prev)})
		}
		names[ds.Name] = path
		cat.Datasets = append(cat.Datasets, ds)
	}
	if len(problems) > 0 {
		return nil, newError(problems)
	}
	return cat, nil
}

// Count is the number of cases in the catalog.
func (c *Catalog) Count() int {
	n := 0
	for _, d := range c.Datasets {
		n += d.Count
	}
	return n
}

// Cases yields every case of every file, in order, decoding one at a time.
// It yields an error and stops when a file cannot be read or no longer is
// what was validated.
func (c *Catalog) Cases() iter.Seq2[*Case, error] {
	return func(yield func(*Case, error) bool) {
		for _, d := range c.Datasets {
			stopped := false
			got, ps, err := scanFile(d.Path, false, func(cs *Case) bool {
				if !yield(cs, nil) {
					stopped = true
					return false
				}
				return true
			})
			if stopped {
				return
			}
			switch {
			case err != nil:
				err = fmt.Errorf("reading dataset %s again: %w", d.Path, err)
			case len(ps) > 0:
				err = fmt.Errorf("dataset %s changed since it was validated: %w", d.Path, newError(ps))
			case got.SHA256 != d.SHA256 || got.Count != d.Count:
				err = fmt.Errorf("dataset %s changed since it was validated (sha256 %s then, %s now): the run read other data than it checked", d.Path, d.SHA256, got.SHA256)
			}
			if err != nil {
				yield(nil, err)
				return
			}
		}
	}
}

// onWhole, when set (by tests), is told of each file decoded whole.
var onWhole func(path string)

// errWhole says a file is not in the streamable layout: it is decoded whole.
var errWhole = errors.New("not in the block layout")

// scanFile validates path case by case, calling each for every case (each
// returns false to stop). It returns the dataset (no Cases; Count and
// SHA256 set) and the problems found; err is for a file that cannot be
// read. dups turns on the duplicate-id check, which keeps every id.
func scanFile(path string, dups bool, each func(*Case) bool) (*Dataset, []Problem, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	h := sha256.New()
	s := &streamer{path: path, r: bufio.NewReaderSize(io.TeeReader(f, h), 64<<10), dups: dups, each: each}
	ds, ps, err := s.run()
	if errors.Is(err, errWhole) {
		// Decode the file whole, and hand on only the cases not yet handed.
		if onWhole != nil {
			onWhole(path)
		}
		return s.whole(f)
	}
	if err != nil || ds == nil {
		return ds, ps, err
	}
	if s.stopped {
		return ds, ps, nil
	}
	ds.SHA256 = hex.EncodeToString(h.Sum(nil))
	return ds, ps, nil
}

// streamer reads one file in the block layout.
type streamer struct {
	path string
	r    *bufio.Reader
	dups bool
	each func(*Case) bool

	line    int    // lines read so far
	pending []byte // a line read but not consumed
	handed  int    // cases handed to each
	stopped bool   // each returned false
}

// next returns the next line (with its newline), or nil at the end.
func (s *streamer) next() ([]byte, error) {
	if s.pending != nil {
		l := s.pending
		s.pending = nil
		s.line++
		return l, nil
	}
	l, err := s.r.ReadBytes('\n')
	if len(l) > 0 {
		s.line++
		return l, nil
	}
	if err == io.EOF {
		return nil, nil
	}
	return nil, err
}

func (s *streamer) unread(l []byte) {
	s.pending = l
	s.line--
}

// blankOrComment reports a line that never starts or ends a block.
func blankOrComment(l []byte) bool {
	t := bytes.TrimLeft(l, " ")
	return len(bytes.TrimSpace(t)) == 0 || t[0] == '#'
}

// tabIndented reports a line indented with a tab, which YAML forbids:
// the whole-file decoder says so.
func tabIndented(l []byte) bool {
	t := bytes.TrimLeft(l, " ")
	return len(t) > 0 && t[0] == '\t'
}

func indent(l []byte) int { return len(l) - len(bytes.TrimLeft(l, " ")) }

// item reports whether l starts a block sequence entry at column c.
func item(l []byte, c int) bool {
	if indent(l) != c || len(l) <= c || l[c] != '-' {
		return false
	}
	rest := l[c+1:]
	return len(rest) == 0 || rest[0] == ' ' || rest[0] == '\n' || rest[0] == '\r'
}

// marker reports a document marker or directive, which streaming leaves to
// the whole-file decoder.
func marker(l []byte) bool {
	return bytes.HasPrefix(l, []byte("---")) || bytes.HasPrefix(l, []byte("...")) || bytes.HasPrefix(l, []byte("%"))
}

func (s *streamer) run() (*Dataset, []Problem, error) {
	// The header: every line up to the top-level `cases:` key.
	var pre bytes.Buffer
	content := false
	for {
		l, err := s.next()
		if err != nil {
			return nil, nil, err
		}
		if l == nil {
			return nil, nil, errWhole // no cases key, or an empty file
		}
		if tabIndented(l) {
			return nil, nil, errWhole
		}
		if marker(l) && (content || !bytes.HasPrefix(l, []byte("---"))) {
			return nil, nil, errWhole
		}
		if !blankOrComment(l) && !marker(l) {
			content = true
		}
		pre.Write(l)
		if isCasesKey(l) {
			break
		}
	}
	casesLine := s.line
	preLines := s.line
	// The kind, from the header alone: each case is validated for it.
	var kind string
	{
		var doc yaml.Node
		if yaml.Unmarshal(pre.Bytes(), &doc) != nil || doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
			return nil, nil, errWhole
		}
		root := doc.Content[0]
		if root.Kind != yaml.MappingNode {
			return nil, nil, errWhole
		}
		for i := 0; i+1 < len(root.Content); i += 2 {
			if root.Content[i].Value == "cases" && i+2 < len(root.Content) {
				return nil, nil, errWhole // an earlier cases key is the one that counts
			}
			if root.Content[i].Value == "kind" && kind == "" {
				kind = root.Content[i+1].Value
				if root.Content[i+1].Kind != yaml.ScalarNode {
					return nil, nil, errWhole
				}
			}
		}
		if kind == "" {
			return nil, nil, errWhole // the kind comes after the cases
		}
	}

	p := &parser{file: s.path}
	ds := &Dataset{Path: s.path, Name: nameOf(s.path), Kind: kind}
	if why := reservedName(ds.Name); why != "" {
		p.problems = append(p.problems, Problem{File: s.path, Msg: fmt.Sprintf("dataset name %q (the file's name) %s; rename the file", ds.Name, why)})
	}
	if !isKnownKind(kind) {
		ds.Kind = ""
	}
	// The ids seen, by a 128-bit hash (a collision among a file's ids is
	// beyond any practical chance): a key of 16 bytes, not a string.
	var seen map[[16]byte]int
	if s.dups {
		seen = map[[16]byte]int{}
	}

	// The entries. Each is decoded and checked on a worker of a small pool
	// (decoding the YAML is most of the pass's time); the results are taken
	// in file order, and ids, counts and problems go in that order as they
	// did one at a time.
	col := -1
	var chunk bytes.Buffer
	start := 0
	dec := newDecoders(s.path, ds)
	defer dec.close()
	take := func(r decoded) error {
		if r.err != nil {
			return r.err
		}
		p.problems = append(p.problems, r.problems...)
		c := r.c
		if c == nil {
			return nil
		}
		ds.Count++
		if seen != nil && c.ID != "" {
			sum := sha256.Sum256([]byte(c.ID))
			k := [16]byte(sum[:16])
			if line, dup := seen[k]; dup {
				p.add(r.n, c.ID, fmt.Sprintf("duplicate id (first used at line %d)", line))
			} else {
				seen[k] = c.Line
			}
		}
		if s.stopped {
			return nil
		}
		s.handed++
		if !s.each(c) {
			s.stopped = true
		}
		return nil
	}
	flush := func() error {
		if chunk.Len() == 0 {
			return nil
		}
		r, ok := dec.add(bytes.Clone(chunk.Bytes()), start-1)
		chunk.Reset()
		if !ok {
			return nil
		}
		return take(r)
	}
	drain := func() error {
		for r := range dec.rest() {
			if err := take(r); err != nil || s.stopped {
				return err
			}
		}
		return nil
	}
	var post bytes.Buffer
	postStart := 0
	for {
		l, err := s.next()
		if err != nil {
			return nil, nil, err
		}
		if l == nil {
			break
		}
		if marker(l) {
			return nil, nil, errWhole
		}
		if tabIndented(l) {
			return nil, nil, errWhole
		}
		if col < 0 {
			if blankOrComment(l) {
				pre.Write(l) // before the first entry: part of the header
				preLines = s.line
				continue
			}
			col = indent(l)
			if !item(l, col) {
				return nil, nil, errWhole // cases is not a block sequence
			}
		}
		if item(l, col) {
			if err := flush(); err != nil {
				return nil, nil, err
			}
			if s.stopped {
				return ds, nil, nil // the caller wants no more
			}
			start = s.line
			chunk.Write(l)
			continue
		}
		if blankOrComment(l) || indent(l) > col {
			chunk.Write(l)
			continue
		}
		// The sequence has ended: the rest is the header's tail.
		postStart = s.line
		post.Write(l)
		rest, err := io.ReadAll(s.r)
		if err != nil {
			return nil, nil, err
		}
		post.Write(rest)
		break
	}
	if col < 0 {
		return nil, nil, errWhole // `cases:` without entries
	}
	if err := flush(); err != nil {
		return nil, nil, err
	}
	if err := drain(); err != nil {
		return nil, nil, err
	}
	if s.stopped {
		return ds, nil, nil
	}

	// The header again, with its tail, validated as the whole-file decoder
	// does; its problems come before the cases'.
	hdr := pre.Bytes()
	if post.Len() > 0 {
		hdr = append(hdr, post.Bytes()...)
	}
	var doc yaml.Node
	if yaml.Unmarshal(hdr, &doc) != nil || doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, nil, errWhole
	}
	if post.Len() > 0 {
		shiftAfter(&doc, preLines, postStart-preLines-1)
	}
	hp := &parser{file: s.path}
	final := &Dataset{}
	cases := hp.header(doc.Content[0], final)
	if final.Kind != ds.Kind || cases == nil || cases.Kind != yaml.ScalarNode || cases.Line != casesLine {
		return nil, nil, errWhole
	}
	return ds, append(hp.problems, p.problems...), nil
}

func isKnownKind(k string) bool {
	for _, x := range Kinds {
		if x == k {
			return true
		}
	}
	return false
}

// isCasesKey reports the top-level `cases:` line with nothing after the
// colon but a comment.
func isCasesKey(l []byte) bool {
	rest, ok := bytes.CutPrefix(l, []byte("cases:"))
	if !ok {
		return false
	}
	rest = bytes.TrimSpace(rest)
	return len(rest) == 0 || rest[0] == '#'
}

// decoded is one entry, decoded and checked: its node, its case (nil when
// it is no case), the problems found, or errWhole.
type decoded struct {
	n        *yaml.Node
	c        *Case
	problems []Problem
	err      error
}

// decoders decode a file's entries on a pool of goroutines and hand the
// results back in the order the entries were added. At most max entries
// are in flight, so memory holds a few cases whatever the file's size.
type decoders struct {
	path  string
	ds    *Dataset
	work  chan job
	queue []chan decoded // the entries in flight, oldest first
	max   int
}

type job struct {
	b      []byte
	offset int
	out    chan decoded
}

func newDecoders(path string, ds *Dataset) *decoders {
	n := runtime.GOMAXPROCS(0)
	d := &decoders{path: path, ds: ds, work: make(chan job), max: 4 * n}
	for range n {
		go func() {
			for j := range d.work {
				j.out <- d.decode(j.b, j.offset)
			}
		}()
	}
	return d
}

func (d *decoders) decode(b []byte, offset int) decoded {
	n, err := decodeItem(b, offset)
	if err != nil {
		return decoded{err: err}
	}
	p := &parser{file: d.path}
	c := p.parseCase(d.ds, n)
	return decoded{n: n, c: c, problems: p.problems}
}

// add queues the entry b (its lines, indented as in the file; offset moves
// its line numbers to the file's). When the queue is full it returns the
// oldest entry's result, and true.
func (d *decoders) add(b []byte, offset int) (decoded, bool) {
	out := make(chan decoded, 1) // a worker never waits on a reader that has left
	d.work <- job{b: b, offset: offset, out: out}
	d.queue = append(d.queue, out)
	if len(d.queue) < d.max {
		return decoded{}, false
	}
	head := d.queue[0]
	d.queue = d.queue[1:]
	return <-head, true
}

// rest returns the results still in flight, in order.
func (d *decoders) rest() iter.Seq[decoded] {
	return func(yield func(decoded) bool) {
		for len(d.queue) > 0 {
			head := d.queue[0]
			d.queue = d.queue[1:]
			if !yield(<-head) {
				return
			}
		}
	}
}

// close stops the workers; results still in flight are dropped.
func (d *decoders) close() { close(d.work) }

// decodeItem decodes one sequence entry (its lines, indented as in the
// file) into its node, with line numbers moved by offset to the file's.
func decodeItem(b []byte, offset int) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, errWhole
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, errWhole
	}
	seq := doc.Content[0]
	if seq.Kind != yaml.SequenceNode || len(seq.Content) != 1 {
		return nil, errWhole
	}
	n := seq.Content[0]
	shift(n, offset)
	return n, nil
}

func shift(n *yaml.Node, by int) {
	n.Line += by
	for _, c := range n.Content {
		shift(c, by)
	}
}

// shiftAfter moves every node below line after by.
func shiftAfter(n *yaml.Node, after, by int) {
	if n.Line > after {
		n.Line += by
	}
	for _, c := range n.Content {
		shiftAfter(c, after, by)
	}
}

// whole decodes the file whole (its layout is not streamable) and hands
// on the cases the stream has not handed yet.
func (s *streamer) whole(f *os.File) (*Dataset, []Problem, error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, nil, err
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, nil, err
	}
	sum := sha256.Sum256(data)
	ds, err := Parse(s.path, data)
	var ps []Problem
	var de *Error
	if errors.As(err, &de) {
		ps = de.Problems
	} else if err != nil {
		ps = []Problem{{File: s.path, Msg: err.Error()}}
	}
	if ds == nil {
		return nil, ps, nil
	}
	cases := ds.Cases
	ds.Cases = nil
	ds.Count = len(cases)
	ds.SHA256 = hex.EncodeToString(sum[:])
	for i, c := range cases {
		if i < s.handed || s.stopped {
			continue
		}
		s.handed++
		if !s.each(c) {
			s.stopped = true
		}
	}
	return ds, ps, nil
}
