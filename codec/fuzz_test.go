package codec

import (
	"bytes"
	"fmt"
	"testing"

	"kwire/codec/wire"
	"kwire/schemas"
	"kwire/tree"
)

// The fuzz inputs start with three selector bytes: set and direction
// (bit 0: 3.9 or trunk, bit 1: request or response, for bodies), the API
// (an index into the set's APIs) and the version (an index into the valid
// versions). The rest is the frame or body.

var fuzzSetNames = [2]string{"3.9", "trunk"}

func fuzzSets(tb testing.TB) [2]*schemas.Set {
	return [2]*schemas.Set{loadSet(tb, fuzzSetNames[0]), loadSet(tb, fuzzSetNames[1])}
}

// fuzzPick reads the selector bytes.
func fuzzPick(sets [2]*schemas.Set, sel []byte) (*schemas.Set, *schemas.API, int16, Direction) {
	set := sets[sel[0]&1]
	dir := Direction(sel[0] >> 1 & 1)
	i := int(sel[1]) % len(set.APIs())
	for set.APIs()[i].Removed() { // every set has live APIs
		i = (i + 1) % len(set.APIs())
	}
	api := set.APIs()[i]
	vr := dir.Schema(api).ValidVersions
	v := vr.Lo + int16(int(sel[2])%int(vr.Hi-vr.Lo+1))
	return set, api, v, dir
}

// fuzzSeeds adds the smallest instance of every API at its lowest and
// highest versions, both directions, both sets; frame says whether as
// whole frames or bodies.
func fuzzSeeds(f *testing.F, sets [2]*schemas.Set, frame bool) {
	for si, set := range sets {
		for ai, api := range set.APIs() {
			if api.Removed() {
				continue
			}
			for _, dir := range []Direction{Request, Response} {
				vr := dir.Schema(api).ValidVersions
				for _, v := range []int16{vr.Lo, vr.Hi} {
					fr, err := NewFrame(set, api, v, dir)
					if err != nil {
						f.Fatal(err)
					}
					var b []byte
					if frame {
						b, err = fr.Encode()
					} else {
						b, err = fr.EncodeBody()
					}
					if err != nil {
						f.Fatal(err)
					}
					sel := []byte{byte(si) | byte(dir)<<1, byte(ai), byte(v - vr.Lo)}
					f.Add(append(sel, b...))
				}
			}
		}
	}
}

// FuzzDecodeFrame decodes the input as a request frame (the header names
// the API) and as a response frame of the API and version the selector
// bytes pick; the text kwire decode prints of each is its nodes' lines.
func FuzzDecodeFrame(f *testing.F) {
	sets := fuzzSets(f)
	fuzzSeeds(f, sets, true)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		set, api, v, _ := fuzzPick(sets, data[:3])
		b := data[3:]
		o := DecodeOptions{Set: set, Dir: Request}
		var text textCheck
		fr, fl, err := Decode(b, o)
		if err := checkDecoded(b, o, fr, fl, err); err != nil {
			t.Fatalf("as a request: %v", err)
		}
		text.compare(t, "as a request", fl, b)
		o = DecodeOptions{Set: set, API: api, Version: v, Dir: Response}
		fr, fl, err = Decode(b, o)
		if err := checkDecoded(b, o, fr, fl, err); err != nil {
			t.Fatalf("as a %s v%d response: %v", api.Name, v, err)
		}
		text.compare(t, "as a response", fl, b)
	})
}

// FuzzDecodeBody decodes the input as the body of the API, version and
// direction the selector bytes pick, and checks its text as
// FuzzDecodeFrame does.
func FuzzDecodeBody(f *testing.F) {
	sets := fuzzSets(f)
	fuzzSeeds(f, sets, false)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		set, api, v, dir := fuzzPick(sets, data[:3])
		b := data[3:]
		o := DecodeOptions{Set: set, API: api, Version: v, Dir: dir, BodyOnly: true}
		fr, fl, err := Decode(b, o)
		if err := checkDecoded(b, o, fr, fl, err); err != nil {
			t.Fatalf("as a %s v%d %s body: %v", api.Name, v, dir, err)
		}
		if err := checkValueDecodes(fr, b, err); err != nil {
			t.Fatalf("as a %s v%d %s body: %v", api.Name, v, dir, err)
		}
		var text textCheck
		text.compare(t, "as a body", fl, b)
	})
}

