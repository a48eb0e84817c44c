package records

import (
	"encoding/binary"
	"errors"
	"strconv"
	"time"

	"kwire/internal/xfmt"
	"kwire/tree"
)

// ControlFunc decodes part of a control record with a schema of the
// protocol's schema set: "ControlRecordType" (a key, after its int16
// version), "EndTxnMarker" (a COMMIT or ABORT value, after its int16
// version), or the KRaft values "LeaderChangeMessage",
// "SnapshotHeaderRecord", "SnapshotFooterRecord", "KRaftVersionRecord" and
// "VotersRecord" (version 0, no prefix). b starts at offset base; relative
// says base counts from a decompressed stream. It returns the nodes of the
// fields, the bytes they used, and ErrNoSchema when the set lacks the
// schema (the built-in layout is then used, where there is one).
type ControlFunc func(schema string, version int16, b []byte, base int, relative bool) (nodes []*tree.Node, used int, err error)

// ErrNoSchema is returned by a ControlFunc whose schema set lacks the
// schema asked for.
var ErrNoSchema = errors.New("no such schema in the set")

// Part is the key or value of a record, for a RecordFunc: its node, its
// bytes (nil when null) and where they start (an offset in the buffer
// shown, or in a decompressed stream when Relative).
type Part struct {
	Node     *tree.Node
	Data     []byte
	Null     bool
	Base     int
	Relative bool
	Budget   *Budget     // the message's
	Alloc    *tree.Alloc // the tree's: the nodes made join it
}

// RecordFunc decodes the key and value of an ordinary record of a batch
// (not a control record) into children of their nodes, as the records of
// Kafka's internal topics carry a format of their own, charging the nodes
// it makes to Part.Budget. The caller sets their paths to the record's.
type RecordFunc func(key, value Part)

// Options say how Nodes labels and bounds its tree.
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
	// Budget bounds what the field may spend, shared with the other
	// records fields of its message (see Limits); nil gives the call a
	// budget of its own with the default limits.
	Budget *Budget
	// Alloc, when set, is the allocator of the tree the nodes join (they
	// then share its blocks); nil gives the call one of its own.
	Alloc *tree.Alloc
}

