package records

import (
	"strconv"
	"sync/atomic"

	"kwire/codec/wire"
	"kwire/internal/xfmt"
	"kwire/tree"
)

// The spans Spans makes hold no text: their describer writes it when it
// is asked (tree.Flat.Node), from the bytes of the field and of its
// decompressed streams, which it keeps. Span.Ref is the number of the
// bytes a span lies in (0: the field's; then each decompressed stream),
// Span.Kind what the span is, Span.Arg the kind's number (an index, a
// field of a table, flags).

// Kinds of span.
const (
	kMore        = iota + 1 // what the budget left out (Arg: moreEntries or moreInside)
	kEntryErr               // a RecordBatch that cannot be read (Arg: its index in its set)
	kMessageErr             // a legacy message too small for its header (Arg: its index)
	kPartial                // a batch cut off at the end (Arg: its index)
	kHeaderField            // a header field of an entry read no further (Arg: table<<8 | field)
	kBatch                  // a RecordBatch v2 (Arg: its index)
	kBatchField             // a field of its header (Arg: index in batchFields)
	kAttrBit                // a bit of its attributes (Arg: 0-4 the bits, 5 the unused ones)
	kRecords                // its records (Arg: stream<<3 | note<<1 | recordsDone)
	kRecord                 // a record (Arg: its index)
	kLength                 // a record's fields
	kRecordAttrs
	kTimestampDelta
	kOffsetDelta
	kBytes          // a key, value or header key or value (Arg: bytesKey...)
	kHeaders        // a record's headers
	kHeader         // a header (Arg: its index)
	kErr            // an error (Arg: its name in errNames, and the wrapper flags)
	kMessage        // a legacy message (Arg: its index)
	kMessageField   // a field of its header (Arg: index in messageFields)
	kMessageAttrBit // a bit of its attributes (Arg: 0 compression, 1 timestampType, 2 unused)
	kLegacyBytes    // its key or value (Arg: errKey or errValue, and the wrapper flags)
	kCRC            // the crc field of a batch's or message's header (Arg: the checksum its bytes give)
)

// Arg of kMore: the left-out entries of a set (its path is the set's), or
// records or headers (the path of the batch or record).
const (
	moreInside = iota
	moreEntries
)

// Arg of kRecords: the records were all read (the value counts them).
const recordsDone = 1

// Flags in the Arg of a legacy message's last span (its value, or the
// error span of its trailing bytes) when the message is compressed: it
// is the wrapper, its type the codec; unpacked, the inner message set was
// decompressed (the note of decompress from argNoteShift on).
const (
	argWrapper   = 1 << 8
	argUnpacked  = 1 << 9
	argNoteShift = 10
)

// Arg of kBytes.
const (
	bytesKey = iota
	bytesValue
	bytesHeaderKey
	bytesHeaderValue
	// bytesControl flags the key of a control record: its value names
	// the record's type.
	bytesControl = 1 << 2
)

// Names of kErr spans (their Arg).
const (
	errRecordCount = iota
	errMissing
	errTrailing
	errError
	errKey
	errValue
)

var errNames = [...]string{"recordCount", "missing", "trailing", "error", "key", "value"}

// notes are what decompress says of a framing (kRecords and wrappers keep
// its number).
var notes = [...]string{"", "xerial framing", "raw snappy", "Kafka 0.8 header checksum (KAFKA-3160)"}

func noteCode(note string) int {
	for i, n := range notes {
		if n == note {
			return i
		}
	}
	return 0
}

// describer writes the text of the spans of one Spans call.
type describer struct {
	who  uint16
	path string   // Options.Path
	base int      // the offset of bufs[0]
	bufs [][]byte // the field's bytes, then each decompressed stream
	// errs holds the errors of the spans that have one (tree.Failed),
	// by index: rare, and made where they are found.
	errs map[int32]error
	// last is the path asked for last, of a batch, message or record:
	// the nodes of one record, drawn or made into a tree in turn, share
	// it.
	last atomic.Pointer[ownerPath]
}