// checkValueDecodes checks the decodes without a tree against the tree
// decode that made fr from b with treeErr: Plan.Decode gives the same
// value and the same error (offset, path and text) but for the frame's
// own, and so
// does DecodeInto reusing a value decoded from all of b, for b and for b
// cut short (where the fields not reached must not keep the old values).
func checkValueDecodes(fr *Frame, b []byte, treeErr error) error {
	_, p, err := fr.Plans()
	if err != nil {
		return nil
	}
	v, n, err := p.Decode(b)
	if !v.Equal(fr.Body) {
		return fmt.Errorf("Plan.Decode's value differs from the tree decode's (err %v)", err)
	}
	// The frame's own errors (bytes left after the body) are not the
	// body decode's.
	if err != nil && (treeErr == nil || err.Error() != treeErr.Error()) || err == nil && treeErr != nil && n == len(b) {
		return fmt.Errorf("Plan.Decode's error %v, the tree decode's %v", err, treeErr)
	}
	var reused Value
	p.DecodeInto(b, &reused)
	for _, cut := range [][]byte{b, b[:n/2]} {
		want, wn, werr := p.Decode(cut)
		gn, gerr := p.DecodeInto(cut, &reused)
		if wn != gn || (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
			return fmt.Errorf("%d bytes: DecodeInto read %d (%v), Decode %d (%v)", len(cut), gn, gerr, wn, werr)
		}
		if !reused.Equal(want) {
			return fmt.Errorf("%d bytes: DecodeInto's value differs from Decode's", len(cut))
		}
	}
	return nil
}

// checkDecoded checks what Decode returned for b: an error is a
// *wire.DecodeError pointing inside b; the tree's nodes lie inside b and
// inside their parents; a frame decoded without error encodes again, to
// the same bytes or, when b spelled something in a longer or unusual way
// Kafka also accepts (a varint with extra continuation bytes, a struct
// presence byte other than 1, a tagged field written at its default or out
// of order), to bytes no longer than b that decode to the same frame and
// encode to themselves.
func checkDecoded(b []byte, o DecodeOptions, fr *Frame, fl *tree.Flat, err error) error {
	if fl == nil || fl.Len() == 0 || fr == nil {
		return fmt.Errorf("Decode returned no tree or frame (err %v)", err)
	}
	if err != nil {
		de, ok := err.(*wire.DecodeError)
		if !ok {
			return fmt.Errorf("error of type %T, not *wire.DecodeError: %v", err, err)
		}
		if de.Offset < 0 || de.Offset > len(b) {
			return fmt.Errorf("error offset %d outside the %d-byte input: %v", de.Offset, len(b), err)
		}
	}
	if root := &fl.Spans[0]; root.Off != 0 || int(root.Size) != len(b) {
		return fmt.Errorf("root spans [%d, %d), not the %d-byte input", root.Off, root.End(), len(b))
	}
	if terr := checkTree(fl, 0, 0, len(b), true); terr != nil {
		return fmt.Errorf("%v (decode error: %v)", terr, err)
	}
	if err != nil {
		return nil
	}
	encode := (*Frame).Encode
	if o.BodyOnly {
		encode = (*Frame).EncodeBody
	}
	b2, eerr := encode(fr)
	if eerr != nil {
		return fmt.Errorf("decoded without error but does not encode: %v", eerr)
	}
	if bytes.Equal(b, b2) {
		return nil
	}
	if len(b2) > len(b) {
		return fmt.Errorf("re-encoded to %d bytes, more than the %d read:\n%x\n%x", len(b2), len(b), b, b2)
	}
	fr2, _, err2 := Decode(b2, o)
	if err2 != nil {
		return fmt.Errorf("re-encoded bytes do not decode: %v\n%x\n%x", err2, b, b2)
	}
	if fr2.API != fr.API || fr2.Version != fr.Version || !fr2.Header.Equal(fr.Header) || !fr2.Body.Equal(fr.Body) {
		return fmt.Errorf("re-encoded bytes decode to another frame:\n%x\n%x", b, b2)
	}
	b3, err3 := encode(fr2)
	if err3 != nil || !bytes.Equal(b2, b3) {
		return fmt.Errorf("encoding is not a fixed point (%v):\n%x\n%x", err3, b2, b3)
	}
	return nil
}
