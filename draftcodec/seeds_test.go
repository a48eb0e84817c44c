package draftcodec

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"kwire/codec"
	"kwire/schemas/draft"
	"kwire/schemas/draft/drafttest"
)

// The seeds, the release they are pinned to, golden files: drafttest's.
const (
	seedStreams  = drafttest.SeedStreams
	seedConsumer = drafttest.SeedConsumer
)

var (
	readSeed    = drafttest.ReadSeed
	pinnedSet   = drafttest.PinnedSet
	placeholder = drafttest.Placeholder
	golden      = drafttest.Golden
)

func loadSeed(t testing.TB, name string) (*draft.Draft, []byte) {
	src := readSeed(t, name)
	return Load(src, draft.Options{File: name, Base: pinnedSet(t)}), src
}

func diagList(d *draft.Draft) string {
	var b strings.Builder
	for _, g := range d.Diagnostics {
		fmt.Fprintf(&b, "  %s\n", g)
	}
	return b.String()
}

// report writes what a draft read: its diagnostics, its schemas, and the
// smallest frame of each.
func report(t *testing.T, d *draft.Draft) string {
	var b strings.Builder
	fmt.Fprintf(&b, "== %s: %d warnings, %d errors\n", d.File, d.Warnings(), d.Errors())
	for _, g := range d.Diagnostics {
		fmt.Fprintf(&b, "%s\n", g)
	}
	for _, s := range d.Schemas {
		fmt.Fprintf(&b, "-- %s (%s, API %s) lines %d-%d key %d %s inSet=%v\n", s.Name, s.Type, s.API, s.Line, s.EndLine, s.Key, s.KeySource, s.InSet)
		for _, sf := range s.Skipped {
			fmt.Fprintf(&b, "   left out: %s (%s) at %d:%d\n", sf.Path, sf.Field.Type.Name, sf.Field.Pos.Line, sf.Field.Pos.Col)
		}
		if s.InSet && (s.Type == "request" || s.Type == "response") {
			dir := codec.Request
			if s.Type == "response" {
				dir = codec.Response
			}
			f, err := NewFrame(d, s.Name, dir)
			if err != nil {
				t.Fatalf("%s: %v", s.Name, err)
			}
			enc, err := f.Encode()
			if err != nil {
				t.Fatalf("%s: %v", s.Name, err)
			}
			fmt.Fprintf(&b, "   smallest %s v%d, %d bytes: %s\n", dir, f.Version, len(enc), hex.EncodeToString(enc))
		}
	}
	return b.String()
}

func TestSeedsGolden(t *testing.T) {
	var b strings.Builder
	for _, seed := range []string{seedStreams, seedConsumer} {
		d, _ := loadSeed(t, seed)
		b.WriteString(report(t, d))
	}
	golden(t, "seeds.golden", b.String())
}

// All six drafts load, pair, encode their smallest frame, and decode it
// back with the draft's set; a request frame names the API by the key the
// draft settled on (a placeholder, or the partner's).
func TestSeedsEncode(t *testing.T) {
	ph := placeholder(t)
	want := map[string]struct {
		key int16
		src draft.KeySource
	}{
		"StreamsGroupHeartbeatRequest":           {ph, draft.KeyPlaceholder},
		"StreamsGroupHeartbeatResponse":          {ph, draft.KeyPlaceholder},
		"ConsumerGroupInstallAssignmentRequest":  {ph, draft.KeyPlaceholder},
		"ConsumerGroupInstallAssignmentResponse": {ph, draft.KeyPlaceholder},
		"ConsumerGroupDescribe":                  {71, draft.KeyPartner},
		"ConsumerGroupDescribeResponse":          {71, draft.KeyWritten},
	}
	seen := 0
	for _, seed := range []string{seedStreams, seedConsumer} {
		d, _ := loadSeed(t, seed)
		if d.Set == nil {
			t.Fatalf("%s: no set", seed)
		}
		for _, s := range d.Schemas {
			w, ok := want[s.Name]
			if !ok || !s.InSet || s.Message == nil {
				t.Errorf("%s: unexpected schema %q (in set %v)", seed, s.Name, s.InSet)
				continue
			}
			seen++
			if s.Key != w.key || s.KeySource != w.src {
				t.Errorf("%s: key %d (%s), want %d (%s)", s.Name, s.Key, s.KeySource, w.key, w.src)
			}
			a, err := d.LookupAPI(s.Name) // found by name, with or without its suffix
			if err != nil || a.Request == nil || a.Response == nil || a.Key != w.key {
				t.Fatalf("%s: API %+v, %v", s.Name, a, err)
			}
			dir := codec.Request
			if s.Type == "response" {
				dir = codec.Response
			}
			f, err := NewFrame(d, s.API, dir)
			if err != nil {
				t.Fatal(err)
			}
			b, err := f.Encode()
			if err != nil {
				t.Fatalf("%s: %v", s.Name, err)
			}
			back, fl, err := codec.Decode(b, codec.DecodeOptions{Set: d.Set, API: a, Version: f.Version, Dir: dir})
			if err != nil || fl == nil || fl.Len() == 0 || back.API != a || fl.Node(0, nil).Name != s.Name {
				t.Fatalf("%s: decode: %v (tree %v)", s.Name, err, fl)
			}
			if !back.Body.Equal(f.Body) {
				t.Errorf("%s: the body did not come back", s.Name)
			}
			if dir == codec.Request {
				if k, ok := back.HeaderField("RequestApiKey"); !ok || k.Int() != int64(w.key) {
					t.Errorf("%s: the header's api key is %d, want %d", s.Name, k.Int(), w.key)
				}
			}
		}
	}
	if seen != 6 {
		t.Errorf("%d draft schemas, want 6", seen)
	}
}

// A key the user picks replaces the placeholder, and frames carry it.
func TestChosenKey(t *testing.T) {
	src := readSeed(t, seedStreams)
	d := Load(src, draft.Options{File: seedStreams, Base: pinnedSet(t), Keys: map[string]int16{"StreamsGroupHeartbeat": 88}})
	k, from, ok := d.Key("StreamsGroupHeartbeat")
	if !ok || k != 88 || from != draft.KeyChosen {
		t.Fatalf("key %d %s %v", k, from, ok)
	}
	f, err := NewFrame(d, "StreamsGroupHeartbeat", codec.Request)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := f.Encode()
	if b[4] != 0 || b[5] != 88 {
		t.Errorf("header starts % x, want key 88", b[4:6])
	}
	if !strings.Contains(diagList(d), "4:13: warning: apiKey is TBD; using 88, as chosen") {
		t.Errorf("diagnostics:\n%s", diagList(d))
	}
	// The repaired text holds the key, and parses as a released schema does.
	s := d.Schema("StreamsGroupHeartbeatRequest")
	if !bytes.Contains(s.Repaired, []byte(`"apiKey": 88,`)) {
		t.Errorf("repaired text: %.80s", s.Repaired)
	}
}

// BenchmarkLoad reads the two seed drafts (repairs, pairing, parsing and
// the encode check of each API).
func BenchmarkLoad(b *testing.B) {
	base := pinnedSet(b)
	var srcs [][]byte
	size := 0
	for _, seed := range []string{seedStreams, seedConsumer} {
		srcs = append(srcs, readSeed(b, seed))
		size += len(srcs[len(srcs)-1])
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		for _, src := range srcs {
			Load(src, draft.Options{Base: base})
		}
	}
}
