package records

import (
	"errors"

	"kwire/codec/wire"
	"kwire/internal/xfmt"
)

// Batch is one entry of a records field: a RecordBatch (Magic 2, KIP-98)
// or a legacy message (Magic 0, or 1 with a timestamp, KIP-32). The
// fields a format lacks are zero.
type Batch struct {
	BaseOffset           int64 // legacy: the message's offset
	PartitionLeaderEpoch int32
	Magic                int8
	// CRC is the checksum as read. Encoding computes it unless KeepCRC is
	// set, which decoding does when the checksum did not match, so that a
	// corrupt batch stays corrupt.
	CRC             uint32
	KeepCRC         bool
	Attributes      int16 // legacy: the attributes byte, 0-255
	LastOffsetDelta int32
	BaseTimestamp   int64 // legacy magic 1: the message timestamp
	MaxTimestamp    int64
	ProducerID      int64
	ProducerEpoch   int16
	BaseSequence    int32
	Records         []Record // magic 2
	// Key and Value are a legacy message's (nil is null). A compressed
	// legacy message (a wrapper) holds its inner message set in Messages,
	// and its Value is computed from them when encoding.
	Key, Value []byte
	Messages   []Batch
	// Compressed is the compressed payload of a compressed batch or
	// wrapper as it was read (it aliases the bytes read). Encoding writes
	// it back as it is while it decompresses to the records (or messages)
	// being encoded, so that an unchanged batch keeps the producer's
	// bytes; once they differ, they are compressed anew.
	Compressed []byte
}

// Record is one record of a RecordBatch v2.
type Record struct {
	Attributes     int8 // unused by Kafka, always 0
	TimestampDelta int64
	OffsetDelta    int32
	Key, Value     []byte // nil is null
	Headers        []Header
}

// Header is a record header (KIP-82).
type Header struct {
	Key, Value []byte // nil is null
}

// Attribute bits of a RecordBatch v2 (KIP-98; the delete horizon is
// KIP-534). Magic 0 and 1 use the codec bits and, in magic 1, the
// timestamp type bit.
const (
	AttrCodec         = 0x07 // bits 0-2: Codec
	AttrLogAppendTime = 0x08 // bit 3: timestamps are the broker's append time
	AttrTransactional = 0x10 // bit 4
	AttrControl       = 0x20 // bit 5: the records are control records
	AttrDeleteHorizon = 0x40 // bit 6: baseTimestamp is the delete horizon
	attrKnown         = 0x7f
)

// Codec is the batch's compression codec.
func (b *Batch) Codec() Codec { return Codec(b.Attributes & AttrCodec) }

// Offsets of the RecordBatch v2 header fields (KIP-98).
const (
	offLength        = 8
	offLeaderEpoch   = 12
	offMagic         = 16
	offCRC           = 17
	offAttributes    = 21
	offLastDelta     = 23
	offBaseTimestamp = 27
	offMaxTimestamp  = 35
	offProducerID    = 43
	offProducerEpoch = 51
	offBaseSequence  = 53
	offRecordCount   = 57
)

// batchHeader reads the header of the RecordBatch v2 b (exactly its
// bytes) and the CRC-32C its bytes give (KeepCRC when it is not the one
// the batch says).
func batchHeader(b []byte) (h Batch, count int32, crc uint32, err error) {
	if len(b) < BatchHeaderSize {
		return h, 0, 0, errShortBatch(len(b))
	}
	h, count = readHeader(b)
	crc = CRC32C(b[offAttributes:])
	h.KeepCRC = crc != h.CRC
	return h, count, crc, nil
}

// readHeader reads the header fields of a RecordBatch v2 from b, which
// holds at least BatchHeaderSize bytes.
func readHeader(b []byte) (h Batch, count int32) {
	h.BaseOffset = wire.Int64At(b, 0)
	h.PartitionLeaderEpoch = wire.Int32At(b, offLeaderEpoch)
	h.Magic = int8(b[offMagic])
	h.CRC = wire.Uint32At(b, offCRC)
	h.Attributes = wire.Int16At(b, offAttributes)
	h.LastOffsetDelta = wire.Int32At(b, offLastDelta)
	h.BaseTimestamp = wire.Int64At(b, offBaseTimestamp)
	h.MaxTimestamp = wire.Int64At(b, offMaxTimestamp)
	h.ProducerID = wire.Int64At(b, offProducerID)
	h.ProducerEpoch = wire.Int16At(b, offProducerEpoch)
	h.BaseSequence = wire.Int32At(b, offBaseSequence)
	return h, wire.Int32At(b, offRecordCount)
}

// Varints with a one-byte fast path; the Kafka record format uses
// zig-zag varints for every length and delta (KIP-98).

func varint(b []byte) (int32, int) {
	if len(b) > 0 && b[0] < 0x80 {
		return int32(b[0]>>1) ^ -int32(b[0]&1), 1
	}
	return wire.ConsumeVarint(b)
}

func varlong(b []byte) (int64, int) {
	if len(b) > 0 && b[0] < 0x80 {
		return int64(b[0]>>1) ^ -int64(b[0]&1), 1
	}
	return wire.ConsumeVarlong(b)
}

