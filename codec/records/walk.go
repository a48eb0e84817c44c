package records

import (
	"errors"
	"strconv"

	"kwire/codec/wire"
	"kwire/internal/xfmt"
	"kwire/tree"
)

// The walk of a records field: one reader of its format for Parse (the
// values) and Spans (the tree), as codec has one decoder for values and
// spans. Each rule (a length, a varint, a CRC, a decompressed stream) is
// read once, here or in the scanners it calls (frameEntry, batchHeader,
// scanRecord, scanHeader); what the walk yields depends on the decoder:
// with a tree (decoder.f set) it adds spans, and shows a problem where it
// is and goes on where the format lets it; without one it fills values
// and stops at the first problem, which it returns placed (a
// *wire.DecodeError in the bytes it walks).

// spans reports whether the walk builds the tree (else values).
func (d *decoder) spans() bool { return d.f != nil }

// problem reports err over s[at:end]: a value walk returns it placed at
// at; a tree walk adds an error span named name (errNames) under parent
// and returns nil.
func (d *decoder) problem(parent int, sp span, name, at, end int, err error) error {
	if !d.spans() {
		return place(err, at, "")
	}
	d.errSpan(parent, sp, name, at, end, err)
	return nil
}

// walkBatch reads the RecordBatch v2 b (exactly its bytes), at position
// pos of its stream, the idx-th entry of its set: as a span under parent,
// or into a Batch and its decompressed records (stream), with an error
// placed in b.
func (d *decoder) walkBatch(parent int, b []byte, pos int, sp span, idx int) (Batch, []byte, error) {
	spans := d.spans()
	n := -1
	if spans {
		n = d.add(parent, kBatch, idx, sp, pos, len(b), tree.RecordBatch)
	}
	h, count, crc, err := batchHeader(b)
	if err != nil {
		if !spans {
			return Batch{}, nil, place(err, offLength, "batchLength")
		}
		d.f.Spans[n].Kind, d.f.Spans[n].Section = kEntryErr, tree.Error
		d.fail(n, err)
		d.headerSpans(n, b, pos, sp, 2)
		return h, nil, nil
	}
	if spans {
		d.batchFieldSpans(n, pos, sp, h, crc)
	}
	payload := b[BatchHeaderSize:]
	rn := -1
	if spans {
		rn = d.add(n, kRecords, 0, sp, pos+BatchHeaderSize, len(payload), tree.Record)
	}
	s, ssp, stream := payload, span{base: sp.base + pos + BatchHeaderSize, rel: sp.rel, buf: sp.buf}, []byte(nil)
	if c := h.Codec(); c != None {
		// The records follow decompressed (KIP-110 for zstd), their
		// offsets counting from the stream's start.
		var note string
		if spans {
			s, note, err = d.decompress(c, payload, 2, nil)
		} else {
			h.Compressed = payload
			s, err = d.decompressBatch(c, payload, crc, count)
		}
		if err != nil {
			if !spans {
				return h, nil, place(err, BatchHeaderSize, "records")
			}
			d.f.Spans[rn].Section = tree.Error
			d.fail(rn, moved(err, sp.base+pos+BatchHeaderSize))
			return h, nil, nil
		}
		if d.jsonHit != nil { // its JSON is kept: nothing to read
			return h, nil, nil
		}
		stream = s
		if spans {
			k := d.ds.stream(s)
			d.f.Spans[rn].Arg = int32(k)<<3 | int32(noteCode(note))<<1
			ssp = span{rel: true, buf: k}
		}
	}
	if count < 0 {
		if !spans {
			return h, stream, place(errNegativeCount(count), offRecordCount, "recordCount")
		}
		d.errSpan(rn, ssp, errRecordCount, 0, len(s), errNegativeCount(count))
		return h, nil, nil
	}
	if err := d.walkRecords(rn, s, ssp, &h, count); err != nil {
		if stream != nil { // in the decompressed records
			return h, stream, &wire.DecodeError{Offset: BatchHeaderSize, Path: "records", Err: err}
		}
		return h, stream, place(err, BatchHeaderSize, "records")
	}
	return h, stream, nil
}

