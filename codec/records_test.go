package codec

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"unsafe"

	"kwire/codec/records"
	"kwire/codec/wire"
	"kwire/schemas"
	"kwire/schemas/sets"
	"kwire/tree"
	"kwire/tree/treetest"
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

func nodeNamed(f *tree.Flat, name string) *tree.Node {
	_, n := treetest.Named(f, name)
	return n
}

// TestControlRecords: control record values are decoded with the schema
// set's schemas: a KRaft LEADER_CHANGE value with LeaderChangeMessage of
// the trunk set; a COMMIT marker with ControlRecordType and EndTxnMarker
// when the set has them, and with the built-in layout when it does not
// (3.9 and 4.0 predate those two schemas).
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
	v.List()[1] = Int(3) // LeaderId
	value, err := lcm.Encode(v)
	if err != nil {
		t.Fatal(err)
	}
	field := controlField(t, []byte{0, 0, 0, 2}, value)
	nodes := recordTree(field, 0, records.Options{Control: ControlDecoder(trunk)})
	if key := nodeNamed(nodes, "key"); !strings.Contains(key.Value, "(LEADER_CHANGE)") {
		t.Errorf("key %q", key.Value)
	}
	if l := nodeNamed(nodes, "LeaderId"); l == nil || l.Value != "3" || l.Path != "[0].records[0]" {
		t.Errorf("LeaderId node %+v", l)
	}
	if e := treeErrors(nodes); e != nil {
		t.Errorf("errors %q", e)
	}

	commit := controlField(t, []byte{0, 0, 0, 1}, []byte{0, 0, 0, 0, 0, 7})
	// Each release: its own schemas where it has them (EndTxnMarker from
	// 4.1, ControlRecordTypeSchema from 4.3), the built-in layout where
	// it does not.
	for _, name := range sets.Names() {
		set, _ := sets.Load(name)
		nodes = recordTree(commit, 0, records.Options{Control: ControlDecoder(set)})
		ty, epoch := nodeNamed(nodes, "Type"), nodeNamed(nodes, "CoordinatorEpoch")
		hasType := set.Message("ControlRecordType") != nil || set.Message("ControlRecordTypeSchema") != nil
		if ty == nil || ty.Value != "1 (COMMIT)" || strings.Contains(ty.About, "built-in") == hasType {
			t.Errorf("%s: Type node %+v", name, ty)
		}
		if epoch == nil || epoch.Value != "7" || strings.Contains(epoch.About, "built-in") == (set.Message("EndTxnMarker") != nil) {
			t.Errorf("%s: CoordinatorEpoch node %+v", name, epoch)
		}
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
	nodes = recordTree(commit, 100, records.Options{Control: ControlDecoder(set)})
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
	nodes = recordTree(zc, 0, records.Options{Control: ControlDecoder(set)})
	if ty := nodeNamed(nodes, "Type"); ty == nil || ty.Value != "0 (ABORT)" || !ty.Relative {
		t.Errorf("compressed Type node %+v", ty)
	}
}

// epochOffset is where the EndTxnMarker's CoordinatorEpoch lies in a
// control batch of one record (controlField): the header, then the
// record's length, attributes, deltas, key (length and 4 bytes), value
// length and its int16 version.
const epochOffset = records.BatchHeaderSize + 1 + 1 + 1 + 1 + 1 + 4 + 1 + 2

