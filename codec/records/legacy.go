package records

import (
	"encoding/binary"
	"hash/crc32"
	"strconv"

	"kwire/internal/xfmt"
	"kwire/tree"
)

// Legacy message sets: magic 0 (Kafka 0.8) and magic 1 (0.10, KIP-32,
// which added the timestamp). A message is
//
//	offset int64, messageSize int32, crc uint32 (CRC-32 of the rest),
//	magic int8, attributes int8, [timestamp int64, magic 1],
//	key bytes, value bytes (int32 lengths, -1 for null)
//
// A compressed message (a wrapper) holds a whole message set, compressed,
// as its value. In a magic 1 wrapper the inner offsets count from 0 and
// the wrapper's offset is the last inner message's (KIP-31).

// legacyCRC is the checksum of magic 0 and 1 messages: CRC-32 (IEEE) of
// the bytes from magic to the end.
func legacyCRC(b []byte) uint32 { return crc32.ChecksumIEEE(b) }

// maxNesting bounds compressed message sets inside compressed message
// sets; Kafka writes none, so one level is enough to show what is there.
const maxNesting = 2

// outer is the wrapper a message set was decompressed from.
type outer struct {
	magic     int8
	offset    int64 // the wrapper's offset
	lastInner int64 // the offset of the last inner message
}

// lastOffset returns the offset field of the last whole message in s.
func lastOffset(s []byte) int64 {
	var last int64
	for len(s) >= 12 {
		size := int32(binary.BigEndian.Uint32(s[offLength:]))
		if size < 0 || int(size) > len(s)-12 {
			break
		}
		last = int64(binary.BigEndian.Uint64(s))
		s = s[12+int(size):]
	}
	return last
}

// message returns the node of the legacy message b (exactly its bytes).
func (d *decoder) message(b []byte, pos int, sp span, path string) *tree.Node {
	magic := int8(b[offMagic])
	d.bg.records++ // a legacy message is a record
	n := d.node(sp, "Message", "v"+strconv.Itoa(int(magic)), "", pos, len(b), tree.RecordBatch, path)
	hsize := legacyHeaderV0
	if magic == 1 {
		hsize = legacyHeaderV1
	}
	if len(b) < hsize {
		n.Type, n.Section = "error", tree.Error
		n.Err = xfmt.Sprintf("messageSize %d is too small for a magic %d message (at least %d)", len(b)-12, magic, hsize-12)
		d.headerNodes(n, b, pos, sp, path, magic)
		return n
	}
	offset := int64(binary.BigEndian.Uint64(b))
	attrs := int8(b[17])
	codec := Codec(attrs & AttrCodec)
	for _, f := range messageFields[:5+int(magic)] {
		c := d.node(sp, f.name, f.typ, fixedValue(b[f.at:], f.size, f.typ), pos+f.at, f.size, tree.RecordBatch, path)
		c.About = f.about
		switch f.name {
		case "offset":
			if o := d.outer; o != nil && o.magic >= 1 {
				c.Value = d.a.numWith(offset, "absolute", o.offset-o.lastInner+offset)
			}
		case "crc":
			want := binary.BigEndian.Uint32(b[12:])
			if got := legacyCRC(b[offMagic:]); got == want {
				c.Detail = "(ok)"
			} else {
				c.Detail = xfmt.Sprintf("(mismatch: computed 0x%08x)", got)
				c.Err = xfmt.Sprintf("CRC-32 mismatch: the message says 0x%08x, its bytes give 0x%08x", want, got)
			}
		case "attributes":
			d.messageAttributes(c, attrs, magic, pos, sp, path)
		case "timestamp":
			c.Value = timestamp(int64(binary.BigEndian.Uint64(b[18:])))
		}
		n.Add(c)
	}
	n.Value = "offset " + strconv.FormatInt(offset, 10)
	p := hsize - 8
	key, ok := d.legacyBytes(n, b, p, pos, sp, "key", path)
	if !ok {
		return n
	}
	kp, kn := p, n.Children[len(n.Children)-1]
	p += 4 + max(int(key), 0)
	vlen, ok := d.legacyBytes(n, b, p, pos, sp, "value", path)
	if !ok {
		return n
	}
	if codec == None && d.o.Record != nil && !d.bg.spent() {
		d.legacyInner(b, kp, p, pos, sp, kn, n.Children[len(n.Children)-1], path)
	}
	end := p + 4 + max(int(vlen), 0)
	if end < len(b) {
		n.Add(d.errNode(sp, "trailing", pos+end, pos+len(b), xfmt.Sprintf("%s after the value, inside the message", plural(len(b)-end, "byte")), path))
	}
	if codec == None {
		return n
	}
	vn := n.Children[len(n.Children)-1]
	vn.Type = codec.String()
	n.Value += ", " + codec.String() + " wrapper"
	if vlen < 0 {
		vn.Err = "a compressed message needs a value"
		return n
	}
	if d.depth >= maxNesting {
		vn.Err = "compressed message set nested too deeply (Kafka writes none inside a compressed message)"
		return n
	}
	payload := b[p+4 : end]
	out, note, err := d.decompress(codec, payload, magic, getStream())
	defer putStream(out)
	if err != nil {
		vn.Err = err.Error()
		vn.Section = tree.Error
		return n
	}
	vn.Value = xfmt.Sprintf("%s compressed, %s decompressed", plural(len(payload), "byte"), plural(len(out), "byte"))
	if note != "" {
		vn.Detail += " (" + note + ")"
	}
	vn.About = "a compressed message set; its offsets count from the start of the decompressed bytes"
	saveOuter := d.outer
	d.outer = &outer{magic: magic, offset: offset, lastInner: lastOffset(out)}
	d.depth++
	inner := d.entries(out, span{rel: true}, d.a.Concat(path, ".messages", ""))
	d.depth--
	d.outer = saveOuter
	vn.Children = inner
	n.Value += " of " + plural(len(inner), "message")
	return n
}

