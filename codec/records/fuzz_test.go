package records

import (
	"bytes"
	"encoding/binary"
	"kwire/jsonv"
	"kwire/tree/treetest"
	"testing"

	"kwire/tree"

	"github.com/klauspost/compress/s2"
)

// checkInput is what every input must satisfy: Tree and Parse do not
// panic, every node lies where it should (checkSpans), so do the spans
// (checkFlat), and the JSON form is
// valid, reads back to the same bytes, and is stable: writing the JSON of
// those bytes again gives the same JSON.
func checkInput(t *testing.T, b []byte) {
	nodes := Tree(b, 3, Options{Path: "R", Budget: NewBudget(Limits{MaxRecords: 1000})})
	checkSpans(t, nodes, 3, len(b))
	checkFlat(t, b, 3)
	Parse(b)
	j := AppendJSON(nil, b, nil)
	raw, err := jsonv.Parse(j)
	if err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, j)
	}
	back, err := FromJSON(raw)
	if err != nil {
		t.Fatalf("JSON does not read back: %v\n%s", err, j)
	}
	// Compressed batches keep their compressed bytes; what is not read is
	// kept as raw bytes: the bytes come back as they were.
	if !bytes.Equal(back, b) {
		t.Fatalf("JSON round trip changed the bytes\n%x\n%x\n%s", b, back, j)
	}
	if j2 := AppendJSON(nil, back, nil); !bytes.Equal(j, j2) {
		t.Fatalf("JSON not stable:\n%s\n%s", j, j2)
	}
	checkReference(t, b)
}

func seeds(f *testing.F) [][]byte {
	var out [][]byte
	out = append(out, EmptyBatch())
	for _, c := range allCodecs {
		b, err := Encode([]Batch{sampleBatch(c)})
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, b)
	}
	ctl, _ := Encode([]Batch{controlBatch()})
	out = append(out, ctl, append(bytes.Clone(ctl), ctl[:30]...))
	out = append(out, innerSet(0), innerSet(1), legacyMsg(5, 1, 2, 7, nil, xerial(innerSet(1))))
	return out
}

// FuzzNodes feeds arbitrary records fields.
func FuzzNodes(f *testing.F) {
	for _, s := range seeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkInput(t, b)
	})
}

// FuzzCompressed puts arbitrary bytes where a batch's (or, with legacy, a
// magic 1 wrapper's) compressed records go, with a correct header and
// checksum, so that the decompressors and the records inside see the
// fuzzer's bytes.
func FuzzCompressed(f *testing.F) {
	for _, c := range allCodecs[1:] {
		rs := AppendRecords(nil, sampleBatch(c).Records)
		p, err := compress(c, rs)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(p, byte(c), int32(3), false)
		p, _ = compress(c, innerSet(1))
		f.Add(p, byte(c), int32(0), true)
	}
	f.Add(s2Raw(AppendRecords(nil, sampleBatch(None).Records)), byte(Snappy), int32(3), false)
	f.Fuzz(func(t *testing.T, payload []byte, codec byte, count int32, legacy bool) {
		var b []byte
		if legacy {
			b = legacyMsg(2, 1, codec&7, 0, nil, payload)
		} else {
			b = batchAround(payload, int16(codec&7), count)
		}
		checkInput(t, b)
	})
}

// FuzzRecordStream compresses arbitrary record bytes properly, so that
// the record parser sees the fuzzer's bytes inside every codec.
func FuzzRecordStream(f *testing.F) {
	f.Add(AppendRecords(nil, sampleBatch(None).Records), byte(Gzip), int32(3))
	f.Add(AppendRecords(nil, controlBatch().Records), byte(Zstd), int32(1))
	f.Fuzz(func(t *testing.T, stream []byte, codec byte, count int32) {
		c := Codec(codec % 5)
		p, err := compress(c, stream)
		if err != nil {
			t.Fatal(err)
		}
		// Sometimes control records.
		checkInput(t, batchAround(p, int16(c)|int16(codec&0x20)|AttrTransactional, count))
	})
}

func s2Raw(b []byte) []byte { return s2.EncodeSnappy(nil, b) }

// batchAround is a batch header (with a correct length and CRC-32C)
// around payload.
func batchAround(payload []byte, attrs int16, count int32) []byte {
	h := sampleBatch(None)
	h.Records = nil
	b, _ := AppendBatch(nil, &h)
	b = append(b[:BatchHeaderSize:BatchHeaderSize], payload...)
	binary.BigEndian.PutUint32(b[offLength:], uint32(len(b)-12))
	binary.BigEndian.PutUint16(b[offAttributes:], uint16(attrs))
	binary.BigEndian.PutUint32(b[offRecordCount:], uint32(count))
	return recrc(b)
}

// FuzzSpans feeds arbitrary records fields to Spans (checkFlat).
func FuzzSpans(f *testing.F) {
	for _, s := range seeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkFlat(t, b, 7)
	})
}

// checkFlat checks the spans of b at offset base, made under a root span:
// every span lies under the root, after its parent and within it; those
// in the buffer lie within b; each span's text is written without a panic
// (the describer reads the bytes of every span of a batch, message or
// record field, in b or in its stream), and the tree of the root is
// Tree's.
func checkFlat(t *testing.T, b []byte, base int) {
	f := &tree.Flat{}
	root := f.Row(-1, tree.Node{Name: "Records", Type: "records", Offset: base, Size: len(b)})
	o := Options{Path: "R", Budget: NewBudget(Limits{MaxRecords: 1000})}
	Spans(f, root, b, base, o)
	f.Done()
	for i := root + 1; i < f.Len(); i++ {
		s := &f.Spans[i]
		if p := int(s.Parent); p < root || p >= i || f.Spans[p].Next < s.Next {
			t.Fatalf("span %d: parent %d, next %d (the parent's %d)", i, p, s.Next, f.Spans[p].Next)
		}
		if s.Size < 0 || s.Flags&tree.InStream == 0 && (int(s.Off) < base || s.End() > base+len(b)) {
			t.Fatalf("span %d (%+v) is not within the %d bytes at %d", i, *s, len(b), base)
		}
		if n := f.Node(i, nil); (n.Err != nil) != (s.Flags&tree.Failed != 0) {
			t.Fatalf("span %d: error %q, flags %v", i, n.Err, s.Flags)
		}
	}
	o.Budget = NewBudget(Limits{MaxRecords: 1000})
	if d := treetest.Diff(f, Tree(b, base, o)); d != "" {
		t.Fatalf("the tree of the spans is not Tree's: %s", d)
	}
}
