package codec

import (
	"errors"
	"math"
	"sort"

	"kwire/codec/wire"
	"kwire/internal/xfmt"
	"kwire/schemas"
)

// EncodeError says which field of a value could not be encoded and why.
type EncodeError struct {
	Path string
	Err  error
}

func (e *EncodeError) Error() string {
	if e.Path == "" {
		return "encode: " + e.Err.Error()
	}
	return "encode " + e.Path + ": " + e.Err.Error()
}

func (e *EncodeError) Unwrap() error { return e.Err }

func encErr(format string, args ...any) error {
	return &EncodeError{Err: xfmt.Errorf("%w: "+format, append([]any{wire.ErrValue}, args...)...)}
}

func withEncPath(err error, seg string) error {
	var ee *EncodeError
	if !errors.As(err, &ee) {
		return err
	}
	switch {
	case ee.Path == "":
		ee.Path = seg
	case ee.Path[0] == '[':
		ee.Path = seg + ee.Path
	default:
		ee.Path = seg + "." + ee.Path
	}
	return ee
}

// Append appends the encoding of v, a struct value of the plan's message,
// to dst.
func (p *Plan) Append(dst []byte, v Value) ([]byte, error) {
	return p.Root.append(dst, &v)
}

// Encode returns the encoding of v.
func (p *Plan) Encode(v Value) ([]byte, error) { return p.Append(nil, v) }

func (sp *StructPlan) append(dst []byte, v *Value) ([]byte, error) {
	list := v.list()
	if len(list) != len(sp.Fields) {
		return dst, encErr("struct %s has %d fields, the value has %d", sp.Name, len(sp.Fields), len(list))
	}
	for _, i := range sp.offWire {
		fp := sp.Fields[i]
		if fp.Present || fp.Field.Ignorable || fp.IsDefault(list[i]) {
			continue
		}
		// Kafka's generated writers refuse to drop information silently.
		return dst, withEncPath(encErr("a non-default value cannot be written at this version (the field has versions %s and is not ignorable)", fp.Field.Versions), fp.Field.Name)
	}
	var err error
	for _, fp := range sp.Wire {
		if dst, err = fp.appendValue(dst, &list[fp.Index]); err != nil {
			return dst, withEncPath(err, fp.Field.Name)
		}
	}
	if sp.Flexible {
		dst, err = sp.appendTagged(dst, v)
	}
	return dst, err
}

// appendTagged writes the tagged-field section (KIP-482): the count, then
// each field as tag, size and data, in ascending tag order; a field equal
// to its default is not written; unknown tags are written back.
func (sp *StructPlan) appendTagged(dst []byte, v *Value) ([]byte, error) {
	type entry struct {
		tag  uint32
		fp   *FieldPlan
		data []byte
	}
	var entries []entry
	list, unknown := v.list(), v.Unknown()
	for _, fp := range sp.Tagged {
		if !fp.IsDefault(list[fp.Index]) {
			entries = append(entries, entry{tag: uint32(fp.Field.Tag), fp: fp})
		}
	}
	for _, u := range unknown {
		entries = append(entries, entry{tag: u.Tag, data: u.Data})
	}
	if len(unknown) > 0 {
		sort.SliceStable(entries, func(i, j int) bool { return entries[i].tag < entries[j].tag })
	}
	dst = wire.AppendUvarint(dst, uint64(len(entries)))
	var scratch []byte
	for _, e := range entries {
		data := e.data
		if e.fp != nil {
			var err error
			scratch, err = e.fp.appendValue(scratch[:0], &list[e.fp.Index])
			if err != nil {
				return dst, withEncPath(err, e.fp.Field.Name)
			}
			data = scratch
		}
		dst = wire.AppendUvarint(dst, uint64(e.tag))
		dst = wire.AppendUvarint(dst, uint64(len(data)))
		dst = append(dst, data...)
	}
	return dst, nil
}

func (fp *FieldPlan) appendValue(dst []byte, v *Value) ([]byte, error) {
	switch fp.Kind {
	case schemas.KindArray:
		if v.IsNull() {
			if !fp.Nullable {
				return dst, encErr("null array in a field that is not nullable at this version")
			}
			return wire.AppendArrayLen(dst, -1, fp.Compact), nil
		}
		list := v.list()
		if len(list) > math.MaxInt32-1 {
			return dst, encErr("array too long")
		}
		dst = wire.AppendArrayLen(dst, len(list), fp.Compact)
		var err error
		for i := range list {
			e := &list[i]
			if fp.Elem == schemas.KindStruct {
				dst, err = fp.Struct.append(dst, e)
			} else {
				dst, err = appendPrimitive(dst, fp.Elem, e, false, fp.Compact)
			}
			if err != nil {
				return dst, withEncPath(err, xfmt.Sprintf("[%d]", i))
			}
		}
		return dst, nil
	case schemas.KindStruct:
		if fp.Nullable {
			if v.IsNull() {
				return append(dst, 0xff), nil
			}
			dst = append(dst, 1)
		} else if v.IsNull() {
			return dst, encErr("null struct in a field that is not nullable at this version")
		}
		return fp.Struct.append(dst, v)
	}
	return appendPrimitive(dst, fp.Kind, v, fp.Nullable, fp.Compact)
}

func appendPrimitive(dst []byte, k schemas.Kind, v *Value, nullable, compact bool) ([]byte, error) {
	switch k {
	case schemas.KindBool, schemas.KindInt8:
		n := v.Int()
		lo, hi := IntRange(k)
		if k == schemas.KindBool {
			hi = math.MaxUint8 // a byte other than 0 or 1, decoded as true, is written back as it was
		}
		if n < lo || n > hi {
			return dst, rangeErr(k, n)
		}
		return append(dst, byte(n)), nil
	case schemas.KindInt16, schemas.KindUint16:
		n := v.Int()
		if lo, hi := IntRange(k); n < lo || n > hi {
			return dst, rangeErr(k, n)
		}
		return wire.AppendInt16(dst, int16(n)), nil
	case schemas.KindInt32, schemas.KindUint32:
		n := v.Int()
		if lo, hi := IntRange(k); n < lo || n > hi {
			return dst, rangeErr(k, n)
		}
		return wire.AppendInt32(dst, int32(n)), nil
	case schemas.KindInt64, schemas.KindFloat64:
		return wire.AppendInt64(dst, v.Int()), nil
	}
	s := v.str()
	switch k {
	case schemas.KindUUID:
		if len(s) != 16 {
			return dst, encErr("uuid must be 16 bytes, not %d", len(s))
		}
		return append(dst, s...), nil
	case schemas.KindString:
		if v.IsNull() {
			if !nullable {
				return dst, errNotNullable()
			}
			return wire.AppendNullString(dst, compact), nil
		}
		if !compact && len(s) > math.MaxInt16 {
			return dst, encErr("string of %d bytes does not fit an int16 length", len(s))
		}
		return wire.AppendString(dst, s, compact), nil
	case schemas.KindBytes, schemas.KindRecords:
		if v.IsNull() {
			if !nullable {
				return dst, errNotNullable()
			}
			return wire.AppendNullBytes(dst, compact), nil
		}
		if compact {
			dst = wire.AppendUvarint(dst, uint64(len(s))+1)
		} else {
			dst = wire.AppendInt32(dst, int32(len(s)))
		}
		return append(dst, s...), nil
	}
	return dst, encErr("cannot encode kind %s", k)
}

func rangeErr(k schemas.Kind, n int64) error { return encErr("%d is out of range for %s", n, k) }

func errNotNullable() error { return encErr("null in a field that is not nullable at this version") }
