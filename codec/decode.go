package codec

import (
	"encoding/binary"
	"encoding/hex"
	"strconv"

	"kwire/codec/records"
	"kwire/codec/wire"
	"kwire/internal/textesc"
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
	err := d.structInto(p.Root, &v, nil, -1)
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
	err := d.structInto(p.Root, v, nil, -1)
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
	header     *Frame      // decoding the header of this frame: its fields' labels
	prefix     string      // the path of the field whose bytes are decoded (nested formats)
	copied     bool        // b is a copy, not a view of the buffer shown (nested formats)
	samePath   bool        // every node's path is prefix (what records' hooks decode: the record's)
	inStream   bool        // b is a decompressed stream: its spans do not move with the buffer's (Patch)
	rootSpan   bool        // the span the fields hang under is the describer's (kRoot, Plan.DecodeTree)
	desc       *planDesc   // the describer's memory, when the caller has it
	alloc      *tree.Alloc // when set, the allocator of an outer tree the nodes join
}

// DecodeTree is Decode that also builds the object tree, a tree.Flat
// whose root (span 0) is root's copy with one child per field: the
// nodes' text is written when it is asked for. On error the tree holds
// every node decoded before the failure and an error node spanning the
// bytes left, and the spans of root's descendants cover their children's
// (see tree.Flat.Cover). The Flat reads b, which must not change while
// it is used.
func (p *Plan) DecodeTree(b []byte, root tree.Node, o TreeOptions) (Value, *tree.Flat, int, error) {
	both := new(struct { // one allocation for the two
		fl tree.Flat
		pd planDesc
	})
	fl := &both.fl
	o.desc = &both.pd
	fl.Grow(spanHint(p.spans.Load(), len(b)) + 1)
	r := fl.Add(-1, tree.Span{Off: int32(root.Offset), Size: int32(root.Size), Section: root.Section, Kind: kRoot})
	o.rootSpan = true
	v, used, err := p.decodeFlat(b, fl, r, o)
	fl.DescriberOf(r).(*planDesc).rootNode = root
	fl.Done()
	if err != nil {
		fl.Cover(r, int(fl.Spans[r].Next), false)
	}
	return v, fl, used, err
}

// decodeFlat is Decode that adds the message's nodes to fl as children of
// the span parent: spans whose text a planDesc writes when asked. The
// caller calls fl.Done.
func (p *Plan) decodeFlat(b []byte, fl *tree.Flat, parent int, o TreeOptions) (Value, int, error) {
	d := p.treeDecoder(b, fl, parent, o)
	last := d.sizeFrom(p) // a tree decode takes the values and text a value decode does
	lastSpans := p.spans.Load()
	fl.Grow(spanHint(lastSpans, len(b)))
	first := fl.Len()
	// The value is decoded in the describer (d.root, read by nested
	// formats, points to it): one allocation less. It keeps no copy.
	v := &d.desc.value
	d.root = v
	err := d.structInto(p.Root, v, nil, parent)
	d.keepSizes(p, last, err)
	if now := packSpans(fl.Len()-first, len(b)); err == nil && now != lastSpans {
		p.spans.Store(now)
	}
	value := *v
	*v = Value{}
	return value, d.off, err
}

// packSpans packs the spans a tree decode of n bytes made, for
// Plan.spans.
func packSpans(spans, n int) uint64 { return uint64(min(spans, 1<<31))<<32 | uint64(min(n, 1<<31)) }

// spanHint is how many spans a tree decode of n bytes is likely to make,
// after one that made spans (packSpans): as many in proportion, never more
// than two for each byte.
func spanHint(spans uint64, n int) int {
	last, count := int(spans&(1<<32-1)), int(spans>>32)
	if last == 0 {
		return min(n/4, 256) + 8
	}
	return min(count*n/last, 2*n) + 8
}

