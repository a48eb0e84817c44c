package app

import (
	"testing"

	"kwire/codec"
)

// Whatever is pasted, and whatever is typed into whichever field, the
// state stays drawable: no panic, and bytes that decode can be edited.
func FuzzState(f *testing.F) {
	f.Add(joinGroup9, "b:GroupId", "g1", false)
	f.Add(joinGroup9[:40], "b:Protocols[0].Name", "x", false)
	f.Add("0000001a 00000007 00 00000000 0000 00000005 01 01 01 00 01 02 01 01 01 00 00", "b:Members[0].Metadata", "00ff", true)
	f.Add("AAAAHQALAAkAAAAAAAABAAAAAAAAAAABAQECAQEAAQA=", "h:CorrelationId", "-1", false)
	f.Add("00000008 0001 0000 0000", "b:Topics[0]", "", true)
	f.Add(joinGroupConsumer, "b:Protocols[0].Metadata.ConsumerProtocolSubscription.Topics[0]", "t", false)
	f.Add(joinGroupConsumer, "b:Protocols[0].Metadata.ConsumerProtocolSubscription.OwnedPartitions[0].Partitions[0]", "-1", false)
	f.Add(joinGroupConsumer, "b:Protocols[0].Metadata", "0001ffff", false)
	s, err := New("trunk", "JoinGroup")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text, key, value string, response bool) {
		dir := codec.Request
		if response {
			dir = codec.Response
		}
		if err := s.Select("trunk", "JoinGroup", 9, dir); err != nil {
			t.Fatal(err)
		}
		err := s.Paste(text)
		_, _, _ = s.Form(nil), s.Tree(), s.HexRows(0, 4)
		_, _ = s.Query(), s.ErrorText()
		if err != nil {
			return
		}
		before := s.HexString()
		if err := s.SetField(key, value); err != nil {
			if s.HexString() != before {
				t.Fatalf("a refused edit (%v) changed the bytes", err)
			}
			return
		}
		if s.Err != nil || s.Frame == nil {
			t.Fatalf("an accepted edit left %v", s.Err)
		}
		_, _ = s.Form(nil), s.Tree()
	})
}
