package codec

import (
	"math"
	"testing"
	"unsafe"
)

// TestValueForms: each constructor reads back through its accessor and
// through no other, whatever bits its number holds (an integer whose top
// byte looks like a kind is still an integer).
func TestValueForms(t *testing.T) {
	type want struct {
		null, list bool
		n          int64
		s          string
		len        int
	}
	cases := []struct {
		name string
		v    Value
		want want
	}{
		{"zero", Value{}, want{}},
		{"int", Int(-1), want{n: -1}},
		{"int with a kind's top byte", Int(kindString<<kindShift | 5), want{n: kindString<<kindShift | 5}},
		{"min int", Int(math.MinInt64), want{n: math.MinInt64}},
		{"bool", Bool(true), want{n: 1}},
		{"float", Float(-2.5), want{n: int64(math.Float64bits(-2.5))}},
		{"empty string", String(""), want{}},
		{"string", String("héllo"), want{s: "héllo"}},
		{"null", Null, want{null: true}},
		{"empty list", List(nil), want{list: true}},
		{"list", List([]Value{Int(1), String("x")}), want{list: true, len: 2}},
		{"struct with unknown tags", List([]Value{Int(1)}).WithUnknown([]RawTag{{Tag: 9, Data: []byte{1}}}), want{list: true, len: 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := c.v
			got := want{null: v.IsNull(), list: v.IsList(), n: v.Int(), s: v.Str(), len: len(v.List())}
			if got != c.want {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
			if !v.Equal(v.Clone()) {
				t.Error("not equal to its clone")
			}
		})
	}
	if got := unsafe.Sizeof(Value{}); got != 16 {
		t.Errorf("a Value takes %d bytes; a decode makes one per field and element, so keep it 16", got)
	}
}

// TestValueEqual: the zero value, the empty string and the empty list are
// equal (a field's default and a decoded empty value compare equal);
// null, integers and contents tell values apart; unknown tags compare in
// tag order.
func TestValueEqual(t *testing.T) {
	tags := func(ts ...uint32) []RawTag {
		var out []RawTag
		for _, t := range ts {
			out = append(out, RawTag{Tag: t, Data: []byte{byte(t)}})
		}
		return out
	}
	one := func() Value { return List([]Value{Int(1)}) }
	cases := []struct {
		a, b Value
		eq   bool
	}{
		{Value{}, String(""), true},
		{Value{}, List(nil), true},
		{String(""), List(nil), true},
		{Value{}, Null, false},
		{String(""), Null, false},
		{Int(5), Int(5), true},
		{Int(5), Int(6), false},
		{Int(1), String("\x01"), false},
		{String("ab"), String("ab"), true},
		{String("ab"), String("ac"), false},
		{one(), List([]Value{Int(1)}), true},
		{one(), List([]Value{Int(2)}), false},
		{one(), List([]Value{Int(1), Int(1)}), false},
		{one().WithUnknown(tags(3, 1)), one().WithUnknown(tags(1, 3)), true},
		{one().WithUnknown(tags(1)), one(), false},
		{one().WithUnknown(tags(1)), one().WithUnknown(tags(2)), false},
	}
	for i, c := range cases {
		if got := c.a.Equal(c.b); got != c.eq {
			t.Errorf("case %d: Equal = %v, want %v", i, got, c.eq)
		}
		if got := c.b.Equal(c.a); got != c.eq {
			t.Errorf("case %d reversed: Equal = %v, want %v", i, got, c.eq)
		}
	}
}

// TestValueShares: List shares the value's memory, so setting an element
// changes the value; Clone does not share.
func TestValueShares(t *testing.T) {
	v := List([]Value{Int(1), List([]Value{String("a")})})
	c := v.Clone()
	v.List()[0] = Int(7)
	v.List()[1].List()[0] = String("b")
	if v.List()[0].Int() != 7 || v.List()[1].List()[0].Str() != "b" {
		t.Errorf("setting through List did not change the value")
	}
	if c.List()[0].Int() != 1 || c.List()[1].List()[0].Str() != "a" {
		t.Errorf("the clone changed with the original")
	}
	w := v.WithUnknown([]RawTag{{Tag: 4}})
	w.List()[0] = Int(8)
	if v.List()[0].Int() != 8 {
		t.Errorf("WithUnknown copied the fields")
	}
}
