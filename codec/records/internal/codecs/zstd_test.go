//go:build !js

package codecs

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"kwire/codec/wire"
)

// zstdInputs are texts of every shape: empty, tiny, repetitive (RLE
// blocks), random (raw blocks), text, Kafka records, mixes, and a few MB.
func zstdInputs(t testing.TB) map[string][]byte {
	r := rand.New(rand.NewPCG(3, 4))
	random := make([]byte, 300<<10)
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	words := strings.Fields("the quick brown fox jumps over a lazy dog; Kafka record batch offset key value header topic partition")
	var text []byte
	for len(text) < 1<<20 {
		text = append(text, words[r.IntN(len(words))]...)
		text = append(text, " \n"[r.IntN(8)/7])
	}
	skewed := make([]byte, 200<<10) // few symbols, skewed: long Huffman codes
	for i := range skewed {
		skewed[i] = byte(bits64(r.Uint64()))
	}
	var mixed []byte
	for i := 0; len(mixed) < 3<<20; i++ {
		switch i % 4 {
		case 0:
			mixed = append(mixed, random[(i*7919)%len(random):][:min(5000, len(random)-(i*7919)%len(random))]...)
		case 1:
			mixed = append(mixed, text[i*1000%len(text):][:min(40000, len(text)-i*1000%len(text))]...)
		case 2:
			mixed = append(mixed, bytes.Repeat([]byte{byte(i)}, 300000)...)
		case 3:
			mixed = append(mixed, skewed[:20000]...)
		}
	}
	field := recordsField()
	recs := sampleRecords(2000)
	return map[string][]byte{
		"empty": nil, "1 byte": {'a'}, "2 bytes": {0, 0}, "hello": []byte("hello, world"),
		"zeros 200K": make([]byte, 200<<10), "zeros 3M": make([]byte, 3<<20),
		"random 300K": random, "random 17": random[:17], "random 1000": random[:1000],
		"text 1M": text, "text 100": text[:100], "text 5000": text[:5000],
		"skewed": skewed, "mixed 3M": mixed, "records field": field, "records": recs,
		"abab": bytes.Repeat([]byte("ab"), 70000), "period 7": bytes.Repeat([]byte("abcdefg"), 30000),
	}
}

// bits64 makes a byte with a skewed distribution: the number of trailing
// ones of a random number.
func bits64(x uint64) int {
	n := 0
	for ; x&1 != 0; x >>= 1 {
		n++
	}
	return n
}

// sampleRecords are the records of a Kafka batch: keys, JSON values, a
// header each.
func sampleRecords(n int) []byte {
	return appendRecords(nil, 0, n, func(i int) ([]byte, []byte, string) {
		return fmt.Appendf(nil, "user-%d", i%37), fmt.Appendf(nil, `{"event":"page_view","page":"/products/%d","ms":%d}`, i%101, i*7%1000), "web"
	})
}

// recordsField is like a records field of 10,000 records in batches of
// 100 (each after a batch header of 61 bytes), about 1 MB.
func recordsField() []byte {
	var out []byte
	for first := 0; first < 10_000; first += 100 {
		h := binary.BigEndian.AppendUint64(nil, uint64(first))
		out = append(append(out, h...), make([]byte, 61-len(h))...)
		out = appendRecords(out, first, 100, func(n int) ([]byte, []byte, string) {
			return fmt.Appendf(nil, "key-%06d", n),
				fmt.Appendf(nil, `{"id":%d,"user":"user-%04d","event":"click","page":"/p/%d","n":%d}`, n, n*7%5000, n%100, n*2654435761%1000000),
				fmt.Sprintf("%016x", n*977)
		})
	}
	return out
}

// appendRecords appends n records in the format of a RecordBatch's
// (KIP-98), numbered from first: the key, value and the value of a header
// of each are kv's.
func appendRecords(out []byte, first, n int, kv func(i int) (key, value []byte, header string)) []byte {
	for i := range n {
		key, value, header := kv(first + i)
		r := []byte{0} // attributes
		r = wire.AppendVarlong(r, int64(i*3))
		r = wire.AppendVarint(r, int32(i))
		for _, f := range [][]byte{key, value} {
			r = wire.AppendVarint(r, int32(len(f)))
			r = append(r, f...)
		}
		r = wire.AppendVarint(r, 1)
		for _, f := range []string{"source", header} {
			r = wire.AppendVarint(r, int32(len(f)))
			r = append(r, f...)
		}
		out = wire.AppendVarint(out, int32(len(r)))
		out = append(out, r...)
	}
	return out
}