// minRecordSize is the fewest bytes a record takes: its length, the
// attributes, and one byte each for the timestamp delta, offset delta, key
// length, value length and header count.
const minRecordSize = 7

// Stages of a record as scanRecord reads it: each says which field was
// read last.
const (
	stNone = iota
	stLength
	stAttributes
	stTimestamp
	stOffset
	stKey
	stValue
	stHeaderCount
)

// recordView is where the fields of one record lie in its stream, as far
// as scanRecord could read them (stage); err says why it stopped early,
// at errAt.
type recordView struct {
	start, lenSize int
	length         int32
	end            int // start + lenSize + length, once stage >= stLength
	attrs          int8
	tsAt, tsSize   int
	tsDelta        int64
	offAt, offSize int
	offDelta       int32
	key, value     field
	hdrAt, hdrSize int
	hdrCount       int32
	stage          int
	err            error
	errAt          int
}

// field is a varint-length-prefixed byte string: the length at at, its
// varint size, the length (-1 for null), the data after it.
type field struct {
	at, size int
	n        int32
}

func (f field) data(s []byte) []byte {
	if f.n < 0 {
		return nil
	}
	return s[f.at+f.size : f.at+f.size+int(f.n)]
}

func (f field) end() int { return f.at + f.size + max(int(f.n), 0) }

// varintError says why the varint of what could not be read.
func varintError(what string, n int) error {
	if n == 0 || wire.ParseError(n) == wire.ErrShort {
		return wire.Mark(wire.ErrShort, errors.New(what+": the record ends inside a varint"))
	}
	return wire.Mark(wire.ErrOverflow, errors.New(what+": varint longer than its type allows"))
}

// scanRecord reads the record that starts at s[pos:] (headers are read by
// scanHeader, from hdrAt+hdrSize).
func scanRecord(s []byte, pos int) (v recordView) {
	v.start = pos
	ln, n := varint(s[pos:])
	if n <= 0 {
		v.err, v.errAt = varintError("record length", n), pos
		return v
	}
	v.lenSize, v.length = n, ln
	body := pos + n
	if ln < 0 || int(ln) > len(s)-body {
		v.err, v.errAt = wire.Mark(wire.ErrLength, xfmt.Errorf("record length %d does not fit the %d bytes left", ln, len(s)-body)), pos
		return v
	}
	v.end = body + int(ln)
	v.stage = stLength
	rec := s[:v.end]
	p := body
	if p >= v.end {
		v.err, v.errAt = errNoAttributes, p
		return v
	}
	v.attrs = int8(rec[p])
	p++
	v.stage = stAttributes
	if v.tsDelta, n = varlong(rec[p:]); n <= 0 {
		v.err, v.errAt = varintError("timestampDelta", n), p
		return v
	}
	v.tsAt, v.tsSize = p, n
	p += n
	v.stage = stTimestamp
	if v.offDelta, n = varint(rec[p:]); n <= 0 {
		v.err, v.errAt = varintError("offsetDelta", n), p
		return v
	}
	v.offAt, v.offSize = p, n
	p += n
	v.stage = stOffset
	var err error
	if v.key, err = scanField(rec, p, "key"); err != nil {
		v.err, v.errAt = err, p
		return v
	}
	p = v.key.end()
	v.stage = stKey
	if v.value, err = scanField(rec, p, "value"); err != nil {
		v.err, v.errAt = err, p
		return v
	}
	p = v.value.end()
	v.stage = stValue
	if v.hdrCount, n = varint(rec[p:]); n <= 0 {
		v.err, v.errAt = varintError("header count", n), p
		return v
	}
	v.hdrAt, v.hdrSize = p, n
	if v.hdrCount < 0 || int(v.hdrCount) > (v.end-p-n)/2 {
		v.err, v.errAt = wire.Mark(wire.ErrLength, xfmt.Errorf("%d headers cannot fit in the %d bytes left in the record", v.hdrCount, v.end-p-n)), p
		return v
	}
	v.stage = stHeaderCount
	return v
}

// scanField reads a varint length and the bytes it counts.
func scanField(s []byte, p int, what string) (field, error) {
	ln, n := varint(s[p:])
	if n <= 0 {
		return field{}, varintError(what+" length", n)
	}
	if ln < -1 {
		return field{}, wire.Mark(wire.ErrLength, xfmt.Errorf("%s length %d is negative", what, ln))
	}
	if int(ln) > len(s)-p-n {
		return field{}, wire.Mark(wire.ErrLength, xfmt.Errorf("%s length %d does not fit the %d bytes left in the record", what, ln, len(s)-p-n))
	}
	return field{at: p, size: n, n: ln}, nil
}

// scanHeader reads the header at s[p:], s ending where the record does;
// stage is 0 (nothing), 1 (key) or 2 (both).
func scanHeader(s []byte, p int) (key, value field, stage int, err error) {
	if key, err = scanField(s, p, "header key"); err != nil {
		return key, value, 0, err
	}
	if value, err = scanField(s, key.end(), "header value"); err != nil {
		return key, value, 1, err
	}
	return key, value, 2, nil
}
