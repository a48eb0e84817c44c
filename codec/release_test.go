package codec

import (
	"errors"
	"strings"
	"testing"

	"kwire/codec/wire"
	"kwire/schemas/sets"
)

// Every request version of every release decodes with the auto choice,
// which names a release that has it; the newest versions (those only the
// newest releases have: Produce v13, Fetch v18, keys 90 and up) among them.
func TestAutoChoice(t *testing.T) {
	newest, _ := sets.Load(sets.Auto)
	n := 0
	for _, name := range sets.Names() {
		set := loadSet(t, name)
		for _, api := range set.APIs() {
			for v := api.Request.ValidVersions.Lo; v <= api.Request.ValidVersions.Hi; v++ {
				f, err := NewFrame(set, api, v, Request)
				if err != nil {
					t.Fatal(err)
				}
				b, err := f.Encode()
				if err != nil {
					t.Fatal(err)
				}
				g, _, err := Decode(b, DecodeOptions{Set: newest, Choose: sets.Choice{}})
				if err != nil {
					t.Fatalf("%s %s v%d: %v", name, api.Name, v, err)
				}
				ga := g.Set.APIByKey(api.Key)
				if g.API != ga || !ga.Request.ValidVersions.Contains(v) || g.Version != v {
					t.Fatalf("%s %s v%d: read with %s", name, api.Name, v, g.Set.Name)
				}
				n++
			}
		}
	}
	t.Logf("%d request versions", n)
}

// A version above every release's is an error at the version's offset
// naming the newest release; with Guess it is read with the newest layout
// and the tree says so.
func TestGuess(t *testing.T) {
	newest, _ := sets.Load(sets.Auto)
	api := newest.APIByKey(1) // Fetch
	hi := api.Request.ValidVersions.Hi
	f, err := NewFrame(newest, api, hi, Request)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := f.Encode()
	b[7]++ // the version's low byte: hi+1
	_, _, err = Decode(b, DecodeOptions{Set: newest, Choose: sets.Choice{}})
	var de *wire.DecodeError
	var verr *sets.VersionError
	if !errors.As(err, &de) || de.Offset != 6 || !errors.As(err, &verr) || !verr.Newer() || verr.Hi != hi {
		t.Fatalf("got %v", err)
	}
	g, fl, err := Decode(b, DecodeOptions{Set: newest, Choose: sets.Choice{}, Guess: true})
	if err != nil || !g.Guessed || g.Layout != hi || g.Version != hi+1 {
		t.Fatalf("guess: %v %+v", err, g)
	}
	if root := fl.Node(0, nil).Line(); !strings.Contains(root, "a guess") {
		t.Errorf("root: %s", root)
	}
	j, err := g.JSON(len(b))
	if err != nil || !strings.Contains(string(j), `"guessed_layout"`) || !strings.Contains(string(j), `"set": "`+newest.Name+`"`) {
		t.Errorf("json: %v %s", err, j)
	}
	// Bytes that stop fitting the guessed layout say where.
	_, _, err = Decode(b[:len(b)-3], DecodeOptions{Set: newest, Choose: sets.Choice{}, Guess: true})
	if !errors.As(err, &de) || de.Offset == 0 {
		t.Errorf("cut guess: %v", err)
	}
}
