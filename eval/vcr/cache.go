package vcr

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"maps"
	"net/http"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/searchbench/searchbench/lib/fsutil"
)

// CacheEnv names the environment variable that moves the decoded-cassette
// cache (tests point it at a temporary folder). Unset, the cache lives in
// the user cache directory: $XDG_CACHE_HOME/searchbench or
// ~/.cache/searchbench on Linux (os.UserCacheDir's rules).
const CacheEnv = "SEARCHBENCH_CACHE_DIR"

// cacheFormat is the version of the entry encoding below. Bump it whenever
// the encoding, or what an entry means, changes: entries of another format
// live in another folder and are never read.
//
// Format 2 added each request body's canonical state (interaction.Canon)
// and the rules it was worked out under (canonRules). Bump the format too
// when canonicalisation itself changes.
const cacheFormat = 2

// canonRules names what a body's canonical form depends on besides the
// code: the volatile and secret fields.
func canonRules() string {
	return fmt.Sprintf("%q %q", DefaultVolatile, SecretFields)
}

// cacheMagic opens every entry.
const cacheMagic = "SBVC"

// Cache keeps each cassette's interactions, decoded, in a compact binary
// form, so that a replay of an unchanged cassette skips YAML decoding (most
// of a replay's cost). The YAML file stays the source of truth: an entry is
// keyed by the sha256 of the YAML bytes and by the version of searchbench
// and of the entry format, and it carries all three plus a CRC-32C of its
// bytes, which are checked on every read. An entry that is missing, of
// another key, truncated or corrupt is ignored, and the cassette is decoded
// from its YAML and the entry written again.
//
// Entries are written through a temporary file and a rename, so concurrent
// runs (which would write identical bytes) and a reader never see half an
// entry. They are not fsynced: an entry torn by a crash fails its checksum
// and is rebuilt. The cache is safe for concurrent use.
type Cache struct {
	dir     string // <root>/cassettes/v<format>
	version string
	warn    func(error)

	off   atomic.Bool // set after a write failed: the run goes on without the cache
	once  sync.Once
	hits  atomic.Int64
	built atomic.Int64 // entries decoded from YAML and written
}

// CacheStats counts what a Cache did.
type CacheStats struct {
	Hits  int64 // cassettes read from an entry
	Built int64 // cassettes decoded from YAML and stored
}

// NewCache returns the cache under root. warn, if set, is told once when an
// entry cannot be written; the cache then stays off for the rest of the
// process, and replays read the YAML as without a cache.
func NewCache(root string, warn func(error)) *Cache {
	return &Cache{
		dir:     filepath.Join(root, "cassettes", fmt.Sprintf("v%d", cacheFormat)),
		version: Version(),
		warn:    warn,
	}
}

// Stats returns the counts so far.
func (c *Cache) Stats() CacheStats {
	return CacheStats{Hits: c.hits.Load(), Built: c.built.Load()}
}

// CacheDir is the cache's root folder: $SEARCHBENCH_CACHE_DIR, else
// searchbench under the user cache directory, found from getenv with
// os.UserCacheDir's rules. It fails when neither can be found (no HOME).
func CacheDir(getenv func(string) string) (string, error) {
	if d := getenv(CacheEnv); d != "" {
		return d, nil
	}
	base, err := userCacheDir(runtime.GOOS, getenv)
	if err != nil {
		return "", fmt.Errorf("no folder for the cassette cache: %w (set %s)", err, CacheEnv)
	}
	return filepath.Join(base, "searchbench"), nil
}

// userCacheDir is os.UserCacheDir reading the environment through getenv,
// so that a test's environment decides and never the real one.
func userCacheDir(goos string, getenv func(string) string) (string, error) {
	var dir string
	switch goos {
	case "windows":
		dir = getenv("LocalAppData")
		if dir == "" {
			return "", errors.New("%LocalAppData% is not defined")
		}
	case "darwin", "ios":
		dir = getenv("HOME")
		if dir == "" {
			return "", errors.New("$HOME is not defined")
		}
		dir += "/Library/Caches"
	case "plan9":
		dir = getenv("home")
		if dir == "" {
			return "", errors.New("$home is not defined")
		}
		dir += "/lib/cache"
	default:
		dir = getenv("XDG_CACHE_HOME")
		if dir == "" {
			dir = getenv("HOME")
			if dir == "" {
				return "", errors.New("neither $XDG_CACHE_HOME nor $HOME are defined")
			}
			dir += "/.cache"
		} else if !filepath.IsAbs(dir) {
			return "", errors.New("path in $XDG_CACHE_HOME is relative")
		}
	}
	return dir, nil
}

