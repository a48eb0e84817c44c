package codec

import (
	"encoding/binary"
	"encoding/hex"
	"strconv"

	"kwire/codec/records"
	"kwire/codec/wire"
	"kwire/internal/xfmt"
	"kwire/schemas"
	"kwire/tree"
)

// Decode reads one struct value of the plan's message from the front of b
// and returns it with the number of bytes read. On error it returns the
// value decoded so far (fields not reached hold their defaults) and a
// *wire.DecodeError whose offset counts from the start of b.
func (p *Plan) Decode(b []byte) (Value, int, error) { return p.decodeAt(b, 0, false) }

// decodeAt is Decode of bytes that start at offset base of the buffer
// the errors' offsets count from; with inPlace, records fields are read
// in place (DecodeOptions.InPlace). Its first blocks of values and text
// are sized by what the plan's last decode used (Plan.sizes).
func (p *Plan) decodeAt(b []byte, base int, inPlace bool) (Value, int, error) {
	d := decoder{buf: b, end: len(b), base: base, inPlace: inPlace}
	last := d.sizeFrom(p)
	var v Value
	err := d.structInto(p.Root, &v, nil, nil, "")
	d.keepSizes(p, last, err)
	return v, d.off, err
}

// sizeFrom sizes the decode's first blocks by what the plan's last
// decode used (sizeHints) and returns that.
func (d *decoder) sizeFrom(p *Plan) uint64 {
	last := p.sizes.Load()
	d.hint, d.textHint = sizeHints(last, len(d.buf))
	return last
}

// keepSizes keeps what a decode that succeeded used in the plan, for the
// next (a failed one may have stopped anywhere).
func (d *decoder) keepSizes(p *Plan, last uint64, err error) {
	if err == nil {
		if now := packSizes(d.used, d.textUsed, len(d.buf)); now != last {
			p.sizes.Store(now)
		}
	}
}

// packSizes packs what a decode of n bytes used, values and bytes of
// text, into a Plan.sizes: 20 bits each, and 24 bits of n.
func packSizes(values, text, n int) uint64 {
	return uint64(min(values, 1<<20-1))<<44 | uint64(min(text, 1<<20-1))<<24 | uint64(min(n, 1<<24-1))
}

// sizeHints are the sizes of the first blocks of values and of text of a
// decode of n bytes, after a decode that used sizes (packSizes): what
// that one used, or less in proportion to n when n is smaller than its
// input, and never more values or bytes than n (nor than maxHint values):
// a hint too small costs a second block, one too large memory that the
// decode's values keep.
func sizeHints(sizes uint64, n int) (values, text int) {
	last := int(sizes & (1<<24 - 1))
	if last == 0 {
		return 0, 0
	}
	scale := func(used int) int { return min(used, used*n/last+minBlock, n) }
	return min(scale(int(sizes>>44)), maxHint), scale(int(sizes >> 24 & (1<<20 - 1)))
}

// DecodeInto is Decode into *v, reusing the memory of the value v held
// (from an earlier decode of the same plan) wherever it is large enough,
// as kmsg's ReadFrom reuses a message's slices: a loop decoding a stream
// of messages then allocates little more than their strings. v must not
// share memory with a value still in use.
func (p *Plan) DecodeInto(b []byte, v *Value) (int, error) {
	d := decoder{buf: b, end: len(b), reuse: true}
	// Its strings are new, as in Decode; its lists mostly not (no hint
	// of values).
	_, d.textHint = sizeHints(p.sizes.Load(), len(b))
	err := d.structInto(p.Root, v, nil, nil, "")
	return d.off, err
}

// TreeOptions says how DecodeTree labels its nodes.
type TreeOptions struct {
	Base    int          // added to every offset (where b starts in the buffer shown)
	Section tree.Section // colour of the message's bytes
	Set     *schemas.Set // when set, error codes are shown with their names
	// Sample says the value is a sample instance (Plan.Smallest): arrays of
	// one element say "one sample element follows".
	Sample bool
	// Budget bounds what the records fields of the message spend, all of
	// them together (records.Limits); nil gives the decode a budget of its
	// own with the default limits.
	Budget *records.Budget
	// SASLMechanism is the mechanism SaslAuthenticate's AuthBytes are
	// read with (agreed by SaslHandshake, or chosen: "PLAIN",
	// "SCRAM-SHA-256", ...); empty, it is recognised from the bytes.
	SASLMechanism string
	// TopicFormat, when not TopicAuto, is the format of the keys and
	// values of every records field's records, whatever their topic
	// (topics.go); TopicAuto reads those of the internal topics, known by
	// name or by id (TopicNames).
	TopicFormat TopicFormat
	// TopicNames names the topics of records fields whose topic is given
	// by id.
	TopicNames *TopicNames
	depth      int         // of nested formats (nested.go): theirs are not decoded
	alloc      *tree.Alloc // when set, the allocator of an outer tree the nodes join
}

