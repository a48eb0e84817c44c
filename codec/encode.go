package codec

import (
	"encoding/binary"
	"errors"
	"math"
	"sort"
	"strconv"
	"unsafe"

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

// Not inlined: it is cold (an error, or the text of a few nodes), and
// inlined it was copied into each caller.
//
//go:noinline
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
	if len(list) != len(sp.Fields) || len(sp.strict) > 0 {
		if err := sp.check(list); err != nil {
			return dst, err
		}
	}
	// Each step's index is below len(sp.Fields), the length of list
	// (checked above): its value is read without a bounds check.
	base := unsafe.Pointer(unsafe.SliceData(list))
	var err error
	steps := sp.steps
	for i := range steps {
		st := &steps[i]
		v := (*Value)(unsafe.Add(base, uintptr(st.index)*unsafe.Sizeof(Value{})))
		// The common kinds, written here when their value fits; anything
		// else (out of range, null where it may not be, an error to
		// report) goes the general way, appendValue.
		switch st.op {
		case encInt32:
			if n := v.Int(); n == int64(int32(n)) {
				dst = binary.BigEndian.AppendUint32(dst, uint32(n))
				continue
			}
		case encInt16:
			if n := v.Int(); n == int64(int16(n)) {
				dst = binary.BigEndian.AppendUint16(dst, uint16(n))
				continue
			}
		case encInt64:
			dst = binary.BigEndian.AppendUint64(dst, uint64(v.Int()))
			continue
		case encInt8:
			if n := v.Int(); n == int64(int8(n)) {
				dst = append(dst, byte(n))
				continue
			}
		case encBool:
			if n := v.Int(); n == int64(uint8(n)) {
				dst = append(dst, byte(n))
				continue
			}
		case encUUID:
			if s := v.str(); len(s) == 16 {
				dst = append(dst, s...)
				continue
			}
		case encString, encNullableString, encBytes:
			switch v.kind() {
			case kindString:
				s := v.str()
				if st.compact {
					if len(s) < 0x7f {
						dst = append(dst, byte(len(s)+1))
					} else {
						dst = wire.AppendUvarint(dst, uint64(len(s))+1)
					}
					dst = append(dst, s...)
					continue
				}
				if st.op == encBytes {
					if len(s) <= math.MaxInt32 {
						dst = binary.BigEndian.AppendUint32(dst, uint32(len(s)))
						dst = append(dst, s...)
						continue
					}
				} else if len(s) <= math.MaxInt16 {
					dst = binary.BigEndian.AppendUint16(dst, uint16(len(s)))
					dst = append(dst, s...)
					continue
				}
			case kindNull:
				if st.op == encNullableString {
					dst = wire.AppendNullString(dst, st.compact)
					continue
				}
			}
		case encStruct:
			if v.IsList() {
				if dst, err = st.fp.Struct.append(dst, v); err != nil {
					return dst, withEncPath(err, st.fp.Field.Name)
				}
				continue
			}
		case encArray:
			if v.kind() == kindList {
				l := unsafe.Slice((*Value)(v.p), int(v.n&lenMask))
				if st.elem == schemas.KindInt32 && st.compact && len(l) < 0x7f {
					// A short array of int32 (replicas, partitions):
					// its count is one byte.
					mark := len(dst)
					dst = append(dst, byte(len(l)+1))
					for i := range l {
						n := l[i].Int()
						if n != int64(int32(n)) {
							dst = dst[:mark] // the general way says which element
							break
						}
						dst = binary.BigEndian.AppendUint32(dst, uint32(n))
					}
					if len(dst) != mark {
						continue
					}
				}
				if dst, err = st.fp.appendArray(dst, l); err != nil {
					return dst, withEncPath(err, st.fp.Field.Name)
				}
				continue
			}
		}
		if dst, err = st.fp.appendValue(dst, v); err != nil {
			return dst, withEncPath(err, st.fp.Field.Name)
		}
	}
	if sp.Flexible {
		if len(sp.Tagged) == 0 && v.kind() == kindList {
			// No tagged field at this version, no unknown one: a count of 0.
			return append(dst, 0), nil
		}
		dst, err = sp.appendTagged(dst, v)
	}
	return dst, err
}

