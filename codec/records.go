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
	return func(schema string, version int16, p records.Part) (int, error) {
		msg := set.Message(schema)
		if msg == nil {
			// Kafka 4.3 named its schema ControlRecordTypeSchema.
			msg = set.Message(schema + "Schema")
		}
		if msg == nil {
			return 0, records.ErrNoSchema
		}
		version = max(min(version, msg.ValidVersions.Hi), msg.ValidVersions.Lo)
		plan, err := PlanFor(msg, version)
		if err != nil {
			return 0, err
		}
		return decodePart(plan, p, 0, TreeOptions{Section: tree.Record, Set: set})
	}
}

// decodePart decodes p.Data[at:] with plan into p's tree under its span,
// as the records hooks do: the nodes take the record's path (p.Path) and
// lie in a decompressed stream when p does. On error the spans under
// p's cover their children's, as Decode's do.
func decodePart(plan *Plan, p records.Part, at int, o TreeOptions) (int, error) {
	fl := p.Flat
	first := fl.Len()
	o.Base, o.prefix, o.samePath, o.copied, o.inStream = p.Base+at, p.Path, true, true, p.Relative
	_, used, err := plan.decodeFlat(p.Data[at:], fl, p.Span, o)
	if err != nil {
		fl.Cover(p.Span, fl.Len(), false)
	}
	for i := first; i < fl.Len(); i++ {
		if p.Relative {
			fl.Spans[i].Flags |= tree.InStream
		}
		if n := fl.Stored(i); n != nil { // an error or what the budget left out
			n.Path = p.Path
		}
	}
	return used, err
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