// DecodeTree is Decode that also builds the object tree: root gets one
// child per field. On error the tree holds every node decoded before the
// failure and an error node spanning the bytes left, and the spans of
// root's descendants cover their children's (see coverSpans).
func (p *Plan) DecodeTree(b []byte, root *tree.Node, o TreeOptions) (Value, int, error) {
	d := p.treeDecoder(b, o)
	last := d.sizeFrom(p) // a tree decode takes the values and text a value decode does
	var v Value
	d.root = &v
	err := d.structInto(p.Root, &v, nil, root, "")
	d.keepSizes(p, last, err)
	if err != nil {
		for _, c := range root.Children {
			coverSpans(c)
		}
	}
	return v, d.off, err
}

// treeDecoder returns the decoder of a tree decode of b, a message of the
// plan, with o (DecodeTree; Patch, for one field).
func (p *Plan) treeDecoder(b []byte, o TreeOptions) decoder {
	if o.Budget == nil {
		o.Budget = records.NewBudget(records.Limits{})
	}
	d := decoder{buf: b, end: len(b), tree: true, base: o.Base, section: o.Section, set: o.Set, sample: o.Sample, a: o.alloc, budget: o.Budget, depth: o.depth, saslMech: o.SASLMechanism,
		topics: topicCtx{o.TopicFormat, o.TopicNames}, rootPlan: p.Root}
	if d.a == nil {
		d.a = new(tree.Alloc)
	}
	return d
}

// coverSpans grows each node of an error tree to hold its children: a
// field cut short ends where its error node (which spans the bytes left)
// ends, so that every byte of the input has an innermost node
// (tree.Node.Innermost). A tree decoded without error needs no fixing.
func coverSpans(n *tree.Node) {
	for _, c := range n.Children {
		if c.Relative {
			continue
		}
		coverSpans(c)
		if c.Offset < n.Offset {
			n.Size += n.Offset - c.Offset
			n.Offset = c.Offset
		}
		if c.End() > n.End() {
			n.Size = c.End() - n.Offset
		}
	}
}

// decoder reads values from buf[off:end]. Errors are *wire.DecodeError
// with offsets into buf; paths are built on the way out, only on error.
// Values are decoded in place, into the slot of their struct or array, so
// that no Value is copied (with its write barriers) on the way up.
type decoder struct {
	buf       []byte
	off       int
	end       int
	tree      bool
	base      int // added to offsets in nodes
	section   tree.Section
	set       *schemas.Set // for error-code names, may be nil
	sample    bool
	block     []Value     // zeroed values not yet handed out by alloc
	blockSize int         // size of the last block
	hint      int         // values of the first block (sizeHints), 0: none
	textHint  int         // bytes of the first text block, 0: up to maxFirstText
	used      int         // values handed out by alloc
	textUsed  int         // bytes of text copied into shared blocks
	reuse     bool        // values hold memory to reuse (DecodeInto)
	a         *tree.Alloc // the tree's nodes, child lists and strings
	budget    *records.Budget
	root      *Value      // the message's value, as decoded so far (for nested formats)
	rootPlan  *StructPlan // its plan
	depth     int         // of nested formats
	saslMech  string      // TreeOptions.SASLMechanism
	inPlace   bool        // records fields alias buf
	strs      tree.Alloc  // the text blocks of short strings (text)
	strsOpen  bool        // strs has its first block
	// The topic of the records that follow: its name or id as last read
	// (FieldPlan.Topic), TreeOptions.TopicFormat and TopicNames.
	topic, topicID string
	topics         topicCtx
}

// alloc returns n zeroed values: a struct's field list, an array's
// elements. Lists are carved from blocks shared by the lists of one
// decode (a Metadata response has three short arrays per partition), which
// saves most of their allocations; each list is capped at n, so an append
// to one never writes into another. The first block holds hint values
// (what the plan's last decode used) or, without one, the first list
// alone; then blocks start at minBlock values and double up to maxBlock,
// never much beyond the bytes left, and a longer list has its own
// allocation, sized by a count already checked against the bytes left.
// Every allocation is used to the end of its size class: what a list
// leaves becomes the block when it is larger than what the block has
// left.
func (d *decoder) alloc(n int) []Value {
	d.used += n
	if n > len(d.block) {
		size := min(max(2*d.blockSize, minBlock), maxBlock, max(d.left(), minBlock))
		switch {
		case d.hint > 0:
			size, d.hint = max(d.hint, n), 0
			d.blockSize = size
		case d.blockSize == 0: // the first list, without a hint: its own size
			size, d.blockSize = n, n
		case n > size/2:
			size = n // its own allocation
		default:
			d.blockSize = size
		}
		block := newValues(size)
		if len(block)-n <= len(d.block) { // the old block has more left
			return block[:n:n]
		}
		d.block = block
	}
	l := d.block[:n:n]
	d.block = d.block[n:]
	return l
}

// newValues returns at least n zeroed values: all that fit in the size
// class of their allocation.
func newValues(n int) []Value {
	l := append([]Value(nil), make([]Value, n)...)
	return l[:cap(l)]
}

// The bounds of a block of values, in values (16 bytes each), how many
// struct elements of an array share one allocation of field values, and
// the most values a first block sized by a hint holds.
const (
	minBlock  = 16
	maxBlock  = 512
	elemBlock = 32
	maxHint   = 1 << 14
)

