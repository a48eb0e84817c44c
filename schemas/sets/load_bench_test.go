package sets

import (
	"io/fs"

	"kwire/schemas"
	"testing"
)

// BenchmarkLoadTrunk parses the trunk set from the embedded files, as the
// explorer does at start from the bundle.
func BenchmarkLoadTrunk(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := load(data, "trunk"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProvide reads the bundle the explorer fetches.
func BenchmarkProvide(b *testing.B) {
	bundle, err := Bundle()
	if err != nil {
		b.Fatal(err)
	}
	saved := data
	b.Cleanup(func() { mu.Lock(); use(saved); mu.Unlock() })
	b.SetBytes(int64(len(bundle)))
	b.ReportAllocs()
	for b.Loop() {
		if err := Provide(bundle); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpenTrunk opens the trunk set from a bundle, as the explorer
// does at start (schemas.OpenSet): its headers parsed, the other files
// scanned.
func BenchmarkOpenTrunk(b *testing.B) {
	bundle, err := Bundle()
	if err != nil {
		b.Fatal(err)
	}
	m, err := readBundle(bundle)
	if err != nil {
		b.Fatal(err)
	}
	sub, err := fs.Sub(m, "data/trunk")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := schemas.OpenSet(sub, "trunk"); err != nil {
			b.Fatal(err)
		}
	}
}
