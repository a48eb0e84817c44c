package codec

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"kwire/schemas"
	"kwire/tree"
)

// randomPerVersion is how many random instances each API version gets.
const randomPerVersion = 12

// seedFor gives every (set, api, version, direction, i) its own stream, so
// a failure names a seed that reproduces it alone.
func seedFor(set string, key int16, v int16, dir Direction, i int) (uint64, uint64) {
	h := uint64(0)
	for _, c := range set {
		h = h*31 + uint64(c)
	}
	return h, uint64(key)<<32 | uint64(uint16(v))<<16 | uint64(dir)<<8 | uint64(i)
}

func TestRandomRoundTrip(t *testing.T) {
	perSet := map[string]int{}
	var nulls, empties, multi, tagged, unknown int
	forEachVersion(t, func(t *testing.T, set *schemas.Set, api *schemas.API, v int16, dir Direction) {
		p, err := PlanFor(dir.Schema(api), v)
		if err != nil {
			t.Fatal(err)
		}
		perSet[set.Name]++
		for i := range randomPerVersion {
			s1, s2 := seedFor(set.Name, api.Key, v, dir, i)
			val := Random(p, rand.New(rand.NewPCG(s1, s2)))
			where := fmt.Sprintf("%s %s v%d %s seed (%d, %d)", set.Name, api.Name, v, dir, s1, s2)
			if err := checkRoundTrip(p, val); err != nil {
				t.Errorf("%s: %v", where, err)
				return
			}
			countShapes(p.Root, val, &nulls, &empties, &multi, &tagged, &unknown)
		}
		// A whole frame with a random header too.
		s1, s2 := seedFor(set.Name, api.Key, v, dir, randomPerVersion)
		if err := checkFrameRoundTrip(set, api, v, dir, rand.New(rand.NewPCG(s1, s2))); err != nil {
			t.Errorf("%s %s v%d %s frame seed (%d, %d): %v", set.Name, api.Name, v, dir, s1, s2, err)
		}
	})
	for name, n := range perSet {
		t.Logf("set %s: %d API versions (requests and responses), %d random instances each", name, n, randomPerVersion)
	}
	t.Logf("shapes seen: %d nulls, %d empty arrays, %d multi-element arrays, %d tagged fields set, %d unknown-tag sets",
		nulls, empties, multi, tagged, unknown)
	// The generator must reach every shape the issue names, or the test
	// above proves less than it claims.
	for name, n := range map[string]int{"nulls": nulls, "empty arrays": empties, "multi-element arrays": multi, "tagged fields": tagged, "unknown tags": unknown} {
		if n < 100 {
			t.Errorf("only %d %s in all random instances", n, name)
		}
	}
}

// checkRoundTrip encodes val, decodes it (with and without a tree), and
// checks that every byte is used, the value comes back equal, the bytes
// re-encode identically, the tree is well formed, and the JSON form parses
// back to the same value.
func checkRoundTrip(p *Plan, val Value) error {
	b, err := p.Encode(val)
	if err != nil {
		return fmt.Errorf("encode: %v", err)
	}
	got, n, err := p.Decode(b)
	if err != nil || n != len(b) {
		return fmt.Errorf("decode used %d of %d bytes: %v", n, len(b), err)
	}
	if !got.Equal(val) {
		return fmt.Errorf("decoded value differs:\n got %s\nwant %s", p.JSON(got), p.JSON(val))
	}
	b2, err := p.Encode(got)
	if err != nil || !bytes.Equal(b, b2) {
		return fmt.Errorf("re-encode differs (%v):\n%x\n%x", err, b, b2)
	}
	tv, fl, n, err := p.DecodeTree(b, tree.Node{Name: p.Msg.Name, Size: len(b)}, TreeOptions{})
	if err != nil || n != len(b) || !tv.Equal(val) {
		return fmt.Errorf("tree decode used %d of %d bytes, equal=%v: %v", n, len(b), tv.Equal(val), err)
	}
	if err := checkTree(fl, 0, 0, len(b), false); err != nil {
		return err
	}
	j := p.JSON(val)
	back, err := p.ParseJSON(j)
	if err != nil {
		return fmt.Errorf("JSON: %v\n%s", err, j)
	}
	if !back.Equal(val) {
		return fmt.Errorf("JSON round trip differs:\n%s\n%s", j, p.JSON(back))
	}
	return nil
}