// zstdEncoders are klauspost's encoder at every level, with and without
// checksum, single segment, entropy coding of literals, and a small
// window.
func zstdEncoders() map[string][]zstd.EOption {
	m := map[string][]zstd.EOption{}
	for _, l := range []zstd.EncoderLevel{zstd.SpeedFastest, zstd.SpeedDefault, zstd.SpeedBetterCompression, zstd.SpeedBestCompression} {
		m[l.String()] = []zstd.EOption{zstd.WithEncoderLevel(l)}
		m[l.String()+" nocrc"] = []zstd.EOption{zstd.WithEncoderLevel(l), zstd.WithEncoderCRC(false)}
		m[l.String()+" window 1K"] = []zstd.EOption{zstd.WithEncoderLevel(l), zstd.WithWindowSize(1 << 10)}
	}
	m["single segment"] = []zstd.EOption{zstd.WithSingleSegment(true)}
	m["no entropy"] = []zstd.EOption{zstd.WithNoEntropyCompression(true)}
	m["all literals entropy"] = []zstd.EOption{zstd.WithAllLitEntropyCompression(true), zstd.WithEncoderLevel(zstd.SpeedBestCompression)}
	return m
}

// zstdFrames are input compressed every way: EncodeAll (with the content
// size) and the stream writer (without, in several frames when the
// input is large).
func zstdFrames(t testing.TB, in []byte, opts []zstd.EOption) map[string][]byte {
	enc, err := zstd.NewWriter(nil, append([]zstd.EOption{zstd.WithEncoderConcurrency(1)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	enc.Reset(&buf)
	for rest := in; len(rest) > 0; {
		n := min(len(rest), 100000)
		if _, err := enc.Write(rest[:n]); err != nil {
			t.Fatal(err)
		}
		rest = rest[n:]
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	return map[string][]byte{"EncodeAll": enc.EncodeAll(in, nil), "stream": buf.Bytes()}
}

// klauspostDecode decodes with klauspost's decoder, the native build's.
func klauspostDecode(src []byte, limit int) ([]byte, error) { return ZstdLibrary(src, limit, nil) }

// The browser's zstd (zstd.go) reads what klauspost's encoder writes at
// every level and in every mode, with the same bytes back, and refuses
// it with a limit of one byte less.
func TestZstdAgainstKlauspost(t *testing.T) {
	inputs := zstdInputs(t)
	for ename, opts := range zstdEncoders() {
		for iname, in := range inputs {
			if len(in) > 1<<20 && (testing.Short() || strings.Contains(ename, " ")) {
				continue // the large inputs at each level only
			}
			for fname, frame := range zstdFrames(t, in, opts) {
				got, err := ZstdDecodeFrames(frame, len(in), nil)
				if err != nil || !bytes.Equal(got, in) {
					t.Errorf("%s, %s, %s: %d bytes back of %d, %v", ename, iname, fname, len(got), len(in), err)
				}
				if len(in) > 0 {
					if _, err := ZstdDecodeFrames(frame, len(in)-1, nil); !errors.Is(err, ErrLimit) {
						t.Errorf("%s, %s, %s: with a limit of one less: %v", ename, iname, fname, err)
					}
				}
			}
		}
	}
}

// Frames concatenated, with skippable frames between them, decode to
// their contents concatenated; the output reuses dst.
func TestZstdFrames(t *testing.T) {
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	a, b := []byte(strings.Repeat("first frame ", 100)), []byte("second")
	skip := binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, 0x184d2a5e), 3)
	skip = append(skip, 1, 2, 3)
	src := append(append(append(append(enc.EncodeAll(a, nil), skip...), enc.EncodeAll(b, nil)...), skip...), enc.EncodeAll(nil, nil)...)
	dst := make([]byte, 0, 4096)
	got, err := ZstdDecodeFrames(src, 1<<20, dst)
	if want := append(append([]byte{}, a...), b...); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("got %q, %v", got, err)
	}
	if &got[0] != &dst[:1][0] {
		t.Errorf("dst not reused")
	}
	theirs, err := klauspostDecode(src, 1<<20)
	if err != nil || !bytes.Equal(theirs, got) {
		t.Errorf("klauspost: %q, %v", theirs, err)
	}
	for _, in := range [][]byte{nil, skip} {
		if got, err := ZstdDecodeFrames(in, 100, nil); err != nil || len(got) != 0 {
			t.Errorf("%x: %x, %v", in, got, err)
		}
	}
}

// zstdReference are frames written by zstd's own command line, which
// makes choices klauspost's encoder does not (predefined and RLE
// sequence tables, treeless literals, 1-stream Huffman literals...):
// testdata/zstd/*.zst, each beside the file it compresses. make-zstd.sh
// there writes them again when the zstd command is installed.
func TestZstdReference(t *testing.T) {
	files, _ := filepath.Glob("testdata/zstd/*.zst")
	if len(files) == 0 {
		t.Fatal("no testdata/zstd/*.zst")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(strings.TrimSuffix(strings.TrimSuffix(f, ".zst"), filepath.Ext(strings.TrimSuffix(f, ".zst"))))
		if err != nil {
			t.Fatal(err)
		}
		got, err := ZstdDecodeFrames(src, len(want), nil)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes back of %d, %v", f, len(got), len(want), err)
		}
	}
}

