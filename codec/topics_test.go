//go:build !js

package codec

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"iter"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"

	"kwire/codec/records"
	"kwire/codec/wire"
	"kwire/schemas"
	"kwire/tree"
	"kwire/tree/treetest"
)

// topicRecord is a record of a Produce request's JSON form.
type topicRecord struct{ key, value []byte }

func (r topicRecord) json() string {
	part := func(name string, b []byte) string {
		if b == nil {
			return `"` + name + `": null`
		}
		return `"` + name + `Hex": "` + hex.EncodeToString(b) + `"`
	}
	return "{" + part("key", r.key) + ", " + part("value", r.value) + "}"
}

// produceTo encodes a Produce request of set at version whose one topic
// (named, or given by id from v13) holds one batch of recs.
func produceTo(t *testing.T, set *schemas.Set, version int16, topic, topicID string, recs ...topicRecord) []byte {
	t.Helper()
	var rs []string
	for _, r := range recs {
		rs = append(rs, r.json())
	}
	name := `"Name": "` + topic + `"`
	if topicID != "" {
		name = `"TopicId": "` + topicID + `"`
	}
	return frameFromJSONSet(t, set, "Produce", version, Request, `{"TransactionalId": null, "Acks": -1, "TimeoutMs": 1000, "TopicData": [{`+name+`, "PartitionData": [{"Index": 0,
		"Records": [{"records": [`+strings.Join(rs, ", ")+`]}]}]}]}`)
}

// fnode is a node of a Flat with its text, and where it is.
type fnode struct {
	*tree.Node
	f *tree.Flat
	i int
}

// kids returns n's children.
func (n fnode) kids() []fnode {
	var out []fnode
	for _, c := range treetest.Children(n.f, n.i) {
		out = append(out, fnode{n.f.Node(c, nil), n.f, c})
	}
	return out
}

// under yields the nodes of n's subtree, below n.
func (n fnode) under() iter.Seq2[int, *tree.Node] {
	return func(yield func(int, *tree.Node) bool) {
		for j, x := range treetest.Under(n.f, n.i) {
			if j != n.i && !yield(j, x) {
				return
			}
		}
	}
}

// recordParts returns the key and value nodes of each record of a tree.
func recordParts(f *tree.Flat) (keys, values []fnode) {
	for i, n := range treetest.All(f) {
		if n.Type != "Record" {
			continue
		}
		for _, c := range (fnode{n, f, i}).kids() {
			switch c.Name {
			case "key":
				keys = append(keys, c)
			case "value":
				values = append(values, c)
			}
		}
	}
	return keys, values
}

// child is the first child of n whose name is name, ignoring case (3.9's
// coordinator schemas name fields in lower case, later ones too but not
// all).
func child(n fnode, name string) *tree.Node {
	for _, c := range n.kids() {
		if strings.EqualFold(c.Name, name) {
			return c.Node
		}
	}
	return nil
}

// checkField says whether the child name of n shows want and covers, in
// b, the bytes enc.
func checkField(t *testing.T, b []byte, n fnode, name, want string, enc []byte) {
	t.Helper()
	c := child(n, name)
	if c == nil {
		t.Errorf("%s has no %s: %s", n.Name, name, childNames(n))
		return
	}
	if c.Value != want {
		t.Errorf("%s.%s = %q, want %q", n.Name, name, c.Value, want)
	}
	if c.Offset < 0 || c.End() > len(b) || string(b[c.Offset:c.End()]) != string(enc) {
		t.Errorf("%s.%s spans [%d, %d), not the bytes % x", n.Name, name, c.Offset, c.End(), enc)
	}
}

func childNames(n fnode) string {
	var s []string
	for _, c := range n.kids() {
		s = append(s, c.Name)
	}
	return strings.Join(s, ",")
}

func i16(v int16) []byte { return binary.BigEndian.AppendUint16(nil, uint16(v)) }
func i32(v int32) []byte { return binary.BigEndian.AppendUint32(nil, uint32(v)) }
func i64(v int64) []byte { return binary.BigEndian.AppendUint64(nil, uint64(v)) }
func str(s string) []byte {
	return append(i16(int16(len(s))), s...)
}