// Version identifies the searchbench build for the cache key: the main
// module's version (a tag, or the pseudo-version go build stamps from the
// repository) and the go-vcr version whose loader decoded the entries.
var Version = sync.OnceValue(func() string {
	v := "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		v = bi.Main.Path + "@" + bi.Main.Version
		for _, d := range bi.Deps {
			if d.Path == "gopkg.in/dnaeon/go-vcr.v4" {
				v += " go-vcr@" + d.Version
			}
		}
	}
	return v
})

// entryPath is where the entry of a cassette whose YAML hashes to sum
// lives. The name carries the version too, so builds of two versions
// sharing a cache do not overwrite each other's entries.
func (c *Cache) entryPath(sum [sha256.Size]byte) string {
	vh := sha256.Sum256([]byte(c.version))
	name := hex.EncodeToString(sum[:]) + "-" + hex.EncodeToString(vh[:4]) + ".bin"
	return filepath.Join(c.dir, name[:2], name)
}

// on reports whether c is there and has not turned itself off.
func (c *Cache) on() bool { return c != nil && !c.off.Load() }

// load returns the interactions of the cassette whose YAML is data: from
// the entry when a valid one exists, else decoded from data (and stored).
// sum is data's sha256.
func (c *Cache) load(name string, data []byte, sum [sha256.Size]byte) ([]interaction, error) {
	if !c.on() {
		return decodeYAML(name, data)
	}
	path := c.entryPath(sum)
	buf := readBuffers.Get().(*[]byte)
	defer readBuffers.Put(buf)
	if b, err := readFile(path, buf); err == nil {
		if ints, err := decodeEntry(b, sum, c.version); err == nil {
			c.hits.Add(1)
			return ints, nil
		}
		// A stale or corrupt entry: ignored, and rebuilt below.
	}
	ints, err := decodeYAML(name, data)
	if err != nil {
		return nil, err
	}
	markCanon(ints)
	if err := writeEntry(path, encodeEntry(ints, sum, c.version)); err != nil {
		c.off.Store(true)
		c.once.Do(func() {
			if c.warn != nil {
				c.warn(fmt.Errorf("cassette cache off for this run: %w", err))
			}
		})
		return ints, nil
	}
	c.built.Add(1)
	return ints, nil
}

// writeEntry publishes an entry atomically, without fsync (see Cache).
func writeEntry(path string, data []byte) error {
	return fsutil.WriteFileAtomicNoSync(path, data, 0o644)
}

// encodeEntry encodes interactions as an entry: the magic, the format, the
// YAML's sha256, the version, the interactions, then a CRC-32C of all of it.
func encodeEntry(ints []interaction, sum [sha256.Size]byte, version string) []byte {
	n := len(cacheMagic) + 64
	for i := range ints {
		in := &ints[i]
		n += len(in.Method) + len(in.URL) + len(in.Body) + len(in.Resp.Body) + 64
	}
	e := entryEncoder{b: make([]byte, 0, n)}
	e.b = append(e.b, cacheMagic...)
	e.uint(cacheFormat)
	e.b = append(e.b, sum[:]...)
	e.str(version)
	e.str(canonRules())
	e.uint(uint64(len(ints)))
	for i := range ints {
		in := &ints[i]
		e.int(int64(in.ID))
		e.str(in.Method)
		e.str(in.URL)
		e.str(in.Body)
		e.b = append(e.b, byte(in.Canon))
		r := &in.Resp
		e.str(r.Status)
		e.int(int64(r.Code))
		e.str(r.Proto)
		e.int(int64(r.ProtoMajor))
		e.int(int64(r.ProtoMinor))
		e.header(r.Header)
		e.header(r.Trailer)
		e.strs(r.TransferEncoding)
		e.bool(r.Uncompressed)
		e.str(r.Body)
		e.int(int64(r.Duration))
	}
	return binary.LittleEndian.AppendUint32(e.b, crc32.Checksum(e.b, castagnoli))
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

type entryEncoder struct{ b []byte }

func (e *entryEncoder) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *entryEncoder) int(v int64)   { e.b = binary.AppendVarint(e.b, v) }
func (e *entryEncoder) str(s string) {
	e.uint(uint64(len(s)))
	e.b = append(e.b, s...)
}

func (e *entryEncoder) bool(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}

// strs encodes a list, keeping nil apart from empty: the count plus one,
// or 0 for nil.
func (e *entryEncoder) strs(xs []string) {
	if xs == nil {
		e.uint(0)
		return
	}
	e.uint(uint64(len(xs)) + 1)
	for _, x := range xs {
		e.str(x)
	}
}

// header encodes a header with its keys sorted (the same map always gives
// the same bytes), nil kept apart from empty.
func (e *entryEncoder) header(h http.Header) {
	if h == nil {
		e.uint(0)
		return
	}
	e.uint(uint64(len(h)) + 1)
	for _, k := range slices.Sorted(maps.Keys(h)) {
		e.str(k)
		e.strs(h[k])
	}
}

