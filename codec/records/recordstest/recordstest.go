// Package recordstest builds the records field of the records
// benchmarks, shared by codec (BenchmarkFetchRecords, a Fetch response
// around it) and codec/records (BenchmarkSpans).
package recordstest

import (
	"math/rand/v2"

	"kwire/codec/records"
	"kwire/internal/xfmt"
)

// Shape of the field: Records records in batches of PerBatch.
const (
	Records  = 10_000
	PerBatch = 100
)

// Field is 10,000 records of about 100 bytes (a 10-byte key, a 60-byte
// JSON-like value, one header) in batches of 100, compressed with c:
// about 1 MB before compression. The same c gives the same bytes.
func Field(c records.Codec) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	var batches []records.Batch
	for first := 0; first < Records; first += PerBatch {
		b := records.Batch{BaseOffset: int64(first), Magic: 2, Attributes: int16(c), BaseTimestamp: 1700000000000 + int64(first),
			ProducerID: 7, ProducerEpoch: 0, BaseSequence: int32(first), PartitionLeaderEpoch: 3}
		for i := range PerBatch {
			n := first + i
			value := xfmt.Sprintf(`{"id":%d,"user":"u%04d","event":"click","page":"/p/%d","n":%d}`,
				n, r.IntN(5000), r.IntN(100), r.Uint32())
			b.Records = append(b.Records, records.Record{
				OffsetDelta: int32(i), TimestampDelta: int64(i),
				Key:     []byte(xfmt.Sprintf("key-%06d", n)),
				Value:   []byte(value),
				Headers: []records.Header{{Key: []byte("trace"), Value: xfmt.Appendf(nil, "%016x", r.Uint64())}},
			})
		}
		b.Fill()
		batches = append(batches, b)
	}
	out, err := records.Encode(batches)
	if err != nil {
		panic(err)
	}
	return out
}