// TestConsumerOffsetsFromKmsg: records that kmsg writes as Kafka's group
// coordinator does (offset commits, group metadata, a tombstone) are
// decoded under their key and value in a Produce request to
// __consumer_offsets, with every release: the key's int16 picks the
// schema, the value's is its version, and each field's node covers its
// bytes in the frame.
func TestConsumerOffsetsFromKmsg(t *testing.T) {
	commitKey := (&kmsg.OffsetCommitKey{Version: 1, Group: "g1", Topic: "orders", Partition: 3}).AppendTo(nil)
	commitValue := (&kmsg.OffsetCommitValue{Version: 3, Offset: 42, LeaderEpoch: 5, Metadata: "meta", CommitTimestamp: 1700000000000}).AppendTo(nil)
	proto, leader := "range", "m1"
	group := kmsg.GroupMetadataValue{Version: 3, ProtocolType: "consumer", Generation: 4, Protocol: &proto, Leader: &leader, CurrentStateTimestamp: 1700000000001,
		Members: []kmsg.GroupMetadataValueMember{{MemberID: "m1", ClientID: "c", ClientHost: "/10.0.0.1", RebalanceTimeoutMillis: 30000, SessionTimeoutMillis: 10000,
			Subscription: subscription(t), Assignment: []byte{0, 1}}}}
	groupKey := (&kmsg.GroupMetadataKey{Version: 2, Group: "g1"}).AppendTo(nil)
	oldKey := (&kmsg.OffsetCommitKey{Version: 0, Group: "g0", Topic: "t", Partition: 0}).AppendTo(nil)
	for _, name := range []string{"3.9", "4.1", "trunk"} {
		t.Run(name, func(t *testing.T) {
			set := loadSet(t, name)
			b := produceTo(t, set, 9, "__consumer_offsets", "",
				topicRecord{commitKey, commitValue},
				topicRecord{groupKey, group.AppendTo(nil)},
				topicRecord{oldKey, nil})
			_, root, err := Decode(b, DecodeOptions{Set: set, Dir: Request})
			if err != nil {
				t.Fatal(err)
			}
			if e := treeErrors(root); e != nil {
				t.Fatal(e)
			}
			keys, values := recordParts(root)
			if len(keys) != 3 {
				t.Fatalf("%d records", len(keys))
			}
			checkField(t, b, keys[0], "type", "1 (OffsetCommitKey)", i16(1))
			checkField(t, b, keys[0], "group", `"g1"`, str("g1"))
			checkField(t, b, keys[0], "topic", `"orders"`, str("orders"))
			checkField(t, b, keys[0], "partition", "3", i32(3))
			checkField(t, b, values[0], "version", "3", i16(3))
			checkField(t, b, values[0], "offset", "42", i64(42))
			checkField(t, b, values[0], "leaderEpoch", "5", i32(5))
			checkField(t, b, values[0], "metadata", `"meta"`, str("meta"))
			checkField(t, b, keys[1], "type", "2 (GroupMetadataKey)", i16(2))
			checkField(t, b, values[1], "generation", "4", i32(4))
			checkField(t, b, values[1], "leader", `"m1"`, str("m1"))
			if m := child(values[1], "members"); m == nil || !strings.Contains(m.Value, "1") {
				t.Errorf("members: %+v", m)
			}
			// Type 0, the offset commit key of old brokers (its v0).
			want := "0 (OffsetCommitKey)"
			if name != "3.9" {
				want = "0 (LegacyOffsetCommitKey)"
			}
			checkField(t, b, keys[2], "type", want, i16(0))
			if !strings.Contains(values[2].Detail, "tombstone") || len(values[2].kids()) != 0 {
				t.Errorf("a null value: %+v", values[2])
			}
		})
	}
}

// TestTransactionStateFromKmsg: __transaction_state records written by
// kmsg (TxnMetadataKey/Value, the flexible v1 with tagged fields too).
func TestTransactionStateFromKmsg(t *testing.T) {
	key := (&kmsg.TxnMetadataKey{Version: 0, TransactionalID: "tx-1"}).AppendTo(nil)
	for _, version := range []int16{0, 1} {
		v := kmsg.TxnMetadataValue{Version: version, ProducerID: 7, ProducerEpoch: 2, TimeoutMillis: 60000, State: 1,
			Topics:              []kmsg.TxnMetadataValueTopic{{Topic: "orders", Partitions: []int32{0, 1}}},
			LastUpdateTimestamp: 1700000000002, StartTimestamp: 1700000000000, PreviousProducerID: -1, NextProducerID: -1, NextProducerEpoch: -1}
		for _, name := range []string{"3.9", "4.1", "trunk"} {
			set := loadSet(t, name)
			b := produceTo(t, set, 9, "__transaction_state", "", topicRecord{key, v.AppendTo(nil)})
			_, root, err := Decode(b, DecodeOptions{Set: set, Dir: Request})
			if err != nil {
				t.Fatal(err)
			}
			if e := treeErrors(root); e != nil {
				t.Fatalf("%s v%d: %v", name, version, e)
			}
			keys, values := recordParts(root)
			checkField(t, b, keys[0], "type", "0 (TransactionLogKey)", i16(0))
			checkField(t, b, keys[0], "TransactionalId", `"tx-1"`, str("tx-1"))
			checkField(t, b, values[0], "version", strconv.Itoa(int(version)), i16(version))
			checkField(t, b, values[0], "ProducerId", "7", i64(7))
			checkField(t, b, values[0], "TransactionTimeoutMs", "60000", i32(60000))
			checkField(t, b, values[0], "TransactionStartTimestampMs", "1700000000000", i64(1700000000000))
		}
	}
}

// setField sets the field of struct value v (plan sp) named name,
// ignoring case.
func setField(t *testing.T, sp *StructPlan, v Value, name string, x Value) {
	t.Helper()
	for _, fp := range sp.Fields {
		if strings.EqualFold(fp.Field.Name, name) {
			v.List()[fp.Index] = x
			return
		}
	}
	t.Fatalf("%s has no field %s", sp.Name, name)
}

