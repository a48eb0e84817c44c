//go:build !js

package codec

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"kwire/codec/records"
	"kwire/codec/wire"
	"kwire/schemas"
	"kwire/tree"
)

// recordDecoder is RecordDecoder of an internal topic's format.
func recordDecoder(set *schemas.Set, f TopicFormat) records.RecordFunc {
	switch f {
	case TopicConsumerOffsets, TopicTransactionState, TopicShareGroupState:
		keys := coordinatorKeys(set, f)
		return func(key, value records.Part) []*tree.Node {
			return coordinatorRecord(set, f, keys, key, value)
		}
	case TopicClusterMetadata:
		recs := metadataRecords(set)
		return func(key, value records.Part) []*tree.Node {
			return metadataRecord(set, recs, value)
		}
	}
	return nil
}

// keyLayout is a coordinator key schema and the version its fields are
// read at.
type keyLayout struct {
	key, value *schemas.Message
	version    int16
}

type formatKey struct {
	set *schemas.Set
	f   TopicFormat
}

var keyTables sync.Map // formatKey -> map[int16]keyLayout

// coordinatorKeys returns the key layouts of format f in set by record
// type: the apiKey of each coordinator-key schema, or (3.9 and older,
// whose coordinator schemas are of type "data" without one) each of its
// versions.
func coordinatorKeys(set *schemas.Set, f TopicFormat) map[int16]keyLayout {
	if t, ok := keyTables.Load(formatKey{set, f}); ok {
		return t.(map[int16]keyLayout)
	}
	t := map[int16]keyLayout{}
	for _, m := range set.Messages {
		base, isKey := strings.CutSuffix(m.Name, "Key")
		if !isKey || !(m.Type == "coordinator-key" || m.Type == "data" && strings.HasPrefix(m.File, "coordinator/")) {
			continue
		}
		if coordinatorFormat(base) != f {
			continue
		}
		l := keyLayout{key: m, value: set.Message(base + "Value")}
		if m.APIKey >= 0 {
			l.version = m.ValidVersions.Hi
			t[int16(m.APIKey)] = l
			continue
		}
		for v := m.ValidVersions.Lo; v <= m.ValidVersions.Hi && v >= 0; v++ {
			l.version = v
			t[v] = l
		}
	}
	actual, _ := keyTables.LoadOrStore(formatKey{set, f}, t)
	return actual.(map[int16]keyLayout)
}

// coordinatorFormat is the topic whose coordinator writes the records of
// the schema pair named base (without Key or Value).
func coordinatorFormat(base string) TopicFormat {
	switch {
	case base == "TransactionLog":
		return TopicTransactionState
	case base == "ShareSnapshot" || base == "ShareUpdate":
		return TopicShareGroupState
	}
	return TopicConsumerOffsets
}

// coordinatorRecord decodes a coordinator record's key and value.
func coordinatorRecord(set *schemas.Set, f TopicFormat, keys map[int16]keyLayout, key, value records.Part) []*tree.Node {
	var made []*tree.Node
	if key.Null {
		return append(made, partError(key, 0, "key", "a "+topicFormats[f].topic+" record has a key"))
	}
	typ, n := wire.ConsumeInt16(key.Data)
	if n < 0 {
		e := partError(key, 0, "type", "a record type (int16) does not fit in "+plural(len(key.Data), "byte"))
		return append(made, e)
	}
	l, known := keys[typ]
	tn := partNode(key, 0, 2, "type", "int16", strconv.Itoa(int(typ)))
	tn.About = "record type: the apiKey of the key schema (3.9 and older: its version)"
	made = append(made, tn)
	key.Node.Add(tn)
	if !known {
		e := partError(key, 2, "key", fmt.Sprintf("record type %d is no %s key of release %s", typ, topicFormats[f].topic, set.Name))
		return append(made, e)
	}
	tn.Value += " (" + l.key.Name + ")"
	key.Node.Value = joinValue(key.Node.Value, l.key.Name)
	made = append(made, partStruct(set, key, 2, l.key, l.version)...)
	if value.Null {
		value.Node.Detail = joinValue(value.Node.Detail, "tombstone: the record of this key is deleted")
		return made
	}
	if l.value == nil {
		return append(made, partError(value, 0, "value", "release "+set.Name+" has no schema "+strings.TrimSuffix(l.key.Name, "Key")+"Value"))
	}
	version, n := wire.ConsumeInt16(value.Data)
	if n < 0 {
		return append(made, partError(value, 0, "version", "a version (int16) does not fit in "+plural(len(value.Data), "byte")))
	}
	vn := partNode(value, 0, 2, "version", "int16", strconv.Itoa(int(version)))
	vn.About = "version of the " + l.value.Name + " schema that follows"
	value.Node.Add(vn)
	made = append(made, vn)
	if !l.value.ValidVersions.Contains(version) {
		return append(made, partError(value, 2, l.value.Name, fmt.Sprintf("%s has no version %d (valid: %s)", l.value.Name, version, l.value.ValidVersions)))
	}
	value.Node.Value = joinValue(value.Node.Value, l.value.Name)
	return append(made, partStruct(set, value, 2, l.value, version)...)
}

