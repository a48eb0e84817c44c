package otlp

import "kwire/codec/wire"

// The protobuf wire format (protobuf.dev/programming-guides/encoding),
// read as protowire reads it: the same results, the same negative codes
// and the same error texts (pbwire_test.go compares them with protowire
// on every input of its fuzz target). protowire itself would bring fmt
// into the browser app through its errors (52 KB gzip).

type (
	number  int32 // a field number
	wireTyp int8  // a wire type
)

// The wire types.
const (
	varintType     wireTyp = 0
	fixed64Type    wireTyp = 1
	bytesType      wireTyp = 2
	startGroupType wireTyp = 3
	endGroupType   wireTyp = 4
	fixed32Type    wireTyp = 5
)

// The negative results of the consume functions.
const (
	errTruncated = -1 - iota
	errFieldNumber
	errOverflow
	errReserved
	errEndGroup
	errRecursion
)

// recursionLimit is how deep groups may nest.
const recursionLimit = 10000

// parseError is the text of a negative result.
func parseError(n int) string {
	switch n {
	case errTruncated:
		return "unexpected EOF"
	case errFieldNumber:
		return "proto: invalid field number"
	case errOverflow:
		return "proto: variable length integer overflow"
	case errReserved:
		return "proto: cannot parse reserved wire type"
	case errEndGroup:
		return "proto: mismatching end group marker"
	}
	return "proto: parse error"
}

// consumeVarint reads a base-128 varint of at most ten bytes, the tenth
// holding one bit: Kafka's unsigned varint (codec/wire), with protobuf's
// codes.
func consumeVarint(b []byte) (uint64, int) {
	x, n := wire.ConsumeUvarint(b)
	switch {
	case n >= 0:
		return x, n
	case wire.ParseError(n) == wire.ErrShort:
		return 0, errTruncated
	}
	return 0, errOverflow
}

// consumeTag reads a field's tag: its number (1 up to the largest int32)
// and wire type.
func consumeTag(b []byte) (number, wireTyp, int) {
	v, n := consumeVarint(b)
	if n < 0 {
		return 0, 0, n
	}
	if v>>3 < 1 || v>>3 > 1<<31-1 {
		return 0, 0, errFieldNumber
	}
	return number(v >> 3), wireTyp(v & 7), n
}

func consumeFixed32(b []byte) (uint32, int) {
	if len(b) < 4 {
		return 0, errTruncated
	}
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24, 4
}

func consumeFixed64(b []byte) (uint64, int) {
	if len(b) < 8 {
		return 0, errTruncated
	}
	lo, _ := consumeFixed32(b)
	hi, _ := consumeFixed32(b[4:])
	return uint64(lo) | uint64(hi)<<32, 8
}

// consumeBytes reads a length-delimited value, its length checked against
// the bytes there are before anything is sliced.
func consumeBytes(b []byte) ([]byte, int) {
	m, n := consumeVarint(b)
	if n < 0 {
		return nil, n
	}
	if m > uint64(len(b)-n) {
		return nil, errTruncated
	}
	return b[n : n+int(m)], n + int(m)
}

// consumeFieldValue is the size of the value of field num, of wire type
// typ, at the start of b: for a group, up to its end marker.
func consumeFieldValue(num number, typ wireTyp, b []byte) int {
	return consumeValue(num, typ, b, recursionLimit)
}

func consumeValue(num number, typ wireTyp, b []byte, depth int) int {
	switch typ {
	case varintType:
		_, n := consumeVarint(b)
		return n
	case fixed32Type:
		_, n := consumeFixed32(b)
		return n
	case fixed64Type:
		_, n := consumeFixed64(b)
		return n
	case bytesType:
		_, n := consumeBytes(b)
		return n
	case startGroupType:
		if depth < 0 {
			return errRecursion
		}
		for at := 0; ; {
			n2, t2, n := consumeTag(b[at:])
			if n < 0 {
				return n
			}
			at += n
			if t2 == endGroupType {
				if n2 != num {
					return errEndGroup
				}
				return at
			}
			n = consumeValue(n2, t2, b[at:], depth-1)
			if n < 0 {
				return n
			}
			at += n
		}
	case endGroupType:
		return errEndGroup
	}
	return errReserved
}
