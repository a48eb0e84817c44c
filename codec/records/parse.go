package records

import (
	"bytes"
)

// Parse reads the batches and legacy messages of a records field into
// values, decompressing what is compressed (bounded as Options says, with
// the defaults). Keys, values and headers alias b or the decompressed
// bytes. It stops at the first entry it cannot read whole (a partial batch
// at the end, a bad record) and returns the entries before it with an
// error saying where and what: a *wire.DecodeError whose offset is where
// it failed, from the first byte of b, whose path is that of the JSON
// form ("[1].records[3].headers[0]"), and whose cause is marked
// (errors.Is) with wire's sentinels where one fits: ErrShort (a partial
// batch), ErrLength, ErrTrailing, ErrDecompress, ErrBudget. What fails in
// decompressed records is a DecodeError of theirs inside the one of the
// compressed bytes (see wire.DecodeError.Error).
func Parse(b []byte) ([]Batch, error) {
	d := newDecoder(Options{})
	var out []Batch
	for _, e := range d.walkEntries(-1, b, span{}) {
		if e.err != nil {
			return out, e.err
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
	// stream is the decompressed content of a compressed entry; shared
	// when it is seen's, which keeps it.
	stream []byte
	shared bool
	// key is the entry's in seen (a compressed batch, with reuse); json,
	// its records' JSON when seen has it: the batch has no Records.
	key  seenKey
	json *recordsJSON
	// err is a *wire.DecodeError, placed in the bytes the entries were
	// read from.
	err error
}

// exact reports whether e's batch encodes back to what was read: the same
// bytes for an uncompressed entry; for a compressed one, the same
// decompressed bytes (and header fields), since another compressor
// writes other bytes for the same data.
//
// A RecordBatch v2 does when its records do, to the bytes after its
// header or to its decompressed stream: the header's fields are
// fixed-width and are written back as read, and its length, record count
// and CRC are those of the records (parseBatch checked the length and
// the count against them; a CRC that did not match is kept). Each record
// is encoded in turn into d.scratch and compared, so that nothing the
// size of the batch is allocated.
func (d *decoder) exact(e *parsed) bool {
	if e.err != nil {
		return false
	}
	b := &e.batch
	if b.Magic == 2 {
		s := e.stream
		if b.Codec() == None {
			s = e.raw[BatchHeaderSize:]
		}
		for i := range b.Records {
			d.scratch = appendRecord(d.scratch[:0], &b.Records[i])
			if !bytes.HasPrefix(s, d.scratch) {
				return false
			}
			s = s[len(d.scratch):]
		}
		return len(s) == 0
	}
	if b.Codec() == None {
		enc, err := AppendBatch(d.scratch[:0], b)
		d.scratch = enc
		return err == nil && bytes.Equal(enc, e.raw)
	}
	inner := d.scratch[:0]
	for i := range b.Messages {
		var err error
		if inner, err = AppendBatch(inner, &b.Messages[i]); err != nil {
			return false
		}
	}
	d.scratch = inner
	return bytes.Equal(inner, e.stream)
}

// stream returns a buffer for a decompressed stream: one handed back
// by an earlier entry when the caller hands the streams back (AppendJSON
// does, once it has written an entry), else none.
func (d *decoder) stream() []byte {
	if d.reuse {
		return getStream()
	}
	return nil
}

// recordSlice returns an empty slice of n records for a batch: when the
// caller is done with each entry before it reads the next (AppendJSON),
// the one of the batch before.
func (d *decoder) recordSlice(n int) []Record {
	if !d.reuse || d.depth > 0 {
		return make([]Record, 0, n)
	}
	if cap(d.recs) < n {
		d.recs = make([]Record, 0, n)
	}
	d.hdrs = d.hdrs[:0]
	return d.recs[:0]
}

// headerSlice returns n headers for a record: with reuse, carved from
// a block that the batch's records share, reused by the next batch.
func (d *decoder) headerSlice(n int) []Header {
	if !d.reuse || d.depth > 0 {
		return make([]Header, n)
	}
	if cap(d.hdrs)-len(d.hdrs) < n {
		d.hdrs = make([]Header, 0, max(n, 2*cap(d.hdrs), 64))
	}
	h := d.hdrs[len(d.hdrs) : len(d.hdrs)+n : len(d.hdrs)+n]
	d.hdrs = d.hdrs[:len(d.hdrs)+n]
	clear(h)
	return h
}

// decompressBatch decompresses the records of a RecordBatch v2 whose
// CRC-32C is crc. When the caller is done with each entry before it reads
// the next (AppendJSON), the records of a batch seen before are taken
// from seen rather than decompressed again (charged to the budget as if
// they were), and the decompressed records are kept there; such a stream
// is shared, d.shared says so, and is never handed back.
func (d *decoder) decompressBatch(c Codec, src []byte, crc uint32, count int32) ([]byte, error) {
	d.shared = false
	if !d.reuse || d.depth > 0 {
		out, _, err := d.decompress(c, src, 2, nil)
		return out, err
	}
	k := seenKey{crc: crc, codec: c, size: len(src)}
	d.key = k
	out, j := seen.get(k, src)
	if j != nil && j.count == count && j.streamLen <= d.bg.bytesLeft() && j.records <= d.bg.recordsLeft() && j.nodes <= d.bg.NodesLeft() {
		// Read again, the batch would spend this, and its JSON be j's.
		d.bg.decompressed += j.streamLen
		d.bg.records += j.records
		d.bg.TakeNodes(j.nodes)
		d.jsonHit = j
		return nil, nil
	}
	if out != nil {
		if len(out) > d.bg.bytesLeft() { // as decompress would fail
			err := d.bg.decompressError(c)
			d.bg.hit(err.Error())
			return nil, err
		}
		d.bg.decompressed += len(out)
		d.shared = true
		return out, nil
	}
	out, _, err := d.decompress(c, src, 2, getStream())
	if err == nil && len(out) > 0 {
		seen.add(k, src, out)
		d.shared = true
	}
	return out, err
}
