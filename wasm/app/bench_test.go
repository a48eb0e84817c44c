package app

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"testing"
	"time"

	"kwire/capture/capturetest"
	"kwire/codec"
	"kwire/codec/codectest"
	"kwire/render"
)

// BenchmarkFetch measures the explorer's work on a 4 MB Fetch response, as
// scripts/browserbench does natively: load (decode, tree, layout, the tree
// and the first rows drawn, from the smallest response selected), one
// edit of it, and the form and the layout alone.
func BenchmarkFetch(b *testing.B) {
	fetch, err := codectest.FetchResponse(4 << 20)
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
			render.NewLayout(s.Flat, len(s.Bytes))
		}
	})
}

// BenchmarkCapture measures reading a capture into the conversation list:
// 1,000 Fetch requests, each answered with a Fetch response of 64 KB of
// records (about 66 MB of capture), in the 40 ms steps of the page.
func BenchmarkCapture(b *testing.B) {
	fetch, err := codectest.FetchResponse(64 << 10)
	if err != nil {
		b.Fatal(err)
	}
	t := &testing.T{}
	req := frameOf(t, "Fetch", 17, codec.Request, nil)
	var chunks []capturetest.Chunk
	at := time.Unix(1700000000, 0)
	for i := range 1000 {
		r := bytes.Clone(req)
		binary.BigEndian.PutUint32(r[8:], uint32(i))
		resp := bytes.Clone(fetch)
		binary.BigEndian.PutUint32(resp[4:], uint32(i))
		chunks = append(chunks, capturetest.Chunk{Conn: i % 4, FromClient: true, Time: at.Add(time.Duration(i) * time.Millisecond), Data: r},
			capturetest.Chunk{Conn: i % 4, Time: at.Add(time.Duration(i)*time.Millisecond + 300*time.Microsecond), Data: resp})
	}
	var buf bytes.Buffer
	if err := capturetest.WritePcap(&buf, capturetest.Packets(chunks, capturetest.Options{}), 1, false, false, 65535); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	for b.Loop() {
		c, err := OpenCapture("bench", buf.Bytes(), nil)
		if err != nil {
			b.Fatal(err)
		}
		steps := 1
		for !c.Step(40 * time.Millisecond) {
			steps++
		}
		if len(c.Rows) != 1000 || c.Rows[999].Status != "" || c.Rows[999].RespSize != len(fetch) {
			b.Fatalf("%d rows: %+v", len(c.Rows), c.Rows[999])
		}
		b.ReportMetric(float64(steps), "steps")
	}
}