// check says what is wrong with a struct value whose fields do not match
// the struct's, or that holds a value other than the default in a field
// the version lacks (not ignorable).
func (sp *StructPlan) check(list []Value) error {
	if len(list) != len(sp.Fields) {
		return encErr("struct %s has %d fields, the value has %d", sp.Name, len(sp.Fields), len(list))
	}
	for _, i := range sp.strict {
		fp := sp.Fields[i]
		if !fp.IsDefault(list[i]) {
			// Kafka's generated writers refuse to drop information silently.
			return withEncPath(encErr("a non-default value cannot be written at this version (the field has versions %s and is not ignorable)", fp.Field.Versions), fp.Field.Name)
		}
	}
	return nil
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
	list, unknown := v.list(), v.Unknown()
	if len(unknown) == 0 {
		// Most often every tagged field has its default: a count of 0.
		set := false
		for _, fp := range sp.Tagged {
			if !fp.IsDefault(list[fp.Index]) {
				set = true
				break
			}
		}
		if !set {
			return append(dst, 0), nil
		}
	}
	var entries []entry
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
		return fp.appendArray(dst, v.list())
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

// appendArray writes the elements of an array that is not null, after
// its length.
func (fp *FieldPlan) appendArray(dst []byte, list []Value) ([]byte, error) {
	if len(list) > math.MaxInt32-1 {
		return dst, encErr("array too long")
	}
	dst = wire.AppendArrayLen(dst, len(list), fp.Compact)
	var err error
	switch fp.Elem {
	case schemas.KindStruct:
		for i := range list {
			if dst, err = fp.Struct.append(dst, &list[i]); err != nil {
				return dst, withEncPath(err, "["+strconv.Itoa(i)+"]")
			}
		}
		return dst, nil
	case schemas.KindInt32:
		mark := len(dst)
		for i := range list {
			n := list[i].Int()
			if n != int64(int32(n)) {
				// Out of range: the general way says which element.
				dst = dst[:mark]
				break
			}
			dst = binary.BigEndian.AppendUint32(dst, uint32(n))
			if i == len(list)-1 {
				return dst, nil
			}
		}
	}
	for i := range list {
		if dst, err = appendPrimitive(dst, fp.Elem, &list[i], false, fp.Compact); err != nil {
			return dst, withEncPath(err, "["+strconv.Itoa(i)+"]")
		}
	}
	return dst, nil
}

// encStep is a field as the encoder's loop reads it: its index in the
// struct's value, and how to write the common kinds without going
// through appendValue (encGeneric: the general way).
type encStep struct {
	fp      *FieldPlan
	index   int32
	id      int32 // fp.id, for the tree's spans without a load of fp
	op      encOp
	compact bool
	elem    schemas.Kind // the element kind of an array (encArray)
}

type encOp uint8

const (
	encGeneric encOp = iota
	encBool
	encInt8
	encInt16
	encInt32
	encInt64 // int64 and float64
	encUUID
	encString         // not nullable at this version
	encNullableString // nullable at this version
	encBytes          // bytes (not records); the encoder's general way
	encStruct         // not nullable at this version
	encArray          // not nullable at this version
)

// encSteps are the steps of fields written in order.
func encSteps(wireFields []*FieldPlan) []encStep {
	steps := make([]encStep, len(wireFields))
	for i, fp := range wireFields {
		op := encGeneric
		switch fp.Kind {
		case schemas.KindBool:
			op = encBool
		case schemas.KindInt8:
			op = encInt8
		case schemas.KindInt16:
			op = encInt16
		case schemas.KindInt32:
			op = encInt32
		case schemas.KindInt64, schemas.KindFloat64:
			op = encInt64
		case schemas.KindUUID:
			op = encUUID
		case schemas.KindString:
			op = encString
			if fp.Nullable {
				op = encNullableString
			}
		case schemas.KindBytes:
			op = encBytes
		case schemas.KindStruct:
			if !fp.Nullable {
				op = encStruct
			}
		case schemas.KindArray:
			if !fp.Nullable {
				op = encArray
			}
		}
		steps[i] = encStep{fp: fp, index: int32(fp.Index), id: fp.id, op: op, compact: fp.Compact, elem: fp.Elem}
	}
	return steps
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
