package identify

import (
	"math/rand/v2"
	"testing"

	"kwire/codec/codectest"
)

// BenchmarkRank ranks a small response frame (a JoinGroup response of the
// corpus), its body, a Fetch response frame and body of 64 KB, and 64 KB
// that nothing decodes (every layout read as far as it goes).
func BenchmarkRank(b *testing.B) {
	var small []byte
	for _, p := range readCorpus(b, corpusFile) {
		if p.key == 11 { // JoinGroup
			small = p.resp
			break
		}
	}
	big, err := codectest.FetchResponse(64 << 10)
	if err != nil {
		b.Fatal(err)
	}
	Rank(small, Options{}) // the catalog, built once
	noise := make([]byte, 64<<10)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range noise {
		noise[i] = byte(rng.Uint32())
	}
	for _, c := range []struct {
		name string
		b    []byte
	}{{"small-frame", small}, {"small-body", small[9:]}, {"64KB-frame", big}, {"64KB-body", big[9:]}, {"64KB-noise", noise}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.b)))
			for b.Loop() {
				if cs := Rank(c.b, Options{}); len(cs) == 0 {
					b.Fatal("no candidate")
				}
			}
		})
	}
}