// text returns a copy of b, bytes of the input, as a string. Short
// strings share text blocks (tree.Alloc's), which saves most of a
// decode's allocations of strings. The first block holds as many bytes as
// are left in the input, up to maxFirstText: the strings of a small
// message then take one allocation, of no more than its size.
func (d *decoder) text(b []byte) string {
	if len(b) > maxSharedText {
		return string(b)
	}
	d.textUsed += len(b)
	if !d.strsOpen {
		d.strsOpen = true
		first := min(d.left(), maxFirstText)
		if d.textHint > 0 {
			first = d.textHint
		}
		d.strs.Text(first)
	}
	return d.strs.String(append(d.strs.Text(len(b)), b...))
}

// maxSharedText is the longest string text puts in a shared block, and
// maxFirstText the most bytes its first block holds.
const (
	maxSharedText = 128
	maxFirstText  = 512
)

func (d *decoder) fail(sentinel error, format string, args ...any) error {
	if sentinel == nil {
		sentinel = wire.ErrShort
	}
	return wire.Errorf(d.off+d.base, sentinel, format, args...)
}

func (d *decoder) left() int { return d.end - d.off }

// errorNode spans the bytes from the failure to the end of the input.
func (d *decoder) errorNode(parent *tree.Node, name, path string, err error) {
	if parent == nil {
		return
	}
	msg := err.Error()
	if de, ok := err.(*wire.DecodeError); ok {
		msg = de.Err.Error()
	}
	d.add(parent, tree.Node{Name: name, Type: "error", Offset: d.off + d.base, Size: d.left(), Section: tree.Error, Path: path, Err: msg})
}

// add adds a copy of n, from the tree's blocks, to parent's children and
// returns it.
func (d *decoder) add(parent *tree.Node, n tree.Node) *tree.Node {
	c := d.a.Node()
	*c = n
	parent.Add(c)
	return c
}

// joinPath returns the path of seg (a field name or "[i]") in parent,
// built by a (which may be nil).
func joinPath(a *tree.Alloc, parent, seg string) string {
	if parent == "" || (seg != "" && seg[0] == '[') { // seg may be "": a JSON key
		return a.Concat(parent, "", seg)
	}
	return a.Concat(parent, ".", seg)
}

// structInto reads a struct of sp into v: v gets a list of one value per
// field, those off the wire at their defaults. list, when not nil, is
// where they go (zeroed, one per field); when nil, a reusing decode
// reuses v's old list (whose values the fields overwrite, reusing their
// memory in turn).
func (d *decoder) structInto(sp *StructPlan, v *Value, list []Value, node *tree.Node, path string) error {
	if list == nil {
		if nf := len(sp.Fields); d.reuse && len(v.list()) >= nf {
			list = v.list()[:nf]
		} else {
			list = d.alloc(nf)
		}
	}
	d.initStruct(sp, v, list)
	if node == nil {
		return d.structValue(sp, v, list)
	}
	var nodes []tree.Node // the fields' nodes, side by side
	{
		d.budget.TakeNodes(len(sp.Wire) + 1)
		nodes = d.a.Nodes(len(sp.Wire))
		extra := 0
		if sp.Flexible {
			extra = 1 // tagged_fields
		}
		d.a.Room(node, len(sp.Wire)+extra)
	}
	for i, fp := range sp.Wire {
		start := d.off
		var fn *tree.Node
		if nodes != nil {
			fn = &nodes[i]
		}
		child, err := d.field(fp, &list[fp.Index], fn, path, d.section)
		if node != nil && child != nil {
			node.Add(child)
		}
		if err != nil {
			if child == nil {
				d.off = start
				d.errorNode(node, fp.Field.Name, joinPath(d.a, path, fp.Field.Name), err)
			}
			return d.fieldFailed(sp, i, list, err)
		}
	}
	if sp.Flexible {
		return d.tagged(sp, v, node, path)
	}
	return nil
}

// initStruct sets *v to the struct list (zero values, or a reusing
// decode's last ones) with the fields off the wire at their defaults.
func (d *decoder) initStruct(sp *StructPlan, v *Value, list []Value) {
	*v = List(list)
	for j, i := range sp.offWire {
		if def := &sp.offDefaults[j]; def.p == nil {
			setInt(&list[i], int64(def.n)) // no pointer, no write barrier
		} else {
			list[i] = *def
		}
	}
	for _, i := range sp.deepDefaults {
		list[i] = d.clone(list[i])
	}
}

// fieldFailed is what a struct's decode returns when its i-th wire field
// failed with err.
func (d *decoder) fieldFailed(sp *StructPlan, i int, list []Value, err error) error {
	fp := sp.Wire[i]
	if d.reuse { // the fields not reached still hold the last decode's values
		if fp.Kind.Primitive() {
			list[fp.Index] = Value{}
		}
		for _, rest := range sp.Wire[i+1:] {
			list[rest.Index] = Value{}
		}
	}
	return wire.WithPath(err, fp.Field.Name)
}

