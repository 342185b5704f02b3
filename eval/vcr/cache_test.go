package vcr

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// oddCassette is a hand-written cassette with what the entry encoding must
// keep apart: nil and empty trailers, a transfer encoding, an uncompressed
// body, a negative-free duration, an empty body and a non-ASCII one.
const oddCassette = `---
version: 2
interactions:
    - id: 0
      request:
        proto: HTTP/1.1
        proto_major: 1
        proto_minor: 1
        content_length: 0
        host: api.tavily.com
        body: '{"query":"a"}'
        url: https://api.tavily.com/search
        method: POST
      response:
        proto: HTTP/2.0
        proto_major: 2
        proto_minor: 0
        transfer_encoding: [chunked]
        trailer:
            X-Done: ["1"]
        content_length: -1
        uncompressed: true
        body: "héllo\nwörld"
        headers:
            Content-Type: [application/json]
            X-Multi: [a, b]
        status: 200 OK
        code: 200
        duration: 1.5s
    - id: 1
      request:
        proto: HTTP/1.1
        proto_major: 1
        proto_minor: 1
        content_length: 0
        host: api.exa.ai
        url: https://api.exa.ai/search
        method: GET
      response:
        proto: HTTP/1.1
        proto_major: 1
        proto_minor: 1
        content_length: 0
        body: ""
        headers: {}
        status: 429 Too Many Requests
        code: 429
        duration: 0s
`

func writeCassette(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name+Ext)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestEntryRoundTrip(t *testing.T) {
	odd := writeCassette(t, t.TempDir(), "odd", oddCassette)
	for _, path := range []string{goldenPath, odd} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want, err := decodeYAML(strings.TrimSuffix(path, Ext), data)
			if err != nil {
				t.Fatal(err)
			}
			if len(want) == 0 {
				t.Fatal("no interactions decoded")
			}
			sum := sha256.Sum256(data)
			b := encodeEntry(want, sum, "v-test")
			got, err := decodeEntry(b, sum, "v-test")
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("entry decodes to\n%#v\nwant\n%#v", got, want)
			}
			if again := encodeEntry(got, sum, "v-test"); string(again) != string(b) {
				t.Error("encoding is not deterministic")
			}
		})
	}
	// The odd cassette's distinctions survive.
	data, _ := os.ReadFile(odd)
	ints, err := decodeYAML("odd", data)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	got, err := decodeEntry(encodeEntry(ints, sum, "v"), sum, "v")
	if err != nil {
		t.Fatal(err)
	}
	if got[1].Resp.Trailer != nil || got[0].Resp.Trailer == nil || got[1].Resp.Header == nil || len(got[1].Resp.Header) != 0 {
		t.Errorf("nil and empty headers not kept apart: %#v / %#v", got[0].Resp.Trailer, got[1].Resp)
	}
	if got[0].Resp.Duration != 1500*time.Millisecond || !got[0].Resp.Uncompressed || got[0].Resp.Body != "héllo\nwörld" {
		t.Errorf("response 0 = %+v", got[0].Resp)
	}
}

func TestEntryRejected(t *testing.T) {
	data, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	ints, err := decodeYAML("golden", data)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	good := encodeEntry(ints, sum, "v1")
	other := sha256.Sum256([]byte("other yaml"))
	flipped := append([]byte(nil), good...)
	flipped[len(flipped)/2] ^= 0x20
	tests := []struct {
		name    string
		entry   []byte
		sum     [32]byte
		version string
	}{
		{"other version", good, sum, "v2"},
		{"other YAML", good, other, "v1"},
		{"entry of other YAML", encodeEntry(ints, other, "v1"), sum, "v1"},
		{"flipped byte", flipped, sum, "v1"},
		{"truncated", good[:len(good)-9], sum, "v1"},
		{"empty", nil, sum, "v1"},
		{"not an entry", []byte("version: 2\ninteractions: []\n"), sum, "v1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := decodeEntry(tt.entry, tt.sum, tt.version); !errors.Is(err, errEntry) {
				t.Errorf("decodeEntry = %d interactions, %v; want errEntry", len(got), err)
			}
		})
	}
}