// TestRecordsJSON: a records field in a frame's JSON is a list of batches;
// setting a frame from it encodes the batches, and mistakes are reported
// at their path.
func TestRecordsJSON(t *testing.T) {
	set, err := sets.Load("trunk")
	if err != nil {
		t.Fatal(err)
	}
	api, _ := set.LookupAPI("Produce")
	f, err := NewFrame(set, api, 11, Request)
	if err != nil {
		t.Fatal(err)
	}
	body := `{"TransactionalId": null, "Acks": -1, "TimeoutMs": 1000, "TopicData": [{"Name": "t", "PartitionData": [{"Index": 0,
		"Records": [{"compression": "gzip", "baseTimestamp": 1700000000000,
			"records": [{"key": "k", "value": "hello", "headers": [{"key": "h", "valueHex": "00ff"}]}, {"timestampDelta": 5, "value": "world"}]}]}]}]}`
	if err := f.SetJSON([]byte(body)); err != nil {
		t.Fatal(err)
	}
	b, err := f.Encode()
	if err != nil {
		t.Fatal(err)
	}
	g, fl, err := Decode(b, DecodeOptions{Set: set, Dir: Request})
	if err != nil {
		t.Fatal(err)
	}
	if e := treetest.FirstError(fl); e != nil {
		t.Fatalf("error node %s %s: %s", e.Path, e.Name, e.Err)
	}
	_, val := treetest.Named(fl, "Record[1]")
	if val == nil || !val.Relative || val.Path != "TopicData[0].PartitionData[0].Records[0].records[1]" {
		t.Fatalf("Record[1] node %+v", val)
	}
	j, _ := g.JSON(len(b))
	for _, want := range []string{`"compression": "gzip"`, `"key": "k"`, `"valueHex": "00ff"`, `"timestampDelta": 5`, `"producerId": -1`} {
		if !strings.Contains(string(j), want) {
			t.Errorf("JSON lacks %s:\n%s", want, j)
		}
	}
	bad := strings.Replace(body, `"timestampDelta": 5`, `"timestampDelta": "soon"`, 1)
	err = f.SetJSON([]byte(bad))
	if err == nil || !strings.Contains(err.Error(), "TopicData[0].PartitionData[0].Records[0].records[1].timestampDelta") {
		t.Errorf("error %v", err)
	}
}

// TestInPlace: with InPlace, a values-only decode's records fields refer
// to the frame's bytes, and its JSON is that of a decode that copies them.
func TestInPlace(t *testing.T) {
	set, err := sets.Load("trunk")
	if err != nil {
		t.Fatal(err)
	}
	api, _ := set.LookupAPI("Fetch")
	frame := benchFetch(benchBatches(records.Gzip))
	o := DecodeOptions{Set: set, API: api, Version: benchFetchVers, Dir: Response, ValuesOnly: true}
	jsons := map[bool][]byte{}
	for _, inPlace := range []bool{false, true} {
		o.InPlace = inPlace
		f, _, err := Decode(frame, o)
		if err != nil {
			t.Fatal(err)
		}
		bp, _ := PlanFor(api.Response, benchFetchVers)
		n := 0
		eachRecords(bp.Root, f.Body, func(v Value) error {
			p := uintptr(unsafe.Pointer(unsafe.StringData(v.Str())))
			start := uintptr(unsafe.Pointer(&frame[0]))
			if within := p >= start && p < start+uintptr(len(frame)); within != inPlace {
				t.Errorf("InPlace %v: the records field is in the frame's bytes: %v", inPlace, within)
			}
			n++
			return nil
		})
		if n == 0 {
			t.Fatal("no records field")
		}
		if jsons[inPlace], err = f.AppendJSON(nil, len(frame)); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(jsons[false], jsons[true]) {
		t.Error("the JSON differs with InPlace")
	}
}

// TestTreeErrorIs: the tree keeps errors as errors. A Produce request
// whose RecordBatch's CRC-32C does not match its bytes decodes to a Flat
// whose first error node holds a case of wire.ErrCRC (its text the
// cause, without where: the row says that), and wire.NodeError of that
// node keeps the chain.
func TestTreeErrorIs(t *testing.T) {
	set := loadSet(t, "trunk")
	for _, version := range []int16{3, 9} { // an int32-sized and a compact records field
		b := produceTo(t, set, version, "orders", "", topicRecord{[]byte("k"), []byte("value-x")})
		at := bytes.LastIndex(b, []byte("value-x")) + len("value-")
		b[at] = 'y' // covered by the CRC: it no longer matches
		_, fl, _ := Decode(b, DecodeOptions{Set: set, Dir: Request})
		j, off := fl.FirstError(0)
		if j < 0 {
			t.Fatalf("v%d: no error node:\n%s", version, treetest.Text(fl))
		}
		n := fl.Node(j, nil)
		if !errors.Is(n.Err, wire.ErrCRC) || !strings.HasPrefix(n.Err.Error(), "CRC-32C mismatch: the batch says 0x") {
			t.Fatalf("v%d: first error node %s: %v is not wire.ErrCRC", version, n.Line(), n.Err)
		}
		if strings.Contains(n.Err.Error(), "offset") {
			t.Errorf("v%d: the node's error says where: %q", version, n.Err)
		}
		de := wire.NodeError(n, off)
		if !errors.Is(de, wire.ErrCRC) || errors.Is(de, wire.ErrDecompress) || de.Offset != off || !strings.Contains(de.Error(), n.Err.Error()) {
			t.Errorf("v%d: NodeError %v (offset %d, want %d) is not wire.ErrCRC", version, de, de.Offset, off)
		}
	}
}