// structValue is structInto without a tree: the struct's fields, read by
// its steps (the encoder's, StructPlan.steps). The common kinds are read
// here when their bytes are there and well formed; anything else (a
// short input, a null, a negative length, a kind not listed) goes the
// general way, field, which reads it again from the same offset and
// reports what is wrong with the same error.
func (d *decoder) structValue(sp *StructPlan, v *Value, list []Value) error {
	// The offset is kept in off while the fields are read here, and in
	// d.off around anything called.
	buf, off := d.buf[:d.end], d.off
	for i := range sp.steps {
		st := &sp.steps[i]
		fv := &list[st.index]
		b := buf[off:]
		switch st.op {
		case encInt32:
			if len(b) >= 4 {
				setInt(fv, int64(int32(binary.BigEndian.Uint32(b))))
				off += 4
				continue
			}
		case encInt16:
			if len(b) >= 2 {
				setInt(fv, int64(int16(binary.BigEndian.Uint16(b))))
				off += 2
				continue
			}
		case encInt64:
			if len(b) >= 8 {
				setInt(fv, int64(binary.BigEndian.Uint64(b)))
				off += 8
				continue
			}
		case encInt8:
			if len(b) >= 1 {
				setInt(fv, int64(int8(b[0])))
				off++
				continue
			}
		case encBool:
			if len(b) >= 1 {
				setInt(fv, int64(b[0])) // the byte as it was (primitive)
				off++
				continue
			}
		case encUUID:
			if len(b) >= 16 {
				d.off = off
				*fv = String(d.text(b[:16]))
				off += 16
				continue
			}
		case encString, encNullableString, encBytes:
			if n, size := fastLen(b, st.op, st.compact); n >= 0 {
				d.off = off
				*fv = String(d.text(b[size : size+n]))
				off += size + n
				continue
			}
		case encStruct:
			d.off = off
			if err := d.structInto(st.fp.Struct, fv, nil, nil, ""); err != nil {
				return d.fieldFailed(sp, i, list, err)
			}
			off = d.off
			continue
		case encArray:
			d.off = off
			if ok, err := d.arrayValue(st.fp, fv); ok {
				if err != nil {
					return d.fieldFailed(sp, i, list, err)
				}
				off = d.off
				continue
			}
		}
		d.off = off
		if _, err := d.field(st.fp, fv, nil, "", d.section); err != nil {
			return d.fieldFailed(sp, i, list, err)
		}
		off = d.off
	}
	d.off = off
	if sp.Flexible {
		if off < len(buf) && buf[off] == 0 && !d.tree {
			d.off++ // no tagged fields, the most common case
			return nil
		}
		return d.tagged(sp, v, nil, "")
	}
	return nil
}

// setInt sets *v to the integer n without storing a pointer (no write
// barrier) unless *v held one (a reusing decode).
func setInt(v *Value, n int64) {
	if v.p != nil {
		v.p = nil
	}
	v.n = uint64(n)
}

// fastLen reads the length of a string (encString, encNullableString)
// or bytes (encBytes) at the front of b when it is written in its most
// common form and its bytes follow: a one-byte compact length, or a
// classic length that is not negative. It returns the length and the
// size of its prefix, or -1 for anything else (the general way then reads
// it and says what is wrong).
func fastLen(b []byte, op encOp, compact bool) (n, size int) {
	switch {
	case compact:
		if len(b) == 0 || b[0] == 0 || b[0] >= 0x80 {
			return -1, 0
		}
		n, size = int(b[0])-1, 1
	case op == encBytes:
		if len(b) < 4 {
			return -1, 0
		}
		n, size = int(int32(binary.BigEndian.Uint32(b))), 4
	default:
		if len(b) < 2 {
			return -1, 0
		}
		n, size = int(int16(binary.BigEndian.Uint16(b))), 2
	}
	if n < 0 || n > len(b)-size {
		return -1, 0
	}
	return n, size
}

// arrayValue is array without a tree, for an array that is not null and
// whose elements fit the bytes left; it reports false, having read
// nothing, for anything else (then array reads it and says what is
// wrong). Arrays of int32 are read in one loop, bounds checked once.
func (d *decoder) arrayValue(fp *FieldPlan, v *Value) (bool, error) {
	count, n := wire.ConsumeLen(d.buf[d.off:d.end], 4, fp.Compact)
	if n < 0 || count < 0 || count*int64(max(fp.elemMinSize(), 1)) > int64(d.left()-n) {
		return false, nil
	}
	var old []Value
	if d.reuse {
		old = v.list()
	}
	d.off += n
	list, fields := d.arrayList(fp, old, int(count))
	*v = List(list)
	if fp.Elem == schemas.KindInt32 {
		b := d.buf[d.off : d.off+4*len(list)]
		for i := range list {
			setInt(&list[i], int64(int32(binary.BigEndian.Uint32(b[4*i:]))))
		}
		d.off += len(b)
		return true, nil
	}
	if fp.Elem == schemas.KindStruct && !d.reuse {
		// structElem and structInto without a tree, inlined.
		sp, nf := fp.Struct, len(fp.Struct.Fields)
		for i := range list {
			if len(fields) < nf {
				fields = d.alloc(nf * min(len(list)-i, elemBlock))
			}
			f := fields[:nf:nf]
			fields = fields[nf:]
			d.initStruct(sp, &list[i], f)
			if err := d.structValue(sp, &list[i], f); err != nil {
				return true, d.elemFailed(fp, v, list, i, err)
			}
		}
		return true, nil
	}
	for i := range list {
		var err error
		if fp.Elem == schemas.KindStruct {
			fields, err = d.structElem(fp, list, i, fields, nil, "")
		} else {
			err = d.primitive(fp.Elem, false, fp.Compact, &list[i], nil)
		}
		if err != nil {
			return true, d.elemFailed(fp, v, list, i, err)
		}
	}
	return true, nil
}