// replayBodies replays the golden cassette's requests through a replayer
// opened with opts and returns the response bodies.
func replayBodies(t *testing.T, path string, opts ReplayOptions) []string {
	t.Helper()
	r, err := OpenReplayWith(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out []string
	for i := range r.ints {
		in := r.ints[i]
		req, _ := http.NewRequest(in.Method, in.URL, strings.NewReader(in.Body))
		resp, err := r.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		out = append(out, resp.Status+" "+resp.Header.Get("Content-Type")+" "+string(b))
	}
	if u := r.Unused(); len(u) != 0 {
		t.Fatalf("unused %v", u)
	}
	return out
}

func TestCacheServesSecondReplay(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "case.yaml")
	data, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	want := replayBodies(t, path, ReplayOptions{})
	c := NewCache(filepath.Join(dir, "cache"), func(err error) { t.Errorf("warn: %v", err) })
	for i, st := range []CacheStats{{Built: 1}, {Hits: 1, Built: 1}, {Hits: 2, Built: 1}} {
		if got := replayBodies(t, path, ReplayOptions{Cache: c}); !reflect.DeepEqual(got, want) {
			t.Fatalf("replay %d with the cache differs:\n%q\nwant\n%q", i, got, want)
		}
		if c.Stats() != st {
			t.Fatalf("after replay %d: stats %+v, want %+v", i, c.Stats(), st)
		}
	}
	entry := c.entryPath(sha256.Sum256(data))
	if _, err := os.Stat(entry); err != nil {
		t.Fatal(err)
	}

	// A corrupt entry is ignored and rebuilt.
	if err := os.WriteFile(entry, []byte("SBVC garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := replayBodies(t, path, ReplayOptions{Cache: c}); !reflect.DeepEqual(got, want) {
		t.Fatal("replay over a corrupt entry differs")
	}
	if st := c.Stats(); st != (CacheStats{Hits: 2, Built: 2}) {
		t.Fatalf("corrupt entry: stats %+v, want it rebuilt", st)
	}
	if b, _ := os.ReadFile(entry); string(b) == "SBVC garbage" {
		t.Fatal("corrupt entry not rewritten")
	}

	// An edited cassette is another key: its own entry, never the old one.
	edited := strings.Replace(string(data), "\n    - id: 0\n", "\n    - id: 0\n", 1)
	var c2 CacheStats
	if edited == string(data) {
		edited = string(data) + "\n# edited\n"
	}
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	replayBodies(t, path, ReplayOptions{Cache: c})
	c2 = c.Stats()
	if c2 != (CacheStats{Hits: 2, Built: 3}) {
		t.Fatalf("edited cassette: stats %+v, want a new entry built", c2)
	}

	// An entry of another version is not read (and does not collide).
	v := NewCache(filepath.Join(dir, "cache"), nil)
	v.version = "another version"
	replayBodies(t, path, ReplayOptions{Cache: v})
	if st := v.Stats(); st != (CacheStats{Built: 1}) {
		t.Fatalf("other version: stats %+v, want its own entry built", st)
	}
}

func TestCacheEntryOfOtherYAMLIsNotTrusted(t *testing.T) {
	dir := t.TempDir()
	a := writeCassette(t, dir, "a", oddCassette)
	golden, _ := os.ReadFile(goldenPath)
	b := writeCassette(t, dir, "b", string(golden))
	c := NewCache(filepath.Join(dir, "cache"), nil)
	replayBodies(t, a, ReplayOptions{Cache: c})
	replayBodies(t, b, ReplayOptions{Cache: c})
	// Put a's entry where b's belongs: the hash inside it tells.
	ea := c.entryPath(sha256.Sum256([]byte(oddCassette)))
	eb := c.entryPath(sha256.Sum256(golden))
	entryA, err := os.ReadFile(ea)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(eb, entryA, 0o644); err != nil {
		t.Fatal(err)
	}
	want := replayBodies(t, b, ReplayOptions{})
	if got := replayBodies(t, b, ReplayOptions{Cache: c}); !reflect.DeepEqual(got, want) {
		t.Fatalf("b replayed from a's entry:\n%q", got)
	}
	if st := c.Stats(); st != (CacheStats{Built: 3}) {
		t.Fatalf("stats %+v: the misplaced entry was trusted", st)
	}
}

func TestCacheUnwritableTurnsItselfOff(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var warnings []error
	c := NewCache(filepath.Join(blocker, "cache"), func(err error) { warnings = append(warnings, err) })
	want := replayBodies(t, goldenPath, ReplayOptions{})
	for range 3 {
		if got := replayBodies(t, goldenPath, ReplayOptions{Cache: c}); !reflect.DeepEqual(got, want) {
			t.Fatal("replay with a broken cache differs")
		}
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0].Error(), "cassette cache off") {
		t.Fatalf("warnings = %v, want one", warnings)
	}
	if c.Stats() != (CacheStats{}) {
		t.Fatalf("stats %+v", c.Stats())
	}
}

