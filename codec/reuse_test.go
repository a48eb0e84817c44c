package codec

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"kwire/schemas"
)

// DecodeInto, reusing a value from earlier decodes of other messages of
// the same plan, gives what Decode gives, for whole messages and for
// messages cut short.
func TestDecodeIntoReuses(t *testing.T) {
	forEachVersion(t, func(t *testing.T, set *schemas.Set, api *schemas.API, v int16, dir Direction) {
		p, err := PlanFor(dir.Schema(api), v)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(uint64(api.Key), uint64(v)))
		var reused Value
		for i := 0; i < 4; i++ {
			b, err := p.Encode(Random(p, r))
			if err != nil {
				t.Fatalf("%s %s v%d: %v", set.Name, p.Msg.Name, v, err)
			}
			want, _, err := p.Decode(b)
			if err != nil {
				t.Fatal(err)
			}
			n, err := p.DecodeInto(b, &reused)
			if err != nil || n != len(b) {
				t.Fatalf("%s %s v%d: DecodeInto: %d of %d bytes, %v", set.Name, p.Msg.Name, v, n, len(b), err)
			}
			if !reused.Equal(want) {
				t.Fatalf("%s %s v%d: DecodeInto differs from Decode", set.Name, p.Msg.Name, v)
			}
			again, err := p.Encode(reused)
			if err != nil || !bytes.Equal(again, b) {
				t.Fatalf("%s %s v%d: re-encode of the reused value differs: %v", set.Name, p.Msg.Name, v, err)
			}
			// Cut short, the reused value holds what Decode's does: the
			// fields not reached are not left from the last message.
			cut := b[:len(b)*(i+1)/5]
			want, _, werr := p.Decode(cut)
			_, gerr := p.DecodeInto(cut, &reused)
			if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
				t.Fatalf("%s %s v%d: %d bytes: DecodeInto says %v, Decode %v", set.Name, p.Msg.Name, v, len(cut), gerr, werr)
			}
			if !reused.Equal(want) {
				t.Fatalf("%s %s v%d: %d bytes: DecodeInto's partial value differs from Decode's", set.Name, p.Msg.Name, v, len(cut))
			}
		}
	})
}

// A steady stream of the same message decodes without allocating, but for
// its strings.
func TestDecodeIntoAllocs(t *testing.T) {
	set := loadSet(t, "trunk")
	p := mustPlan(t, set, "FetchRequest", 16)
	b, err := p.Encode(Random(p, rand.New(rand.NewPCG(1, 2))))
	if err != nil {
		t.Fatal(err)
	}
	var v Value
	if _, err := p.DecodeInto(b, &v); err != nil {
		t.Fatal(err)
	}
	strs := 0
	var count func(v Value)
	count = func(v Value) {
		if v.Str() != "" {
			strs++
		}
		for _, e := range v.List() {
			count(e)
		}
	}
	count(v)
	allocs := testing.AllocsPerRun(20, func() { p.DecodeInto(b, &v) })
	if allocs > float64(strs) {
		t.Errorf("DecodeInto allocates %.0f times for a message with %d strings", allocs, strs)
	}
}
