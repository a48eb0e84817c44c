package records

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"kwire/codec/wire"
	"kwire/internal/xfmt"
	"kwire/jsonv"
	"kwire/tree"
	"kwire/tree/treetest"
)

func mustEncode(t *testing.T, bs ...Batch) []byte {
	t.Helper()
	b, err := Encode(bs)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// recrc fixes the CRC-32C of the batch at b[0:].
func recrc(b []byte) []byte {
	binary.BigEndian.PutUint32(b[offCRC:], CRC32C(b[offAttributes:]))
	return b
}

// TestBadBatches checks what the tree says about damaged input: which node
// carries the error, what it says, and that what surrounds it is shown.
func TestBadBatches(t *testing.T) {
	plain := mustEncode(t, sampleBatch(None))
	n := len(plain)
	mod := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(plain)) }
	cases := []struct {
		name    string
		b       []byte
		errNode string // name of the node with the error ("" for none)
		errText string
		records int // Record nodes shown
		partial string
	}{
		{"crc mismatch", mod(func(b []byte) []byte { b[n-1] ^= 1; return b }), "crc", "CRC-32C mismatch", 3, ""},
		{"partial header", plain[:10], "", "", 0, "partial: 10 bytes, too few for a batch header"},
		{"partial batch", plain[:40], "", "", 0, "partial: 40 of 123 bytes"},
		{"whole then partial", append(bytes.Clone(plain), plain[:100]...), "", "", 3, "partial: 100 of 123 bytes"},
		{"two batches", append(bytes.Clone(plain), plain...), "", "", 6, ""},
		{"count too large", mod(func(b []byte) []byte { b[offRecordCount+3] = 4; return recrc(b) }), "missing", "recordCount is 4 but the records end after 3", 3, ""},
		{"count too small", mod(func(b []byte) []byte { b[offRecordCount+3] = 2; return recrc(b) }), "trailing", "after the last of the 2 records", 2, ""},
		{"negative count", mod(func(b []byte) []byte { copy(b[offRecordCount:], []byte{0xff, 0xff, 0xff, 0xfe}); return recrc(b) }), "recordCount", "recordCount -2 is negative", 0, ""},
		{"record length too large", mod(func(b []byte) []byte { b[BatchHeaderSize] = 0x7e; return recrc(b) }), "Record[0]", "record length 63 does not fit", 1, ""},
		{"key length too large", mod(func(b []byte) []byte { b[BatchHeaderSize+4] = 0x40; return recrc(b) }), "error", "key length 32 does not fit the 23 bytes left in the record", 3, ""},
		{"negative key length", mod(func(b []byte) []byte { b[BatchHeaderSize+4] = 0x05; return recrc(b) }), "error", "key length -3 is negative", 3, ""},
		{"header count too large", mod(func(b []byte) []byte { b[BatchHeaderSize+17] = 0x20; return recrc(b) }), "error", "16 headers cannot fit in the 10 bytes left in the record", 3, ""},
		{"unknown magic", mod(func(b []byte) []byte { b[offMagic] = 3; return b }), "RecordBatch", "magic 3 is not a record format", 0, ""},
		{"negative length", mod(func(b []byte) []byte { copy(b[offLength:], []byte{0xff, 0xff, 0xff, 0xff}); return b }), "RecordBatch", "length -1 is negative", 0, ""},
		{"short batch", mod(func(b []byte) []byte { binary.BigEndian.PutUint32(b[offLength:], 20); return b[:32] }), "RecordBatch", "too small for a RecordBatch v2 header", 0, ""},
		{"unknown codec", mod(func(b []byte) []byte { b[offAttributes+1] = 6; return recrc(b) }), "records", "unknown compression codec 6", 0, ""},
		{"corrupt gzip", func() []byte {
			b := mustEncode(t, sampleBatch(Gzip))
			b[BatchHeaderSize+20] ^= 0xff
			return recrc(b)
		}(), "records", "gzip:", 0, ""},
		{"corrupt zstd", func() []byte {
			b := mustEncode(t, sampleBatch(Zstd))
			b[len(b)-4] ^= 0xff // the content checksum
			return recrc(b)
		}(), "records", "zstd:", 0, ""},
		{"truncated zstd batch", mustEncode(t, sampleBatch(Zstd))[:80], "", "", 0, "partial: 80 of"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			nodes := Tree(c.b, 0, Options{})
			checkSpans(t, nodes, 0, len(c.b))
			var found bool
			for _, x := range walk(nodes) {
				if x.Err != nil && x.Name == c.errNode && strings.Contains(treetest.ErrText(x), c.errText) {
					found = true
				}
			}
			if e := errs(nodes); c.errNode == "" && e != nil {
				t.Errorf("unexpected errors %q", e)
			} else if c.errNode != "" && !found {
				t.Errorf("no error %q on a %s node; errors: %q", c.errText, c.errNode, e)
			}
			if got := len(find(nodes, "Record[0]")) + len(find(nodes, "Record[1]")) + len(find(nodes, "Record[2]")); got != c.records {
				t.Errorf("%d records shown, want %d", got, c.records)
			}
			if c.partial != "" {
				r := roots(nodes)
				last := r[len(r)-1]
				if last.Type != "partial" || !strings.Contains(last.Value, c.partial) || last.Err != nil {
					t.Errorf("last node %s %s = %s (err %q), want partial %q", last.Name, last.Type, last.Value, last.Err, c.partial)
				}
			}
			// Whatever the bytes, the JSON form keeps them.
			j := AppendJSON(nil, c.b, nil)
			raw, err := jsonv.Parse(j)
			if err != nil {
				t.Fatalf("%v\n%s", err, j)
			}
			back, err := FromJSON(raw)
			if err != nil || !bytes.Equal(back, c.b) {
				t.Errorf("JSON round trip: %v\n%s", err, j)
			}
		})
	}
}

