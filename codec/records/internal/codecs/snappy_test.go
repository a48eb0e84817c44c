package codecs

import (
	"bytes"
	"testing"

	"github.com/klauspost/compress/s2"
)

// The browser app's snappy code (snappy.go) reads what s2 writes, and s2
// reads what it writes.
func FuzzSnappy(f *testing.F) {
	f.Add([]byte("hello hello hello hello hello"), []byte{})
	f.Add(bytes.Repeat([]byte{7}, 70000), []byte{0x05, 0x00})
	f.Add([]byte{}, []byte{0x0a, 0x08, 'a', 'b', 0x09, 0x02})
	f.Fuzz(func(t *testing.T, data, junk []byte) {
		enc := s2.EncodeSnappy(nil, data)
		got, err := DecodeSnappy(nil, enc)
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("DecodeSnappy(s2's block) = %v, %v", err, len(got))
		}
		if n, err := SnappyLen(enc); err != nil || n != len(data) {
			t.Fatalf("SnappyLen = %d, %v", n, err)
		}
		lit := EncodeSnappyLiterals(data)
		back, err := s2.Decode(nil, lit)
		if err != nil || !bytes.Equal(back, data) {
			t.Fatalf("s2 cannot read EncodeSnappyLiterals: %v", err)
		}
		// Junk: never a panic; when both accept it, they agree.
		mine, err1 := DecodeSnappy(nil, junk)
		if n, err := s2.DecodedLen(junk); err != nil || n > 1<<20 {
			return // s2.Decode would allocate what the block declares
		}
		theirs, err2 := s2.Decode(nil, junk)
		if err1 == nil && err2 == nil && !bytes.Equal(mine, theirs) {
			t.Fatalf("junk %x decodes to %x here, %x in s2", junk, mine, theirs)
		}
	})
}
