package codec

import (
	"bytes"
	"encoding/binary"
	"strconv"

	"kwire/schemas"
	"kwire/tree"
)

// Patch brings fl, the tree that Decode(old, o) returned without
// error, up to date with cur, the same message after an edit of one
// field, by decoding that field alone: the cost of an edit of a number or
// a string in a 4 MB Fetch response is that of the field, not of the
// message's half a million nodes. o is what old was decoded with, its Set
// the release the frame was read with (Frame.Set). A span's text is read
// from the bytes when it is drawn, so the field's span stays what it was
// when its length did not change; when it did, the spans after it move
// and the spans around it grow by the difference, and the frame's size
// node says the new size. The tree then reads cur. It returns the
// field's span.
//
// It returns -1, and leaves fl as it was, when the bytes that differ are
// not those of one field, or one element of an array of primitives, that
// Patch can decode alone: the header, an array's length, a tagged field,
// records, bytes that carry another format, a field that says how others
// are read (a topic's name or id, ProtocolType, CompressionType), or a
// field that does not decode to its end. The caller then decodes the
// whole message.
func Patch(fl *tree.Flat, old, cur []byte, o DecodeOptions) int {
	if fl == nil || o.Set == nil || o.API == nil || fl.Len() == 0 {
		return -1
	}
	// The body's span, and where the bytes before it end.
	var kids []int
	fl.Children(0, func(c int) { kids = append(kids, c) })
	var body int
	if o.BodyOnly {
		if len(kids) != 1 {
			return -1
		}
		body = kids[0]
	} else {
		if len(old) < 4 || len(cur) < 4 || len(kids) != 3 ||
			int(binary.BigEndian.Uint32(old)) != len(old)-4 || int(binary.BigEndian.Uint32(cur)) != len(cur)-4 {
			return -1
		}
		body = kids[2]
	}
	hdr, start := 0, int(fl.Spans[body].Off) // the header: from after the size to the body
	if !o.BodyOnly {
		hdr = 4
	}
	if start < hdr || start > len(old) || start > len(cur) || !bytes.Equal(old[hdr:start], cur[hdr:start]) {
		return -1
	}
	// The bytes that differ: old[p:oldEnd], cur[p:oldEnd+delta].
	p := start + commonPrefix(old[start:], cur[start:])
	oldEnd, delta := len(old)-commonSuffix(old[p:], cur[p:]), len(cur)-len(old)
	if oldEnd <= p {
		return -1
	}
	// The innermost span that holds them.
	n := body
	if sp := &fl.Spans[n]; p < int(sp.Off) || oldEnd > sp.End() {
		return -1
	}
descend:
	for c, end := n+1, int(fl.Spans[n].Next); c < end; {
		for c < end {
			if s := &fl.Spans[c]; s.Flags&tree.InStream == 0 && int(s.Off) <= p && oldEnd <= s.End() {
				n = c
				end = int(fl.Spans[n].Next)
				c = n + 1
				continue descend
			}
			c = int(fl.Spans[c].Next)
		}
		return -1 // the bytes span several nodes
	}
	s := fl.Spans[n]
	if n == body || s.Section != fl.Spans[body].Section || s.Flags&(tree.Failed|tree.InStream) != 0 {
		return -1
	}
	_, bp, err := (&Frame{Set: o.Set, API: o.API, Version: o.Version, Dir: o.Dir}).Plans()
	if err != nil {
		return -1
	}
	pd, ok := fl.DescriberOf(n).(*planDesc)
	if !ok || pd.plan != bp || s.Ref < 0 || int(s.Ref) >= len(bp.fields) {
		return -1
	}
	fp := bp.fields[s.Ref]
	kind, nullable := fp.Kind, fp.Nullable
	switch {
	case s.Kind == kElem: // an element of an array of primitives
		if fp.Kind != schemas.KindArray || !fp.Elem.Primitive() {
			return -1
		}
		kind, nullable = fp.Elem, false
	case s.Kind != kField || steers(bp.Root, fp) || !fp.Kind.Primitive() || fp.Kind == schemas.KindRecords || fp.Nested != nestNone:
		return -1
	}
	end := s.End() + delta
	if end > len(cur) || end < int(s.Off) {
		return -1
	}
	d := decoder{buf: cur[:end], off: int(s.Off), end: end, view: true}
	var v Value
	if err := d.primitive(kind, nullable, fp.Compact, &v, nil); err != nil || d.off != end {
		return -1
	}
	at := s.End() // where the bytes after the field start, in old
	if delta != 0 {
		for i := range fl.Spans {
			if x := &fl.Spans[i]; x.Flags&tree.InStream == 0 && x.Off >= int32(at) {
				x.Off += int32(delta)
			}
		}
		fl.Spans[n].Size += int32(delta)
		for a := fl.Spans[n].Parent; a >= 0; a = fl.Spans[a].Parent {
			fl.Spans[a].Size += int32(delta)
		}
		if !o.BodyOnly {
			if size := fl.Stored(kids[0] + 1); size != nil && fl.Spans[kids[0]+1].Parent == int32(kids[0]) {
				size.Value = strconv.Itoa(len(cur) - 4)
			}
		}
	}
	// The describers read cur: those of the frame's header and body in
	// place; those that keep a copy of their bytes (nested formats,
	// records) move with their spans.
	for _, w := range fl.Describers() {
		pd, ok := w.(*planDesc)
		switch {
		case ok && !pd.copied && pd.base+len(pd.buf) == len(old):
			pd.buf = cur[pd.base:]
		case ok && !pd.copied && pd.base+len(pd.buf) <= p:
			pd.buf = cur[pd.base : pd.base+len(pd.buf)]
		case delta != 0:
			if m, ok := w.(tree.Mover); ok {
				m.Moved(at, delta)
			}
		}
	}
	return n
}

// commonPrefix is the length of the longest prefix a and b share, found
// a block at a time (bytes.Equal compares many bytes an instruction) and
// then byte by byte in the block that differs: an edit at the start of a
// 4 MB message compares its 4 MB after the edit.
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for i+cmpBlock <= n && bytes.Equal(a[i:i+cmpBlock], b[i:i+cmpBlock]) {
		i += cmpBlock
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// commonSuffix is the length of the longest suffix a and b share.
func commonSuffix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for i+cmpBlock <= n && bytes.Equal(a[len(a)-i-cmpBlock:len(a)-i], b[len(b)-i-cmpBlock:len(b)-i]) {
		i += cmpBlock
	}
	for i < n && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	return i
}

// cmpBlock is how many bytes commonPrefix and commonSuffix compare at once.
const cmpBlock = 256