func TestJSONErrors(t *testing.T) {
	cases := []struct{ json, err string }{
		{`3`, "want a list of batches or a hex string, got a number"},
		{`"zz"`, "is not hex"},
		{`[1]`, "[0]: want an object"},
		{`[{"magic": 3}]`, "[0].magic: 3 is not an integer in [0, 2]"},
		{`[{"compression": "brotli"}]`, `[0].compression: unknown compression "brotli"`},
		{`[{"records": [{"key": "a", "keyHex": "00"}]}]`, "[0].records[0].key: give key or keyHex, not both"},
		{`[{"records": [{"valueHex": "0g"}]}]`, "[0].records[0].valueHex: want a hex string"},
		{`[{"records": [{"value": 5}]}]`, "[0].records[0].value: want a string (or valueHex with hex), got a number"},
		{`[{"records": [{"headers": [{"key": "k", "extra": 1}]}]}]`, `[0].records[0].headers[0].extra: unknown key "extra"`},
		{`[{"bogus": 1}]`, `[0].bogus: unknown key "bogus"`},
		{`[{"producerEpoch": 40000}]`, "[0].producerEpoch: 40000 is not an integer in [-32768, 32767]"},
		{`[{"otherAttributes": 1}]`, "[0].otherAttributes: 1 sets bits that have names"},
		{`[{"magic": 1, "compression": "gzip", "value": "x"}]`, `[0].value: a compressed message holds "messages"`},
		{`[{"magic": 1, "compression": "gzip", "messages": [{"magic": 2}]}]`, "[0].messages[0]: a RecordBatch cannot sit inside a legacy message"},
		{`[{"magic": 0, "timestamp": 5}]`, `[0].timestamp: unknown key "timestamp"`},
		{`[{"rawHex": "0"}]`, "[0].rawHex: want a hex string"},
	}
	for _, c := range cases {
		raw, err := jsonv.Parse([]byte(c.json))
		if err != nil {
			t.Fatal(err)
		}
		_, err = FromJSON(raw)
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: error %v, want %q", c.json, err, c.err)
		}
	}
}