// batchFieldSpans adds the spans of the header fields of the batch span
// n, at pos, whose header is h and whose bytes give the CRC-32C crc.
func (d *decoder) batchFieldSpans(n, pos int, sp span, h Batch, crc uint32) {
	var bad error
	if h.KeepCRC {
		bad = errCRC32C(h.CRC, crc)
	}
	for i, f := range batchFields {
		c := d.fieldSpan(n, pos, sp, kBatchField, i, f, fieldCRC, crc, bad)
		if i == fieldAttributes {
			low := pos + offAttributes + 1
			for bit := range 5 {
				d.add(c, kAttrBit, bit, sp, low, 1, tree.RecordBatch)
			}
			d.add(c, kAttrBit, 5, sp, pos+offAttributes, 2, tree.RecordBatch)
		}
	}
}

// fieldSpan adds the span of field i (f) of the header of the batch or
// message span n, at pos, of kind k; the crc field's (crcField) is a kCRC
// span that keeps the checksum the bytes give, failed with bad when it is
// not the one the header says.
func (d *decoder) fieldSpan(n, pos int, sp span, k uint8, i int, f headerField, crcField int, crc uint32, bad error) int {
	arg := i
	if i == crcField {
		k, arg = kCRC, int(int32(crc))
	}
	c := d.add(n, k, arg, sp, pos+f.at, f.size, tree.RecordBatch)
	if i == crcField && bad != nil {
		d.fail(c, bad)
	}
	return c
}

// walkRecords reads the count records (count >= 0) of s, a batch's
// records (decompressed if need be): as spans under rn, or into
// h.Records.
func (d *decoder) walkRecords(rn int, s []byte, sp span, h *Batch, count int32) error {
	spans := d.spans()
	if spans {
		// The records shown are bounded by the bytes and by the budget.
		expect := min(int(count), len(s)/minRecordSize, d.bg.recordsLeft(), d.bg.NodesLeft()/8)
		d.reserve(expect*spansPerRecord + 1)
	} else {
		n := min(int(count), len(s)/minRecordSize)
		if n > d.bg.recordsLeft() {
			return place(d.bg.LeftOut(plural(int(count), "record")), 0, "")
		}
		d.bg.records += n
		h.Records = d.recordSlice(n)
	}
	control := h.Attributes&AttrControl != 0
	pos, i := 0, 0
	for ; i < int(count) && pos < len(s); i++ {
		if spans {
			if d.bg.spent() {
				d.more(rn, s, pos, sp, plural(int(count)-i, "more record"), moreInside)
				return nil
			}
			d.bg.records++
		}
		end, err := d.walkRecord(rn, s, pos, sp, i, h, control)
		if err != nil {
			return wire.WithPath(err, "["+strconv.Itoa(i)+"]")
		}
		if end < 0 {
			return nil
		}
		pos = end
	}
	if spans {
		d.f.Spans[rn].Arg |= recordsDone
	}
	switch {
	case i < int(count):
		return d.problem(rn, sp, errMissing, pos, len(s), errMissingRecords(count, i))
	case pos < len(s):
		return d.problem(rn, sp, errTrailing, pos, len(s), errTrailingRecords(len(s)-pos, count))
	}
	return nil
}

// walkRecord reads the record at s[pos:], the i-th of its batch, and
// returns where it ends, or -1 when the next record cannot be found: as a
// span under rn (with the nodes of a control record's key and value, or
// Options.Record's), or appended to h.Records, with an error placed in s.
func (d *decoder) walkRecord(rn int, s []byte, pos int, sp span, i int, h *Batch, control bool) (int, error) {
	v := scanRecord(s, pos)
	if !d.spans() {
		if v.stage < stHeaderCount {
			return 0, place(v.err, v.errAt, "")
		}
		// In its place: a record is not copied.
		h.Records = append(h.Records, Record{Attributes: v.attrs, TimestampDelta: v.tsDelta, OffsetDelta: v.offDelta, Key: v.key.data(s), Value: v.value.data(s)})
		end, err := d.walkHeaders(-1, -1, s, sp, &v, &h.Records[len(h.Records)-1])
		if err != nil {
			h.Records = h.Records[:len(h.Records)-1]
		}
		return end, err
	}
	rec := d.add(rn, kRecord, i, sp, pos, 0, tree.Record)
	if v.stage == stNone {
		r := &d.f.Spans[rec]
		r.Size, r.Section = int32(len(s)-pos), tree.Error
		d.fail(rec, v.err)
		return -1, nil
	}
	d.f.Spans[rec].Size = int32(v.end - pos)
	d.add(rec, kLength, 0, sp, pos, v.lenSize, tree.Record)
	if v.stage >= stAttributes {
		d.add(rec, kRecordAttrs, 0, sp, pos+v.lenSize, 1, tree.Record)
	}
	if v.stage >= stTimestamp {
		d.add(rec, kTimestampDelta, 0, sp, v.tsAt, v.tsSize, tree.Record)
	}
	if v.stage >= stOffset {
		d.add(rec, kOffsetDelta, 0, sp, v.offAt, v.offSize, tree.Record)
	}
	if v.stage >= stValue {
		d.keyValue(rec, s, sp, v, control)
	} else if v.stage >= stKey {
		d.bytesSpan(rec, sp, bytesKey, v.key)
	}
	if v.stage < stHeaderCount {
		d.fail(rec, v.err)
		d.errSpan(rec, sp, errError, v.errAt, v.end, v.err)
		return v.end, nil
	}
	hn := d.add(rec, kHeaders, 0, sp, v.hdrAt, v.end-v.hdrAt, tree.Record)
	return d.walkHeaders(rec, hn, s, sp, &v, nil)
}