func TestCacheConcurrent(t *testing.T) {
	dir := t.TempDir()
	c := NewCache(filepath.Join(dir, "cache"), func(err error) { t.Errorf("warn: %v", err) })
	other := NewCache(filepath.Join(dir, "cache"), func(err error) { t.Errorf("warn: %v", err) }) // a second process
	want := replayBodies(t, goldenPath, ReplayOptions{})
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cc := c
			if i%2 == 1 {
				cc = other
			}
			if got := replayBodies(t, goldenPath, ReplayOptions{Cache: cc}); !reflect.DeepEqual(got, want) {
				t.Error("concurrent replay differs")
			}
		}()
	}
	wg.Wait()
	if n := c.Stats().Hits + c.Stats().Built + other.Stats().Hits + other.Stats().Built; n != 16 {
		t.Fatalf("stats count %d replays, want 16", n)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "cache", "cassettes", "*", "*", ".*tmp*"))
	if len(left) > 0 {
		t.Fatalf("temporaries left: %v", left)
	}
}

func TestCacheDir(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	tests := []struct {
		name   string
		getenv func(string) string
		want   string
	}{
		{"override", env(CacheEnv, "/tmp/x", "HOME", "/home/u"), "/tmp/x"},
	}
	if d, err := userCacheDir("linux", env("XDG_CACHE_HOME", "/xdg", "HOME", "/home/u")); err != nil || d != "/xdg" {
		t.Errorf("XDG: %q, %v", d, err)
	}
	if d, err := userCacheDir("linux", env("HOME", "/home/u")); err != nil || d != "/home/u/.cache" {
		t.Errorf("HOME: %q, %v", d, err)
	}
	if d, err := userCacheDir("darwin", env("HOME", "/Users/u")); err != nil || d != "/Users/u/Library/Caches" {
		t.Errorf("darwin: %q, %v", d, err)
	}
	if _, err := userCacheDir("linux", env("XDG_CACHE_HOME", "rel")); err == nil {
		t.Error("relative XDG_CACHE_HOME accepted")
	}
	if _, err := CacheDir(env()); err == nil || !strings.Contains(err.Error(), CacheEnv) {
		t.Errorf("empty environment: %v, want an error naming %s", err, CacheEnv)
	}
	for _, tt := range tests {
		if got, err := CacheDir(tt.getenv); err != nil || got != tt.want {
			t.Errorf("%s: CacheDir = %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
}

func FuzzDecodeEntry(f *testing.F) {
	data, err := os.ReadFile(goldenPath)
	if err != nil {
		f.Fatal(err)
	}
	ints, err := decodeYAML("golden", data)
	if err != nil {
		f.Fatal(err)
	}
	sum := sha256.Sum256([]byte("fuzz"))
	// The inputs are entries without their checksum, which the target
	// appends: otherwise nearly every input would stop at the checksum.
	strip := func(b []byte) []byte { return b[:len(b)-4] }
	f.Add(strip(encodeEntry(ints, sum, "v")))
	f.Add(strip(encodeEntry(ints[:1], sum, "v")))
	f.Add([]byte("SBVC"))
	f.Fuzz(func(t *testing.T, b []byte) {
		b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
		got, err := decodeEntry(b, sum, "v")
		if err != nil {
			return
		}
		// Whatever decodes survives a round trip unchanged.
		again, err := decodeEntry(encodeEntry(got, sum, "v"), sum, "v")
		if err != nil {
			t.Fatalf("re-encoded entry does not decode: %v", err)
		}
		if !reflect.DeepEqual(again, got) {
			t.Fatalf("round trip changed the entry:\n%#v\n%#v", again, got)
		}
	})
}
