package codec

import (
	"bytes"
	"errors"
	"kwire/internal/xfmt"
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
		return func(key, value records.Part) {
			coordinatorRecord(set, f, keys, key, value)
		}
	case TopicClusterMetadata:
		recs := metadataRecords(set)
		return func(_, value records.Part) {
			value.Open()
			metadataRecord(set, recs, value)
		}
	case topicUnnamed:
		tables := guessTables(set)
		return func(key, value records.Part) {
			f, keys := guessCoordinator(tables, key.Data, value.Data, value.Null)
			if f == TopicAuto {
				return
			}
			key.Label("", "read as a "+topicFormats[f].topic+" record: the topic is given by an id no earlier response named, and its key and value decode exactly as one")
			coordinatorRecord(set, f, keys, key, value)
		}
	}
	return nil
}

// recordFilter is the records.Options.RecordFilter of RecordDecoder(set,
// f): for a topic given by an id no response named, the records whose
// key and value read as one coordinator's (guessCoordinator), so that
// the others' keys and values are not decoded for the guess.
func recordFilter(set *schemas.Set, f TopicFormat) func(key, value records.Part) bool {
	if set == nil || f != topicUnnamed {
		return nil
	}
	tables := guessTables(set)
	return func(key, value records.Part) bool {
		g, _ := guessCoordinator(tables, key.Data, value.Data, value.Null)
		return g != TopicAuto
	}
}

// guessFormats are the topics whose records guessCoordinator tries; the
// metadata records of __cluster_metadata are left out, as a short value
// of an ordinary topic can read as one.
var guessFormats = [...]TopicFormat{TopicConsumerOffsets, TopicTransactionState, TopicShareGroupState}

// guessTables are the key tables of guessFormats.
func guessTables(set *schemas.Set) (t [len(guessFormats)]map[int16]keyLayout) {
	for i, f := range guessFormats {
		t[i] = coordinatorKeys(set, f)
	}
	return t
}

// guessCoordinator returns the one coordinator topic whose record types
// and layouts read key and value (nil when null) using every byte, with
// its key table, or TopicAuto when none or several do.
func guessCoordinator(tables [len(guessFormats)]map[int16]keyLayout, key, value []byte, null bool) (TopicFormat, map[int16]keyLayout) {
	found, keys := TopicAuto, map[int16]keyLayout(nil)
	typ, n := wire.ConsumeInt16(key)
	if n < 0 || typ < 0 || typ > 0xff { // record types are small numbers
		return TopicAuto, nil
	}
	for i, f := range guessFormats {
		t := tables[i]
		l, ok := t[typ]
		if !ok || !decodesExactly(l.key, l.version, key[2:]) {
			continue
		}
		if !null {
			version, n := wire.ConsumeInt16(value)
			if n < 0 || l.value == nil || !l.value.ValidVersions.Contains(version) || !decodesExactly(l.value, version, value[2:]) {
				continue
			}
		}
		if found != TopicAuto {
			return TopicAuto, nil // two topics read it: no guess
		}
		found, keys = f, t
	}
	return found, keys
}

