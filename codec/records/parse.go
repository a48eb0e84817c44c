package records

import (
	"bytes"
	"encoding/binary"
	"errors"

	"kwire/internal/xfmt"
)

// Parse reads the batches and legacy messages of a records field into
// values, decompressing what is compressed (bounded as Options says, with
// the defaults). Keys, values and headers alias b or the decompressed
// bytes. It stops at the first entry it cannot read whole (a partial batch
// at the end, a bad record) and returns the entries before it with an
// error saying where and what.
func Parse(b []byte) ([]Batch, error) {
	d := newDecoder(Options{})
	var out []Batch
	for _, e := range d.parseEntries(b) {
		if e.err != nil {
			return out, xfmt.Errorf("records at byte %d: %w", e.pos, e.err)
		}
		out = append(out, e.batch)
	}
	return out, nil
}

// parsed is one entry of a records field as parseEntries reads it: a batch
// or message, or the raw bytes it could not read and why.
type parsed struct {
	pos   int
	raw   []byte
	batch Batch
	// stream is the decompressed content of a compressed entry.
	stream []byte
	err    error
}

// parseEntries splits s into entries and reads each.
func (d *decoder) parseEntries(s []byte) []parsed {
	var out []parsed
	for pos := 0; pos < len(s); {
		rest := s[pos:]
		e := parsed{pos: pos, raw: rest}
		if len(rest) < minEntry {
			e.err = xfmt.Errorf("partial batch: %d bytes, too few for a batch header", len(rest))
			return append(out, e)
		}
		length := int32(binary.BigEndian.Uint32(rest[offLength:]))
		if length < 0 {
			e.err = xfmt.Errorf("length %d is negative", length)
			return append(out, e)
		}
		total := 12 + int(length)
		if total > len(rest) {
			e.err = xfmt.Errorf("partial batch: %d of %d bytes", len(rest), total)
			return append(out, e)
		}
		e.raw = rest[:total]
		switch magic := int8(rest[offMagic]); {
		case total < minEntry:
			e.err = xfmt.Errorf("length %d is too small to hold a magic byte", length)
		case magic == 2:
			e.batch, e.stream, e.err = d.parseBatch(e.raw)
		case magic == 0 || magic == 1:
			e.batch, e.stream, e.err = d.parseMessage(e.raw)
		default:
			e.err = xfmt.Errorf("magic %d is not a record format", magic)
		}
		out = append(out, e)
		pos += total
	}
	return out
}

// parseBatch reads the RecordBatch v2 b (exactly its bytes).
func (d *decoder) parseBatch(b []byte) (Batch, []byte, error) {
	if len(b) < BatchHeaderSize {
		return Batch{}, nil, xfmt.Errorf("batchLength %d is too small for a RecordBatch v2", len(b)-12)
	}
	h, count := readHeader(b)
	h.KeepCRC = CRC32C(b[offAttributes:]) != h.CRC
	s := b[BatchHeaderSize:]
	var stream []byte
	if c := h.Codec(); c != None {
		h.Compressed = s
		var err error
		if s, _, err = d.decompress(c, s, 2, nil); err != nil {
			return h, nil, err
		}
		stream = s
	}
	if count < 0 {
		return h, stream, xfmt.Errorf("recordCount %d is negative", count)
	}
	n := min(int(count), len(s)/minRecordSize)
	if n > d.bg.recordsLeft() {
		return h, stream, errors.New(d.bg.LeftOut(plural(int(count), "record")))
	}
	d.bg.records += n
	h.Records = make([]Record, 0, n)
	pos := 0
	for i := 0; i < int(count); i++ {
		if pos >= len(s) {
			return h, stream, xfmt.Errorf("recordCount is %d but the records end after %d", count, i)
		}
		r, end, err := d.parseRecord(s, pos)
		if err != nil {
			return h, stream, xfmt.Errorf("record %d: %w", i, err)
		}
		h.Records = append(h.Records, r)
		pos = end
	}
	if pos < len(s) {
		return h, stream, xfmt.Errorf("%d bytes after the last of the %d records", len(s)-pos, count)
	}
	return h, stream, nil
}