// arrayList returns the list of an array of count elements (checked
// against the bytes left); old is a reusing decode's last list. A new
// list of structs shares its allocation with the field lists of its
// first elements, fields (see structElem).
func (d *decoder) arrayList(fp *FieldPlan, old []Value, count int) (list, fields []Value) {
	if len(old) >= count {
		return old[:count], nil // the elements overwrite the old values, reusing their memory
	}
	if fp.Elem == schemas.KindStruct {
		l := d.alloc(count + len(fp.Struct.Fields)*min(count, elemBlock))
		return l[:count:count], l[count:]
	}
	return d.alloc(count), nil
}

// clone is Value.Clone with the lists from alloc.
func (d *decoder) clone(v Value) Value {
	if v.kind() != kindList {
		return v.Clone()
	}
	old := v.list()
	l := d.alloc(len(old))
	for i, e := range old {
		l[i] = d.clone(e)
	}
	return List(l)
}

// structElem reads element i of an array of structs. The field lists of
// struct elements share allocations of up to elemBlock elements (fields
// holds what is left of the last one, and structElem returns what it
// leaves): the count was checked against the bytes left, and no more
// than a chunk is allocated ahead of the bytes read.
func (d *decoder) structElem(fp *FieldPlan, list []Value, i int, fields []Value, en *tree.Node, epath string) ([]Value, error) {
	nf := len(fp.Struct.Fields)
	if d.reuse && len(list[i].list()) >= nf {
		return fields, d.structInto(fp.Struct, &list[i], nil, en, epath)
	}
	if len(fields) < nf {
		fields = d.alloc(nf * min(len(list)-i, elemBlock))
	}
	return fields[nf:], d.structInto(fp.Struct, &list[i], fields[:nf:nf], en, epath)
}

// elemFailed is what an array's decode returns when its element i failed
// with err: the array holds the elements up to it.
func (d *decoder) elemFailed(fp *FieldPlan, v *Value, list []Value, i int, err error) error {
	if fp.Elem != schemas.KindStruct {
		list[i] = Value{} // a reusing decode left the old value there
	}
	*v = List(list[:i+1])
	return wire.WithPath(err, "["+strconv.Itoa(i)+"]")
}

// tagged reads a tagged-field section (KIP-482): a uvarint count, then per
// field a uvarint tag, a uvarint size and the data.
func (d *decoder) tagged(sp *StructPlan, v *Value, node *tree.Node, path string) error {
	start := d.off
	count, n := wire.ConsumeUvarint32(d.buf[d.off:d.end])
	var tn *tree.Node
	if d.tree {
		tn = d.add(node, tree.Node{Name: "tagged_fields", Type: "uvarint", Offset: start + d.base, Section: tree.Tagged, About: "number of tagged fields in this struct", Path: path})
	}
	if n < 0 {
		err := d.fail(wire.ParseError(n), "reading the tagged-field count")
		if tn != nil {
			tn.Type, tn.Section, tn.Size, tn.Err = "error", tree.Error, d.left(), err.(*wire.DecodeError).Err.Error()
		}
		return wire.WithPath(err, "tagged_fields")
	}
	d.off += n
	if tn != nil {
		tn.Value = d.a.Itoa(int64(count))
		tn.Size = n
	}
	if int(count) > d.left()/2 { // each takes at least a tag and a size byte
		err := d.fail(wire.ErrLength, "%d tagged fields cannot fit in the %d bytes left", count, d.left())
		d.errorNode(tn, "tagged_fields", path, err)
		return wire.WithPath(err, "tagged_fields")
	}
	for i := uint32(0); i < count; i++ {
		fieldStart := d.off
		tag, n1 := wire.ConsumeUvarint32(d.buf[d.off:d.end])
		if n1 < 0 {
			err := d.fail(wire.ParseError(n1), "reading a tag")
			d.errorNode(tn, "tag", path, err)
			return wire.WithPath(err, "tagged_fields")
		}
		d.off += n1
		size, n2 := wire.ConsumeUvarint32(d.buf[d.off:d.end])
		if n2 < 0 || int64(size) > int64(d.left()-max(n2, 0)) {
			var err error
			if n2 < 0 {
				err = d.fail(wire.ParseError(n2), "reading the size of tag %d", tag)
			} else {
				err = d.fail(wire.ErrLength, "tag %d has size %d but only %d bytes are left", tag, size, d.left()-n2)
			}
			d.off = fieldStart
			d.errorNode(tn, xfmt.Sprintf("tag %d", tag), path, err)
			return wire.WithPath(err, "tagged_fields")
		}
		d.off += n2
		dataStart, dataEnd := d.off, d.off+int(size)
		var fp *FieldPlan
		for _, t := range sp.Tagged {
			if uint32(t.Field.Tag) == tag {
				fp = t
			}
		}
		if fp == nil {
			raw := append([]byte(nil), d.buf[dataStart:dataEnd]...)
			*v = v.WithUnknown(append(v.Unknown(), RawTag{Tag: tag, Data: raw}))
			if tn != nil {
				tn.Add(&tree.Node{Name: xfmt.Sprintf("tag %d", tag), Type: "unknown", Value: bytesPreview(raw), Detail: xfmt.Sprintf("(tag=%d, size=%d)", tag, size),
					Offset: fieldStart + d.base, Size: dataEnd - fieldStart, Section: tree.Tagged, About: "a tagged field this schema does not define; kept and written back", Path: path})
			}
			d.off = dataEnd
			continue
		}
		saveEnd := d.end
		d.end = dataEnd
		slot := &v.list()[fp.Index]
		*slot = Value{} // it held the default
		var fn *tree.Node
		if d.tree {
			fn = d.a.Node()
		}
		child, err := d.field(fp, slot, fn, path, tree.Tagged)
		d.end = saveEnd
		if child != nil {
			child.Offset = fieldStart + d.base
			child.Size = d.off - fieldStart
			child.Detail = xfmt.Sprintf("(tag=%d, size=%d)", tag, size) + prefixSpace(child.Detail)
			tn.Add(child)
		}
		if err == nil && d.off != dataEnd {
			err = d.fail(wire.ErrLength, "tagged field %s (tag %d) used %d of its %d bytes", fp.Field.Name, tag, d.off-dataStart, size)
		}
		if err != nil {
			return wire.WithPath(err, fp.Field.Name)
		}
	}
	if tn != nil {
		tn.Size = d.off - start
	}
	return nil
}

