// Package drafttest holds what the tests of schemas/draft and
// draftcodec share: the seed drafts (the project's documents, read
// where they are, never copied into the repository), the release they are
// pinned to, and golden files.
package drafttest

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"kwire/schemas"
	"kwire/schemas/sets"
)

// Update is the tests' -update flag: rewrite the golden files in testdata.
var Update = flag.Bool("update", false, "rewrite the golden files in testdata")

// The two seed drafts.
const (
	SeedStreams  = "000_e08e1a12af25dfbb.txt" // KIP-1071 StreamsGroupHeartbeat
	SeedConsumer = "004_a31ea2133565d3fd.txt" // KIP-848 wiki page
)

// Head is the top of a small request draft; each case adds its fields.
const Head = `{ "apiKey": 1000, "type": "request", "name": "FooRequest", "validVersions": "0-1", "flexibleVersions": "1+",
  "fields": [
`

// seedDir is ../shared/seeds beside the repository.
func seedDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "..", "shared", "seeds")
}

// ReadSeed reads a seed draft.
func ReadSeed(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(seedDir(), name))
	if err != nil {
		t.Fatalf("seed: %v", err)
	}
	return b
}

// Pinned is the release the seeds are compared and numbered against: a
// release, so that the golden files do not change with each new trunk.
const Pinned = "4.3"

// PinnedSet loads the pinned release.
func PinnedSet(t testing.TB) *schemas.Set {
	t.Helper()
	s, err := sets.Load(Pinned)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Placeholder is the key a TBD draft gets against the pinned release: one
// above its highest key.
func Placeholder(t testing.TB) int16 {
	s := PinnedSet(t)
	return s.APIs()[len(s.APIs())-1].Key + 1
}

// Golden compares got with testdata/name, or rewrites it with -update.
func Golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *Update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (go test -update rewrites it):\n%s", path, FirstDiff(got, string(want)))
	}
}

// FirstDiff says where two texts first differ, by line.
func FirstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n got  %s\n want %s", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d", len(al), len(bl))
}
