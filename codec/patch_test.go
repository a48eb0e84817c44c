package codec

import (
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"

	"kwire/schemas"
	"kwire/schemas/sets"
	"kwire/tree"
)

// leaf is where a primitive field's value sits in a struct value: the
// indexes of fields and elements from the root, and whether Patch is
// expected to patch an edit of it (a field it can decode alone).
type leaf struct {
	at       []int
	fp       *FieldPlan
	patched  bool
	position string
}

// leaves lists the primitive fields of v, a value of sp, and the
// elements of arrays of primitives.
func leaves(root, sp *StructPlan, v Value, at []int, tagged bool, out *[]leaf) {
	list := v.List()
	for _, fp := range sp.Fields {
		if !fp.Present || fp.Index >= len(list) {
			continue
		}
		here := append(append([]int(nil), at...), fp.Index)
		fv := list[fp.Index]
		inTag := tagged || fp.IsTagged
		switch {
		case fp.Kind == schemas.KindStruct && !fv.IsNull():
			leaves(root, fp.Struct, fv, here, inTag, out)
		case fp.Kind == schemas.KindArray:
			for i, e := range fv.List() {
				el := append(append([]int(nil), here...), i)
				if fp.Elem == schemas.KindStruct {
					leaves(root, fp.Struct, e, el, inTag, out)
				} else {
					*out = append(*out, leaf{at: el, fp: fp, patched: !inTag && fp.Elem != schemas.KindRecords, position: "element"})
				}
			}
		case fp.Kind.Primitive():
			ok := !inTag && fp.Kind != schemas.KindRecords && fp.Nested == nestNone && !steers(root, fp)
			*out = append(*out, leaf{at: here, fp: fp, patched: ok, position: "field"})
		}
	}
}

// slot returns the value at at in v.
func slot(v *Value, at []int) *Value {
	for _, i := range at {
		v = &v.list()[i]
	}
	return v
}

// mutate changes a primitive value of kind k: a number by its lowest bit,
// a string or bytes longer or shorter by one, null to empty, a uuid by
// its last byte.
func mutate(v *Value, k schemas.Kind, nullable bool, r *rand.Rand) {
	switch {
	case k.Width() > 0 && k != schemas.KindUUID:
		if k == schemas.KindBool {
			*v = Bool(v.Int() == 0)
		} else {
			*v = Int(v.Int() ^ 1)
		}
	case k == schemas.KindUUID:
		b := []byte(v.Str())
		b[len(b)-1] ^= 0x5a
		*v = String(string(b))
	case v.IsNull():
		*v = String("")
	case nullable && r.IntN(4) == 0:
		*v = Null
	case len(v.Str()) > 0 && r.IntN(2) == 0:
		*v = String(v.Str()[:len(v.Str())-1])
	default:
		*v = String(v.Str() + "k")
	}
}

// edited returns a copy of f with the value at l changed (mutate).
func edited(f *Frame, l leaf, r *rand.Rand) Frame {
	g := *f
	g.Body = f.Body.Clone()
	k := l.fp.Kind
	if l.position == "element" {
		k = l.fp.Elem
	}
	mutate(slot(&g.Body, l.at), k, l.fp.Nullable && l.position == "field", r)
	return g
}

// diffTree reports the first difference between two trees, node by node
// in preorder, field by field and parent by parent, or "" when they are
// the same.
func diffTree(a, b *tree.Flat) string {
	for i := range min(a.Len(), b.Len()) {
		na, nb := a.Node(i, nil), b.Node(i, nil)
		if !reflect.DeepEqual(*na, *nb) {
			return fmt.Sprintf("node %q differs:\n got %+v\nwant %+v", na.Path+" "+na.Name, *na, *nb)
		}
		if pa, pb := a.Spans[i].Parent, b.Spans[i].Parent; pa != pb {
			return fmt.Sprintf("node %q: under node %d, want %d", na.Path+" "+na.Name, pa, pb)
		}
	}
	if a.Len() != b.Len() {
		return fmt.Sprintf("%d nodes, want %d", a.Len(), b.Len())
	}
	return ""
}

