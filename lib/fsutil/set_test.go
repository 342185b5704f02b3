package fsutil

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

func TestSetDirSwapsWhole(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "latest")
	owned := []string{"a", "b", "traces"}
	publish := func(files map[string]string) {
		t.Helper()
		s, err := CreateSetDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for n, c := range files {
			if err := os.WriteFile(s.Path(n), []byte(c), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Commit(owned); err != nil {
			t.Fatal(err)
		}
	}
	publish(map[string]string{"a": "1", "b": "1", "traces": "1"})
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644) // a user's file
	publish(map[string]string{"a": "2", "b": "2"})
	for n, want := range map[string]string{"a": "2", "b": "2", "notes.txt": "mine"} {
		if b, err := os.ReadFile(filepath.Join(dir, n)); err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want %q", n, b, err, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "traces")); !os.IsNotExist(err) {
		t.Errorf("the earlier set's traces survived a set without them: %v", err)
	}
	ents, _ := os.ReadDir(base)
	if len(ents) != 1 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("beside the folder: %v, want only it", names)
	}
	// An aborted set leaves nothing.
	s, _ := CreateSetDir(dir)
	os.WriteFile(s.Path("a"), []byte("3"), 0o644)
	s.Abort()
	if b, _ := os.ReadFile(filepath.Join(dir, "a")); string(b) != "2" {
		t.Errorf("an aborted set changed a: %q", b)
	}
	if ents, _ := os.ReadDir(base); len(ents) != 1 {
		t.Errorf("an aborted set left %d entries", len(ents))
	}
}

func TestSetDirRefusesLinkedFolder(t *testing.T) {
	base := t.TempDir()
	link := filepath.Join(base, "out")
	os.Symlink(t.TempDir(), link)
	if _, err := CreateSetDir(link); err == nil {
		t.Fatal("a set was started in a linked folder")
	}
}

// TestSweepKeepsWhatIsHeld: temporaries of a live writer stay; those no
// process holds (a killed run's) go.
func TestSweepKeepsWhatIsHeld(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no flock")
	}
	dir := t.TempDir()
	live, err := CreateAtomic(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer live.Abort()
	liveSet, err := CreateSetDir(filepath.Join(dir, "latest"))
	if err != nil {
		t.Fatal(err)
	}
	defer liveSet.Abort()
	dead := filepath.Join(dir, ".report.md.tmp-123")
	os.WriteFile(dead, []byte("x"), 0o644)
	deadSet := filepath.Join(dir, ".latest.tmp-456")
	os.MkdirAll(deadSet, 0o755)
	os.WriteFile(filepath.Join(deadSet, LockName), nil, 0o644)
	os.WriteFile(filepath.Join(dir, "keep.json"), nil, 0o644)
	// What a killed run left is older than this process; a temporary made
	// since, not yet locked by its writer, is left alone.
	old := processStart.Add(-time.Minute)
	for _, p := range []string{dead, deadSet} {
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	young := filepath.Join(dir, ".report.html.tmp-789")
	os.WriteFile(young, []byte("x"), 0o644)
	if n := Sweep(dir); n != 2 {
		t.Errorf("Sweep removed %d, want 2", n)
	}
	for _, p := range []string{live.Name(), liveSet.Path(""), filepath.Join(dir, "keep.json"), young} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	for _, p := range []string{dead, deadSet} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s survived: %v", p, err)
		}
	}
}

func TestSwappable(t *testing.T) {
	wd, _ := os.Getwd()
	for dir, want := range map[string]bool{".": false, "..": false, "/": false, wd: false, "reports/latest": true, t.TempDir(): true} {
		if got := Swappable(dir); got != want {
			t.Errorf("Swappable(%q) = %v, want %v", dir, got, want)
		}
	}
}
