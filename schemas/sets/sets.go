// Package sets holds the Kafka schema sets embedded at build time.
//
// build.sh copies them into sets/data (git-ignored) from $KWIRE_SCHEMAS,
// or ../shared/kafka; a checkout that has not run build.sh has none, and
// Load says how to provide them.
package sets

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"sync"

	"kwire/schemas"
)

//go:embed all:data
var data embed.FS

// Default is the set used when none is named.
const Default = "trunk"

// ErrMissing explains how to provide the schema sets.
var ErrMissing = fmt.Errorf("kwire: no Kafka schema sets were embedded in this build; run ./build.sh " +
	"(it copies them from $KWIRE_SCHEMAS, else ../shared/kafka, into schemas/sets/data)")

// Names lists the embedded sets.
func Names() []string { return names(data) }

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