// errEntry is any reason an entry is not used.
var errEntry = errors.New("invalid cache entry")

// decodeEntry decodes an entry written for the YAML that hashes to sum by
// this version. Every string of the result shares one copy of b.
func decodeEntry(b []byte, sum [sha256.Size]byte, version string) ([]interaction, error) {
	if len(b) < len(cacheMagic)+4 || string(b[:len(cacheMagic)]) != cacheMagic {
		return nil, errEntry
	}
	body, tail := b[:len(b)-4], b[len(b)-4:]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(tail) {
		return nil, fmt.Errorf("%w: checksum", errEntry)
	}
	d := entryDecoder{s: string(body), i: len(cacheMagic)}
	if d.uint() != cacheFormat {
		return nil, fmt.Errorf("%w: format", errEntry)
	}
	if d.i+sha256.Size > len(d.s) || d.s[d.i:d.i+sha256.Size] != string(sum[:]) {
		return nil, fmt.Errorf("%w: YAML hash", errEntry)
	}
	d.i += sha256.Size
	if d.str() != version {
		return nil, fmt.Errorf("%w: version", errEntry)
	}
	// States worked out under other rules (a build whose version string did
	// not change with them) are not trusted: they read as unknown.
	sameRules := d.str() == canonRules()
	n := d.uint()
	if d.err || n > uint64(len(d.s)) {
		return nil, errEntry
	}
	ints := make([]interaction, n)
	for i := range ints {
		in := &ints[i]
		in.ID = int(d.int())
		in.Method = d.str()
		in.URL = d.str()
		in.Body = d.str()
		if in.Canon = d.canon(); !sameRules {
			in.Canon = canonUnknown
		}
		r := &in.Resp
		r.Status = d.str()
		r.Code = int(d.int())
		r.Proto = d.str()
		r.ProtoMajor = int(d.int())
		r.ProtoMinor = int(d.int())
		r.Header = d.header()
		r.Trailer = d.header()
		r.TransferEncoding = d.strs()
		r.Uncompressed = d.bool()
		r.Body = d.str()
		r.Duration = time.Duration(d.int())
		if d.err {
			return nil, errEntry
		}
	}
	if d.err || d.i != len(d.s) {
		return nil, fmt.Errorf("%w: trailing bytes", errEntry)
	}
	return ints, nil
}

// entryDecoder reads an entry; any overrun sets err and yields zeros.
type entryDecoder struct {
	s   string
	i   int
	err bool
}

func (d *entryDecoder) uint() uint64 {
	var v uint64
	var shift uint
	for d.i < len(d.s) && shift < 64 {
		c := d.s[d.i]
		d.i++
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v
		}
		shift += 7
	}
	d.err = true
	return 0
}

func (d *entryDecoder) int() int64 {
	u := d.uint()
	v := int64(u >> 1)
	if u&1 != 0 {
		v = ^v
	}
	return v
}

func (d *entryDecoder) str() string {
	n := d.uint()
	if d.err || n > uint64(len(d.s)-d.i) {
		d.err = true
		return ""
	}
	s := d.s[d.i : d.i+int(n)]
	d.i += int(n)
	return s
}

func (d *entryDecoder) bool() bool {
	if d.i >= len(d.s) || d.s[d.i] > 1 {
		d.err = true
		return false
	}
	d.i++
	return d.s[d.i-1] == 1
}

func (d *entryDecoder) canon() canonState {
	if d.i >= len(d.s) || d.s[d.i] > byte(canonOther) {
		d.err = true
		return canonUnknown
	}
	d.i++
	return canonState(d.s[d.i-1])
}

// count reads a nil-or-count prefix; every element takes at least one
// byte, so a count beyond the bytes left is corrupt.
func (d *entryDecoder) count() (int, bool) {
	n := d.uint()
	if d.err || n == 0 {
		return 0, false
	}
	if n-1 > uint64(len(d.s)-d.i) {
		d.err = true
		return 0, false
	}
	return int(n - 1), true
}

func (d *entryDecoder) strs() []string {
	n, ok := d.count()
	if !ok {
		return nil
	}
	xs := make([]string, n)
	for i := range xs {
		xs[i] = d.str()
	}
	return xs
}

func (d *entryDecoder) header() http.Header {
	n, ok := d.count()
	if !ok {
		return nil
	}
	h := make(http.Header, n)
	for range n {
		k := d.str()
		h[k] = d.strs()
	}
	return h
}

// memFS hands go-vcr's loader the bytes already read (and hashed), so a
// cassette is read from disk once.
type memFS []byte

func (m memFS) ReadFile(string) ([]byte, error) { return m, nil }
func (memFS) WriteFile(string, []byte) error    { return fs.ErrPermission }
func (memFS) IsFileExists(string) bool          { return true }