// decoder holds what one Nodes or Parse call shares: the options, the
// allocator, and the message's budget.
type decoder struct {
	o     Options
	a     alloc
	bg    *Budget
	depth int    // nesting of compressed legacy message sets
	outer *outer // the wrapper of the message set being read, if any
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

// Nodes returns the tree nodes of the contents of a records field whose
// bytes b start at offset base: one node per RecordBatch or legacy
// message, then, if the bytes end inside one, a partial batch. Problems
// inside a batch (a CRC mismatch, a bad record, a failed decompression)
// are nodes with Err set; the batches around them are still shown.
func Nodes(b []byte, base int, o Options) []*tree.Node {
	if o.Alloc == nil {
		o.Alloc = new(tree.Alloc)
	}
	d := newDecoder(o)
	return d.entries(b, span{base: base, rel: o.Relative}, o.Path)
}

// span places a stream: node offsets are base + position, marked relative
// when the stream is a decompressed one.
type span struct {
	base int
	rel  bool
}

// node returns a node with the common fields set.
func (d *decoder) node(sp span, name, typ, val string, pos, size int, sec tree.Section, path string) *tree.Node {
	d.bg.node++
	n := d.a.Node()
	n.Name, n.Type, n.Value = name, typ, val
	n.Offset, n.Size, n.Section, n.Path = sp.base+pos, size, sec, path
	if sp.rel {
		n.Relative = true
	}
	return n
}

// errNode is an error node over s[pos:end].
func (d *decoder) errNode(sp span, name string, pos, end int, msg, path string) *tree.Node {
	n := d.node(sp, name, "error", "", pos, end-pos, tree.Error, path)
	n.Err = msg
	return n
}

// entries returns the nodes of the batches and messages in s.
func (d *decoder) entries(s []byte, sp span, path string) []*tree.Node {
	out := d.a.Children(min(len(s)/BatchHeaderSize+1, 16))
	for pos, i := 0, 0; pos < len(s); i++ {
		if d.bg.spent() {
			out = append(out, d.more(s, pos, sp, "batches", path))
			break
		}
		n, size := d.entry(s, pos, sp, d.a.Indexed(path, i))
		out = append(out, n)
		if size <= 0 {
			break
		}
		pos += size
	}
	return out
}

// more is the node of what is left out of s from pos on, once the
// message's budget of records or nodes is spent; what says what it holds
// ("batches", or "37 more records").
func (d *decoder) more(s []byte, pos int, sp span, what, path string) *tree.Node {
	n := d.node(sp, "more", "", plural(len(s)-pos, "byte")+" not shown", pos, len(s)-pos, tree.Error, path)
	n.Err = d.bg.LeftOut(what + " (" + plural(len(s)-pos, "byte") + ")")
	return n
}

// Sizes of the legacy message header: offset, size, crc, magic,
// attributes, [timestamp], key length, value length.
const (
	legacyHeaderV0 = 8 + 4 + 4 + 1 + 1 + 4 + 4
	legacyHeaderV1 = legacyHeaderV0 + 8
	// minEntry is what entry needs to read the length and magic.
	minEntry = offMagic + 1
)

// entry returns the node of the batch or message at s[pos:] and its size,
// or a size <= 0 when nothing can follow it.
func (d *decoder) entry(s []byte, pos int, sp span, path string) (*tree.Node, int) {
	rest := s[pos:]
	if len(rest) < minEntry {
		return d.partial(rest, pos, sp, path, -1), -1
	}
	length := int32(binary.BigEndian.Uint32(rest[offLength:]))
	magic := int8(rest[offMagic])
	if length < 0 {
		n := d.node(sp, "RecordBatch", "error", "", pos, len(rest), tree.Error, path)
		n.Err = xfmt.Sprintf("length %d is negative; the rest of the records (%d bytes) cannot be read", length, len(rest))
		d.headerNodes(n, rest, pos, sp, path, magic)
		return n, -1
	}
	total := 12 + int(length)
	if total > len(rest) {
		return d.partial(rest, pos, sp, path, total), -1
	}
	b := rest[:total]
	if total < minEntry {
		n := d.node(sp, "RecordBatch", "error", "", pos, total, tree.Error, path)
		n.Err = xfmt.Sprintf("length %d is too small to hold a magic byte", length)
		d.headerNodes(n, b, pos, sp, path, 2)
		return n, total
	}
	switch magic {
	case 2:
		return d.batch(b, pos, sp, path), total
	case 0, 1:
		return d.message(b, pos, sp, path), total
	}
	n := d.node(sp, "RecordBatch", "error", "", pos, total, tree.Error, path)
	n.Err = xfmt.Sprintf("magic %d is not a record format (0 and 1 are message sets, 2 is RecordBatch)", magic)
	d.headerNodes(n, b, pos, sp, path, 2)
	return n, total
}

// partial is a batch cut off at the end of the records; total is the size
// its header claims, or -1 when too little of it is there to say.
func (d *decoder) partial(rest []byte, pos int, sp span, path string, total int) *tree.Node {
	n := d.node(sp, "RecordBatch", "partial", "", pos, len(rest), tree.RecordBatch, path)
	if total < 0 {
		n.Value = xfmt.Sprintf("partial: %d bytes, too few for a batch header", len(rest))
	} else {
		n.Value = xfmt.Sprintf("partial: %d of %d bytes", len(rest), total)
	}
	n.About = "a batch cut off at the end of the records; brokers may send one at the end of a Fetch response, and consumers skip it"
	magic := int8(2)
	if len(rest) > offMagic {
		magic = int8(rest[offMagic])
	}
	d.headerNodes(n, rest, pos, sp, path, magic)
	return n
}

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

// headerNodes adds the nodes of the header fields that lie wholly in b
// (for a batch that cannot be read further).
func (d *decoder) headerNodes(n *tree.Node, b []byte, pos int, sp span, path string, magic int8) {
	fields := batchFields[:]
	if magic == 0 || magic == 1 {
		fields = messageFields[:5+int(magic)]
	}
	for _, f := range fields {
		if f.at+f.size > len(b) {
			break
		}
		c := d.node(sp, f.name, f.typ, fixedValue(b[f.at:], f.size, f.typ), pos+f.at, f.size, tree.RecordBatch, path)
		c.About = f.about
		n.Add(c)
	}
}

// fixedValue formats a big-endian integer field.
func fixedValue(b []byte, size int, typ string) string {
	var v int64
	switch size {
	case 1:
		v = int64(int8(b[0]))
	case 2:
		v = int64(int16(binary.BigEndian.Uint16(b)))
	case 4:
		if typ == "uint32" {
			return xfmt.Sprintf("0x%08x", binary.BigEndian.Uint32(b))
		}
		v = int64(int32(binary.BigEndian.Uint32(b)))
	case 8:
		v = int64(binary.BigEndian.Uint64(b))
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

// batch returns the node of the RecordBatch v2 b (exactly its bytes), at
// s position pos.
func (d *decoder) batch(b []byte, pos int, sp span, path string) *tree.Node {
	n := d.node(sp, "RecordBatch", "v2", "", pos, len(b), tree.RecordBatch, path)
	if len(b) < BatchHeaderSize {
		n.Type, n.Section = "error", tree.Error
		n.Err = xfmt.Sprintf("batchLength %d is too small for a RecordBatch v2 header (49 bytes after the length)", len(b)-12)
		d.headerNodes(n, b, pos, sp, path, 2)
		return n
	}
	h, count := readHeader(b)
	codec := h.Codec()
	kids := d.a.Children(len(batchFields) + 2)
	for _, f := range batchFields {
		c := d.node(sp, f.name, f.typ, "", pos+f.at, f.size, tree.RecordBatch, path)
		c.About = f.about
		switch f.name {
		case "baseOffset":
			c.Value = d.a.Itoa(h.BaseOffset)
		case "batchLength":
			c.Value = d.a.Itoa(int64(len(b) - 12))
		case "partitionLeaderEpoch":
			c.Value = d.a.Itoa(int64(h.PartitionLeaderEpoch))
		case "magic":
			c.Value = "2"
		case "crc":
			c.Value = xfmt.Sprintf("0x%08x", h.CRC)
			if got := CRC32C(b[offAttributes:]); got == h.CRC {
				c.Detail = "(ok)"
			} else {
				c.Detail = xfmt.Sprintf("(mismatch: computed 0x%08x)", got)
				c.Err = xfmt.Sprintf("CRC-32C mismatch: the batch says 0x%08x, its bytes give 0x%08x", h.CRC, got)
			}
		case "attributes":
			d.attributes(c, h.Attributes, pos, sp, path)
		case "lastOffsetDelta":
			c.Value = d.a.numWith(int64(h.LastOffsetDelta), "offset", h.BaseOffset+int64(h.LastOffsetDelta))
		case "baseTimestamp":
			c.Value = timestamp(h.BaseTimestamp)
		case "maxTimestamp":
			c.Value = timestamp(h.MaxTimestamp)
		case "producerId":
			c.Value = d.a.Itoa(h.ProducerID)
		case "producerEpoch":
			c.Value = d.a.Itoa(int64(h.ProducerEpoch))
		case "baseSequence":
			c.Value = d.a.Itoa(int64(h.BaseSequence))
		case "recordCount":
			c.Value = d.a.Itoa(int64(count))
		}
		kids = append(kids, c)
	}
	n.Children = kids
	n.Value = batchSummary(h, count)
	payload := b[BatchHeaderSize:]
	rn := d.node(sp, "records", "[]Record", "", pos+BatchHeaderSize, len(payload), tree.Record, path)
	n.Add(rn)
	stream, ssp := payload, span{base: sp.base + pos + BatchHeaderSize, rel: sp.rel}
	if codec != None {
		rn.Type = codec.String()
		out, note, err := d.decompress(codec, payload, 2, getStream())
		defer putStream(out)
		if err != nil {
			rn.Section, rn.Err = tree.Error, err.Error()
			rn.Value = plural(len(payload), "byte") + " compressed"
			return n
		}
		rn.Value = xfmt.Sprintf("%s compressed, %s decompressed", plural(len(payload), "byte"), plural(len(out), "byte"))
		if note != "" {
			rn.Detail = "(" + note + ")"
		}
		rn.About = "the records follow decompressed; their offsets count from the start of the decompressed bytes"
		stream, ssp = out, span{rel: true}
	}
	d.records(rn, stream, ssp, h, count, path)
	return n
}

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

// attributes fills the attributes node of a batch and adds one node per
// bit (they lie in the field's low byte, at pos+22).
func (d *decoder) attributes(c *tree.Node, a int16, pos int, sp span, path string) {
	codec := Codec(a & AttrCodec)
	c.Value = strconv.Itoa(int(a))
	tsType := "CreateTime"
	if a&AttrLogAppendTime != 0 {
		tsType = "LogAppendTime"
	}
	detail := codec.String() + ", " + tsType
	if a&AttrTransactional != 0 {
		detail += ", transactional"
	}
	if a&AttrControl != 0 {
		detail += ", control"
	}
	if a&AttrDeleteHorizon != 0 {
		detail += ", delete horizon"
	}
	c.Detail = "(" + detail + ")"
	low := pos + offAttributes + 1
	bit := func(name, typ, val, about string) *tree.Node {
		k := d.node(sp, name, typ, val, low, 1, tree.RecordBatch, path)
		k.About = about
		return k
	}
	kids := d.a.Children(6)
	kids = append(kids,
		bit("compression", "bits 0-2", strconv.Itoa(int(codec))+" ("+codec.String()+")", "0 none, 1 gzip, 2 snappy, 3 lz4, 4 zstd (KIP-110)"),
		bit("timestampType", "bit 3", boolBit(a&AttrLogAppendTime)+" ("+tsType+")", "0 CreateTime, 1 LogAppendTime (KIP-32)"),
		bit("isTransactional", "bit 4", strconv.FormatBool(a&AttrTransactional != 0), "written by a transactional producer (KIP-98)"),
		bit("isControl", "bit 5", strconv.FormatBool(a&AttrControl != 0), "the batch holds one control record, a COMMIT or ABORT marker (KIP-98)"),
		bit("hasDeleteHorizonMs", "bit 6", strconv.FormatBool(a&AttrDeleteHorizon != 0), "baseTimestamp is the delete horizon of tombstones (KIP-534)"),
	)
	unused := d.node(sp, "unused", "bits 7-15", strconv.Itoa(int(uint16(a)>>7)), pos+offAttributes, 2, tree.RecordBatch, path)
	unused.About = "must be zero"
	kids = append(kids, unused)
	c.Children = kids
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

// records adds the record nodes of stream (the batch's records,
// decompressed if need be) to rn.
func (d *decoder) records(rn *tree.Node, s []byte, sp span, h Batch, count int32, path string) {
	control := h.Attributes&AttrControl != 0
	if count < 0 {
		rn.Add(d.errNode(sp, "recordCount", 0, len(s), xfmt.Sprintf("recordCount %d is negative", count), path))
		return
	}
	// The records shown are bounded by the bytes and by the budget.
	expect := min(int(count), len(s)/minRecordSize, d.bg.recordsLeft(), d.bg.NodesLeft()/8)
	rn.Children = d.a.Children(expect + 1)
	recordsPath := d.a.Concat(path, ".records", "")
	pos, i := 0, 0
	for ; i < int(count) && pos < len(s); i++ {
		if d.bg.spent() {
			rn.Add(d.more(s, pos, sp, plural(int(count)-i, "more record"), path))
			return
		}
		d.bg.records++
		rec, end := d.record(s, pos, sp, h, i, control, recordsPath)
		rn.Add(rec)
		if end < 0 {
			return
		}
		pos = end
	}
	rn.Value = joinValue(rn.Value, plural(int(count), "record"))
	switch {
	case i < int(count):
		rn.Add(d.errNode(sp, "missing", pos, len(s), xfmt.Sprintf("recordCount is %d but the records end after %d", count, i), path))
	case pos < len(s):
		rn.Add(d.errNode(sp, "trailing", pos, len(s), xfmt.Sprintf("%s after the last of the %d records", plural(len(s)-pos, "byte"), count), path))
	}
}

func joinValue(a, b string) string {
	if a == "" {
		return b
	}
	return a + ", " + b
}

// record returns the node of the record at s[pos:] and where it ends, or
// -1 when the next record cannot be found. recordsPath is the batch's
// path and ".records".
func (d *decoder) record(s []byte, pos int, sp span, h Batch, i int, control bool, recordsPath string) (*tree.Node, int) {
	v := scanRecord(s, pos)
	path := d.a.Indexed(recordsPath, i)
	rec := d.node(sp, d.a.Indexed("Record", i), "Record", "", pos, 0, tree.Record, path)
	rec.About = recordAbout
	if v.stage == stNone {
		rec.Size = len(s) - pos
		rec.Type, rec.Section, rec.Err = "error", tree.Error, v.err
		return rec, -1
	}
	rec.Size = v.end - pos
	kids := d.a.Children(8)
	rec.Children = d.recordFields(kids, rec, s, sp, h, v, control, path)
	return rec, v.end
}

// recordFields returns the nodes of the record's fields, as far as they
// could be read, then an error node if need be.
func (d *decoder) recordFields(kids []*tree.Node, rec *tree.Node, s []byte, sp span, h Batch, v recordView, control bool, path string) []*tree.Node {
	pos := v.start
	length := d.node(sp, "length", "varint", d.a.Itoa(int64(v.length)), pos, v.lenSize, tree.Record, path)
	length.About = "bytes of the record after this field"
	kids = append(kids, length)
	if v.stage >= stAttributes {
		attrs := d.node(sp, "attributes", "int8", d.a.Itoa(int64(v.attrs)), pos+v.lenSize, 1, tree.Record, path)
		attrs.About = "unused, zero"
		kids = append(kids, attrs)
	}
	if v.stage >= stTimestamp {
		abs, about := h.BaseTimestamp+v.tsDelta, "from baseTimestamp"
		if h.Attributes&AttrLogAppendTime != 0 {
			abs, about = h.MaxTimestamp, "LogAppendTime: every record's timestamp is the batch's maxTimestamp (KIP-32)"
		}
		ts := d.node(sp, "timestampDelta", "varlong", d.a.numWith(v.tsDelta, "timestamp", abs), v.tsAt, v.tsSize, tree.Record, path)
		ts.About = about
		kids = append(kids, ts)
	}
	if v.stage >= stOffset {
		offset := h.BaseOffset + int64(v.offDelta)
		od := d.node(sp, "offsetDelta", "varint", d.a.numWith(int64(v.offDelta), "offset", offset), v.offAt, v.offSize, tree.Record, path)
		od.About = "from baseOffset"
		kids = append(kids, od)
		rec.Value = d.a.labeled("offset ", offset)
	}
	var key, val *tree.Node
	if v.stage >= stKey {
		key = d.bytesNode(s, sp, "key", "bytes", v.key, path)
		kids = append(kids, key)
	}
	if v.stage >= stValue {
		val = d.bytesNode(s, sp, "value", "bytes", v.value, path)
		kids = append(kids, val)
		switch {
		case control:
			d.control(s, sp, key, val, v)
		case d.o.Record != nil && !d.bg.spent():
			d.inner(s, sp, key, val, v, path)
		}
	}
	if v.stage < stHeaderCount {
		rec.Err = v.err
		return append(kids, d.errNode(sp, "error", v.errAt, v.end, v.err, path))
	}
	hn := d.node(sp, "headers", "[]Header", headerCountValue(v.hdrCount), v.hdrAt, v.end-v.hdrAt, tree.Record, path)
	hn.Detail = headerCountDetail(v.hdrCount)
	kids = append(kids, hn)
	p := v.hdrAt + v.hdrSize
	rs := s[:v.end]
	if v.hdrCount > 0 {
		hn.Children = d.a.Children(min(int(v.hdrCount), d.bg.NodesLeft()/3+1))
	}
	for j := 0; j < int(v.hdrCount); j++ {
		if d.bg.NodesLeft() == 0 {
			hn.Add(d.more(rs, p, sp, plural(int(v.hdrCount)-j, "more header"), path))
			return kids
		}
		k, hv, stage, msg := scanHeader(rs, p)
		hd := d.node(sp, d.a.Indexed("Header", j), "Header", "", p, 0, tree.Record, path)
		hd.Children = d.a.Children(2)
		hn.Children = append(hn.Children, hd)
		if stage >= 1 {
			kn := d.bytesNode(rs, sp, "key", "string", k, path)
			hd.Value = kn.Value
			hd.Children = append(hd.Children, kn)
		}
		if stage >= 2 {
			hd.Children = append(hd.Children, d.bytesNode(rs, sp, "value", "bytes", hv, path))
			hd.Size = hv.end() - p
			p = hv.end()
			continue
		}
		hd.Size = v.end - p
		hd.Type, hd.Err = "error", msg
		hd.Children = append(hd.Children, d.errNode(sp, "error", p, v.end, msg, path))
		rec.Err = msg
		return kids
	}
	if p < v.end {
		msg := xfmt.Sprintf("%s left in the record after its headers", plural(v.end-p, "byte"))
		kids = append(kids, d.errNode(sp, "trailing", p, v.end, msg, path))
		rec.Err = msg
	}
	return kids
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

// bytesNode is the node of a key, value or header field.
func (d *decoder) bytesNode(s []byte, sp span, name, typ string, f field, path string) *tree.Node {
	n := d.node(sp, name, typ, d.a.preview(f.data(s), f.n < 0), f.at, f.end()-f.at, tree.Record, path)
	n.Detail = d.a.lenDetail(int64(f.n))
	return n
}
