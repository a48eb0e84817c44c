package app

import (
	"testing"
)

// An edit that leaves the bytes as they were keeps the tree and layout
// shown (nothing to decode again); one that changes them decodes anew,
// also when it changes them back.
func TestShowSameBytes(t *testing.T) {
	s := newState(t)
	if err := s.SetField("b:SessionTimeoutMs", "45000"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		value string
		same  bool
	}{{"45000", true}, {" 45000", true}, {"45001", false}, {"45000", false}, {"045000", true}} {
		root, layout, before := s.Root, s.Layout, s.HexString()
		if err := s.SetField("b:SessionTimeoutMs", tc.value); err != nil {
			t.Fatal(err)
		}
		if got := s.Root == root && s.Layout == layout; got != tc.same || (s.HexString() == before) != tc.same {
			t.Errorf("SessionTimeoutMs = %q: tree kept %v, want %v (bytes %s)", tc.value, got, tc.same, s.HexString())
		}
		if id := s.Owner(0x12); s.Err != nil || s.Layout.Nodes[id].Name != "SessionTimeoutMs" || s.Layout.Nodes[id].Value != tc.value[len(tc.value)-5:] {
			t.Errorf("SessionTimeoutMs = %q: byte 0x12 shows %s = %s, err %v", tc.value, s.Layout.Nodes[id].Name, s.Layout.Nodes[id].Value, s.Err)
		}
	}
}

// The smallest message pasted is read as pasted bytes; edited (even with
// no byte changed) it is shown as the smallest message, whose tree calls
// its array elements samples, so it is decoded again.
func TestShowSameBytesSample(t *testing.T) {
	s := newState(t)
	sample := s.Root.Text()
	if err := s.Paste(joinGroup9); err != nil {
		t.Fatal(err)
	}
	pasted := s.Root.Text()
	if pasted == sample {
		t.Fatalf("the pasted tree reads as the sample's:\n%s", pasted)
	}
	if err := s.SetField("b:SessionTimeoutMs", "0"); err != nil || s.HexString() != joinGroup9 {
		t.Fatalf("%v, bytes %s", err, s.HexString())
	}
	if got := s.Root.Text(); got != sample {
		t.Errorf("edited back to the smallest message, tree:\n%s\nwant:\n%s", got, sample)
	}
}
