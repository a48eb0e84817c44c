package app

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"

	"kwire/codec"
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
	n := s.Layout.Node(id)
	if n.Value != `"orders"` || s.FieldKey(id) != "b:Protocols[0].Metadata.ConsumerProtocolSubscription.Topics[0]" {
		t.Fatalf("byte 0x3b belongs to %s = %s (%q)", n.Name, n.Value, s.FieldKey(id))
	}
	// The version is edited as the bytes.
	if k := s.FieldKey(s.Owner(0x33)); k != "b:Protocols[0].Metadata" {
		t.Errorf("the version's key: %q", k)
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

// The form shows the subscription's fields under the metadata's hex; an
// edit of one writes the metadata again, then the frame's lengths; an
// element added inside is written too; a bad value leaves every byte.
func TestNestedFormEdit(t *testing.T) {
	s := newState(t)
	if err := s.Paste(joinGroupConsumer); err != nil {
		t.Fatal(err)
	}
	const topic = "b:Protocols[0].Metadata.ConsumerProtocolSubscription.Topics[0]"
	form := s.Form(nil)
	for _, want := range []string{`data-key="b:Protocols[0].Metadata.ConsumerProtocolSubscription"`, `id="k-` + topic + `"`, `value="orders"`,
		`id="k-b:Protocols[0].Metadata.ConsumerProtocolSubscription.GenerationId"`} {
		if !strings.Contains(form, want) {
			t.Errorf("no %s in the form", want)
		}
	}
	if err := s.SetField(topic, "orders-eu"); err != nil {
		t.Fatal(err)
	}
	if len(s.Bytes) != 101 || s.Bytes[3] != 97 || s.Bytes[0x32] != 48 || !strings.Contains(string(s.Bytes), "orders-eu") || s.ErrorText() != "" {
		t.Fatalf("after the edit (%s): %x", s.ErrorText(), s.Bytes)
	}
	if l := treeLineOf(s, "string[0]"); !strings.Contains(l, `"orders-eu"`) {
		t.Errorf("tree: %s", l)
	}
	// The page writes the metadata's input again from these.
	if o := s.Owners(topic); len(o) != 1 || o[0] != "b:Protocols[0].Metadata" || !strings.Contains(s.FieldText(o[0]), hex.EncodeToString([]byte("orders-eu"))) {
		t.Errorf("owners %q, text %q", o, s.FieldText("b:Protocols[0].Metadata"))
	}
	if o := s.Owners("b:Protocols[0].Metadata"); len(o) != 0 {
		t.Errorf("the metadata has owners %q", o)
	}
	if h := s.NestedForm("b:Protocols[0].Metadata"); !strings.Contains(h, `value="orders-eu"`) || s.NestedForm("b:GroupId") != "" {
		t.Errorf("nested form:\n%s", h)
	}
	// The same edit in the JSON form gives the same bytes.
	j := newState(t)
	if err := j.Paste(joinGroupConsumer); err != nil {
		t.Fatal(err)
	}
	if err := j.SetJSON(strings.Replace(j.JSON(), `"orders"`, `"orders-eu"`, 1)); err != nil || !bytes.Equal(j.Bytes, s.Bytes) {
		t.Errorf("the JSON form's edit: %v\n%x\n%x", err, j.Bytes, s.Bytes)
	}
	// An element added to an array inside, and a number.
	if err := s.AddElem("b:Protocols[0].Metadata.ConsumerProtocolSubscription.OwnedPartitions[0].Partitions"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetField("b:Protocols[0].Metadata.ConsumerProtocolSubscription.OwnedPartitions[0].Partitions[1]", "7"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetField("b:Protocols[0].Metadata.ConsumerProtocolSubscription.GenerationId", "6"); err != nil {
		t.Fatal(err)
	}
	text := s.TreeText()
	if !strings.Contains(text, "int32[1] int32 = 7") || !strings.Contains(text, "GenerationId int32 = 6") || s.ErrorText() != "" {
		t.Errorf("after adding a partition and changing the generation (%s):\n%s", s.ErrorText(), text)
	}
	// A value out of range changes nothing.
	before := bytes.Clone(s.Bytes)
	if err := s.SetField("b:Protocols[0].Metadata.ConsumerProtocolSubscription.GenerationId", "99999999999"); err == nil || !bytes.Equal(before, s.Bytes) {
		t.Errorf("a bad value: %v, bytes changed %v", err, !bytes.Equal(before, s.Bytes))
	}
	// Keys that name no editable field.
	for _, k := range []string{"b:Protocols[0].Metadata.ConsumerProtocolSubscription", "b:Protocols[0].Metadata.ConsumerProtocolAssignment.Topics",
		"b:Protocols[0].Name.ConsumerProtocolSubscription.Topics", "b:Protocols[0].Metadata.ConsumerProtocolSubscription.NoSuchField"} {
		if err := s.SetField(k, "x"); err == nil {
			t.Errorf("%s: no error", k)
		}
	}
	if !bytes.Equal(before, s.Bytes) {
		t.Errorf("refused keys changed the bytes")
	}
}

// Metadata of another protocol type, or bytes that are no subscription,
// have no fields in the form: they are edited as hex.
func TestNestedFormNotConsumer(t *testing.T) {
	s := newState(t)
	if err := s.Paste(joinGroupConsumer); err != nil {
		t.Fatal(err)
	}
	if err := s.SetField("b:ProtocolType", "connect"); err != nil {
		t.Fatal(err)
	}
	if form := s.Form(nil); strings.Contains(form, "ConsumerProtocolSubscription") {
		t.Errorf("connect's metadata has the subscription's fields")
	}
	if err := s.SetField("b:Protocols[0].Metadata.ConsumerProtocolSubscription.GenerationId", "1"); err == nil {
		t.Errorf("edited a subscription that the protocol type says is none")
	}
	if err := s.SetField("b:ProtocolType", "consumer"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetField("b:Protocols[0].Metadata", "0003ffff"); err != nil {
		t.Fatal(err)
	}
	if form := s.Form(nil); strings.Contains(form, `data-key="b:Protocols[0].Metadata.ConsumerProtocolSubscription"`) {
		t.Errorf("bytes that are no subscription have its fields")
	}
}

// treeLineOf is the first line of the tree that names name.
func treeLineOf(s *State, name string) string {
	for _, l := range strings.Split(s.TreeText(), "\n") {
		if strings.Contains(l, "+-- "+name+" ") {
			return l
		}
	}
	return ""
}

// A SyncGroup assignment is edited by its fields too.
func TestNestedFormAssignment(t *testing.T) {
	s := newState(t)
	if err := s.Select(Auto, "SyncGroup", 5, codec.Request); err != nil {
		t.Fatal(err)
	}
	for _, e := range [][2]string{{"b:ProtocolType", "consumer"}, {"add", "b:Assignments"},
		// ConsumerProtocolAssignment v0: topic "t", partition 0, no user data.
		{"b:Assignments[0].Assignment", "0000 00000001 000174 00000001 00000000 ffffffff"},
		{"b:Assignments[0].Assignment.ConsumerProtocolAssignment.AssignedPartitions[0].Partitions[0]", "3"},
		{"b:Assignments[0].Assignment.ConsumerProtocolAssignment.AssignedPartitions[0].Topic", "orders"},
	} {
		var err error
		if e[0] == "add" {
			err = s.AddElem(e[1])
		} else {
			err = s.SetField(e[0], e[1])
		}
		if err != nil {
			t.Fatalf("%s: %v", e[0], err)
		}
	}
	want := "0000" + "00000001" + "00066f7264657273" + "00000001" + "00000003" + "ffffffff"
	if got := hex.EncodeToString([]byte(s.Frame.Body.List()[s.bodyField(t, "Assignments")].List()[0].List()[1].Str())); got != want {
		t.Errorf("assignment %s, want %s", got, want)
	}
	if s.ErrorText() != "" || !strings.Contains(s.TreeText(), `Topic string = "orders"`) {
		t.Errorf("%s\n%s", s.ErrorText(), s.TreeText())
	}
}

// bodyField is the index of the body's field name.
func (s *State) bodyField(t *testing.T, name string) int {
	_, bp, err := s.Frame.Plans()
	if err != nil {
		t.Fatal(err)
	}
	return bp.Root.Field(name).Index
}
