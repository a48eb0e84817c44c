package records

import (
	"bytes"
	stdgzip "compress/gzip"
	"encoding/json"
	"fmt"
	"kwire/jsonv"
	"reflect"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"

	"kwire/tree"
	"kwire/tree/treetest"
)

// sampleBatch is a batch of three records with keys, values (one null,
// one binary) and headers.
func sampleBatch(c Codec) Batch {
	b := Batch{
		BaseOffset: 100, PartitionLeaderEpoch: 7, Magic: 2, Attributes: int16(c),
		BaseTimestamp: 1700000000000, ProducerID: 42, ProducerEpoch: 3, BaseSequence: 9,
		Records: []Record{
			{OffsetDelta: 0, Key: []byte("user-1"), Value: []byte("hello"), Headers: []Header{{Key: []byte("trace"), Value: []byte("abc")}}},
			{OffsetDelta: 1, TimestampDelta: 12, Key: nil, Value: []byte{0, 1, 2, 0xff}},
			{OffsetDelta: 2, TimestampDelta: 30, Key: []byte("ключ"), Value: nil, Headers: []Header{{Key: []byte("h1"), Value: nil}, {Key: []byte("h2"), Value: []byte{}}}},
		},
	}
	b.Fill()
	return b
}

var allCodecs = []Codec{None, Gzip, Snappy, LZ4, Zstd}

// walk returns every node under the given nodes, depth first.
// walk lists the nodes under the root of f (Tree's), in preorder.
func walk(f *tree.Flat) []*tree.Node {
	var out []*tree.Node
	for i, n := range treetest.All(f) {
		if i > 0 {
			out = append(out, n)
		}
	}
	return out
}

// roots lists the nodes right under the root of f (Tree's): Spans' roots.
func roots(f *tree.Flat) []*tree.Node {
	var out []*tree.Node
	for _, c := range treetest.Children(f, 0) {
		out = append(out, f.Node(c, nil))
	}
	return out
}

func errs(f *tree.Flat) []string {
	var out []string
	for _, n := range walk(f) {
		if n.Err != nil {
			out = append(out, fmt.Sprintf("%s [%d,+%d]: %s", n.Name, n.Offset, n.Size, n.Err))
		}
	}
	return out
}

func find(f *tree.Flat, name string) []*tree.Node {
	var out []*tree.Node
	for _, n := range walk(f) {
		if n.Name == name {
			out = append(out, n)
		}
	}
	return out
}

// checkSpans asserts that every node in the original buffer lies inside
// [base, base+size) and inside its parent, and that relative nodes have
// only relative descendants.
func checkSpans(t *testing.T, f *tree.Flat, base, size int) {
	t.Helper()
	for i, n := range treetest.All(f) {
		if i == 0 {
			continue // Tree's root
		}
		var parent *tree.Node
		if p := int(f.Spans[i].Parent); p > 0 {
			parent = f.Node(p, nil)
		}
		if n.Size < 0 {
			t.Errorf("%s: negative size %d", n.Name, n.Size)
		}
		if parent != nil && parent.Relative && !n.Relative {
			t.Errorf("%s: not relative under relative %s", n.Name, parent.Name)
		}
		if !n.Relative {
			if n.Offset < base || n.End() > base+size {
				t.Errorf("%s [%d,+%d] outside the field [%d,+%d]", n.Name, n.Offset, n.Size, base, size)
			}
			if parent != nil && (n.Offset < parent.Offset || n.End() > parent.End()) {
				t.Errorf("%s [%d,+%d] outside its parent %s [%d,+%d]", n.Name, n.Offset, n.Size, parent.Name, parent.Offset, parent.Size)
			}
		}
	}
}

func TestEmptyBatch(t *testing.T) {
	b := EmptyBatch()
	if len(b) != BatchHeaderSize {
		t.Fatalf("%d bytes", len(b))
	}
	nodes := Tree(b, 10, Options{})
	if r := roots(nodes); len(r) != 1 || r[0].Type != "v2" || r[0].Size != 61 {
		t.Fatalf("nodes: %+v", r)
	}
	if e := errs(nodes); e != nil {
		t.Fatal(e)
	}
	checkSpans(t, nodes, 10, len(b))
	got, err := Parse(b)
	if err != nil || len(got) != 1 || len(got[0].Records) != 0 {
		t.Fatalf("Parse: %v %+v", err, got)
	}
	enc, err := Encode(got)
	if err != nil || !bytes.Equal(enc, b) {
		t.Fatalf("re-encode: %v\n%x\n%x", err, enc, b)
	}
}

