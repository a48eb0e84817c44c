package sets

import "testing"

func TestRefuses(t *testing.T) {
	for _, c := range []struct {
		target       string
		key, version int16
		refused      bool
		removedIn    string
		kip          string
		instead      int16
	}{
		{"4.0", 0, 2, true, "4.0", "KIP-896", 3},  // Produce v2
		{"4.3", 0, 2, true, "4.0", "KIP-896", 3},  // removed before the target
		{"3.9", 0, 2, false, "", "", 0},           // 3.9 still has it
		{"4.0", 2, 0, true, "4.0", "KIP-896", 1},  // ListOffsets v0
		{"4.0", 4, 7, true, "4.0", "KIP-500", -1}, // LeaderAndIsr
		{"4.1", 78, 0, true, "4.1", "KIP-932", 1}, // ShareFetch v0
		{"4.0", 0, 13, true, "", "", 12},          // newer than 4.0's
		{"4.0", 56, 0, true, "4.0", "", 2},        // AlterPartition v0: no KIP in the table
		{"trunk", 3, 0, false, "", "", 0},         // Metadata v0 is still there
	} {
		r, refused, err := Refuses(c.target, c.key, c.version)
		if err != nil {
			t.Fatal(err)
		}
		if refused != c.refused {
			t.Errorf("%s key %d v%d: refused %v, want %v (%s)", c.target, c.key, c.version, refused, c.refused, r.Why)
			continue
		}
		if refused && (r.RemovedIn.Name != c.removedIn || r.KIP != c.kip || r.Instead != c.instead || r.Why == "") {
			t.Errorf("%s key %d v%d: %+v", c.target, c.key, c.version, r)
		}
	}
	if _, _, err := Refuses("9.9", 0, 0); err == nil {
		t.Error("no error for an unknown release")
	}
}
