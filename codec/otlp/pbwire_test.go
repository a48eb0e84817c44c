//go:build !js

package otlp

import (
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// pbSeeds are the shapes protobuf readers disagree on: varints of ten
// bytes and more, tags of field 0 and past int32, lengths past the end,
// groups nested, unclosed and closed by another number, reserved types.
var pbSeeds = [][]byte{
	{}, {0x08, 0x96, 0x01}, {0x08}, {0x0a, 0x03, 'a', 'b', 'c'}, {0x0a, 0x05, 'a'},
	{0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f}, {0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01},
	{0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02}, {0x08, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00},
	{0x00}, {0x07}, {0x06}, {0xf8, 0xff, 0xff, 0xff, 0x07}, {0xf8, 0xff, 0xff, 0xff, 0x0f}, {0xf8, 0xff, 0xff, 0xff, 0x3f},
	{0x0b, 0x10, 0x01, 0x0c}, {0x0b, 0x10, 0x01, 0x14}, {0x0b, 0x13, 0x1c, 0x0c}, {0x0b, 0x13, 0x0c}, {0x0c}, {0x0b},
	{0x0d, 1, 2, 3, 4}, {0x0d, 1, 2}, {0x09, 1, 2, 3, 4, 5, 6, 7, 8}, {0x09, 1, 2, 3, 4, 5, 6, 7},
}

// Our reader against protowire: the same numbers, types, values, sizes,
// error codes and texts for every field of the input.
func FuzzPBWire(f *testing.F) {
	for _, b := range pbSeeds {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		comparePB(t, b)
	})
}

func TestPBWire(t *testing.T) {
	for _, b := range pbSeeds {
		comparePB(t, b)
	}
	// Groups nested past the recursion limit, closed properly.
	var deep []byte
	for range recursionLimit + 2 {
		deep = append(deep, 0x0b)
	}
	for range recursionLimit + 2 {
		deep = append(deep, 0x0c)
	}
	comparePB(t, deep)
}

func comparePB(t *testing.T, b []byte) {
	t.Helper()
	for len(b) > 0 {
		num, typ, n := consumeTag(b)
		wnum, wtyp, wn := protowire.ConsumeTag(b)
		if n != wn || n >= 0 && (int32(num) != int32(wnum) || int8(typ) != int8(wtyp)) {
			t.Fatalf("tag of %x: %d %d %d, protowire %d %d %d", b, num, typ, n, wnum, wtyp, wn)
		}
		if n < 0 {
			if parseError(n) != pbText(wn) {
				t.Fatalf("error %d: %q, protowire %q", n, parseError(n), protowire.ParseError(wn))
			}
			return
		}
		v := consumeFieldValue(num, typ, b[n:])
		wv := protowire.ConsumeFieldValue(wnum, wtyp, b[n:])
		if v != wv {
			t.Fatalf("value of %x: %d, protowire %d", b, v, wv)
		}
		if v < 0 {
			if parseError(v) != pbText(wv) {
				t.Fatalf("error %d: %q, protowire %q", v, parseError(v), protowire.ParseError(wv))
			}
			return
		}
		val := b[n:]
		switch typ {
		case varintType:
			x, m := consumeVarint(val)
			wx, wm := protowire.ConsumeVarint(val)
			if x != wx || m != wm {
				t.Fatalf("varint %x: %d %d, protowire %d %d", val, x, m, wx, wm)
			}
		case fixed32Type:
			x, _ := consumeFixed32(val)
			if wx, _ := protowire.ConsumeFixed32(val); x != wx {
				t.Fatalf("fixed32 %x: %d, protowire %d", val, x, wx)
			}
		case fixed64Type:
			x, _ := consumeFixed64(val)
			if wx, _ := protowire.ConsumeFixed64(val); x != wx {
				t.Fatalf("fixed64 %x: %d, protowire %d", val, x, wx)
			}
		case bytesType:
			x, m := consumeBytes(val)
			wx, wm := protowire.ConsumeBytes(val)
			if string(x) != string(wx) || m != wm {
				t.Fatalf("bytes %x: %x %d, protowire %x %d", val, x, m, wx, wm)
			}
		}
		b = b[n+v:]
	}
}

// pbText is protowire's text of an error code, with the space protobuf
// sometimes writes as U+00A0 after "proto:" (so that no one relies on its
// texts) written as a space.
func pbText(n int) string {
	return strings.Replace(protowire.ParseError(n).Error(), "proto:\u00a0", "proto: ", 1)
}
