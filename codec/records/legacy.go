package records

import (
	"encoding/binary"
	"hash/crc32"

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

// Indexes of messageFields.
const (
	msgFieldOffset     = 0
	msgFieldCRC        = 2
	msgFieldAttributes = 4
	msgFieldTimestamp  = 5
)

// message adds the span of the legacy message b (exactly its bytes), the
// idx-th of its set.
func (d *decoder) message(parent int, b []byte, pos int, sp span, idx int) {
	magic := int8(b[offMagic])
	d.bg.records++ // a legacy message is a record
	n := d.add(parent, kMessage, idx, sp, pos, len(b), tree.RecordBatch)
	hsize := legacyHeaderV0
	if magic == 1 {
		hsize = legacyHeaderV1
	}
	if len(b) < hsize {
		d.f.Spans[n].Kind, d.f.Spans[n].Section = kMessageErr, tree.Error
		d.fail(n, errShortMessage(len(b), magic, hsize))
		d.headerSpans(n, b, pos, sp, magic)
		return
	}
	codec := Codec(b[17] & AttrCodec)
	for i, f := range messageFields[:5+int(magic)] {
		c := d.add(n, kMessageField, i, sp, pos+f.at, f.size, tree.RecordBatch)
		switch i {
		case msgFieldCRC:
			want := binary.BigEndian.Uint32(b[12:])
			if got := legacyCRC(b[offMagic:]); got != want {
				d.fail(c, errCRC32(want, got))
			}
		case msgFieldAttributes:
			at := pos + 17
			for bit := 0; bit < 3; bit++ {
				if bit != 1 || magic == 1 {
					d.add(c, kMessageAttrBit, bit, sp, at, 1, tree.RecordBatch)
				}
			}
		}
	}
	p := hsize - 8
	key, kn, ok := d.legacyBytes(n, b, p, pos, sp, errKey)
	if !ok {
		return
	}
	kp := p
	p += 4 + max(int(key), 0)
	vlen, vn, ok := d.legacyBytes(n, b, p, pos, sp, errValue)
	if !ok {
		return
	}
	if codec == None && d.o.Record != nil && !d.bg.spent() {
		d.legacyInner(b, kp, p, pos, sp, kn, vn)
	}
	end := p + 4 + max(int(vlen), 0)
	if end < len(b) {
		// The wrapper's value is the message's last span: this one,
		// when the message has trailing bytes.
		vn = d.errSpan(n, sp, errTrailing, pos+end, pos+len(b), errTrailingMessage(len(b)-end))
	}
	if codec == None {
		return
	}
	d.f.Spans[vn].Arg |= argWrapper
	if vlen < 0 {
		d.fail(vn, errNoWrapperValue)
		return
	}
	if d.depth >= maxNesting {
		d.fail(vn, errNested)
		return
	}
	payload := b[p+4 : end]
	out, note, err := d.decompress(codec, payload, magic, nil)
	if err != nil {
		d.f.Spans[vn].Section = tree.Error
		d.fail(vn, moved(err, sp.base+pos+p+4))
		return
	}
	d.f.Spans[vn].Arg |= argUnpacked | int32(noteCode(note))<<argNoteShift
	d.depth++
	d.entries(vn, out, span{rel: true, buf: d.ds.stream(out)})
	d.depth--
}

// legacyBytes adds the span of an int32-length key or value at b[p:]
// (which: errKey or errValue) and returns its length and index; false
// when it does not fit.
func (d *decoder) legacyBytes(n int, b []byte, p, pos int, sp span, which int) (int32, int, bool) {
	name := errNames[which]
	if p+4 > len(b) {
		d.errSpan(n, sp, which, pos+p, pos+len(b), errNoLegacyLength(name))
		return 0, -1, false
	}
	ln := int32(binary.BigEndian.Uint32(b[p:]))
	if ln < -1 || int(ln) > len(b)-p-4 {
		d.errSpan(n, sp, which, pos+p, pos+len(b), errLegacyLength(name, ln, len(b)-p-4))
		return 0, -1, false
	}
	i := d.add(n, kLegacyBytes, which, sp, pos+p, 4+max(int(ln), 0), tree.Record)
	return ln, i, true
}