// zstd's command line at many settings, on every input, when it is
// installed.
func TestZstdCommand(t *testing.T) {
	cmd, err := exec.LookPath("zstd")
	if err != nil {
		t.Skip("no zstd command")
	}
	dir := t.TempDir()
	inputs := zstdInputs(t)
	for iname, in := range inputs {
		f := filepath.Join(dir, "in")
		if err := os.WriteFile(f, in, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"-1"}, {"-3"}, {"-9"}, {"-19"}, {"--ultra", "-22"}, {"--fast=5"}, {"-3", "--no-check"}, {"-3", "--long=24"},
			{"-6", "-B1024"}, {"-1", "--zstd=wlog=10"}, {"-19", "--zstd=strat=9"}, {"-3", "--no-content-size"}} {
			if len(in) > 1<<20 && args[0] != "-1" && args[0] != "-3" {
				continue
			}
			out, err := exec.Command(cmd, append(args, "-q", "-c", f)...).Output()
			if err != nil {
				t.Fatalf("zstd %s: %v", args, err)
			}
			got, err := ZstdDecodeFrames(out, len(in), nil)
			if err != nil || !bytes.Equal(got, in) {
				t.Errorf("zstd %s, %s: %d bytes back of %d, %v", args, iname, len(got), len(in), err)
			}
		}
	}
}

// Cut anywhere, a frame does not decode to a wrong output: ours errs
// wherever klauspost errs, and never panics.
func TestZstdCut(t *testing.T) {
	inputs := zstdInputs(t)
	for ename, opts := range zstdEncoders() {
		for _, iname := range []string{"hello", "text 5000", "records", "random 1000", "abab"} {
			in := inputs[iname]
			if iname == "records" {
				in = sampleRecords(100)
			}
			for fname, frame := range zstdFrames(t, in, opts) {
				// Every cut in the first and last 100 bytes, 100 between.
				for n := range len(frame) {
					if n >= 100 && n < len(frame)-100 && n%max(1, len(frame)/100) != 0 {
						continue
					}
					_, theirErr := klauspostDecode(frame[:n], 1<<20)
					got, err := ZstdDecodeFrames(frame[:n], 1<<20, nil)
					if err == nil && (theirErr != nil || !bytes.HasPrefix(in, got)) {
						t.Errorf("%s, %s, %s cut to %d bytes: %d bytes decoded, klauspost says %v", ename, iname, fname, n, len(got), theirErr)
					}
				}
			}
		}
	}
}

