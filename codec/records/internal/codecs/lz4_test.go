package codecs

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pierrec/lz4/v4"

	"kwire/codec/wire"
)

// lz4Inputs are texts of every kind: empty, tiny, random, repetitive,
// longer than a block.
func lz4Inputs() [][]byte {
	r := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 100<<10)
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	text := []byte(strings.Repeat("key-17 value of a record, value of a record; ", 4000))
	mixed := append(append([]byte{}, random[:3000]...), text[:70000]...)
	return [][]byte{nil, []byte("a"), []byte("hello, world"), bytes.Repeat([]byte{0}, 200000), random, text, mixed, text[:13], text[:17]}
}

// The browser's lz4 (lz4.go) reads what pierrec writes, and pierrec reads
// what it writes, with the same bytes back.
func TestLZ4AgainstPierrec(t *testing.T) {
	for _, in := range lz4Inputs() {
		for _, opts := range [][]lz4.Option{nil, {lz4.BlockSizeOption(lz4.Block64Kb), lz4.BlockChecksumOption(true)}, {lz4.CompressionLevelOption(lz4.Level9)}, {lz4.ConcurrencyOption(1), lz4.SizeOption(uint64(len(in)))}} {
			var buf bytes.Buffer
			w := lz4.NewWriter(&buf)
			if err := w.Apply(opts...); err != nil {
				t.Fatal(err)
			}
			w.Write(in)
			w.Close()
			got, err := LZ4DecodeFrames(buf.Bytes(), len(in), nil)
			if err != nil || !bytes.Equal(got, in) {
				t.Errorf("%d bytes written by pierrec: %d back, %v", len(in), len(got), err)
			}
			if len(in) > 0 {
				if _, err := LZ4DecodeFrames(buf.Bytes(), len(in)-1, nil); !errors.Is(err, ErrLimit) {
					t.Errorf("%d bytes with a limit of one less: %v", len(in), err)
				}
			}
		}
		frame := LZ4EncodeFrame(in)
		back, err := io.ReadAll(lz4.NewReader(bytes.NewReader(frame)))
		if err != nil || !bytes.Equal(back, in) {
			t.Errorf("%d bytes written by lz4.go: pierrec reads %d, %v", len(in), len(back), err)
		}
		mine, err := LZ4DecodeFrames(frame, len(in), []byte("reused"))
		if err != nil || !bytes.Equal(mine, in) {
			t.Errorf("%d bytes written by lz4.go: lz4.go reads %d, %v", len(in), len(mine), err)
		}
	}
	// Repetitive text shrinks; random bytes are stored.
	text := lz4Inputs()[5]
	if n := len(LZ4EncodeFrame(text)); n > len(text)/10 {
		t.Errorf("%d bytes of repetitive text compress to %d", len(text), n)
	}
	random := lz4Inputs()[4]
	if n := len(LZ4EncodeFrame(random)); n > len(random)+32 {
		t.Errorf("%d random bytes take %d", len(random), n)
	}
}

func TestLZ4Errors(t *testing.T) {
	good := LZ4EncodeFrame([]byte(strings.Repeat("abcdefgh", 100)))
	for _, tc := range []struct {
		name string
		b    []byte
		want string
	}{
		{"empty", nil, "no frame"},
		{"magic", append([]byte{1, 2, 3, 4}, good[4:]...), "magic"},
		{"short", good[:6], "too few"},
		{"header checksum", append(append(append([]byte{}, good[:6]...), good[6]^1), good[7:]...), "header checksum"},
		{"cut", good[:len(good)-5], "offset 7 (0x0007): block: size 21"},
		{"no end mark", good[:len(good)-4], "too few for a block size"},
		{"block too big", append(append([]byte{}, good[:7]...), 0xff, 0xff, 0x01, 0x00), "blocks are at most 65536"},
		{"bad offset", append(append([]byte{}, good[:7]...), 5, 0, 0, 0, 0x04, 0x09, 0x00, 0, 0), "offset 12 (0x000c): block: match offset 9"},
		{"trailing", append(append([]byte{}, good...), 1, 2), "too few for a frame header"},
	} {
		_, err := LZ4DecodeFrames(tc.b, 1<<20, nil)
		var de *wire.DecodeError
		if !errors.As(err, &de) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want a *wire.DecodeError %q", tc.name, err, tc.want)
		}
	}
	// A long match in few bytes is refused before it is made.
	bomb := append([]byte{}, good[:7]...)
	blk := []byte{0x1f, 'a', 1, 0}
	blk = append(blk, bytes.Repeat([]byte{255}, 200)...)
	blk = append(blk, 0, 0x00)
	bomb = append(bomb, byte(len(blk)), 0, 0, 0)
	bomb = append(bomb, blk...)
	bomb = append(bomb, 0, 0, 0, 0)
	if _, err := LZ4DecodeFrames(bomb, 1000, nil); !errors.Is(err, ErrLimit) {
		t.Errorf("a 50 KB match with a limit of 1000: %v", err)
	}
}

// lz4.go never panics, never returns more than the limit, and agrees
// with pierrec on what decodes.
func FuzzLZ4(f *testing.F) {
	for _, in := range lz4Inputs()[:4] {
		f.Add(LZ4EncodeFrame(in))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		const limit = 1 << 20
		got, err := LZ4DecodeFrames(b, limit, nil)
		if err != nil {
			return
		}
		if len(got) > limit {
			t.Fatalf("%d bytes out, limit %d", len(got), limit)
		}
		again := LZ4EncodeFrame(got)
		if back, err := LZ4DecodeFrames(again, limit, nil); err != nil || !bytes.Equal(back, got) {
			t.Fatalf("re-encoded: %v", err)
		}
	})
}

// Corrupt frames: a byte changed anywhere never panics, and when pierrec
// decodes the result, lz4.go decodes it to the same bytes.
func TestLZ4Corrupt(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	decoded := 0
	for k, in := range lz4Inputs()[2:] {
		in = in[:min(len(in), 30000)]
		var buf bytes.Buffer
		w := lz4.NewWriter(&buf)
		if err := w.Apply(lz4.ChecksumOption(k%2 == 0)); err != nil { // without it, most changed frames decode
			t.Fatal(err)
		}
		w.Write(in)
		w.Close()
		for range 500 {
			b := bytes.Clone(buf.Bytes())
			b[r.IntN(len(b))] ^= byte(1 + r.IntN(255))
			theirs, err := io.ReadAll(io.LimitReader(lz4.NewReader(bytes.NewReader(b)), 1<<20))
			mine, myErr := LZ4DecodeFrames(b, 1<<20, nil)
			if err == nil && (myErr != nil || !bytes.Equal(mine, theirs)) {
				t.Fatalf("%x: pierrec decodes %d bytes, lz4.go %d, %v", b, len(theirs), len(mine), myErr)
			}
			if err == nil {
				decoded++
			}
		}
	}
	t.Logf("pierrec decoded %d changed frames", decoded)
	if decoded < 100 {
		t.Errorf("pierrec decoded %d changed frames, too few to compare", decoded)
	}
}