// ownerPath is the path of span (a batch, message or record), and that
// of its batch or message for a record (set at entry, -1 for none).
type ownerPath struct {
	span, entry int
	path, set   string
}

// Moved moves the describer's bytes with its spans (tree.Mover).
func (ds *describer) Moved(at, delta int) {
	if ds.base >= at {
		ds.base += delta
	}
}

// stream keeps a decompressed stream and returns its number.
func (ds *describer) stream(b []byte) int32 {
	ds.bufs = append(ds.bufs, b)
	return int32(len(ds.bufs) - 1)
}

func (ds *describer) setErr(i int, err error) {
	if err == nil {
		if ds.errs != nil {
			delete(ds.errs, int32(i))
		}
		return
	}
	if ds.errs == nil {
		ds.errs = map[int32]error{}
	}
	ds.errs[int32(i)] = err
}

// bytes returns the bytes of span s.
func (ds *describer) bytes(s *tree.Span) []byte {
	p := ds.pos(s)
	return ds.bufs[s.Ref][p : p+int(s.Size)]
}

// pos returns where span s starts in its bytes.
func (ds *describer) pos(s *tree.Span) int {
	if s.Ref == 0 {
		return int(s.Off) - ds.base
	}
	return int(s.Off)
}

// mine reports whether span i is one of the describer's.
func (ds *describer) mine(f *tree.Flat, i int) bool {
	return i >= 0 && f.Spans[i].Who == ds.who && f.Spans[i].Kind != 0
}

// child returns the first child of span i of kind k, or -1.
func child(f *tree.Flat, i int, k uint8) int {
	for c, end := i+1, int(f.Spans[i].Next); c < end; c = int(f.Spans[c].Next) {
		if f.Spans[c].Kind == k {
			return c
		}
	}
	return -1
}

// lastChild returns the last child of span i, or -1.
func lastChild(f *tree.Flat, i int) int {
	last := -1
	for c, end := i+1, int(f.Spans[i].Next); c < end; c = int(f.Spans[c].Next) {
		last = c
	}
	return last
}

// header reads the header of the batch span i.
func (ds *describer) header(f *tree.Flat, i int) (Batch, int32) {
	return readHeader(ds.bytes(&f.Spans[i]))
}

// batchOf returns the batch span above span i.
func batchOf(f *tree.Flat, i int) int {
	for f.Spans[i].Kind != kBatch {
		i = int(f.Spans[i].Parent)
	}
	return i
}

