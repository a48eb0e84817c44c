package app

import (
	"strings"
	"testing"

	"kwire/codec"
	"kwire/codec/codectest"
	"kwire/render"
	"kwire/tree/treetest"
)

// An edit that leaves the bytes as they were keeps the tree and layout
// shown (nothing to decode again); one that changes a number's bytes
// patches the tree (codec.Patch: only the field's node is decoded again)
// and gives a layout that formats the nodes anew (their text changed),
// also when it changes them back; either way the tree and the text drawn
// are those a decode of the bytes gives.
func TestShowSameBytes(t *testing.T) {
	s := newState(t)
	if err := s.SetField("b:SessionTimeoutMs", "45000"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		value string
		same  bool
	}{{"45000", true}, {" 45000", true}, {"45001", false}, {"45000", false}, {"045000", true}} {
		flat, layout, before := s.Flat, s.Layout, s.HexString()
		if err := s.SetField("b:SessionTimeoutMs", tc.value); err != nil {
			t.Fatal(err)
		}
		if s.Flat != flat || (s.Layout == layout) != tc.same || (s.HexString() == before) != tc.same {
			t.Errorf("SessionTimeoutMs = %q: tree kept %v, layout kept %v, bytes %s (changed: want %v)", tc.value, s.Flat == flat, s.Layout == layout, s.HexString(), !tc.same)
		}
		if id := s.Owner(0x12); s.Err != nil || s.Layout.Node(id).Name != "SessionTimeoutMs" || s.Layout.Node(id).Value != tc.value[len(tc.value)-5:] {
			t.Errorf("SessionTimeoutMs = %q: byte 0x12 shows %s = %s, err %v", tc.value, s.Layout.Node(id).Name, s.Layout.Node(id).Value, s.Err)
		}
		checkShown(t, s)
	}
}

// checkShown checks that the tree and layout shown are those a decode of
// the bytes shown gives.
func checkShown(t *testing.T, s *State) {
	t.Helper()
	_, fl, err := codec.Decode(s.Bytes, s.shown)
	if (err == nil) != (s.Err == nil) {
		t.Fatalf("decode: %v; shown: %v", err, s.Err)
	}
	if got, want := s.TreeText(), treetest.Text(fl); got != want {
		t.Fatalf("tree shown:\n%s\nwant:\n%s", got, want)
	}
	if s.Layout.Flat() != s.Flat {
		t.Fatalf("the layout is not of the tree shown")
	}
	l := render.NewLayout(fl, len(s.Bytes))
	var got, want strings.Builder
	render.TreeView(&got, s.Layout, nil)
	render.TreeView(&want, l, nil)
	if got.String() != want.String() {
		t.Fatalf("tree drawn:\n%s\nwant:\n%s", got.String(), want.String())
	}
	for off := range s.Bytes {
		a, b := s.Layout.Owner(off), l.Owner(off)
		if (a < 0) != (b < 0) || a >= 0 && (s.Layout.Node(a).Path != l.Node(b).Path || s.Layout.Node(a).Name != l.Node(b).Name) {
			t.Fatalf("byte %d: owned by node %d, want %d", off, a, b)
		}
	}
}

// The smallest message pasted is read as pasted bytes; edited (even with
// no byte changed) it is shown as the smallest message, whose tree calls
// its array elements samples, so it is decoded again.
func TestShowSameBytesSample(t *testing.T) {
	s := newState(t)
	sample := s.TreeText()
	if err := s.Paste(joinGroup9); err != nil {
		t.Fatal(err)
	}
	pasted := s.TreeText()
	if pasted == sample {
		t.Fatalf("the pasted tree reads as the sample's:\n%s", pasted)
	}
	if err := s.SetField("b:SessionTimeoutMs", "0"); err != nil || s.HexString() != joinGroup9 {
		t.Fatalf("%v, bytes %s", err, s.HexString())
	}
	if got := s.TreeText(); got != sample {
		t.Errorf("edited back to the smallest message, tree:\n%s\nwant:\n%s", got, sample)
	}
}

// Edits of one field patch the tree shown (the same Flat) when the field
// can be decoded alone, and decode the message anew when not (a field
// that says how others are read, the header); the tree is always the one
// a decode of the bytes gives.
func TestEditPatched(t *testing.T) {
	s := newState(t)
	fetch, err := codectest.FetchResponse(256 << 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		load    func() error // nil: go on from the last case
		key     string
		value   string
		patched bool
	}{
		{nil, "b:SessionTimeoutMs", "30000", false},   // no longer the smallest message, whose tree says "sample"
		{nil, "b:GroupId", "a longer group id", true}, // a new length: later nodes move
		{nil, "b:SessionTimeoutMs", "30001", true},
		{nil, "b:ProtocolType", "consumer", false}, // says how the metadata is read
		{nil, "b:GroupInstanceId", "instance-1", true},
		{nil, "h:ClientId", "kwire", false}, // the header
		{nil, "b:GroupId", "", true},
		{func() error {
			if err := s.Select("trunk", "Fetch", -1, codec.Response); err != nil {
				return err
			}
			return s.Load(fetch)
		}, "b:ThrottleTimeMs", "1234", true},
		{nil, "b:ErrorCode", "3", true},
		{func() error {
			if err := s.Select("trunk", "Metadata", 12, codec.Response); err != nil {
				return err
			}
			return s.SetJSON(`{"Topics":[{"Name":"t","TopicId":"AAAAAAAAAAAAAAAAAAAAAA","Partitions":[{"PartitionIndex":0,"ReplicaNodes":[1,2,3],"IsrNodes":[1],"OfflineReplicas":[]}]}]}`)
		}, "b:Topics[0].Partitions[0].ReplicaNodes[1]", "7", true}, // an element of an array of int32
		{nil, "b:Topics[0].Name", "a longer topic name", true},
	} {
		if tc.load != nil {
			if err := tc.load(); err != nil {
				t.Fatal(err)
			}
		}
		flat := s.Flat
		if err := s.SetField(tc.key, tc.value); err != nil {
			t.Fatalf("%s = %q: %v", tc.key, tc.value, err)
		}
		if got := s.Flat == flat; got != tc.patched {
			t.Errorf("%s = %q: patched %v, want %v", tc.key, tc.value, got, tc.patched)
		}
		checkShown(t, s)
	}
}

// The legend lists the sections the tree shown has: a Fetch response's
// records add RecordBatch and Record, which a JoinGroup request lacks.
func TestLegendSections(t *testing.T) {
	s := newState(t)
	if l := s.Legend(); strings.Contains(l, "s-RecordBatch") || !strings.Contains(l, "s-request") || strings.Contains(l, "s-response") {
		t.Errorf("JoinGroup request: %s", l)
	}
	fetch, err := codectest.FetchResponse(4 << 10)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Select("trunk", "Fetch", -1, codec.Response); err != nil {
		t.Fatal(err)
	}
	if err := s.Load(fetch); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"s-frame", "s-header", "s-response", "s-RecordBatch", "s-Record\"", "s-tagged_fields"} {
		if l := s.Legend(); !strings.Contains(l, want) {
			t.Errorf("Fetch response: no %s in %s", want, l)
		}
	}
}
