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

// control decodes the key and value of a control record (the spans key
// and val, the record's last) into children of their nodes, stored in
// the tree in their place.
func (d *decoder) control(s []byte, sp span, ki, vi int, v recordView) {
	d.nodes(ki, vi, func(key, val *tree.Node) { d.controlNodes(s, sp, key, val, v) })
}

func (d *decoder) controlNodes(s []byte, sp span, key, val *tree.Node, v recordView) {
	kb := v.key.data(s)
	if len(kb) < 4 {
		key.Err = "a control record key is an int16 version and an int16 type (4 bytes)"
		return
	}
	typ := wire.Int16At(kb, 2)
	ct, known := controlTypes[typ]
	key.Value += " (" + ControlTypeName(typ) + ")"
	d.controlPart(s, sp, key, "ControlRecordType", true, v.key, key.Path)
	for _, c := range key.Children {
		if c.Name == "Type" {
			c.Value += " (" + ControlTypeName(typ) + ")"
		}
	}
	if !known || v.value.n < 0 {
		if known {
			val.Err = ct.name + " control record without a value"
		}
		return
	}
	d.controlPart(s, sp, val, ct.value, ct.value == "EndTxnMarker", v.value, val.Path)
}

// controlPart decodes f (a key or value) with schema, after an int16
// version when prefixed.
func (d *decoder) controlPart(s []byte, sp span, n *tree.Node, schema string, prefixed bool, f field, path string) {
	at := f.at + f.size
	b := f.data(s)
	var version int16
	if prefixed {
		if len(b) < 2 {
			n.Add(d.errNode(sp, "version", at, at+len(b), "the version (int16) does not fit", path))
			return
		}
		version = wire.Int16At(b, 0)
		vn := d.node(sp, "version", "int16", strconv.Itoa(int(version)), at, 2, tree.Record, path)
		vn.About = "version of the " + schema + " schema that follows"
		n.Add(vn)
		at, b = at+2, b[2:]
	}
	var nodes []*tree.Node
	used, err := 0, ErrNoSchema
	if d.o.Control != nil {
		nodes, used, err = d.o.Control(schema, version, b, sp.base+at, sp.rel)
	}
	if errors.Is(err, ErrNoSchema) {
		f, ok := builtinControl[schema]
		if !ok {
			return // the bytes stay shown as the value's preview
		}
		if len(b) < f.size {
			n.Add(d.errNode(sp, f.name, at, at+len(b), xfmt.Sprintf("%s (%s) needs %d bytes, %d left", f.name, f.typ, f.size, len(b)), path))
			return
		}
		c := d.node(sp, f.name, f.typ, fixedValue(b, f.size, f.typ), at, f.size, tree.Record, path)
		c.About = f.about
		n.Add(c)
		used, err, nodes = f.size, nil, nil
	}
	for _, c := range nodes {
		c.Walk(func(x *tree.Node, _ int) bool {
			d.bg.node++
			x.Path = path
			return true
		})
	}
	n.Add(nodes...)
	if err != nil {
		n.Err = xfmt.Sprintf("%s: %v", schema, err)
		return
	}
	if used < len(b) {
		rest := d.node(sp, "rest", "bytes", plural(len(b)-used, "byte"), at+used, len(b)-used, tree.Record, path)
		rest.About = "bytes past the fields this schema version knows (a newer version's fields)"
		n.Add(rest)
	}
}
