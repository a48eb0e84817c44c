package identify

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
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
	// A Heartbeat v4 request of kgo's (correlation id 12; the smallest
	// instance, with an empty group and member, reads better as a
	// response), then an EndTxn v3 response at the same correlation id:
	// the same bytes as a Heartbeat v4 response.
	req, _ := hex.DecodeString("0000005c000c00040000000c000c6b776972652d636f727075730011636f727075732d67726f75702d656f73000000012e6b776972652d636f727075732d30666330333638366561356436313033643761623131393966316364306137300000")
	resp := frameOf(t, 26, 3, codec.Response)
	binary.BigEndian.PutUint32(resp[4:], 12)
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
// the closest first (the plausibility of what they read, less a little
// for each byte they did not), each with where it failed.
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
			if len(b) > 1 && (c.FailedAt < 0 || c.Err == nil || i > 0 && c.closeness > cs[i-1].closeness) {
				t.Errorf("%x: not ordered by how close they came (what they read, less what they did not), each with where it fails", b)
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
	f.Add([]byte{0, 0, 0, 12, 0, 0, 1, 44, 0, 0, 0, 0, 0, 0, 0, 0}) // a Heartbeat v4 response, correlation id 300
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 4096 {
			return
		}
		cs := Rank(b, Options{Max: 3})
		if len(cs) == 0 {
			t.Fatal("no candidate")
		}
		for _, c := range cs {
			for _, o := range c.Same {
				if o.sum != c.sum || o.Dir != c.Dir || o.Framing != c.Framing || o.API.Key == c.API.Key {
					t.Fatalf("%s is in the tie of %s", describe(o), describe(c))
				}
			}
		}
		// Read as a request first, as decode does: what is shown instead
		// decodes every byte and is no request frame.
		_, _, err := codec.Decode(b, codec.DecodeOptions{Dir: codec.Request, Choose: sets.Choice{}})
		if in, ok := Instead(b, err, Options{Max: 3}); ok && (!in[0].Exact() || in[0].Dir == codec.Request && in[0].Framing == Frame) {
			t.Fatalf("instead of the request: %s", describe(in[0]))
		}
	})
}

// TestInstead: bytes read as the request frame their header names are
// shown as the ranking's first reading when it decodes every byte and is
// not that request, whatever the header looks like.
func TestInstead(t *testing.T) {
	join, _ := hex.DecodeString("00000094000b000900000001000c6b776972652d636f72707573000d636f727075732d67726f75700000afc80000ea60010009636f6e73756d65720213636f6f70657261746976652d737469636b791f000300000002000161000162000000040000000000000000ffffffffffff0028626567696e6e696e6720746f206d616e616765207468652067726f7570206c6966656379636c6500")
	smallest := frameOf(t, 11, 9, codec.Request)
	smallest[24] = 0
	damaged := bytes.Clone(join)
	damaged[110] = 0x7f // a length past the end of the frame, late in it
	heartbeat := func(corr uint32) []byte {
		b := frameOf(t, 12, 4, codec.Response)
		binary.BigEndian.PutUint32(b[4:], corr)
		return b
	}
	// A SaslAuthenticate v1 response to PLAIN (no error, no bytes) with
	// correlation id 1: a Produce v1 request of no topics reads it whole
	// too, less plausibly.
	sasl, _ := hex.DecodeString("0000001400000001" + "0000" + "ffff" + "00000000" + "0000000000000000")
	for _, c := range []struct {
		name string
		b    []byte
		key  int16 // the reading shown instead; -1: the request stays
		dir  codec.Direction
	}{
		{"a Heartbeat v4 response with correlation id 300 (Produce v300, newer than every release)", heartbeat(300), 12, codec.Response},
		{"with correlation id 14 (Produce v14)", heartbeat(14), 12, codec.Response},
		{"with correlation id 7 (Produce v7, fails)", heartbeat(7), 12, codec.Response},
		{"with correlation id 65535", heartbeat(65535), 12, codec.Response},
		{"a SaslAuthenticate v1 response that reads whole as Produce v1", sasl, 36, codec.Response},
		{"a JoinGroup v9 request of kgo's", join, -1, 0},
		{"a damaged request", damaged, -1, 0},
		{"a request cut short", join[:100], -1, 0},
		{"the smallest JoinGroup v9 request, MemberId null (a response reads it whole)", smallest, -1, 0},
	} {
		_, _, err := codec.Decode(c.b, codec.DecodeOptions{Dir: codec.Request, Choose: sets.Choice{}})
		cs, ok := Instead(c.b, err, Options{})
		switch {
		case c.key < 0 && ok:
			t.Errorf("%s: read as %s instead of the request", c.name, describe(cs[0]))
		case c.key >= 0 && !ok:
			t.Errorf("%s: stays a request (%v)", c.name, err)
		case c.key >= 0 && (cs[0].API.Key != c.key || cs[0].Dir != c.dir || !cs[0].Exact()):
			t.Errorf("%s: read as %s", c.name, describe(cs[0]))
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
