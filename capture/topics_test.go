package capture_test

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"

	"kwire/capture"
	"kwire/capture/capturetest"
	"kwire/codec"
	"kwire/tree/treetest"
)

func frameOf(t *testing.T, api string, version int16, dir codec.Direction, corr int32, body string) []byte {
	t.Helper()
	b, err := capturetest.FrameFromJSON("trunk", api, version, dir, corr, body)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestTopicIDsFollowed: a Fetch response that names __consumer_offsets
// by its id only has its records decoded as the group coordinator's,
// because a Metadata response earlier in the capture named the id.
func TestTopicIDsFollowed(t *testing.T) {
	const id = "AAAAAAAAAAAAAAAAAAAABw"
	key := (&kmsg.OffsetCommitKey{Version: 1, Group: "g", Topic: "orders", Partition: 2}).AppendTo(nil)
	value := (&kmsg.OffsetCommitValue{Version: 3, Offset: 77}).AppendTo(nil)
	rec := `{"keyHex": "` + hex.EncodeToString(key) + `", "valueHex": "` + hex.EncodeToString(value) + `"}`
	t0 := time.Unix(1700000000, 0)
	chunks := []capturetest.Chunk{
		{Conn: 0, FromClient: true, Time: t0, Data: frameOf(t, "Metadata", 12, codec.Request, 1, `{"Topics": null, "AllowAutoTopicCreation": false, "IncludeTopicAuthorizedOperations": false}`)},
		{Conn: 0, Time: t0.Add(time.Millisecond), Data: frameOf(t, "Metadata", 12, codec.Response, 1,
			`{"Topics": [{"ErrorCode": 0, "Name": "__consumer_offsets", "TopicId": "`+id+`", "IsInternal": true, "Partitions": []}]}`)},
		{Conn: 0, FromClient: true, Time: t0.Add(2 * time.Millisecond), Data: frameOf(t, "Fetch", 13, codec.Request, 2, `{"Topics": []}`)},
		{Conn: 0, Time: t0.Add(3 * time.Millisecond), Data: frameOf(t, "Fetch", 13, codec.Response, 2,
			`{"Responses": [{"TopicId": "`+id+`", "Partitions": [{"PartitionIndex": 0, "Records": [{"records": [`+rec+`]}]}]}]}`)},
	}
	var b bytes.Buffer
	if err := capturetest.WritePcap(&b, capturetest.Packets(chunks, capturetest.Options{}), ether, false, false, 262144); err != nil {
		t.Fatal(err)
	}
	found := false
	var first *codec.TopicNames // the first event's: no response came before it
	_, err := capture.Read(&b, capture.Options{}, func(e *capture.Event) {
		if first == nil {
			first = e.TopicNames
		}
		if e.Kind != capture.KindFrame || e.Key != 1 || e.Dir != codec.Response {
			return
		}
		_, fl, err := e.Decode(capture.Options{}.Limits)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range treetest.All(fl) {
			if n.Name == "topic" && n.Value == `"orders"` {
				found = true
			}
			if n.Name == "key" && strings.Contains(n.Detail, "read as a") {
				t.Errorf("guessed, not read by the id's name: %s", n.Detail)
			}
		}
		if !found {
			t.Errorf("the records are not read as __consumer_offsets':\n%s", treetest.Text(fl))
		}
		if name, ok := e.TopicNames.Name(strings.Repeat("\x00", 15) + "\x07"); !ok || name != "__consumer_offsets" {
			t.Errorf("the capture's names: %q %v", name, ok)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if !found {
		t.Error("no Fetch response")
	}
	if first.Len() != 0 {
		t.Errorf("the first event's names changed after it: %d", first.Len())
	}
}
