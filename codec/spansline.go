package codec

import (
	"encoding/binary"
	"strconv"

	"kwire/codec/wire"
	"kwire/internal/textesc"
	"kwire/schemas"
	"kwire/tree"
)

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
	s := &f.Spans[i]
	if s.Flags&tree.Failed != 0 || (p.frame != nil && int(s.Parent) == p.root) {
		return b, false, false
	}
	raw := p.bytes(int(s.Off), s.End())
	switch s.Kind {
	case kTagCount:
		count, n := wire.ConsumeUvarint32(raw)
		if n <= 0 {
			return b, false, false
		}
		b = appendInt(append(b, "tagged_fields uvarint = "...), int64(count))
		b = tree.AppendPlace(b, int(s.Off), int(s.Size), s.Flags&tree.InStream != 0)
		return append(b, " number of tagged fields in this struct"...), true, true
	case kPresent:
		if len(raw) == 0 {
			return b, false, false
		}
		b = appendInt(append(b, "present int8 = "...), int64(int8(raw[0])))
		b = tree.AppendPlace(b, int(s.Off), int(s.Size), s.Flags&tree.InStream != 0)
		return append(b, " -1 for null, 1 when the struct follows"...), true, true
	}
	if s.Ref < 0 || int(s.Ref) >= len(p.plan.fields) {
		return b, false, false
	}
	if p.lines == nil {
		p.lines = p.plan.fieldLines()
	}
	fp, line, at := p.plan.fields[s.Ref], &p.lines[s.Ref], len(b)
	ok, plain = true, line.plain
	switch s.Kind {
	case kField:
		if p.values != nil {
			if _, v := p.values[i]; v {
				return b, false, false
			}
		}
		if p.notes != nil {
			if _, note := p.notes[i]; note {
				return b, false, false
			}
		}
		switch fp.Kind {
		case schemas.KindArray, schemas.KindStruct:
			b = append(b, line.head...)
			switch s.Arg {
			case shownNone:
			case shownNull:
				b = append(b, " = null"...)
			case shownStruct:
				b = append(b, " = struct"...)
			default:
				b = appendInt(append(b, " = "...), int64(s.Arg-arrayShown))
				b = append(b, " element"...)
				if s.Arg-arrayShown != 1 {
					b = append(b, 's')
				}
			}
		default:
			if line.errorCode && p.set != nil && len(raw) == 2 && raw[0]|raw[1] != 0 {
				return b, false, false // its name too
			}
			b = append(b, line.headEq...)
			v := len(b)
			b, ok = appendPrimitiveValue(b, fp.Kind, fp.Nullable, fp.Compact, raw)
			plain = plain && (fp.Kind != schemas.KindString || tree.Plain(b[v:]))
		}
		b = tree.AppendPlace(b, int(s.Off), int(s.Size), s.Flags&tree.InStream != 0)
		b = append(b, line.tail...)
	case kElem:
		b = appendInt(append(b, line.elem...), int64(s.Arg))
		b = append(b, line.elemTypeEq...)
		if fp.Elem == schemas.KindStruct {
			b = append(b, "struct"...)
		} else {
			v := len(b)
			b, ok = appendPrimitiveValue(b, fp.Elem, false, fp.Compact, raw)
			plain = plain && (fp.Elem != schemas.KindString || tree.Plain(b[v:]))
		}
		b = tree.AppendPlace(b, int(s.Off), int(s.Size), s.Flags&tree.InStream != 0)
	case kLength:
		plain = true
		count, _ := wire.ConsumeLen(raw, 4, fp.Compact)
		if fp.Compact {
			b = appendInt(append(b, "length uvarint = "...), count+1)
			b = append(b, " (compact, n+1)"...)
		} else {
			b = appendInt(append(b, "length int32 = "...), count)
		}
		b = tree.AppendPlace(b, int(s.Off), int(s.Size), s.Flags&tree.InStream != 0)
		switch count {
		case -1:
			b = append(b, " null array"...)
		case 0:
			b = append(b, " no elements follow"...)
		case 1:
			if p.sample {
				b = append(b, " one sample element follows"...)
			} else {
				b = append(b, " one element follows"...)
			}
		default:
			b = appendInt(append(b, ' '), count)
			b = append(b, " elements follow"...)
		}
	default:
		ok = false
	}
	if !ok {
		return b[:at], false, false
	}
	return b, true, plain
}

// AppendRun appends the lines of the leaves from span i (tree.RunAppender):
// the siblings' rows most of a message is, without a call from WriteText
// for each.
func (p *planDesc) AppendRun(b []byte, f *tree.Flat, i, end int, pre []byte, limit int) ([]byte, int) {
	j := i
	for ; j < end && j < len(f.Spans) && len(b) <= limit; j++ {
		if f.Spans[j].Next != int32(j+1) {
			break // it has children
		}
		at := len(b)
		out, ok, plain := p.AppendLine(append(b, pre...), f, j)
		if !ok || !plain {
			return out[:at], j
		}
		b = append(out, '\n')
	}
	return b, j
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

// appendPrimitiveValue appends the value and detail of a primitive of
// kind k that is all of b, as decoder.primitive and display write them
// into a node, or reports false for what it leaves to them (a bool that
// is not 0 or 1, a float, records, bytes that are not the whole of one).
func appendPrimitiveValue(dst []byte, k schemas.Kind, nullable, compact bool, b []byte) ([]byte, bool) {
	if w := k.Width(); w > 0 {
		if len(b) != w {
			return dst, false
		}
		switch k {
		case schemas.KindBool:
			if b[0] > 1 {
				return dst, false
			}
			return strconv.AppendBool(dst, b[0] == 1), true
		case schemas.KindInt8:
			return appendInt(dst, int64(int8(b[0]))), true
		case schemas.KindInt16:
			return appendInt(dst, int64(int16(binary.BigEndian.Uint16(b)))), true
		case schemas.KindUint16:
			return appendInt(dst, int64(binary.BigEndian.Uint16(b))), true
		case schemas.KindInt32:
			return appendInt(dst, int64(int32(binary.BigEndian.Uint32(b)))), true
		case schemas.KindUint32:
			return appendInt(dst, int64(binary.BigEndian.Uint32(b))), true
		case schemas.KindInt64:
			return appendInt(dst, int64(binary.BigEndian.Uint64(b))), true
		case schemas.KindUUID:
			return appendUUID(dst, recordString(b)), true
		}
		return dst, false
	}
	if k != schemas.KindString && k != schemas.KindBytes {
		return dst, false
	}
	width := 4
	if k == schemas.KindString {
		width = 2
	}
	length, n := wire.ConsumeLen(b, width, compact)
	switch {
	case n < 0 || length < -1 || (length == -1 && !nullable) || (length >= 0 && length != int64(len(b)-n)) || (length == -1 && n != len(b)):
		return dst, false
	case length == -1:
		dst = append(dst, "null"...)
	case k == schemas.KindString:
		dst = textesc.AppendEscaped(dst, recordString(b[n:]), true)
	default:
		dst = appendPreview(dst, recordString(b[n:]))
	}
	return appendLengthDetail(append(dst, ' '), k, int(length), compact), true
}
