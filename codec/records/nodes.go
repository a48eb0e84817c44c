package records

import (
	"errors"
	"strconv"
	"time"

	"kwire/codec/wire"
	"kwire/internal/xfmt"
	"kwire/tree"
)

// Options say how Spans and Parse label and bound the tree.
type Options struct {
	// Path is the records field's path in its message; batch and record
	// nodes extend it as the JSON form nests them ("Records[0].records[3]").
	Path string
	// Relative marks every offset as counting from the start of a
	// decompressed stream rather than the buffer shown.
	Relative bool
	// Control decodes control record keys and values with the schema set;
	// nil uses the built-in layouts of ControlRecordType and EndTxnMarker.
	Control ControlFunc
	// Record, when set, decodes the keys and values of the records of
	// batches that are not control batches (an internal topic's records).
	Record RecordFunc
	// RecordFilter, when set with Record, is asked first, with the key
	// and value without their tree (Part.Flat nil), whether Record would
	// decode them; when it says no, Record is not called and the key and
	// value stay spans, their text not made (as a guess at a topic's
	// format passes over the records of an ordinary topic).
	RecordFilter func(key, value Part) bool
	// Budget bounds what the field may spend, shared with the other
	// records fields of its message (see Limits); nil gives the call a
	// budget of its own with the default limits.
	Budget *Budget
	// Alloc, when set, is the allocator of the tree the spans join, for
	// the strings of the text that control records and the hooks keep
	// (their nodes then share its blocks); nil gives the call one of its
	// own.
	Alloc *tree.Alloc
}

// decoder holds what one Spans or Parse call shares: the options, the
// allocator, and the message's budget; for Spans, the tree and the
// describer of its spans.
type decoder struct {
	o     Options
	a     alloc
	bg    *Budget
	f     *tree.Flat
	ds    *describer
	who   uint16 // ds's number in f
	depth int    // nesting of compressed legacy message sets
	// pend is the value whose span follows its key's nodes, for the
	// hooks; valueFn, its valueSpan.
	pend    pendingValue
	valueFn func() int
	// reuse: the caller is done with each entry's batch and stream
	// before the next entry is read (AppendJSON), so that their memory
	// is reused.
	reuse   bool
	recs    []Record     // the records of the last batch read, with reuse
	hdrs    []Header     // and their headers
	scratch []byte       // the encoding of what exact compares
	shared  bool         // the last batch's records are seen's
	key     seenKey      // the last batch's key in seen
	jsonHit *recordsJSON // the last batch's records' JSON, from seen
}

func newDecoder(o Options) *decoder {
	return &decoder{o: o, a: alloc{o.Alloc}, bg: o.Budget.orNew()}
}

// Spans adds the spans of the contents of a records field whose bytes b
// start at offset base to f, as children of span parent (-1: roots): one
// per RecordBatch or legacy message, then, if the bytes end inside one, a
// partial batch. Problems inside a batch (a CRC mismatch, a bad record, a
// failed decompression) are spans with an error; the batches around them
// are still shown. The spans' text is written when it is asked for, by a
// describer that keeps b and the decompressed streams: b must not change
// while f is in use. Control records and the keys and values
// Options.Record decodes have their fields' nodes under them, written by
// the hooks into f (Options.Control, Options.Record). Spans does not
// call f.Done.
func Spans(f *tree.Flat, parent int, b []byte, base int, o Options) { spans(f, parent, b, base, o) }

// spans is Spans, returning the describer of the spans (nil when there is
// none).
func spans(f *tree.Flat, parent int, b []byte, base int, o Options) *describer {
	if o.Alloc == nil {
		o.Alloc = new(tree.Alloc)
	}
	d := newDecoder(o)
	ds := &describer{path: o.Path, base: base, bufs: [][]byte{b}}
	who, ok := f.Describer(ds)
	if !ok {
		f.Row(parent, tree.Node{Name: "records", Type: "error", Offset: base, Size: len(b), Section: tree.Error,
			Relative: o.Relative, Path: o.Path, Err: errTooManyFields})
		return nil
	}
	ds.who, d.who = who, who
	d.f, d.ds = f, ds
	d.reserve(d.estimate(b))
	d.walkEntries(parent, b, span{base: base, rel: o.Relative})
	return ds
}

// span places a stream: offsets are base + position, marked relative
// when the stream is a decompressed one; buf is the stream's number in
// the describer (0: the field's bytes).
type span struct {
	base int
	rel  bool
	buf  int32
}

// spansPerRecord is what a record usually takes: itself, its length,
// attributes, deltas, key, value, headers, and one header of three.
const spansPerRecord = 11

