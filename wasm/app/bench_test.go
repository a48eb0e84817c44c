package app

import (
	"strconv"
	"testing"

	"kwire/codec"
	"kwire/e2e/bigmsg"
	"kwire/render"
)

// BenchmarkFetch measures the explorer's work on a 4 MB Fetch response, as
// scripts/browserbench does natively: load (decode, tree, layout, the tree
// and the first rows drawn, from the smallest response selected), one
// edit of it, and the form and the layout alone.
func BenchmarkFetch(b *testing.B) {
	fetch, err := bigmsg.FetchResponse(4 << 20)
	if err != nil {
		b.Fatal(err)
	}
	s, err := New("trunk", "JoinGroup")
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Select("trunk", "Fetch", -1, codec.Response); err != nil {
		b.Fatal(err)
	}
	// Each part starts from the response loaded, run alone or not.
	if err := s.Load(fetch); err != nil {
		b.Fatal(err)
	}
	b.Run("load", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			// From the smallest response, as on the page: a layout
			// from another load of the same bytes would be reused.
			if err := s.Select("trunk", "Fetch", -1, codec.Response); err != nil {
				b.Fatal(err)
			}
			if err := s.Load(fetch); err != nil {
				b.Fatal(err)
			}
			_ = s.Tree()
			_ = s.HexRows(0, 40)
		}
	})
	b.Run("edit", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			if err := s.SetField("b:ThrottleTimeMs", strconv.Itoa(1000+i)); err != nil {
				b.Fatal(err)
			}
			_ = s.Tree()
			_ = s.HexRows(0, 40)
		}
	})
	b.Run("form", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = s.Form(func(string) (bool, bool) { return false, false })
		}
	})
	b.Run("layout", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			render.NewLayout(s.Root, len(s.Bytes))
		}
	})
}
