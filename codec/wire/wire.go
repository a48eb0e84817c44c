// Package wire holds the primitive encodings of the Kafka protocol as
// Append and Consume functions over byte slices, in the manner of
// protowire: Append* adds an encoding to a slice, Consume* reads one from
// the front of a slice and returns the value and the number of bytes read,
// or a negative number (an error code, see ParseError) when it cannot.
//
// Reference: https://kafka.apache.org/protocol#protocol_types and KIP-482
// (compact strings, arrays and bytes, tagged fields).
//
// The protocol's primitives as Append*/Consume* functions over byte slices
// (fixed-width ints, varints, compact and classic lengths), and DecodeError,
// the one decode error type: byte offset (from the first byte of the buffer
// its decoder was given), field path (built on the way out, WithPath),
// cause, a case of one of the sentinels (ErrShort, ErrOverflow, ErrLength,
// ErrNull, ErrTrailing, ErrValue, ErrDecompress, ErrBudget) for errors.Is,
// wrapped (Errorf) or marked without a change of text (Mark); its Error is
// the one text of a positioned error, which NodeError gives a tree's error
// node too (kwire decode, capture.FrameStatus). records.Parse returns it.
package wire

import (
	"encoding/binary"
	"errors"
	"math"
)

// Errors reported by the Consume functions, as negative counts.
const (
	errCodeShort    = -1
	errCodeOverflow = -2
)

var (
	// ErrShort means the input ended inside a value.
	ErrShort = errors.New("unexpected end of input")
	// ErrOverflow means a varint is longer than its type allows.
	ErrOverflow = errors.New("varint overflows its type")
	// ErrLength means a length or count is negative (other than the null
	// marker) or larger than the bytes left.
	ErrLength = errors.New("bad length")
	// ErrNull means a null was read where the field is not nullable.
	ErrNull = errors.New("null in a non-nullable field")
	// ErrTrailing means bytes were left after the message.
	ErrTrailing = errors.New("trailing bytes")
	// ErrValue means a value cannot be encoded (out of range, wrong shape).
	ErrValue = errors.New("bad value")
	// ErrDecompress means compressed bytes (a batch's records, a legacy
	// message's value, PushTelemetry's metrics) did not decompress.
	ErrDecompress = errors.New("not decompressed")
	// ErrBudget means the message's budget (decompressed bytes, records,
	// tree nodes: records.Limits) is spent, so that what follows is left
	// out.
	ErrBudget = errors.New("budget spent")
	// ErrCRC means a checksum does not match the bytes it covers: the
	// CRC-32C of a RecordBatch v2 (KIP-98) or the CRC-32 of a magic 0 or
	// 1 message.
	ErrCRC = errors.New("checksum mismatch")
	// ErrTLS means the bytes are a TLS record where a Kafka frame should
	// start: one side speaks TLS and the other does not (KAFKA-4090).
	ErrTLS = errors.New("not a Kafka frame")
)

// ParseError converts a negative count from a Consume function to an error.
func ParseError(n int) error {
	switch n {
	case errCodeShort:
		return ErrShort
	case errCodeOverflow:
		return ErrOverflow
	}
	return nil
}

// AppendInt8 appends a signed byte.
func AppendInt8(b []byte, v int8) []byte { return append(b, byte(v)) }

// AppendInt16 appends a big-endian int16.
func AppendInt16(b []byte, v int16) []byte { return binary.BigEndian.AppendUint16(b, uint16(v)) }

// AppendInt32 appends a big-endian int32.
func AppendInt32(b []byte, v int32) []byte { return binary.BigEndian.AppendUint32(b, uint32(v)) }

// AppendInt64 appends a big-endian int64.
func AppendInt64(b []byte, v int64) []byte { return binary.BigEndian.AppendUint64(b, uint64(v)) }

// AppendFloat64 appends an IEEE 754 double, big-endian.
func AppendFloat64(b []byte, v float64) []byte {
	return binary.BigEndian.AppendUint64(b, math.Float64bits(v))
}

// Int16At, Int32At, Int64At and Uint32At read the big-endian value at
// b[i:], which the caller has checked holds it: the fields of a header of
// fixed size (a RecordBatch's, KIP-98). A short b panics.
func Int16At(b []byte, i int) int16 { return int16(binary.BigEndian.Uint16(b[i:])) }

// Int32At reads a big-endian int32 at b[i:] (see Int16At).
func Int32At(b []byte, i int) int32 { return int32(binary.BigEndian.Uint32(b[i:])) }

// Int64At reads a big-endian int64 at b[i:] (see Int16At).
func Int64At(b []byte, i int) int64 { return int64(binary.BigEndian.Uint64(b[i:])) }

// Uint32At reads a big-endian uint32 at b[i:], such as a CRC (see
// Int16At).
func Uint32At(b []byte, i int) uint32 { return binary.BigEndian.Uint32(b[i:]) }

// PutUint32At writes v big-endian at b[i:], as a length or CRC patched
// once what it covers is written.
func PutUint32At(b []byte, i int, v uint32) { binary.BigEndian.PutUint32(b[i:], v) }

// ConsumeInt8 reads a signed byte.
func ConsumeInt8(b []byte) (int8, int) {
	if len(b) < 1 {
		return 0, errCodeShort
	}
	return int8(b[0]), 1
}

