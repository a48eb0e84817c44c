package sets

import (
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
