package records

import (
	"errors"
	"strconv"

	"kwire/codec/wire"
	"kwire/internal/xfmt"
	"kwire/tree"
)

// Control records (KIP-98) fill batches whose control bit is set. The key
// is an int16 version and the ControlRecordType schema: an int16 type. The
// value of COMMIT and ABORT markers is an int16 version and the
// EndTxnMarker schema (the coordinator epoch); KRaft's control records
// (KIP-595, KIP-630, KIP-853) hold the value schema at version 0, with no
// version prefix.
var controlTypes = map[int16]struct{ name, value string }{
	0: {"ABORT", "EndTxnMarker"},
	1: {"COMMIT", "EndTxnMarker"},
	2: {"LEADER_CHANGE", "LeaderChangeMessage"},
	3: {"SNAPSHOT_HEADER", "SnapshotHeaderRecord"},
	4: {"SNAPSHOT_FOOTER", "SnapshotFooterRecord"},
	5: {"KRAFT_VERSION", "KRaftVersionRecord"},
	6: {"KRAFT_VOTERS", "VotersRecord"},
}

// ControlTypeName is the name Kafka gives a control record type, or
// "UNKNOWN".
func ControlTypeName(t int16) string {
	if c, ok := controlTypes[t]; ok {
		return c.name
	}
	return "UNKNOWN"
}

// builtinControl is the layout of the two schemas a control marker needs,
// for schema sets that lack them: one int16 Type, one int32
// CoordinatorEpoch.
var builtinControl = map[string]headerField{
	"ControlRecordType": {"Type", "int16", 0, 2, "control record type: 0 ABORT, 1 COMMIT, 2-6 KRaft records (built-in layout)"},
	"EndTxnMarker":      {"CoordinatorEpoch", "int32", 0, 4, "epoch of the transaction coordinator that wrote the marker (built-in layout)"},
}

// control decodes the key (span ki; kp its Part) and value (vp) of a
// control record into nodes under their spans, adding the value's
// (expected).
func (d *decoder) control(ki int, kp, vp Part) {
	kp.Flat, kp.Span, kp.Path = d.f, ki, d.ds.pathOf(d.f, ki)
	if len(kp.Data) < 4 {
		d.fail(ki, errControlKey)
		return
	}
	typ := wire.Int16At(kp.Data, 2)
	ct, known := controlTypes[typ]
	d.controlPart(kp, "ControlRecordType", true, ControlTypeName(typ))
	vp.Flat, vp.Span, vp.Path = d.f, d.valueSpan(), kp.Path
	if !known || vp.Null {
		if known {
			d.fail(vp.Span, errors.New(ct.name+" control record without a value"))
		}
		return
	}
	d.controlPart(vp, ct.value, ct.value == "EndTxnMarker", "")
}

// controlPart decodes p with schema, after an int16 version when
// prefixed; typ, when set, labels the key's Type field.
func (d *decoder) controlPart(p Part, schema string, prefixed bool, typ string) {
	var version int16
	if prefixed {
		if len(p.Data) < 2 {
			d.errRow(p, "version", 0, "the version (int16) does not fit")
			return
		}
		version = wire.Int16At(p.Data, 0)
		d.row(p, 0, 2, tree.Node{Name: "version", Type: "int16", Value: strconv.Itoa(int(version)), About: "version of the " + schema + " schema that follows"})
		p.Base, p.Data = p.Base+2, p.Data[2:]
	}
	d.controlFields(p, schema, version, typ)
}

// controlFields decodes the fields of p with schema at version, with
// Options.Control or the built-in layout.
func (d *decoder) controlFields(p Part, schema string, version int16, typ string) {
	n, b := p.Span, p.Data
	used, err := 0, ErrNoSchema
	first := d.f.Len()
	if d.o.Control != nil {
		used, err = d.o.Control(schema, version, p)
		d.bg.node += d.f.Len() - first
		if typ != "" { // the Type field says its name
			for c := first; c < d.f.Len(); c++ {
				if int(d.f.Spans[c].Parent) != n {
					continue
				}
				if x := textOf(d.f, c, p.Path, d.a.Alloc); x.Name == "Type" {
					x.Value += " (" + typ + ")"
					d.f.Set(c, x)
				}
			}
		}
	}
	if errors.Is(err, ErrNoSchema) {
		f, ok := builtinControl[schema]
		if !ok {
			return // the bytes stay shown as the value's preview
		}
		if len(b) < f.size {
			d.errRow(p, f.name, 0, xfmt.Sprintf("%s (%s) needs %d bytes, %d left", f.name, f.typ, f.size, len(b)))
			return
		}
		c := tree.Node{Name: f.name, Type: f.typ, Value: fixedValue(b, f.size, f.typ), About: f.about}
		if typ != "" && f.name == "Type" {
			c.Value += " (" + typ + ")"
		}
		d.row(p, 0, f.size, c)
		used, err = f.size, nil
	}
	if err != nil {
		d.fail(n, xfmt.Errorf("%s: %w", schema, err))
		return
	}
	if used < len(b) {
		d.row(p, used, len(b)-used, tree.Node{Name: "rest", Type: "bytes", Value: plural(len(b)-used, "byte"),
			About: "bytes past the fields this schema version knows (a newer version's fields)"})
	}
}

// row adds n over p.Data[off:off+size] under p's span, a stored node
// with the part's place and path (in the records' section unless n says
// it is an error), charged to the budget.
func (d *decoder) row(p Part, off, size int, n tree.Node) int {
	d.bg.node++
	n.Offset, n.Size, n.Relative, n.Path = p.Base+off, size, p.Relative, p.Path
	if n.Section != tree.Error {
		n.Section = tree.Record
	}
	return d.f.Row(p.Span, n)
}

// errRow is an error node named name over p.Data[off:].
func (d *decoder) errRow(p Part, name string, off int, msg string) {
	d.row(p, off, len(p.Data)-off, tree.Node{Name: name, Type: "error", Section: tree.Error, Err: errors.New(msg)})
}