// Describe writes the text of span i.
func (ds *describer) Describe(f *tree.Flat, i int, n *tree.Node, ta *tree.Alloc) {
	a := alloc{ta}
	s := &f.Spans[i]
	if s.Flags&tree.Failed != 0 {
		if err := ds.errs[int32(i)]; err != nil {
			n.Err = err
		}
	}
	switch s.Kind {
	case kMore:
		n.Name, n.Value = "more", plural(int(s.Size), "byte")+" not shown"
	case kEntryErr, kMessageErr:
		n.Name, n.Type = "RecordBatch", "error"
		if s.Kind == kMessageErr {
			n.Name = "Message"
		}
	case kPartial:
		n.Name, n.Type = "RecordBatch", "partial"
		rest := ds.bytes(s)
		if len(rest) < minEntry {
			n.Value = xfmt.Sprintf("partial: %d bytes, too few for a batch header", len(rest))
		} else {
			n.Value = xfmt.Sprintf("partial: %d of %d bytes", len(rest), 12+int(wire.Int32At(rest, offLength)))
		}
		n.About = "a batch cut off at the end of the records; brokers may send one at the end of a Fetch response, and consumers skip it"
	case kHeaderField:
		h := batchFields[:]
		if s.Arg>>8 == 1 {
			h = messageFields[:]
		}
		fl := h[s.Arg&0xff]
		n.Name, n.Type, n.Value, n.About = fl.name, fl.typ, fixedValue(ds.bytes(s), fl.size, fl.typ), fl.about
	case kBatch:
		h, count := ds.header(f, i)
		n.Name, n.Type, n.Value = "RecordBatch", "v2", batchSummary(h, count)
	case kBatchField:
		ds.batchField(f, i, n, a)
	case kCRC:
		fl := batchFields[fieldCRC]
		if f.Spans[s.Parent].Kind == kMessage {
			fl = messageFields[msgFieldCRC]
		}
		want, got := wire.Uint32At(ds.bytes(s), 0), uint32(s.Arg)
		n.Name, n.Type, n.Value, n.About = fl.name, fl.typ, xfmt.Sprintf("0x%08x", want), fl.about
		if got == want {
			n.Detail = "(ok)"
		} else {
			n.Detail = xfmt.Sprintf("(mismatch: computed 0x%08x)", got)
		}
	case kAttrBit:
		ds.attrBit(f, i, n)
	case kRecords:
		ds.records(f, i, n)
	case kRecord:
		n.Name, n.Type, n.About = a.Indexed("Record", int(s.Arg)), "Record", recordAbout
		if s.Section == tree.Error {
			n.Type = "error"
		}
		if od := child(f, i, kOffsetDelta); od >= 0 {
			h, _ := ds.header(f, batchOf(f, i))
			delta, _ := varint(ds.bytes(&f.Spans[od]))
			n.Value = a.labeled("offset ", h.BaseOffset+int64(delta))
		}
	case kLength:
		v, _ := varint(ds.bytes(s))
		n.Name, n.Type, n.Value, n.About = "length", "varint", a.Itoa(int64(v)), "bytes of the record after this field"
	case kRecordAttrs:
		n.Name, n.Type, n.Value, n.About = "attributes", "int8", a.Itoa(int64(int8(ds.bytes(s)[0]))), "unused, zero"
	case kTimestampDelta:
		h, _ := ds.header(f, batchOf(f, i))
		delta, _ := varlong(ds.bytes(s))
		abs, about := h.BaseTimestamp+delta, "from baseTimestamp"
		if h.Attributes&AttrLogAppendTime != 0 {
			abs, about = h.MaxTimestamp, "LogAppendTime: every record's timestamp is the batch's maxTimestamp (KIP-32)"
		}
		n.Name, n.Type, n.Value, n.About = "timestampDelta", "varlong", a.numWith(delta, "timestamp", abs), about
	case kOffsetDelta:
		h, _ := ds.header(f, batchOf(f, i))
		delta, _ := varint(ds.bytes(s))
		n.Name, n.Type, n.Value, n.About = "offsetDelta", "varint", a.numWith(int64(delta), "offset", h.BaseOffset+int64(delta)), "from baseOffset"
	case kBytes:
		which := s.Arg &^ bytesControl
		n.Name, n.Type = [...]string{"key", "value", "key", "value"}[which], "bytes"
		if which == bytesHeaderKey {
			n.Type = "string"
		}
		b := ds.bytes(s)
		ln, size := varint(b)
		data := field{size: size, n: ln}.data(b)
		n.Value = a.preview(data, ln < 0)
		n.Detail = a.lenDetail(int64(ln))
		if s.Arg&bytesControl != 0 && len(data) >= 4 {
			n.Value += " (" + ControlTypeName(wire.Int16At(data, 2)) + ")"
		}
	case kHeaders:
		c, _ := varint(ds.bytes(s))
		n.Name, n.Type, n.Value, n.Detail = "headers", "[]Header", headerCountValue(c), headerCountDetail(c)
	case kHeader:
		n.Name, n.Type = a.Indexed("Header", int(s.Arg)), "Header"
		if s.Flags&tree.Failed != 0 {
			n.Type = "error"
		}
		if k := child(f, i, kBytes); k >= 0 {
			var kn tree.Node
			ds.Describe(f, k, &kn, ta)
			n.Value = kn.Value
		}
	case kErr:
		n.Name, n.Type = errNames[s.Arg&0xff], "error"
		ds.wrapper(f, i, n)
	case kMessage:
		ds.message(f, i, n, a)
	case kMessageField:
		ds.messageField(f, i, n, a)
	case kMessageAttrBit:
		ds.messageAttrBit(f, i, n)
	case kLegacyBytes:
		n.Name, n.Type = errNames[s.Arg&0xff], "bytes"
		b := ds.bytes(s)
		ln := wire.Int32At(b, 0)
		var data []byte
		if ln >= 0 {
			data = b[4 : 4+ln]
		}
		n.Value, n.Detail = a.preview(data, ln < 0), "(int32 len="+strconv.Itoa(int(ln))+")"
		ds.wrapper(f, i, n)
	}
}

