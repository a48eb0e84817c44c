package records

import (
	"fmt"
	"testing"
)

// benchField is 10,000 records in batches of 100, about 1 MB.
func benchField(b testing.TB, c Codec) []byte {
	var batches []Batch
	for first := 0; first < 10_000; first += 100 {
		bt := Batch{BaseOffset: int64(first), Magic: 2, Attributes: int16(c), BaseTimestamp: 1700000000000, ProducerID: 7}
		for i := range 100 {
			n := first + i
			bt.Records = append(bt.Records, Record{OffsetDelta: int32(i), TimestampDelta: int64(i),
				Key:     fmt.Appendf(nil, "key-%06d", n),
				Value:   fmt.Appendf(nil, `{"id":%d,"user":"user-%04d","event":"click","page":"/p/%d","n":%d}`, n, n*7%5000, n%100, n*2654435761%1000000),
				Headers: []Header{{Key: []byte("trace"), Value: fmt.Appendf(nil, "%016x", n*977)}}})
		}
		bt.Fill()
		batches = append(batches, bt)
	}
	out, err := Encode(batches)
	if err != nil {
		b.Fatal(err)
	}
	return out
}

// BenchmarkNodes builds the tree of benchField in each codec (the codec
// package's BenchmarkFetchRecords compares whole Fetch responses with
// kmsg).
func BenchmarkNodes(b *testing.B) {
	for _, c := range allCodecs {
		field := benchField(b, c)
		b.Run(c.String(), func(b *testing.B) {
			b.SetBytes(int64(len(field)))
			b.ReportAllocs()
			for b.Loop() {
				Tree(field, 0, Options{})
			}
		})
	}
}
