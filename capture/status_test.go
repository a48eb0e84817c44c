package capture_test

import (
	"errors"
	"strings"
	"testing"

	"kwire/capture"
	"kwire/codec"
	"kwire/codec/wire"
	"kwire/schemas/sets"
	"kwire/tree"
	"kwire/tree/treetest"
)

// TestFrameStatus: the one text of what went wrong with a frame, for the
// command line's capture and the explorer's rows.
func TestFrameStatus(t *testing.T) {
	crc := []tree.Node{{}, {Name: "Records", Offset: 40, Size: 70, Path: "Topics[0].Records"},
		{Name: "crc", Offset: 57, Size: 4, Path: "Topics[0].Records", Err: errors.New("CRC-32C mismatch")}}
	inner := []tree.Node{{}, {Name: "Records", Offset: 40, Size: 70, Path: "R"},
		{Name: "error", Offset: 5, Size: 2, Path: "R", Relative: true, Err: errors.New("record length: unexpected end of input")}}
	for _, c := range []struct {
		name       string
		incomplete string
		root       *tree.Flat
		err        error
		want       string
	}{
		{"clean", "", treetest.Chain(tree.Node{Name: "body"}), nil, ""},
		{"decode error", "", nil, &wire.DecodeError{Offset: 12, Path: "Topics[0].Name", Err: wire.ErrShort},
			"decode error at offset 12 (0x000c): Topics[0].Name: unexpected end of input"},
		{"other error", "", nil, errors.New("no API with key 99"), "no API with key 99"},
		{"error node", "", treetest.Chain(crc...), nil,
			"decode error at offset 57 (0x0039): Topics[0].Records: crc: CRC-32C mismatch"},
		{"relative node", "", treetest.Chain(inner...), nil,
			"decode error at offset 40 (0x0028): R: at +0x0005 of the decompressed records: record length: unexpected end of input"},
		{"incomplete", "12 bytes lost", treetest.Chain(crc...), nil,
			"incomplete: 12 bytes lost; decode error at offset 57 (0x0039): Topics[0].Records: crc: CRC-32C mismatch"},
		{"empty tree", "", &tree.Flat{}, nil, ""},
	} {
		if got := capture.FrameStatus(c.incomplete, c.root, c.err); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestErrorCodes: the codes of a decoded frame's values, nested and
// unknown, once each in order, with or without its tree.
func TestErrorCodes(t *testing.T) {
	b := frameOf(t, "Metadata", 12, codec.Response, 7, `{"Brokers": [], "ClusterId": null, "ControllerId": 1,
		"Topics": [{"ErrorCode": 3, "Name": "a", "TopicId": "AAAAAAAAAAAAAAAAAAAAAA", "IsInternal": false, "TopicAuthorizedOperations": 0,
			"Partitions": [{"ErrorCode": 9999, "PartitionIndex": 0, "LeaderId": 1, "LeaderEpoch": 0, "ReplicaNodes": [], "IsrNodes": [], "OfflineReplicas": []}]},
			{"ErrorCode": 3, "Name": "b", "TopicId": "AAAAAAAAAAAAAAAAAAAAAA", "IsInternal": false, "TopicAuthorizedOperations": 0, "Partitions": []},
			{"ErrorCode": 0, "Name": "c", "TopicId": "AAAAAAAAAAAAAAAAAAAAAA", "IsInternal": false, "TopicAuthorizedOperations": 0, "Partitions": []}]}`)
	set, err := sets.ForVersion(3, 12, true)
	if err != nil {
		t.Fatal(err)
	}
	o := codec.DecodeOptions{Set: set, API: set.APIByKey(3), Version: 12, Dir: codec.Response}
	for _, valuesOnly := range []bool{false, true} {
		o.ValuesOnly = valuesOnly
		f, _, err := codec.Decode(b, o)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(capture.ErrorCodes(f), ","); got != "UNKNOWN_TOPIC_OR_PARTITION,9999" {
			t.Errorf("values only %v: %q", valuesOnly, got)
		}
	}
	if got := capture.ErrorCodes(nil); got != nil {
		t.Errorf("no frame: %q", got)
	}
}