// treeDecoder returns the decoder of a tree decode of b, a message of the
// plan, with o, adding spans to fl under parent (decodeFlat; Patch, for
// one field), with a describer of its own.
func (p *Plan) treeDecoder(b []byte, fl *tree.Flat, parent int, o TreeOptions) decoder {
	desc := o.desc
	if desc == nil {
		desc = new(planDesc)
	}
	*desc = planDesc{plan: p, buf: b, base: o.Base, set: o.Set, sample: o.Sample, frame: o.header, root: parent, prefix: o.prefix, copied: o.copied,
		samePath: o.samePath, inStream: o.inStream}
	if o.Budget == nil {
		desc.budget = *records.NewBudget(records.Limits{})
		o.Budget = &desc.budget
	}
	d := decoder{buf: b, end: len(b), base: o.Base, section: o.Section, set: o.Set, sample: o.Sample, a: o.alloc, budget: o.Budget, depth: o.depth, saslMech: o.SASLMechanism,
		topics: topicCtx{o.TopicFormat, o.TopicNames}, rootPlan: p.Root, flat: fl}
	d.desc = desc
	d.who, _ = fl.Describer(d.desc)
	desc.who = d.who
	if o.rootSpan { // the root's span is the describer's too
		fl.Spans[parent].Who = d.who
	}
	return d
}