// parseRecord reads the record at s[pos:] and returns where it ends. Its
// headers draw on the budget's nodes, as they would in the tree.
func (d *decoder) parseRecord(s []byte, pos int) (Record, int, error) {
	v := scanRecord(s, pos)
	if v.stage < stHeaderCount {
		return Record{}, 0, errors.New(v.err)
	}
	r := Record{Attributes: v.attrs, TimestampDelta: v.tsDelta, OffsetDelta: v.offDelta, Key: v.key.data(s), Value: v.value.data(s)}
	rs := s[:v.end]
	p := v.hdrAt + v.hdrSize
	if v.hdrCount > 0 {
		if int(v.hdrCount) > d.bg.NodesLeft() {
			return r, 0, errors.New(d.bg.LeftOut(plural(int(v.hdrCount), "header")))
		}
		d.bg.TakeNodes(int(v.hdrCount))
		r.Headers = make([]Header, v.hdrCount)
	}
	for j := range r.Headers {
		k, val, _, msg := scanHeader(rs, p)
		if msg != "" {
			return r, 0, xfmt.Errorf("header %d: %s", j, msg)
		}
		r.Headers[j] = Header{Key: k.data(rs), Value: val.data(rs)}
		p = val.end()
	}
	if p < v.end {
		return r, 0, xfmt.Errorf("%d bytes left in the record after its headers", v.end-p)
	}
	return r, v.end, nil
}

// parseMessage reads the legacy message b (exactly its bytes), and the
// message set inside a compressed one.
func (d *decoder) parseMessage(b []byte) (Batch, []byte, error) {
	magic := int8(b[offMagic])
	if d.bg.recordsLeft() == 0 {
		return Batch{}, nil, errors.New(d.bg.LeftOut("a message"))
	}
	d.bg.records++ // a legacy message is a record
	hsize := legacyHeaderV0
	if magic == 1 {
		hsize = legacyHeaderV1
	}
	if len(b) < hsize {
		return Batch{}, nil, xfmt.Errorf("messageSize %d is too small for a magic %d message", len(b)-12, magic)
	}
	m := Batch{BaseOffset: int64(binary.BigEndian.Uint64(b)), Magic: magic, Attributes: int16(b[17])}
	m.CRC = binary.BigEndian.Uint32(b[12:])
	m.KeepCRC = legacyCRC(b[offMagic:]) != m.CRC
	if magic == 1 {
		m.BaseTimestamp = int64(binary.BigEndian.Uint64(b[18:]))
	}
	p := hsize - 8
	var err error
	if m.Key, p, err = int32Bytes(b, p, "key"); err != nil {
		return m, nil, err
	}
	if m.Value, p, err = int32Bytes(b, p, "value"); err != nil {
		return m, nil, err
	}
	if p < len(b) {
		return m, nil, xfmt.Errorf("%d bytes after the value, inside the message", len(b)-p)
	}
	c := m.Codec()
	if c == None {
		return m, nil, nil
	}
	if m.Value == nil {
		return m, nil, errors.New("a compressed message needs a value")
	}
	m.Compressed = m.Value
	if d.depth >= maxNesting {
		return m, nil, errors.New("compressed message set nested too deeply")
	}
	stream, _, err := d.decompress(c, m.Value, magic, nil)
	if err != nil {
		return m, nil, err
	}
	d.depth++
	inner := d.parseEntries(stream)
	d.depth--
	m.Messages = make([]Batch, 0, len(inner))
	for _, e := range inner {
		if e.err != nil {
			return m, stream, xfmt.Errorf("inner message at byte %d of the decompressed set: %w", e.pos, e.err)
		}
		m.Messages = append(m.Messages, e.batch)
	}
	return m, stream, nil
}

func int32Bytes(b []byte, p int, what string) ([]byte, int, error) {
	if p+4 > len(b) {
		return nil, p, xfmt.Errorf("the message ends before the %s length", what)
	}
	n := int32(binary.BigEndian.Uint32(b[p:]))
	p += 4
	if n == -1 {
		return nil, p, nil
	}
	if n < 0 || int(n) > len(b)-p {
		return nil, p, xfmt.Errorf("%s length %d does not fit the %d bytes left in the message", what, n, len(b)-p)
	}
	return b[p : p+int(n) : p+int(n)], p + int(n), nil
}

// exact reports whether e's batch encodes back to what was read: the same
// bytes for an uncompressed entry; for a compressed one, the same
// decompressed bytes (and header fields), since another compressor
// writes other bytes for the same data.
func (e *parsed) exact() bool {
	if e.err != nil {
		return false
	}
	b := &e.batch
	if b.Codec() == None {
		enc, err := AppendBatch(nil, b)
		return err == nil && bytes.Equal(enc, e.raw)
	}
	var inner []byte
	if b.Magic == 2 {
		inner = AppendRecords(nil, b.Records)
	} else {
		for i := range b.Messages {
			var err error
			if inner, err = AppendBatch(inner, &b.Messages[i]); err != nil {
				return false
			}
		}
	}
	return bytes.Equal(inner, e.stream)
}
