package codec

import (
	"bytes"
	stdgzip "compress/gzip"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"

	"kwire/codec/records"
	"kwire/codec/wire"
	"kwire/tree"
	"kwire/tree/treetest"
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
	// Bombs past the budget: 32 MiB of records in a few KB.
	const big = 32 << 20
	for _, c := range []records.Codec{records.Gzip, records.Zstd} {
		n := big / 7
		out["bomb-32M-"+c.String()] = produceFrame(tb, rawBatch(c, int32(n), compressMax(tb, c, minimalRecords(n))))
	}
	// A frame of 1 MB, uncompressed: one record with 300,000 empty
	// headers, then minimal records.
	rec := []byte{0, 0, 0, 0, 1, 1}
	rec = wire.AppendVarint(rec, 300_000)
	rec = append(rec, bytes.Repeat([]byte{0, 0}, 300_000)...)
	rec = append(wire.AppendVarint(nil, int32(len(rec)-1)), rec[1:]...)
	rec = append(rec, minimalRecords(60_000)...)
	out["headers-1M"] = produceFrame(tb, rawBatch(records.None, 60_001, rec))
	// 1 MB of empty batches, 61 bytes each.
	out["batches-1M"] = produceFrame(tb, bytes.Repeat(records.EmptyBatch(), 1<<20/records.BatchHeaderSize))
	// Not records: a GetTelemetrySubscriptions v0 response whose
	// AcceptedCompressionTypes ([]int8) has 1,000,000 elements.
	const n = 1_000_000
	body := wire.AppendInt32(nil, 1) // correlation id
	body = append(body, 0)           // header tagged fields
	body = append(body, make([]byte, 4+2+16+4)...)
	body = wire.AppendUvarint(body, n+1)
	body = append(body, bytes.Repeat([]byte{1}, n)...)
	body = append(body, make([]byte, 4+4+1)...)
	body = append(body, 1, 0) // no RequestedMetrics, no tagged fields
	out["telemetry-int8-1M"] = append(wire.AppendInt32(nil, int32(len(body))), body...)
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

// memoryOf runs f and returns the bytes it allocated in all and the growth
// of the live heap over the call (what f's result holds).
func memoryOf(f func()) (total, live uint64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	total = after.TotalAlloc - before.TotalAlloc
	runtime.GC()
	runtime.ReadMemStats(&after)
	if after.HeapAlloc > before.HeapAlloc {
		live = after.HeapAlloc - before.HeapAlloc
	}
	return total, live
}

// TestHostileFrames decodes each hostile frame as a tree and as JSON
// with the default limits: both stay within a bound of memory, and both
// say what they left out and how to raise the limit.
func TestHostileFrames(t *testing.T) {
	if testing.Short() {
		t.Skip("builds frames of 32 MiB of records")
	}
	set := loadSet(t, "4.0")
	frames := hostileFrames(t)
	names := make([]string, 0, len(frames))
	for n := range frames {
		names = append(names, n)
	}
	slices.Sort(names)
	const (
		maxTotal = 192 << 20 // allocated in all, garbage included
		maxLive  = 128 << 20 // held by the tree
	)
	for _, name := range names {
		b := frames[name]
		t.Run(name, func(t *testing.T) {
			var f *Frame
			var fl *tree.Flat
			var err error
			o := DecodeOptions{Set: set, Dir: Request}
			if strings.HasPrefix(name, "telemetry") {
				o = DecodeOptions{Set: set, API: set.APIByKey(71), Version: 0, Dir: Response}
			}
			total, live := memoryOf(func() { f, fl, err = Decode(b, o) })
			if err != nil {
				t.Fatal(err)
			}
			var leftOut []string
			for i := range fl.Spans {
				if fl.Spans[i].Flags&tree.Failed == 0 {
					continue // the error nodes alone: a Node for each of millions costs
				}
				if n := fl.Node(i, nil); strings.Contains(treetest.ErrText(n), "--max-") {
					leftOut = append(leftOut, treetest.ErrText(n))
				}
			}
			t.Logf("%d-byte frame: tree allocates %d MB, holds %d MB; %d nodes say what was left out, the first: %.200s",
				len(b), total>>20, live>>20, len(leftOut), leftOut)
			if len(leftOut) == 0 && name != "batches-1M" { // 17,000 batches fit the budget
				t.Error("the tree does not say what was left out")
			}
			if total > maxTotal || live > maxLive {
				t.Errorf("the tree takes %d MB (%d MB held), over %d MB (%d MB)", total>>20, live>>20, maxTotal>>20, maxLive>>20)
			}
			runtime.KeepAlive(fl)
			fl = nil
			var j []byte
			total, live = memoryOf(func() { j, err = f.JSON(len(b)) })
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("JSON of %d bytes: allocates %d MB, holds %d MB", len(j), total>>20, live>>20)
			if total > maxTotal || live > maxLive {
				t.Errorf("the JSON takes %d MB (%d MB held), over %d MB (%d MB)", total>>20, live>>20, maxTotal>>20, maxLive>>20)
			}
			if (strings.HasPrefix(name, "bomb") || strings.Contains(name, "x140k")) && !bytes.Contains(j, []byte("--max-")) {
				t.Errorf("the JSON does not say what was left out: %.500s", j)
			}
		})
	}
}

// TestNodeBudgetArrays: past the budget of nodes, an array's elements are
// decoded without nodes, and one node says how many were left out; cut
// short, the tree still ends with an error node where the bytes end.
func TestNodeBudgetArrays(t *testing.T) {
	p := mustPlan(t, loadSet(t, "4.0"), "GetTelemetrySubscriptionsResponse", 0)
	body := make([]byte, 4+2+16+4)
	body = append(body, 1) // no AcceptedCompressionTypes
	body = append(body, make([]byte, 9)...)
	body = wire.AppendUvarint(body, 1000+1) // RequestedMetrics: 1000 × "a"
	body = append(body, bytes.Repeat([]byte{2, 'a'}, 1000)...)
	body = append(body, 0)
	want, _, _ := p.Decode(body)
	for _, cut := range []int{len(body), len(body) - 500} {
		v, fl, _, err := p.DecodeTree(body[:cut], tree.Node{}, TreeOptions{Budget: records.NewBudget(records.Limits{MaxNodes: 100})})
		if (err == nil) != (cut == len(body)) {
			t.Fatalf("%d bytes: %v", cut, err)
		}
		if cut == len(body) && !v.Equal(want) {
			t.Error("the value differs from Plan.Decode's")
		}
		var more, errs []*tree.Node
		nodes := fl.Len()
		for _, n := range treetest.All(fl) {
			if n.Name == "more" {
				more = append(more, n)
			} else if n.Err != nil {
				errs = append(errs, n)
			}
		}
		if len(more) != 1 || !strings.Contains(treetest.ErrText(more[0]), "budget of 100 tree nodes") || more[0].End() > cut {
			t.Fatalf("%d bytes: more nodes %+v", cut, more)
		}
		if nodes > 120 {
			t.Errorf("%d bytes: %d nodes", cut, nodes)
		}
		if cut < len(body) && (len(errs) == 0 || errs[len(errs)-1].Offset != more[0].End()) {
			t.Errorf("%d bytes: error nodes %+v after %+v", cut, errs, more[0])
		}
	}
}