// batchField describes a field of a batch's header.
func (ds *describer) batchField(f *tree.Flat, i int, n *tree.Node, a alloc) {
	s := &f.Spans[i]
	batch := int(s.Parent)
	h, count := ds.header(f, batch)
	fl := batchFields[s.Arg]
	n.Name, n.Type, n.About = fl.name, fl.typ, fl.about
	switch fl.name {
	case "baseOffset":
		n.Value = a.Itoa(h.BaseOffset)
	case "batchLength":
		n.Value = a.Itoa(int64(f.Spans[batch].Size - 12))
	case "partitionLeaderEpoch":
		n.Value = a.Itoa(int64(h.PartitionLeaderEpoch))
	case "magic":
		n.Value = "2"
	case "attributes":
		attrs := h.Attributes
		codec := Codec(attrs & AttrCodec)
		n.Value = strconv.Itoa(int(attrs))
		detail := codec.String() + ", " + tsType(attrs)
		if attrs&AttrTransactional != 0 {
			detail += ", transactional"
		}
		if attrs&AttrControl != 0 {
			detail += ", control"
		}
		if attrs&AttrDeleteHorizon != 0 {
			detail += ", delete horizon"
		}
		n.Detail = "(" + detail + ")"
	case "lastOffsetDelta":
		n.Value = a.numWith(int64(h.LastOffsetDelta), "offset", h.BaseOffset+int64(h.LastOffsetDelta))
	case "baseTimestamp":
		n.Value = timestamp(h.BaseTimestamp)
	case "maxTimestamp":
		n.Value = timestamp(h.MaxTimestamp)
	case "producerId":
		n.Value = a.Itoa(h.ProducerID)
	case "producerEpoch":
		n.Value = a.Itoa(int64(h.ProducerEpoch))
	case "baseSequence":
		n.Value = a.Itoa(int64(h.BaseSequence))
	case "recordCount":
		n.Value = a.Itoa(int64(count))
	}
}

func tsType(attrs int16) string {
	if attrs&AttrLogAppendTime != 0 {
		return "LogAppendTime"
	}
	return "CreateTime"
}

// attrBits are the attribute bits of a batch (kAttrBit).
var attrBits = [...]struct{ name, typ, about string }{
	{"compression", "bits 0-2", "0 none, 1 gzip, 2 snappy, 3 lz4, 4 zstd (KIP-110)"},
	{"timestampType", "bit 3", "0 CreateTime, 1 LogAppendTime (KIP-32)"},
	{"isTransactional", "bit 4", "written by a transactional producer (KIP-98)"},
	{"isControl", "bit 5", "the batch holds one control record, a COMMIT or ABORT marker (KIP-98)"},
	{"hasDeleteHorizonMs", "bit 6", "baseTimestamp is the delete horizon of tombstones (KIP-534)"},
	{"unused", "bits 7-15", "must be zero"},
}

// attrBit describes a bit of a batch's attributes.
func (ds *describer) attrBit(f *tree.Flat, i int, n *tree.Node) {
	s := &f.Spans[i]
	h, _ := ds.header(f, int(f.Spans[s.Parent].Parent))
	attrs := h.Attributes
	b := attrBits[s.Arg]
	n.Name, n.Type, n.About = b.name, b.typ, b.about
	switch s.Arg {
	case 0:
		codec := Codec(attrs & AttrCodec)
		n.Value = strconv.Itoa(int(codec)) + " (" + codec.String() + ")"
	case 1:
		n.Value = boolBit(attrs&AttrLogAppendTime) + " (" + tsType(attrs) + ")"
	case 2:
		n.Value = strconv.FormatBool(attrs&AttrTransactional != 0)
	case 3:
		n.Value = strconv.FormatBool(attrs&AttrControl != 0)
	case 4:
		n.Value = strconv.FormatBool(attrs&AttrDeleteHorizon != 0)
	case 5:
		n.Value = strconv.Itoa(int(uint16(attrs) >> 7))
	}
}