func prefixSpace(s string) string {
	if s == "" {
		return ""
	}
	return " " + s
}

// field reads one field's value into v, a zero value; with a tree, node
// is a zero node it fills and returns as the field's node (holding an
// error node on failure).
func (d *decoder) field(fp *FieldPlan, v *Value, node *tree.Node, parent string, sec tree.Section) (*tree.Node, error) {
	var path string // built only for the tree; errors build theirs on the way out
	if node != nil {
		path = joinPath(d.a, parent, fp.Field.Name)
		// Field by field: node is zero, and a struct copy would pass every
		// word of it through the garbage collector's write barrier.
		node.Name, node.Type, node.About, node.Path = fp.Field.Name, fp.Field.Type.Name, fp.Field.About, path
		node.Offset, node.Section = d.off+d.base, sec
	}
	saveSec := d.section
	d.section = sec
	start := d.off
	var err error
	switch fp.Kind {
	case schemas.KindArray:
		err = d.array(fp, v, node, path)
	case schemas.KindStruct:
		err = d.structField(fp, v, node, path)
	default:
		err = d.primitive(fp.Kind, fp.Nullable, fp.Compact, v, node)
		if err == nil && node != nil && fp.Kind == schemas.KindRecords && !v.IsNull() {
			f := d.recordFormat()
			node.Add(recordNodes(v.str(), d.off-len(v.str())+d.base, d.set, f, path, d.a, d.budget)...)
		}
		if fp.Topic != 0 && err == nil && node != nil {
			if fp.Topic == topicByID {
				d.topicID = v.str()
			} else {
				d.topic = v.str()
			}
		}
		if err == nil && node != nil && fp.Nested != nestNone && !v.IsNull() {
			d.nested(fp, v.str(), d.off-len(v.str())+d.base, node)
		}
		if err == nil && node != nil && fp.Kind == schemas.KindInt16 && d.set != nil && isErrorCode(fp.Field.Name) {
			if e, ok := d.set.ErrorCode(int16(v.Int())); ok && v.Int() != 0 {
				node.Value += " (" + e.Name + ")"
			}
		}
	}
	d.section = saveSec
	if node != nil {
		node.Size = d.off - start
		if err != nil && fp.Kind.Primitive() {
			node.Type, node.Section, node.Size = "error", tree.Error, d.end-start
			if de, ok := err.(*wire.DecodeError); ok {
				node.Err = de.Err.Error()
			}
		}
	}
	return node, err
}

func isErrorCode(name string) bool {
	return len(name) >= 9 && name[len(name)-9:] == "ErrorCode"
}

func (d *decoder) structField(fp *FieldPlan, v *Value, node *tree.Node, path string) error {
	if fp.Nullable {
		start := d.off
		marker, n := wire.ConsumeInt8(d.buf[d.off:d.end])
		if n < 0 {
			*v = Null
			return d.fail(wire.ParseError(n), "reading the presence byte of %s", fp.Field.Name)
		}
		d.off++
		if node != nil {
			d.add(node, tree.Node{Name: "present", Type: "int8", Value: strconv.Itoa(int(marker)), Offset: start + d.base, Size: 1, Section: d.section,
				About: "-1 for null, 1 when the struct follows", Path: path})
		}
		if marker < 0 {
			if node != nil {
				node.Value = "null"
			}
			*v = Null
			return nil
		}
	}
	if node != nil {
		node.Value = "struct"
	}
	return d.structInto(fp.Struct, v, nil, node, path)
}