// decoder reads values from buf[off:end]. Errors are *wire.DecodeError
// with offsets into buf; paths are built on the way out, only on error.
// Values are decoded in place, into the slot of their struct or array, so
// that no Value is copied (with its write barriers) on the way up.
type decoder struct {
	buf       []byte
	off       int
	end       int
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
	a         *tree.Alloc // strings of the rows of records and nested formats (nil: each its own)
	flat      *tree.Flat  // the tree's spans
	desc      *planDesc   // their describer
	who       uint16      // its number in flat
	budget    *records.Budget
	root      *Value      // the message's value, as decoded so far (for nested formats)
	rootPlan  *StructPlan // its plan
	depth     int         // of nested formats
	saslMech  string      // TreeOptions.SASLMechanism
	inPlace   bool        // records fields alias buf
	strs      tree.Alloc  // the text blocks of short strings (text)
	strsOpen  bool        // strs has its first block
	view      bool        // strings are views of buf, not copies (a describer's decoder)
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
	if d.view {
		return recordString(b)
	}
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
func (d *decoder) errorNode(parent int, name, path string, err error) {
	if parent < 0 {
		return
	}
	d.add(parent, tree.Node{Name: name, Type: "error", Offset: d.off + d.base, Size: d.left(), Section: tree.Error, Path: path, Err: cause(err)})
}

// cause is err without its place: a DecodeError's cause (the node's row
// says where).
func cause(err error) error {
	if de, ok := err.(*wire.DecodeError); ok {
		return de.Err
	}
	return err
}

// add adds n, with its text, as the last child of span parent and
// returns its index.
//
// Not inlined: it is cold (an error, or the text of a few nodes), and
// inlined it was copied into each caller.
//
//go:noinline
func (d *decoder) add(parent int, n tree.Node) int { return d.flat.Row(parent, n) }

// span adds a span of the decoder's describer, of kind k for field fp,
// starting at the current offset, as the last child of parent; its size
// is set when it ends (setSize).
func (d *decoder) span(parent int, k uint8, fp *FieldPlan, arg int, sec tree.Section) int {
	return d.leafID(parent, k, fieldID(fp), arg, d.off, 0, sec)
}

// failed marks span i as an error node for err, over the bytes from its
// start to the end of the input.
func (d *decoder) failed(i int, err error) {
	s := &d.flat.Spans[i]
	s.Flags |= tree.Failed
	s.Section = tree.Error
	s.Size = int32(d.end + d.base - int(s.Off))
	if d.desc.errs == nil {
		d.desc.errs = map[int]error{}
	}
	d.desc.errs[i] = cause(err)
}

// setSize ends span i at the current offset.
func (d *decoder) setSize(i int) { d.flat.Spans[i].Size = int32(d.off+d.base) - d.flat.Spans[i].Off }

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
func (d *decoder) structInto(sp *StructPlan, v *Value, list []Value, node int) error {
	if list == nil {
		if nf := len(sp.Fields); d.reuse && len(v.list()) >= nf {
			list = v.list()[:nf]
		} else {
			list = d.alloc(nf)
		}
	}
	d.initStruct(sp, v, list)
	if node >= 0 {
		d.budget.TakeNodes(len(sp.Wire) + 1)
	}
	return d.structValue(sp, v, list, node)
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

// structValue reads the struct's fields into list, by its steps (the
// encoder's, StructPlan.steps), with their spans under node when it is
// at least 0. The common kinds are read here when their bytes are there
// and well formed; anything else (a short input, a null, a negative
// length, a kind not listed, a struct or an array in a tree, a string
// that says how other fields are read) goes the general way, field,
// which reads it again from the same offset and reports what is wrong
// with the same error.
func (d *decoder) structValue(sp *StructPlan, v *Value, list []Value, node int) error {
	// The offset is kept in off while the fields are read here, and in
	// d.off around anything called.
	buf, off := d.buf[:d.end], d.off
	for i := range sp.steps {
		st := &sp.steps[i]
		fv := &list[st.index]
		b := buf[off:]
		w := -1 // bytes read here, or -1: the general way
		switch st.op {
		case encInt32:
			if len(b) >= 4 {
				setInt(fv, int64(int32(binary.BigEndian.Uint32(b))))
				if node < 0 {
					off += 4
					continue
				}
				w = 4
			}
		case encInt16:
			if len(b) >= 2 {
				setInt(fv, int64(int16(binary.BigEndian.Uint16(b))))
				if node < 0 {
					off += 2
					continue
				}
				w = 2
			}
		case encInt64:
			if len(b) >= 8 {
				setInt(fv, int64(binary.BigEndian.Uint64(b)))
				if node < 0 {
					off += 8
					continue
				}
				w = 8
			}
		case encInt8:
			if len(b) >= 1 {
				setInt(fv, int64(int8(b[0])))
				if node < 0 {
					off++
					continue
				}
				w = 1
			}
		case encBool:
			if len(b) >= 1 {
				setInt(fv, int64(b[0])) // the byte as it was (primitive)
				if node < 0 {
					off++
					continue
				}
				w = 1
			}
		case encUUID:
			if len(b) >= 16 && (node < 0 || st.fp.Topic == 0) {
				d.off = off
				*fv = String(d.text(b[:16]))
				if node < 0 {
					off += 16
					continue
				}
				w = 16
			}
		case encString, encNullableString, encBytes:
			if n, size := fastLen(b, st.op, st.compact); n >= 0 && (node < 0 || st.fp.Topic == 0 && st.fp.Nested == nestNone) {
				d.off = off
				*fv = String(d.text(b[size : size+n]))
				if node < 0 {
					off += size + n
					continue
				}
				w = size + n
			}
		case encStruct:
			if node >= 0 {
				break
			}
			d.off = off
			if err := d.structInto(st.fp.Struct, fv, nil, -1); err != nil {
				return d.fieldFailed(sp, i, list, err)
			}
			off = d.off
			continue
		case encArray:
			if node >= 0 {
				break
			}
			d.off = off
			if ok, err := d.arrayValue(st.fp, fv); ok {
				if err != nil {
					return d.fieldFailed(sp, i, list, err)
				}
				off = d.off
				continue
			}
		}
		if w >= 0 {
			if node >= 0 {
				d.leafID(node, kField, st.id, 0, off, w, d.section)
			}
			off += w
			continue
		}
		d.off = off
		if _, err := d.field(st.fp, fv, node, d.section); err != nil {
			return d.fieldFailed(sp, i, list, err)
		}
		off = d.off
	}
	d.off = off
	if sp.Flexible {
		if off < len(buf) && buf[off] == 0 { // no tagged fields, the most common case
			if node >= 0 {
				d.leafID(node, kTagCount, -1, 0, off, 1, tree.Tagged)
			}
			d.off++
			return nil
		}
		return d.tagged(sp, v, node)
	}
	return nil
}

// fieldID is fp's id, -1 for none.
func fieldID(fp *FieldPlan) int32 {
	if fp == nil {
		return -1
	}
	return fp.id
}

// leafID adds a span of kind k for the field numbered ref (-1 for none),
// size bytes at off, in section sec, under parent, and returns its index.
func (d *decoder) leafID(parent int, k uint8, ref int32, arg, off, size int, sec tree.Section) int {
	fl := d.flat
	i := len(fl.Spans)
	if i == cap(fl.Spans) {
		fl.Grow(1)
	}
	fl.Spans = fl.Spans[:i+1]
	// Field by field into the slot: no struct built aside and copied.
	s := &fl.Spans[i]
	s.Off, s.Size, s.Next, s.Parent = int32(off+d.base), int32(size), int32(i+1), int32(parent)
	s.Ref, s.Arg, s.Who, s.Kind, s.Section, s.Flags = ref, int32(arg), d.who, k, sec, 0
	return i
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
			if err := d.structValue(sp, &list[i], f, -1); err != nil {
				return true, d.elemFailed(fp, v, list, i, err)
			}
		}
		return true, nil
	}
	for i := range list {
		var err error
		if fp.Elem == schemas.KindStruct {
			fields, err = d.structElem(fp, list, i, fields, -1)
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
func (d *decoder) structElem(fp *FieldPlan, list []Value, i int, fields []Value, en int) ([]Value, error) {
	nf := len(fp.Struct.Fields)
	if d.reuse && len(list[i].list()) >= nf {
		return fields, d.structInto(fp.Struct, &list[i], nil, en)
	}
	if len(fields) < nf {
		fields = d.alloc(nf * min(len(list)-i, elemBlock))
	}
	return fields[nf:], d.structInto(fp.Struct, &list[i], fields[:nf:nf], en)
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
func (d *decoder) tagged(sp *StructPlan, v *Value, node int) error {
	start := d.off
	count, n := wire.ConsumeUvarint32(d.buf[d.off:d.end])
	tn := -1
	if node >= 0 {
		tn = d.span(node, kTagCount, nil, 0, tree.Tagged)
	}
	if n < 0 {
		err := d.fail(wire.ParseError(n), "reading the tagged-field count")
		if tn >= 0 {
			d.failed(tn, err)
		}
		return wire.WithPath(err, "tagged_fields")
	}
	d.off += n
	if tn >= 0 {
		d.flat.Spans[tn].Size = int32(n)
	}
	if int(count) > d.left()/2 { // each takes at least a tag and a size byte
		err := d.fail(wire.ErrLength, "%d tagged fields cannot fit in the %d bytes left", count, d.left())
		d.errorNode(tn, "tagged_fields", d.flatPath(tn), err)
		return wire.WithPath(err, "tagged_fields")
	}
	for i := uint32(0); i < count; i++ {
		fieldStart := d.off
		tag, n1 := wire.ConsumeUvarint32(d.buf[d.off:d.end])
		if n1 < 0 {
			err := d.fail(wire.ParseError(n1), "reading a tag")
			d.errorNode(tn, "tag", d.flatPath(tn), err)
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
			d.errorNode(tn, xfmt.Sprintf("tag %d", tag), d.flatPath(tn), err)
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
			if tn >= 0 {
				d.off = fieldStart
				c := d.span(tn, kUnknownTag, nil, 0, tree.Tagged)
				d.off = dataEnd
				d.setSize(c)
			}
			d.off = dataEnd
			continue
		}
		saveEnd := d.end
		d.end = dataEnd
		slot := &v.list()[fp.Index]
		*slot = Value{} // it held the default
		child, err := d.field(fp, slot, tn, tree.Tagged)
		d.end = saveEnd
		if child >= 0 {
			c := &d.flat.Spans[child]
			c.Kind = kTaggedField
			c.Off = int32(fieldStart + d.base)
			c.Size = int32(d.off - fieldStart)
		}
		if err == nil && d.off != dataEnd {
			err = d.fail(wire.ErrLength, "tagged field %s (tag %d) used %d of its %d bytes", fp.Field.Name, tag, d.off-dataStart, size)
		}
		if err != nil {
			return wire.WithPath(err, fp.Field.Name)
		}
	}
	if tn >= 0 {
		d.flat.Spans[tn].Size = int32(d.off - start)
	}
	return nil
}

// flatPath is the path of span i, or "" for none.
//
// Not inlined: it is cold (an error, or the text of a few nodes), and
// inlined it was copied into each caller.
//
//go:noinline
func (d *decoder) flatPath(i int) string {
	if i < 0 {
		return ""
	}
	return d.flat.Path(i)
}

// field reads one field's value into v, a zero value; with a tree (parent
// at least 0), it adds the field's span under parent and returns its
// index (the span holds an error on failure), else -1.
func (d *decoder) field(fp *FieldPlan, v *Value, parent int, sec tree.Section) (int, error) {
	node := -1
	if parent >= 0 {
		node = d.span(parent, kField, fp, 0, sec)
	}
	saveSec := d.section
	d.section = sec
	start := d.off
	var err error
	switch fp.Kind {
	case schemas.KindArray:
		err = d.array(fp, v, node)
	case schemas.KindStruct:
		err = d.structField(fp, v, node)
	default:
		err = d.primitive(fp.Kind, fp.Nullable, fp.Compact, v, nil)
		if err == nil && node >= 0 && fp.Kind == schemas.KindRecords && !v.IsNull() {
			f := d.recordFormat()
			recordSpans(d.flat, node, v.str(), d.off-len(v.str())+d.base, d.set, f, d.a, d.budget)
		}
		if fp.Topic != 0 && err == nil && node >= 0 {
			if fp.Topic == topicByID {
				d.topicID = v.str()
			} else {
				d.topic = v.str()
			}
		}
		if err == nil && node >= 0 && fp.Nested != nestNone && !v.IsNull() {
			d.nested(fp, v.str(), d.off-len(v.str())+d.base, node)
		}
	}
	d.section = saveSec
	if node >= 0 {
		d.flat.Spans[node].Size = int32(d.off - start)
		if err != nil && fp.Kind.Primitive() {
			d.failed(node, err)
		}
	}
	return node, err
}

func isErrorCode(name string) bool {
	return len(name) >= 9 && name[len(name)-9:] == "ErrorCode"
}

// The values a struct field's or an array's span shows (Span.Arg): none
// yet (a failure before it was known), "null", "struct"; an array's
// count is arrayShown plus the count.
const (
	shownNone = iota
	shownNull
	shownStruct
	arrayShown = shownStruct + 1
)

func (d *decoder) structField(fp *FieldPlan, v *Value, node int) error {
	if fp.Nullable {
		start := d.off
		marker, n := wire.ConsumeInt8(d.buf[d.off:d.end])
		if n < 0 {
			*v = Null
			return d.fail(wire.ParseError(n), "reading the presence byte of %s", fp.Field.Name)
		}
		if node >= 0 {
			d.off = start
			c := d.span(node, kPresent, fp, 0, d.section)
			d.flat.Spans[c].Size = 1
		}
		d.off++
		if marker < 0 {
			if node >= 0 {
				d.flat.Spans[node].Arg = shownNull
			}
			*v = Null
			return nil
		}
	}
	if node >= 0 {
		d.flat.Spans[node].Arg = shownStruct
	}
	return d.structInto(fp.Struct, v, nil, node)
}

func (d *decoder) array(fp *FieldPlan, v *Value, node int) error {
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
	// The length's span.
	if node >= 0 {
		d.off = start
		ln := d.span(node, kLength, fp, 0, d.section)
		d.flat.Spans[ln].Size = int32(n)
	}
	d.off += n
	if count == -1 {
		if node >= 0 {
			d.flat.Spans[node].Arg = shownNull
		}
		*v = Null
		if !fp.Nullable {
			d.off = start
			return d.fail(wire.ErrNull, "array is null but %s is not nullable at this version", fp.Field.Name)
		}
		return nil
	}
	if need := count * int64(max(fp.elemMinSize(), 1)); need > int64(d.left()) {
		d.off = start
		return d.fail(wire.ErrLength, "array of %d elements needs at least %d bytes but only %d are left", count, need, d.left())
	}
	// The elements' spans, as many as the message's budget of nodes
	// allows: past it, the elements are decoded without spans and one
	// node says what was left out.
	shown, hidden := int(count), -1 // elements with a node; where those without start
	if node >= 0 {
		shown = min(shown, d.budget.NodesLeft())
		d.budget.TakeNodes(1)
		d.flat.Spans[node].Arg = arrayShown + int32(count)
	}
	leftOut := func(n int) { // the n elements decoded since hidden
		if hidden >= 0 && n > 0 {
			d.add(node, tree.Node{Name: "more", Value: d.plural(n, "more element") + " not shown", Offset: hidden + d.base, Size: d.off - hidden, Section: tree.Error, Path: d.flat.Path(node),
				Err: d.budget.LeftOut(plural(n, "more element"))})
		}
	}
	list, fields := d.arrayList(fp, old, int(count))
	*v = List(list)
	if node >= 0 && fp.Elem == schemas.KindInt32 && shown == len(list) && d.budget.NodesLeft() >= shown {
		// Checked against the bytes left: every element is there.
		b := d.buf[d.off : d.off+4*len(list)]
		for i := range list {
			setInt(&list[i], int64(int32(binary.BigEndian.Uint32(b[4*i:]))))
			d.leafID(node, kElem, fp.id, i, d.off+4*i, 4, d.section)
		}
		d.budget.TakeNodes(len(list))
		d.off += len(b)
		return nil
	}
	for i := range list {
		en := -1
		if node >= 0 && hidden < 0 && (i >= shown || d.budget.NodesLeft() == 0) {
			hidden, shown = d.off, i
		}
		if node >= 0 && hidden < 0 {
			d.budget.TakeNodes(1)
			en = d.span(node, kElem, fp, i, d.section)
		}
		elemStart := d.off
		var err error
		if fp.Elem == schemas.KindStruct {
			fields, err = d.structElem(fp, list, i, fields, en)
		} else {
			err = d.primitive(fp.Elem, false, fp.Compact, &list[i], nil)
		}
		if en >= 0 {
			d.setSize(en)
		}
		if err != nil {
			if hidden >= 0 {
				at := d.off
				d.off = elemStart
				leftOut(i - shown)
				d.errorNode(node, d.a.Indexed(fp.Field.Type.Elem.Name, i), d.a.Indexed(d.flat.Path(node), i), err)
				d.off = at
			}
			if en >= 0 && fp.Elem != schemas.KindStruct {
				d.failed(en, err)
			}
			return d.elemFailed(fp, v, list, i, err)
		}
	}
	leftOut(int(count) - shown)
	return nil
}

// plural is n and what, plural unless n is 1 ("3 bytes"). Not inlined:
// it is cold (an error, or the text of a few nodes), and inlined it was
// copied into each caller.
//
//go:noinline
func plural(n int, what string) string {
	return (*tree.Alloc)(nil).Plural(n, what)
}

// plural is plural with the tree's strings.
//
// Not inlined: it is cold (an error, or the text of a few nodes), and
// inlined it was copied into each caller.
//
//go:noinline
func (d *decoder) plural(n int, what string) string { return d.a.Plural(n, what) }

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
	return d.a.String(appendLengthDetail(d.a.Text(38), k, n, compact))
}

// appendLengthDetail appends lengthDetail's text.
func appendLengthDetail(b []byte, k schemas.Kind, n int, compact bool) []byte {
	prefix := "(int32 len="
	switch {
	case compact:
		prefix, n = "(compact, len+1=", n+1
	case k == schemas.KindString:
		prefix = "(int16 len="
	}
	b = append(b, prefix...)
	b = appendInt(b, int64(n))
	return append(b, ')')
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
		return d.a.String(textesc.AppendEscaped(d.a.Text(len(v.str())+2), v.str(), true))
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
