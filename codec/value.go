// Package codec encodes and decodes every Kafka message of a schema set, at
// every version, from a plan compiled once per (schema, version): a value
// to bytes, and bytes to a value and to an object tree (package tree).
package codec

import (
	"math"
	"slices"
)

// Value is a schema-typed value. Which members are used depends on the
// field's kind, known from the plan:
//
//   - bool, integers: Int (bool is 0 or 1)
//   - float64: Int holds math.Float64bits
//   - string, bytes, uuid (16 bytes), records (the raw record bytes): Str
//   - array: List holds the elements
//   - struct: List holds one value per schema field, in schema order,
//     including fields the version lacks (at their defaults); Unknown holds
//     tagged fields the schema does not know, kept to be written back
//
// Null is set for a null string, bytes, records, array or struct.
type Value struct {
	Null    bool
	Int     int64
	Str     string
	List    []Value
	Unknown *[]RawTag
}

// RawTag is a tagged field that the schema does not define (KIP-482).
type RawTag struct {
	Tag  uint32
	Data []byte
}

// Bool returns a bool value.
func Bool(b bool) Value {
	if b {
		return Value{Int: 1}
	}
	return Value{}
}

// Int returns an integer value.
func Int(n int64) Value { return Value{Int: n} }

// Float returns a float64 value.
func Float(f float64) Value { return Value{Int: int64(math.Float64bits(f))} }

// String returns a string (or bytes, or uuid) value.
func String(s string) Value { return Value{Str: s} }

// Null is the null value.
var Null = Value{Null: true}

// Float64 reads a float64 value.
func (v Value) Float64() float64 { return math.Float64frombits(uint64(v.Int)) }

// Clone returns a deep copy of v.
func (v Value) Clone() Value {
	if v.List != nil {
		l := make([]Value, len(v.List))
		for i, e := range v.List {
			l[i] = e.Clone()
		}
		v.List = l
	}
	if v.Unknown != nil {
		u := slices.Clone(*v.Unknown)
		v.Unknown = &u
	}
	return v
}

// Equal reports whether two values are the same. Unknown tags are
// compared in ascending tag order, the order Encode writes them in
// (KIP-482), whatever order they were read or set in.
func (v Value) Equal(o Value) bool {
	if v.Null != o.Null || v.Int != o.Int || v.Str != o.Str || len(v.List) != len(o.List) {
		return false
	}
	for i := range v.List {
		if !v.List[i].Equal(o.List[i]) {
			return false
		}
	}
	a, b := v.unknown(), o.unknown()
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
	slices.SortStableFunc(tags, cmp)
	return tags
}

func (v Value) unknown() []RawTag {
	if v.Unknown == nil {
		return nil
	}
	return *v.Unknown
}