// TestJSONDefaults: a batch written by hand gets what producers write.
func TestJSONDefaults(t *testing.T) {
	raw, err := jsonv.Parse([]byte(`[{"compression": "zstd", "baseTimestamp": 1000,
		"records": [{"value": "a"}, {"timestampDelta": 7, "keyHex": "00ff", "value": null, "headers": [{"key": "h"}]}]}]`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := FromJSON(raw)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	g := got[0]
	if g.ProducerID != -1 || g.ProducerEpoch != -1 || g.BaseSequence != -1 || g.PartitionLeaderEpoch != -1 ||
		g.LastOffsetDelta != 1 || g.MaxTimestamp != 1007 || g.Codec() != Zstd || len(g.Records) != 2 {
		t.Errorf("batch %+v", g)
	}
	r := g.Records[1]
	if r.OffsetDelta != 1 || !bytes.Equal(r.Key, []byte{0, 0xff}) || r.Value != nil || r.Headers[0].Value != nil || string(r.Headers[0].Key) != "h" {
		t.Errorf("record %+v", r)
	}
}

// gzipBatch is the batch plain with the records s, compressed with gzip.
func gzipBatch(t *testing.T, plain, s []byte) []byte {
	t.Helper()
	z, err := gzipCompress(s)
	if err != nil {
		t.Fatal(err)
	}
	b := append(bytes.Clone(plain[:BatchHeaderSize]), z...)
	binary.BigEndian.PutUint32(b[offLength:], uint32(len(b)-12))
	b[offAttributes+1] = b[offAttributes+1]&^byte(AttrCodec) | byte(Gzip)
	return recrc(b)
}

// TestParseErrors checks Parse's errors: a *wire.DecodeError at the failed
// entry's offset in the records bytes, its text the cause's, and the
// cause a case of the sentinel that fits.
func TestParseErrors(t *testing.T) {
	plain := mustEncode(t, sampleBatch(None))
	n := len(plain)
	two := append(bytes.Clone(plain), plain...)
	gz := mustEncode(t, sampleBatch(Gzip))
	cases := []struct {
		name   string
		b      []byte
		off    int
		is     error
		text   string // after "offset N (0xNNNN): "
		before int    // batches read before the error
	}{
		{"cut second batch", two[:2*n-5], n, wire.ErrShort, "[1]: partial batch: ", 1},
		{"header cut", two[:n+10], n, wire.ErrShort, "[1]: partial batch: 10 bytes, too few for a batch header", 1},
		{"negative length", func() []byte {
			b := bytes.Clone(two)
			binary.BigEndian.PutUint32(b[n+offLength:], 0xffffff00)
			return b
		}(), n, wire.ErrLength, "[1]: length -256 is negative", 1},
		{"bytes after the records", func() []byte {
			b := append(bytes.Clone(plain), 0, 0, 0)
			binary.BigEndian.PutUint32(b[offLength:], uint32(n+3-12))
			return recrc(b)
		}(), n, wire.ErrTrailing, "[0].records: 3 bytes after the last of the 3 records", 0},
		{"corrupt gzip", func() []byte {
			b := bytes.Clone(gz)
			b[BatchHeaderSize+3] ^= 0xff
			return recrc(b)
		}(), BatchHeaderSize, wire.ErrDecompress, "[0].records: gzip: ", 0},
		{"key length", func() []byte {
			b := bytes.Clone(two)
			b[n+BatchHeaderSize+4] = 0x40
			return recrc(b[n:])
		}(), BatchHeaderSize + 4, wire.ErrLength, "[0].records[0]: key length 32 does not fit the 23 bytes left in the record", 0},
		{"in the decompressed records", func() []byte {
			s := bytes.Clone(plain[BatchHeaderSize:])
			s[4] = 0x40 // the first record's key length
			return gzipBatch(t, plain, s)
		}(), BatchHeaderSize, wire.ErrLength, "[0].records: at +0x0004 of the decompressed records: [0]: key length 32 does not fit", 0},
	}
	for _, c := range cases {
		got, err := Parse(c.b)
		var de *wire.DecodeError
		if !errors.As(err, &de) {
			t.Errorf("%s: %v (%T), want a *wire.DecodeError", c.name, err, err)
			continue
		}
		if de.Offset != c.off || (c.is != nil && !errors.Is(err, c.is)) ||
			!strings.HasPrefix(err.Error(), xfmt.Sprintf("offset %d (0x%04x): %s", c.off, c.off, c.text)) {
			t.Errorf("%s: offset %d, %q, want offset %d, %v, %q", c.name, de.Offset, err, c.off, c.is, c.text)
		}
		if len(got) != c.before {
			t.Errorf("%s: %d batches before the error, want %d", c.name, len(got), c.before)
		}
	}
	d := newDecoder(Options{Budget: NewBudget(Limits{MaxRecords: 1})})
	es := d.walkEntries(-1, plain, span{})
	if len(es) != 1 || !errors.Is(es[0].err, wire.ErrBudget) || !strings.Contains(es[0].err.Error(), "records is spent") {
		t.Errorf("over the budget: %+v", es)
	}
}

// TestSpanErrorKinds: the errors of the tree's spans are the values Parse
// would return, of the sentinel that fits: a CRC mismatch (CRC-32C of a
// batch, CRC-32 of a legacy message) is wire.ErrCRC, and says so in the
// tree's words.
func TestSpanErrorKinds(t *testing.T) {
	plain := mustEncode(t, sampleBatch(None))
	legacy := mustEncode(t, Batch{Magic: 1, BaseTimestamp: 5, Value: []byte("v")})
	gz := mustEncode(t, sampleBatch(Gzip))
	flip := func(b []byte, i int) []byte { b = bytes.Clone(b); b[i] ^= 1; return b }
	cases := []struct {
		name string
		b    []byte
		is   error
		text string
	}{
		{"batch crc", flip(plain, len(plain)-1), wire.ErrCRC, "CRC-32C mismatch: the batch says 0x"},
		{"message crc", flip(legacy, len(legacy)-1), wire.ErrCRC, "CRC-32 mismatch: the message says 0x"},
		{"count", func() []byte { b := bytes.Clone(plain); b[offRecordCount+3] = 4; return recrc(b) }(), wire.ErrShort, "recordCount is 4 but the records end after 3"},
		{"key length", func() []byte { b := bytes.Clone(plain); b[BatchHeaderSize+4] = 0x40; return recrc(b) }(), wire.ErrLength, "key length 32 does not fit"},
		{"gzip", func() []byte { b := bytes.Clone(gz); b[BatchHeaderSize+3] ^= 0xff; return recrc(b) }(), wire.ErrDecompress, "gzip: "},
	}
	for _, c := range cases {
		f := &tree.Flat{}
		ds := spans(f, -1, c.b, 0, Options{})
		f.Done()
		var found bool
		for i, err := range ds.errs {
			n := f.Node(int(i), nil)
			if errors.Is(err, c.is) && strings.HasPrefix(treetest.ErrText(n), c.text) && treetest.ErrText(n) == err.Error() {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no span error %v %q in %v", c.name, c.is, c.text, ds.errs)
		}
	}
}
