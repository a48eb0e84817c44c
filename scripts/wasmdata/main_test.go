package main

import (
	"bytes"
	"testing"
)

// image is the memory a module's data section writes: address -> byte.
func image(t *testing.T, module []byte) (map[uint64]byte, int) {
	t.Helper()
	for off := 8; off < len(module); {
		id := module[off]
		size, next, err := uleb(module, off+1)
		if err != nil {
			t.Fatal(err)
		}
		if id == 11 {
			segs, err := readData(module[next : next+int(size)])
			if err != nil {
				t.Fatal(err)
			}
			m := map[uint64]byte{}
			for _, s := range segs {
				for i, c := range s.data {
					if c != 0 {
						m[s.addr+uint64(i)] = c
					}
				}
			}
			return m, len(segs)
		}
		off = next + int(size)
	}
	t.Fatal("no data section")
	return nil, 0
}

func module(segs []segment, tail []byte) []byte {
	b := []byte("\x00asm\x01\x00\x00\x00")
	b = append(b, 1, 4, 1, 0x60, 0, 0) // a type section before
	data := writeData(segs)
	b = append(b, 11)
	b = appendUleb(b, uint64(len(data)))
	b = append(b, data...)
	return append(b, tail...)
}

func appendUleb(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func TestMergeKeepsTheMemory(t *testing.T) {
	tail := []byte{0, 3, 1, 'x', 7} // a custom section after
	segs := []segment{
		{5000, []byte{9, 9}},
		{0x40, []byte{1, 2, 3}}, // out of order, as the linker writes them
		{0x50, []byte{4}},       // 13 bytes after the one before
		{3000, []byte{5, 0, 6}},
		{1 << 22, []byte{7}}, // an address needing a four-byte LEB128
		{3, []byte{8}},
	}
	in := module(segs, tail)
	want, n := image(t, in)
	if n != len(segs) {
		t.Fatalf("%d segments read, %d written", n, len(segs))
	}
	for _, c := range []struct {
		gap  int
		segs int
	}{{0, 6}, {13, 5}, {100, 4}, {2000, 3}, {1 << 31, 1}} {
		out, before, after, err := merge(in, c.gap)
		if err != nil {
			t.Fatal(err)
		}
		got, n := image(t, out)
		if before != len(segs) || after != c.segs || n != c.segs {
			t.Errorf("gap %d: %d -> %d segments (%d read back), want %d -> %d", c.gap, before, after, n, len(segs), c.segs)
		}
		if len(got) != len(want) {
			t.Errorf("gap %d: %d bytes set, want %d", c.gap, len(got), len(want))
		}
		for a, v := range want {
			if got[a] != v {
				t.Errorf("gap %d: byte at %#x is %d, want %d", c.gap, a, got[a], v)
			}
		}
		if !bytes.HasSuffix(out, tail) || !bytes.Equal(out[8:14], in[8:14]) {
			t.Errorf("gap %d: the other sections changed", c.gap)
		}
	}
}

func TestMergeRefuses(t *testing.T) {
	for name, b := range map[string][]byte{
		"not wasm":  []byte("\x00asn\x01\x00\x00\x00"),
		"truncated": append(module([]segment{{1, []byte{1, 2, 3}}}, nil)[:20:20], 0),
		"passive":   {0, 'a', 's', 'm', 1, 0, 0, 0, 11, 4, 1, 1, 1, 7},
	} {
		if _, _, _, err := merge(b, 10); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
