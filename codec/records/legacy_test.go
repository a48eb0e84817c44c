package records

import (
	"bytes"
	stdgzip "compress/gzip"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"strings"
	"testing"

	"kwire/codec/records/internal/codecs"
	"kwire/jsonv"
	"kwire/tree/treetest"

	"github.com/klauspost/compress/s2"
	"github.com/pierrec/lz4/v4"
)

// The messages here are built from the format's definition (Kafka's
// protocol guide, "Message sets"), not with this package's encoder, and
// compressed with the standard library's gzip, s2's snappy and pierrec's
// lz4 frames.

func i32Bytes(dst, b []byte) []byte {
	if b == nil {
		return binary.BigEndian.AppendUint32(dst, 0xffffffff)
	}
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(b)))
	return append(dst, b...)
}

// legacyMsg is offset, message size, crc (CRC-32 of the rest), magic,
// attributes, timestamp (magic 1), key and value with int32 lengths.
func legacyMsg(offset int64, magic, attrs byte, ts int64, key, value []byte) []byte {
	body := []byte{magic, attrs}
	if magic == 1 {
		body = binary.BigEndian.AppendUint64(body, uint64(ts))
	}
	body = i32Bytes(body, key)
	body = i32Bytes(body, value)
	out := binary.BigEndian.AppendUint64(nil, uint64(offset))
	out = binary.BigEndian.AppendUint32(out, uint32(4+len(body)))
	out = binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(body))
	return append(out, body...)
}

func gzipStd(t *testing.T, b []byte) []byte {
	var buf bytes.Buffer
	w := stdgzip.NewWriter(&buf)
	w.Write(b)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func lz4Frame(t *testing.T, b []byte) []byte {
	var buf bytes.Buffer
	w := lz4.NewWriter(&buf)
	w.Write(b)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// xerial frames raw snappy blocks as snappy-java does.
func xerial(b []byte) []byte {
	out := []byte{0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0, 0, 0, 0, 1, 0, 0, 0, 1}
	block := s2.EncodeSnappy(nil, b)
	out = binary.BigEndian.AppendUint32(out, uint32(len(block)))
	return append(out, block...)
}

// innerSet is three messages; magic 1 inner offsets are relative (0-2),
// magic 0 ones absolute (100-102).
func innerSet(magic byte) []byte {
	var set []byte
	for i := range 3 {
		off := int64(i)
		if magic == 0 {
			off += 100
		}
		var key []byte
		if i != 1 {
			key = []byte{'k', byte('0' + i)}
		}
		set = append(set, legacyMsg(off, magic, 0, 1600000000000+int64(i), key, []byte(strings.Repeat("v", 10+i)))...)
	}
	return set
}

// broken08 replaces the header checksum of an lz4 frame (no content size,
// no dictionary) with the one Kafka 0.8 computed over the magic number too
// (KAFKA-3160).
func broken08(t *testing.T, frame []byte) []byte {
	if frame[4]&0x09 != 0 {
		t.Fatal("frame has a content size or dictionary id")
	}
	f := bytes.Clone(frame)
	f[6] = byte(codecs.XXH32(f[:6]) >> 8)
	return f
}

func TestXXH32(t *testing.T) {
	// pierrec writes the frame format's header checksum: xxh32 of the
	// descriptor, second byte.
	f := lz4Frame(t, []byte("hello"))
	if got := byte(codecs.XXH32(f[4:6]) >> 8); got != f[6] {
		t.Fatalf("xxh32 header checksum %#x, pierrec wrote %#x", got, f[6])
	}
	// Reference values of XXH32 (seed 0).
	for in, want := range map[string]uint32{"": 0x02cc5d05, "a": 0x550d7456, "abc": 0x32d153ff} {
		if got := codecs.XXH32([]byte(in)); got != want {
			t.Errorf("codecs.XXH32(%q) = %#x, want %#x", in, got, want)
		}
	}
}

func TestLegacy(t *testing.T) {
	wrap := func(magic, codec byte, payload []byte) []byte {
		return legacyMsg(102, magic, codec, 1600000000002, nil, payload)
	}
	cases := []struct {
		name     string
		b        []byte
		messages int    // inner or top-level messages shown
		absolute bool   // inner offsets shown as absolute
		note     string // detail of the compressed value
	}{
		{"v0", innerSet(0), 3, false, ""},
		{"v1", innerSet(1), 3, false, ""},
		{"v1 LogAppendTime", legacyMsg(5, 1, 0x08, 1600000000000, []byte("k"), []byte("v")), 1, false, ""},
		{"v0 gzip", wrap(0, 1, gzipStd(t, innerSet(0))), 3, false, ""},
		{"v1 gzip", wrap(1, 1, gzipStd(t, innerSet(1))), 3, true, ""},
		{"v0 snappy xerial", wrap(0, 2, xerial(innerSet(0))), 3, false, "xerial framing"},
		{"v1 snappy raw", wrap(1, 2, s2.EncodeSnappy(nil, innerSet(1))), 3, true, "raw snappy"},
		{"v1 lz4", wrap(1, 3, lz4Frame(t, innerSet(1))), 3, true, ""},
		{"v0 lz4 Kafka 0.8", wrap(0, 3, broken08(t, lz4Frame(t, innerSet(0)))), 3, false, "KAFKA-3160"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			nodes := Tree(c.b, 0, Options{Path: "Records"})
			if e := errs(nodes); e != nil {
				t.Fatalf("errors: %q", e)
			}
			checkSpans(t, nodes, 0, len(c.b))
			var msgs []int // the messages' indexes
			for i, n := range treetest.All(nodes) {
				if n.Name == "Message" {
					msgs = append(msgs, i)
				}
			}
			compressed := len(msgs) > c.messages
			if compressed {
				msgs = msgs[1:]
			}
			if len(msgs) != c.messages {
				t.Fatalf("%d messages shown, want %d", len(msgs), c.messages)
			}
			for i, at := range msgs {
				m := treetest.At(nodes, at)
				if m.Relative != compressed {
					t.Errorf("message %d: Relative = %v", i, m.Relative)
				}
				off := treetest.At(nodes, treetest.Children(nodes, at)[0]).Value
				if want := fmt.Sprintf("%d (absolute %d)", i, 100+i); c.absolute && off != want {
					t.Errorf("message %d offset %q", i, off)
				}
			}
			if c.note != "" {
				if v := find(nodes, "value")[0]; !strings.Contains(v.Detail, c.note) {
					t.Errorf("wrapper value detail %q, want %q", v.Detail, c.note)
				}
			}
			// Parse and the JSON form.
			got, err := Parse(c.b)
			if err != nil {
				t.Fatal(err)
			}
			j := AppendJSON(nil, c.b, nil)
			raw, err := jsonv.Parse(j)
			if err != nil {
				t.Fatalf("%v\n%s", err, j)
			}
			back, err := FromJSON(raw)
			if err != nil {
				t.Fatalf("%v\n%s", err, j)
			}
			if !compressed && !bytes.Equal(back, c.b) {
				t.Fatalf("JSON round trip changed the bytes\n%s", j)
			}
			again, err := Parse(back)
			if err != nil || len(again) != len(got) {
				t.Fatalf("re-encoded: %v", err)
			}
			if j2 := AppendJSON(nil, back, nil); !bytes.Equal(j, j2) {
				t.Fatalf("JSON differs after the round trip\n%s\n%s", j, j2)
			}
		})
	}
}
