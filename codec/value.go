// Package codec encodes and decodes every Kafka message of a schema set, at
// every version, from a plan compiled once per (schema, version): a value
// to bytes, and bytes to a value and to an object tree (package tree).
package codec

import (
	"math"
	"slices"
	"sort"
	"unsafe"
)

// Value is a schema-typed value. Which accessor applies depends on the
// field's kind, known from the plan:
//
//   - bool, integers: Int (bool is 0 or 1)
//   - float64: Float64 (Int holds math.Float64bits)
//   - string, bytes, uuid (16 bytes), records (the raw record bytes): Str
//   - array: List holds the elements
//   - struct: List holds one value per schema field, in schema order,
//     including fields the version lacks (at their defaults); Unknown holds
//     tagged fields the schema does not know, kept to be written back
//
// IsNull reports a null string, bytes, records, array or struct.
//
// A Value takes 16 bytes: a pointer and a number. An integer has no
// pointer and is the number; a string or list points at its first byte or
// element, and its number holds its kind and length. Decoding a message
// makes one Value per field and element, so this size, more than the
// wire's, sets how much a decode allocates. The zero Value is the integer
// 0, and equals the empty string and the empty list. Values are not
// comparable with ==; use Equal.
type Value struct {
	_ [0]func() // not comparable
	p unsafe.Pointer
	n uint64
}

// The kinds of a Value whose pointer is set, in the top byte of its
// number; the rest is the length of its string or list.
const (
	kindShift = 56
	lenMask   = 1<<kindShift - 1

	kindString = 1 + iota // p: the bytes, or &empty
	kindList              // p: the first element, or &empty
	kindTagged            // p: a *tagged
	kindNull              // p: &empty
)

// empty is where the pointer of a null or empty value points.
var empty byte

func (v Value) kind() uint64 {
	if v.p == nil {
		return 0
	}
	return v.n >> kindShift
}

// tagged is a struct value with tagged fields its schema does not know;
// rare, so kept in a box of its own.
type tagged struct {
	list []Value
	tags []RawTag
}

// RawTag is a tagged field that the schema does not define (KIP-482).
type RawTag struct {
	Tag  uint32
	Data []byte
}

// Bool returns a bool value.
func Bool(b bool) Value {
	if b {
		return Value{n: 1}
	}
	return Value{}
}

// Int returns an integer value.
func Int(n int64) Value { return Value{n: uint64(n)} }

// Float returns a float64 value.
func Float(f float64) Value { return Value{n: math.Float64bits(f)} }

// String returns a string (or bytes, or uuid, or records) value.
func String(s string) Value {
	if len(s) == 0 {
		return Value{p: unsafe.Pointer(&empty), n: kindString << kindShift}
	}
	return Value{p: unsafe.Pointer(unsafe.StringData(s)), n: kindString<<kindShift | uint64(len(s))}
}

// List returns an array or struct value holding l (not a copy).
func List(l []Value) Value {
	if len(l) == 0 {
		return Value{p: unsafe.Pointer(&empty), n: kindList << kindShift}
	}
	return Value{p: unsafe.Pointer(unsafe.SliceData(l)), n: kindList<<kindShift | uint64(len(l))}
}

// Null is the null value.
var Null = Value{p: unsafe.Pointer(&empty), n: kindNull << kindShift}

// IsNull reports whether v is null.
func (v Value) IsNull() bool { return v.kind() == kindNull }

// Int reads an integer (or bool) value; it is 0 for other values.
func (v Value) Int() int64 {
	if v.p != nil {
		return 0
	}
	return int64(v.n)
}

// Bool reads a bool value.
func (v Value) Bool() bool { return v.Int() != 0 }

// Float64 reads a float64 value.
func (v Value) Float64() float64 { return math.Float64frombits(uint64(v.Int())) }

// Str reads a string, bytes, uuid or records value; it is "" for other
// values.
//
//go:noinline
func (v Value) Str() string { return v.str() }

// str is Str, inlined in the codec's loops; Str is not, which keeps the
// WebAssembly build (where every inlined copy counts) smaller.
func (v Value) str() string {
	if v.kind() != kindString {
		return ""
	}
	return unsafe.String((*byte)(v.p), int(v.n&lenMask))
}

// List returns the elements of an array value or the fields of a struct
// value, sharing v's memory: setting an element changes v. It is nil for
// other values and for empty lists.
//
//go:noinline
func (v Value) List() []Value { return v.list() }

// list is List, inlined in the codec's loops.
func (v Value) list() []Value {
	switch v.kind() {
	case kindList:
		if n := int(v.n & lenMask); n > 0 {
			return unsafe.Slice((*Value)(v.p), n)
		}
	case kindTagged:
		return (*tagged)(v.p).list
	}
	return nil
}

// IsList reports whether v is an array or struct value (not null).
func (v Value) IsList() bool {
	k := v.kind()
	return k == kindList || k == kindTagged
}

// Unknown returns the tagged fields of a struct value that its schema does
// not define, in the order they were read or set.
func (v Value) Unknown() []RawTag {
	if v.kind() != kindTagged {
		return nil
	}
	return (*tagged)(v.p).tags
}

// WithUnknown returns the struct value v with its unknown tagged fields
// replaced by tags (not a copy).
func (v Value) WithUnknown(tags []RawTag) Value {
	if len(tags) == 0 {
		return List(v.List())
	}
	return Value{p: unsafe.Pointer(&tagged{list: v.List(), tags: tags}), n: kindTagged << kindShift}
}

// Clone returns a deep copy of v.
func (v Value) Clone() Value {
	switch v.kind() {
	case kindList:
		old := v.List()
		l := make([]Value, len(old))
		for i, e := range old {
			l[i] = e.Clone()
		}
		return List(l)
	case kindTagged:
		return List(v.List()).Clone().WithUnknown(slices.Clone(v.Unknown()))
	}
	return v
}

// Equal reports whether two values are the same. Unknown tags are
// compared in ascending tag order, the order Encode writes them in
// (KIP-482), whatever order they were read or set in.
func (v Value) Equal(o Value) bool {
	if v.p == nil && o.p == nil {
		return v.n == o.n
	}
	if v.IsNull() != o.IsNull() || v.Int() != o.Int() || v.Str() != o.Str() {
		return false
	}
	l, m := v.List(), o.List()
	if len(l) != len(m) {
		return false
	}
	for i := range l {
		if !l[i].Equal(m[i]) {
			return false
		}
	}
	a, b := v.Unknown(), o.Unknown()
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 {
		return true
	}
	return slices.EqualFunc(sortedTags(a), sortedTags(b), func(a, b RawTag) bool {
		return a.Tag == b.Tag && string(a.Data) == string(b.Data)
	})
}

// sortedTags returns tags in ascending tag order, keeping the order of
// equal tags; it copies only when they are out of order.
func sortedTags(tags []RawTag) []RawTag {
	cmp := func(a, b RawTag) int { return int(int64(a.Tag) - int64(b.Tag)) }
	if slices.IsSortedFunc(tags, cmp) {
		return tags
	}
	tags = slices.Clone(tags)
	// sort.SliceStable orders as slices.SortStableFunc does, with one
	// copy of its code for every type (the browser app's size).
	sort.SliceStable(tags, func(i, j int) bool { return cmp(tags[i], tags[j]) < 0 })
	return tags
}