// metadataRecords returns the metadata record schemas of set by API key.
func metadataRecords(set *schemas.Set) map[int16]*schemas.Message {
	if t, ok := keyTables.Load(formatKey{set, TopicClusterMetadata}); ok {
		return t.(map[int16]*schemas.Message)
	}
	t := map[int16]*schemas.Message{}
	for _, m := range set.Messages {
		if m.Type == "metadata" && m.APIKey >= 0 {
			t[int16(m.APIKey)] = m
		}
	}
	actual, _ := keyTables.LoadOrStore(formatKey{set, TopicClusterMetadata}, t)
	return actual.(map[int16]*schemas.Message)
}

// metadataFrameVersion is the one frame version of KRaft's metadata
// records (AbstractApiMessageSerde).
const metadataFrameVersion = 1

// metadataRecord decodes the value of a __cluster_metadata record.
func metadataRecord(set *schemas.Set, recs map[int16]*schemas.Message, value records.Part) []*tree.Node {
	var made []*tree.Node
	if value.Null {
		return append(made, partError(value, 0, "value", "a __cluster_metadata record has a value"))
	}
	at := 0
	var nums [3]uint32
	names := [3]string{"frameVersion", "apiKey", "version"}
	for i := range nums {
		x, n := wire.ConsumeUvarint32(value.Data[at:])
		if n < 0 {
			return append(made, partError(value, at, names[i], "reading an unsigned varint: "+wire.ParseError(n).Error()))
		}
		vn := partNode(value, at, n, names[i], "uvarint", strconv.FormatUint(uint64(x), 10))
		made = append(made, vn)
		value.Node.Add(vn)
		nums[i] = x
		at += n
		switch i {
		case 0:
			vn.About = "frame version of the metadata record: 1"
			if x != metadataFrameVersion {
				return append(made, partError(value, at, "record", fmt.Sprintf("frame version %d is not %d", x, metadataFrameVersion)))
			}
		case 1:
			vn.About = "the record's type: the apiKey of its schema in metadata/"
			m := recs[int16(x)]
			if x > 0x7fff || m == nil {
				return append(made, partError(value, at, "record", fmt.Sprintf("API key %d is no metadata record of release %s", x, set.Name)))
			}
			vn.Value += " (" + m.Name + ")"
		case 2:
			vn.About = "version of the record's schema"
		}
	}
	m := recs[int16(nums[1])]
	if nums[2] > 0x7fff || !m.ValidVersions.Contains(int16(nums[2])) {
		return append(made, partError(value, at, m.Name, fmt.Sprintf("%s has no version %d (valid: %s)", m.Name, nums[2], m.ValidVersions)))
	}
	value.Node.Value = joinValue(value.Node.Value, m.Name)
	return append(made, partStruct(set, value, at, m, int16(nums[2]))...)
}

// partStruct decodes p.Data[at:] with m at version into children of
// p.Node: every byte must be used.
func partStruct(set *schemas.Set, p records.Part, at int, m *schemas.Message, version int16) []*tree.Node {
	plan, err := PlanFor(m, version)
	if err != nil {
		e := partError(p, at, m.Name, err.Error())
		return []*tree.Node{e}
	}
	root := &tree.Node{}
	_, used, err := plan.DecodeTree(p.Data[at:], root, TreeOptions{Base: p.Base + at, Section: tree.Record, Set: set, Budget: p.Budget, depth: 1})
	made := root.Children
	if p.Relative {
		root.Walk(func(n *tree.Node, _ int) bool {
			n.Relative = true
			return true
		})
	}
	p.Node.Add(made...)
	switch {
	case err != nil:
		if e, _ := root.FirstError(); e == nil { // an array's length, say, has no node of its own
			pos, msg := len(p.Data), err.Error()
			var de *wire.DecodeError
			if errors.As(err, &de) {
				pos, msg = min(max(de.Offset-p.Base, at), len(p.Data)), de.Err.Error()
				if de.Path != "" {
					msg = de.Path + ": " + msg
				}
			}
			made = append(made, partError(p, pos, "error", m.Name+": "+msg))
		}
	case at+used < len(p.Data):
		made = append(made, partError(p, at+used, "trailing", fmt.Sprintf("%s after the %s", plural(len(p.Data)-at-used, "byte"), m.Name)))
	}
	return made
}

// partNode is a node over p.Data[at:at+size], added by the caller.
func partNode(p records.Part, at, size int, name, typ, value string) *tree.Node {
	return &tree.Node{Name: name, Type: typ, Value: value, Offset: p.Base + at, Size: size, Section: tree.Record, Relative: p.Relative}
}

// partError adds an error node over p.Data[at:] to p.Node and returns
// it.
func partError(p records.Part, at int, name, msg string) *tree.Node {
	e := partNode(p, at, len(p.Data)-at, name, "error", "")
	e.Section, e.Err = tree.Error, msg
	p.Node.Add(e)
	return e
}

func joinValue(a, b string) string {
	if a == "" {
		return b
	}
	return a + ", " + b
}