// walkHeaders reads the headers of the record v of s (its header count
// read): as spans under hn, in the record span rec, or into r.Headers,
// with an error placed in s; it returns where the record ends.
func (d *decoder) walkHeaders(rec, hn int, s []byte, sp span, v *recordView, r *Record) (int, error) {
	spans := d.spans()
	p := v.hdrAt + v.hdrSize
	rs := s[:v.end]
	if !spans && v.hdrCount > 0 {
		if int(v.hdrCount) > d.bg.NodesLeft() {
			return 0, place(d.bg.LeftOut(plural(int(v.hdrCount), "header")), v.hdrAt, "headers")
		}
		d.bg.TakeNodes(int(v.hdrCount))
		r.Headers = d.headerSlice(int(v.hdrCount))
	}
	for j := 0; j < int(v.hdrCount); j++ {
		if spans && d.bg.NodesLeft() == 0 {
			d.more(hn, rs, p, sp, plural(int(v.hdrCount)-j, "more header"), moreInside)
			return v.end, nil
		}
		k, hv, stage, err := scanHeader(rs, p)
		if !spans {
			if err != nil {
				return 0, place(err, p, "headers["+strconv.Itoa(j)+"]")
			}
			r.Headers[j] = Header{Key: k.data(rs), Value: hv.data(rs)}
			p = hv.end()
			continue
		}
		hd := d.add(hn, kHeader, j, sp, p, 0, tree.Record)
		if stage >= 1 {
			d.bytesSpan(hd, sp, bytesHeaderKey, k)
		}
		if stage >= 2 {
			d.bytesSpan(hd, sp, bytesHeaderValue, hv)
			d.f.Spans[hd].Size = int32(hv.end() - p)
			p = hv.end()
			continue
		}
		d.f.Spans[hd].Size = int32(v.end - p)
		d.fail(hd, err)
		d.errSpan(hd, sp, errError, p, v.end, err)
		d.fail(rec, err)
		return v.end, nil
	}
	if p < v.end {
		err := errTrailingHeaders(v.end - p)
		if !spans {
			return 0, place(err, p, "")
		}
		d.errSpan(rec, sp, errTrailing, p, v.end, err)
		d.fail(rec, err)
	}
	return v.end, nil
}

// walkEntries reads the batches and messages of s: as spans under parent
// (up to what the budget leaves), or into the parsed entries it returns.
func (d *decoder) walkEntries(parent int, s []byte, sp span) []parsed {
	var out []parsed
	for pos, i := 0, 0; pos < len(s); i++ {
		if d.spans() && d.bg.spent() {
			d.more(parent, s, pos, sp, "batches", moreEntries)
			break
		}
		e, next := d.walkEntry(parent, s, pos, sp, i)
		if !d.spans() {
			out = append(out, e)
		}
		if next < 0 {
			break
		}
		pos = next
	}
	return out
}

