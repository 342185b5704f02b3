package fsutil

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "sub", "f.txt")
	if err := WriteFileAtomic(name, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(name, []byte("two"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(name)
	if err != nil || string(got) != "two" {
		t.Fatalf("got %q, %v; want two", got, err)
	}
	entries, _ := os.ReadDir(filepath.Dir(name))
	if len(entries) != 1 {
		t.Fatalf("temporary files left behind: %v", entries)
	}
}

func TestWriteFileAtomicKeepsOldOnFailure(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(name, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A directory in the way of the rename makes the final step fail.
	blocked := filepath.Join(dir, "blocked")
	if err := os.MkdirAll(filepath.Join(blocked, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(blocked, []byte("new"), 0o644); err == nil {
		t.Fatal("want an error renaming over a non-empty directory")
	}
	got, _ := os.ReadFile(name)
	if string(got) != "old" {
		t.Fatalf("old file changed: %q", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Fatalf("temporary files left behind: %v", entries)
	}
}

func TestAtomicFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "r.json")
	if err := os.WriteFile(name, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := CreateAtomic(name)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("new")
	if got, _ := os.ReadFile(name); string(got) != "old" {
		t.Fatalf("visible before commit: %q", got)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	f.Abort() // no-op after Commit
	if got, _ := os.ReadFile(name); string(got) != "new" {
		t.Fatalf("after commit: %q", got)
	}

	g, _ := CreateAtomic(name)
	g.WriteString("half")
	g.Abort()
	if got, _ := os.ReadFile(name); string(got) != "new" {
		t.Fatalf("abort changed the file: %q", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("temporary files left: %v", entries)
	}
}
