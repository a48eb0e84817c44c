package sets

import (
	"testing"

	"kwire/schemas"
)

// BenchmarkLoadTrunk parses the trunk set whole from the embedded files,
// as the explorer did at start from the bundle before OpenSet.
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
// does at start (schemas.OpenSet): its index read, its headers parsed.
func BenchmarkOpenTrunk(b *testing.B) {
	sub := bundled(b, "trunk")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := schemas.OpenSet(sub, "trunk"); err != nil {
			b.Fatal(err)
		}
	}
}