// TestPatch edits random messages of every API version of every release,
// one primitive field at a time (numbers, strings and bytes longer,
// shorter and null, uuids; fields in structs and arrays of structs), and
// checks that Patch patches every edit of a field or an element of an
// array of primitives it can decode alone into exactly the tree a decode
// of the whole message gives, and refuses the others (tagged fields,
// records, nested formats, fields that steer others), as whole frames and
// as bare bodies.
func TestPatch(t *testing.T) {
	var edits, patched, refused, grown int
	forEachVersion(t, func(t *testing.T, set *schemas.Set, api *schemas.API, v int16, dir Direction) {
		s1, s2 := seedFor(set.Name, api.Key, v, dir, 99)
		r := rand.New(rand.NewPCG(s1, s2))
		f, err := NewFrame(set, api, v, dir)
		if err != nil {
			t.Fatal(err)
		}
		hp, bp, err := f.Plans()
		if err != nil {
			t.Fatal(err)
		}
		f.Header, f.Body = Random(hp, r), Random(bp, r)
		body := r.IntN(4) == 0
		encode := func(f *Frame) ([]byte, error) {
			if body {
				return f.EncodeBody()
			}
			return f.Encode()
		}
		old, err := encode(f)
		if err != nil {
			t.Fatal(err)
		}
		o := DecodeOptions{Set: set, API: api, Version: v, Dir: dir, BodyOnly: body}
		var ls []leaf
		leaves(bp.Root, bp.Root, f.Body, nil, false, &ls)
		for range min(len(ls), 6) {
			l := ls[r.IntN(len(ls))]
			g := edited(f, l, r)
			cur, err := encode(&g)
			if err != nil {
				continue // null where the version does not allow it
			}
			where := fmt.Sprintf("%s %s v%d %s body=%v: %s %s", set.Name, api.Name, v, dir, body, l.position, l.fp.Field.Name)
			_, fl, err := Decode(old, o)
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			ok := Patch(fl, old, cur, o) >= 0
			_, want, werr := Decode(cur, o)
			edits++
			if !ok {
				refused++
				if l.patched && werr == nil {
					t.Errorf("%s: not patched", where)
				}
				continue
			}
			patched++
			if len(cur) != len(old) {
				grown++
			}
			if werr != nil {
				t.Errorf("%s: patched, but the message no longer decodes: %v", where, werr)
				continue
			}
			if !l.patched {
				t.Errorf("%s: patched an edit Patch cannot decode alone", where)
			}
			if d := diffTree(fl, want); d != "" {
				t.Errorf("%s: %s", where, d)
			}
		}
	})
	t.Logf("%d edits: %d patched (%d of a new length), %d decoded whole", edits, patched, grown, refused)
	if patched < edits/2 || grown < patched/10 {
		t.Errorf("too few edits patched to prove much: %d of %d, %d of a new length", patched, edits, grown)
	}
}

