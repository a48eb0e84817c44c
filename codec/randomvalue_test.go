package codec

import (
	"math"
	"math/rand/v2"

	"kwire/codec/records"
	"kwire/schemas"
)

// Random returns a random instance of the plan's message drawn from r, for
// tests and fuzz seeds. Every field the version has gets a value of its
// kind: integers across their whole range with the edges favoured, nulls
// where the field is nullable at the version, arrays empty, of one element
// or of several, strings with non-ASCII text (always valid UTF-8, as Kafka
// strings are), bytes, uuids, records as whole empty RecordBatch v2 (see
// records.EmptyBatch) or no bytes at all. Tagged fields are set or left at
// their defaults, and flexible structs occasionally carry unknown tags
// (numbered above every tag their schema defines, in ascending order).
// Fields the version lacks keep their defaults, so the value encodes.
//
// The same plan and the same sequence from r give the same value.
func Random(p *Plan, r *rand.Rand) Value {
	g := randomizer{r: r}
	return g.structValue(p.Root, 0)
}

type randomizer struct{ r *rand.Rand }

// maxRandomDepth bounds nesting: below it, arrays are empty or hold one
// element, so the size of an instance stays small.
const maxRandomDepth = 4

func (g *randomizer) oneIn(n int) bool { return g.r.IntN(n) == 0 }

func (g *randomizer) structValue(sp *StructPlan, depth int) Value {
	list := make([]Value, len(sp.Fields))
	maxTag := -1
	for _, fp := range sp.Fields {
		maxTag = max(maxTag, fp.Field.Tag)
		switch {
		case !fp.Present:
			list[fp.Index] = fp.Default.Clone()
		case fp.IsTagged && g.oneIn(2):
			list[fp.Index] = fp.Default.Clone()
		default:
			list[fp.Index] = g.field(fp, depth)
		}
	}
	v := List(list)
	if sp.Flexible && g.oneIn(8) {
		n := 1 + g.r.IntN(2)
		tags := make([]RawTag, n)
		tag := uint32(maxTag + 1 + g.r.IntN(3))
		for i := range tags {
			data := make([]byte, g.r.IntN(5))
			for j := range data {
				data[j] = byte(g.r.Uint32())
			}
			tags[i] = RawTag{Tag: tag, Data: data}
			tag += 1 + uint32(g.r.IntN(200))
		}
		v = v.WithUnknown(tags)
	}
	return v
}

func (g *randomizer) field(fp *FieldPlan, depth int) Value {
	switch fp.Kind {
	case schemas.KindArray:
		if fp.Nullable && g.oneIn(6) {
			return Null
		}
		var n int
		switch {
		case g.oneIn(4):
			n = 0
		case depth >= maxRandomDepth || g.oneIn(2):
			n = 1
		default:
			n = 2 + g.r.IntN(3)
		}
		elems := make([]Value, n)
		for i := range elems {
			if fp.Elem == schemas.KindStruct {
				elems[i] = g.structValue(fp.Struct, depth+1)
			} else {
				elems[i] = g.primitive(fp.Elem, false)
			}
		}
		return List(elems)
	case schemas.KindStruct:
		if fp.Nullable && g.oneIn(4) {
			return Null
		}
		return g.structValue(fp.Struct, depth+1)
	}
	return g.primitive(fp.Kind, fp.Nullable)
}

// randomRunes mixes ASCII with two-, three- and four-byte UTF-8.
var randomRunes = []rune("aZ09 _-.\"\\<>&é日本語ßΩ€😀\u00a0\u200b")

func (g *randomizer) primitive(k schemas.Kind, nullable bool) Value {
	if nullable && k.NullableKind() && k != schemas.KindUUID && g.oneIn(5) {
		return Null
	}
	switch k {
	case schemas.KindBool:
		return Bool(g.oneIn(2))
	case schemas.KindFloat64:
		switch g.r.IntN(6) {
		case 0:
			return Float(0)
		case 1:
			return Float([]float64{math.Inf(1), math.Inf(-1), math.NaN(), math.Copysign(0, -1), math.MaxFloat64, math.SmallestNonzeroFloat64}[g.r.IntN(6)])
		}
		return Float((g.r.Float64() - 0.5) * math.Pow(10, float64(g.r.IntN(40)-20)))
	case schemas.KindUUID:
		if g.oneIn(4) {
			return String(zeroUUID)
		}
		var b [16]byte
		for i := range b {
			b[i] = byte(g.r.Uint32())
		}
		return String(string(b[:]))
	case schemas.KindString:
		n := g.r.IntN(8)
		if g.oneIn(3) {
			n = 0
		}
		s := make([]rune, n)
		for i := range s {
			s[i] = randomRunes[g.r.IntN(len(randomRunes))]
		}
		return String(string(s))
	case schemas.KindBytes:
		b := make([]byte, g.r.IntN(12))
		for i := range b {
			b[i] = byte(g.r.Uint32())
		}
		return String(string(b))
	case schemas.KindRecords:
		var b []byte
		for range g.r.IntN(3) {
			b = append(b, records.EmptyBatch()...)
		}
		return String(string(b))
	}
	lo, hi := IntRange(k)
	switch g.r.IntN(6) {
	case 0:
		return Int(0)
	case 1:
		return Int([]int64{lo, hi, max(lo, -1), 1}[g.r.IntN(4)])
	case 2:
		return Int(max(lo, min(hi, int64(g.r.IntN(200))-100)))
	}
	// Uniform over the kind's range.
	if lo == math.MinInt64 {
		return Int(int64(g.r.Uint64()))
	}
	return Int(lo + g.r.Int64N(hi-lo+1))
}
