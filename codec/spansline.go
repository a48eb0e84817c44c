package codec

import (
	"encoding/binary"
	"math"
	"slices"
	"strconv"

	"kwire/codec/wire"
	"kwire/internal/textesc"
	"kwire/schemas"
	"kwire/tree"
)

// rowOp is how a row writes a field's value or an element's, by its
// kind (fieldLine.op, .elemOp): a fixed-width integer, a bool or a UUID
// straight from its bytes, a struct or an array by what its span shows,
// strings and bytes by appendBytesValue.
type rowOp uint8

// The row ops.
const (
	opOther rowOp = iota
	opInt8
	opInt16
	opUint16
	opInt32
	opUint32
	opInt64
	opBool
	opUUID
	opStruct // a struct or an array
)

// opOf is the row op of a value of kind k.
func opOf(k schemas.Kind) rowOp {
	switch k {
	case schemas.KindInt8:
		return opInt8
	case schemas.KindInt16:
		return opInt16
	case schemas.KindUint16:
		return opUint16
	case schemas.KindInt32:
		return opInt32
	case schemas.KindUint32:
		return opUint32
	case schemas.KindInt64:
		return opInt64
	case schemas.KindBool:
		return opBool
	case schemas.KindUUID:
		return opUUID
	case schemas.KindStruct, schemas.KindArray:
		return opStruct
	}
	return opOther
}

// fixedInt returns the value of op, a fixed-width integer, from its
// bytes raw, or false for another op or bytes that are not one.
func fixedInt(op rowOp, raw []byte) (int64, bool) {
	switch {
	case op == opInt32 && len(raw) == 4:
		return int64(int32(binary.BigEndian.Uint32(raw))), true
	case op == opInt16 && len(raw) == 2:
		return int64(int16(binary.BigEndian.Uint16(raw))), true
	case op == opInt64 && len(raw) == 8:
		return int64(binary.BigEndian.Uint64(raw)), true
	case op == opInt8 && len(raw) == 1:
		return int64(int8(raw[0])), true
	case op == opUint16 && len(raw) == 2:
		return int64(binary.BigEndian.Uint16(raw)), true
	case op == opUint32 && len(raw) == 4:
		return int64(binary.BigEndian.Uint32(raw)), true
	}
	return 0, false
}

// AppendLine appends the line of span i straight from its bytes and its
// plan field (tree.LineAppender), for the spans most rows are: a field or
// an element of an integer, a bool, a string, a UUID, bytes, a struct or
// an array, an array's length, a struct's tagged-field count and a
// nullable struct's presence byte. Others (errors, a frame's header, a
// nested format's notes and values, error codes with their names) it
// leaves to Describe, whose node it writes as appendRaw would.
//
// Its rows are plain (need no escaping) when the field's names and
// description are (fieldLine.plain) and so is a string's value.
func (p *planDesc) AppendLine(b []byte, f *tree.Flat, i int) (out []byte, ok, plain bool) {
	out, next, plain := p.rows(b, f, i, i+1, nil, math.MaxInt)
	if next <= i {
		return b, false, false
	}
	return out, true, plain
}

// AppendRows appends the rows of the spans from i (tree.RowsAppender):
// most of a message, without a call from WriteText for each.
func (p *planDesc) AppendRows(b []byte, f *tree.Flat, i, end int, g *tree.Guides, limit int) ([]byte, int) {
	out, next, _ := p.rows(b, f, i, end, g, limit)
	return out, next
}

// The first parts of rows that have no plan field (padded, for put32).
var (
	tagHead     = padded("tagged_fields uvarint = ")
	presentHead = padded("present int8 = ")
	compactHead = padded("length uvarint = ")
	int32Head   = padded("length int32 = ")
	noLine      = fieldLine{room: rowRoom, plain: true}
)

// The ends of rows that have no plan field, of elements and of lengths,
// from their place on.
var (
	tagTail, presentTail = []byte(" number of tagged fields in this struct\n"), []byte(" -1 for null, 1 when the struct follows\n")
	nullTail, noneTail   = []byte(" null array\n"), []byte(" no elements follow\n")
	oneTail, sampleTail  = []byte(" one element follows\n"), []byte(" one sample element follows\n")
	manyTail, newline    = []byte(" elements follow\n"), []byte("\n")
)