// versioned encodes v with p after p's version as an int16.
func versionedBytes(t *testing.T, p *Plan, prefix int16, v Value) []byte {
	t.Helper()
	b, err := p.Append(i16(prefix), v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestCoordinatorToKmsg: keys and values that codec builds from the
// coordinator schemas are read by kmsg as the same records, and decoded
// from a Produce request by kwire to the values set.
func TestCoordinatorToKmsg(t *testing.T) {
	for _, name := range []string{"3.9", "4.1", "trunk"} {
		set := loadSet(t, name)
		keyVersion := int16(0) // the layout of the key schema with apiKey 1
		if name == "3.9" {
			keyVersion = 1
		}
		kp := mustPlan(t, set, "OffsetCommitKey", keyVersion)
		kv := kp.Smallest()
		setField(t, kp.Root, kv, "group", String("grp"))
		setField(t, kp.Root, kv, "topic", String("payments"))
		setField(t, kp.Root, kv, "partition", Int(11))
		keyBytes := versionedBytes(t, kp, 1, kv)
		var k kmsg.OffsetCommitKey
		if err := k.ReadFrom(keyBytes); err != nil || k.Version != 1 || k.Group != "grp" || k.Topic != "payments" || k.Partition != 11 {
			t.Fatalf("%s: kmsg reads the key as %+v, %v", name, k, err)
		}
		vp := mustPlan(t, set, "OffsetCommitValue", 3)
		vv := vp.Smallest()
		setField(t, vp.Root, vv, "offset", Int(99))
		setField(t, vp.Root, vv, "leaderEpoch", Int(8))
		setField(t, vp.Root, vv, "metadata", String("m"))
		setField(t, vp.Root, vv, "commitTimestamp", Int(1700000000003))
		valueBytes := versionedBytes(t, vp, 3, vv)
		var v kmsg.OffsetCommitValue
		if err := v.ReadFrom(valueBytes); err != nil || v.Offset != 99 || v.LeaderEpoch != 8 || v.Metadata != "m" || v.CommitTimestamp != 1700000000003 {
			t.Fatalf("%s: kmsg reads the value as %+v, %v", name, v, err)
		}
		tp := mustPlan(t, set, "TransactionLogValue", 1)
		tv := tp.Smallest()
		setField(t, tp.Root, tv, "ProducerId", Int(5))
		setField(t, tp.Root, tv, "TransactionStatus", Int(2))
		txBytes := versionedBytes(t, tp, 1, tv)
		var tx kmsg.TxnMetadataValue
		if err := tx.ReadFrom(txBytes); err != nil || tx.ProducerID != 5 || tx.State != 2 {
			t.Fatalf("%s: kmsg reads the transaction as %+v, %v", name, tx, err)
		}
		b := produceTo(t, set, 9, "__consumer_offsets", "", topicRecord{keyBytes, valueBytes})
		_, root, err := Decode(b, DecodeOptions{Set: set, Dir: Request})
		if err != nil {
			t.Fatal(err)
		}
		keys, values := recordParts(root)
		checkField(t, b, keys[0], "topic", `"payments"`, str("payments"))
		checkField(t, b, values[0], "offset", "99", i64(99))
	}
}

// internalPart decodes key and value as records of format f with set,
// straight through the records package: the tree of the one record.
func internalPart(set *schemas.Set, f TopicFormat, key, value []byte) (*tree.Flat, []byte) {
	b := records.Batch{Magic: 2, ProducerID: -1, ProducerEpoch: -1, BaseSequence: -1, Records: []records.Record{{Key: key, Value: value}}}
	b.Fill()
	enc, err := records.Encode([]records.Batch{b})
	if err != nil {
		panic(err)
	}
	return recordTree(enc, 0, records.Options{Record: RecordDecoder(set, f), Control: ControlDecoder(set)}), enc
}

// TestInternalSchemasRandom: every coordinator key and value schema of
// every release, and every metadata record schema, at every version, with
// random values: decoded under the record's key and value with no error,
// each field under the bytes it came from.
func TestInternalSchemasRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, name := range []string{"3.9", "4.0", "4.1", "4.2", "4.3", "trunk"} {
		set := loadSet(t, name)
		checked := 0
		for _, f := range []TopicFormat{TopicConsumerOffsets, TopicTransactionState, TopicShareGroupState} {
			for typ, l := range coordinatorKeys(set, f) {
				kp, err := PlanFor(l.key, l.version)
				if err != nil {
					t.Fatal(err)
				}
				key := versionedBytes(t, kp, typ, Random(kp, r))
				for v := l.value.ValidVersions.Lo; v <= l.value.ValidVersions.Hi; v++ {
					vp, err := PlanFor(l.value, v)
					if err != nil {
						t.Fatal(err)
					}
					value := versionedBytes(t, vp, v, Random(vp, r))
					root, enc := internalPart(set, f, key, value)
					what := fmt.Sprintf("%s %s v%d", name, l.value.Name, v)
					checkInternal(t, what, root, enc, l.key.Name, l.value.Name)
					checkPartJSON(t, what, set, f, key, value, true)
					checked++
				}
			}
		}
		for key, m := range metadataRecords(set) {
			for v := m.ValidVersions.Lo; v <= m.ValidVersions.Hi; v++ {
				p, err := PlanFor(m, v)
				if err != nil {
					t.Fatal(err)
				}
				value, err := p.Append(metadataFrame(key, v), Random(p, r))
				if err != nil {
					t.Fatal(err)
				}
				root, enc := internalPart(set, TopicClusterMetadata, nil, value)
				what := fmt.Sprintf("%s %s v%d", name, m.Name, v)
				checkInternal(t, what, root, enc, "", m.Name)
				checkPartJSON(t, what, set, TopicClusterMetadata, nil, value, false)
				checked++
			}
		}
		if checked < 40 {
			t.Errorf("%s: only %d schemas and versions", name, checked)
		}
	}
}

// checkPartJSON: the JSON objects of a record's key (when withKey) and
// value encode back to them.
func checkPartJSON(t *testing.T, what string, set *schemas.Set, f TopicFormat, key, value []byte, withKey bool) {
	t.Helper()
	rj := recordJSON(set, f)
	kj, vj := rj.Write(key, value)
	for i, c := range []struct {
		j, want []byte
	}{{kj, key}, {vj, value}} {
		if c.want == nil || i == 0 && !withKey {
			continue
		}
		if c.j == nil {
			t.Errorf("%s: % x has no JSON object", what, c.want)
			continue
		}
		raw, err := parseJSON(c.j)
		if err != nil {
			t.Fatalf("%s: %s: %v", what, c.j, err)
		}
		back, err := rj.Read(raw.(map[string]any), "")
		if err != nil || string(back) != string(c.want) {
			t.Errorf("%s: %s reads back as % x (%v), not % x", what, c.j, back, err, c.want)
		}
	}
}

// metadataFrame is the frame of a metadata record: frame version 1, API
// key and version as unsigned varints.
func metadataFrame(key, version int16) []byte {
	b := wire.AppendUvarint(nil, 1)
	b = wire.AppendUvarint(b, uint64(key))
	return wire.AppendUvarint(b, uint64(version))
}

func checkInternal(t *testing.T, what string, root *tree.Flat, enc []byte, keyName, valueName string) {
	t.Helper()
	if e := treeErrors(root); e != nil {
		t.Errorf("%s: %v", what, e)
		return
	}
	keys, values := recordParts(root)
	if keyName != "" && !strings.Contains(keys[0].Value, keyName) {
		t.Errorf("%s: key %q", what, keys[0].Value)
	}
	if !strings.Contains(values[0].Value, valueName) || len(values[0].kids()) == 0 {
		t.Errorf("%s: value %q, %d children", what, values[0].Value, len(values[0].kids()))
	}
	for _, part := range []fnode{keys[0], values[0]} {
		for _, n := range part.under() {
			if n.Offset < part.Offset || n.End() > part.End() {
				t.Errorf("%s: %s [%d, %d) outside its %s [%d, %d)", what, n.Name, n.Offset, n.End(), part.Name, part.Offset, part.End())
			}
		}
	}
}

// TestClusterMetadataRecord: a TopicRecord built from its schema, in a
// __cluster_metadata Produce request: the frame's three varints, then
// the record's fields over their bytes.
func TestClusterMetadataRecord(t *testing.T) {
	set := loadSet(t, "trunk")
	m := set.Message("TopicRecord")
	p := mustPlan(t, set, "TopicRecord", m.ValidVersions.Hi)
	v := p.Smallest()
	setField(t, p.Root, v, "Name", String("orders"))
	id := "0123456789abcdef"
	setField(t, p.Root, v, "TopicId", String(id))
	value, err := p.Append(metadataFrame(int16(m.APIKey), m.ValidVersions.Hi), v)
	if err != nil {
		t.Fatal(err)
	}
	b := produceTo(t, set, 9, "__cluster_metadata", "", topicRecord{nil, value})
	_, root, err := Decode(b, DecodeOptions{Set: set, Dir: Request})
	if err != nil {
		t.Fatal(err)
	}
	if e := treeErrors(root); e != nil {
		t.Fatal(e)
	}
	_, values := recordParts(root)
	checkField(t, b, values[0], "frameVersion", "1", []byte{1})
	checkField(t, b, values[0], "apiKey", strconv.Itoa(m.APIKey)+" (TopicRecord)", wire.AppendUvarint(nil, uint64(m.APIKey)))
	checkField(t, b, values[0], "Name", `"orders"`, []byte("\x07orders"))
	if c := child(values[0], "TopicId"); c == nil || string(b[c.Offset:c.End()]) != id {
		t.Errorf("TopicId %+v", c)
	}
}

// TestInternalTopicKnown: records are read by their topic's format only
// when the topic is known: by name, by id through TopicNames (filled
// from a Metadata response), or by the user's choice; an ordinary
// topic's records stay bytes even when they would decode, and the
// choice "plain" keeps an internal topic's as bytes.
func TestInternalTopicKnown(t *testing.T) {
	set := loadSet(t, "trunk")
	if !set.Message("ProduceRequest").ValidVersions.Contains(13) {
		t.Skip("no Produce v13")
	}
	key := (&kmsg.TxnMetadataKey{Version: 0, TransactionalID: "tx"}).AppendTo(nil)
	value := (&kmsg.TxnMetadataValue{Version: 1, ProducerID: 3}).AppendTo(nil)
	rec := topicRecord{key, value}
	decoded := func(b []byte, o DecodeOptions) bool {
		t.Helper()
		o.Set, o.Dir = set, Request
		_, root, err := Decode(b, o)
		if err != nil {
			t.Fatal(err)
		}
		keys, _ := recordParts(root)
		return child(keys[0], "TransactionalId") != nil
	}
	if !decoded(produceTo(t, set, 12, "__transaction_state", "", rec), DecodeOptions{}) {
		t.Error("not decoded by name")
	}
	if decoded(produceTo(t, set, 12, "orders", "", rec), DecodeOptions{}) {
		t.Error("an ordinary topic's records decoded")
	}
	if !decoded(produceTo(t, set, 12, "orders", "", rec), DecodeOptions{TopicFormat: TopicTransactionState}) {
		t.Error("not decoded by choice")
	}
	if decoded(produceTo(t, set, 12, "__transaction_state", "", rec), DecodeOptions{TopicFormat: TopicPlain}) {
		t.Error("decoded with the choice plain")
	}
	const uuid = "AAAAAAAAAAAAAAAAAAAAAQ" // 00..01, base64 as the JSON form writes it
	byID := produceTo(t, set, 13, "", uuid, rec)
	// An id no response named: the key and value decode exactly as a
	// transaction's (and as no other coordinator's), so they are read as
	// one, with a note; an ordinary record's are not.
	if !decoded(byID, DecodeOptions{}) {
		t.Error("not guessed by an id no response named")
	}
	_, root, _ := Decode(byID, DecodeOptions{Set: set, Dir: Request})
	if keys, _ := recordParts(root); !strings.Contains(keys[0].Detail, "read as a __transaction_state record") {
		t.Errorf("no note: %q", keys[0].Detail)
	}
	for _, r := range []topicRecord{{[]byte("user-1"), []byte("hello")}, {nil, value}, {key, []byte("plain")}, {append(key, 0), value}} {
		_, root, err := Decode(produceTo(t, set, 13, "", uuid, r), DecodeOptions{Set: set, Dir: Request})
		if keys, _ := recordParts(root); err != nil || len(keys[0].kids()) != 0 || strings.Contains(keys[0].Detail, "read as") {
			t.Errorf("% x / % x guessed: %v %s", r.key, r.value, err, keys[0].Detail)
		}
	}
	// A Metadata response names the topic with its id.
	mapi, _ := set.LookupAPI("Metadata")
	mf, err := NewFrame(set, mapi, 12, Response)
	if err != nil {
		t.Fatal(err)
	}
	if err := mf.SetJSON([]byte(`{"Topics": [{"ErrorCode": 0, "Name": "__transaction_state", "TopicId": "` + uuid + `", "Partitions": []}]}`)); err != nil {
		t.Fatal(err)
	}
	names := NewTopicNames()
	_, bp, _ := mf.Plans()
	if n := names.Add(bp, mf.Body); n != 1 {
		t.Fatalf("%d names added", n)
	}
	if !decoded(byID, DecodeOptions{TopicNames: names}) {
		t.Error("not decoded by id")
	}
	// A topic named by id as an ordinary one is not guessed.
	other := NewTopicNames()
	if err := mf.SetJSON([]byte(`{"Topics": [{"ErrorCode": 0, "Name": "orders", "TopicId": "` + uuid + `", "Partitions": []}]}`)); err != nil {
		t.Fatal(err)
	}
	other.Add(bp, mf.Body)
	if decoded(byID, DecodeOptions{TopicNames: other}) {
		t.Error("an id named as an ordinary topic decoded")
	}
}

// TestInternalMalformed: damaged keys and values are error nodes inside
// the key or value; the records after them are decoded, and the frame
// decodes without error.
func TestInternalMalformed(t *testing.T) {
	set := loadSet(t, "trunk")
	good := topicRecord{(&kmsg.OffsetCommitKey{Version: 1, Group: "g", Topic: "t"}).AppendTo(nil), (&kmsg.OffsetCommitValue{Version: 1, Offset: 4}).AppendTo(nil)}
	cases := []struct {
		name   string
		rec    topicRecord
		in     string // "key" or "value"
		errHas string
	}{
		{"unknown type", topicRecord{append(i16(999), str("g")...), good.value}, "key", "record type 999"},
		{"short key", topicRecord{[]byte{0}, good.value}, "key", "does not fit"},
		{"truncated key", topicRecord{good.key[:len(good.key)-2], good.value}, "key", "int32 needs 4 bytes, 2 left"},
		{"trailing key", topicRecord{append(append([]byte(nil), good.key...), 7), good.value}, "key", "after the OffsetCommitKey"},
		{"unknown value version", topicRecord{good.key, append(i16(77), good.value[2:]...)}, "value", "no version 77"},
		{"truncated value", topicRecord{good.key, good.value[:5]}, "value", "int64 needs 8 bytes, 3 left"},
		{"no key", topicRecord{nil, good.value}, "key", "has a key"},
	}
	for _, c := range cases {
		b := produceTo(t, set, 9, "__consumer_offsets", "", c.rec, good)
		_, root, err := Decode(b, DecodeOptions{Set: set, Dir: Request})
		if err != nil {
			t.Fatalf("%s: the frame fails: %v", c.name, err)
		}
		keys, values := recordParts(root)
		if len(keys) != 2 {
			t.Fatalf("%s: %d records", c.name, len(keys))
		}
		part := keys[0]
		if c.in == "value" {
			part = values[0]
		}
		if e := firstErr(part); !strings.Contains(e, c.errHas) {
			t.Errorf("%s: %s error %q, want %q", c.name, c.in, e, c.errHas)
		}
		if e := firstErr(keys[1]) + firstErr(values[1]); e != "" || child(values[1], "offset") == nil {
			t.Errorf("%s: the next record: %v", c.name, e)
		}
	}
	// __cluster_metadata: a frame version other than 1, an unknown API
	// key, a version the schema lacks, a cut varint.
	for _, c := range []struct {
		value  []byte
		errHas string
	}{
		{[]byte{0, 2, 0}, "frame version 0"},
		{[]byte{1, 0x7f, 0}, "API key 127"},
		{[]byte{1, 2, 99}, "no version 99"},
		{[]byte{1, 0x80}, "varint"},
	} {
		root, _ := internalPart(set, TopicClusterMetadata, nil, c.value)
		_, values := recordParts(root)
		if e := firstErr(values[0]); !strings.Contains(e, c.errHas) {
			t.Errorf("% x: %q, want %q", c.value, e, c.errHas)
		}
	}
}

// firstErr is the message of the first error node under n (n's own
// aside: a nested part's errors are nodes inside it).
func firstErr(n fnode) string {
	for _, c := range n.kids() {
		if e, _ := n.f.FirstError(c.i); e >= 0 {
			return treetest.ErrText(n.f.Node(e, nil))
		}
	}
	return ""
}

// FuzzInternalRecords: any key and value read as each internal topic's
// records, with the oldest and newest releases: no panic, nodes within
// their key or value.
func FuzzInternalRecords(f *testing.F) {
	f.Add((&kmsg.OffsetCommitKey{Version: 1, Group: "g", Topic: "t"}).AppendTo(nil), (&kmsg.OffsetCommitValue{Version: 3, Offset: 4}).AppendTo(nil))
	f.Add((&kmsg.GroupMetadataKey{Version: 2, Group: "g"}).AppendTo(nil), (&kmsg.GroupMetadataValue{Version: 4, Members: []kmsg.GroupMetadataValueMember{{MemberID: "m"}}}).AppendTo(nil))
	f.Add((&kmsg.TxnMetadataKey{Version: 0, TransactionalID: "x"}).AppendTo(nil), (&kmsg.TxnMetadataValue{Version: 1, Topics: []kmsg.TxnMetadataValueTopic{{Topic: "t"}}}).AppendTo(nil))
	f.Add([]byte(nil), []byte{1, 2, 0, 6, 'o', 'r', 'd', 'e', 'r', 's', 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0})
	f.Add([]byte{0, 0}, []byte(nil))
	sets := []*schemas.Set{loadSet(f, "3.9"), loadSet(f, "trunk")}
	f.Fuzz(func(t *testing.T, key, value []byte) {
		for _, set := range sets {
			for _, tf := range []TopicFormat{TopicConsumerOffsets, TopicTransactionState, TopicShareGroupState, TopicClusterMetadata, topicUnnamed} {
				root, enc := internalPart(set, tf, key, value)
				keys, values := recordParts(root)
				if len(keys) != 1 || len(values) != 1 {
					t.Fatalf("%d keys, %d values", len(keys), len(values))
				}
				for _, part := range []fnode{keys[0], values[0]} {
					for _, n := range part.under() {
						if n.Offset < part.Offset || n.End() > part.End() || n.End() > len(enc) {
							t.Fatalf("%s %s: %s [%d, %d) outside [%d, %d)", set.Name, tf, n.Name, n.Offset, n.End(), part.Offset, part.End())
						}
					}
				}
			}
		}
	})
}

// TestInternalJSON: the JSON form of a Produce request to
// __consumer_offsets writes the keys and values as objects that name
// their schema, encodes back to the same bytes, and an edit of a field
// inside a value re-encodes the value, then the record's length, the
// batch's length and its CRC: kmsg reads the new value, the tree has no
// error.
func TestInternalJSON(t *testing.T) {
	set := loadSet(t, "trunk")
	key := (&kmsg.OffsetCommitKey{Version: 1, Group: "g1", Topic: "orders", Partition: 3}).AppendTo(nil)
	value := (&kmsg.OffsetCommitValue{Version: 3, Offset: 42, LeaderEpoch: 5, Metadata: "meta", CommitTimestamp: 1700000000000}).AppendTo(nil)
	b := produceTo(t, set, 9, "__consumer_offsets", "", topicRecord{key, value}, topicRecord{(&kmsg.GroupMetadataKey{Version: 2, Group: "g1"}).AppendTo(nil), nil})
	f, _, err := Decode(b, DecodeOptions{Set: set, Dir: Request})
	if err != nil {
		t.Fatal(err)
	}
	j, err := f.JSON(len(b))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"type": 1`, `"OffsetCommitKey": {`, `"topic": "orders"`, `"version": 3`, `"OffsetCommitValue": {`, `"offset": 42`, `"GroupMetadataKey": {`, `"value": null`} {
		if !strings.Contains(string(j), want) {
			t.Errorf("JSON lacks %s:\n%s", want, j)
		}
	}
	g, _, _ := Decode(b, DecodeOptions{Set: set, Dir: Request})
	if err := g.SetJSON(j); err != nil {
		t.Fatal(err)
	}
	back, err := g.Encode()
	if err != nil || string(back) != string(b) {
		t.Fatalf("the JSON form encodes to\n% x\nnot\n% x (%v)", back, b, err)
	}
	edited := strings.Replace(string(j), `"offset": 42`, `"offset": 4200000000000`, 1)
	edited = strings.Replace(edited, `"metadata": "meta"`, `"metadata": "a longer metadata string"`, 1)
	if err := g.SetJSON([]byte(edited)); err != nil {
		t.Fatal(err)
	}
	nb, err := g.Encode()
	if err != nil {
		t.Fatal(err)
	}
	_, root, err := Decode(nb, DecodeOptions{Set: set, Dir: Request})
	if err != nil {
		t.Fatal(err)
	}
	if e := treeErrors(root); e != nil {
		t.Fatal(e)
	}
	_, values := recordParts(root)
	var v kmsg.OffsetCommitValue
	vb := nb[child(values[0], "version").Offset:values[0].End()] // the value's bytes, from its version on
	if err := v.ReadFrom(vb); err != nil || v.Offset != 4200000000000 || v.Metadata != "a longer metadata string" || v.LeaderEpoch != 5 {
		t.Errorf("kmsg reads the edited value as %+v, %v", v, err)
	}
	// The object form is read without the topic's name (it names its
	// schema), and a wrong one is an error at its path.
	bad := strings.Replace(string(j), `"OffsetCommitValue": {`, `"NoSuchValue": {`, 1)
	if err := g.SetJSON([]byte(bad)); err == nil || !strings.Contains(err.Error(), "records[0].value") || !strings.Contains(err.Error(), "NoSuchValue") {
		t.Errorf("a wrong schema: %v", err)
	}
}

// TestFetchSnapshotMetadata: a KRaft snapshot in a FetchSnapshot
// response of __cluster_metadata: its control batch's SnapshotHeader
// record is read as every control record is, and the metadata records
// of the batch after it by their frame's API key and version.
func TestFetchSnapshotMetadata(t *testing.T) {
	set := loadSet(t, "trunk")
	hp := mustPlan(t, set, "SnapshotHeaderRecord", 0)
	hv := hp.Smallest()
	setField(t, hp.Root, hv, "LastContainedLogTimestamp", Int(1700000000000))
	header, err := hp.Encode(hv)
	if err != nil {
		t.Fatal(err)
	}
	control := controlField(t, []byte{0, 0, 0, 3}, header)
	m := set.Message("TopicRecord")
	tp := mustPlan(t, set, "TopicRecord", m.ValidVersions.Hi)
	tv := tp.Smallest()
	setField(t, tp.Root, tv, "Name", String("orders"))
	topic, err := tp.Append(metadataFrame(int16(m.APIKey), m.ValidVersions.Hi), tv)
	if err != nil {
		t.Fatal(err)
	}
	batch := records.Batch{Magic: 2, ProducerID: -1, ProducerEpoch: -1, BaseSequence: -1, BaseOffset: 1, Records: []records.Record{{Value: topic}}}
	batch.Fill()
	data, err := records.Encode([]records.Batch{batch})
	if err != nil {
		t.Fatal(err)
	}
	unaligned := hex.EncodeToString(append(control, data...))
	b := frameFromJSON(t, "FetchSnapshot", 0, Response, `{"ThrottleTimeMs": 0, "ErrorCode": 0, "Topics": [{"Name": "__cluster_metadata", "Partitions": [{"Index": 0, "ErrorCode": 0,
		"SnapshotId": {"EndOffset": 2, "Epoch": 1}, "CurrentLeader": {"LeaderId": 1, "LeaderEpoch": 1}, "Size": 100, "Position": 0, "UnalignedRecords": "`+unaligned+`"}]}]}`)
	trunk := loadSet(t, "trunk")
	_, root, err := Decode(b, DecodeOptions{Set: trunk, API: trunk.APIByKey(59), Version: 0, Dir: Response})
	if err != nil {
		t.Fatal(err)
	}
	if e := treeErrors(root); e != nil {
		t.Fatal(e)
	}
	keys, values := recordParts(root)
	if len(values) != 2 || !strings.Contains(keys[0].Value, "SNAPSHOT_HEADER") {
		t.Fatalf("%d records; key %q", len(values), keys[0].Value)
	}
	checkField(t, b, values[0], "LastContainedLogTimestamp", "1700000000000", i64(1700000000000))
	checkField(t, b, values[1], "apiKey", strconv.Itoa(m.APIKey)+" (TopicRecord)", wire.AppendUvarint(nil, uint64(m.APIKey)))
	checkField(t, b, values[1], "Name", `"orders"`, []byte("\x07orders"))
}

// BenchmarkInternalRecords decodes, with its tree, a Produce request of
// 1,000 offset commits: to __consumer_offsets (keys and values decoded)
// and to an ordinary topic (bytes), so that the ratio of the two is what
// reading the coordinator's records costs.
func BenchmarkInternalRecords(b *testing.B) {
	set := loadSet(b, "trunk")
	var recs []records.Record
	for i := range 1000 {
		key := (&kmsg.OffsetCommitKey{Version: 1, Group: "group-" + strconv.Itoa(i%7), Topic: "orders", Partition: int32(i % 12)}).AppendTo(nil)
		value := (&kmsg.OffsetCommitValue{Version: 3, Offset: int64(i), LeaderEpoch: 5, CommitTimestamp: 1700000000000}).AppendTo(nil)
		recs = append(recs, records.Record{Key: key, Value: value})
	}
	batch := records.Batch{Magic: 2, ProducerID: -1, ProducerEpoch: -1, BaseSequence: -1, Records: recs}
	batch.Fill()
	data, err := records.Encode([]records.Batch{batch})
	if err != nil {
		b.Fatal(err)
	}
	api, _ := set.LookupAPI("Produce")
	for _, topic := range []string{"__consumer_offsets", "orders"} {
		f, err := NewFrame(set, api, 9, Request)
		if err != nil {
			b.Fatal(err)
		}
		body := `{"TransactionalId": null, "Acks": -1, "TimeoutMs": 1000, "TopicData": [{"Name": "` + topic + `", "PartitionData": [{"Index": 0, "Records": "` + hex.EncodeToString(data) + `"}]}]}`
		if err := f.SetJSON([]byte(body)); err != nil {
			b.Fatal(err)
		}
		frame, err := f.Encode()
		if err != nil {
			b.Fatal(err)
		}
		b.Run(topic, func(b *testing.B) {
			measure(b, len(frame), func() {
				if _, _, err := Decode(frame, DecodeOptions{Set: set, Dir: Request}); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// TestInternalLegacyMessage: an offset commit in a legacy message (magic
// 1, as brokers before 0.11 wrote __consumer_offsets) is decoded under
// its key and value too, offsets in the stream.
func TestInternalLegacyMessage(t *testing.T) {
	set := loadSet(t, "trunk")
	key := (&kmsg.OffsetCommitKey{Version: 1, Group: "g", Topic: "orders", Partition: 1}).AppendTo(nil)
	value := (&kmsg.OffsetCommitValue{Version: 1, Offset: 9, Metadata: "", CommitTimestamp: 1, ExpireTimestamp: 2}).AppendTo(nil)
	body := append([]byte{1, 0}, i64(1700000000000)...)
	body = append(append(body, i32(int32(len(key)))...), key...)
	body = append(append(body, i32(int32(len(value)))...), value...)
	msg := append(append(i64(0), i32(int32(4+len(body)))...), i32(int32(crc32.ChecksumIEEE(body)))...)
	msg = append(msg, body...)
	root := recordTree(msg, 100, records.Options{Record: RecordDecoder(set, TopicConsumerOffsets)})
	if e := treeErrors(root); e != nil {
		t.Fatal(e)
	}
	var k, v fnode
	for i, n := range treetest.All(root) {
		switch n.Name {
		case "key":
			k = fnode{n, root, i}
		case "value":
			v = fnode{n, root, i}
		}
	}
	shifted := append(make([]byte, 100), msg...) // offsets count from 100
	checkField(t, shifted, k, "topic", `"orders"`, str("orders"))
	checkField(t, shifted, v, "offset", "9", i64(9))
	checkField(t, shifted, v, "expireTimestamp", "2", i64(2))
}

// TestInternalBudget: the nodes under internal records' keys and values
// are charged to the message's budget: past it, the tree says what it
// left out rather than growing.
func TestInternalBudget(t *testing.T) {
	set := loadSet(t, "trunk")
	var recs []topicRecord
	for i := range 200 {
		recs = append(recs, topicRecord{(&kmsg.OffsetCommitKey{Version: 1, Group: "g", Topic: "t", Partition: int32(i)}).AppendTo(nil),
			(&kmsg.OffsetCommitValue{Version: 3, Offset: int64(i)}).AppendTo(nil)})
	}
	b := produceTo(t, set, 9, "__consumer_offsets", "", recs...)
	count := func(limit int) (nodes int, leftOut bool) {
		_, root, err := Decode(b, DecodeOptions{Set: set, Dir: Request, Limits: records.Limits{MaxNodes: limit}})
		if err != nil && limit == 0 {
			t.Fatal(err)
		}
		for _, n := range treetest.All(root) {
			nodes++
			leftOut = leftOut || n.Name == "more"
		}
		return nodes, leftOut
	}
	all, cut := count(0)
	if cut {
		t.Fatal("the default budget left records out")
	}
	some, cut := count(all / 2)
	if !cut || some > all/2+64 {
		t.Errorf("with a budget of %d nodes (the whole tree has %d): %d nodes, left out: %v", all/2, all, some, cut)
	}
}

// TestInternalCompressed: the records of a compressed batch of
// __consumer_offsets are decoded too, their nodes' offsets counting from
// the start of the decompressed records (Relative) as the records' own do.
func TestInternalCompressed(t *testing.T) {
	set := loadSet(t, "trunk")
	key := (&kmsg.OffsetCommitKey{Version: 1, Group: "g", Topic: "orders", Partition: 4}).AppendTo(nil)
	value := (&kmsg.OffsetCommitValue{Version: 3, Offset: 12}).AppendTo(nil)
	b := records.Batch{Magic: 2, Attributes: int16(records.Gzip), ProducerID: -1, ProducerEpoch: -1, BaseSequence: -1, Records: []records.Record{{Key: key, Value: value}}}
	b.Fill()
	enc, err := records.Encode([]records.Batch{b})
	if err != nil {
		t.Fatal(err)
	}
	root := recordTree(enc, 0, records.Options{Record: RecordDecoder(set, TopicConsumerOffsets)})
	if e := treeErrors(root); e != nil {
		t.Fatal(e)
	}
	keys, values := recordParts(root)
	if len(keys) != 1 || !keys[0].Relative {
		t.Fatalf("%d keys", len(keys))
	}
	for _, n := range []*tree.Node{child(keys[0], "topic"), child(values[0], "offset")} {
		if n == nil || !n.Relative {
			t.Fatalf("a node inside a compressed batch: %+v", n)
		}
	}
	if v := child(values[0], "offset").Value; v != "12" {
		t.Errorf("offset %s", v)
	}
}
