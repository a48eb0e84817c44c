package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kwire/schemas/sets"
	"kwire/schemas/sets/setstest"
)

// write makes out/4.4 from 4.4.0's jars, the files the built-in 4.4 has
// (build.sh made it so), replacing what was there and leaving no
// temporary folder; a source that cannot be read writes nothing.
func TestWrite(t *testing.T) {
	setstest.Jars(t, setstest.Version)
	out := t.TempDir()
	os.MkdirAll(filepath.Join(out, "4.4", "message"), 0o755)
	os.WriteFile(filepath.Join(out, "4.4", "message", "Old.json"), []byte("{}"), 0o644)
	names, err := write(out, []string{setstest.Repo()})
	if err != nil || strings.Join(names, " ") != "4.4" {
		t.Fatalf("%v %v", names, err)
	}
	built, err := sets.FS("4.4")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	err = filepath.WalkDir(filepath.Join(out, "4.4"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(filepath.Join(out, "4.4"), p)
		got, _ := os.ReadFile(p)
		want, err := fs.ReadFile(built, filepath.ToSlash(rel))
		if err != nil || string(got) != string(want) {
			t.Errorf("%s: differs from the built-in 4.4's (%v)", rel, err)
		}
		n++
		return nil
	})
	if err != nil || n < 270 {
		t.Errorf("%d files: %v", n, err)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 1 {
		t.Errorf("left in %s: %v", out, entries)
	}
	empty := t.TempDir()
	cut := filepath.Join(empty, "kafka-clients-4.4.0.jar")
	os.WriteFile(cut, []byte("PK\x03\x04"), 0o644)
	if _, err := write(empty, []string{cut}); err == nil {
		t.Error("a cut jar: written")
	}
	if entries, _ := os.ReadDir(empty); len(entries) != 1 {
		t.Errorf("a cut jar left %v", entries)
	}
}