// rows appends the rows of the spans from i before end that AppendLine
// writes, for AppendRows: with g, each under its guides and with its
// newline, while they are plain and b holds no more than limit bytes;
// without g, span i's line alone, plain or not. It returns the first span
// it did not write and whether the last line it wrote is plain.
//
// It is most of what kwire decode costs, so a row is written with few
// calls (each sends the loop's state to the stack and back): into room
// made for it first (fieldLine.room), its guides and first parts by
// put32, an integer by appendInt, its place by tree.PutPlace.
func (p *planDesc) rows(b []byte, f *tree.Flat, i, end int, g *tree.Guides, limit int) ([]byte, int, bool) {
	if p.lines == nil {
		p.lines = p.plan.fieldLines()
	}
	lines, spans := p.lines, f.Spans
	var pre []byte // the guides
	plain := true
	j := i
	for ; j < end && len(b) <= limit; j++ {
		s := &spans[j]
		if s.Who != p.who || s.Flags&tree.Failed != 0 || (p.frame != nil && int(s.Parent) == p.root) {
			break
		}
		line := &noLine
		switch s.Kind {
		case kField, kElem, kLength:
			if uint(s.Ref) >= uint(len(lines)) {
				return b, j, false
			}
			line = &lines[s.Ref]
		}
		if g != nil {
			g.Enter(j)
			pre = g.Pre()
		}
		start := len(b)
		if cap(b)-start < len(pre)+line.room {
			b = slices.Grow(b, len(pre)+line.room)
		}
		b = put32(b, pre)
		raw := p.bytes(int(s.Off), s.End())
		ok := true
		plain = true
		var tail []byte // what follows the place
		var count int64 // a length's, written after the place when tail is nil
		switch s.Kind {
		case kField:
			if p.values != nil || p.notes != nil {
				_, v := p.values[j]
				_, note := p.notes[j]
				if v || note {
					return b[:start], j, false
				}
			}
			plain, tail = line.plain, line.tail
			switch line.op {
			case opStruct:
				b = put32(b, line.head)
				switch s.Arg {
				case shownNone:
				case shownNull:
					b = append(b, " = null"...)
				case shownStruct:
					b = append(b, " = struct"...)
				default:
					b = appendInt(append(b, " = "...), int64(s.Arg-arrayShown))
					if s.Arg-arrayShown != 1 {
						b = append(b, " elements"...)
					} else {
						b = append(b, " element"...)
					}
				}
			case opOther:
				b = put32(b, line.headEq)
				fp, vPlain := p.plan.fields[s.Ref], false
				b, ok, vPlain = appendBytesValue(b, fp.Kind, fp.Nullable, fp.Compact, raw)
				plain = plain && vPlain
				b = slices.Grow(b, rowRoom+len(tail))
			default:
				if line.errorCode && p.set != nil && len(raw) == 2 && raw[0]|raw[1] != 0 {
					return b[:start], j, false // its name too
				}
				b = put32(b, line.headEq)
				if v, isInt := fixedInt(line.op, raw); isInt {
					b = appendInt(b, v)
				} else {
					b, ok = appendFixed(b, line.op, raw)
				}
			}
		case kElem:
			plain, tail = line.plain, newline
			b = appendInt(put32(b, line.elem), int64(s.Arg))
			b = put32(b, line.elemTypeEq)
			switch line.elemOp {
			case opStruct:
				b = append(b, "struct"...)
			case opOther:
				fp, vPlain := p.plan.fields[s.Ref], false
				b, ok, vPlain = appendBytesValue(b, fp.Elem, false, fp.Compact, raw)
				plain = plain && vPlain
				b = slices.Grow(b, rowRoom)
			default:
				if v, isInt := fixedInt(line.elemOp, raw); isInt {
					b = appendInt(b, v)
				} else {
					b, ok = appendFixed(b, line.elemOp, raw)
				}
			}
		case kLength:
			if line.compact && len(raw) == 1 && raw[0] < 0x80 { // most: one byte
				count = int64(raw[0]) - 1
			} else {
				count, _ = wire.ConsumeLen(raw, 4, line.compact)
			}
			if line.compact {
				b = appendInt(put32(b, compactHead), count+1)
				b = append(b, " (compact, n+1)"...)
			} else {
				b = appendInt(put32(b, int32Head), count)
			}
			switch count {
			case -1:
				tail = nullTail
			case 0:
				tail = noneTail
			case 1:
				tail = oneTail
				if p.sample {
					tail = sampleTail
				}
			}
		case kTagCount:
			c, n := uint32(0), 1
			if len(raw) == 1 && raw[0] < 0x80 { // most: one byte
				c = uint32(raw[0])
			} else {
				c, n = wire.ConsumeUvarint32(raw)
			}
			ok = n > 0
			b, tail = appendInt(put32(b, tagHead), int64(c)), tagTail
		case kPresent:
			ok = len(raw) > 0
			if ok {
				b, tail = appendInt(put32(b, presentHead), int64(int8(raw[0]))), presentTail
			}
		default:
			ok = false
		}
		if !ok || g != nil && !plain {
			return b[:start], j, false
		}
		// AppendPlace's first case, inlined here (AppendPlace is not).
		n, k := len(b), 0
		if s.Flags&tree.InStream == 0 && cap(b)-n >= 16 {
			k = tree.PutPlace(b[n:n+16], int(s.Off), int(s.Size))
		}
		if b = b[:n+k]; k == 0 {
			b = tree.AppendPlace(b, int(s.Off), int(s.Size), s.Flags&tree.InStream != 0)
		}
		if tail == nil {
			b = appendInt(append(b, ' '), count)
			tail = manyTail
		}
		b = append(b, tail...)
		if g == nil {
			return b[:len(b)-1], j + 1, plain // no newline
		}
		if s.Next > int32(j+1) {
			g.Open(s.Next)
		}
	}
	return b, j, plain
}

