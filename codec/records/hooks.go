package records

import (
	"kwire/codec/wire"
	"kwire/tree"
)

// The hooks through which codec reads the keys and values of Kafka's
// internal topics (Options.Record, RecordJSON).

// inner decodes the key and value of a record (the spans key and val, the
// record's last) with Options.Record, into nodes stored in their place.
func (d *decoder) inner(s []byte, sp span, ki, vi int, v recordView) {
	part := func(n *tree.Node, f field) Part {
		return Part{Node: n, Data: f.data(s), Null: f.n < 0, Base: sp.base + f.at + f.size, Relative: sp.rel, Budget: d.bg, Alloc: d.a.Alloc}
	}
	if d.o.RecordFilter != nil && !d.o.RecordFilter(part(nil, v.key), part(nil, v.value)) {
		return
	}
	d.nodes(ki, vi, func(key, val *tree.Node) {
		d.innerParts(part(key, v.key), part(val, v.value), key.Path)
	})
}

// innerParts decodes a record's key and value with Options.Record (which
// charges the nodes it makes to the budget), then gives the nodes under
// them the record's path.
func (d *decoder) innerParts(key, value Part, path string) {
	d.o.Record(key, value)
	for _, n := range [2]*tree.Node{key.Node, value.Node} {
		for _, c := range n.Children {
			c.Walk(func(x *tree.Node, _ int) bool {
				x.Path = path
				return true
			})
		}
	}
}

// legacyInner decodes the key and value of an uncompressed legacy
// message (the int32-sized fields at b[kp:] and b[vp:], b starting at
// pos of the stream; the spans ki and vi, the message's last) with
// Options.Record, into nodes stored in their place.
func (d *decoder) legacyInner(b []byte, kp, vp, pos int, sp span, ki, vi int) {
	part := func(n *tree.Node, p int) Part {
		ln := int(wire.Int32At(b, p))
		pt := Part{Node: n, Null: ln < 0, Base: sp.base + pos + p + 4, Relative: sp.rel, Budget: d.bg, Alloc: d.a.Alloc}
		if ln >= 0 {
			pt.Data = b[p+4 : p+4+ln]
		}
		return pt
	}
	if d.o.RecordFilter != nil && !d.o.RecordFilter(part(nil, kp), part(nil, vp)) {
		return
	}
	d.nodes(ki, vi, func(key, val *tree.Node) {
		d.innerParts(part(key, kp), part(val, vp), key.Path)
	})
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