func TestCodecsRoundTrip(t *testing.T) {
	for _, c := range allCodecs {
		t.Run(c.String(), func(t *testing.T) {
			want := sampleBatch(c)
			b, err := Encode([]Batch{want, sampleBatch(c)})
			if err != nil {
				t.Fatal(err)
			}
			got, err := Parse(b)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 2 {
				t.Fatalf("%d batches", len(got))
			}
			got[0].CRC, want.CRC = 0, 0
			if (got[0].Compressed != nil) != (c != None) {
				t.Errorf("compressed bytes kept: %x", got[0].Compressed)
			}
			got[0].Compressed = nil
			if !reflect.DeepEqual(got[0], want) {
				t.Errorf("got %+v\nwant %+v", got[0], want)
			}
			nodes := Tree(b, 4, Options{Path: "Records"})
			if e := errs(nodes); e != nil {
				t.Fatal(e)
			}
			checkSpans(t, nodes, 4, len(b))
			if n := len(find(nodes, "Record[2]")); n != 2 {
				t.Errorf("%d Record[2] nodes, want 2", n)
			}
			for _, r := range find(nodes, "Record[1]") {
				if r.Relative != (c != None) {
					t.Errorf("Record[1].Relative = %v", r.Relative)
				}
				if r.Path != "Records[0].records[1]" && r.Path != "Records[1].records[1]" {
					t.Errorf("path %q", r.Path)
				}
			}
			if c == None {
				if v := find(nodes, "value")[0]; v.Value != `"hello"` || v.Detail != "(varint len=5)" {
					t.Errorf("value node %+v", v)
				}
			}
			if od := find(nodes, "offsetDelta")[2]; od.Value != "2 (offset 102)" {
				t.Errorf("offsetDelta %q", od.Value)
			}
			if ts := find(nodes, "timestampDelta")[1]; ts.Value != "12 (timestamp 1700000000012)" {
				t.Errorf("timestampDelta %q", ts.Value)
			}
			// With LogAppendTime every record has the batch's maxTimestamp.
			lat := sampleBatch(c)
			lat.Attributes |= AttrLogAppendTime
			lat.MaxTimestamp = 1800000000000
			if ts := find(Tree(mustEncode(t, lat), 0, Options{}), "timestampDelta")[1]; ts.Value != "12 (timestamp 1800000000000)" {
				t.Errorf("LogAppendTime timestampDelta %q", ts.Value)
			}
		})
	}
}

func TestJSONRoundTrip(t *testing.T) {
	for _, c := range allCodecs {
		t.Run(c.String(), func(t *testing.T) {
			b, err := Encode([]Batch{sampleBatch(c)})
			if err != nil {
				t.Fatal(err)
			}
			j := AppendJSON(nil, b, nil)
			if !json.Valid(j) {
				t.Fatalf("invalid JSON %s", j)
			}
			if bytes.Contains(j, []byte("rawHex")) || j[0] != '[' {
				t.Fatalf("not readable: %s", j)
			}
			raw, err := jsonv.Parse(j)
			if err != nil {
				t.Fatal(err)
			}
			back, err := FromJSON(raw)
			if err != nil {
				t.Fatalf("%v\n%s", err, j)
			}
			if c == None && !bytes.Equal(back, b) {
				t.Fatalf("uncompressed batch re-encodes differently\n%x\n%x", back, b)
			}
			if j2 := AppendJSON(nil, back, nil); !bytes.Equal(j, j2) {
				t.Fatalf("JSON differs after a round trip\n%s\n%s", j, j2)
			}
		})
	}
}

