package codec

import (
	"strings"
	"testing"

	"kwire/codec/records"
	"kwire/schemas"
	"kwire/schemas/sets"
	"kwire/tree"
)

// controlField is a records field holding one control batch whose record
// has the given key and value.
func controlField(t *testing.T, key, value []byte) []byte {
	t.Helper()
	b := records.Batch{Magic: 2, Attributes: records.AttrControl | records.AttrTransactional, ProducerID: 9, BaseSequence: -1,
		Records: []records.Record{{Key: key, Value: value}}}
	b.Fill()
	out, err := records.Encode([]records.Batch{b})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func nodeNamed(nodes []*tree.Node, name string) *tree.Node {
	var found *tree.Node
	for _, n := range nodes {
		n.Walk(func(x *tree.Node, _ int) bool {
			if found == nil && x.Name == name {
				found = x
			}
			return found == nil
		})
	}
	return found
}

// TestControlRecords: control record values are decoded with the schema
// set's schemas: a KRaft LEADER_CHANGE value with LeaderChangeMessage of
// the trunk set; a COMMIT marker with ControlRecordType and EndTxnMarker
// when the set has them, and with the built-in layout when it does not
// (the 3.9 and trunk sets predate those two schemas).
func TestControlRecords(t *testing.T) {
	trunk, err := sets.Load("trunk")
	if err != nil {
		t.Fatal(err)
	}
	// LEADER_CHANGE: key version 0, type 2; value LeaderChangeMessage v0
	// without a version prefix.
	lcm, err := PlanFor(trunk.Message("LeaderChangeMessage"), 0)
	if err != nil {
		t.Fatal(err)
	}
	v := lcm.Smallest()
	v.List[1] = Int(3) // LeaderId
	value, err := lcm.Encode(v)
	if err != nil {
		t.Fatal(err)
	}
	field := controlField(t, []byte{0, 0, 0, 2}, value)
	nodes := records.Nodes(field, 0, records.Options{Control: ControlDecoder(trunk)})
	if key := nodeNamed(nodes, "key"); !strings.Contains(key.Value, "(LEADER_CHANGE)") {
		t.Errorf("key %q", key.Value)
	}
	if l := nodeNamed(nodes, "LeaderId"); l == nil || l.Value != "3" || l.Path != "[0].records[0]" {
		t.Errorf("LeaderId node %+v", l)
	}
	if e := treeErrors(&tree.Node{Children: nodes}); e != nil {
		t.Errorf("errors %q", e)
	}

	commit := controlField(t, []byte{0, 0, 0, 1}, []byte{0, 0, 0, 0, 0, 7})
	// The sets have no ControlRecordType: the built-in layout.
	nodes = records.Nodes(commit, 0, records.Options{Control: ControlDecoder(trunk)})
	if ty := nodeNamed(nodes, "Type"); ty == nil || ty.Value != "1 (COMMIT)" || !strings.Contains(ty.About, "built-in") {
		t.Errorf("Type node %+v", ty)
	}
	// A set that has them (as Kafka's later sources do).
	var msgs []*schemas.Message
	for _, src := range []string{
		`{"type": "data", "name": "ControlRecordType", "validVersions": "0", "flexibleVersions": "none",
		  "fields": [{"name": "Type", "type": "int16", "versions": "0+", "about": "type from the schema"}]}`,
		`{"type": "data", "name": "EndTxnMarker", "validVersions": "0", "flexibleVersions": "none",
		  "fields": [{"name": "CoordinatorEpoch", "type": "int32", "versions": "0+", "about": "epoch from the schema"}]}`,
	} {
		m, err := schemas.Parse("test.json", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, m)
	}
	set, err := schemas.NewSet("test", msgs)
	if err != nil {
		t.Fatal(err)
	}
	nodes = records.Nodes(commit, 100, records.Options{Control: ControlDecoder(set)})
	ty, epoch := nodeNamed(nodes, "Type"), nodeNamed(nodes, "CoordinatorEpoch")
	if ty == nil || ty.Value != "1 (COMMIT)" || ty.About != "type from the schema" {
		t.Errorf("Type node %+v", ty)
	}
	if epoch == nil || epoch.Value != "7" || epoch.About != "epoch from the schema" || epoch.Offset != 100+epochOffset {
		t.Errorf("CoordinatorEpoch node %+v", epoch)
	}
	// A compressed control batch: the nodes count from the decompressed
	// stream, and say so.
	b := records.Batch{Magic: 2, Attributes: records.AttrControl | int16(records.Zstd), Records: []records.Record{{Key: []byte{0, 0, 0, 0}, Value: []byte{0, 0, 0, 0, 0, 1}}}}
	b.Fill()
	zc, _ := records.Encode([]records.Batch{b})
	nodes = records.Nodes(zc, 0, records.Options{Control: ControlDecoder(set)})
	if ty := nodeNamed(nodes, "Type"); ty == nil || ty.Value != "0 (ABORT)" || !ty.Relative {
		t.Errorf("compressed Type node %+v", ty)
	}
}

// epochOffset is where the EndTxnMarker's CoordinatorEpoch lies in a
// control batch of one record (controlField): the header, then the
// record's length, attributes, deltas, key (length and 4 bytes), value
// length and its int16 version.
const epochOffset = records.BatchHeaderSize + 1 + 1 + 1 + 1 + 1 + 4 + 1 + 2