// Corrupt streams: a byte changed anywhere never panics, and when
// klauspost decodes the result ours decodes it the same way.
func TestZstdCorrupt(t *testing.T) {
	inputs := zstdInputs(t)
	r := rand.New(rand.NewPCG(5, 6))
	for ename, opts := range zstdEncoders() {
		for _, iname := range []string{"text 5000", "records", "skewed"} {
			for fname, frame := range zstdFrames(t, inputs[iname][:min(len(inputs[iname]), 20000)], opts) {
				for range 300 {
					b := bytes.Clone(frame)
					b[r.IntN(len(b))] ^= byte(1 + r.IntN(255))
					compareZstd(t, fmt.Sprintf("%s, %s, %s", ename, iname, fname), b, 1<<20)
				}
			}
		}
	}
}

// compareZstd checks ours against klauspost's on b: the same output when
// klauspost decodes it within the limit; never success with another
// output; never more than the limit.
func compareZstd(t *testing.T, name string, b []byte, limit int) {
	t.Helper()
	got, err := ZstdDecodeFrames(b, limit, nil)
	if len(got) > limit {
		t.Fatalf("%s: %d bytes out, limit %d", name, len(got), limit)
	}
	theirs, theirErr := klauspostDecode(b, limit)
	if theirErr == nil && (err != nil || !bytes.Equal(got, theirs)) {
		t.Fatalf("%s: %x\nklauspost decodes %d bytes, ours %d bytes, %v", name, b, len(theirs), len(got), err)
	}
	if err == nil && theirErr != nil && !errors.Is(theirErr, ErrLimit) && !klauspostStricter(theirErr) {
		t.Fatalf("%s: %x\nours decodes %d bytes, klauspost says %v", name, b, len(got), theirErr)
	}
}

// klauspostStricter says whether klauspost refused what the RFC allows
// and ours accepts.
func klauspostStricter(err error) bool {
	for _, s := range []string{"input too small", "symbolLen", "min elt size", "newState", "tableLog too large"} {
		if strings.Contains(err.Error(), s) {
			return true
		}
	}
	return false
}

func TestZstdErrors(t *testing.T) {
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	good := enc.EncodeAll([]byte(strings.Repeat("abcdefgh", 1000)), nil)
	set := func(i int, v byte) []byte { b := bytes.Clone(good); b[i] = v; return b }
	for _, tc := range []struct {
		name string
		b    []byte
		want string
	}{
		{"magic", set(0, 0), "offset 0 (0x0000): magic 0xfd2fb500, want 0xfd2fb528"},
		{"short", good[:2], "offset 0 (0x0000): 2 bytes left, too few for a frame"},
		{"header", good[:5], "frame header cut short"},
		{"reserved bit", set(4, good[4]|0x08), "offset 0 (0x0000): frame header cut short or reserved bit set"},
		{"dictionary", append(append([]byte{}, good[:4]...), 0x01, 0x58, 0x07), "offset 0 (0x0000): the frame needs dictionary 7 (not supported)"},
		{"block cut", good[:len(good)-6], "cut short"},
		{"checksum", set(len(good)-1, good[len(good)-1]^1), "content checksum"},
		{"trailing", append(bytes.Clone(good), 1, 2), "2 bytes left, too few for a frame"},
		{"skippable", []byte{0x50, 0x2a, 0x4d, 0x18, 9, 0, 0, 0, 1}, "skippable frame cut short"},
		{"reserved block", []byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x50, 0x07, 0x00, 0x00}, "offset 6 (0x0006): block of 0 bytes, type 3: over 131072, cut short or reserved type"},
		{"content size", []byte{0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x05, 0x09, 0x00, 0x00, 'a'}, "frame decodes to 1 bytes, its header says 5"},
		{"big block", []byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x00, 0x01, 0x00, 0x20}, "block of 262144 bytes, type 0: over 1024"},
	} {
		_, err := ZstdDecodeFrames(tc.b, 1<<20, nil)
		var de *wire.DecodeError
		if !errors.As(err, &de) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want a *wire.DecodeError %q", tc.name, err, tc.want)
		}
	}
	// A declared content size over the limit is refused before anything
	// is allocated; so is an RLE block past it.
	big := []byte{0x28, 0xb5, 0x2f, 0xfd, 0x80, 0x00, 0x00, 0x00, 0x00, 0x40}
	if _, err := ZstdDecodeFrames(big, 1<<20, nil); !errors.Is(err, ErrLimit) {
		t.Errorf("1 GB content size: %v", err)
	}
	rle := []byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x58, 0x03, 0x00, 0x10, 'a'} // 128 KB of 'a' in an RLE block
	if got, err := ZstdDecodeFrames(rle, 1<<20, nil); err != nil || len(got) != 128<<10 {
		t.Errorf("RLE block: %d, %v", len(got), err)
	}
	if _, err := ZstdDecodeFrames(rle, 1000, nil); !errors.Is(err, ErrLimit) {
		t.Errorf("RLE block over the limit: %v", err)
	}
}

