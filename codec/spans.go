package codec

import (
	"strconv"

	"kwire/codec/records"
	"kwire/codec/wire"
	"kwire/internal/xfmt"
	"kwire/schemas"
	"kwire/tree"
)

// The kinds of span a plan's describer writes (tree.Span.Kind); Ref is
// the FieldPlan's id in the plan where there is one, else -1.
const (
	kField       uint8 = iota // a field; Arg: what a struct or an array shows (shownNone, ...)
	kTaggedField              // a tagged field, from its tag
	kElem                     // element Arg of the array field
	kLength                   // the length of the array field
	kTagCount                 // a struct's tagged-field count
	kPresent                  // the presence byte of the nullable struct field
	kUnknownTag               // a tagged field the schema does not define
	kRoot                     // the node the message's fields hang under (planDesc.rootNode)
)

// planDesc writes the text of the spans of one decode of a plan
// (decodeFlat), when they are drawn: from the bytes, read again where the
// span says, and the plan's fields. Values, details and paths are not
// kept, only what the bytes cannot say: error texts and notes.
type planDesc struct {
	plan   *Plan
	buf    []byte // the bytes decoded; a span's offset less base indexes them
	base   int
	set    *schemas.Set   // for error-code names, may be nil
	sample bool           // a sample instance: "one sample element follows"
	frame  *Frame         // for a frame's header: its fields' labels
	root   int            // the span the plan's fields hang under
	prefix string         // the path of the fields under root ("" in a message)
	copied bool           // buf is a copy of the bytes shown, not a view
	errs   map[int]error  // the causes of the error nodes
	notes  map[int]string // what nested formats say of their field
	values map[int]string // values they show instead of the bytes'
	budget records.Budget // the decode's, when it was given none
	lines  []fieldLine    // the plan's (Plan.fieldLines), once AppendLine asks
	who    uint16         // its number in the Flat (tree.Flat.Describer)
	// rootNode is the text of the root's span, when it is this
	// describer's (kRoot).
	rootNode tree.Node
	value    Value // the value, while it is decoded
	// samePath: every span's path is prefix; inStream: buf is a
	// decompressed stream, which an edit of the buffer does not move
	// (TreeOptions).
	samePath, inStream bool
}

// note sets (*m)[i] to s.
func (p *planDesc) note(m *map[int]string, i int, s string) {
	if *m == nil {
		*m = map[int]string{}
	}
	(*m)[i] = s
}

// Moved moves a copy's bytes with its spans (tree.Mover).
func (p *planDesc) Moved(at, delta int) {
	if p.copied && !p.inStream && p.base >= at {
		p.base += delta
	}
}

// bytes returns the bytes of the buffer from offset at (a tree offset) to
// end, within the buffer.
func (p *planDesc) bytes(at, end int) []byte {
	if at, end := uint(at-p.base), uint(end-p.base); at <= end && end <= uint(len(p.buf)) {
		return p.buf[at:end] // the span's bytes are all there, as most are
	}
	at, end = min(max(at-p.base, 0), len(p.buf)), min(max(end-p.base, 0), len(p.buf))
	return p.buf[at:max(at, end)]
}

