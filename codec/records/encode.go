package records

import (
	"math"

	"kwire/codec/wire"
	"kwire/internal/xfmt"
)

// Encode returns the bytes of a records field holding batches.
func Encode(batches []Batch) ([]byte, error) {
	var out []byte
	for i := range batches {
		var err error
		if out, err = AppendBatch(out, &batches[i]); err != nil {
			return nil, xfmt.Errorf("batch %d: %w", i, err)
		}
	}
	return out, nil
}

// AppendBatch appends the encoding of b: a RecordBatch v2 for Magic 2,
// else a legacy message. Lengths, the record count and the CRC (unless
// KeepCRC) are computed; records are compressed with the batch's codec
// (and a legacy wrapper's Messages with its), unless b.Compressed holds
// them compressed already. LastOffsetDelta and
// MaxTimestamp are written as they are (see Batch.Fill).
func AppendBatch(dst []byte, b *Batch) ([]byte, error) {
	switch b.Magic {
	case 2:
		return appendBatchV2(dst, b)
	case 0, 1:
		return appendMessage(dst, b)
	}
	return dst, xfmt.Errorf("magic %d is not a record format (0, 1 or 2)", b.Magic)
}

// AppendRecords appends the records of a RecordBatch v2 as they are before
// compression: each a varint length and the record (KIP-98).
func AppendRecords(dst []byte, recs []Record) []byte {
	for i := range recs {
		dst = appendRecord(dst, &recs[i])
	}
	return dst
}

func appendRecord(dst []byte, r *Record) []byte {
	size := 1 + wire.VarlongLen(r.TimestampDelta) + varintLen(r.OffsetDelta) +
		bytesLen(r.Key) + bytesLen(r.Value) + varintLen(int32(len(r.Headers)))
	for _, h := range r.Headers {
		size += bytesLen(h.Key) + bytesLen(h.Value)
	}
	dst = wire.AppendVarint(dst, int32(size))
	dst = append(dst, byte(r.Attributes))
	dst = wire.AppendVarlong(dst, r.TimestampDelta)
	dst = wire.AppendVarint(dst, r.OffsetDelta)
	dst = appendVarBytes(dst, r.Key)
	dst = appendVarBytes(dst, r.Value)
	dst = wire.AppendVarint(dst, int32(len(r.Headers)))
	for _, h := range r.Headers {
		dst = appendVarBytes(dst, h.Key)
		dst = appendVarBytes(dst, h.Value)
	}
	return dst
}

func varintLen(v int32) int { return wire.UvarintLen(uint64(uint32(v<<1) ^ uint32(v>>31))) }

func bytesLen(b []byte) int {
	if b == nil {
		return 1
	}
	return varintLen(int32(len(b))) + len(b)
}

func appendVarBytes(dst, b []byte) []byte {
	if b == nil {
		return wire.AppendVarint(dst, -1)
	}
	dst = wire.AppendVarint(dst, int32(len(b)))
	return append(dst, b...)
}

func appendBatchV2(dst []byte, b *Batch) ([]byte, error) {
	if len(b.Records) > math.MaxInt32 {
		return dst, xfmt.Errorf("%d records do not fit a batch", len(b.Records))
	}
	payload, err := compressedPayload(b.Codec(), b.Compressed, 2, AppendRecords(nil, b.Records))
	if err != nil {
		return dst, err
	}
	if len(payload) > math.MaxInt32-BatchHeaderSize {
		return dst, xfmt.Errorf("a batch of %d bytes is too large", len(payload))
	}
	start := len(dst)
	dst = wire.AppendInt64(dst, b.BaseOffset)
	dst = wire.AppendInt32(dst, int32(BatchHeaderSize-12+len(payload)))
	dst = wire.AppendInt32(dst, b.PartitionLeaderEpoch)
	dst = append(dst, 2)
	dst = wire.AppendInt32(dst, int32(b.CRC))
	dst = wire.AppendInt16(dst, b.Attributes)
	dst = wire.AppendInt32(dst, b.LastOffsetDelta)
	dst = wire.AppendInt64(dst, b.BaseTimestamp)
	dst = wire.AppendInt64(dst, b.MaxTimestamp)
	dst = wire.AppendInt64(dst, b.ProducerID)
	dst = wire.AppendInt16(dst, b.ProducerEpoch)
	dst = wire.AppendInt32(dst, b.BaseSequence)
	dst = wire.AppendInt32(dst, int32(len(b.Records)))
	dst = append(dst, payload...)
	if !b.KeepCRC {
		wire.PutUint32At(dst, start+offCRC, CRC32C(dst[start+offAttributes:]))
	}
	return dst, nil
}

// appendMessage appends a legacy message; a compressed one's value is its
// Messages, encoded and compressed.
func appendMessage(dst []byte, b *Batch) ([]byte, error) {
	if b.Attributes < 0 || b.Attributes > math.MaxUint8 {
		return dst, xfmt.Errorf("attributes %d do not fit the byte of a magic %d message", b.Attributes, b.Magic)
	}
	value := b.Value
	if c := b.Codec(); c != None {
		var inner []byte
		for i := range b.Messages {
			var err error
			if inner, err = AppendBatch(inner, &b.Messages[i]); err != nil {
				return dst, xfmt.Errorf("message %d: %w", i, err)
			}
		}
		var err error
		if value, err = compressedPayload(c, b.Compressed, b.Magic, inner); err != nil {
			return dst, err
		}
	}
	start := len(dst)
	dst = wire.AppendInt64(dst, b.BaseOffset)
	dst = wire.AppendInt32(dst, 0) // size, patched below
	dst = wire.AppendInt32(dst, int32(b.CRC))
	dst = append(dst, byte(b.Magic), byte(b.Attributes))
	if b.Magic == 1 {
		dst = wire.AppendInt64(dst, b.BaseTimestamp)
	}
	dst = appendInt32Bytes(dst, b.Key)
	dst = appendInt32Bytes(dst, value)
	size := len(dst) - start - 12
	if size > math.MaxInt32 {
		return dst[:start], xfmt.Errorf("a message of %d bytes is too large", size)
	}
	wire.PutUint32At(dst, start+offLength, uint32(size))
	if !b.KeepCRC {
		wire.PutUint32At(dst, start+12, legacyCRC(dst[start+offMagic:]))
	}
	return dst, nil
}

func appendInt32Bytes(dst, b []byte) []byte {
	if b == nil {
		return wire.AppendInt32(dst, -1)
	}
	dst = wire.AppendInt32(dst, int32(len(b)))
	return append(dst, b...)
}

// Fill sets what a batch built by hand usually leaves out: LastOffsetDelta
// from the last record's OffsetDelta and MaxTimestamp from the largest
// record timestamp (baseTimestamp for a batch without records), as
// producers write them.
func (b *Batch) Fill() {
	b.LastOffsetDelta = b.lastOffsetDelta()
	b.MaxTimestamp = b.maxTimestamp()
}

func (b *Batch) lastOffsetDelta() int32 {
	if len(b.Records) == 0 {
		return 0
	}
	return b.Records[len(b.Records)-1].OffsetDelta
}

func (b *Batch) maxTimestamp() int64 {
	if len(b.Records) == 0 {
		return b.BaseTimestamp
	}
	m := b.Records[0].TimestampDelta
	for i := range b.Records {
		m = max(m, b.Records[i].TimestampDelta)
	}
	return b.BaseTimestamp + m
}
