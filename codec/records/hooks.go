package records

import (
	"errors"

	"kwire/codec/wire"
	"kwire/tree"
)

// The hooks through which codec reads control records with the schema
// set (Options.Control) and the keys and values of Kafka's internal
// topics (Options.Record, RecordJSON). They write their nodes straight
// into the tree, under the span of the key or value they decode.

// ControlFunc decodes part of a control record with a schema of the
// protocol's schema set: "ControlRecordType" (a key, after its int16
// version), "EndTxnMarker" (a COMMIT or ABORT value, after its int16
// version), or the KRaft values "LeaderChangeMessage",
// "SnapshotHeaderRecord", "SnapshotFooterRecord", "KRaftVersionRecord" and
// "VotersRecord" (version 0, no prefix), from p.Data. It adds the nodes of
// the fields under p.Span of p.Flat (the caller charges them to the
// budget: p.Budget is nil) and returns the bytes they used, and
// ErrNoSchema when the set lacks the schema (the built-in layout is then
// used, where there is one).
type ControlFunc func(schema string, version int16, p Part) (used int, err error)

// ErrNoSchema is returned by a ControlFunc whose schema set lacks the
// schema asked for.
var ErrNoSchema = errors.New("no such schema in the set")

// Part is the key or value of a record (or the part of a control record
// after its version), for a hook: its bytes (nil when null) and where
// they start (an offset in the buffer shown, or in a decompressed stream
// when Relative), and the tree its nodes join: the hook adds them under
// span Span of Flat (tree.Flat.Row, or a decode into the Flat), with the
// path Path, the record's; Label adds to the text of the part's own
// node.
type Part struct {
	Flat     *tree.Flat // nil for a RecordFilter
	Span     int        // -1 for a RecordFilter, and a value not yet open
	Path     string
	Data     []byte
	Null     bool
	Base     int
	Relative bool
	Budget   *Budget     // the message's
	Alloc    *tree.Alloc // for the hook's strings: the tree's
	open     func() int  // adds a value's span
}

// Open adds the span of a record's value to the tree, after the nodes of
// its key, and sets Span to it; a Part that has its span keeps it.
func (p *Part) Open() {
	if p.Span < 0 && p.open != nil {
		p.Span = p.open()
	}
}

// Label adds value (after ", ") to the value of the part's own node and
// detail (after a space) to its detail, which the tree then keeps as the
// node's text (tree.Flat.Set).
func (p *Part) Label(value, detail string) {
	n := textOf(p.Flat, p.Span, p.Path, p.Alloc)
	if value != "" {
		n.Value = p.Alloc.Concat(n.Value, ", ", value)
	}
	if detail != "" {
		n.Detail = p.Alloc.Concat(n.Detail, " ", detail)
	}
	p.Flat.Set(p.Span, n)
}

// textOf is node i of f with its text and the path given, as
// tree.Flat.Node makes it, without making the paths above it.
func textOf(f *tree.Flat, i int, path string, a *tree.Alloc) tree.Node {
	s := &f.Spans[i]
	n := tree.Node{Offset: int(s.Off), Size: int(s.Size), Section: s.Section, Relative: s.Flags&tree.InStream != 0}
	f.DescriberOf(i).Describe(f, i, &n, a)
	n.Path = path
	return n
}

// RecordFunc decodes the key and value of an ordinary record of a batch
// (not a control record), as the records of Kafka's internal topics carry
// a format of their own, charging the nodes it makes to Part.Budget. The
// key's span is the last in the tree; the value's follows the key's
// nodes, as a tree.Flat holds them in preorder: the hook opens the value
// (Part.Open) once it is done with the key, and records adds the value's
// span after the hook when it did not.
type RecordFunc func(key, value Part)

// pendingValue is the span of a record's value, which follows its key's
// nodes (decoder.valueSpan).
type pendingValue struct {
	parent, kind, arg, pos, size int
	sp                           span
	span                         int // -1 until it is added
}

// expectValue says what the span of the value will be, added when it is
// asked for (valueSpan).
func (d *decoder) expectValue(parent, kind, arg int, sp span, pos, size int) {
	d.pend = pendingValue{parent: parent, kind: kind, arg: arg, pos: pos, size: size, sp: sp, span: -1}
}

// valueSpan adds the span of the value expected, once, and returns it.
func (d *decoder) valueSpan() int {
	p := &d.pend
	if p.span < 0 {
		p.span = d.add(p.parent, uint8(p.kind), p.arg, p.sp, p.pos, p.size, tree.Record)
	}
	return p.span
}

// part is the Part of f, a field of s, which starts at off of the stream
// sp places, for the filter (no tree).
func (d *decoder) part(s []byte, off int, f field, sp span) Part {
	return Part{Span: -1, Data: f.data(s), Null: f.n < 0, Base: sp.base + off + f.at + f.size, Relative: sp.rel, Budget: d.bg, Alloc: d.a.Alloc}
}

// hooked reports whether Options.Record decodes the key and value of the
// next record, the value's span still to come.
func (d *decoder) hooked() bool {
	return d.o.Record != nil && d.bg.recordsLeft() > 0 && d.bg.NodesLeft() > 1
}

// inner decodes the key (span ki) and value of a record with
// Options.Record, the value's span expected.
func (d *decoder) inner(ki int, key, value Part) {
	if d.o.RecordFilter != nil && !d.o.RecordFilter(key, value) {
		return
	}
	if d.valueFn == nil {
		d.valueFn = d.valueSpan
	}
	path := d.ds.pathOf(d.f, ki)
	key.Flat, key.Span, key.Path = d.f, ki, path
	value.Flat, value.Path, value.open = d.f, path, d.valueFn
	d.o.Record(key, value)
}

// legacyField is the int32-sized field at b[p:] as a field (its length
// checked by legacyLength).
func legacyField(b []byte, p int) field {
	return field{at: p, size: 4, n: wire.Int32At(b, p)}
}

// appendPartJSON writes "name": obj when obj is set, else as
// appendBytesJSON.
func appendPartJSON(dst []byte, name string, b, obj []byte) []byte {
	if obj == nil {
		return appendBytesJSON(dst, name, b)
	}
	dst = AppendJSONString(dst, []byte(name))
	dst = append(dst, ':')
	return append(dst, obj...)
}

// readObject reads the key or value name given as a JSON object with
// RecordJSON.Read; ok is false when it is no object or there is no Read.
func (r *reader) readObject(v any, name string) (b []byte, ok bool) {
	obj, isObj := v.(map[string]any)
	if !isObj || r.read == nil {
		return nil, false
	}
	b, err := r.read(obj, r.path+"."+name)
	if err != nil && r.err == nil {
		r.err = err
	}
	return b, true
}
