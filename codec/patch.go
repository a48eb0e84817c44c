package codec

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"strings"

	"kwire/codec/records"
	"kwire/schemas"
	"kwire/tree"
)

// Patch brings root, the tree that Decode(old, o) returned without error,
// up to date with cur, the same message after an edit of one field, by
// decoding that field alone: the cost of an edit of a number or a string
// in a 4 MB Fetch response is that of the field, not of the message's
// half a million nodes. o is what old was decoded with, its Set the
// release the frame was read with (Frame.Set). The field's node is
// replaced in place (same pointer); when its length changed, the nodes
// after it move and the nodes around it grow by the difference, and the
// frame's size node says the new size. It returns the field's node.
//
// It returns nil, and leaves root as it was, when the bytes that differ
// are not those of one field, or one element of an array of primitives,
// that Patch can decode alone: the header, an array's length, a tagged
// field, records, bytes that carry another format, a field that says how
// others are read (a topic's name or id, ProtocolType, CompressionType),
// or a field that does not decode to its end. The caller then decodes the
// whole message.
func Patch(root *tree.Node, old, cur []byte, o DecodeOptions) *tree.Node {
	if root == nil || o.Set == nil || o.API == nil || len(root.Children) == 0 {
		return nil
	}
	// The body's node, and where the bytes before it end.
	var body *tree.Node
	if o.BodyOnly {
		body = root.Children[0]
	} else {
		if len(old) < 4 || len(cur) < 4 || len(root.Children) != 3 ||
			int(binary.BigEndian.Uint32(old)) != len(old)-4 || int(binary.BigEndian.Uint32(cur)) != len(cur)-4 {
			return nil
		}
		body = root.Children[2]
	}
	hdr, start := 0, body.Offset // the header: from after the size to the body
	if !o.BodyOnly {
		hdr = 4
	}
	if start < hdr || start > len(old) || start > len(cur) || !bytes.Equal(old[hdr:start], cur[hdr:start]) {
		return nil
	}
	// The bytes that differ: old[p:oldEnd], cur[p:oldEnd+delta].
	p := start + commonPrefix(old[start:], cur[start:])
	oldEnd, delta := len(old)-commonSuffix(old[p:], cur[p:]), len(cur)-len(old)
	if oldEnd <= p {
		return nil
	}
	// The innermost node that holds them, and the nodes above it.
	chain := []*tree.Node{root, body}
	n := body
	if p < n.Offset || oldEnd > n.End() {
		return nil
	}
descend:
	for len(n.Children) > 0 {
		for _, c := range n.Children {
			if !c.Relative && c.Offset <= p && oldEnd <= c.End() {
				chain = append(chain, c)
				n = c
				continue descend
			}
		}
		return nil // the bytes span several nodes
	}
	if n == body || n.Section != body.Section || n.Err != "" || n.Relative {
		return nil
	}
	chain = chain[:len(chain)-1]
	_, bp, err := (&Frame{Set: o.Set, API: o.API, Version: o.Version, Dir: o.Dir}).Plans()
	if err != nil {
		return nil
	}
	fp, elem := fieldAt(bp.Root, n.Path)
	switch {
	case fp == nil || fp.IsTagged || steers(bp.Root, fp):
		return nil
	case elem >= 0: // an element of an array of primitives
		if fp.Kind != schemas.KindArray || !fp.Elem.Primitive() {
			return nil
		}
	case fp.Field.Name != n.Name || !fp.Kind.Primitive() || fp.Kind == schemas.KindRecords || fp.Nested != nestNone:
		return nil
	}
	end := n.End() + delta
	if end > len(cur) {
		return nil
	}
	d := bp.treeDecoder(cur[:end], TreeOptions{Section: n.Section, Set: o.Set, Sample: o.Sample, Budget: records.NewBudget(o.Limits)})
	d.off = n.Offset
	var v Value
	fresh, err := &tree.Node{}, error(nil)
	if elem >= 0 {
		d.elemNode(fp, fresh, elem, n.Path)
		err = d.primitive(fp.Elem, false, fp.Compact, &v, fresh)
		fresh.Size = d.off - n.Offset
	} else {
		parent := strings.TrimSuffix(strings.TrimSuffix(n.Path, fp.Field.Name), ".")
		fresh, err = d.field(fp, &v, fresh, parent, n.Section)
	}
	if err != nil || d.off != end || fresh.Path != n.Path || fresh.Name != n.Name || len(fresh.Children) != 0 {
		return nil
	}
	oldLeafEnd := n.End()
	*n = *fresh
	if delta != 0 {
		shift(root, chain, oldLeafEnd, delta)
		if !o.BodyOnly {
			if size := root.Children[0]; len(size.Children) == 1 {
				size.Children[0].Value = strconv.Itoa(len(cur) - 4)
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

// shift moves the nodes under n that start at or after at by delta, and
// grows by delta those in chain (the nodes above the field that changed).
// Nodes whose offsets count from a decompressed stream stay.
func shift(n *tree.Node, chain []*tree.Node, at, delta int) {
	if n.Relative {
		return
	}
	grown := false
	for _, c := range chain {
		if c == n {
			n.Size += delta
			grown = true
			break
		}
	}
	if !grown && n.Offset >= at {
		n.Offset += delta
	}
	for _, c := range n.Children {
		shift(c, chain, at, delta)
	}
}

// fieldAt returns the plan of the field a tree path names
// ("Topics[0].Partitions[1].ErrorCode"), through structs and arrays of
// structs, and -1; for a path that ends with an element of an array
// ("Topics[0].Partitions[1].ReplicaNodes[2]"), the array's plan and the
// element's index. It returns nil when the path names no field of sp (a
// nested format's node).
func fieldAt(sp *StructPlan, path string) (*FieldPlan, int) {
	var fp *FieldPlan
	for path != "" {
		if sp == nil {
			return nil, -1
		}
		seg, rest, _ := strings.Cut(path, ".")
		name, index, indexed := strings.Cut(seg, "[")
		fp = sp.Field(name)
		if fp == nil || !fp.Present || indexed && fp.Kind != schemas.KindArray {
			return nil, -1
		}
		if indexed && rest == "" {
			i, err := strconv.Atoi(strings.TrimSuffix(index, "]"))
			if err != nil || i < 0 || !strings.HasSuffix(index, "]") {
				return nil, -1
			}
			return fp, i
		}
		sp, path = fp.Struct, rest
	}
	return fp, -1
}