func TestZstdXXH64(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want uint64
	}{
		{"", 0xef46db3751d8e999},
		{"a", 0xd24ec4f1a98c6e5b},
		{"abc", 0x44bc2cf5ad770999},
		{"Nobody inspects the spammish repetition", 0xfbcea83c8a378bf1},
	} {
		if got := zstdXXH64([]byte(tc.in)); got != tc.want {
			t.Errorf("xxh64(%q) = %#x, want %#x", tc.in, got, tc.want)
		}
	}
}

// FuzzZstd: ours never panics, never returns more than the limit, and
// agrees with klauspost on what klauspost decodes, given the bytes b as
// they are, and b compressed by klauspost (at a level picked by lim,
// without checksum) with one byte changed (x at pos): most such frames
// still decode, to outputs the two must agree on.
func FuzzZstd(f *testing.F) {
	var encs []*zstd.Encoder
	for _, l := range []zstd.EncoderLevel{zstd.SpeedFastest, zstd.SpeedDefault, zstd.SpeedBetterCompression, zstd.SpeedBestCompression} {
		for _, crc := range []bool{false, true} {
			enc, _ := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithEncoderLevel(l), zstd.WithEncoderCRC(crc))
			encs = append(encs, enc)
		}
	}
	text := []byte(strings.Repeat("the quick brown fox jumps over the lazy dog; ", 40))
	for _, in := range [][]byte{nil, []byte("hello hello hello hello"), sampleRecords(30), bytes.Repeat([]byte{7}, 3000), text} {
		for k, enc := range encs {
			f.Add(enc.EncodeAll(in, nil), uint16(k*100), uint16(k*7), byte(k))
			f.Add(in, uint16(k), uint16(len(in)/3), byte(1<<k))
		}
	}
	files, _ := filepath.Glob("testdata/zstd/*.zst")
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil && len(b) < 4096 {
			f.Add(b, uint16(0), uint16(0), byte(0))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte, lim, pos uint16, x byte) {
		limit := 1 << 20
		if lim > 0 {
			limit = int(lim)
		}
		compareZstd(t, "bytes", b, limit)
		frame := encs[2*(int(lim)%4)].EncodeAll(b, nil)
		if got, err := ZstdDecodeFrames(frame, len(b), nil); err != nil || !bytes.Equal(got, b) {
			t.Fatalf("%x compressed by klauspost: %x back, %v", b, got, err)
		}
		frame[int(pos)%len(frame)] ^= x
		compareZstd(t, "changed frame", frame, 1<<20)
	})
}

// BenchmarkZstd decodes Kafka records and text compressed at the default
// level, with ours and klauspost's.
func BenchmarkZstd(b *testing.B) {
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	inputs := zstdInputs(b)
	for _, name := range []string{"records field", "text 1M", "mixed 3M"} {
		in := inputs[name]
		frame := enc.EncodeAll(in, nil)
		dst := make([]byte, 0, len(in))
		for _, dec := range []struct {
			name string
			f    func([]byte, int, []byte) ([]byte, error)
		}{{"ours", ZstdDecodeFrames}, {"klauspost", ZstdLibrary}} {
			b.Run(name+"/"+dec.name, func(b *testing.B) {
				b.SetBytes(int64(len(in)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := dec.f(frame, len(in), dst); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
