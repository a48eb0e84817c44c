package identify

import (
	"testing"

	"kwire/e2e/bigmsg"
)

// BenchmarkRank ranks a small response frame (a JoinGroup response of the
// corpus), its body, and a Fetch response frame and body of 64 KB.
func BenchmarkRank(b *testing.B) {
	var small []byte
	for _, p := range readCorpus(b) {
		if p.key == 11 { // JoinGroup
			small = p.resp
			break
		}
	}
	big, err := bigmsg.FetchResponse(64 << 10)
	if err != nil {
		b.Fatal(err)
	}
	Rank(small, Options{}) // the catalog, built once
	for _, c := range []struct {
		name string
		b    []byte
	}{{"small-frame", small}, {"small-body", small[9:]}, {"64KB-frame", big}, {"64KB-body", big[9:]}} {
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