// records describes the records of a batch.
func (ds *describer) records(f *tree.Flat, i int, n *tree.Node) {
	s := &f.Spans[i]
	h, count := ds.header(f, int(s.Parent))
	n.Name, n.Type = "records", "[]Record"
	if codec := h.Codec(); codec != None {
		n.Type = codec.String()
		if s.Flags&tree.Failed != 0 {
			n.Value = plural(int(s.Size), "byte") + " compressed"
			return
		}
		n.Value = xfmt.Sprintf("%s compressed, %s decompressed", plural(int(s.Size), "byte"), plural(len(ds.bufs[s.Arg>>3]), "byte"))
		if note := notes[s.Arg>>1&3]; note != "" {
			n.Detail = "(" + note + ")"
		}
		n.About = "the records follow decompressed; their offsets count from the start of the decompressed bytes"
	}
	if s.Arg&recordsDone != 0 {
		n.Value = joinValue(n.Value, plural(int(count), "record"))
	}
}

// wrapper describes the last span of a compressed legacy message (its
// value, or its trailing bytes): the compressed message set.
func (ds *describer) wrapper(f *tree.Flat, i int, n *tree.Node) {
	s := &f.Spans[i]
	if s.Arg&argWrapper == 0 {
		return
	}
	msg := ds.bytes(&f.Spans[s.Parent])
	n.Type = Codec(msg[17] & AttrCodec).String()
	if s.Arg&argUnpacked == 0 {
		return
	}
	// The compressed bytes are the value's, after the key.
	p := legacyHeaderV0 - 8
	if msg[offMagic] == 1 {
		p = legacyHeaderV1 - 8
	}
	p += 4 + max(int(wire.Int32At(msg, p)), 0)
	payload := int(wire.Int32At(msg, p))
	out := 0
	if c := i + 1; c < int(s.Next) {
		out = len(ds.bufs[f.Spans[c].Ref])
	}
	n.Value = xfmt.Sprintf("%s compressed, %s decompressed", plural(payload, "byte"), plural(out, "byte"))
	if note := notes[s.Arg>>argNoteShift&3]; note != "" {
		n.Detail += " (" + note + ")"
	}
	n.About = "a compressed message set; its offsets count from the start of the decompressed bytes"
}

// message describes a legacy message.
func (ds *describer) message(f *tree.Flat, i int, n *tree.Node, a alloc) {
	b := ds.bytes(&f.Spans[i])
	n.Name, n.Type = "Message", "v"+strconv.Itoa(int(int8(b[offMagic])))
	n.Value = a.labeled("offset ", wire.Int64At(b, 0))
	last := lastChild(f, i)
	if last < 0 || !ds.mine(f, last) || f.Spans[last].Arg&argWrapper == 0 {
		return
	}
	n.Value += ", " + Codec(b[17]&AttrCodec).String() + " wrapper"
	if f.Spans[last].Arg&argUnpacked != 0 {
		n.Value += " of " + plural(f.ChildCount(last), "message")
	}
}

// messageField describes a field of a legacy message's header.
func (ds *describer) messageField(f *tree.Flat, i int, n *tree.Node, a alloc) {
	s := &f.Spans[i]
	fl := messageFields[s.Arg]
	b := ds.bytes(&f.Spans[s.Parent])
	n.Name, n.Type, n.Value, n.About = fl.name, fl.typ, fixedValue(ds.bytes(s), fl.size, fl.typ), fl.about
	switch s.Arg {
	case msgFieldOffset:
		// In a magic 1 wrapper the inner offsets count from 0 and the
		// wrapper's offset is the last inner message's (KIP-31).
		if w := int(f.Spans[s.Parent].Parent); ds.mine(f, w) && f.Spans[w].Arg&argWrapper != 0 {
			outer := ds.bytes(&f.Spans[f.Spans[w].Parent])
			if outer[offMagic] >= 1 {
				offset := wire.Int64At(b, 0)
				last := lastOffset(ds.bufs[s.Ref])
				n.Value = a.numWith(offset, "absolute", wire.Int64At(outer, 0)-last+offset)
			}
		}
	case msgFieldAttributes:
		attrs := int8(b[17])
		detail := Codec(attrs & AttrCodec).String()
		if b[offMagic] == 1 {
			detail += ", " + tsType(int16(attrs))
		}
		n.Value, n.Detail = strconv.Itoa(int(attrs)), "("+detail+")"
	case msgFieldTimestamp:
		n.Value = timestamp(wire.Int64At(b, 18))
	}
}