// ConsumeInt16 reads a big-endian int16.
func ConsumeInt16(b []byte) (int16, int) {
	if len(b) < 2 {
		return 0, errCodeShort
	}
	return int16(binary.BigEndian.Uint16(b)), 2
}

// ConsumeInt32 reads a big-endian int32.
func ConsumeInt32(b []byte) (int32, int) {
	if len(b) < 4 {
		return 0, errCodeShort
	}
	return int32(binary.BigEndian.Uint32(b)), 4
}

// ConsumeInt64 reads a big-endian int64.
func ConsumeInt64(b []byte) (int64, int) {
	if len(b) < 8 {
		return 0, errCodeShort
	}
	return int64(binary.BigEndian.Uint64(b)), 8
}

// AppendUvarint appends an unsigned varint (UNSIGNED_VARINT, KIP-482).
func AppendUvarint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// UvarintLen is the encoded size of v as an unsigned varint.
func UvarintLen(v uint64) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}

// ConsumeUvarint reads an unsigned varint of at most 64 bits.
func ConsumeUvarint(b []byte) (uint64, int) {
	var v uint64
	for i := 0; i < len(b); i++ {
		if i == 10 {
			return 0, errCodeOverflow
		}
		c := b[i]
		if i == 9 && c > 1 {
			return 0, errCodeOverflow
		}
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			return v, i + 1
		}
	}
	return 0, errCodeShort
}

// ConsumeUvarint32 reads an unsigned varint that must fit in 32 bits, as
// Kafka's ByteUtils.readUnsignedVarint requires (at most 5 bytes).
func ConsumeUvarint32(b []byte) (uint32, int) {
	v, n := ConsumeUvarint(b)
	if n > 0 && (n > 5 || v > math.MaxUint32) {
		return 0, errCodeOverflow
	}
	return uint32(v), n
}

// AppendVarint appends a zig-zag encoded 32-bit varint (VARINT).
func AppendVarint(b []byte, v int32) []byte {
	return AppendUvarint(b, uint64(uint32(v<<1)^uint32(v>>31)))
}

// ConsumeVarint reads a zig-zag encoded 32-bit varint.
func ConsumeVarint(b []byte) (int32, int) {
	u, n := ConsumeUvarint32(b)
	return int32(u>>1) ^ -int32(u&1), n
}

// AppendVarlong appends a zig-zag encoded 64-bit varint (VARLONG).
func AppendVarlong(b []byte, v int64) []byte {
	return AppendUvarint(b, uint64(v<<1)^uint64(v>>63))
}

// ConsumeVarlong reads a zig-zag encoded 64-bit varint.
func ConsumeVarlong(b []byte) (int64, int) {
	u, n := ConsumeUvarint(b)
	return int64(u>>1) ^ -int64(u&1), n
}

// VarlongLen is the encoded size of v as a zig-zag varlong.
func VarlongLen(v int64) int { return UvarintLen(uint64(v<<1) ^ uint64(v>>63)) }

// AppendString appends a string: compact (uvarint len+1) or classic
// (int16 len). A null string is written with AppendNullString.
func AppendString(b []byte, s string, compact bool) []byte {
	if compact {
		b = AppendUvarint(b, uint64(len(s))+1)
	} else {
		b = AppendInt16(b, int16(len(s)))
	}
	return append(b, s...)
}

// AppendNullString appends a null string: compact 0 or classic -1.
func AppendNullString(b []byte, compact bool) []byte {
	if compact {
		return append(b, 0)
	}
	return AppendInt16(b, -1)
}

// AppendBytes appends bytes: compact (uvarint len+1) or classic (int32 len).
func AppendBytes(b []byte, v []byte, compact bool) []byte {
	if compact {
		b = AppendUvarint(b, uint64(len(v))+1)
	} else {
		b = AppendInt32(b, int32(len(v)))
	}
	return append(b, v...)
}

// AppendNullBytes appends null bytes: compact 0 or classic -1.
func AppendNullBytes(b []byte, compact bool) []byte {
	if compact {
		return append(b, 0)
	}
	return AppendInt32(b, -1)
}

// AppendArrayLen appends an array count: compact (uvarint n+1) or classic
// (int32 n); n = -1 writes null.
func AppendArrayLen(b []byte, n int, compact bool) []byte {
	if compact {
		return AppendUvarint(b, uint64(n+1))
	}
	return AppendInt32(b, int32(n))
}

// ConsumeLen reads the length prefix of a string (width 2), bytes or array
// (width 4), or their compact form. It returns the length, -1 for null, and
// the prefix size. A negative length other than -1 is reported as
// ErrLength by the caller.
func ConsumeLen(b []byte, width int, compact bool) (length int64, n int) {
	if compact {
		u, n := ConsumeUvarint32(b)
		if n < 0 {
			return 0, n
		}
		return int64(u) - 1, n
	}
	if width == 2 {
		v, n := ConsumeInt16(b)
		return int64(v), n
	}
	v, n := ConsumeInt32(b)
	return int64(v), n
}

// LenSize is the size of the length prefix that AppendString, AppendBytes
// or AppendArrayLen writes for length n (-1 for null).
func LenSize(n int, width int, compact bool) int {
	if compact {
		return UvarintLen(uint64(n + 1))
	}
	return width
}