func TestDecompressionLimit(t *testing.T) {
	big := Batch{Magic: 2, Attributes: int16(Zstd), Records: []Record{{Value: make([]byte, 3<<20)}}}
	big.Fill()
	b, err := Encode([]Batch{big})
	if err != nil {
		t.Fatal(err)
	}
	small := NewBudget(Limits{MaxDecompressed: 2 << 20})
	e := errs(Tree(b, 0, Options{Budget: small}))
	if len(e) != 1 || !strings.Contains(e[0], "decompression budget of 2 MiB") || !strings.Contains(e[0], "--max-decompressed") {
		t.Fatalf("errors %q", e)
	}
	if small.Hit == "" {
		t.Error("the budget does not say it was hit")
	}
	if e := errs(Tree(b, 0, Options{})); e != nil {
		t.Fatalf("with the default limit: %q", e)
	}
	// Two fields of one message share the budget: the second one's
	// batch is not decompressed.
	shared := NewBudget(Limits{MaxDecompressed: 4 << 20})
	if e := errs(Tree(b, 0, Options{Budget: shared})); e != nil {
		t.Fatalf("first field: %q", e)
	}
	if e := errs(Tree(b, 0, Options{Budget: shared})); len(e) != 1 || !strings.Contains(e[0], "3145741 bytes already decompressed") {
		t.Fatalf("second field: %q", e)
	}
	if got, _, _ := shared.Spent(); got != 3145741 {
		t.Errorf("spent %d bytes, want 3145741", got)
	}
	j := AppendJSON(nil, b, NewBudget(Limits{MaxDecompressed: 2 << 20}))
	if !bytes.Contains(j, []byte(`"rawHex"`)) || !bytes.Contains(j, []byte("--max-decompressed")) {
		t.Fatalf("JSON past the budget: %.300s", j)
	}
}

// TestCompressedKept: the JSON form of a compressed batch keeps the
// producer's compressed bytes while its records are unchanged; an edited
// record, or another codec, compresses anew.
func TestCompressedKept(t *testing.T) {
	for _, c := range allCodecs[1:] {
		t.Run(c.String(), func(t *testing.T) {
			b := sampleBatch(c)
			plain := AppendRecords(nil, b.Records)
			// Not what compress writes: another level, framing or block size.
			var odd []byte
			switch c {
			case Gzip:
				var buf bytes.Buffer
				w, _ := stdgzip.NewWriterLevel(&buf, stdgzip.BestSpeed)
				w.Write(plain)
				w.Close()
				odd = buf.Bytes()
			case Snappy:
				odd = s2Raw(plain) // raw, not xerial-framed
			case LZ4:
				var buf bytes.Buffer
				w := lz4.NewWriter(&buf)
				w.Apply(lz4.CompressionLevelOption(lz4.Level9), lz4.ChecksumOption(false))
				w.Write(plain)
				w.Close()
				odd = buf.Bytes()
			case Zstd:
				enc, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression), zstd.WithEncoderCRC(false))
				odd = enc.EncodeAll(plain, nil)
			}
			if std, _ := compress(c, plain); bytes.Equal(std, odd) {
				t.Fatal("the test's compressed bytes are compress's")
			}
			b.Fill()
			raw := batchAround(odd, int16(c), int32(len(b.Records)))
			j := AppendJSON(nil, raw, nil)
			if !bytes.Contains(j, []byte(`"compressedHex"`)) {
				t.Fatalf("no compressed bytes in %s", j)
			}
			v, err := jsonv.Parse(j)
			if err != nil {
				t.Fatal(err)
			}
			back, err := FromJSON(v)
			if err != nil || !bytes.Equal(back, raw) {
				t.Fatalf("round trip: %v\n%x\n%x", err, back, raw)
			}
			// An edited record: compressed anew, the edit in it.
			batch := v.([]any)[0].(map[string]any)
			batch["records"].([]any)[0].(map[string]any)["value"] = "edited"
			back, err = FromJSON(v)
			if err != nil || bytes.Contains(back, odd) {
				t.Fatalf("edited: %v", err)
			}
			got, err := Parse(back)
			if err != nil || string(got[0].Records[0].Value) != "edited" {
				t.Fatalf("edited: %v %+v", err, got)
			}
			// No compression: the kept bytes are ignored.
			batch["compression"] = "none"
			if back, err = FromJSON(v); err != nil {
				t.Fatal(err)
			}
			if got, err = Parse(back); err != nil || got[0].Codec() != None || got[0].Compressed != nil {
				t.Fatalf("none: %v %+v", err, got)
			}
		})
	}
}
