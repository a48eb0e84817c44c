package app

import (
	"strings"
	"testing"
)

// A JoinGroup v9 request of a consumer subscribed to "orders" (the
// README's example): its metadata is decoded in the tree, a nested node
// focuses the bytes field, and an edit of the JSON form's decoded topic
// re-encodes the metadata and the frame.
const joinGroupConsumer = "0000005e000b000900000000000000096d792d67726f75700000afc8ffffffff010009636f6e73756d6572020672616e67652d00030000000100066f7264657273ffffffff0000000100066f7264657273000000010000000000000005ffff000000"

func TestNestedSubscription(t *testing.T) {
	s := newState(t)
	if err := s.Paste(joinGroupConsumer); err != nil {
		t.Fatal(err)
	}
	id := s.Owner(0x3b) // inside "orders", the first subscribed topic
	n := s.Layout.Nodes[id]
	if n.Value != `"orders"` || s.FieldKey(id) != "b:Protocols[0].Metadata" {
		t.Fatalf("byte 0x3b belongs to %s = %s (%q)", n.Name, n.Value, s.FieldKey(id))
	}
	j := s.JSON()
	if !strings.Contains(j, `"ConsumerProtocolSubscription"`) {
		t.Fatalf("JSON:\n%s", j)
	}
	if err := s.SetJSON(strings.Replace(j, `"orders"`, `"orders-eu"`, 1)); err != nil {
		t.Fatal(err)
	}
	// Three bytes more: the topic, the metadata's compact length, the frame's size.
	if len(s.Bytes) != 101 || s.Bytes[3] != 97 || s.Bytes[0x32] != 48 || !strings.Contains(string(s.Bytes), "orders-eu") {
		t.Errorf("after the edit: %x", s.Bytes)
	}
	if e := s.ErrorText(); e != "" {
		t.Errorf("error after the edit: %s", e)
	}
}