// decodesExactly says whether m at version reads b using every byte.
func decodesExactly(m *schemas.Message, version int16, b []byte) bool {
	p, err := PlanFor(m, version)
	if err != nil {
		return false
	}
	_, used, err := p.Decode(b)
	return err == nil && used == len(b)
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
	for _, m := range set.Messages() {
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
func coordinatorRecord(set *schemas.Set, f TopicFormat, keys map[int16]keyLayout, key, value records.Part) {
	if key.Null {
		partError(key, 0, "key", "a "+topicFormats[f].topic+" record has a key")
		return
	}
	typ, n := wire.ConsumeInt16(key.Data)
	if n < 0 {
		partError(key, 0, "type", "a record type (int16) does not fit in "+plural(len(key.Data), "byte"))
		return
	}
	l, known := keys[typ]
	a := key.Alloc
	tn := tree.Node{Name: "type", Type: "int16", Value: a.Itoa(int64(typ)), About: "record type: the apiKey of the key schema (3.9 and older: its version)"}
	if known {
		tn.Value = a.Concat(tn.Value, " (", l.key.Name+")")
	}
	partRow(key, 0, 2, tn)
	if !known {
		partError(key, 2, "key", xfmt.Sprintf("record type %d is no %s key of release %s", typ, topicFormats[f].topic, set.Name))
		return
	}
	key.Label(l.key.Name, "")
	partStruct(set, key, 2, l.key, l.version)
	value.Open()
	if value.Null {
		value.Label("", "tombstone: the record of this key is deleted")
		return
	}
	if l.value == nil {
		partError(value, 0, "value", "release "+set.Name+" has no schema "+strings.TrimSuffix(l.key.Name, "Key")+"Value")
		return
	}
	version, n := wire.ConsumeInt16(value.Data)
	if n < 0 {
		partError(value, 0, "version", "a version (int16) does not fit in "+plural(len(value.Data), "byte"))
		return
	}
	partRow(value, 0, 2, tree.Node{Name: "version", Type: "int16", Value: a.Itoa(int64(version)), About: "version of the value schema that follows"})
	if !l.value.ValidVersions.Contains(version) {
		partError(value, 2, l.value.Name, xfmt.Sprintf("%s has no version %d (valid: %s)", l.value.Name, version, l.value.ValidVersions))
		return
	}
	value.Label(l.value.Name, "")
	partStruct(set, value, 2, l.value, version)
}

// metadataRecords returns the metadata record schemas of set by API key.
func metadataRecords(set *schemas.Set) map[int16]*schemas.Message {
	if t, ok := keyTables.Load(formatKey{set, TopicClusterMetadata}); ok {
		return t.(map[int16]*schemas.Message)
	}
	t := map[int16]*schemas.Message{}
	for _, m := range set.Messages() {
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
func metadataRecord(set *schemas.Set, recs map[int16]*schemas.Message, value records.Part) {
	if value.Null {
		partError(value, 0, "value", "a __cluster_metadata record has a value")
		return
	}
	at := 0
	var nums [3]uint32
	names := [3]string{"frameVersion", "apiKey", "version"}
	for i := range nums {
		x, n := wire.ConsumeUvarint32(value.Data[at:])
		if n < 0 {
			partError(value, at, names[i], "reading an unsigned varint: "+wire.ParseError(n).Error())
			return
		}
		vn := tree.Node{Name: names[i], Type: "uvarint", Value: value.Alloc.Itoa(int64(x))}
		fail := ""
		switch i {
		case 0:
			vn.About = "frame version of the metadata record: 1"
			if x != metadataFrameVersion {
				fail = xfmt.Sprintf("frame version %d is not %d", x, metadataFrameVersion)
			}
		case 1:
			vn.About = "the record's type: the apiKey of its schema in metadata/"
			if m := recs[int16(x)]; x > 0x7fff || m == nil {
				fail = xfmt.Sprintf("API key %d is no metadata record of release %s", x, set.Name)
			} else {
				vn.Value = value.Alloc.Concat(vn.Value, " (", m.Name+")")
			}
		case 2:
			vn.About = "version of the record's schema"
		}
		partRow(value, at, n, vn)
		nums[i] = x
		at += n
		if fail != "" {
			partError(value, at, "record", fail)
			return
		}
	}
	m := recs[int16(nums[1])]
	if nums[2] > 0x7fff || !m.ValidVersions.Contains(int16(nums[2])) {
		partError(value, at, m.Name, xfmt.Sprintf("%s has no version %d (valid: %s)", m.Name, nums[2], m.ValidVersions))
		return
	}
	value.Label(m.Name, "")
	partStruct(set, value, at, m, int16(nums[2]))
}

// partStruct decodes p.Data[at:] with m at version into the tree under
// p's span: every byte must be used.
func partStruct(set *schemas.Set, p records.Part, at int, m *schemas.Message, version int16) {
	plan, err := PlanFor(m, version)
	if err != nil {
		partError(p, at, m.Name, err.Error())
		return
	}
	first := p.Flat.Len()
	used, err := decodePart(plan, p, at, TreeOptions{Section: tree.Record, Set: set, Budget: p.Budget, depth: 1, alloc: p.Alloc})
	switch {
	case err != nil:
		if !p.Flat.Failed(first, p.Flat.Len()) { // an array's length, say, has no node of its own
			pos, msg := len(p.Data), err.Error()
			var de *wire.DecodeError
			if errors.As(err, &de) {
				pos, msg = min(max(de.Offset-p.Base, at), len(p.Data)), de.Err.Error()
				if de.Path != "" {
					msg = de.Path + ": " + msg
				}
			}
			partError(p, pos, "error", m.Name+": "+msg)
		}
	case at+used < len(p.Data):
		partError(p, at+used, "trailing", xfmt.Sprintf("%s after the %s", plural(len(p.Data)-at-used, "byte"), m.Name))
	}
}

// partRow adds n over p.Data[at:at+size] under p's span, with its place
// and path (in the records' section unless n is an error's), charged to
// the budget (the nodes of a struct decoded by partStruct are charged by
// the decode).
func partRow(p records.Part, at, size int, n tree.Node) {
	p.Budget.TakeNodes(1)
	n.Offset, n.Size, n.Relative, n.Path = p.Base+at, size, p.Relative, p.Path
	if n.Section != tree.Error {
		n.Section = tree.Record
	}
	p.Flat.Row(p.Span, n)
}

// partError adds an error node over p.Data[at:] under p's span.
func partError(p records.Part, at int, name, msg string) {
	partRow(p, at, len(p.Data)-at, tree.Node{Name: name, Type: "error", Section: tree.Error, Err: errors.New(msg)})
}

// recordJSON is the JSON form of the keys and values of records of format
// f (the writer) and of any internal topic's (the reader: the objects
// name their schema): {"type": n, "<Key schema>": {...}} for a
// coordinator key, {"version": n, "<Value schema>": {...}} for its value,
// {"frameVersion": 1, "version": n, "<Record schema>": {...}} for a
// metadata record. A key or value is written as an object only when the
// object encodes back to the same bytes.
func recordJSON(set *schemas.Set, f TopicFormat) *records.RecordJSON {
	rj := &records.RecordJSON{Read: func(obj map[string]any, path string) ([]byte, error) {
		return partFromJSON(set, obj, path)
	}}
	switch f {
	case topicUnnamed:
		tables := guessTables(set)
		rj.Write = func(key, value []byte) ([]byte, []byte) {
			g, _ := guessCoordinator(tables, key, value, value == nil)
			if g == TopicAuto {
				return nil, nil
			}
			return recordJSON(set, g).Write(key, value)
		}
	case TopicConsumerOffsets, TopicTransactionState, TopicShareGroupState:
		keys := coordinatorKeys(set, f)
		rj.Write = func(key, value []byte) ([]byte, []byte) {
			typ, n := wire.ConsumeInt16(key)
			l, ok := keys[typ]
			if n < 0 || !ok {
				return nil, nil
			}
			kj := partJSON(set, key, key[2:], `"type":`+strconv.Itoa(int(typ)), l.key, l.version)
			if l.value == nil || len(value) < 2 {
				return kj, nil
			}
			version, _ := wire.ConsumeInt16(value)
			return kj, partJSON(set, value, value[2:], `"version":`+strconv.Itoa(int(version)), l.value, version)
		}
	case TopicClusterMetadata:
		recs := metadataRecords(set)
		rj.Write = func(_, value []byte) ([]byte, []byte) {
			var nums [3]uint32
			at := 0
			for i := range nums {
				x, n := wire.ConsumeUvarint32(value[at:])
				if n < 0 {
					return nil, nil
				}
				nums[i], at = x, at+n
			}
			m := recs[int16(nums[1])]
			if nums[0] != metadataFrameVersion || nums[1] > 0x7fff || nums[2] > 0x7fff || m == nil {
				return nil, nil
			}
			return nil, partJSON(set, value, value[at:], `"frameVersion":1,"version":`+strconv.Itoa(int(nums[2])), m, int16(nums[2]))
		}
	}
	return rj
}

// partJSON is the JSON object of a key or value whole, whose schema m
// reads rest at layout version: {head, "<m.Name>": {...}}, or nil when it
// does not decode to an object that encodes back to whole.
func partJSON(set *schemas.Set, whole, rest []byte, head string, m *schemas.Message, version int16) []byte {
	if !m.ValidVersions.Contains(version) {
		return nil
	}
	p, err := PlanFor(m, version)
	if err != nil {
		return nil
	}
	v, used, err := p.Decode(rest)
	if err != nil || used != len(rest) {
		return nil
	}
	out := []byte("{" + head + `,"` + m.Name + `":`)
	out = p.Root.appendJSON(out, v, &jctx{set: set, depth: 1})
	out = append(out, '}')
	raw, err := parseJSON(out)
	if err != nil {
		return nil
	}
	obj, _ := raw.(map[string]any)
	back, err := partFromJSON(set, obj, "")
	if err != nil || !bytes.Equal(back, whole) {
		return nil
	}
	return out
}

// partFromJSON encodes the object of an internal topic's key or value
// (recordJSON), read at path.
func partFromJSON(set *schemas.Set, obj map[string]any, path string) ([]byte, error) {
	var m *schemas.Message
	for k := range obj {
		switch k {
		case "type", "version", "frameVersion":
			continue
		}
		if m != nil {
			return nil, jsonErr(path, "two schemas, %s and %s: want one", m.Name, k)
		}
		if m = set.Message(k); m == nil {
			return nil, jsonErr(path, "release %s has no schema %s", set.Name, k)
		}
	}
	if m == nil {
		return nil, jsonErr(path, "want an object naming its schema: {\"type\": n, \"OffsetCommitKey\": {...}}, {\"version\": n, \"OffsetCommitValue\": {...}} or {\"frameVersion\": 1, \"version\": n, \"TopicRecord\": {...}}")
	}
	num := func(name string, hi int64) (int16, error) {
		n, err := intFromJSON(obj[name], 0, hi)
		if err != nil {
			return 0, jsonErr(path+"."+name, "%v", err)
		}
		return int16(n), nil
	}
	var out []byte
	var version int16
	var err error
	coordinator := m.Type == "coordinator-key" || m.Type == "coordinator-value" || strings.HasPrefix(m.File, "coordinator/")
	switch {
	case m.Type == "metadata":
		var fv int16
		if fv, err = num("frameVersion", 0x7fff); err != nil {
			return nil, err
		}
		if version, err = num("version", 0x7fff); err != nil {
			return nil, err
		}
		out = wire.AppendUvarint(out, uint64(fv))
		out = wire.AppendUvarint(out, uint64(m.APIKey))
		out = wire.AppendUvarint(out, uint64(version))
	case coordinator && strings.HasSuffix(m.Name, "Key"):
		typ, err := num("type", 0x7fff)
		if err != nil {
			return nil, err
		}
		version = typ
		if m.APIKey >= 0 {
			version = m.ValidVersions.Hi
			if int(typ) != m.APIKey {
				return nil, jsonErr(path+".type", "%s is type %d, not %d", m.Name, m.APIKey, typ)
			}
		}
		out = wire.AppendInt16(out, typ)
	case coordinator && strings.HasSuffix(m.Name, "Value"):
		if version, err = num("version", 0x7fff); err != nil {
			return nil, err
		}
		out = wire.AppendInt16(out, version)
	default:
		return nil, jsonErr(path, "%s is no coordinator or metadata record", m.Name)
	}
	p, err := PlanFor(m, version)
	if err != nil {
		return nil, jsonErr(path, "%v", err)
	}
	v, err := p.Root.fromJSON(obj[m.Name], path+"."+m.Name, set)
	if err != nil {
		return nil, err
	}
	out, err = p.Append(out, v)
	if err != nil {
		return nil, jsonErr(path+"."+m.Name, "%v", err)
	}
	return out, nil
}

// Add adds the topics that a decoded message (plan p, value v) names with
// their ids: the elements of its top-level arrays of structs with a
// string Name (or Topic) and a uuid TopicId (Metadata v10+,
// DescribeTopicPartitions, CreateTopics v7+). It returns how many it
// added or changed.
func (t *TopicNames) Add(p *Plan, v Value) int {
	if p == nil || t == nil {
		return 0
	}
	added := 0
	list := v.List()
	for _, fp := range p.Root.Wire {
		if fp.Kind != schemas.KindArray || fp.Struct == nil || fp.Index >= len(list) {
			continue
		}
		name, id := fp.Struct.Field("Name"), fp.Struct.Field("TopicId")
		if name == nil || !name.Present {
			name = fp.Struct.Field("Topic")
		}
		if name == nil || !name.Present || name.Kind != schemas.KindString || id == nil || !id.Present || id.Kind != schemas.KindUUID {
			continue
		}
		for _, e := range list[fp.Index].List() {
			el := e.List()
			if name.Index >= len(el) || id.Index >= len(el) || el[name.Index].IsNull() {
				continue
			}
			uid, n := el[id.Index].Str(), el[name.Index].Str()
			if uid == zeroUUID || len(uid) != 16 || t.byID[uid] == n {
				continue
			}
			t.byID[uid] = n
			added++
		}
	}
	return added
}

// With returns t with the topics that a decoded message names (see Add)
// added: t itself when it has them all, else a copy, so that a map handed
// to a decoder running beside the caller never changes.
func (t *TopicNames) With(p *Plan, v Value) *TopicNames {
	n := &TopicNames{byID: make(map[string]string, t.Len()+1)}
	if t != nil {
		for id, name := range t.byID {
			n.byID[id] = name
		}
	}
	if n.Add(p, v) == 0 && t != nil {
		return t
	}
	return n
}

// records writes the JSON form of the records field value v with its
// keys and values decoded when its topic is an internal one (ok false:
// not written).
func (c *jctx) records(dst []byte, v Value) ([]byte, bool) {
	if c.set == nil {
		return nil, false
	}
	f := c.topics.of(c.topic, c.topicID)
	return records.AppendJSONWith(dst, []byte(v.Str()), c.bg, recordJSON(c.set, f)), true
}

// recordsFromJSON reads the JSON form of a records field, whose keys and
// values may be objects (recordJSON).
func recordsFromJSON(raw any, path string, set *schemas.Set) (Value, bool, error) {
	if set == nil {
		return Value{}, false, nil
	}
	b, err := records.FromJSONWith(raw, recordJSON(set, TopicAuto))
	if je, ok := err.(*records.JSONError); ok {
		return Value{}, true, jsonErrAt(path, je)
	}
	return String(string(b)), true, err
}
