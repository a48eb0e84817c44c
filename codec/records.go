package codec

import (
	"unsafe"

	"kwire/codec/records"
	"kwire/schemas"
	"kwire/tree"
)

// recordSpans adds the spans of the records field s at offset base under
// span parent of fl, drawing on the message's budget: control records are
// decoded with the set's schemas, and the keys and values of internal
// topics' records (format f, topics.go). The spans' text is read from s
// when it is drawn: s must not change while fl is used.
func recordSpans(fl *tree.Flat, parent int, s string, base int, set *schemas.Set, f TopicFormat, a *tree.Alloc, bg *records.Budget) {
	o := records.Options{Path: fl.Path(parent), Alloc: a, Budget: bg}
	if set != nil {
		o.Control = ControlDecoder(set)
		o.Record = RecordDecoder(set, f)
		o.RecordFilter = recordFilter(set, f)
	}
	records.Spans(fl, parent, recordBytes(s), base, o)
}

// ControlDecoder returns the records.ControlFunc that decodes control
// record keys and values with the schemas of set (ControlRecordType,
// EndTxnMarker, LeaderChangeMessage, ...). A version newer than the
// schema's is read as the newest it knows, as Kafka's ControlRecordType
// does; the fields of the newer version are left over.
func ControlDecoder(set *schemas.Set) records.ControlFunc {
	return func(schema string, version int16, b []byte, base int, relative bool) ([]*tree.Node, int, error) {
		msg := set.Message(schema)
		if msg == nil {
			// Kafka 4.3 named its schema ControlRecordTypeSchema.
			msg = set.Message(schema + "Schema")
		}
		if msg == nil {
			return nil, 0, records.ErrNoSchema
		}
		version = max(min(version, msg.ValidVersions.Hi), msg.ValidVersions.Lo)
		p, err := PlanFor(msg, version)
		if err != nil {
			return nil, 0, err
		}
		root := &tree.Node{}
		_, used, err := p.DecodeTree(b, root, TreeOptions{Base: base, Section: tree.Record, Set: set})
		if relative {
			root.Walk(func(n *tree.Node, _ int) bool {
				n.Relative = true
				return true
			})
		}
		return root.Children, used, err
	}
}

// RecordBatches reads the batches of a records field's value (see
// records.Parse). Keys, values and headers of uncompressed batches alias
// the value's string: they must not be modified.
func RecordBatches(v Value) ([]records.Batch, error) {
	s := v.Str()
	if s == "" {
		return nil, nil
	}
	return records.Parse(recordBytes(s))
}

// recordBytes is a records field's value as bytes, in place, for the
// readers of package records, which never write them.
func recordBytes(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// recordString is recordBytes the other way: a records field's bytes as
// the value's string, in place (DecodeOptions.InPlace).
func recordString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}
