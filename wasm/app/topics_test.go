package app

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"

	"kwire/capture/capturetest"
	"kwire/codec"
	"kwire/tree"
	"kwire/tree/treetest"
)

func jsonFrame(t *testing.T, api string, version int16, dir codec.Direction, corr int32, body string) []byte {
	t.Helper()
	b, err := capturetest.FrameFromJSON("trunk", api, version, dir, corr, body)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// offsetsByID is a Metadata response that names __consumer_offsets with
// an id, and a Produce request that gives the id alone, with an offset
// commit record.
func offsetsByID(t *testing.T) (metaReq, metaResp, produce []byte) {
	const id = "AAAAAAAAAAAAAAAAAAAABw"
	key := (&kmsg.OffsetCommitKey{Version: 1, Group: "g", Topic: "orders", Partition: 2}).AppendTo(nil)
	value := (&kmsg.OffsetCommitValue{Version: 3, Offset: 77}).AppendTo(nil)
	metaReq = jsonFrame(t, "Metadata", 12, codec.Request, 1, `{"Topics": null, "AllowAutoTopicCreation": false, "IncludeTopicAuthorizedOperations": false}`)
	metaResp = jsonFrame(t, "Metadata", 12, codec.Response, 1, `{"Topics": [{"ErrorCode": 0, "Name": "__consumer_offsets", "TopicId": "`+id+`", "Partitions": []}]}`)
	produce = jsonFrame(t, "Produce", 13, codec.Request, 2, `{"TransactionalId": null, "Acks": -1, "TimeoutMs": 1000, "TopicData": [{"TopicId": "`+id+`",
		"PartitionData": [{"Index": 0, "Records": [{"records": [{"keyHex": "`+hex.EncodeToString(key)+`", "valueHex": "`+hex.EncodeToString(value)+`"}]}]}]}]}`)
	return
}

// hasTopicOrders says whether the offset commit's key is decoded because
// its topic's id was named: not guessed from the bytes (the key says so).
func hasTopicOrders(fl *tree.Flat) bool {
	found, guessed := false, false
	for _, n := range treetest.All(fl) {
		found = found || n.Name == "topic" && n.Value == `"orders"`
		guessed = guessed || n.Name == "key" && strings.Contains(n.Detail, "read as a __consumer_offsets record")
	}
	return found && !guessed
}

// TestTopicIDsPasted: a Produce request that gives __consumer_offsets by
// id has its records read as the group coordinator's once a Metadata
// response pasted before named the id, one frame at a time or as a
// pasted stream.
func TestTopicIDsPasted(t *testing.T) {
	metaReq, metaResp, produce := offsetsByID(t)
	s := newState(t)
	if err := s.Load(produce); err != nil {
		t.Fatal(err)
	}
	if hasTopicOrders(s.Flat) {
		t.Fatal("decoded by the id before a response named it")
	}
	if err := s.Select(Auto, "Metadata", 12, codec.Response); err != nil {
		t.Fatal(err)
	}
	if err := s.Load(metaResp); err != nil {
		t.Fatal(err)
	}
	s.Dir = codec.Request
	if err := s.Load(produce); err != nil {
		t.Fatal(err)
	}
	if !hasTopicOrders(s.Flat) {
		t.Errorf("not decoded after the Metadata response:\n%s", s.TreeText())
	}
	c := PastedStream(hex.EncodeToString(metaReq) + hex.EncodeToString(metaResp) + hex.EncodeToString(produce))
	if c == nil || len(c.Rows) != 2 {
		t.Fatalf("stream: %+v", c)
	}
	s = newState(t)
	if err := s.OpenRow(c, 1, false); err != nil {
		t.Fatal(err)
	}
	if !hasTopicOrders(s.Flat) {
		t.Errorf("the stream's Produce request is not decoded:\n%s", s.TreeText())
	}
	if !strings.Contains(s.TreeText(), "OffsetCommitKey") {
		t.Error("no OffsetCommitKey")
	}
}