// appendFixed appends the value of op, a bool or a UUID, from its bytes
// raw, or reports false for bytes that are not one (a bool that is not 0
// or 1; fixedInt reads the integers).
func appendFixed(b []byte, op rowOp, raw []byte) ([]byte, bool) {
	switch {
	case op == opBool && len(raw) == 1 && raw[0] <= 1:
		return strconv.AppendBool(b, raw[0] == 1), true
	case op == opUUID && len(raw) == 16:
		return appendUUID(b, recordString(raw)), true
	}
	return b, false
}

// put32 appends part to b, without a call when it can: in two moves of
// 16 bytes, when part has 32 bytes or fewer and room for 32 (padded) and
// so does b.
func put32(b, part []byte) []byte {
	n := len(b)
	if len(part) <= 32 && cap(part) >= 32 && cap(b)-n >= 32 {
		d, s := b[n:n+32], part[:32]
		*(*[16]byte)(d) = *(*[16]byte)(s)
		*(*[16]byte)(d[16:]) = *(*[16]byte)(s[16:])
		return b[:n+len(part)]
	}
	return append(b, part...)
}

// padded returns s as bytes with room for 32 (put32).
func padded(s string) []byte {
	return append(make([]byte, 0, max(len(s), 32)), s...)
}

// appendInt is strconv.AppendInt(b, v, 10), a digit written without a
// call (it is inlined): most values are one.
func appendInt(b []byte, v int64) []byte {
	if uint64(v) < 10 {
		return append(b, byte('0'+v))
	}
	return appendIntSlow(b, v)
}

// appendIntSlow is appendInt of the other values, -1 to 99 without
// strconv.
func appendIntSlow(b []byte, v int64) []byte {
	switch {
	case v >= 10 && v < 100:
		return append(b, byte('0'+v/10), byte('0'+v%10))
	case v == -1:
		return append(b, '-', '1')
	}
	return strconv.AppendInt(b, v, 10)
}

// appendNameType appends a line's name and its type, when it has one.
func appendNameType(b []byte, name, typ string) []byte {
	b = append(b, name...)
	if typ != "" {
		b = append(append(b, ' '), typ...)
	}
	return b
}

// appendBytesValue appends the value and detail of a string or bytes of
// kind k that is all of b, as decoder.primitive and display write them
// into a node, or reports false for what it leaves to them (another kind,
// bytes that are not the whole of one). plain says that what it appended
// is printable ASCII.
func appendBytesValue(dst []byte, k schemas.Kind, nullable, compact bool, b []byte) (out []byte, ok, plain bool) {
	if k != schemas.KindString && k != schemas.KindBytes {
		return dst, false, false
	}
	width := 4
	if k == schemas.KindString {
		width = 2
	}
	plain = true
	length, n := wire.ConsumeLen(b, width, compact)
	switch {
	case n < 0 || length < -1 || (length == -1 && !nullable) || (length >= 0 && length != int64(len(b)-n)) || (length == -1 && n != len(b)):
		return dst, false, false
	case length == -1:
		dst = append(dst, "null"...)
	case k == schemas.KindString:
		dst, plain = textesc.AppendEscapedPlain(dst, recordString(b[n:]), true)
	default:
		dst = appendPreview(dst, recordString(b[n:]))
	}
	return appendLengthDetail(append(dst, ' '), k, int(length), compact), true, plain
}
