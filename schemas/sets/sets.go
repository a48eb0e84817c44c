// Package sets holds the Kafka schema sets: embedded at build time in the
// native programs, fetched as one bundle (see Bundle and Provide) by the
// browser app, which stays smaller without them.
//
// build.sh copies them into sets/data (git-ignored) from $KWIRE_SCHEMAS,
// or ../shared/kafka; a checkout that has not run build.sh has none, and
// Load says how to provide them.
package sets

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"

	"kwire/schemas"
)

// data is where the sets are read from: the embedded files (embed.go), or
// those given to Provide. Its sets are the folders of its "data" folder.
var data fs.FS = embedded()

// Provide replaces the sets with those of a bundle written by Bundle (the
// browser app fetches it; see BundleName). Sets already loaded are
// forgotten.
func Provide(bundle []byte) error {
	var files map[string]string
	if err := json.Unmarshal(bundle, &files); err != nil {
		return fmt.Errorf("kwire: the schema bundle is not readable: %w", err)
	}
	m := memFS{}
	for name, text := range files {
		if !fs.ValidPath(name) || strings.HasPrefix(name, ".") {
			return fmt.Errorf("kwire: the schema bundle has a bad file name %q", name)
		}
		m["data/"+name] = []byte(text)
	}
	mu.Lock()
	defer mu.Unlock()
	data = m
	loaded = map[string]*schemas.Set{}
	return nil
}

// BundleName is the file name of the bundle in a built site.
const BundleName = "kafka-schemas.json"

// Bundle returns every file of every set as one JSON object from path
// ("trunk/message/JoinGroupRequest.json") to text, for Provide.
func Bundle() ([]byte, error) {
	mu.Lock()
	defer mu.Unlock()
	if len(names(data)) == 0 {
		return nil, ErrMissing
	}
	files := map[string]string{}
	err := fs.WalkDir(data, "data", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel := strings.TrimPrefix(p, "data/")
		if !strings.Contains(rel, "/") {
			return nil // data/README.md, data/.gitignore
		}
		b, err := fs.ReadFile(data, p)
		files[rel] = string(b)
		return err
	})
	if err != nil {
		return nil, err
	}
	return json.Marshal(files)
}

// Default is the set used when none is named.
const Default = "trunk"

// ErrMissing explains how to provide the schema sets.
var ErrMissing = fmt.Errorf("kwire: no Kafka schema sets were embedded in this build; run ./build.sh " +
	"(it copies them from $KWIRE_SCHEMAS, else ../shared/kafka, into schemas/sets/data)")

// Names lists the sets.
func Names() []string {
	mu.Lock()
	defer mu.Unlock()
	return names(data)
}

func names(fsys fs.FS) []string {
	entries, _ := fs.ReadDir(fsys, "data")
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}

var (
	mu     sync.Mutex
	loaded = map[string]*schemas.Set{}
)

// Load returns the named set ("" is Default), parsing it once.
func Load(name string) (*schemas.Set, error) {
	if name == "" {
		name = Default
	}
	mu.Lock()
	defer mu.Unlock()
	if s := loaded[name]; s != nil {
		return s, nil
	}
	s, err := load(data, name)
	if err != nil {
		return nil, err
	}
	loaded[name] = s
	return s, nil
}

func load(fsys fs.FS, name string) (*schemas.Set, error) {
	all := names(fsys)
	if len(all) == 0 {
		return nil, ErrMissing
	}
	sub, err := fs.Sub(fsys, "data/"+name)
	if err != nil {
		return nil, err
	}
	if _, err := fs.Stat(sub, "message"); err != nil {
		return nil, fmt.Errorf("kwire: no schema set %q (this build has %v)", name, all)
	}
	return schemas.LoadSet(sub, name)
}

// FS returns the files of a set (for the docs build, which shows errors.tsv
// and the sources).
func FS(name string) (fs.FS, error) {
	if len(names(data)) == 0 {
		return nil, ErrMissing
	}
	return fs.Sub(data, "data/"+name)
}
