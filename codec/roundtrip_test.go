package codec

import (
	"bytes"
	"testing"

	"kwire/schemas"
	"kwire/schemas/sets"
	"kwire/tree/treetest"
)

// forEachVersion calls f for every API, valid version and direction of
// both schema sets.
func forEachVersion(t *testing.T, f func(t *testing.T, set *schemas.Set, api *schemas.API, v int16, dir Direction)) {
	for _, name := range sets.Names() {
		set, err := sets.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, api := range set.APIs() {
			for _, dir := range []Direction{Request, Response} {
				m := dir.Schema(api)
				if m == nil {
					t.Errorf("%s %s: no %s schema", name, api.Name, dir)
					continue
				}
				for v := m.ValidVersions.Lo; v <= m.ValidVersions.Hi; v++ {
					f(t, set, api, v, dir)
				}
			}
		}
	}
}

func TestSmallestRoundTrip(t *testing.T) {
	n := 0
	forEachVersion(t, func(t *testing.T, set *schemas.Set, api *schemas.API, v int16, dir Direction) {
		n++
		f, err := NewFrame(set, api, v, dir)
		if err != nil {
			t.Fatalf("%s %s v%d %s: %v", set.Name, api.Name, v, dir, err)
		}
		b, err := f.Encode()
		if err != nil {
			t.Fatalf("%s %s v%d %s: encode: %v", set.Name, api.Name, v, dir, err)
		}
		g, fl, err := Decode(b, DecodeOptions{Set: set, API: api, Version: v, Dir: dir})
		if err != nil {
			t.Fatalf("%s %s v%d %s: decode: %v\n%s", set.Name, api.Name, v, dir, err, treetest.Text(fl))
		}
		if size := int(fl.Spans[0].Size); size != len(b) {
			t.Errorf("%s %s v%d %s: tree covers %d of %d bytes", set.Name, api.Name, v, dir, size, len(b))
		}
		if !g.Body.Equal(f.Body) {
			t.Errorf("%s %s v%d %s: decoded body differs", set.Name, api.Name, v, dir)
		}
		b2, err := g.Encode()
		if err != nil || !bytes.Equal(b, b2) {
			t.Errorf("%s %s v%d %s: re-encode differs (%v)", set.Name, api.Name, v, dir, err)
		}
		// JSON round trip.
		_, bp, _ := f.Plans()
		j := bp.JSON(f.Body)
		back, err := bp.ParseJSON(j)
		if err != nil {
			t.Fatalf("%s %s v%d %s: JSON: %v\n%s", set.Name, api.Name, v, dir, err, j)
		}
		b3, err := bp.Encode(back)
		b4, _ := bp.Encode(f.Body)
		if err != nil || !bytes.Equal(b3, b4) {
			t.Errorf("%s %s v%d %s: JSON round trip differs (%v)", set.Name, api.Name, v, dir, err)
		}
	})
	t.Logf("%d API versions round-tripped", n)
}
