package app

import (
	"strings"
	"testing"
)

// A bytes value up to MaxFormBytes is a hex textarea; a longer one is a
// note giving its size, with none of its hex.
func TestFormLongBytes(t *testing.T) {
	s := newState(t)
	for _, n := range []int{MaxFormBytes, MaxFormBytes + 1} {
		if err := s.SetField("b:Protocols[0].Metadata", strings.Repeat("ab", n)); err != nil {
			t.Fatal(err)
		}
		form := s.Form(nil)
		hex, note := strings.Contains(form, strings.Repeat("ab", n)), strings.Contains(form, "bytes (shown in the byte view")
		if long := n > MaxFormBytes; hex == long || note != long {
			t.Errorf("%d bytes: hex shown %v, note %v", n, hex, note)
		}
	}
}