func (d *decoder) array(fp *FieldPlan, v *Value, node *tree.Node, path string) error {
	start := d.off
	var old []Value // a reusing decode's last elements
	if d.reuse {
		old = v.list()
	}
	*v = Value{}
	count, n := wire.ConsumeLen(d.buf[d.off:d.end], 4, fp.Compact)
	if n < 0 {
		return d.fail(wire.ParseError(n), "reading an array length")
	}
	if count < -1 {
		return d.fail(wire.ErrLength, "array length %d is negative", count)
	}
	d.off += n
	// The length node and, once the count is checked against the bytes
	// left, the elements' nodes: side by side, in a list sized once.
	var ln tree.Node
	if node != nil {
		ln = d.lengthNode(fp, count, start, n, path)
	}
	if count == -1 {
		if node != nil {
			d.add(node, ln)
			node.Value = "null"
		}
		*v = Null
		if !fp.Nullable {
			d.off = start
			return d.fail(wire.ErrNull, "array is null but %s is not nullable at this version", fp.Field.Name)
		}
		return nil
	}
	if need := count * int64(max(fp.elemMinSize(), 1)); need > int64(d.left()) {
		if node != nil {
			d.add(node, ln)
		}
		d.off = start
		return d.fail(wire.ErrLength, "array of %d elements needs at least %d bytes but only %d are left", count, need, d.left())
	}
	// The elements' nodes, as many as the message's budget of nodes
	// allows: past it, the elements are decoded without nodes and one
	// node says what was left out.
	var enodes []tree.Node
	shown, hidden := int(count), -1 // elements with a node; where those without start
	if node != nil {
		shown = min(shown, d.budget.NodesLeft())
		d.budget.TakeNodes(1)
		block := d.a.Nodes(shown + 1)
		block[0] = ln
		enodes = block[1:]
		d.a.Room(node, shown+2)
		node.Add(&block[0])
		node.Value = d.plural(int(count), "element")
	}
	leftOut := func(n int) { // the n elements decoded since hidden
		if hidden >= 0 && n > 0 {
			c := d.add(node, tree.Node{Name: "more", Value: d.plural(n, "more element") + " not shown", Offset: hidden + d.base, Size: d.off - hidden, Section: tree.Error, Path: path})
			c.Err = d.budget.LeftOut(plural(n, "more element"))
		}
	}
	list, fields := d.arrayList(fp, old, int(count))
	*v = List(list)
	elemName := fp.Field.Type.Elem.Name
	for i := range list {
		var en *tree.Node
		var epath string
		if node != nil && hidden < 0 && (i >= shown || d.budget.NodesLeft() == 0) {
			hidden, shown = d.off, i
		}
		if node != nil && hidden < 0 {
			d.budget.TakeNodes(1)
			en = &enodes[i]
			epath = d.a.Indexed(path, i)
			d.elemNode(fp, en, i, epath)
			node.Add(en)
		}
		elemStart := d.off
		var err error
		if fp.Elem == schemas.KindStruct {
			if en != nil {
				en.Value = "struct"
			}
			fields, err = d.structElem(fp, list, i, fields, en, epath)
		} else {
			err = d.primitive(fp.Elem, false, fp.Compact, &list[i], en)
		}
		if en != nil {
			en.Size = d.off - elemStart
		}
		if err != nil {
			if hidden >= 0 {
				at := d.off
				d.off = elemStart
				leftOut(i - shown)
				d.errorNode(node, d.a.Indexed(elemName, i), d.a.Indexed(path, i), err)
				d.off = at
			}
			if en != nil && fp.Elem != schemas.KindStruct {
				en.Type, en.Section, en.Size = "error", tree.Error, d.end-elemStart
				if de, ok := err.(*wire.DecodeError); ok {
					en.Err = de.Err.Error()
				}
			}
			return d.elemFailed(fp, v, list, i, err)
		}
	}
	leftOut(int(count) - shown)
	return nil
}

// elemNode starts en, the node of element i of fp's array (at path epath),
// at the current offset.
func (d *decoder) elemNode(fp *FieldPlan, en *tree.Node, i int, epath string) {
	elemName := fp.Field.Type.Elem.Name
	en.Name, en.Type, en.Path = d.a.Indexed(elemName, i), elemName, epath
	en.Offset, en.Section = d.off+d.base, d.section
}

func plural(n int, what string) string {
	return (*tree.Alloc)(nil).Plural(n, what)
}

// plural is plural with the tree's strings.
func (d *decoder) plural(n int, what string) string { return d.a.Plural(n, what) }

// lengthNode is the node of an array's length: count read from n bytes
// at start.
func (d *decoder) lengthNode(fp *FieldPlan, count int64, start, n int, path string) tree.Node {
	ln := tree.Node{Name: "length", Offset: start + d.base, Size: n, Section: d.section, Path: path}
	if fp.Compact {
		ln.Type, ln.Value, ln.Detail = "uvarint", d.a.Itoa(count+1), "(compact, n+1)"
	} else {
		ln.Type, ln.Value = "int32", d.a.Itoa(count)
	}
	switch count {
	case -1:
		ln.About = "null array"
	case 0:
		ln.About = "no elements follow"
	case 1:
		ln.About = "one element follows"
		if d.sample {
			ln.About = "one sample element follows"
		}
	default:
		ln.About = d.a.Concat(d.a.Itoa(count), " elements follow", "")
	}
	return ln
}