// walkEntry reads the batch or message at s[pos:], the idx-th of its set,
// and returns where the next one starts, or -1 when none can follow (the
// entry's bytes run to the end): as a span under parent, or as a parsed
// entry whose error is placed in s.
func (d *decoder) walkEntry(parent int, s []byte, pos int, sp span, idx int) (parsed, int) {
	e := parsed{pos: pos}
	d.jsonHit, d.key = nil, seenKey{}
	rest := s[pos:]
	b, next, err := frameEntry(rest)
	e.raw = b
	switch {
	case err == nil && b[offMagic] == 2:
		e.batch, e.stream, e.err = d.walkBatch(parent, b, pos, sp, idx)
		e.shared, e.key, e.json = d.shared, d.key, d.jsonHit
	case err == nil:
		e.batch, e.stream, e.err = d.walkMessage(parent, b, pos, sp, idx)
	case !d.spans():
		e.err = err
	case errors.Is(err, wire.ErrShort): // a partial batch (describePartial)
		n := d.add(parent, kPartial, idx, sp, pos, len(rest), tree.RecordBatch)
		magic := int8(2)
		if len(rest) > offMagic {
			magic = int8(rest[offMagic])
		}
		d.headerSpans(n, rest, pos, sp, magic)
	default:
		n := d.add(parent, kEntryErr, idx, sp, pos, len(b), tree.Error)
		d.fail(n, err)
		magic := int8(2) // the batch's fields, but for a length that says nothing
		if !next {
			magic = int8(b[offMagic])
		}
		d.headerSpans(n, b, pos, sp, magic)
	}
	if e.err != nil {
		e.err = place(e.err, pos, "["+strconv.Itoa(idx)+"]")
	}
	if !next {
		return e, -1
	}
	return e, pos + len(b)
}

// frameEntry reads the framing of the batch or message at the start of
// rest (its length, then its magic): its bytes, or what is wrong with
// them, wire.ErrShort when rest ends inside them (a partial batch);
// next says whether an entry can follow (the length could be read).
func frameEntry(rest []byte) (b []byte, next bool, err error) {
	if len(rest) < minEntry {
		return rest, false, wire.Mark(wire.ErrShort, xfmt.Errorf("partial batch: %d bytes, too few for a batch header", len(rest)))
	}
	length := wire.Int32At(rest, offLength)
	if length < 0 {
		return rest, false, errNegativeLength(length, len(rest))
	}
	total := 12 + int(length)
	if total > len(rest) {
		return rest, false, wire.Mark(wire.ErrShort, xfmt.Errorf("partial batch: %d of %d bytes", len(rest), total))
	}
	b = rest[:total]
	if total < minEntry {
		return b, true, errNoMagic(length)
	}
	if magic := int8(b[offMagic]); magic < 0 || magic > 2 {
		return b, true, errMagic(magic)
	}
	return b, true, nil
}

