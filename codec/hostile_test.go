package codec

import (
	"bytes"
	stdgzip "compress/gzip"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"

	"kwire/codec/records"
	"kwire/codec/wire"
)

// Hostile frames: small messages whose records fields decompress to a
// great many records, or to far more bytes than they hold.

// minimalRecords returns n records of 7 bytes each: no key, no value, no
// headers, every delta zero.
func minimalRecords(n int) []byte {
	return bytes.Repeat([]byte{0x0c, 0, 0, 0, 1, 1, 0}, n)
}

// compressMax compresses b as tightly as the codec allows.
func compressMax(tb testing.TB, c records.Codec, b []byte) []byte {
	tb.Helper()
	var buf bytes.Buffer
	switch c {
	case records.Gzip:
		w, _ := stdgzip.NewWriterLevel(&buf, stdgzip.BestCompression)
		w.Write(b)
		w.Close()
	case records.Zstd:
		enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression), zstd.WithEncoderConcurrency(1))
		if err != nil {
			tb.Fatal(err)
		}
		return enc.EncodeAll(b, nil)
	case records.LZ4:
		w := lz4.NewWriter(&buf)
		w.Apply(lz4.CompressionLevelOption(lz4.Level9))
		w.Write(b)
		w.Close()
	case records.Snappy:
		return s2.EncodeSnappyBest(nil, b)
	default:
		tb.Fatalf("codec %s", c)
	}
	return buf.Bytes()
}

// rawBatch is a RecordBatch v2 of count records whose (compressed)
// payload is given as is, with a correct CRC.
func rawBatch(c records.Codec, count int32, payload []byte) []byte {
	b := wire.AppendInt64(nil, 0)
	b = wire.AppendInt32(b, int32(records.BatchHeaderSize-12+len(payload)))
	b = wire.AppendInt32(b, -1)
	b = append(b, 2)
	b = wire.AppendInt32(b, 0) // crc, below
	b = wire.AppendInt16(b, int16(c))
	b = wire.AppendInt32(b, count-1)
	b = wire.AppendInt64(b, 0)
	b = wire.AppendInt64(b, 0)
	b = wire.AppendInt64(b, -1)
	b = wire.AppendInt16(b, -1)
	b = wire.AppendInt32(b, -1)
	b = wire.AppendInt32(b, count)
	b = append(b, payload...)
	binary.BigEndian.PutUint32(b[17:], records.CRC32C(b[21:]))
	return b
}

// produceFrame is a Produce v9 request (set 4.0) with one topic and one
// partition per records field.
func produceFrame(tb testing.TB, fields ...[]byte) []byte {
	tb.Helper()
	set := loadSet(tb, "4.0")
	f, err := NewFrame(set, set.APIByKey(0), 9, Request)
	if err != nil {
		tb.Fatal(err)
	}
	var parts []string
	for i, r := range fields {
		parts = append(parts, fmt.Sprintf(`{"Index":%d,"Records":"%s"}`, i, hex.EncodeToString(r)))
	}
	body := `{"Acks":-1,"TimeoutMs":30000,"TopicData":[{"Name":"t","PartitionData":[` + strings.Join(parts, ",") + `]}]}`
	if err := f.SetJSON([]byte(body)); err != nil {
		tb.Fatal(err)
	}
	b, err := f.Encode()
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// hostileFrames returns the hostile frames by name.
func hostileFrames(tb testing.TB) map[string][]byte {
	tb.Helper()
	out := map[string][]byte{}
	// Four partitions, each a zstd batch of 140,000 minimal records.
	z := rawBatch(records.Zstd, 140_000, compressMax(tb, records.Zstd, minimalRecords(140_000)))
	out["zstd-4x140k"] = produceFrame(tb, z, z, z, z)
	// Thirty partitions, each a gzip batch of 140,000 minimal records.
	g := rawBatch(records.Gzip, 140_000, compressMax(tb, records.Gzip, minimalRecords(140_000)))
	var gs [][]byte
	for range 30 {
		gs = append(gs, g)
	}
	out["gzip-30x140k"] = produceFrame(tb, gs...)
	// Decompression bombs: one batch per codec, 8 MiB of records in as few
	// bytes as each codec manages.
	const bomb = 8 << 20
	for _, c := range []records.Codec{records.Gzip, records.Zstd, records.LZ4, records.Snappy} {
		n := bomb / 7
		out["bomb-"+c.String()] = produceFrame(tb, rawBatch(c, int32(n), compressMax(tb, c, minimalRecords(n))))
	}
	return out
}

// TestWriteHostileFrames writes the hostile frames into
// $KWIRE_HOSTILE_DIR, for measuring `kwire decode --file` on them.
func TestWriteHostileFrames(t *testing.T) {
	dir := os.Getenv("KWIRE_HOSTILE_DIR")
	if dir == "" {
		t.Skip("KWIRE_HOSTILE_DIR is not set")
	}
	for name, b := range hostileFrames(t) {
		if err := os.WriteFile(filepath.Join(dir, name+".bin"), b, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d bytes", name, len(b))
	}
}