// primitive reads a primitive of kind k into v (which it leaves alone on
// error); with node it fills the node's value and detail.
func (d *decoder) primitive(k schemas.Kind, nullable, compact bool, v *Value, node *tree.Node) error {
	b := d.buf[d.off:d.end]
	if w := k.Width(); w > 0 {
		if len(b) < w {
			return d.fail(wire.ErrShort, "%s needs %d bytes, %d left", k, w, len(b))
		}
		switch k {
		case schemas.KindBool:
			// Kafka reads any byte but 0 as true; the value keeps the byte,
			// so that it is written back as it was.
			*v = Int(int64(b[0]))
		case schemas.KindInt8:
			*v = Int(int64(int8(b[0])))
		case schemas.KindInt16:
			*v = Int(int64(int16(binary.BigEndian.Uint16(b))))
		case schemas.KindUint16:
			*v = Int(int64(binary.BigEndian.Uint16(b)))
		case schemas.KindInt32:
			*v = Int(int64(int32(binary.BigEndian.Uint32(b))))
		case schemas.KindUint32:
			*v = Int(int64(binary.BigEndian.Uint32(b)))
		case schemas.KindInt64, schemas.KindFloat64:
			*v = Int(int64(binary.BigEndian.Uint64(b)))
		case schemas.KindUUID:
			*v = String(d.text(b[:16]))
		}
		d.off += w
		if node != nil {
			node.Value = d.display(k, *v)
			if k == schemas.KindBool && b[0] > 1 {
				node.Detail = d.a.Concat("(byte 0x", hex.EncodeToString(b[:1]), ": not canonical, 0 or 1; Kafka reads any byte but 0 as true)")
			}
		}
		return nil
	}
	width := 4
	if k == schemas.KindString {
		width = 2
	}
	length, n := wire.ConsumeLen(b, width, compact)
	if n < 0 {
		return d.fail(wire.ParseError(n), "reading a %s length", k)
	}
	if length < -1 {
		return d.fail(wire.ErrLength, "%s length %d is negative", k, length)
	}
	if length == -1 {
		if !nullable {
			return d.fail(wire.ErrNull, "%s is null but the field is not nullable at this version", k)
		}
		d.off += n
		*v = Null
		if node != nil {
			node.Value, node.Detail = "null", d.lengthDetail(k, -1, compact)
		}
		return nil
	}
	if length > int64(len(b)-n) {
		return d.fail(wire.ErrLength, "%s length %d exceeds the %d bytes left", k, length, len(b)-n)
	}
	if d.inPlace && k == schemas.KindRecords {
		*v = String(recordString(b[n : n+int(length)]))
	} else {
		*v = String(d.text(b[n : n+int(length)]))
	}
	d.off += n + int(length)
	if node != nil {
		node.Value, node.Detail = d.display(k, *v), d.lengthDetail(k, int(length), compact)
	}
	return nil
}

// lengthDetail is the detail of a string or bytes node: how its length
// of n was written.
func (d *decoder) lengthDetail(k schemas.Kind, n int, compact bool) string {
	prefix := "(int32 len="
	switch {
	case compact:
		prefix, n = "(compact, len+1=", n+1
	case k == schemas.KindString:
		prefix = "(int16 len="
	}
	b := d.a.Text(len(prefix) + 21)
	b = append(b, prefix...)
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, ')')
	return d.a.String(b)
}

// display is the text a tree shows for a primitive value.
func (d *decoder) display(k schemas.Kind, v Value) string {
	if v.IsNull() {
		return "null"
	}
	switch k {
	case schemas.KindBool:
		return strconv.FormatBool(v.Bool())
	case schemas.KindFloat64:
		return strconv.FormatFloat(v.Float64(), 'g', -1, 64)
	case schemas.KindUUID:
		return d.a.String(appendUUID(d.a.Text(36), v.str()))
	case schemas.KindString:
		return d.a.String(tree.AppendEscaped(d.a.Text(len(v.str())+2), v.str(), true))
	case schemas.KindBytes, schemas.KindRecords:
		return d.a.String(appendPreview(d.a.Text(60), v.str()))
	}
	return d.a.Itoa(v.Int())
}

// bytesPreview is how a tree shows bytes: "empty", or hex of at most 16
// bytes and then the size.
func bytesPreview(b []byte) string { return string(appendPreview(nil, string(b))) }

func appendPreview(dst []byte, s string) []byte {
	if len(s) == 0 {
		return append(dst, "empty"...)
	}
	dst = append(dst, "0x"...)
	dst = hex.AppendEncode(dst, []byte(s[:min(len(s), 16)]))
	if len(s) > 16 {
		dst = append(dst, "... ("...)
		dst = strconv.AppendInt(dst, int64(len(s)), 10)
		dst = append(dst, " bytes)"...)
	}
	return dst
}

// FormatUUID writes 16 bytes in the canonical 8-4-4-4-12 form.
func FormatUUID(s string) string { return string(appendUUID(make([]byte, 0, 36), s)) }

// appendUUID appends FormatUUID(s) (plain hex unless s has 16 bytes).
func appendUUID(dst []byte, s string) []byte {
	if len(s) != 16 {
		return hex.AppendEncode(dst, []byte(s))
	}
	for i := range 16 {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			dst = append(dst, '-')
		}
		dst = append(dst, hexDigits[s[i]>>4], hexDigits[s[i]&15])
	}
	return dst
}

const hexDigits = "0123456789abcdef"