// TestPatchCorpus edits the real frames of identify's corpora (requests
// and responses of kgo clients against kfake: records, compressed
// batches, consumer group metadata, SASL), field by field, and checks
// each patched tree against a decode of the whole frame.
func TestPatchCorpus(t *testing.T) {
	var edits, patched int
	for _, file := range []string{"../identify/testdata/corpus.txt", "../identify/testdata/heldout.txt"} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for ln, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var dirName, hexText string
			var key, version int16
			if _, err := fmt.Sscan(line, &dirName, &key, &version, &hexText); err != nil {
				t.Fatalf("%s:%d: %v", file, ln+1, err)
			}
			old, err := hex.DecodeString(hexText)
			if err != nil {
				t.Fatalf("%s:%d: %v", file, ln+1, err)
			}
			dir := Request
			if dirName == "response" {
				dir = Response
			}
			set, err := sets.ForVersion(key, version, dir == Response)
			if err != nil {
				continue // a version no release has (the corpus has a few)
			}
			api := set.APIByKey(key)
			o := DecodeOptions{Set: set, API: api, Version: version, Dir: dir}
			f, _, err := Decode(old, o)
			if err != nil {
				t.Fatalf("%s:%d: %v", file, ln+1, err)
			}
			_, bp, _ := f.Plans()
			var ls []leaf
			leaves(bp.Root, bp.Root, f.Body, nil, false, &ls)
			r := rand.New(rand.NewPCG(uint64(ln), 7))
			for range min(len(ls), 8) {
				l := ls[r.IntN(len(ls))]
				g := edited(f, l, r)
				cur, err := g.Encode()
				if err != nil {
					continue
				}
				where := fmt.Sprintf("%s:%d: %s v%d %s: %s %s", file, ln+1, api.Name, version, dir, l.position, l.fp.Field.Name)
				_, fl, _ := Decode(old, o)
				ok := Patch(fl, old, cur, o) >= 0
				_, want, werr := Decode(cur, o)
				edits++
				if !ok {
					if l.patched && werr == nil {
						t.Errorf("%s: not patched", where)
					}
					continue
				}
				patched++
				if werr != nil {
					t.Errorf("%s: patched, but the frame no longer decodes: %v", where, werr)
				} else if d := diffTree(fl, want); d != "" {
					t.Errorf("%s: %s", where, d)
				}
			}
		}
	}
	t.Logf("%d edits of real frames: %d patched", edits, patched)
	if patched < edits/2 {
		t.Errorf("only %d of %d edits patched", patched, edits)
	}
}

// FuzzPatch changes bytes of a body (any bytes, not only what an encoder
// writes: a cut of up to 7 bytes at an offset and up to 7 new ones) and
// checks that Patch, given the tree of the body as it was, either refuses
// or gives the tree a decode of the changed body gives. The input is the
// selector bytes of FuzzDecodeBody, the offset (2 bytes), the numbers of
// bytes cut and inserted (1 byte each), the bytes inserted, then the body.
func FuzzPatch(f *testing.F) {
	sets := fuzzSets(f)
	for si, set := range sets {
		for ai, api := range set.APIs() {
			if api.Removed() || ai%3 != 0 {
				continue
			}
			for _, dir := range []Direction{Request, Response} {
				vr := dir.Schema(api).ValidVersions
				p, err := PlanFor(dir.Schema(api), vr.Hi)
				if err != nil {
					f.Fatal(err)
				}
				b, err := p.Encode(Random(p, rand.New(rand.NewPCG(uint64(ai), uint64(si)))))
				if err != nil {
					continue
				}
				sel := []byte{byte(si) | byte(dir)<<1, byte(ai), byte(vr.Hi - vr.Lo)}
				f.Add(append(append(sel, byte(len(b)/256), byte(len(b)/2), 1, 1, 'x'), b...))
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 7 {
			return
		}
		set, api, v, dir := fuzzPick(sets, data[:3])
		cut, ins := int(data[5]%8), int(data[6]%8)
		if len(data) < 7+ins {
			return
		}
		old := data[7+ins:]
		if len(old) == 0 {
			return
		}
		at := int(data[3])<<8 | int(data[4])
		at %= len(old)
		cut = min(cut, len(old)-at)
		cur := append(append(append([]byte(nil), old[:at]...), data[7:7+ins]...), old[at+cut:]...)
		o := DecodeOptions{Set: set, API: api, Version: v, Dir: dir, BodyOnly: true}
		_, fl, err := Decode(old, o)
		if err != nil {
			return
		}
		if Patch(fl, old, cur, o) < 0 {
			return
		}
		_, want, err := Decode(cur, o)
		if err != nil {
			t.Fatalf("%s v%d %s: patched, but the body no longer decodes: %v", api.Name, v, dir, err)
		}
		if d := diffTree(fl, want); d != "" {
			t.Fatalf("%s v%d %s: %s", api.Name, v, dir, d)
		}
	})
}