// estimate is how many spans the entries of s will take, from their
// headers, within the budget: the tree is then one allocation.
func (d *decoder) estimate(s []byte) int {
	n := 0
	for len(s) > 0 {
		b, next, err := frameEntry(s)
		if !next {
			break
		}
		n += len(batchFields) + 8
		if err == nil && b[offMagic] == 2 && len(b) >= BatchHeaderSize {
			count := int(wire.Int32At(b, offRecordCount))
			bound := (len(b) - BatchHeaderSize) / minRecordSize
			if Codec(uint16(wire.Int16At(b, offAttributes))&AttrCodec) != None {
				bound *= 64 // what compression may hide, within the budget
			}
			n += spansPerRecord * max(min(count, bound, d.bg.recordsLeft()), 0)
		}
		s = s[len(b):]
	}
	return min(n+16, d.bg.NodesLeft()+16)
}

// reserve makes room for n more spans.
func (d *decoder) reserve(n int) {
	if s := d.f.Spans; cap(s)-len(s) < n {
		c := len(s) + n
		if len(s) > 0 {
			c += c / 8 // room for the next batch's, which did not say
		}
		d.f.Spans = append(make([]tree.Span, 0, c), s...)
	}
}

// add appends a span of the describer's kind and arg over s[pos:pos+size]
// under parent, charged to the budget, and returns its index.
func (d *decoder) add(parent int, kind uint8, arg int, sp span, pos, size int, sec tree.Section) int {
	d.bg.node++
	var flags tree.Flags
	if sp.rel {
		flags = tree.InStream
	}
	// As f.Add does, in place.
	i := len(d.f.Spans)
	d.f.Spans = append(d.f.Spans, tree.Span{Off: int32(sp.base + pos), Size: int32(size), Next: int32(i + 1), Parent: int32(parent),
		Ref: sp.buf, Arg: int32(arg), Who: d.who, Kind: kind, Section: sec, Flags: flags})
	return i
}

// fail sets the error of span i.
func (d *decoder) fail(i int, err error) {
	d.f.Spans[i].Flags |= tree.Failed
	d.ds.setErr(i, err)
}

// errSpan is an error span named name (errNames) over s[pos:end].
func (d *decoder) errSpan(parent int, sp span, name, pos, end int, err error) int {
	i := d.add(parent, kErr, name, sp, pos, end-pos, tree.Error)
	d.fail(i, err)
	return i
}

// more is the span of what is left out of s from pos on, once the
// message's budget of records or nodes is spent; what says what it holds
// ("batches", or "37 more records").
func (d *decoder) more(parent int, s []byte, pos int, sp span, what string, level int) {
	i := d.add(parent, kMore, level, sp, pos, len(s)-pos, tree.Error)
	d.fail(i, d.bg.LeftOut(what+" ("+plural(len(s)-pos, "byte")+")"))
}

// Sizes of the legacy message header: offset, size, crc, magic,
// attributes, [timestamp], key length, value length.
const (
	legacyHeaderV0 = 8 + 4 + 4 + 1 + 1 + 4 + 4
	legacyHeaderV1 = legacyHeaderV0 + 8
	// minEntry is what entry needs to read the length and magic.
	minEntry = offMagic + 1
)

// headerField is one fixed-size field of a batch or message header.
type headerField struct {
	name, typ string
	at, size  int
	about     string
}

var batchFields = [...]headerField{
	{"baseOffset", "int64", 0, 8, "offset of the first record"},
	{"batchLength", "int32", offLength, 4, "bytes that follow this field"},
	{"partitionLeaderEpoch", "int32", offLeaderEpoch, 4, "leader epoch of the partition when it was appended; -1 from producers (KIP-101)"},
	{"magic", "int8", offMagic, 1, "format version: 2 is RecordBatch (KIP-98)"},
	{"crc", "uint32", offCRC, 4, "CRC-32C (Castagnoli) of the bytes from attributes to the end of the batch"},
	{"attributes", "int16", offAttributes, 2, "compression, timestamp type, transactional, control, delete horizon"},
	{"lastOffsetDelta", "int32", offLastDelta, 4, "offset of the last record, from baseOffset"},
	{"baseTimestamp", "int64", offBaseTimestamp, 8, "timestamp of the first record (ms); the delete horizon when that bit is set (KIP-534)"},
	{"maxTimestamp", "int64", offMaxTimestamp, 8, "largest timestamp in the batch; the append time for LogAppendTime (KIP-32)"},
	{"producerId", "int64", offProducerID, 8, "idempotent or transactional producer id, -1 for none (KIP-98)"},
	{"producerEpoch", "int16", offProducerEpoch, 2, "epoch of the producer id, -1 for none"},
	{"baseSequence", "int32", offBaseSequence, 4, "sequence number of the first record, -1 for none"},
	{"recordCount", "int32", offRecordCount, 4, "number of records that follow"},
}