// legacyBytes adds the node of an int32-length key or value at b[p:] and
// returns its length; false when it does not fit.
func (d *decoder) legacyBytes(n *tree.Node, b []byte, p, pos int, sp span, name, path string) (int32, bool) {
	if p+4 > len(b) {
		n.Add(d.errNode(sp, name, pos+p, pos+len(b), xfmt.Sprintf("the message ends before the %s length", name), path))
		return 0, false
	}
	ln := int32(binary.BigEndian.Uint32(b[p:]))
	if ln < -1 || int(ln) > len(b)-p-4 {
		n.Add(d.errNode(sp, name, pos+p, pos+len(b), xfmt.Sprintf("%s length %d does not fit the %d bytes left in the message", name, ln, len(b)-p-4), path))
		return 0, false
	}
	var data []byte
	if ln >= 0 {
		data = b[p+4 : p+4+int(ln)]
	}
	c := d.node(sp, name, "bytes", d.a.preview(data, ln < 0), pos+p, 4+max(int(ln), 0), tree.Record, path)
	c.Detail = "(int32 len=" + strconv.Itoa(int(ln)) + ")"
	n.Add(c)
	return ln, true
}

func (d *decoder) messageAttributes(c *tree.Node, a, magic int8, pos int, sp span, path string) {
	codec := Codec(a & AttrCodec)
	c.Value = strconv.Itoa(int(a))
	detail := codec.String()
	at := pos + 17
	comp := d.node(sp, "compression", "bits 0-2", strconv.Itoa(int(codec))+" ("+codec.String()+")", at, 1, tree.RecordBatch, path)
	comp.About = "0 none, 1 gzip, 2 snappy, 3 lz4"
	c.Add(comp)
	unusedFrom := 3
	if magic == 1 {
		tsType := "CreateTime"
		if a&AttrLogAppendTime != 0 {
			tsType = "LogAppendTime"
		}
		detail += ", " + tsType
		ts := d.node(sp, "timestampType", "bit 3", boolBit(int16(a&AttrLogAppendTime))+" ("+tsType+")", at, 1, tree.RecordBatch, path)
		ts.About = "0 CreateTime, 1 LogAppendTime (KIP-32)"
		c.Add(ts)
		unusedFrom = 4
	}
	c.Detail = "(" + detail + ")"
	u := d.node(sp, "unused", xfmt.Sprintf("bits %d-7", unusedFrom), strconv.Itoa(int(uint8(a)>>unusedFrom)), at, 1, tree.RecordBatch, path)
	u.About = "must be zero"
	c.Add(u)
}
