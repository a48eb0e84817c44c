package records_test

import (
	"testing"
	"time"

	"kwire/codec/records"
	"kwire/codec/records/recordstest"
	"kwire/tree"
)

// benchCodecs are the allCodecs of the records benchmarks.
var benchCodecs = []records.Codec{records.None, records.Gzip, records.Snappy, records.LZ4, records.Zstd}

// valueDecode is the value decode of a records field, as codec's
// kwireValueDecode does it: Parse reads every batch and record (CRCs
// checked, decompressed). It returns the records read.
func valueDecode(b []byte) (int, error) {
	batches, err := records.Parse(b)
	n := 0
	for _, bt := range batches {
		n += len(bt.Records)
	}
	return n, err
}

// spansDecode builds the spans of the field into a fresh Flat, linked
// (Done) as a tree is before it is drawn, and returns how many there are.
func spansDecode(b []byte) int {
	f := &tree.Flat{}
	records.Spans(f, -1, b, 0, records.Options{})
	f.Done()
	return f.Len()
}

// BenchmarkSpans compares, on recordstest.Field (10,000 records in
// batches of 100) in each codec, the tree's spans (Spans into a fresh
// Flat, then Done) with the value decode of the same bytes (Parse, every
// record read): codec/parse and codec/spans alone, and codec/ratio, the
// two in turn in each iteration, which reports each one's time and
// spans/parse, the cost of the tree over the value decode (issue 14 asks
// for at most 2).
func BenchmarkSpans(b *testing.B) {
	for _, c := range benchCodecs {
		field := recordstest.Field(c)
		if n, err := valueDecode(field); err != nil || n != recordstest.Records {
			b.Fatalf("%s: %d records, %v", c, n, err)
		}
		b.Run(c.String()+"/parse", func(b *testing.B) {
			b.SetBytes(int64(len(field)))
			b.ReportAllocs()
			for b.Loop() {
				valueDecode(field)
			}
		})
		b.Run(c.String()+"/spans", func(b *testing.B) {
			b.SetBytes(int64(len(field)))
			b.ReportAllocs()
			for b.Loop() {
				spansDecode(field)
			}
		})
		b.Run(c.String()+"/ratio", func(b *testing.B) {
			var parse, spans time.Duration
			for b.Loop() {
				t0 := time.Now()
				valueDecode(field)
				t1 := time.Now()
				spansDecode(field)
				spans += time.Since(t1)
				parse += t1.Sub(t0)
			}
			b.ReportMetric(float64(parse.Nanoseconds())/float64(b.N), "parse-ns/op")
			b.ReportMetric(float64(spans.Nanoseconds())/float64(b.N), "spans-ns/op")
			b.ReportMetric(float64(spans)/float64(parse), "spans/parse")
		})
	}
}

// TestSpansBench checks the benchmark's input: every record is a span
// of the tree, with its key, value and header, and nothing failed.
func TestSpansBench(t *testing.T) {
	for _, c := range benchCodecs {
		field := recordstest.Field(c)
		f := &tree.Flat{}
		records.Spans(f, -1, field, 0, records.Options{})
		f.Done()
		recs, failed := 0, 0
		for i := range f.Spans {
			if f.Spans[i].Flags&tree.Failed != 0 {
				failed++
			}
			if f.Spans[i].Section == tree.Record && f.ChildCount(i) == 7 {
				recs++ // length, attributes, two deltas, key, value, headers
			}
		}
		if recs != recordstest.Records || failed != 0 {
			t.Errorf("%s: %d records of 7 fields, %d failed spans; want %d and 0", c, recs, failed, recordstest.Records)
		}
	}
}
