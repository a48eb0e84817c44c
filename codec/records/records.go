// Package records decodes and encodes the contents of Kafka `records`
// fields (Produce, Fetch, ShareFetch, FetchSnapshot): RecordBatch v2
// (magic 2, KIP-98) and the legacy message sets (magic 0, and 1 with
// timestamps, KIP-32), compressed with gzip, snappy (xerial-framed or
// raw), lz4 frames or zstd (KIP-110).
//
// Spans builds the object tree of a field as spans of a tree.Flat whose
// text is written when it is drawn (tree.Flat.Node):
// every header field, each attribute bit, every record with its varint sizes and
// absolute offsets and timestamps, compressed records beneath their
// compressed bytes with offsets relative to the decompressed stream,
// control records decoded with the schema set (through Options.Control),
// a partial batch at the end shown as such. Damage is shown where it is,
// not fatal. Decompression, records and tree nodes (spans) are bounded by
// a Budget that every records field of one message shares (Limits).
//
// Parse reads a field into Batch values, Encode writes them back, and
// AppendJSON and FromJSON are the field's JSON form (see json.go). Parse
// and Spans are one walk of the format (walk.go), which fills values or
// adds spans; the keys and values that the schema set reads (control
// records, internal topics) are decoded by hooks into the same tree.
package records

import (
	"hash/crc32"

	"kwire/codec/wire"
)

// BatchHeaderSize is the size of a RecordBatch v2 header, which is also
// the size of an empty batch.
const BatchHeaderSize = 61

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// CRC32C is the checksum of a RecordBatch v2: CRC-32C (Castagnoli) over
// the bytes from attributes to the end of the batch.
func CRC32C(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// EmptyBatch returns the smallest RecordBatch v2: every header field zero,
// no records, a correct CRC-32C; 61 bytes.
func EmptyBatch() []byte {
	b := make([]byte, 0, BatchHeaderSize)
	b = wire.AppendInt64(b, 0)                  // baseOffset
	b = wire.AppendInt32(b, BatchHeaderSize-12) // batchLength: bytes after this field
	b = wire.AppendInt32(b, 0)                  // partitionLeaderEpoch
	b = wire.AppendInt8(b, 2)                   // magic
	b = wire.AppendInt32(b, 0)                  // crc, patched below
	b = wire.AppendInt16(b, 0)                  // attributes
	b = wire.AppendInt32(b, 0)                  // lastOffsetDelta
	b = wire.AppendInt64(b, 0)                  // baseTimestamp
	b = wire.AppendInt64(b, 0)                  // maxTimestamp
	b = wire.AppendInt64(b, 0)                  // producerId
	b = wire.AppendInt16(b, 0)                  // producerEpoch
	b = wire.AppendInt32(b, 0)                  // baseSequence
	b = wire.AppendInt32(b, 0)                  // records count
	wire.PutUint32At(b, 17, CRC32C(b[21:]))
	return b
}