// Describe writes the text of span i.
func (p *planDesc) Describe(f *tree.Flat, i int, n *tree.Node, a *tree.Alloc) {
	s := &f.Spans[i]
	var fp *FieldPlan
	if s.Ref >= 0 && int(s.Ref) < len(p.plan.fields) {
		fp = p.plan.fields[s.Ref]
	}
	failed := s.Flags&tree.Failed != 0
	b := p.bytes(int(s.Off), s.End())
	switch s.Kind {
	case kField, kTaggedField:
		n.Name, n.Type, n.About = fp.Field.Name, fp.Field.Type.Name, fp.Field.About
		var tagDetail string
		if s.Kind == kTaggedField {
			tag, n1 := wire.ConsumeUvarint32(b)
			size, n2 := wire.ConsumeUvarint32(b[max(n1, 0):])
			tagDetail = tagSize(a, tag, size)
			at := min(max(n1, 0)+max(n2, 0), len(b))
			b = b[at:min(at+int(size), len(b))]
		}
		switch {
		case failed:
			n.Type, n.Err = "error", p.errs[i]
		case fp.Kind == schemas.KindArray || fp.Kind == schemas.KindStruct:
			switch s.Arg {
			case shownNone:
			case shownNull:
				n.Value = "null"
			case shownStruct:
				n.Value = "struct"
			default:
				n.Value = a.Plural(int(s.Arg-arrayShown), "element")
			}
		default:
			v := p.primitive(fp.Kind, fp.Nullable, fp.Compact, b, n, a)
			if fp.Kind == schemas.KindInt16 && p.set != nil && isErrorCode(fp.Field.Name) && v.Int() != 0 {
				if e, ok := p.set.ErrorCode(int16(v.Int())); ok {
					b := append(append(a.Text(len(n.Value)+len(e.Name)+3), n.Value...), " ("...)
					n.Value = a.String(append(append(b, e.Name...), ')'))
				}
			}
		}
		if v, ok := p.values[i]; ok {
			n.Value = v
		}
		if note, ok := p.notes[i]; ok {
			n.Detail = a.Concat(n.Detail, " ", note)
		}
		if s.Kind == kTaggedField {
			if n.Detail == "" {
				n.Detail = tagDetail
			} else {
				n.Detail = a.Concat(tagDetail, " ", n.Detail)
			}
		}
	case kElem:
		elemName := fp.Field.Type.Elem.Name
		n.Name, n.Type = a.Indexed(elemName, int(s.Arg)), elemName
		switch {
		case failed:
			n.Type, n.Err = "error", p.errs[i]
		case fp.Elem == schemas.KindStruct:
			n.Value = "struct"
		default:
			p.primitive(fp.Elem, false, fp.Compact, b, n, a)
		}
	case kLength:
		count, _ := wire.ConsumeLen(b, 4, fp.Compact)
		n.Name = "length"
		if fp.Compact {
			n.Type, n.Value, n.Detail = "uvarint", a.Itoa(count+1), "(compact, n+1)"
		} else {
			n.Type, n.Value = "int32", a.Itoa(count)
		}
		switch count {
		case -1:
			n.About = "null array"
		case 0:
			n.About = "no elements follow"
		case 1:
			n.About = "one element follows"
			if p.sample {
				n.About = "one sample element follows"
			}
		default:
			n.About = a.Concat(a.Itoa(count), " elements follow", "")
		}
	case kTagCount:
		n.Name, n.Type, n.About = "tagged_fields", "uvarint", "number of tagged fields in this struct"
		if failed {
			n.Type, n.Err = "error", p.errs[i]
		} else {
			count, _ := wire.ConsumeUvarint32(b)
			n.Value = a.Itoa(int64(count))
		}
	case kPresent:
		n.Name, n.Type, n.About = "present", "int8", "-1 for null, 1 when the struct follows"
		if len(b) > 0 {
			n.Value = a.Itoa(int64(int8(b[0])))
		}
	case kRoot:
		r := &p.rootNode
		n.Name, n.Type, n.Value, n.Detail, n.About, n.Err = r.Name, r.Type, r.Value, r.Detail, r.About, r.Err
	case kUnknownTag:
		tag, n1 := wire.ConsumeUvarint32(b)
		size, n2 := wire.ConsumeUvarint32(b[max(n1, 0):])
		at := min(max(n1, 0)+max(n2, 0), len(b))
		n.Name, n.Type = xfmt.Sprintf("tag %d", tag), "unknown"
		n.Value = bytesPreview(b[at:min(at+int(size), len(b))])
		n.Detail = xfmt.Sprintf("(tag=%d, size=%d)", tag, size)
		n.About = "a tagged field this schema does not define; kept and written back"
	}
	if p.frame != nil && int(s.Parent) == p.root {
		p.frame.labelNode(n)
	}
}

// tagSize is a tagged field's detail, "(tag=1, size=4)", with a's
// strings.
func tagSize(a *tree.Alloc, tag, size uint32) string {
	b := a.Text(32)
	b = append(b, "(tag="...)
	b = strconv.AppendUint(b, uint64(tag), 10)
	b = append(b, ", size="...)
	b = strconv.AppendUint(b, uint64(size), 10)
	return a.String(append(b, ')'))
}

// Short returns the shortened description of span i, a field's, kept in
// its plan (tree.Shortener), when Describe gave it the field's own.
func (p *planDesc) Short(f *tree.Flat, i int, about string) (string, bool) {
	s := &f.Spans[i]
	if (s.Kind != kField && s.Kind != kTaggedField) || s.Ref < 0 || int(s.Ref) >= len(p.plan.fields) {
		return "", false
	}
	if about != p.plan.fields[s.Ref].Field.About {
		return "", false // the frame's label of a header field
	}
	return p.plan.fieldLines()[s.Ref].about, true
}

// primitive writes the value and detail of a primitive of kind k read
// from b, as the decoder reads it, and returns the value. (Not inlined:
// the decoder it makes is large, and so would be the code of each call.)
//
//go:noinline
func (p *planDesc) primitive(k schemas.Kind, nullable, compact bool, b []byte, n *tree.Node, a *tree.Alloc) Value {
	d := decoder{buf: b, end: len(b), a: a, set: p.set, view: true}
	var v Value
	d.primitive(k, nullable, compact, &v, n)
	return v
}

// Path returns the field path of span i, whose parent's is parent.
func (p *planDesc) Path(f *tree.Flat, i int, parent string, a *tree.Alloc) string {
	s := &f.Spans[i]
	if s.Kind == kRoot {
		return p.rootNode.Path
	}
	if p.samePath {
		return p.prefix
	}
	if int(s.Parent) == p.root {
		parent = p.prefix
	}
	switch s.Kind {
	case kField, kTaggedField:
		return joinPath(a, parent, p.plan.fields[s.Ref].Field.Name)
	case kElem:
		return a.Indexed(parent, int(s.Arg))
	}
	return parent
}