// checkFrameRoundTrip encodes a frame with a random header and body,
// decodes it as a reader would (a request by its header alone) and checks
// that the frame comes back whole.
func checkFrameRoundTrip(set *schemas.Set, api *schemas.API, v int16, dir Direction, r *rand.Rand) error {
	f, err := NewFrame(set, api, v, dir)
	if err != nil {
		return err
	}
	hp, bp, err := f.Plans()
	if err != nil {
		return err
	}
	f.Header, f.Body = Random(hp, r), Random(bp, r)
	b, err := f.Encode()
	if err != nil {
		return fmt.Errorf("encode: %v", err)
	}
	o := DecodeOptions{Set: set, Dir: dir}
	if dir == Response {
		o.API, o.Version = api, v
	}
	g, fl, err := Decode(b, o)
	if err != nil {
		return fmt.Errorf("decode: %v", err)
	}
	if g.API != api || g.Version != v || !g.Header.Equal(f.Header) || !g.Body.Equal(f.Body) {
		return fmt.Errorf("decoded frame differs")
	}
	if size := int(fl.Spans[0].Size); size != len(b) {
		return fmt.Errorf("tree covers %d of %d bytes", size, len(b))
	}
	if err := checkTree(fl, 0, 0, len(b), false); err != nil {
		return err
	}
	b2, err := g.Encode()
	if err != nil || !bytes.Equal(b, b2) {
		return fmt.Errorf("re-encode differs (%v)", err)
	}
	return nil
}

// checkTree checks that node i of fl lies inside [lo, hi) and its
// children inside it; with errorsAllowed false, that no node is an error
// node.
func checkTree(fl *tree.Flat, i, lo, hi int, errorsAllowed bool) error {
	n := fl.Node(i, nil)
	if n.Size < 0 || n.Offset < lo || n.End() > hi {
		return fmt.Errorf("node %s (%s) spans [%d, %d), outside [%d, %d)", n.Path, n.Name, n.Offset, n.End(), lo, hi)
	}
	if !errorsAllowed && (n.Err != nil || n.Section == tree.Error) {
		return fmt.Errorf("error node %s: %s", n.Name, n.Err)
	}
	var err error
	fl.Children(i, func(c int) {
		if err != nil || fl.Spans[c].Flags&tree.InStream != 0 {
			return
		}
		// Random bytes that carry another format (nested.go) may well not
		// be one: errors there are the bytes', not the codec's.
		err = checkTree(fl, c, n.Offset, n.End(), errorsAllowed || n.Type == "bytes")
	})
	return err
}

// countShapes tallies the shapes in a random value, to show the generator
// reaches them.
func countShapes(sp *StructPlan, v Value, nulls, empties, multi, tagged, unknown *int) {
	if len(v.Unknown()) > 0 {
		*unknown++
	}
	for _, fp := range sp.Fields {
		if !fp.Present {
			continue
		}
		fv := v.List()[fp.Index]
		if fp.IsTagged && !fp.IsDefault(fv) {
			*tagged++
		}
		if fv.IsNull() {
			*nulls++
			continue
		}
		switch fp.Kind {
		case schemas.KindArray:
			switch {
			case len(fv.List()) == 0:
				*empties++
			case len(fv.List()) > 1:
				*multi++
			}
			if fp.Elem == schemas.KindStruct {
				for _, e := range fv.List() {
					countShapes(fp.Struct, e, nulls, empties, multi, tagged, unknown)
				}
			}
		case schemas.KindStruct:
			countShapes(fp.Struct, fv, nulls, empties, multi, tagged, unknown)
		}
	}
}

// TestRandomDeterministic: the same seed gives the same instance, and
// different seeds differ.
func TestRandomDeterministic(t *testing.T) {
	p := mustPlan(t, loadSet(t, "trunk"), "FetchResponse", 16)
	a := Random(p, rand.New(rand.NewPCG(1, 2)))
	b := Random(p, rand.New(rand.NewPCG(1, 2)))
	c := Random(p, rand.New(rand.NewPCG(1, 3)))
	if !a.Equal(b) {
		t.Error("same seed, different instances")
	}
	if a.Equal(c) {
		t.Error("different seeds, same instance")
	}
}