// walkMessage reads the legacy message b (exactly its bytes), at position
// pos of its stream, the idx-th entry of its set, and the message set
// inside a compressed one: as a span under parent, or into a Batch (with
// Messages) and the decompressed set (stream), with an error placed in b.
func (d *decoder) walkMessage(parent int, b []byte, pos int, sp span, idx int) (Batch, []byte, error) {
	spans := d.spans()
	n := -1
	if spans {
		n = d.add(parent, kMessage, idx, sp, pos, len(b), tree.RecordBatch)
	} else if d.bg.recordsLeft() == 0 {
		return Batch{}, nil, d.bg.LeftOut("a message")
	}
	d.bg.records++ // a legacy message is a record
	m, hsize, crc, err := messageHeader(b)
	magic := m.Magic
	if err != nil {
		if !spans {
			return Batch{}, nil, place(err, offLength, "messageSize")
		}
		d.f.Spans[n].Kind, d.f.Spans[n].Section = kMessageErr, tree.Error
		d.fail(n, err)
		d.headerSpans(n, b, pos, sp, magic)
		return m, nil, nil
	}
	codec := m.Codec()
	if spans {
		d.messageFieldSpans(n, pos, sp, m, crc)
	}
	// The key and value, each an int32 length (-1: null) and its bytes.
	kp := hsize - 8
	klen, ok, err := d.walkLength(n, b, kp, pos, sp, errKey)
	if !ok {
		return m, nil, err
	}
	p, kn := kp+4+max(int(klen), 0), -1
	if spans {
		kn = d.add(n, kLegacyBytes, errKey, sp, pos+kp, p-kp, tree.Record)
	}
	vlen, ok, err := d.walkLength(n, b, p, pos, sp, errValue)
	if !ok {
		return m, nil, err
	}
	end := p + 4 + max(int(vlen), 0)
	vn := -1
	if !spans {
		m.Key, m.Value = legacyData(b, kp, klen), legacyData(b, p, vlen)
	} else {
		if codec == None && d.hooked() {
			d.expectValue(n, kLegacyBytes, errValue, sp, pos+p, end-p)
			d.inner(kn, d.part(b, pos, legacyField(b, kp), sp), d.part(b, pos, legacyField(b, p), sp))
			vn = d.valueSpan()
		} else {
			vn = d.add(n, kLegacyBytes, errValue, sp, pos+p, end-p, tree.Record)
		}
	}
	if end < len(b) {
		err := errTrailingMessage(len(b) - end)
		if !spans {
			return m, nil, place(err, end, "")
		}
		// The wrapper's value is the message's last span: this one,
		// when the message has trailing bytes.
		vn = d.errSpan(n, sp, errTrailing, pos+end, pos+len(b), err)
	}
	if codec == None {
		return m, nil, nil
	}
	// A wrapper: its value is a message set, compressed.
	if spans {
		d.f.Spans[vn].Arg |= argWrapper
	}
	wrapperErr := func(err error, at int) error {
		if !spans {
			return place(err, at, "value")
		}
		d.fail(vn, err)
		return nil
	}
	if vlen < 0 {
		return m, nil, wrapperErr(errNoWrapperValue, p)
	}
	m.Compressed = m.Value
	if d.depth >= maxNesting {
		return m, nil, wrapperErr(errNested, p+4)
	}
	out, note, err := d.decompress(codec, b[p+4:end], magic, d.stream())
	if err != nil {
		if spans {
			d.f.Spans[vn].Section = tree.Error
			err = moved(err, sp.base+pos+p+4)
		}
		return m, nil, wrapperErr(err, p+4)
	}
	d.depth++
	defer func() { d.depth-- }()
	if spans {
		d.f.Spans[vn].Arg |= argUnpacked | int32(noteCode(note))<<argNoteShift
		d.walkEntries(vn, out, span{rel: true, buf: d.ds.stream(out)})
		return m, nil, nil
	}
	inner := d.walkEntries(-1, out, span{})
	m.Messages = make([]Batch, 0, len(inner))
	for _, e := range inner {
		if e.err != nil {
			return m, out, &wire.DecodeError{Offset: p + 4, Path: "messages", Err: e.err}
		}
		m.Messages = append(m.Messages, e.batch)
	}
	return m, out, nil
}

// walkLength reads the int32 length of the key or value (which: errKey
// or errValue) at b[p:] of the message span n, b at pos of its stream; ok
// says it fits, and when it does not, a value walk returns the error
// placed in b, a tree walk shows it in an error span.
func (d *decoder) walkLength(n int, b []byte, p, pos int, sp span, which int) (ln int32, ok bool, err error) {
	if ln, err = legacyLength(b, p, errNames[which]); err == nil {
		return ln, true, nil
	}
	if !d.spans() {
		return 0, false, place(err, p, errNames[which])
	}
	d.errSpan(n, sp, which, pos+p, pos+len(b), err)
	return 0, false, nil
}

// messageFieldSpans adds the spans of the header fields of the message
// span n, at pos, whose header is m and whose bytes give the CRC-32 crc.
func (d *decoder) messageFieldSpans(n, pos int, sp span, m Batch, crc uint32) {
	var bad error
	if m.KeepCRC {
		bad = errCRC32(m.CRC, crc)
	}
	for i, f := range messageFields[:5+int(m.Magic)] {
		c := d.fieldSpan(n, pos, sp, kMessageField, i, f, msgFieldCRC, crc, bad)
		if i == msgFieldAttributes {
			for bit := 0; bit < 3; bit++ {
				if bit != 1 || m.Magic == 1 {
					d.add(c, kMessageAttrBit, bit, sp, pos+17, 1, tree.RecordBatch)
				}
			}
		}
	}
}

// legacyData is the bytes of the key or value whose int32 length n is at
// b[p:] (nil: null), with no room past them.
func legacyData(b []byte, p int, n int32) []byte {
	if n < 0 {
		return nil
	}
	return b[p+4 : p+4+int(n) : p+4+int(n)]
}