var messageFields = [...]headerField{
	{"offset", "int64", 0, 8, "offset of the message; in a compressed magic 1 set, relative to the wrapper (KIP-31)"},
	{"messageSize", "int32", offLength, 4, "bytes that follow this field"},
	{"crc", "uint32", 12, 4, "CRC-32 of the bytes from magic to the end of the message"},
	{"magic", "int8", offMagic, 1, "format version: 0, or 1 with a timestamp (KIP-32)"},
	{"attributes", "int8", 17, 1, "compression, and in magic 1 the timestamp type"},
	{"timestamp", "int64", 18, 8, "create time or log append time (ms), -1 for none (KIP-32)"},
}

// fixedValue formats a big-endian integer field.
func fixedValue(b []byte, size int, typ string) string {
	var v int64
	switch size {
	case 1:
		v = int64(int8(b[0]))
	case 2:
		v = int64(wire.Int16At(b, 0))
	case 4:
		if typ == "uint32" {
			return xfmt.Sprintf("0x%08x", wire.Uint32At(b, 0))
		}
		v = int64(wire.Int32At(b, 0))
	case 8:
		v = wire.Int64At(b, 0)
	}
	return strconv.FormatInt(v, 10)
}

// timestamp formats a millisecond timestamp with its UTC date.
func timestamp(ms int64) string {
	if ms < 0 {
		return strconv.FormatInt(ms, 10) + " (none)"
	}
	if ms > 253402300799999 { // after year 9999
		return strconv.FormatInt(ms, 10)
	}
	return strconv.FormatInt(ms, 10) + " (" + time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z") + ")"
}

// headerSpans adds the spans of the header fields that lie wholly in b
// (for a batch that cannot be read further).
func (d *decoder) headerSpans(n int, b []byte, pos int, sp span, magic int8) {
	table, fields := 0, batchFields[:]
	if magic == 0 || magic == 1 {
		table, fields = 1, messageFields[:5+int(magic)]
	}
	for i, f := range fields {
		if f.at+f.size > len(b) {
			break
		}
		d.add(n, kHeaderField, table<<8|i, sp, pos+f.at, f.size, tree.RecordBatch)
	}
}

// Indexes of batchFields.
const (
	fieldCRC        = 4
	fieldAttributes = 5
)

func batchSummary(h Batch, count int32) string {
	s := plural(int(count), "record")
	switch {
	case count > 0:
		s = xfmt.Sprintf("offsets %d-%d, %s", h.BaseOffset, h.BaseOffset+int64(h.LastOffsetDelta), s)
	default:
		s = xfmt.Sprintf("offset %d, %s", h.BaseOffset, s)
	}
	if c := h.Codec(); c != None {
		s += ", " + c.String()
	}
	if h.Attributes&AttrControl != 0 {
		s += ", control"
	} else if h.Attributes&AttrTransactional != 0 {
		s += ", transactional"
	}
	return s
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

func boolBit(v int16) string {
	if v != 0 {
		return "1"
	}
	return "0"
}

// Names and types of record nodes, shared by every record.
const (
	recordAbout = "a record: its length, then attributes, deltas, key, value and headers"
)

func joinValue(a, b string) string {
	if a == "" {
		return b
	}
	return a + ", " + b
}

var (
	headerCountDetails = [...]string{"(varint count=0)", "(varint count=1)", "(varint count=2)", "(varint count=3)"}
	headerCountValues  = [...]string{"0 headers", "1 header", "2 headers", "3 headers"}
)

func headerCountValue(n int32) string {
	if n >= 0 && int(n) < len(headerCountValues) {
		return headerCountValues[n]
	}
	return plural(int(n), "header")
}

func headerCountDetail(n int32) string {
	if n >= 0 && int(n) < len(headerCountDetails) {
		return headerCountDetails[n]
	}
	return "(varint count=" + strconv.Itoa(int(n)) + ")"
}

// keyValue adds the spans of a record's key and value, decoding them into
// nodes under their spans when they are a control record's or
// Options.Record's.
func (d *decoder) keyValue(rec int, s []byte, sp span, v recordView, control bool) {
	if !control && !d.hooked() {
		d.bytesSpan(rec, sp, bytesKey, v.key)
		d.bytesSpan(rec, sp, bytesValue, v.value)
		return
	}
	arg := bytesKey
	if control {
		arg |= bytesControl
	}
	key := d.bytesSpan(rec, sp, arg, v.key)
	d.expectValue(rec, kBytes, bytesValue, sp, v.value.at, v.value.end()-v.value.at)
	if control {
		d.control(key, d.part(s, 0, v.key, sp), d.part(s, 0, v.value, sp))
	} else {
		d.inner(key, d.part(s, 0, v.key, sp), d.part(s, 0, v.value, sp))
	}
	d.valueSpan()
}

// bytesSpan is the span of a key, value or header field (which says
// bytesKey...).
func (d *decoder) bytesSpan(parent int, sp span, which int, f field) int {
	return d.add(parent, kBytes, which, sp, f.at, f.end()-f.at, tree.Record)
}

var errTooManyFields = errors.New("too many records fields in one tree (65,535 at most)")