// messageAttrBit describes a bit of a legacy message's attributes.
func (ds *describer) messageAttrBit(f *tree.Flat, i int, n *tree.Node) {
	s := &f.Spans[i]
	b := ds.bytes(&f.Spans[f.Spans[s.Parent].Parent])
	attrs, magic := int8(b[17]), int8(b[offMagic])
	switch s.Arg {
	case 0:
		codec := Codec(attrs & AttrCodec)
		n.Name, n.Type, n.Value = "compression", "bits 0-2", strconv.Itoa(int(codec))+" ("+codec.String()+")"
		n.About = "0 none, 1 gzip, 2 snappy, 3 lz4"
	case 1:
		n.Name, n.Type, n.Value = "timestampType", "bit 3", boolBit(int16(attrs&AttrLogAppendTime))+" ("+tsType(int16(attrs))+")"
		n.About = "0 CreateTime, 1 LogAppendTime (KIP-32)"
	case 2:
		from := 3
		if magic == 1 {
			from = 4
		}
		n.Name, n.Type, n.Value = "unused", xfmt.Sprintf("bits %d-7", from), strconv.Itoa(int(uint8(attrs)>>from))
		n.About = "must be zero"
	}
}

// Path returns the field path of span i: that of its batch or message
// ("Records[0]", "Records[0].messages[1]"), or of its record
// ("Records[0].records[3]").
func (ds *describer) Path(f *tree.Flat, i int, _ string, _ *tree.Alloc) string {
	return ds.pathOf(f, i)
}

// pathOf is Path: records' paths are their batch's or message's, not
// their parent's and a segment.
func (ds *describer) pathOf(f *tree.Flat, i int) string {
	if s := &f.Spans[i]; s.Kind == kMore && s.Arg == moreEntries {
		return ds.setPath(f, int(s.Parent))
	}
	j := i
	for k := f.Spans[j].Kind; k != kRecord && k != kBatch && k != kEntryErr && k != kMessageErr && k != kPartial && k != kMessage; k = f.Spans[j].Kind {
		j = int(f.Spans[j].Parent)
	}
	l := ds.last.Load()
	if l != nil && l.span == j {
		return l.path
	}
	s := &f.Spans[j]
	if s.Kind != kRecord {
		p := ds.setPath(f, int(s.Parent)) + "[" + strconv.Itoa(int(s.Arg)) + "]"
		ds.last.Store(&ownerPath{span: j, entry: -1, path: p})
		return p
	}
	// A record: its batch's path is the one asked for last, or that
	// record's batch's.
	entry, set := int(s.Parent), ""
	for k := f.Spans[entry].Kind; k != kBatch; k = f.Spans[entry].Kind {
		entry = int(f.Spans[entry].Parent)
	}
	switch {
	case l != nil && l.span == entry:
		set = l.path
	case l != nil && l.entry == entry:
		set = l.set
	default:
		set = ds.pathOf(f, entry)
	}
	p := set + ".records[" + strconv.Itoa(int(s.Arg)) + "]"
	ds.last.Store(&ownerPath{span: j, entry: entry, path: p, set: set})
	return p
}

// setPath is the path of the set of entries under span p: the field's,
// or a wrapper's messages.
func (ds *describer) setPath(f *tree.Flat, p int) string {
	if ds.mine(f, p) {
		return ds.pathOf(f, p) + ".messages"
	}
	return ds.path
}
