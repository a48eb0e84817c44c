package identify

import (
	"bytes"
	"testing"

	"kwire/codec"
	"kwire/schemas/sets"
)

// frameOf encodes the smallest frame of an API version.
func frameOf(t *testing.T, key, version int16, dir codec.Direction) []byte {
	t.Helper()
	set, err := sets.ForVersion(key, version, dir == codec.Response)
	if err != nil {
		t.Fatal(err)
	}
	f, err := codec.NewFrame(set, set.APIByKey(key), version, dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := f.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestRankRequestFrame(t *testing.T) {
	b := frameOf(t, 11, 9, codec.Request)
	cs := Rank(b, Options{})
	if len(cs) == 0 || !cs[0].Has(11, 9) || cs[0].Dir != codec.Request || cs[0].Framing != Frame || !cs[0].Exact() {
		t.Fatalf("first candidate of a JoinGroup v9 request frame: %+v", cs)
	}
}

// TestStream: a request gives the response with its correlation id its
// API and version, though the response alone ranks another first.
func TestStream(t *testing.T) {
	req := frameOf(t, 12, 4, codec.Request)   // Heartbeat v4, correlation id 0
	resp := frameOf(t, 26, 3, codec.Response) // EndTxn v3: the same bytes as a Heartbeat v4 response
	alone := Rank(resp, Options{})
	if len(alone) == 0 || !alone[0].Exact() {
		t.Fatalf("no reading of the response: %+v", alone)
	}
	stream := append(bytes.Clone(req), resp...)
	fs := Frames(stream)
	if len(fs) != 2 {
		t.Fatalf("Frames: %d frames, want 2", len(fs))
	}
	got := RankStream(fs, Options{})
	if c := got[1][0]; !c.ByCorrelation || !c.Has(12, 4) || c.Dir != codec.Response {
		t.Errorf("response after its request: first %s v%d %s (by correlation: %v)", c.API.Name, c.Version, c.Dir, c.ByCorrelation)
	}
	for _, c := range alone {
		if c.ByCorrelation {
			t.Errorf("%s ranked by correlation without a request", c.API.Name)
		}
	}
}

// TestNothingDecodes: bytes that no layout decodes still get candidates,
// the furthest read first, each with where it failed.
func TestNothingDecodes(t *testing.T) {
	for _, b := range [][]byte{nil, {0xff}, bytes.Repeat([]byte{0xff}, 40)} {
		cs := Rank(b, Options{})
		if len(cs) == 0 {
			t.Fatalf("%x: no candidate", b)
		}
		for i, c := range cs {
			if c.Exact() && len(b) > 1 {
				t.Errorf("%x: %s v%d decodes", b, c.API.Name, c.Version)
			}
			if i > 0 && c.FailedAt > cs[i-1].FailedAt {
				t.Errorf("%x: not ordered by where they fail", b)
			}
		}
	}
}

// TestTruncated: a response frame cut short is named among the closest.
func TestTruncated(t *testing.T) {
	var b []byte
	for _, p := range readCorpus(t, corpusFile) {
		if p.key == 11 && p.version == 9 {
			b = p.resp[:len(p.resp)-3]
			break
		}
	}
	cs := Rank(b, Options{})
	for _, c := range cs {
		if c.Exact() {
			t.Fatalf("%s v%d decodes a frame cut short", c.API.Name, c.Version)
		}
		if c.API.Key == 11 && c.Version == 9 && c.Dir == codec.Response && c.Framing == Frame {
			return
		}
	}
	t.Errorf("JoinGroup v9 response not among the %d closest", len(cs))
}

func FuzzRank(f *testing.F) {
	f.Add([]byte{0, 0, 0, 6, 0, 0, 0, 1, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 4096 {
			return
		}
		cs := Rank(b, Options{Max: 3})
		if len(cs) == 0 {
			t.Fatal("no candidate")
		}
	})
}

// TestNotRequest: which bytes that fail as a request frame are identified.
func TestNotRequest(t *testing.T) {
	join := frameOf(t, 11, 9, codec.Request) // 33 bytes
	damaged := bytes.Clone(join)
	damaged[24] = 0 // MemberId null: fails at 24, past half
	early := bytes.Clone(join)
	early[15] = 0x7f // GroupId longer than the frame: fails at 15
	for _, c := range []struct {
		name string
		b    []byte
		want bool
	}{
		{"a response read as Produce v4", frameOf(t, 12, 4, codec.Response), true},
		{"a damaged request", damaged, false},
		{"a request that stops early", early, true},
		{"a request cut short", join[:30], false},
		{"no API with key 32767", []byte{0, 0, 0, 10, 0x7f, 0xff, 0, 0, 0, 0, 0, 0, 0, 0}, true},
	} {
		_, _, err := codec.Decode(c.b, codec.DecodeOptions{Dir: codec.Request, Choose: sets.Choice{}})
		if err == nil {
			t.Fatalf("%s: decodes as a request", c.name)
		}
		if got := NotRequest(c.b, err); got != c.want {
			t.Errorf("%s: NotRequest %v, want %v (%v)", c.name, got, c.want, err)
		}
	}
}

// TestCatalogReleases: each layout is listed with the release that
// sets.ForVersion reads its version with (the newest, stable first), when
// that release has the layout.
func TestCatalogReleases(t *testing.T) {
	c := load()
	fp := fingerprinter{memo: map[*codec.StructPlan]string{}}
	for _, e := range c.entries {
		want, err := sets.ForVersion(e.api.Key, e.version, e.dir == codec.Response)
		if err != nil {
			t.Fatalf("%s v%d: %v", e.api.Name, e.version, err)
		}
		p, err := codec.PlanFor(e.dir.Schema(want.APIByKey(e.api.Key)), e.version)
		if err != nil {
			t.Fatal(err)
		}
		if fp.of(p.Root) == fp.of(e.body.Root) && want != e.set {
			t.Errorf("%s v%d %s listed with %s, want %s", e.api.Name, e.version, e.dir, e.set.Name, want.Name)
		}
	}
}
